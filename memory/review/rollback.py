"""Undo of consolidation: one operation reverts a whole ConsolidationBatch (DESIGN §5), and is itself audited.

Undo reads what the do kept: the batch's writes are in :mod:`memory.services.consolidation`, the versions they
keep in :mod:`memory.review.versions` (beside this module), and this module reads those versions back.

A rollback is planned first (:func:`batch_rollback_plan`: what is removed, restored, re-activated, and which later
changes depend on the batch) and the admin shows the plan before anyone confirms. Later changes on top of the batch
— an edit, a person's review decision, a later batch — are never undone silently: without ``cascade`` the rollback
is refused naming them; with it they are undone in the same transaction and the same audit event. Nothing is lost
either way: the state of every touched item just before the rollback is kept as a version. The batch's exchanges
are *held* (excluded from consolidation) until a person releases them or new evidence on their topic arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import Agent
from core.errors import Conflict
from governance.models import AuditEvent, AuditObject, ConsolidationBatch
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
from memory.review.versions import memory_restore, memory_version_save

_WHY = "a rollback reverts everything its batch wrote, in whatever scope it wrote it"
# Versions a person's review decision writes (memory.review.services), as opposed to an edit.
_DECISION_REASONS = ("promoted", "conflict")


@dataclass
class Dependent:
    """A later change built on the batch's results."""

    kind: str  # "decision", "edit" or "batch"
    description: str
    review_item: ReviewItem | None = None
    batch: ConsolidationBatch | None = None


@dataclass
class RollbackPlan:
    batch: ConsolidationBatch
    removed: list[Episode | Experience] = field(default_factory=list)
    restored: list[tuple[Episode | Experience, dict]] = field(default_factory=list)  # (item now, its state before)
    reactivated: list[Episode | Experience] = field(default_factory=list)
    dependents: list[Dependent] = field(default_factory=list)
    exchanges_held: int = 0
    pending_reviews_closed: int = 0

    @property
    def refusal(self) -> str:
        """Why the rollback is refused without cascade ('' when nothing depends on the batch)."""
        if not self.dependents:
            return ""
        return ("later changes depend on this batch: " + "; ".join(d.description for d in self.dependents)
                + ". Roll them back with it (cascade) or leave the batch as it is.")


def _label(obj) -> str:
    kind = "episode" if isinstance(obj, Episode) else "experience"
    text = obj.title if isinstance(obj, Episode) else obj.statement
    return f"{kind} {str(obj.pk)[:8]} “{text[:60]}”"


def _touched(batch: ConsolidationBatch) -> tuple[list, dict]:
    """The items the batch created, and the oldest snapshot (the state before the batch) of those it changed."""
    created = [*Episode.objects.all_scopes_unscoped(why=_WHY).filter(batch=batch)
               .exclude(status=MemoryStatus.ROLLED_BACK),
               *Experience.objects.all_scopes_unscoped(why=_WHY).filter(batch=batch)
               .exclude(status=MemoryStatus.ROLLED_BACK)]
    before: dict[tuple[str, Any], tuple[Any, MemoryVersion]] = {}
    for version in (MemoryVersion.objects.filter(batch=batch).select_related("episode", "experience")
                    .order_by("created_at")):
        target = version.episode or version.experience
        before.setdefault((type(target).__name__, target.pk), (target, version))
    return created, before


