"""The review queue (DESIGN §5): a person decides every widening of a scope and every conflict across scopes.

Two kinds of item:

- **promotion**: an item corroborated often enough is proposed one scope up (personal → the agent's module,
  module → project). *Approve* copies the statement (optionally edited) into the proposed scope as a verified
  item and supersedes the proposing one by it; *reject* (a reason is required) leaves it where it is.
- **conflict**: a new item contradicts an item of a wider scope (consolidation never lets a narrower item
  supersede a wider one: one agent must not remove what others share). Both stay active until a person decides:
  *keep the new one* (approve: the new statement, optionally edited, replaces the old item in the old item's
  scope; both are superseded by the replacement), *keep the old one* (reject, a reason is required: the new item
  is superseded by the old one, which becomes reviewed), *keep both* (dismiss: nothing changes, the conflict is closed).

- **quarantine**: a shared (module or project) exchange, episode or experience the detector flagged
  (memory/quarantine/) is held: nobody but its author sees it. *Release* (approve) makes it retrievable like any
  row of its scope; *keep quarantined* (reject, a reason is required) leaves it held for good. Both are audited.

- **change** / **deletion**: an agent asked to change or delete a shared (module or project) item; it stays as it
  is until a person decides. *Approve* applies the change (the statement optionally edited) or the deletion, with
  the previous version kept; *reject* (a reason is required) keeps the item as it is.

Every decision is audited and keeps the previous versions (rollback and history).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.models import Module
from agents.visibility import Scope, ScopeKey
from core.errors import ApplicationError, Conflict
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.gateways.embeddings import get_embedder
from memory.informativeness import informativeness
from memory.models import Episode, Exchange, Experience, ExperienceEvidence, MemoryStatus, ReviewItem
from memory.review.changes import experience_change_apply, experience_delete_apply, experience_reviewed_set
from memory.review.selectors import review_similar
from memory.review.versions import memory_version_save
from memory.temporal import supersede_end
from memory.thresholds import thresholds_for
from memory.trust import Trust


def _evidence(experience: Experience) -> list[dict]:
    """The item's source exchanges (masked, as stored) for the reviewer, with who wrote them and in which session."""
    return [{"id": str(e.pk), "session": str(e.session_id), "scope": e.scope, "agent": e.owner_agent.name,
             "agent_id": str(e.owner_agent_id),
             "occurred_at": e.occurred_at.isoformat() if e.occurred_at else None,
             "user": e.user_text[:500], "assistant": e.assistant_text[:500]}
            for e in experience.evidence.select_related("owner_agent").order_by("occurred_at")[:20]]


def _sessions(experience: Experience) -> list[str]:
    return sorted({str(s) for s in experience.evidence.values_list("session_id", flat=True)})


def review_item_create(*, experience: Experience, batch, sessions: int, proposed_scope: str = Scope.PROJECT,
                       proposed_module: Module | None = None, previous: ReviewItem | None = None) -> ReviewItem:
    """Propose ``experience`` one scope up (``proposed_scope``: module with ``proposed_module``, or project), with
    its evidence and the nearest active items already in that scope."""
    if proposed_scope == Scope.MODULE and proposed_module is None:
        raise ApplicationError("a promotion to module scope names the module", code="module_required")
    target = ScopeKey.for_scope(project_id=experience.project_id, scope=proposed_scope,
                                module_id=proposed_module.pk if proposed_module else None)
    return ReviewItem.objects.create(project_id=experience.project_id, kind=ReviewItem.Kind.PROMOTION,
                                     experience=experience, proposed_scope=proposed_scope,
                                     proposed_module=proposed_module, proposed_statement=experience.statement,
                                     evidence=_evidence(experience),
                                     similar=review_similar(experience=experience, target=target),
                                     evidence_sessions=_sessions(experience), previous=previous,
                                     corroborating_sessions=sessions, batch=batch)


