"""An experience changed or deleted — the one way both an agent's edit of its own item and a reviewer's approval
of a proposed change are applied: the previous version kept, the act audited."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from memory.gateways.embeddings import get_embedder
from memory.informativeness import informativeness
from memory.models import Experience, MemoryStatus
from memory.review.versions import memory_version_save
from memory.trust import Trust


def check_open(experience: Experience) -> None:
    if experience.status in (MemoryStatus.DELETED, MemoryStatus.ROLLED_BACK):
        raise Conflict(f"item is {experience.status}", code="not_editable")


@transaction.atomic
def experience_change_apply(*, experience: Experience, change: dict, reason: str = "", actor_agent=None,
                            actor_user=None, embedder=None) -> Experience:
    """Set the fields in ``change`` (``statement`` and ``subject`` already masked, ``confidence``): the previous
    version is kept and the edit audited, by the agent (its own item) or by the person who approved it."""
    check_open(experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    check_open(experience)
    memory_version_save(obj=experience, batch=None, reason="edit")
    changed: dict = {}
    if "statement" in change or "subject" in change:
        experience.statement = change.get("statement") or experience.statement
        experience.subject = (change.get("subject") or experience.subject)[:300]
        experience.informativeness = informativeness(experience.statement)
        experience.embedding = (embedder or get_embedder()).embed_one(f"{experience.subject}: {experience.statement}")
        changed["text"] = True
    if change.get("confidence") is not None:
        experience.confidence = float(change["confidence"])
        changed["confidence"] = experience.confidence
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save()
    audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                 project_id=experience.project_id, actor_agent=actor_agent, actor_user=actor_user,
                 scope=experience.scope, reason=reason, data=changed)
    return experience


@transaction.atomic
def experience_delete_apply(*, experience: Experience, reason: str = "", actor_agent=None,
                            actor_user=None) -> Experience:
    """Soft delete: no longer retrieved, kept in history (purge removes it for good); audited."""
    check_open(experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    check_open(experience)
    memory_version_save(obj=experience, batch=None, reason="delete")
    experience.status = MemoryStatus.DELETED
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save(update_fields=["status", "version", "updated_at"])
    audit_record(action=AuditEvent.Action.DELETE, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                 project_id=experience.project_id, actor_agent=actor_agent, actor_user=actor_user,
                 scope=experience.scope, reason=reason)
    return experience


def experience_reviewed_set(*, experience: Experience, reviewed: bool, reason: str) -> None:
    """A person's word on the item given (verified, trust ``reviewed``) or taken back (verified no more; the caller
    recounts what its evidence earns), the previous version kept. The caller audits the decision it belongs to."""
    memory_version_save(obj=experience, batch=None, reason=reason)
    experience.verified = reviewed
    if reviewed:
        experience.trust = Trust.REVIEWED
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save(update_fields=["verified", "trust", "version", "updated_at"])