def batch_rollback_plan(*, batch: ConsolidationBatch) -> RollbackPlan:
    """What rolling back ``batch`` would do, and which later changes depend on it (read only)."""
    plan = RollbackPlan(batch=batch)
    created, before = _touched(batch)
    created_keys = {(type(o).__name__, o.pk) for o in created}
    plan.removed = created
    for key, (target, version) in before.items():
        if key in created_keys:
            continue
        plan.restored.append((target, version.snapshot))
        if version.snapshot.get("status") == MemoryStatus.ACTIVE and target.status != MemoryStatus.ACTIVE:
            plan.reactivated.append(target)
    touched = [*created, *(t for t, _ in before.values())]
    since = batch.finished_at or batch.created_at
    episode_ids = [o.pk for o in touched if isinstance(o, Episode)]
    experience_ids = [o.pk for o in touched if isinstance(o, Experience)]
    later = (MemoryVersion.objects.filter(Q(episode_id__in=episode_ids) | Q(experience_id__in=experience_ids),
                                          created_at__gt=since)
             .exclude(batch=batch).select_related("batch", "episode", "experience").order_by("created_at"))
    later_batches: dict[Any, ConsolidationBatch] = {}
    for version in later:
        target = version.episode or version.experience
        if version.batch_id is not None:
            if version.batch.status == ConsolidationBatch.Status.SUCCEEDED:
                later_batches.setdefault(version.batch_id, version.batch)
        elif version.reason not in _DECISION_REASONS and not version.reason.startswith("before rollback"):
            # decisions are listed from their review items below
            plan.dependents.append(Dependent(
                kind="edit", description=f"{version.reason} of {_label(target)} at "
                                         f"{version.created_at:%Y-%m-%d %H:%M}"))
    for later_batch in later_batches.values():
        plan.dependents.append(Dependent(kind="batch", batch=later_batch,
                                         description=f"later batch {str(later_batch.pk)[:8]} changed its items"))
    decisions = (ReviewItem.objects.filter(Q(experience_id__in=experience_ids)
                                           | Q(other_experience_id__in=experience_ids) | Q(batch=batch),
                                           status__in=[ReviewItem.Status.APPROVED, ReviewItem.Status.REJECTED])
                 .select_related("decided_by", "approved_experience").order_by("decided_at"))
    for item in decisions:
        who = item.decided_by.get_username() if item.decided_by else "someone"
        what = {"approved": "approved", "rejected": "rejected"}[item.status]
        plan.dependents.append(Dependent(
            kind="decision", review_item=item,
            description=f"{who} {what} the {item.kind} “{item.proposed_statement[:60]}”"
                        + (f" (rule {str(item.approved_experience_id)[:8]} is active)"
                           if item.approved_experience_id else "")))
    plan.exchanges_held = Exchange.objects.all_scopes_unscoped(why=_WHY).filter(consolidated_batch=batch).count()
    plan.pending_reviews_closed = ReviewItem.objects.filter(batch=batch, status=ReviewItem.Status.PENDING).count()
    return plan


def _keep_current(obj, batch: ConsolidationBatch) -> None:
    """The state just before the rollback, kept as a version: a later edit is never lost."""
    memory_version_save(obj=obj, batch=None, reason=f"before rollback of {str(batch.pk)[:8]}")


def _undo_decision(item: ReviewItem, *, batch: ConsolidationBatch, now) -> dict:
    """Undo a person's decision on an item of a batch being rolled back: the approved rule leaves retrieval, the
    items the decision superseded get their state before it back (unless the rollback removes them anyway)."""
    item = ReviewItem.objects.select_for_update().get(pk=item.pk)
    undone = {"review_item": str(item.pk), "decision": item.status}
    if item.approved_experience_id:
        rule = Experience.objects.select_for_update().get(pk=item.approved_experience_id)
        if rule.status != MemoryStatus.ROLLED_BACK:
            _keep_current(rule, batch)
            rule.status, rule.version, rule.updated_at = MemoryStatus.ROLLED_BACK, rule.version + 1, now
            rule.save(update_fields=["status", "version", "updated_at"])
            undone["rule"] = str(rule.pk)
    for loser_id in (item.experience_id, item.other_experience_id):
        if loser_id is None:
            continue
        version = (MemoryVersion.objects.filter(experience_id=loser_id, batch=None, reason__in=_DECISION_REASONS,
                                                created_at__gte=item.decided_at or item.created_at)
                   .order_by("created_at").first())
        if version is None:
            continue
        loser = Experience.objects.select_for_update().get(pk=loser_id)
        if loser.batch_id == batch.pk:  # the rollback removes it
            continue
        _keep_current(loser, batch)
        memory_restore(loser, version.snapshot)
        loser.version, loser.updated_at = loser.version + 1, now
        loser.save()
    item.status = ReviewItem.Status.ROLLED_BACK
    item.decision_reason = (f"{item.decision_reason} — undone by the rollback of batch {batch.pk}").strip(" —")
    item.save(update_fields=["status", "decision_reason"])
    return undone


