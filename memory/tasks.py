"""django-q2 entry points only: load ids, call a service. Tasks are idempotent (at-least-once delivery).

Their dotted paths are spelled once, in :mod:`memory.services.scheduling`.
"""

from __future__ import annotations

import uuid

from governance.services.idempotency import idempotency_keys_purge
from memory.services.consolidation import consolidation_run
from memory.services.forget import forget_tables_vacuum
from memory.services.lifecycle import memory_lifecycle_tick
from memory.services.metrics import metrics_compute
from memory.services.recovery import batches_reap
from memory.services.scheduling import idle_runs_start
from memory.services.validity import validity_samples_weekly


def consolidation_run_task(agent_id: str, batch_id: str | None = None, run: str = "online") -> str | None:
    """``run``: online, idle (queued by the idle scheduler), manual (an explicit request) or updates (the agent's
    waiting updates, queued by another agent's pass)."""
    batch = consolidation_run(agent_id=uuid.UUID(agent_id), batch_id=uuid.UUID(batch_id) if batch_id else None,
                              run=run if run in ("online", "idle", "manual", "updates") else "online")
    return str(batch.pk) if batch is not None else None


def idle_consolidation_tick_task() -> int:
    """Scheduled every minute: start idle-time runs for agents whose trigger conditions hold."""
    return idle_runs_start()


def governance_metrics_task() -> int:
    """Scheduled every hour: revalidation flags and archiving (memory/services/lifecycle.py), this week's validity
    samples, then today's and yesterday's metric rows."""
    memory_lifecycle_tick()
    validity_samples_weekly()
    return metrics_compute(days=2)


def batch_reaper_tick_task() -> dict[str, int]:
    """Scheduled every minute: re-queue batches whose process died; forget expired idempotency keys."""
    return {"reaped": len(batches_reap()), "idempotency_keys_purged": idempotency_keys_purge()}


def forget_vacuum_task() -> list[str]:
    """Queued on commit of each forget: VACUUM the tables it wrote (dead row versions hold the forgotten text)."""
    return forget_tables_vacuum()
