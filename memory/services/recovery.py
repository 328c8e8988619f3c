"""How consolidation heals: the reaper re-queues batches whose process died, an operator retries failed ones.

A running batch holds a lease its process renews (governance/services/batches.py). A process killed by the OS
(kill -9, out of memory), by django-q at the task timeout (acknowledged as failed, never redelivered) or lost with
its machine stops renewing; the reaper, a django-q schedule every minute, finds the batch and queues it again: the
same batch resumes with the same candidates, within the lease plus the reaper's period. Each such loss counts as a
failed attempt of the candidates, so a batch that keeps killing its worker ends ``failed`` instead of looping;
``/healthz`` then reports the service degraded and the admin's "retry now" gives the batch a fresh set of attempts.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models.functions import Now

from core.errors import Conflict
from governance.models import ConsolidationBatch
from governance.selectors import batches_lease_expired
from governance.services.batches import batch_fail, batch_requeue
from memory.models import Candidate
from memory.services.consolidation import agent_run_lock, candidates_attempt_failed
from memory.services.scheduling import consolidation_enqueue

logger = logging.getLogger(__name__)

LEASE_EXPIRED = "lease expired: the process running the batch stopped (killed, or stopped at the task timeout)"


def batches_reap() -> list[ConsolidationBatch]:
    """Re-queue (or, with attempts exhausted, fail) every running batch whose lease has passed. Returns them."""
    reaped = []
    for batch_id in list(batches_lease_expired().values_list("pk", flat=True)):
        with transaction.atomic():
            batch = (ConsolidationBatch.objects.select_for_update(skip_locked=True)
                     .filter(pk=batch_id, status=ConsolidationBatch.Status.RUNNING, lease_expires_at__lt=Now())
                     .first())
            if batch is None:  # finished meanwhile, or another reaper has it
                continue
            with agent_run_lock(batch.agent_id) as free:
                if not free:  # a run of this agent is alive (PostgreSQL frees the lock of a dead one): wait
                    continue
            candidates = list(Candidate.objects.filter(batch=batch, status=Candidate.Status.PENDING))
            candidates_attempt_failed(candidates=candidates, error=LEASE_EXPIRED)
            if any(c.status == Candidate.Status.PENDING for c in candidates):
                batch_requeue(batch=batch, reason=LEASE_EXPIRED)
                transaction.on_commit(lambda b=batch: consolidation_enqueue(agent_id=b.agent_id, batch_id=b.pk))
                logger.warning("re-queued %s: %s", batch, LEASE_EXPIRED)
            else:
                batch_fail(batch=batch, error=f"{LEASE_EXPIRED} (attempts exhausted; retry from the admin)")
                logger.error("failed %s: %s, attempts exhausted", batch, LEASE_EXPIRED)
            reaped.append(batch)
    return reaped


RETRYABLE = (ConsolidationBatch.Status.FAILED, ConsolidationBatch.Status.PENDING)


@transaction.atomic
def batch_retry(*, batch: ConsolidationBatch, actor_user: AbstractBaseUser | None = None) -> ConsolidationBatch:
    """Retry now (operator): the batch's failed and pending candidates get a fresh set of attempts and the batch is
    queued for a worker (not run in the caller's request). A running batch is refused unless its lease passed."""
    batch = ConsolidationBatch.objects.select_for_update().get(pk=batch.pk)
    stalled = batch.status == ConsolidationBatch.Status.RUNNING and batches_lease_expired().filter(pk=batch.pk).exists()
    if batch.status not in RETRYABLE and not stalled:
        raise Conflict(f"{batch} is {batch.get_status_display()}: only failed, pending or stalled batches are "
                       "retried", code="not_retryable")
    waiting = [Candidate.Status.FAILED, Candidate.Status.PENDING]
    reset = Candidate.objects.filter(batch=batch, status__in=waiting).update(status=Candidate.Status.PENDING,
                                                                             attempts=0, last_error="")
    if not reset:
        raise Conflict(f"{batch} has no candidates left to consolidate", code="nothing_to_retry")
    batch_requeue(batch=batch, reason="retry requested", actor_user=actor_user)
    transaction.on_commit(lambda: consolidation_enqueue(agent_id=batch.agent_id, batch_id=batch.pk))
    return batch