def review_promotion_due(*, experience: Experience, proposed_scope: str,
                         proposed_module: Module | None) -> tuple[bool, ReviewItem | None]:
    """Whether ``experience`` is to be proposed for ``proposed_scope`` now, and the earlier rejection to show.

    A proposal is asked once: not while one waits; a rejected one (of this item, or of a near-identical statement
    for the same scope) is remembered and asked again only when evidence from a session it did not have arrived.
    An item waiting for more evidence is reopened by such evidence (see :func:`review_reopen_with_evidence`)."""
    items = ReviewItem.objects.filter(experience=experience, kind=ReviewItem.Kind.PROMOTION,
                                      proposed_scope=proposed_scope)
    if items.filter(status__in=[ReviewItem.Status.PENDING, ReviewItem.Status.NEEDS_EVIDENCE,
                                ReviewItem.Status.APPROVED]).exists():
        return False, None
    dedup = thresholds_for(experience.embedding_model).dedup
    rejected = (ReviewItem.objects.filter(project_id=experience.project_id, kind=ReviewItem.Kind.PROMOTION,
                                          proposed_scope=proposed_scope, proposed_module=proposed_module,
                                          status=ReviewItem.Status.REJECTED)
                .annotate(distance=CosineDistance("experience__embedding", experience.embedding))
                .filter(Q(experience=experience) | Q(distance__lte=1 - dedup)).order_by("-decided_at").first())
    if rejected is None:
        return True, None
    new_sessions = set(_sessions(experience)) - set(rejected.evidence_sessions) - {
        e["session"] for e in rejected.evidence}
    return bool(new_sessions), rejected


@transaction.atomic
def review_reopen_with_evidence(*, experience: Experience) -> ReviewItem | None:
    """A proposal set aside for more evidence comes back to the queue when a session it did not have corroborates
    the item (its evidence and sessions refreshed)."""
    item = (ReviewItem.objects.select_for_update().filter(experience=experience, kind=ReviewItem.Kind.PROMOTION,
                                                          status=ReviewItem.Status.NEEDS_EVIDENCE).first())
    if item is None:
        return None
    sessions = _sessions(experience)
    if not set(sessions) - set(item.evidence_sessions):
        return None
    item.status = ReviewItem.Status.PENDING
    item.evidence, item.evidence_sessions = _evidence(experience), sessions
    item.corroborating_sessions = len(sessions)
    item.save(update_fields=["status", "evidence", "evidence_sessions", "corroborating_sessions"])
    audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.REVIEW_ITEM, object_id=item.pk,
                 project_id=item.project_id, actor_label="system:consolidation", reason="reopened: new evidence",
                 source_ids=[experience.pk], data={"sessions": len(sessions)})
    return item


def review_conflict_create(*, experience: Experience, other: Experience, batch) -> ReviewItem | None:
    """A conflict: ``experience`` contradicts ``other``, an item of a wider scope. Both sides with their evidence;
    None when the same conflict already waits for a decision."""
    if ReviewItem.objects.filter(kind=ReviewItem.Kind.CONFLICT, experience=experience, other_experience=other,
                                 status=ReviewItem.Status.PENDING).exists():
        return None
    sessions = experience.evidence.values("session").distinct().count()
    return ReviewItem.objects.create(
        project_id=experience.project_id, kind=ReviewItem.Kind.CONFLICT, experience=experience,
        other_experience=other, proposed_scope=other.scope, proposed_module_id=other.module_id,
        proposed_statement=experience.statement, evidence=_evidence(experience), other_evidence=_evidence(other),
        evidence_sessions=_sessions(experience), corroborating_sessions=sessions, batch=batch)


@transaction.atomic
def review_edit_propose(*, agent, experience: Experience, kind: str, change: dict, reason: str) -> ReviewItem:
    """An agent's change (``change``: the fields to set, text masked) or deletion of a shared item, for a person to
    decide; the item is not touched. Audited as the agent's act."""
    if kind not in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.DELETION):
        raise ApplicationError(f"not an edit proposal: {kind}", code="invalid")
    item = ReviewItem.objects.create(
        project_id=experience.project_id, kind=kind, experience=experience, proposed_scope=experience.scope,
        proposed_module_id=experience.module_id,
        proposed_statement=change.get("statement") or experience.statement, proposed_change=change,
        proposed_by=agent, proposal_reason=reason, evidence=_evidence(experience),
        evidence_sessions=_sessions(experience))
    audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.REVIEW_ITEM, object_id=item.pk,
                 project_id=item.project_id, actor_agent=agent, scope=experience.scope, reason=reason,
                 source_ids=[experience.pk], data={"kind": kind, "proposed": sorted(change)})
    return item


