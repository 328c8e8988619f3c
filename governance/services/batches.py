"""The ConsolidationBatch record, one lifecycle in one place: start (or restart for a retry) → record calls →
succeed | fail; rolled back is set by memory's rollback through :func:`batch_mark_rolled_back`.

The record knows nothing of memory rows: what a batch wrote is memory's business (``summary`` holds the ids).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, Protocol

from django.db import transaction
from django.utils import timezone

from agents.models import Agent, Project
from governance.models import AuditEvent, ConsolidationBatch, LLMCall
from governance.services.audit import audit_record


class CallRecord(Protocol):
    """What the LLM gateway reports for one call (``memory.gateways.llm.LLMCallRecord`` has these fields)."""

    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    ok: bool
    error: str | None


@transaction.atomic
def batch_start(*, batch_id: uuid.UUID | None = None, project: Project, agent: Agent, mode: str,
                consolidator: str) -> ConsolidationBatch:
    """Create (or restart for a retry) a batch in status running."""
    batch = ConsolidationBatch.objects.select_for_update().filter(pk=batch_id).first() if batch_id else None
    if batch is None:
        batch = ConsolidationBatch(project=project, agent=agent, mode=mode)
    batch.consolidator = consolidator
    batch.status = ConsolidationBatch.Status.RUNNING
    batch.attempts += 1
    batch.started_at = timezone.now()
    batch.error = ""
    batch.save()
    return batch


def batch_record_calls(*, batch: ConsolidationBatch, calls: Sequence[CallRecord]) -> None:
    """Persist the calls against the batch and add them to its totals."""
    if not calls:
        return
    LLMCall.objects.bulk_create([
        LLMCall(batch=batch, project_id=batch.project_id, purpose=c.purpose, model=c.model,
                prompt_tokens=c.prompt_tokens, completion_tokens=c.completion_tokens,
                tokens_source=getattr(c, "tokens_source", "api"), latency_ms=c.latency_ms, ok=c.ok,
                error=(c.error or "")[:2000])
        for c in calls
    ])
    by_purpose = dict(batch.tokens_by_purpose or {})
    for c in calls:
        entry = by_purpose.setdefault(c.purpose, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        entry["calls"] += 1
        entry["prompt_tokens"] += c.prompt_tokens
        entry["completion_tokens"] += c.completion_tokens
    batch.tokens_by_purpose = by_purpose
    batch.llm_call_count += len(calls)
    batch.prompt_tokens += sum(c.prompt_tokens for c in calls)
    batch.completion_tokens += sum(c.completion_tokens for c in calls)
    ConsolidationBatch.objects.filter(pk=batch.pk).update(
        tokens_by_purpose=batch.tokens_by_purpose, llm_call_count=batch.llm_call_count,
        prompt_tokens=batch.prompt_tokens, completion_tokens=batch.completion_tokens)


def batch_succeed(*, batch: ConsolidationBatch, summary: dict[str, Any], timings_ms: dict) -> ConsolidationBatch:
    """Mark the batch succeeded with what it wrote; called inside the write transaction, so the record and the
    rows it describes commit together."""
    batch.status = ConsolidationBatch.Status.SUCCEEDED
    batch.summary, batch.timings_ms = summary, timings_ms
    batch.finished_at = timezone.now()
    batch.error = ""
    batch.save(update_fields=["status", "summary", "timings_ms", "finished_at", "error"])
    return batch


@transaction.atomic
def batch_fail(*, batch: ConsolidationBatch, error: str, timings_ms: dict | None = None) -> ConsolidationBatch:
    batch.status = ConsolidationBatch.Status.FAILED
    batch.error = error[:4000]
    batch.finished_at = timezone.now()
    batch.timings_ms = timings_ms or batch.timings_ms
    batch.save(update_fields=["status", "error", "finished_at", "timings_ms"])
    audit_record(action=AuditEvent.Action.CONSOLIDATE, object_type="consolidation_batch", object_id=batch.pk,
                 project_id=batch.project_id, actor_label="system:consolidation", batch=batch,
                 reason=f"failed: {error[:200]}")
    return batch


def batch_mark_rolled_back(*, batch: ConsolidationBatch) -> ConsolidationBatch:
    """The record side of a rollback (memory's ``batch_rollback`` reverts the rows in the same transaction)."""
    batch.status = ConsolidationBatch.Status.ROLLED_BACK
    batch.rolled_back_at = timezone.now()
    batch.save(update_fields=["status", "rolled_back_at"])
    return batch
