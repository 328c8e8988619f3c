"""The life of a memory item after it is written: archive, revalidation, restore, purge.

- **Archive**: beyond RECMEM_MAX_MEMORIES active items of one layer (episodes, experiences) in one scope, the items
  with the lowest ``importance × freshness`` (:func:`retention_score`) are archived: kept, not searched, restorable
  in the admin.
- **Revalidation**: an active experience not corroborated by new evidence for RECMEM_REVALIDATE_AFTER_DAYS is flagged
  ``needs_revalidation`` (search shows the flag) and queued for a person's judgement (validity samples).
- **Purge**: a subject forgotten on request: every exchange, episode, experience and version that mentions its
  placeholder (or the value itself) is rewritten or deleted, its vault and registry entries deleted; one audit
  event records what was purged, never the value.

The hourly maintenance task runs :func:`memory_lifecycle_tick` (archive and revalidation).
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from agents.models import Project
from agents.visibility import Scope, ScopeKey
from core.config import config
from core.errors import ApplicationError, NotFound
from governance.models import AuditEvent, AuditObject
from governance.selectors import placeholders_for_subject
from governance.services.audit import audit_reasons_redact, audit_record, audit_record_many
from governance.services.privacy import subject_forget
from memory.gateways.embeddings import get_embedder
from memory.models import (
    Episode,
    Exchange,
    Experience,
    MemoryStatus,
    MemoryVersion,
    ReviewItem,
    Session,
)
from memory.review.versions import memory_version_save
from memory.services.validity import validity_sample_enqueue
from memory.temporal import experience_current_q
from memory.textform import unit_text_form

PURGED = "[purged]"


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


# --- purge -----------------------------------------------------------------------------------------------------

def _scrub(text: str, terms: list[str]) -> str:
    for term in terms:
        text = re.sub(re.escape(term), PURGED, text, flags=re.IGNORECASE)
    return text


def _scrub_json(value, terms: list[str]):
    """The same rewrite inside a JSON value (keys and strings), on its JSON text."""
    return json.loads(_scrub(json.dumps(value, ensure_ascii=False), [json.dumps(t, ensure_ascii=False)[1:-1]
                                                                      for t in terms]))


def _mentions(fields: list[str], terms: list[str]) -> Q:
    """Any of ``fields`` contains any of ``terms`` (case-insensitive; a JSON field is compared on its text)."""
    q = Q(pk__in=[])
    for term in terms:
        for f in fields:
            q |= Q(**{f"{f}__icontains": term})
    return q


@transaction.atomic
def subject_purge(*, project: Project, value: str, user=None, reason: str = "", embedder=None) -> dict[str, int]:
    """Forget a subject in ``project``: ``value`` is a placeholder or an original value (looked up through the
    pseudonym registry and the vault). Every exchange, session, episode, version and review item mentioning it is
    rewritten (the mention becomes ``[purged]``; rewritten texts are embedded again); every experience mentioning it
    (now or in one of its versions) is deleted for good, with its versions, evidence links and review items; its
    vault and registry entries are deleted. One audit event records the counts and entity types, never the value or
    its placeholder. NotFound when nothing mentions it."""
    value = (value or "").strip()
    if len(value) < 3:
        raise ApplicationError("the value to purge must have at least 3 characters", code="invalid")
    placeholders = placeholders_for_subject(project=project, value=value)
    terms = sorted({*placeholders, value}, key=len, reverse=True)
    why = "a purge spans every scope of the project"
    embedder = embedder or get_embedder()
    counts: dict[str, int] = {}

    gone = set(Experience.objects.all_scopes_unscoped(why=why).filter(project=project)
               .filter(_mentions(["statement", "subject"], terms)).values_list("pk", flat=True))
    gone |= set(MemoryVersion.objects.filter(experience__project=project).filter(_mentions(["snapshot"], terms))
                .values_list("experience_id", flat=True))
    counts["experiences_purged"] = Experience.objects.filter(pk__in=gone).delete()[1].get("memory.Experience", 0)

    exchanges = list(Exchange.objects.all_scopes_unscoped(why=why).filter(project=project).filter(
        _mentions(["user_text", "assistant_text", "text_form", "metadata"], terms)))
    for e in exchanges:
        e.user_text, e.assistant_text = _scrub(e.user_text, terms), _scrub(e.assistant_text, terms)
        e.text_form = unit_text_form(occurred_at=e.occurred_at, user=e.user_text, assistant=e.assistant_text)
        e.metadata = _scrub_json(e.metadata, terms)
    for e, vector in zip(exchanges, embedder.embed([e.text_form for e in exchanges]) if exchanges else [],
                         strict=True):
        e.embedding = vector
    Exchange.objects.bulk_update(exchanges, ["user_text", "assistant_text", "text_form", "metadata", "embedding"])
    counts["exchanges_rewritten"] = len(exchanges)

    sessions = list(Session.objects.all_scopes_unscoped(why=why).filter(project=project).filter(
        _mentions(["external_id", "metadata"], terms)))
    for session in sessions:
        session.external_id = _scrub(session.external_id, terms)
        session.metadata = _scrub_json(session.metadata, terms)
    Session.objects.bulk_update(sessions, ["external_id", "metadata"])
    counts["sessions_rewritten"] = len(sessions)

    episodes = list(Episode.objects.all_scopes_unscoped(why=why).filter(project=project).filter(
        _mentions(["title", "narrative"], terms)))
    for ep in episodes:
        ep.title, ep.narrative = _scrub(ep.title, terms), _scrub(ep.narrative, terms)
    for ep, vector in zip(episodes, embedder.embed([f"{ep.title}\n{ep.narrative}" for ep in episodes])
                          if episodes else [], strict=True):
        ep.embedding = vector
    Episode.objects.bulk_update(episodes, ["title", "narrative", "embedding"])
    counts["episodes_rewritten"] = len(episodes)

    versions = list(MemoryVersion.objects.filter(episode__project=project).filter(_mentions(["snapshot"], terms)))
    for v in versions:
        v.snapshot = _scrub_json(v.snapshot, terms)
    MemoryVersion.objects.bulk_update(versions, ["snapshot"])
    counts["versions_rewritten"] = len(versions)

    reviews = list(ReviewItem.objects.filter(project=project).filter(
        _mentions(["proposed_statement", "evidence", "other_evidence", "similar"], terms)))
    for r in reviews:
        r.proposed_statement = _scrub(r.proposed_statement, terms)
        r.evidence, r.other_evidence = _scrub_json(r.evidence, terms), _scrub_json(r.other_evidence, terms)
        r.similar = _scrub_json(r.similar, terms)
    ReviewItem.objects.bulk_update(reviews, ["proposed_statement", "evidence", "other_evidence", "similar"])
    counts["review_items_rewritten"] = len(reviews)

    counts["audit_reasons_redacted"] = audit_reasons_redact(project=project, terms=terms)
    counts.update(subject_forget(project=project, placeholders=placeholders))
    if not any(counts.values()):
        raise NotFound("nothing in this project mentions that subject", code="subject_not_found")
    types = sorted({p[1:-1].rsplit("_", 1)[0] for p in placeholders})
    audit_record(action=AuditEvent.Action.PURGE, object_type=AuditObject.SUBJECT, object_id="", project_id=project.pk,
                 actor_user=user, actor_label="" if user else "system:purge", scope=Scope.PROJECT,
                 reason=reason or "subject purged on request",
                 data={"entity_types": types, "placeholders": len(placeholders), **counts})
    return counts
