"""The ConsolidationBatch record, one lifecycle in one place:

    start (running, with a lease) → heartbeat … → succeed | fail
                                  ↘ lease passed (process died) → requeue (pending) → start again …

rolled back is set by memory's rollback through :func:`batch_mark_rolled_back`. LLM calls are recorded one by one
as they happen, outside any write transaction: a call is written when its request is sent (prompt tokens counted
offline) and completed when its reply arrives, so the tokens of a call whose process dies are never lost.

The lease is kept on the database's clock (``now()``), so workers on several machines need no common clock. The
record knows nothing of memory rows: what a batch wrote is memory's business (``summary`` holds the ids).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Count, DateTimeField, ExpressionWrapper, Sum
from django.db.models.functions import Now
from django.utils import timezone

from agents.models import Agent, Project
from core.config import config
from core.errors import Conflict
from governance.models import AuditEvent, AuditObject, ConsolidationBatch, LLMCall
from governance.services.audit import audit_record

logger = logging.getLogger(__name__)

IN_FLIGHT = "in flight: no reply yet"
INTERRUPTED = "interrupted: the process stopped before the reply arrived (prompt tokens counted offline)"


class CallRecord(Protocol):
    """What the LLM gateway reports for one call (``memory.gateways.llm.LLMCallRecord`` has these fields)."""

    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    ok: bool
    error: str | None


def worker_label() -> str:
    """This process, as a batch records who runs it."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _lease_end() -> ExpressionWrapper:
    return ExpressionWrapper(Now() + timedelta(seconds=config().consolidation.batch_lease_seconds),
                             output_field=DateTimeField())


@transaction.atomic
def batch_start(*, batch_id: uuid.UUID | None = None, project: Project, agent: Agent, mode: str,
                consolidator: str) -> ConsolidationBatch:
    """Create (or restart for a retry) a batch in status running, leased to this process."""
    batch = ConsolidationBatch.objects.select_for_update().filter(pk=batch_id).first() if batch_id else None
    if batch is None:
        batch = ConsolidationBatch(project=project, agent=agent, mode=mode)
    batch.consolidator = consolidator
    batch.status = ConsolidationBatch.Status.RUNNING
    batch.attempts += 1
    batch.started_at = timezone.now()
    batch.finished_at = None
    batch.error = ""
    batch.worker = worker_label()
    batch.save()
    ConsolidationBatch.objects.filter(pk=batch.pk).update(lease_expires_at=_lease_end(), heartbeat_at=Now())
    batch.refresh_from_db(fields=["lease_expires_at", "heartbeat_at"])
    return batch


def _running_in(batch_id: uuid.UUID, worker: str):
    """The batch's row while it is still running in ``worker`` (empty once a reaper took it away or it ended)."""
    return ConsolidationBatch.objects.filter(pk=batch_id, status=ConsolidationBatch.Status.RUNNING, worker=worker)


def batch_heartbeat(*, batch_id: uuid.UUID, worker: str) -> bool:
    """Renew the lease; False when the batch is no longer running in ``worker`` (the reaper took it away)."""
    return bool(_running_in(batch_id, worker).update(lease_expires_at=_lease_end(), heartbeat_at=Now()))


