"""`/healthz`: database, vector extension and queue; 200 when all pass, 503 naming the failing part."""

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
    clusters = Stat.get_all(broker=broker) or []
    return {
        "ok": True,
        "broker": broker.info(),
        "queued": broker.queue_size(),
        "workers_seen": sum(len(getattr(c, "workers", []) or []) for c in clusters),
        "clusters_seen": len(clusters),
    }


def _consolidator() -> dict[str, Any]:
    from memory.gateways.llm import llm_configured

    if config().consolidator != "extractive" and llm_configured():
        return {"ok": True, "kind": "llm", "model": config().llm_model}
    return {"ok": True, "kind": "extractive",
            "note": "no LLM endpoint configured (RECMEM_LLM_BASE_URL): extractive consolidator, zero tokens"}


CHECKS = {"database": _check_database, "vector": _check_vector, "queue": _check_queue,
          "consolidator": _consolidator}


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
    body = {"status": "ok" if healthy else "fail", "failing": failing, "checks": report}
    return JsonResponse(body, status=200 if healthy else 503)
