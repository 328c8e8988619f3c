"""Warm processes: load the models a process needs before it accepts work, so the first request is as fast as the
hundredth (lazy loading made the first requests after a start wait 50–65 s per web worker and the first
consolidation of each queue worker ~55 s in "plan").

- gunicorn workers: ``recmem_site/gunicorn_conf.py`` calls :func:`warm_up` (``role="web"``) in ``post_worker_init``,
  before the worker's accept loop starts: a worker that answers is warm.
- django-q workers: :func:`on_queue_worker_spawn` (django-q's ``post_spawn``, connected in ``MemoryConfig.ready``)
  warms each worker process as it starts, and its first task waits for that (``pre_execute``); a warm worker is
  recorded in the shared cache, where ``/healthz`` (``queue.workers_warm``) and ``recmem run`` see it.

What is loaded: the embedder (and one encoding, which initialises torch's kernels), the masking engine (Presidio +
spaCy NER, with one analysis); for a web worker one ingest and one search through the HTTP stack, rolled back
(:func:`_dry_run`), and the search threads' connections, for the
queue worker the extractive consolidator's spaCy pipeline when it is the consolidator in use. RECMEM_WARM_UP=0 turns
it off (models then load on first use).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Any

from core.config import config
from core.priority import lower_priority

logger = logging.getLogger(__name__)

SAMPLE = "Warm-up: Jane Doe (jane.doe@example.com, +1 415 555 0100) planned the Berlin marathon for September."
CACHE_PREFIX = "recmem:warm-worker:"
WEB_CACHE_PREFIX = "recmem:warm-web:"
CACHE_SECONDS = 7 * 24 * 3600

_state: dict[str, Any] = {"state": "lazy", "role": "", "ms": {}}
_lock = threading.Lock()


def _timed(name: str, timings: dict[str, float], load) -> None:
    started = time.perf_counter()
    load()
    timings[name] = round((time.perf_counter() - started) * 1000, 1)


def warm_up(*, role: str) -> dict[str, float]:
    """Load and exercise what a ``role`` ("web" or "worker") process needs; returns the milliseconds of each part.
    Idempotent: a second call in the same process only reports the first one's timings."""
    with _lock:
        if _state["state"] == "ready":
            return dict(_state["ms"])
        _state.update(state="warming", role=role)
        timings: dict[str, float] = {}

        def embedder() -> None:
            from memory.gateways.embeddings import get_embedder

            get_embedder().embed([SAMPLE])

        def masker() -> None:
            from governance.privacy.engine import mask

            mask(SAMPLE, key=b"warm-up")

        def extractive() -> None:
            from memory.consolidators.extractive.parsing import load_nlp

            nlp, nlp_lock = load_nlp()
            with nlp_lock:
                nlp(SAMPLE)

        try:
            _timed("embedder", timings, embedder)
            _timed("masker", timings, masker)
            if role == "worker" and _consolidator_kind() == "extractive":
                _timed("extractive_spacy", timings, extractive)
        except Exception as exc:
            _state.update(state="failed", error=f"{type(exc).__name__}: {exc}")
            raise
        if role == "web":
            try:
                _timed("dry_run", timings, _dry_run)
                _timed("search_connections", timings, _search_connections)
            except Exception:  # the database is not there yet: the first request does this part
                logger.warning("warm-up dry run skipped", exc_info=True)
        _state.update(state="ready", ms=timings)
        logger.info("%s process %s warm in %.1f s: %s", role, os.getpid(), sum(timings.values()) / 1000, timings)
        return dict(timings)


class _RolledBack(Exception):
    pass


def _dry_run() -> None:
    """One ingest and one search in a throw-away project, through the whole HTTP stack, rolled back: what a first
    request does beyond the models (URL resolving, middleware, API-key authentication, throttling, DRF's views and
    serializers; the privacy policy, vault, the recurrence query, the audit trail; the database's pages and plans) is
    done once here instead of in a client's first request. Calling the services alone left ~35 ms of that to each
    worker's first request (a first ingest 2.4–2.6× the median on a quiet machine, measured by bench_scale). Nothing
    stays: not the project, not an API key, not an exchange, not an audit row."""
    import uuid

    from django.conf import settings
    from django.db import connection, transaction
    from django.test import Client

    from agents.services import agent_create, api_key_create

    # A host the server accepts (a leading dot allows the domain itself; "*" any).
    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*"), "localhost")
    try:
        with transaction.atomic():
            agent = agent_create(project_name=f"warm-up-{uuid.uuid4()}", name="warm-up")
            # The test client keeps this thread's connection (and so the transaction) open across its requests.
            client = Client(HTTP_HOST=host, HTTP_AUTHORIZATION=f"Bearer {api_key_create(agent=agent).raw_key}")

            def post(path: str, body: dict) -> dict:
                response = client.post(f"/api/v1/{path}", body, content_type="application/json",
                                       secure=bool(settings.SECURE_SSL_REDIRECT))
                if not 200 <= response.status_code < 300:
                    raise RuntimeError(f"warm-up request {path} answered {response.status_code}: "
                                       f"{response.content[:200]!r}")
                return response.json()

            session = post("sessions", {})
            post(f"sessions/{session['id']}/exchanges", {"user": SAMPLE, "assistant": "Noted."})
            post("search", {"query": "marathon plan"})
            raise _RolledBack
    except _RolledBack:
        pass
    finally:
        connection.close()  # this thread's connection; request threads open their own


