"""The health of background consolidation, as /healthz reports it (recmem_site/health.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models.functions import Now

from core.config import config
from governance.models import ConsolidationBatch
from governance.selectors import batches_lease_expired
from memory.models import Candidate

STALLED_AFTER = timedelta(minutes=3)  # a lease this long past means no reaper is running


def consolidation_health() -> dict[str, Any]:
    """What /healthz reports about background consolidation; ``degraded`` when it needs an operator (candidates
    whose attempts are exhausted, batches nobody re-queues) or is failing right now (the latest batch failed)."""
    failed = Candidate.objects.filter(status=Candidate.Status.FAILED)
    failed_batches = list(ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.FAILED,
                                                            candidates__status=Candidate.Status.FAILED)
                          .values_list("pk", flat=True).distinct()[:20])
    stalled = batches_lease_expired().filter(lease_expires_at__lt=Now() - STALLED_AFTER).count()
    latest = (ConsolidationBatch.objects.filter(finished_at__isnull=False).order_by("-finished_at")
              .values("status", "error", "finished_at").first())
    report: dict[str, Any] = {
        "ok": True,
        "failed_candidates": failed.count(),
        "failed_batches": [str(pk) for pk in failed_batches],
        "pending_candidates": Candidate.objects.filter(status=Candidate.Status.PENDING).count(),
        "running_batches": ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.RUNNING).count(),
        "stalled_batches": stalled,
    }
    problems = []
    if report["failed_candidates"]:
        problems.append(f"{report['failed_candidates']} candidate(s) failed after "
                        f"{config().consolidation.max_attempts} attempts: admin → Consolidation batches → "
                        "Retry now")
    if stalled:
        problems.append(f"{stalled} running batch(es) lost their worker more than "
                        f"{int(STALLED_AFTER.total_seconds() // 60)} min ago and were not re-queued: is a queue "
                        "worker (manage.py qcluster) running?")
    if latest is not None and latest["status"] == ConsolidationBatch.Status.FAILED:
        report["latest_failure"] = latest["error"][:300]
        problems.append("the latest consolidation batch failed (a retry is scheduled while attempts are left)")
    if problems:
        report.update(degraded=True, problems=problems)
    return report