def _exchange_evidence(e: Exchange) -> dict:
    return {"id": str(e.pk), "session": str(e.session_id), "scope": e.scope, "agent": e.owner_agent.name,
            "agent_id": str(e.owner_agent_id), "occurred_at": e.occurred_at.isoformat() if e.occurred_at else None,
            "source": e.source, "tool": e.tool, "quarantine_reason": e.quarantine_reason,
            "user": e.user_text[:500], "assistant": e.assistant_text[:500]}


def quarantine_target(item: ReviewItem) -> Exchange | Episode | Experience | None:
    """The row a quarantine item holds."""
    return item.exchange or item.episode or item.experience


def review_quarantine_create(*, exchange: Exchange | None = None, episode: Episode | None = None,
                             experience: Experience | None = None, reason: str, batch=None) -> ReviewItem:
    """Hold one flagged shared row for a reviewer: the row (as stored, masked), the evidence it came from and why the
    detector flagged it. One open item per row (asked again, the open one is returned). The caller audits it."""
    target = exchange or episode or experience
    if target is None:
        raise ValueError("nothing to quarantine")
    link = {"exchange": exchange, "episode": episode, "experience": experience}
    open_ = ReviewItem.objects.filter(kind=ReviewItem.Kind.QUARANTINE, status=ReviewItem.Status.PENDING,
                                      **{k: v for k, v in link.items() if v is not None}).first()
    if open_ is not None:
        return open_
    if exchange is not None:
        exchange = Exchange.objects.select_related("owner_agent").get(pk=exchange.pk)
        statement = f"user: {exchange.user_text}\nassistant: {exchange.assistant_text}".strip()
        evidence = [_exchange_evidence(exchange)]
        sessions = [str(exchange.session_id)]
    else:
        statement = f"{episode.title}: {episode.narrative}" if episode is not None else experience.statement
        sources = (episode.sources if episode is not None else experience.evidence)
        rows = list(sources.select_related("owner_agent").order_by("occurred_at")[:20])
        evidence = [_exchange_evidence(e) for e in rows]
        sessions = sorted({str(e.session_id) for e in rows})
    return ReviewItem.objects.create(
        project_id=target.project_id, kind=ReviewItem.Kind.QUARANTINE, proposed_scope=target.scope,
        proposed_module_id=target.module_id, proposed_statement=statement, evidence=evidence, batch=batch,
        corroborating_sessions=len(sessions), evidence_sessions=sessions, proposal_reason=reason, **link)


def _pending(item: ReviewItem) -> ReviewItem:
    item = (ReviewItem.objects.select_for_update(of=("self",))
            .select_related("experience", "other_experience", "exchange", "episode").get(pk=item.pk))
    # One waiting for more evidence may still be decided by a person who has seen enough.
    if item.status not in (ReviewItem.Status.PENDING, ReviewItem.Status.NEEDS_EVIDENCE):
        raise Conflict(f"review item is already {item.status}", code="already_decided")
    return item


def _supersede(*, loser: Experience, winner: Experience, reason: str) -> None:
    if loser.status != MemoryStatus.ACTIVE:
        return
    loser = Experience.objects.select_for_update().get(pk=loser.pk)
    memory_version_save(obj=loser, batch=None, reason=reason)
    now = timezone.now()
    loser.status, loser.superseded_by = MemoryStatus.SUPERSEDED, winner
    loser.valid_to = supersede_end(loser=loser, winner=winner, now=now)
    loser.version += 1
    loser.updated_at = now
    loser.save(update_fields=["status", "superseded_by", "valid_to", "version", "updated_at"])


@dataclass(frozen=True)
class _Acted:
    """What a decision's act adds to its audit event."""

    scope: str = ""
    data: dict = field(default_factory=dict)
    source_ids: tuple = ()