def _search_connections() -> None:
    # A search runs its statements side by side on the pool threads' own connections: opened here, not by the
    # first search.
    from memory.search.side_by_side import side_by_side_connect

    side_by_side_connect()


def _consolidator_kind() -> str:
    from memory.gateways.llm import llm_configured

    return "llm" if config().consolidation.consolidator != "extractive" and llm_configured() else "extractive"


def readiness() -> dict[str, Any]:
    """This process: ``ready`` once warm (or when warm-up is not used here: models load on first use)."""
    state = _state["state"]
    report: dict[str, Any] = {"pid": os.getpid(), "ready": state in ("ready", "lazy"), "warm_up": state}
    if state == "ready":
        report.update(role=_state["role"], warm_ms=dict(_state["ms"]))
    elif state == "failed":
        report["error"] = f"warm-up failed: {_state.get('error')}"
    elif state == "lazy":
        report["note"] = "no warm-up in this process: models load on first use"
    return report


def worker_key(pid: int, host: str | None = None) -> str:
    return f"{CACHE_PREFIX}{host or socket.gethostname()}:{pid}"


_queue_warm_up: threading.Thread | None = None


def on_queue_worker_spawn(sender: Any = None, proc_name: str = "", **kwargs: Any) -> None:
    """django-q ``post_spawn``: lower this queue worker's CPU priority (``RECMEM_WORKER_NICE``, core/priority.py)
    and start warming it. The load runs in a thread, so a stop during it is obeyed at once; a task that arrives
    meanwhile waits for it (:func:`on_queue_task_start`)."""
    global _queue_warm_up
    from django_q.conf import Conf

    if Conf.SYNC or _queue_warm_up is not None:  # sync mode runs tasks in this process (a test, a web request)
        return
    # Before the warm-up thread starts, so it and the model's thread pool inherit the lower priority.
    lower_priority(config().queue.nice)
    if not config().server.warm_up:
        return

    def load() -> None:
        from django.core.cache import cache
        from django.db import connection

        try:
            timings = warm_up(role="worker")
            cache.set(worker_key(os.getpid()), {"ms": timings, "at": time.time()}, CACHE_SECONDS)
        except Exception:  # a worker that cannot warm still works (lazily); the failure is in the log
            logger.exception("warm-up of queue worker %s failed", proc_name)
        finally:
            connection.close()

    _queue_warm_up = threading.Thread(target=load, name="warm-up", daemon=True)
    _queue_warm_up.start()


def on_queue_task_start(sender: Any = None, func: Any = None, task: dict | None = None, **kwargs: Any) -> None:
    """django-q ``pre_execute`` (before the task's timeout starts): a consolidation waits until its worker is warm;
    the ticks (reaper, idle scheduler) need no model and run at once."""
    from memory.services.scheduling import CONSOLIDATION_RUN_TASK

    if _queue_warm_up is not None and (task or {}).get("func") == CONSOLIDATION_RUN_TASK:
        _queue_warm_up.join()


def web_worker_warm_record() -> None:
    """A gunicorn worker that finished its warm-up, recorded in the shared cache for ``recmem run``'s progress."""
    from django.core.cache import cache
    from django.db import connection

    try:
        cache.set(f"{WEB_CACHE_PREFIX}{socket.gethostname()}:{os.getpid()}", {"at": time.time()}, CACHE_SECONDS)
    finally:
        connection.close()


def web_workers_warm(pids: list[int], *, since: float) -> int:
    """How many of these gunicorn worker pids (this host) finished their warm-up after ``since`` (a pid of an earlier
    run is not counted)."""
    from django.core.cache import cache

    if not pids:
        return 0
    found = cache.get_many([f"{WEB_CACHE_PREFIX}{socket.gethostname()}:{pid}" for pid in pids])
    return sum(1 for entry in found.values() if entry.get("at", 0) >= since)


def queue_workers_warm(worker_pids: list[tuple[str, int]]) -> int:
    """How many of the given (host, pid) queue workers have finished their warm-up."""
    from django.core.cache import cache

    if not worker_pids:
        return 0
    found = cache.get_many([worker_key(pid, host) for host, pid in worker_pids])
    return len(found)
