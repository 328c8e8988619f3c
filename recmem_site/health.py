"""`/healthz`: database, vector extension, queue, consolidation and this process's readiness.

``status`` is ``ok`` (200), ``degraded`` (200: serving, but background consolidation needs an operator or is
failing — see ``degraded`` and each part's ``problems``) or ``fail`` (503 naming the failing parts: do not route
traffic here). README: "Health and readiness".
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.config import config


def _check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        version = cursor.fetchone()[0]
    return {"ok": True, "embedded": settings.EMBEDDED_DATABASE, "version": version.split(" on ")[0]}


def _check_vector() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    if row is None:
        return {"ok": False, "error": "pgvector extension 'vector' is not installed (run migrations)"}
    return {"ok": True, "version": row[0]}


def _check_queue() -> dict[str, Any]:
    from django_q.brokers import get_broker
    from django_q.status import Stat

    broker = get_broker()
    if not broker.ping():
        return {"ok": False, "error": f"broker {broker.info()} does not answer"}
    from memory.warmup import queue_workers_warm

    clusters = Stat.get_all(broker=broker) or []
    workers = [(c.host, pid) for c in clusters for pid in (getattr(c, "workers", []) or [])]
    return {
        "ok": True,
        "broker": broker.info(),
        "queued": broker.queue_size(),
        "workers_seen": len(workers),
        "workers_warm": queue_workers_warm(workers) if config().server.warm_up else len(workers),
        "clusters_seen": len(clusters),
    }


def _consolidator() -> dict[str, Any]:
    from memory.gateways.llm import llm_configured

    if config().consolidation.consolidator != "extractive" and llm_configured():
        return {"ok": True, "kind": "llm", "model": config().llm.model}
    return {"ok": True, "kind": "extractive",
            "note": "no LLM endpoint configured (RECMEM_LLM_BASE_URL): extractive consolidator, zero tokens"}


def _consolidation() -> dict[str, Any]:
    from memory.health import consolidation_health

    return consolidation_health()


def _process() -> dict[str, Any]:
    """The process that answers: ready once its models are loaded (gunicorn workers warm up before accepting)."""
    from memory.warmup import readiness

    report = readiness()
    report["ok"] = report["ready"]
    if not report["ready"]:
        report.setdefault("error", "warming up: loading the embedder and the masking engine")
    return report


def _queue_progress() -> dict[str, Any]:
    from memory.queue_health import queue_progress_health

    return queue_progress_health()


CHECKS = {"database": _check_database, "vector": _check_vector, "queue": _check_queue,
          "queue_progress": _queue_progress, "consolidator": _consolidator, "consolidation": _consolidation,
          "process": _process}


def health_report() -> tuple[bool, dict[str, Any]]:
    report: dict[str, Any] = {}
    healthy = True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            result = check()
        except Exception as exc:  # any failure of a part is reported, never raised
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        report[name] = result
        healthy = healthy and result["ok"]
        if name == "database" and not result["ok"]:
            # Everything else needs the database; name it as the failing part and stop.
            break
    return healthy, report


@never_cache
@require_GET
def healthz(request):
    healthy, report = health_report()
    failing = [name for name, result in report.items() if not result["ok"]]
    degraded = [name for name, result in report.items() if result.get("degraded")]
    status = "fail" if not healthy else "degraded" if degraded else "ok"
    body = {"status": status, "failing": failing, "degraded": degraded, "checks": report}
    return JsonResponse(body, status=200 if healthy else 503)
