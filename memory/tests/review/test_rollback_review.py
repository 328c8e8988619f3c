"""Rollback of a whole batch, the review queue, the audit trail — through the real consolidation path."""

import pytest
from django.contrib.auth.models import User

from core.errors import ApplicationError
from governance.models import AuditEvent, ConsolidationBatch
from memory.models import Episode, Exchange, Experience, ReviewItem
from memory.review.rollback import batch_rollback
from memory.review.services import review_approve, review_item_create, review_reject
from memory.tests.factories import at, post_exchanges, post_session
from testing.scenarios import MARATHON_WAVE_1, MARATHON_WAVE_2

pytestmark = pytest.mark.django_db


def _items(pairs, day0):
    return [{"user": u, "assistant": a, "occurred_at": at(days=day0 + i)} for i, (u, a) in enumerate(pairs)]


@pytest.fixture
def consolidated(api_client, make_agent, settings, django_capture_on_commit_callbacks):
    """Two waves of a recurring topic, consolidated with the extractive consolidator (online mode)."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
    holder = make_agent(modules=["coach"])
    s1 = post_session(api_client, holder, module="coach")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, s1, _items(MARATHON_WAVE_1, 0))
    first = ConsolidationBatch.objects.get()
    s2 = post_session(api_client, holder, module="coach")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, s2, _items(MARATHON_WAVE_2, 20))
    second = ConsolidationBatch.objects.exclude(pk=first.pk).get()
    return holder, first, second


def _state():
    return {
        "episodes": {(e.pk, e.status, e.narrative, e.version) for e in Episode.objects.all()},
        "experiences": {(x.pk, x.status, x.statement, x.superseded_by_id) for x in Experience.objects.all()},
        "exchanges": {(e.pk, e.state) for e in Exchange.objects.all()},
    }


def test_rollback_restores_the_state_before_the_batch(consolidated):
    holder, first, second = consolidated
    assert first.status == second.status == "succeeded"
    summary = second.summary
    assert summary["episodes_merged"] or summary["episodes_created"]
    assert summary["experiences_superseded"], summary  # the preference change

    batch_rollback(batch=second, actor_agent=holder.agent, reason="bad run")
    second.refresh_from_db()
    assert second.status == "rolled_back" and second.rolled_back_at
    for pk in summary["experiences_created"]:
        assert Experience.objects.get(pk=pk).status == "rolled_back"
    for pk in summary["experiences_superseded"]:
        old = Experience.objects.get(pk=pk)
        assert old.status == "active" and old.superseded_by is None  # re-activated
    for pk in summary["episodes_merged"]:
        episode = Episode.objects.get(pk=pk)
        assert not episode.sources.filter(pk__in=summary["exchanges"]).exists()  # merge undone
    # Held back from consolidation: the next write on the topic must not rebuild what was undone.
    assert set(Exchange.objects.filter(pk__in=summary["exchanges"]).values_list("state", flat=True)) == {"held"}
    assert Exchange.objects.count() == 10  # raw exchanges are never deleted
    event = AuditEvent.objects.get(action="rollback")
    assert event.object_id == str(second.pk) and event.reason == "bad run" and event.data["restored"] >= 1
    with pytest.raises(ApplicationError):
        batch_rollback(batch=second)


def test_rolling_back_everything_leaves_only_raw_exchanges(consolidated):
    _, first, second = consolidated
    batch_rollback(batch=second)
    batch_rollback(batch=first)
    assert not Episode.objects.filter(status="active").exists()
    assert not Experience.objects.filter(status="active").exists()
    assert set(Exchange.objects.values_list("state", flat=True)) <= {"raw", "held"}  # nothing consolidated


def test_rolled_back_items_are_not_searched(api_client, consolidated):
    holder, first, second = consolidated
    batch_rollback(batch=second)
    batch_rollback(batch=first)
    found = api_client.post("/api/v1/search", {"query": "marathon training plan"}, format="json",
                            **holder.headers).json()
    assert found["episodes"] == [] and found["experiences"] == []
    assert found["exchanges"]  # the subconscious layer is still there


def test_every_write_is_audited(consolidated):
    _, first, _ = consolidated
    assert AuditEvent.objects.filter(action="create", object_type="exchange").count() == 10
    assert AuditEvent.objects.filter(action="create", object_type="session").count() == 2
    created = AuditEvent.objects.filter(batch=first, action="create")
    assert {e.object_type for e in created} >= {"episode", "experience"}
    assert all(e.source_ids for e in created)
    assert AuditEvent.objects.filter(action="supersede").exists()
    assert AuditEvent.objects.filter(action="consolidate", reason="succeeded").count() == 2


def _rule(holder):
    return Experience.objects.filter(status="active", owner_agent=holder.agent).first()


def test_review_approve_with_edit_makes_a_project_rule(consolidated, api_client, make_agent):
    holder, first, _ = consolidated
    source = _rule(holder)
    item = review_item_create(experience=source, batch=first, sessions=3)
    reviewer = User.objects.create_user("rev", password="x")
    review_approve(item=item, user=reviewer, edited_statement="Marathon runners train at most four times a week.",
                   reason="policy")
    item.refresh_from_db()
    assert item.status == "approved" and item.decided_by == reviewer
    rule = item.approved_experience
    assert rule.scope == "project" and rule.statement.startswith("Marathon runners") and rule.verified
    source.refresh_from_db()
    assert source.status == "superseded" and source.superseded_by == rule
    # every agent of the project sees the rule, other projects do not
    peer = make_agent(project=holder.agent.project.name)
    outsider = make_agent(project="elsewhere")
    assert api_client.get(f"/api/v1/experiences/{rule.pk}", **peer.headers).status_code == 200
    assert api_client.get(f"/api/v1/experiences/{rule.pk}", **outsider.headers).status_code == 404
    assert AuditEvent.objects.filter(action="review", object_id=str(item.pk)).exists()
    with pytest.raises(ApplicationError):
        review_reject(item=item, user=reviewer, reason="too late")


def test_review_reject_needs_a_reason(consolidated):
    holder, first, _ = consolidated
    item = review_item_create(experience=_rule(holder), batch=first, sessions=3)
    reviewer = User.objects.create_user("rev", password="x")
    with pytest.raises(ApplicationError):
        review_reject(item=item, user=reviewer, reason=" ")
    review_reject(item=item, user=reviewer, reason="not general enough")
    item.refresh_from_db()
    assert item.status == ReviewItem.Status.REJECTED and item.decision_reason == "not general enough"