def _decision(item: ReviewItem, *, user, reason: str, status: str, decisions: dict[str, str],
              refusal: ApplicationError | None = None, apply: Callable[[ReviewItem], _Acted] | None = None,
              audit_reason: str = "") -> ReviewItem:
    """The steps every decision shares: lock the item (still open), refuse a kind the decision is not for, act
    (``apply``), record the decision on the item and audit it. ``decisions`` names the decision per kind of item, as
    the audit event calls it; a kind not in it gets ``refusal``. The audit reason is the person's, else
    ``audit_reason``, else the decision's name."""
    item = _pending(item)
    decision = decisions.get(item.kind)
    if decision is None:
        raise refusal
    acted = apply(item) if apply is not None else _Acted()
    item.status = status
    item.decided_by, item.decided_at, item.decision_reason = user, timezone.now(), reason
    item.save()
    audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.REVIEW_ITEM, object_id=item.pk,
                 project_id=item.project_id, actor_user=user, scope=acted.scope,
                 reason=reason or audit_reason or decision,
                 source_ids=[p for p in (item.experience_id, item.other_experience_id, *acted.source_ids) if p],
                 data={"kind": item.kind, "decision": decision, **acted.data})
    return item


@transaction.atomic
def review_approve(*, item: ReviewItem, user, edited_statement: str | None = None, reason: str = "",
                   embedder=None) -> ReviewItem:
    """Approve: the statement (optionally edited, masked like any input) becomes a verified item in the proposed
    scope; the proposing item — and for a conflict the old item too — is superseded by it, so search returns the
    statement once."""

    def promote(item: ReviewItem) -> _Acted:
        source = item.experience
        if source.status != MemoryStatus.ACTIVE:
            # A proposal outlives its item's change: approving it would bring the old value back, verified.
            raise Conflict(f"the proposed item is {source.status} since it was proposed: reject or dismiss this "
                           "proposal, and review what replaced it", code="item_not_active")
        statement = item.proposed_statement
        if edited_statement and edited_statement.strip() and edited_statement.strip() != statement:
            statement = texts_mask(project=item.project, texts=[edited_statement.strip()])[0]
        embedding = (source.embedding if statement == source.statement
                     else (embedder or get_embedder()).embed_one(f"{source.subject}: {statement}"))
        target = ScopeKey.for_scope(project_id=item.project_id, scope=item.proposed_scope,
                                    module_id=item.proposed_module_id)
        # The episode link only when the episode is as visible as the new item (never a narrower one's id).
        episode = source.episode if source.episode is not None and ScopeKey.of(source.episode) == target else None
        rule = Experience.objects.create(
            project_id=item.project_id, owner_agent_id=source.owner_agent_id, module_id=target.module_id,
            scope=target.scope, type=source.type, subject=source.subject, statement=statement, embedding=embedding,
            informativeness=informativeness(statement),
            embedding_model=source.embedding_model, confidence=max(source.confidence, 0.9), verified=True,
            trust=Trust.REVIEWED,
            valid_from=source.valid_from, episode=episode)
        ExperienceEvidence.objects.bulk_create(
            [ExperienceEvidence(experience=rule, exchange_id=ev.exchange_id) for ev in
             ExperienceEvidence.objects.filter(experience=source)], ignore_conflicts=True)
        _supersede(loser=source, winner=rule,
                   reason="promoted" if item.kind == ReviewItem.Kind.PROMOTION else "conflict")
        if item.kind == ReviewItem.Kind.CONFLICT:
            _supersede(loser=item.other_experience, winner=rule, reason="conflict")
        item.approved_experience = rule
        return _Acted(scope=target.scope, data={"edited": statement != item.proposed_statement},
                      source_ids=(rule.pk,))

    def edit(item: ReviewItem) -> _Acted:
        why = reason or f"{item.kind} approved"
        if item.kind == ReviewItem.Kind.DELETION:
            experience_delete_apply(experience=item.experience, actor_user=user, reason=why[:300])
            return _Acted(scope=item.experience.scope)
        change = dict(item.proposed_change)
        edited = bool(edited_statement and edited_statement.strip()
                      and edited_statement.strip() != item.proposed_statement)
        if edited:
            change["statement"] = texts_mask(project=item.project, texts=[edited_statement.strip()])[0]
        applied = experience_change_apply(experience=item.experience, change=change, actor_user=user,
                                          reason=why[:300], embedder=embedder)
        item.approved_experience = applied
        return _Acted(scope=applied.scope, data={"edited": edited, "applied": sorted(change)})

    def release(item: ReviewItem) -> _Acted:
        # Retrievable from now on like any row of its scope; the reason it was flagged stays on the row.
        target = quarantine_target(item)
        type(target).objects.filter(pk=target.pk).update(quarantined=False)
        return _Acted(scope=target.scope, data={"released": type(target).__name__.lower(),
                                                "flagged": target.quarantine_reason}, source_ids=(target.pk,))

    def act(item: ReviewItem) -> _Acted:
        if item.kind == ReviewItem.Kind.QUARANTINE:
            return release(item)
        return edit(item) if item.kind in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.DELETION) else promote(item)

    return _decision(item, user=user, reason=reason, status=ReviewItem.Status.APPROVED, apply=act,
                     decisions={ReviewItem.Kind.PROMOTION: "approved", ReviewItem.Kind.CONFLICT: "keep_new",
                                ReviewItem.Kind.CHANGE: "change_applied", ReviewItem.Kind.DELETION: "deleted",
                                ReviewItem.Kind.QUARANTINE: "released"})