@contextmanager
def batch_lease(batch: ConsolidationBatch) -> Iterator[None]:
    """Keep ``batch``'s lease alive while the block runs (a thread renews it every third of the lease, on its own
    connection). If the block ends with the batch still running — an exception, the task timeout's SystemExit —
    the lease is ended at once, so the reaper re-queues the batch at its next tick instead of after the lease."""
    stop = threading.Event()
    worker = batch.worker

    def renew() -> None:
        try:
            while not stop.wait(max(1.0, config().consolidation.batch_lease_seconds / 3)):
                try:
                    if not batch_heartbeat(batch_id=batch.pk, worker=worker):
                        return
                except Exception:  # the database is away for a moment: try again at the next beat
                    logger.warning("heartbeat of %s failed", batch, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=renew, name=f"lease-{batch.pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
        try:
            _running_in(batch.pk, worker).update(lease_expires_at=Now())
        except Exception:  # the database is gone: the lease runs out by itself
            logger.warning("could not end the lease of %s", batch, exc_info=True)


def batch_owned(*, batch: ConsolidationBatch) -> bool:
    """Whether this process still runs the batch (a reaper may have re-queued it while a stalled heartbeat let its
    lease pass). The write phase checks this first and :func:`batch_succeed` fences its end, so a batch is never
    written twice. Read without a row lock: a write holding the batch row blocked the heartbeat thread's renewal
    for as long as it ran (40 s and more behind a large backlog in the fault bench), so the lease ran out under a
    live run and the queue watchdog took its silent cluster for wedged and restarted it, again and again."""
    return _running_in(batch.pk, batch.worker).exists()


# --- LLM calls ----------------------------------------------------------------------

def batch_call_sent(*, batch: ConsolidationBatch, purpose: str, model: str, prompt_tokens: int) -> LLMCall:
    """A request is on its way to the endpoint: record it now, before any reply, with the prompt's tokens."""
    call = LLMCall.objects.create(batch=batch, project_id=batch.project_id, purpose=purpose, model=model,
                                  prompt_tokens=prompt_tokens, tokens_source="offline", ok=False, error=IN_FLIGHT,
                                  in_flight=True)
    _totals_refresh(batch)
    return call


def batch_record_calls(*, batch: ConsolidationBatch, calls: Sequence[CallRecord], sent: LLMCall | None = None) -> None:
    """Persist finished calls against the batch; the first completes ``sent`` (the row written when its request
    went out). The batch's totals are recounted from its rows."""
    if not calls:
        return
    rows = [LLMCall(batch=batch, project_id=batch.project_id, purpose=c.purpose, model=c.model,
                    prompt_tokens=c.prompt_tokens, completion_tokens=c.completion_tokens,
                    tokens_source=getattr(c, "tokens_source", "api"), latency_ms=c.latency_ms, ok=c.ok,
                    error=(c.error or "")[:2000])
            for c in calls]
    if sent is not None:
        rows[0].pk, rows[0].created_at = sent.pk, sent.created_at
        rows[0].save()
        rows = rows[1:]
    LLMCall.objects.bulk_create(rows)
    _totals_refresh(batch)


def _totals_refresh(batch: ConsolidationBatch) -> None:
    calls = LLMCall.objects.filter(batch=batch)
    totals = calls.aggregate(n=Count("id"), prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"))
    by_purpose = {row["purpose"]: {"calls": row["n"], "prompt_tokens": row["prompt"] or 0,
                                   "completion_tokens": row["completion"] or 0}
                  for row in calls.values("purpose").annotate(n=Count("id"), prompt=Sum("prompt_tokens"),
                                                              completion=Sum("completion_tokens"))
                  .order_by("purpose")}
    batch.llm_call_count, batch.tokens_by_purpose = totals["n"], by_purpose
    batch.prompt_tokens, batch.completion_tokens = totals["prompt"] or 0, totals["completion"] or 0
    ConsolidationBatch.objects.filter(pk=batch.pk).update(
        tokens_by_purpose=batch.tokens_by_purpose, llm_call_count=batch.llm_call_count,
        prompt_tokens=batch.prompt_tokens, completion_tokens=batch.completion_tokens)


def _calls_interrupted(batch: ConsolidationBatch) -> int:
    return LLMCall.objects.filter(batch=batch, in_flight=True).update(in_flight=False, error=INTERRUPTED)


# --- the ends ----------------------------------------------------------------------

def batch_succeed(*, batch: ConsolidationBatch, summary: dict[str, Any], timings_ms: dict) -> ConsolidationBatch:
    """Mark the batch succeeded with what it wrote; called inside the write transaction, so the record and the
    rows it describes commit together. Raises Conflict (``batch_not_owned``) when the batch stopped being this
    process's while it wrote: the caller's transaction must roll back."""
    finished = timezone.now()
    if not _running_in(batch.pk, batch.worker).update(status=ConsolidationBatch.Status.SUCCEEDED, summary=summary,
                                     timings_ms=timings_ms, finished_at=finished, error="", lease_expires_at=None):
        raise Conflict(f"{batch} was re-queued while it was written", code="batch_not_owned")
    batch.status, batch.summary, batch.timings_ms = ConsolidationBatch.Status.SUCCEEDED, summary, timings_ms
    batch.finished_at, batch.error, batch.lease_expires_at = finished, "", None
    return batch


@transaction.atomic
def batch_fail(*, batch: ConsolidationBatch, error: str, timings_ms: dict | None = None) -> ConsolidationBatch:
    batch.status = ConsolidationBatch.Status.FAILED
    batch.error = error[:4000]
    batch.finished_at = timezone.now()
    batch.timings_ms = timings_ms or batch.timings_ms
    batch.lease_expires_at = None
    batch.save(update_fields=["status", "error", "finished_at", "timings_ms", "lease_expires_at"])
    _calls_interrupted(batch)
    audit_record(action=AuditEvent.Action.CONSOLIDATE, object_type=AuditObject.CONSOLIDATION_BATCH, object_id=batch.pk,
                 project_id=batch.project_id, actor_label="system:consolidation", batch=batch,
                 reason=f"failed: {error[:200]}")
    return batch


@transaction.atomic
def batch_requeue(*, batch: ConsolidationBatch, reason: str,
                  actor_user: AbstractBaseUser | None = None) -> ConsolidationBatch:
    """Back to pending, to be run again by the task the caller queues: the reaper after the lease passed (its
    calls still in flight are marked interrupted), or an operator's "retry now"."""
    batch.status = ConsolidationBatch.Status.PENDING
    batch.error = reason[:4000]
    batch.lease_expires_at = None
    batch.worker = ""
    batch.save(update_fields=["status", "error", "lease_expires_at", "worker"])
    _calls_interrupted(batch)
    audit_record(action=AuditEvent.Action.CONSOLIDATE, object_type=AuditObject.CONSOLIDATION_BATCH, object_id=batch.pk,
                 project_id=batch.project_id, actor_user=actor_user,
                 actor_label="" if actor_user else "system:reaper", batch=batch, reason=f"re-queued: {reason[:200]}")
    return batch


def batch_mark_rolled_back(*, batch: ConsolidationBatch) -> ConsolidationBatch:
    """The record side of a rollback (memory's ``batch_rollback`` reverts the rows in the same transaction)."""
    batch.status = ConsolidationBatch.Status.ROLLED_BACK
    batch.rolled_back_at = timezone.now()
    batch.save(update_fields=["status", "rolled_back_at"])
    return batch
