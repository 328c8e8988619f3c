"""django-q2 entry points: load ids, call a service. Tasks are idempotent (at-least-once delivery)."""

from __future__ import annotations

import uuid

from django_q.tasks import async_task


def consolidation_enqueue(*, agent_id: uuid.UUID) -> None:
    """Queue a consolidation run for the agent's pending candidates (called on commit of an ingest)."""
    async_task("memory.tasks.consolidation_run_task", str(agent_id), task_name=f"consolidate:{agent_id}",
               group="consolidation")


def consolidation_run_task(agent_id: str, batch_id: str | None = None) -> str | None:
    from memory.services.consolidation import consolidation_run

    batch = consolidation_run(agent_id=uuid.UUID(agent_id), batch_id=uuid.UUID(batch_id) if batch_id else None)
    return str(batch.pk) if batch is not None else None


def idle_consolidation_tick_task() -> int:
    """Scheduled every minute: start idle-time runs for agents whose trigger conditions hold."""
    from memory.services.idle import idle_runs_start

    return idle_runs_start()
