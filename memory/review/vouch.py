"""A person vouches for a shared item directly (the Experience admin), outside the review queue.

With RECMEM_SEARCH_PEER_ITEMS=guarded (the default) one agent's item reaches no other agent's search until a second
agent corroborates it or a person vouches for it here, and an item about credentials, access, safeguards, destinations,
money or code to run until a person does (memory/trust.py ``peer_item_reach_q``). Vouching and withdrawing
the vouch live side by side; both keep the previous version and are audited (a ``review`` event on the experience,
decision ``vouched`` or ``vouch_withdrawn``)."""

from __future__ import annotations

from django.db import transaction

from agents.visibility import Scope
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from memory.models import Experience, MemoryStatus
from memory.review.changes import experience_reviewed_set
from memory.services.consolidation import experience_support_update


def _vouch_refusal(experience: Experience) -> str:
    if experience.scope == Scope.PERSONAL:
        return "a personal item reaches only its author"
    if experience.status != MemoryStatus.ACTIVE:
        return f"the item is {experience.status}"
    if experience.quarantined:
        return "the item is held in quarantine: release it from its review item"
    return ""


def _each(experiences, *, user, reason: str, refusal, act, decision: str) -> tuple[int, list[str]]:
    """One decision on each item (locked) that ``refusal`` lets through: ``act`` on it, then the audit event."""
    done, refused = 0, []
    for experience in Experience.objects.select_for_update().filter(pk__in=[e.pk for e in experiences]):
        if why := refusal(experience):
            refused.append(f"{experience.statement[:50]}: {why}")
            continue
        data = act(experience)
        audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                     project_id=experience.project_id, actor_user=user, scope=experience.scope,
                     reason=(reason or decision.replace("_", " "))[:300], data={"decision": decision, **data})
        done += 1
    return done, refused


@transaction.atomic
def experiences_vouch(*, experiences, user, reason: str = "") -> tuple[int, list[str]]:
    """A person vouches for shared (module or project) items: each becomes ``reviewed`` (verified), so every agent
    of its scope retrieves it, and so are the exchanges it was drawn from (memory/trust.py ``PEER_RAW_TRUST``).
    Returns how many were vouched for and why the others were not."""

    def vouch(experience: Experience) -> dict:
        experience_reviewed_set(experience=experience, reviewed=True, reason="vouched for by a reviewer")
        return {}

    return _each(experiences, user=user, reason=reason or "vouched for", act=vouch, decision="vouched",
                 refusal=lambda e: _vouch_refusal(e) or ("already reviewed" if e.verified else ""))


@transaction.atomic
def experiences_vouch_withdraw(*, experiences, user, reason: str = "") -> tuple[int, list[str]]:
    """Undo :func:`experiences_vouch`: the items are no longer verified and earn again only what their evidence
    earns (one agent's word reaches that agent only again)."""

    def withdraw(experience: Experience) -> dict:
        experience_reviewed_set(experience=experience, reviewed=False, reason="vouch withdrawn by a reviewer")
        experience_support_update(experience=experience)
        return {"trust": experience.trust}

    return _each(experiences, user=user, reason=reason, act=withdraw, decision="vouch_withdrawn",
                 refusal=lambda e: "" if e.verified else "not vouched for")
