"""A person vouches for a shared item directly (the Experience admin), outside the review queue.

With RECMEM_SEARCH_PEER_ITEMS=trusted (the default) one agent's item reaches no other agent's search until a second
agent corroborates it or a person vouches for it here (memory/trust.py ``PEER_ITEM_TRUST``). Vouching and withdrawing
the vouch live side by side; both keep the previous version and are audited (a ``review`` event on the experience,
decision ``vouched`` or ``vouch_withdrawn``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from agents.visibility import Scope
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from memory.models import Experience, MemoryStatus
from memory.review.versions import memory_version_save
from memory.services.consolidation import experience_support_update
from memory.trust import Trust


def _vouch_refusal(experience: Experience) -> str:
    if experience.scope == Scope.PERSONAL:
        return "a personal item reaches only its author"
    if experience.status != MemoryStatus.ACTIVE:
        return f"the item is {experience.status}"
    if experience.quarantined:
        return "the item is held in quarantine: release it from its review item"
    return ""


@transaction.atomic
def experiences_vouch(*, experiences, user, reason: str = "") -> tuple[int, list[str]]:
    """A person vouches for shared (module or project) items: each becomes ``reviewed`` (verified), so every agent
    of its scope retrieves it, and so are the exchanges it was drawn from (memory/trust.py ``PEER_RAW_TRUST``).
    Returns how many were vouched for and why the others were not."""
    done, refused = 0, []
    for experience in Experience.objects.select_for_update().filter(pk__in=[e.pk for e in experiences]):
        why = _vouch_refusal(experience) or ("already reviewed" if experience.verified else "")
        if why:
            refused.append(f"{experience.statement[:50]}: {why}")
            continue
        memory_version_save(obj=experience, batch=None, reason="vouched for by a reviewer")
        experience.verified, experience.trust = True, Trust.REVIEWED
        experience.version += 1
        experience.updated_at = timezone.now()
        experience.save(update_fields=["verified", "trust", "version", "updated_at"])
        audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                     project_id=experience.project_id, actor_user=user, scope=experience.scope,
                     reason=(reason or "vouched for")[:300], data={"decision": "vouched"})
        done += 1
    return done, refused


@transaction.atomic
def experiences_vouch_withdraw(*, experiences, user, reason: str = "") -> tuple[int, list[str]]:
    """Undo :func:`experiences_vouch`: the items are no longer verified and earn again only what their evidence
    earns (one agent's word reaches that agent only again)."""
    done, refused = 0, []
    for experience in Experience.objects.select_for_update().filter(pk__in=[e.pk for e in experiences]):
        if not experience.verified:
            refused.append(f"{experience.statement[:50]}: not vouched for")
            continue
        memory_version_save(obj=experience, batch=None, reason="vouch withdrawn by a reviewer")
        experience.verified = False
        experience.version += 1
        experience.updated_at = timezone.now()
        experience_support_update(experience=experience)
        audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                     project_id=experience.project_id, actor_user=user, scope=experience.scope,
                     reason=(reason or "vouch withdrawn")[:300],
                     data={"decision": "vouch_withdrawn", "trust": experience.trust})
        done += 1
    return done, refused