@transaction.atomic
def review_reject(*, item: ReviewItem, user, reason: str) -> ReviewItem:
    """Reject, with a reason: a promotion leaves the item in its scope; a conflict keeps the old item and
    supersedes the new one by it."""
    if not reason.strip():
        raise ApplicationError("a reason is required to reject", code="reason_required")

    def keep_old(item: ReviewItem) -> _Acted:
        if item.kind == ReviewItem.Kind.CONFLICT:
            if item.other_experience.status != MemoryStatus.ACTIVE:
                # keeping it would retire the new item for one that no longer holds: neither would be active
                raise Conflict(f"the old item is {item.other_experience.status} since the conflict was raised: "
                               "keep the new one, or both", code="item_not_active")
            _supersede(loser=item.experience, winner=item.other_experience, reason="conflict")
            kept = item.other_experience
            if not kept.verified:  # a person chose it over the new one: it is now a reviewed item, as a kept new one is
                experience_reviewed_set(experience=kept, reviewed=True, reason="kept by a reviewer")
                return _Acted(scope=kept.scope, data={"vouched": True})
        if item.kind == ReviewItem.Kind.QUARANTINE:  # held for good: it stays as it is, seen by its author only
            target = quarantine_target(item)
            return _Acted(scope=target.scope, source_ids=(target.pk,))
        return _Acted()

    return _decision(item, user=user, reason=reason, status=ReviewItem.Status.REJECTED, apply=keep_old,
                     decisions={ReviewItem.Kind.PROMOTION: "rejected", ReviewItem.Kind.CONFLICT: "keep_old",
                                ReviewItem.Kind.CHANGE: "change_rejected",
                                ReviewItem.Kind.DELETION: "deletion_rejected",
                                ReviewItem.Kind.QUARANTINE: "kept_quarantined"})


@transaction.atomic
def review_dismiss(*, item: ReviewItem, user, reason: str = "") -> ReviewItem:
    """Close a conflict keeping both items active (they do not really contradict, or both hold in their scopes)."""
    return _decision(item, user=user, reason=reason, status=ReviewItem.Status.DISMISSED,
                     decisions={ReviewItem.Kind.CONFLICT: "keep_both"},
                     refusal=ApplicationError("only a conflict can be closed keeping both", code="not_a_conflict"))


@transaction.atomic
def review_needs_evidence(*, item: ReviewItem, user, reason: str = "") -> ReviewItem:
    """Set a proposal aside until a session it does not have yet corroborates it; then it is pending again."""
    return _decision(item, user=user, reason=reason, status=ReviewItem.Status.NEEDS_EVIDENCE,
                     decisions={ReviewItem.Kind.PROMOTION: "needs_evidence"}, audit_reason="needs more evidence",
                     refusal=ApplicationError("only a promotion can wait for more evidence", code="not_a_promotion"))


def review_decide_many(*, items, decision: str, user, reason: str) -> tuple[int, list[str]]:
    """One decision with one reason for several items (bulk): each in its own transaction, so one that cannot be
    decided (already decided meanwhile, reason missing) is reported and the others still go through."""
    act = {"approve": lambda i: review_approve(item=i, user=user, reason=reason),
           "reject": lambda i: review_reject(item=i, user=user, reason=reason),
           "needs_evidence": lambda i: review_needs_evidence(item=i, user=user, reason=reason)}.get(decision)
    if act is None:
        raise ApplicationError(f"unknown decision {decision!r}", code="invalid")
    done, errors = 0, []
    for item in items:
        try:
            act(item)
            done += 1
        except ApplicationError as exc:
            errors.append(f"{item.proposed_statement[:50]}: {exc.message}")
    return done, errors
