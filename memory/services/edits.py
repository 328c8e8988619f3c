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

from agents.models import Agent
from agents.visibility import Scope
from core.errors import NotAllowed
from governance.services.privacy import texts_mask
from memory.models import Experience, ReviewItem
from memory.review.changes import check_open as _check_open
from memory.review.changes import experience_change_apply, experience_delete_apply
from memory.review.services import review_edit_propose


@dataclass(frozen=True)
class EditOutcome:
    """What an agent's edit did: applied (``review_item`` None) or proposed for review."""

    experience: Experience
    review_item: ReviewItem | None = None


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
