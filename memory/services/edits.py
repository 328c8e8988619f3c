"""Edits by agents and persons: a new version is kept; deleted items leave retrieval but stay for audit.

An agent changes or deletes its own personal items directly. A shared item (module or project scope) is what other
agents rely on, so an agent's change or deletion of one becomes a proposal in the review queue (a ``change`` or
``deletion`` review item) that a person decides; approving it applies it through :func:`experience_change_apply` /
:func:`experience_delete_apply`, with the previous version kept and an audit event. ``verified`` is a person's
judgement and is never set by an agent.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from memory.models import Experience, MemoryStatus, ReviewItem
from memory.review.versions import memory_version_save


@dataclass(frozen=True)
class EditOutcome:
    """What an agent's edit did: applied (``review_item`` None) or proposed for review."""

    experience: Experience
    review_item: ReviewItem | None = None


def _check_open(experience: Experience) -> None:
    if experience.status in (MemoryStatus.DELETED, MemoryStatus.ROLLED_BACK):
        raise Conflict(f"item is {experience.status}", code="not_editable")


def _direct(*, agent: Agent, experience: Experience) -> bool:
    """Whether the agent may change the item itself: only its own personal items."""
    if experience.scope == Scope.PERSONAL:
        if experience.owner_agent_id != agent.pk:
            raise NotAllowed("a personal item is changed only by the agent it belongs to", code="not_owner")
        return True
    return False


def _reason(agent: Agent, reason: str) -> str:
    """An agent's reason is agent input: masked before it is stored in the audit trail."""
    return texts_mask(project=agent.project, texts=[reason])[0] if reason and reason.strip() else ""


def _propose(*, agent: Agent, experience: Experience, kind: str, change: dict, reason: str) -> ReviewItem:
    # Imported here: the review queue applies approved edits through this module.
    from memory.review.services import review_edit_propose

    return review_edit_propose(agent=agent, experience=experience, kind=kind, change=change,
                               reason=_reason(agent, reason))


def _masked_change(*, agent: Agent, statement: str | None, subject: str | None,
                   confidence: float | None) -> dict:
    change: dict = {}
    if statement is not None or subject is not None:
        masked = texts_mask(project=agent.project, texts=[statement or "", subject or ""])
        if statement is not None:
            change["statement"] = masked[0]
        if subject is not None:
            change["subject"] = masked[1][:300]
    if confidence is not None:
        change["confidence"] = float(confidence)
    return change


@transaction.atomic
def experience_update(*, agent: Agent, experience: Experience, statement: str | None = None,
                      subject: str | None = None, confidence: float | None = None, reason: str = "",
                      embedder=None) -> EditOutcome:
    """An agent's edit (text masked like any input): applied to its own personal item (the previous version kept),
    proposed for review on a shared one (the item stays as it is until a person approves)."""
    _check_open(experience)
    change = _masked_change(agent=agent, statement=statement, subject=subject, confidence=confidence)
    if not _direct(agent=agent, experience=experience):
        if not change:  # nothing to change: nothing for a person to decide, the item stays as it is
            return EditOutcome(experience=experience)
        item = _propose(agent=agent, experience=experience, kind=ReviewItem.Kind.CHANGE, change=change,
                        reason=reason)
        return EditOutcome(experience=experience, review_item=item)
    updated = experience_change_apply(experience=experience, change=change, actor_agent=agent,
                                      reason=_reason(agent, reason), embedder=embedder)
    return EditOutcome(experience=updated)


@transaction.atomic
def experience_delete(*, agent: Agent, experience: Experience, reason: str = "") -> EditOutcome:
    """An agent's deletion: done on its own personal item, proposed for review on a shared one."""
    _check_open(experience)
    if not _direct(agent=agent, experience=experience):
        item = _propose(agent=agent, experience=experience, kind=ReviewItem.Kind.DELETION, change={},
                        reason=reason)
        return EditOutcome(experience=experience, review_item=item)
    return EditOutcome(experience=experience_delete_apply(experience=experience, actor_agent=agent,
                                                          reason=_reason(agent, reason)))


@transaction.atomic
def experience_change_apply(*, experience: Experience, change: dict, reason: str = "", actor_agent=None,
                            actor_user=None, embedder=None) -> Experience:
    """Set the fields in ``change`` (``statement`` and ``subject`` already masked, ``confidence``): the previous
    version is kept and the edit audited, by the agent (its own item) or by the person who approved it."""
    _check_open(experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    _check_open(experience)
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
    _check_open(experience)
    experience = Experience.objects.select_for_update().get(pk=experience.pk)
    _check_open(experience)
    memory_version_save(obj=experience, batch=None, reason="delete")
    experience.status = MemoryStatus.DELETED
    experience.version += 1
    experience.updated_at = timezone.now()
    experience.save(update_fields=["status", "version", "updated_at"])
    audit_record(action=AuditEvent.Action.DELETE, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                 project_id=experience.project_id, actor_agent=actor_agent, actor_user=actor_user,
                 scope=experience.scope, reason=reason)
    return experience
