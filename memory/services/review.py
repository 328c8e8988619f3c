"""The review queue: promotions to project scope wait for a person (DESIGN §5); proposal and decisions here."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.visibility import Scope, ScopeKey
from core.errors import ApplicationError, Conflict
from governance.models import AuditEvent
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.gateways.embeddings import get_embedder
from memory.models import Experience, ExperienceEvidence, MemoryStatus, ReviewItem
from memory.services.versions import memory_version_save


def review_item_create(*, experience: Experience, batch, sessions: int) -> ReviewItem:
    """Queue ``experience`` for promotion to project scope, with its evidence and the nearest project rules."""
    evidence = [{"id": str(e.pk), "session": str(e.session_id),
                 "occurred_at": e.occurred_at.isoformat() if e.occurred_at else None,
                 "user": e.user_text[:500], "assistant": e.assistant_text[:500]}
                for e in experience.evidence.order_by("occurred_at")[:20]]
    project_rules = Experience.objects.in_scope(ScopeKey.for_scope(project_id=experience.project_id,
                                                                   scope=Scope.PROJECT))
    similar = [{"id": str(s.pk), "statement": s.statement, "similarity": round(1 - float(s.distance), 3)}
               for s in project_rules.filter(status=MemoryStatus.ACTIVE)
               .annotate(distance=CosineDistance("embedding", experience.embedding)).order_by("distance")[:5]]
    return ReviewItem.objects.create(project_id=experience.project_id, experience=experience,
                                     proposed_statement=experience.statement, evidence=evidence, similar=similar,
                                     corroborating_sessions=sessions, batch=batch)


@transaction.atomic
def review_approve(*, item: ReviewItem, user, edited_statement: str | None = None, reason: str = "",
                   embedder=None) -> ReviewItem:
    """Approve a promotion: the rule becomes a project-scope experience (optionally edited); the proposing item
    is superseded by it, so search returns the project rule once."""
    item = ReviewItem.objects.select_for_update().select_related("experience").get(pk=item.pk)
    if item.status != ReviewItem.Status.PENDING:
        raise Conflict(f"review item is already {item.status}", code="already_decided")
    source = item.experience
    statement = item.proposed_statement
    if edited_statement and edited_statement.strip() and edited_statement.strip() != statement:
        statement = texts_mask(project=item.project, texts=[edited_statement.strip()])[0]
    embedding = (source.embedding if statement == source.statement
                 else (embedder or get_embedder()).embed_one(f"{source.subject}: {statement}"))
    rule = Experience.objects.create(
        project_id=item.project_id, owner_agent_id=source.owner_agent_id, module=None, scope=Scope.PROJECT,
        type=source.type, subject=source.subject, statement=statement, embedding=embedding,
        embedding_model=source.embedding_model, confidence=max(source.confidence, 0.9), verified=True,
        valid_from=source.valid_from, episode=source.episode)
    ExperienceEvidence.objects.bulk_create(
        [ExperienceEvidence(experience=rule, exchange_id=ev.exchange_id) for ev in
         ExperienceEvidence.objects.filter(experience=source)], ignore_conflicts=True)
    if source.status == MemoryStatus.ACTIVE:
        memory_version_save(obj=source, batch=None, reason="promoted")
        source.status, source.superseded_by = MemoryStatus.SUPERSEDED, rule
        source.version += 1
        source.save(update_fields=["status", "superseded_by", "version"])
    item.status = ReviewItem.Status.APPROVED
    item.decided_by, item.decided_at = user, timezone.now()
    item.decision_reason = reason
    item.approved_experience = rule
    item.save()
    audit_record(action=AuditEvent.Action.REVIEW, object_type="review_item", object_id=item.pk,
                 project_id=item.project_id, actor_user=user, scope=Scope.PROJECT, reason=reason or "approved",
                 source_ids=[source.pk, rule.pk],
                 data={"decision": "approved", "edited": statement != item.proposed_statement})
    return item


@transaction.atomic
def review_reject(*, item: ReviewItem, user, reason: str) -> ReviewItem:
    """Reject a promotion with a reason; the proposing item keeps its scope."""
    if not reason.strip():
        raise ApplicationError("a reason is required to reject", code="reason_required")
    item = ReviewItem.objects.select_for_update().get(pk=item.pk)
    if item.status != ReviewItem.Status.PENDING:
        raise Conflict(f"review item is already {item.status}", code="already_decided")
    item.status = ReviewItem.Status.REJECTED
    item.decided_by, item.decided_at, item.decision_reason = user, timezone.now(), reason
    item.save()
    audit_record(action=AuditEvent.Action.REVIEW, object_type="review_item", object_id=item.pk,
                 project_id=item.project_id, actor_user=user, reason=reason, data={"decision": "rejected"},
                 source_ids=[item.experience_id])
    return item
