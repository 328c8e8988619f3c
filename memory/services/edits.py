"""Edits by agents and operators: a new version is kept; deleted items leave retrieval but stay for audit."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from agents.models import Agent
from agents.visibility import Scope
from core.errors import Conflict, NotAllowed
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.gateways.embeddings import get_embedder
from memory.informativeness import informativeness
from memory.models import Experience, MemoryStatus
from memory.review.versions import memory_version_save


def _check_writable(*, agent: Agent, experience: Experience) -> None:
    # Project rules change only through review; module items by members; personal ones by the owner.
    if experience.scope == Scope.PROJECT:
        raise NotAllowed("project-scope items change only through the review queue", code="review_required")
    if experience.status in (MemoryStatus.DELETED, MemoryStatus.ROLLED_BACK):
        raise Conflict(f"item is {experience.status}", code="not_editable")


def _reason(agent: Agent, reason: str) -> str:
    """An agent's reason is agent input: masked before it is stored in the audit trail."""
    return texts_mask(project=agent.project, texts=[reason])[0] if reason and reason.strip() else ""


@transaction.atomic
def experience_update(*, agent: Agent, experience: Experience, statement: str | None = None,
                      subject: str | None = None, confidence: float | None = None, verified: bool | None = None,
                      reason: str = "", embedder=None) -> Experience:
    """Edit an experience (the text is masked like any input); the previous version is kept."""
    _check_writable(agent=agent, experience=experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    memory_version_save(obj=experience, batch=None, reason="edit")
    changed = {}
    if statement is not None or subject is not None:
        masked = texts_mask(project=agent.project, texts=[statement or experience.statement,
                                                           subject or experience.subject])
        experience.statement, experience.subject = masked[0], masked[1][:300]
        experience.informativeness = informativeness(experience.statement)
        experience.embedding = (embedder or get_embedder()).embed_one(f"{experience.subject}: {experience.statement}")
        changed["text"] = True
    if confidence is not None:
        experience.confidence = confidence
        changed["confidence"] = confidence
    if verified is not None:
        experience.verified = verified
        changed["verified"] = verified
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save()
    audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                 project_id=experience.project_id, actor_agent=agent, scope=experience.scope,
                 reason=_reason(agent, reason), data=changed)
    return experience


@transaction.atomic
def experience_delete(*, agent: Agent, experience: Experience, reason: str = "") -> Experience:
    """Soft delete: no longer retrieved, kept in history (purge removes it for good)."""
    _check_writable(agent=agent, experience=experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    memory_version_save(obj=experience, batch=None, reason="delete")
    experience.status = MemoryStatus.DELETED
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save(update_fields=["status", "version", "updated_at"])
    audit_record(action=AuditEvent.Action.DELETE, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                 project_id=experience.project_id, actor_agent=agent, scope=experience.scope,
                 reason=_reason(agent, reason))
    return experience
