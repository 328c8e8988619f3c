"""Undo of consolidation: one operation reverts a whole ConsolidationBatch (DESIGN §5), and is itself audited.

Do and undo live side by side: the batch's writes are in :mod:`memory.services.consolidation`, the versions they
keep in :mod:`memory.services.versions`, and this module reads those versions back.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from agents.models import Agent
from core.errors import Conflict
from governance.models import AuditEvent, ConsolidationBatch
from governance.services.audit import audit_record
from governance.services.batches import batch_mark_rolled_back
from memory.models import (
    Candidate,
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryStatus,
    MemoryVersion,
    ReviewItem,
)
from memory.services.versions import memory_restore


@transaction.atomic
def batch_rollback(*, batch: ConsolidationBatch, actor_user=None, actor_agent: Agent | None = None,
                   reason: str = "") -> ConsolidationBatch:
    """Revert a whole consolidation batch: created items leave retrieval, changed and superseded items return to
    their state before the batch, merged episodes are restored, exchanges become unconsolidated.

    Changes that later batches made on top of this one are not undone (their own rollback does that).
    """
    batch = ConsolidationBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.status == ConsolidationBatch.Status.ROLLED_BACK:
        raise Conflict("batch is already rolled back", code="already_rolled_back")
    if batch.status != ConsolidationBatch.Status.SUCCEEDED:
        raise Conflict(f"only a succeeded batch can be rolled back (status {batch.status})", code="not_succeeded")
    now = timezone.now()
    counts: dict[str, Any] = {}
    # Oldest snapshot per object wins: it is the state before this batch touched it.
    restored = 0
    seen: set[tuple[str, Any]] = set()
    for version in MemoryVersion.objects.filter(batch=batch).order_by("created_at"):
        target = version.episode or version.experience
        key = (type(target).__name__, target.pk)
        if key in seen:
            continue
        seen.add(key)
        target = type(target).objects.select_for_update().get(pk=target.pk)
        memory_restore(target, version.snapshot)
        target.version += 1
        target.updated_at = now
        target.save()
        restored += 1
    counts["restored"] = restored
    why = "a rollback reverts everything its batch wrote, in whatever scope it wrote it"
    counts["episodes_removed"] = Episode.objects.all_scopes_unscoped(why=why).filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    counts["experiences_removed"] = Experience.objects.all_scopes_unscoped(why=why).filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    # Links this batch added to items that stay (merges, dedup) go away with it.
    EpisodeSource.objects.filter(batch=batch).exclude(episode__batch=batch).delete()
    ExperienceEvidence.objects.filter(batch=batch).exclude(experience__batch=batch).delete()
    counts["exchanges_unconsolidated"] = Exchange.objects.all_scopes_unscoped(why=why).filter(
        consolidated_batch=batch).update(
        state=Exchange.State.RAW, consolidated_batch=None)
    Candidate.objects.filter(batch=batch).update(status=Candidate.Status.DONE)
    ReviewItem.objects.filter(batch=batch, status=ReviewItem.Status.PENDING).update(
        status=ReviewItem.Status.REJECTED, decided_at=now, decision_reason="batch rolled back")
    batch_mark_rolled_back(batch=batch)
    audit_record(action=AuditEvent.Action.ROLLBACK, object_type="consolidation_batch", object_id=batch.pk,
                 project_id=batch.project_id, actor_user=actor_user, actor_agent=actor_agent, batch=batch,
                 reason=reason, data=counts)
    return batch