def _rollback_one(batch: ConsolidationBatch, *, cascade: bool, done: list[dict], seen: set) -> dict[str, Any]:
    batch = ConsolidationBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.status == ConsolidationBatch.Status.ROLLED_BACK:
        raise Conflict("batch is already rolled back", code="already_rolled_back")
    if batch.status != ConsolidationBatch.Status.SUCCEEDED:
        raise Conflict(f"only a succeeded batch can be rolled back (status {batch.status})", code="not_succeeded")
    seen.add(batch.pk)
    plan = batch_rollback_plan(batch=batch)
    if plan.dependents and not cascade:
        raise Conflict(f"rollback refused: {plan.refusal}", code="rollback_has_dependents",
                       details={"dependents": [d.description for d in plan.dependents]})
    now = timezone.now()
    counts: dict[str, Any] = {"batch": str(batch.pk)}
    # Later batches first (newest first), so this batch's snapshots are restored over their results.
    for dep in sorted((d for d in plan.dependents if d.kind == "batch"), key=lambda d: d.batch.created_at,
                      reverse=True):
        if dep.batch.pk not in seen:
            done.append(_rollback_one(dep.batch, cascade=cascade, done=done, seen=seen))
    counts["decisions_undone"] = [_undo_decision(d.review_item, batch=batch, now=now)
                                  for d in plan.dependents if d.kind == "decision"]
    counts["edits_kept_as_versions"] = [d.description for d in plan.dependents if d.kind == "edit"]
    created, before = _touched(batch)
    for obj in [*created, *(t for t, _ in before.values())]:
        _keep_current(obj, batch)
    created_keys = {(type(o).__name__, o.pk) for o in created}
    restored = 0
    for key, (target, version) in before.items():
        if key in created_keys:
            continue
        target = type(target).objects.select_for_update().get(pk=target.pk)
        memory_restore(target, version.snapshot)
        target.version += 1
        target.updated_at = now
        target.save()
        restored += 1
    counts["restored"] = restored
    counts["episodes_removed"] = Episode.objects.all_scopes_unscoped(why=_WHY).filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    counts["experiences_removed"] = Experience.objects.all_scopes_unscoped(why=_WHY).filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    # Links this batch added to items that stay (merges, dedup) go away with it.
    EpisodeSource.objects.filter(batch=batch).exclude(episode__batch=batch).delete()
    ExperienceEvidence.objects.filter(batch=batch).exclude(experience__batch=batch).delete()
    counts["exchanges_held"] = Exchange.objects.all_scopes_unscoped(why=_WHY).filter(
        consolidated_batch=batch).update(state=Exchange.State.HELD, consolidated_batch=None, held_batch=batch)
    Candidate.objects.filter(batch=batch).update(status=Candidate.Status.DONE)
    ReviewItem.objects.filter(batch=batch, status__in=[ReviewItem.Status.PENDING,
                                                       ReviewItem.Status.NEEDS_EVIDENCE]).update(
        status=ReviewItem.Status.ROLLED_BACK, decided_at=now, decision_reason="batch rolled back")
    batch_mark_rolled_back(batch=batch)
    return counts


@transaction.atomic
def batch_rollback(*, batch: ConsolidationBatch, actor_user=None, actor_agent: Agent | None = None,
                   reason: str = "", cascade: bool = False) -> ConsolidationBatch:
    """Revert a whole consolidation batch: created items leave retrieval, changed and superseded items return to
    their state before the batch, merged episodes are restored, exchanges are held back from consolidation.

    Refused (``Conflict`` naming them) when later changes depend on the batch, unless ``cascade``: then later
    batches on the same items, a person's review decisions and later edits are undone with it — one transaction,
    one audit event. The state just before the rollback is kept as a version of every touched item.
    """
    cascaded: list[dict] = []
    counts = _rollback_one(batch, cascade=cascade, done=cascaded, seen=set())
    counts["cascaded_batches"] = cascaded
    audit_record(action=AuditEvent.Action.ROLLBACK, object_type=AuditObject.CONSOLIDATION_BATCH, object_id=batch.pk,
                 project_id=batch.project_id, actor_user=actor_user, actor_agent=actor_agent, batch=batch,
                 reason=reason, data={**counts, "cascade": cascade})
    batch.refresh_from_db()
    return batch


@transaction.atomic
def held_exchanges_release(*, batch: ConsolidationBatch | None = None, exchanges=None, actor_user=None,
                           reason: str = "") -> int:
    """A person lets held exchanges (of ``batch``, or the given ones) be consolidated again."""
    qs = Exchange.objects.all_scopes_unscoped(why="a person releases what a rollback held back").filter(
        state=Exchange.State.HELD)
    if batch is not None:
        qs = qs.filter(held_batch=batch)
    if exchanges is not None:
        qs = qs.filter(pk__in=[e.pk for e in exchanges])
    rows = list(qs.values_list("pk", "project_id"))
    if not rows:
        return 0
    Exchange.objects.filter(pk__in=[pk for pk, _ in rows]).update(state=Exchange.State.RAW, held_batch=None)
    audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.EXCHANGE, object_id=batch.pk if batch else "",
                 project_id=rows[0][1], actor_user=actor_user, reason=reason or "released after rollback",
                 source_ids=[pk for pk, _ in rows], data={"released": len(rows)})
    return len(rows)
