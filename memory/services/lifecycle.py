"""The life of a memory item after it is written: archive, revalidation, restore, purge.

- **Archive**: beyond RECMEM_MAX_MEMORIES active items of one layer (episodes, experiences) in one scope, the items
  with the lowest ``importance × freshness`` (:func:`retention_score`) are archived: kept, not searched, restorable
  in the admin.
- **Revalidation**: an active experience not corroborated by new evidence for RECMEM_REVALIDATE_AFTER_DAYS is flagged
  ``needs_revalidation`` (search shows the flag) and queued for a person's judgement (validity samples).
- **Purge**: a subject forgotten on request (:mod:`memory.services.forget`, across the project).

The hourly maintenance task runs :func:`memory_lifecycle_tick` (archive and revalidation).
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from agents.models import Project
from agents.visibility import ScopeKey
from core.config import config
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record, audit_record_many
from memory.models import (
    Episode,
    Experience,
    MemoryStatus,
)
from memory.review.versions import memory_version_save
from memory.services.validity import validity_sample_enqueue
from memory.temporal import experience_current_q

# --- archive ---------------------------------------------------------------------------------------------------

def retention_score(obj: Episode | Experience, *, now: datetime) -> float:
    """importance × freshness. Importance: confidence (episodes 0.7), ×1.5 when verified, × (1 + hits term, as in
    search: log(1+hits)/log(101), at most 1). Freshness: 0.5^(age / RECMEM_FRESHNESS_HALF_LIFE_DAYS), the age
    counted from the last sign of use — corroborated, hit, changed."""
    confidence = getattr(obj, "confidence", 0.7)
    importance = confidence * (1.5 if getattr(obj, "verified", False) else 1.0)
    importance *= 1.0 + min(1.0, math.log1p(obj.hit_count) / math.log1p(100))
    last = max(t for t in (getattr(obj, "last_corroborated_at", None), obj.last_hit_at, obj.updated_at,
                           obj.created_at) if t is not None)
    age_days = max((now - last).total_seconds() / 86400, 0.0)
    return importance * 0.5 ** (age_days / config().search.freshness_half_life_days)


def _scope_groups(model) -> list[ScopeKey]:
    """The scopes of ``model`` holding more than RECMEM_MAX_MEMORIES active items."""
    limit = config().consolidation.max_memories
    rows = (model.objects.all_scopes_unscoped(why="archiving counts every scope's items")
            .filter(status=MemoryStatus.ACTIVE).values("project_id", "scope", "owner_agent_id", "module_id")
            .annotate(n=Count("id")))
    totals: dict[ScopeKey, int] = defaultdict(int)
    for row in rows:  # personal: per owner; module: per module; project: one
        key = ScopeKey.for_scope(project_id=row["project_id"], scope=row["scope"],
                                 owner_agent_id=row["owner_agent_id"], module_id=row["module_id"])
        totals[key] += row["n"]
    return [key for key, n in totals.items() if n > limit]


@transaction.atomic
def memories_archive(*, now: datetime | None = None) -> int:
    """Archive what lies beyond RECMEM_MAX_MEMORIES active items per layer and scope (lowest score first).
    Returns how many items were archived."""
    now = now or timezone.now()
    limit = config().consolidation.max_memories
    archived = 0
    audit = []
    for model, kind in ((Experience, AuditObject.EXPERIENCE), (Episode, AuditObject.EPISODE)):
        for key in _scope_groups(model):
            items = list(model.objects.in_scope(key).filter(status=MemoryStatus.ACTIVE).defer("embedding"))
            items.sort(key=lambda o: retention_score(o, now=now), reverse=True)
            beyond = items[limit:]
            for obj in beyond:
                memory_version_save(obj=obj, batch=None, reason="archive")
            model.objects.filter(pk__in=[o.pk for o in beyond]).update(status=MemoryStatus.ARCHIVED, archived_at=now)
            archived += len(beyond)
            audit.append({"action": AuditEvent.Action.UPDATE, "object_type": kind, "object_id": "",
                          "project_id": key.project_id, "actor_label": "system:lifecycle", "scope": key.scope,
                          "reason": f"archived {len(beyond)} beyond {limit} active items (importance x freshness)",
                          "source_ids": [o.pk for o in beyond]})
    if audit:
        audit_record_many(audit)
    return archived


@transaction.atomic
def memories_restore(*, items, user) -> int:
    """Archived items back to active (the admin's *Restore* action)."""
    restored = 0
    for obj in items:
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        if obj.status != MemoryStatus.ARCHIVED:
            continue
        memory_version_save(obj=obj, batch=None, reason="restore")
        obj.status, obj.archived_at, obj.version = MemoryStatus.ACTIVE, None, obj.version + 1
        obj.updated_at = timezone.now()
        obj.save(update_fields=["status", "archived_at", "version", "updated_at"])
        kind = AuditObject.EXPERIENCE if isinstance(obj, Experience) else AuditObject.EPISODE
        audit_record(action=AuditEvent.Action.UPDATE, object_type=kind, object_id=obj.pk, project_id=obj.project_id,
                     actor_user=user, scope=obj.scope, reason="restored from archive")
        restored += 1
    return restored


# --- revalidation ----------------------------------------------------------------------------------------------

@transaction.atomic
def memories_revalidation_flag(*, now: datetime | None = None) -> int:
    """Flag active experiences not corroborated for RECMEM_REVALIDATE_AFTER_DAYS and queue them for a person's
    judgement (validity samples). Returns how many were flagged now."""
    days = config().consolidation.revalidate_after_days
    if not days:
        return 0
    now = now or timezone.now()
    stale = list(Experience.objects.all_scopes_unscoped(why="revalidation checks every scope")
                 .filter(status=MemoryStatus.ACTIVE, needs_revalidation=False,
                         last_corroborated_at__lt=now - timedelta(days=days))
                 .filter(experience_current_q(now))  # an item past its stated end needs no judging
                 .defer("embedding"))
    if not stale:
        return 0
    Experience.objects.filter(pk__in=[x.pk for x in stale]).update(needs_revalidation=True)
    validity_sample_enqueue(items=stale, reason=f"not corroborated for {days} days", now=now)
    audit_record_many([{"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EXPERIENCE, "object_id": x.pk,
                        "project_id": x.project_id, "actor_label": "system:lifecycle", "scope": x.scope,
                        "reason": f"needs revalidation: not corroborated for {days} days"} for x in stale])
    return len(stale)


def memory_lifecycle_tick(*, now: datetime | None = None) -> dict[str, int]:
    """The hourly part: revalidation flags, then archiving."""
    return {"flagged": memories_revalidation_flag(now=now), "archived": memories_archive(now=now)}


# --- purge ---------------------------------------------------------------------------------------------------

def subject_purge(*, project: Project, value: str, user=None, reason: str = "", embedder=None) -> dict[str, int]:
    """Forget a subject in ``project`` (``value``: a placeholder or an original value): the forget of
    :mod:`memory.services.forget` by a person or the ``purge_subject`` command, across the whole project. Every
    exchange mentioning it is deleted, what was derived from them rebuilt or deleted, its vault and registry rows
    and its mentions in the audit trail erased; one audit event records the counts, never the value."""
    from memory.services.forget import forget

    return forget(project=project, actor=user, subject=value, reason=reason or "subject purged on request",
                  embedder=embedder)
