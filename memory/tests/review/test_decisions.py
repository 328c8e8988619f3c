"""Each review decision: which kind of item it refuses, what it records on the item, and what its audit event
says (reason, scope, sources, decision)."""

import pytest
from django.contrib.auth.models import User

from core.errors import ApplicationError, Conflict
from governance.models import AuditEvent, ConsolidationBatch
from memory.models import Exchange, ReviewItem
from memory.review.services import (
    review_approve,
    review_conflict_create,
    review_dismiss,
    review_item_create,
    review_needs_evidence,
    review_reject,
)
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewer(db):
    return User.objects.create_user("reviewer", password="x")


@pytest.fixture
def items(api_client, make_agent):
    """A promotion of a personal item, and a conflict of another personal item with a module item."""
    holder = make_agent(modules=["ops"])

    def stored(text, **session):
        sid = post_session(api_client, holder, **session)["id"]
        ids = post_exchanges(api_client, holder, sid, [{"user": text, "assistant": "Ok.", "occurred_at": at()}])
        return make_memories(Exchange.objects.get(pk=ids[0]["id"]))[1]

    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    proposed = stored("Always run the linter before merging")
    new, old = stored("We deploy on Fridays now"), stored("Deploys happen on Tuesdays only", module="ops")
    return {"promotion": review_item_create(experience=proposed, batch=batch, sessions=3),
            "conflict": review_conflict_create(experience=new, other=old, batch=batch)}


def _event(item) -> AuditEvent:
    return AuditEvent.objects.get(action="review", object_id=str(item.pk))


def test_a_decision_for_the_other_kind_is_refused_and_changes_nothing(items, reviewer):
    with pytest.raises(ApplicationError) as refused:
        review_dismiss(item=items["promotion"], user=reviewer, reason="both hold")
    assert refused.value.code == "not_a_conflict"
    with pytest.raises(ApplicationError) as refused:
        review_needs_evidence(item=items["conflict"], user=reviewer)
    assert refused.value.code == "not_a_promotion"
    assert set(ReviewItem.objects.values_list("status", flat=True)) == {ReviewItem.Status.PENDING}
    assert not AuditEvent.objects.filter(action="review").exists()


def test_needs_evidence_then_approve_then_nothing_more(items, reviewer):
    item = items["promotion"]
    review_needs_evidence(item=item, user=reviewer)
    item.refresh_from_db()
    assert (item.status, item.decided_by, item.decision_reason) == ("needs_evidence", reviewer, "")
    event = _event(item)
    assert (event.reason, event.scope, event.actor_user) == ("needs more evidence", "", reviewer)
    assert event.source_ids == [str(item.experience_id)]
    assert event.data == {"kind": "promotion", "decision": "needs_evidence"}

    review_approve(item=item, user=reviewer)  # one waiting for evidence may still be decided
    item.refresh_from_db()
    assert item.status == "approved" and item.approved_experience is not None
    event = AuditEvent.objects.filter(action="review", object_id=str(item.pk)).latest("seq")
    assert (event.reason, event.scope) == ("approved", "project")
    assert event.source_ids == [str(item.experience_id), str(item.approved_experience_id)]
    assert event.data == {"kind": "promotion", "decision": "approved", "edited": False}

    with pytest.raises(Conflict) as refused:
        review_reject(item=item, user=reviewer, reason="changed my mind")
    assert refused.value.code == "already_decided"


def test_keep_both_and_a_rejection_are_audited(items, reviewer):
    item = items["conflict"]
    review_dismiss(item=item, user=reviewer)
    event = _event(item)
    assert (event.reason, event.scope) == ("keep_both", "")
    assert event.source_ids == [str(item.experience_id), str(item.other_experience_id)]
    assert event.data == {"kind": "conflict", "decision": "keep_both"}

    promotion = items["promotion"]
    review_reject(item=promotion, user=reviewer, reason="too narrow")
    event = _event(promotion)
    assert (event.reason, event.scope, event.source_ids) == ("too narrow", "", [str(promotion.experience_id)])
    assert event.data == {"kind": "promotion", "decision": "rejected"}


@pytest.mark.parametrize("kind", ["promotion", "conflict"])
def test_a_proposal_whose_item_changed_since_cannot_be_approved(items, reviewer, kind):
    """Found by the paraphrase bench's reviewer pass: "dependency update PRs are opened by Dependabot" was proposed
    for the project, then superseded by "Renovate replaced Dependabot"; approving the proposal still waiting made
    the old value an active, verified project rule. Refused, with the reason; rejecting it still works."""
    from memory.models import Experience

    item = items[kind]
    Experience.objects.filter(pk=item.experience_id).update(status="superseded")
    active_before = Experience.objects.filter(status="active").count()
    with pytest.raises(Conflict) as refused:
        review_approve(item=item, user=reviewer)
    assert refused.value.code == "item_not_active" and "superseded" in refused.value.message
    item.refresh_from_db()
    assert item.status == "pending" and item.approved_experience is None
    assert Experience.objects.filter(status="active").count() == active_before
    assert not AuditEvent.objects.filter(action="review").exists()
    review_reject(item=item, user=reviewer, reason="out of date: the value changed")
    item.refresh_from_db()
    assert item.status == "rejected"


def test_keeping_an_old_item_that_no_longer_holds_is_refused(items, reviewer):
    """The mirror of the above: "keep the old one" when the old item was superseded or deleted meanwhile would retire
    the new item for it, leaving neither active."""
    from memory.models import Experience

    item = items["conflict"]
    Experience.objects.filter(pk=item.other_experience_id).update(status="deleted")
    with pytest.raises(Conflict) as refused:
        review_reject(item=item, user=reviewer, reason="the old rule stands")
    assert refused.value.code == "item_not_active" and "deleted" in refused.value.message
    assert Experience.objects.get(pk=item.experience_id).status == "active"
    item.refresh_from_db()
    assert item.status == "pending"
    review_approve(item=item, user=reviewer)  # keeping the new one still works
    item.refresh_from_db()
    assert item.status == "approved"
