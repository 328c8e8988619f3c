"""Safe rollback (an undo that could silently take a person's later decisions with it): a preview and a confirmation; a
batch a person has since approved or edited is refused or rolled back with its dependents in one audited step; a later
edit is kept as a version; rolled-back exchanges are held back from consolidation; batches, review items and audit
events cannot be deleted from the admin."""

from __future__ import annotations

import pytest
from django.utils import timezone

from core.errors import Conflict
from governance.models import AuditEvent, ConsolidationBatch
from memory.models import Candidate, Exchange, Experience, MemoryVersion, ReviewItem
from memory.review.rollback import batch_rollback, batch_rollback_plan
from memory.review.services import review_approve, review_item_create
from memory.review.versions import memory_version_save
from memory.tests.factories import at, post_exchanges, post_session
from testing.scenarios import MARATHON_WAVE_1, MARATHON_WAVE_2
from tests.console.conftest import stored_rule

pytestmark = pytest.mark.django_db

RULE = "Every production deploy needs a second reviewer who signs off in the change log."


def _search(api_client, holder, query):
    body = api_client.post("/api/v1/search", {"query": query}, format="json", **holder.headers).json()
    return {x["id"]: x for x in body["experiences"]}


@pytest.fixture
def approved_rule(api_client, make_agent, reviewer):
    """A module rule that batch B merged evidence into and proposed for the project; a person approved it."""
    holder = make_agent(modules=["ops"])
    rule = stored_rule(holder=holder, api_client=api_client, statement=RULE,
                       user_texts=[f"Release {i}: a second reviewer signs off every deploy." for i in range(3)])
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent,
                                              status="succeeded", started_at=timezone.now(),
                                              finished_at=timezone.now())
    memory_version_save(obj=rule, batch=batch, reason="dedup")  # what a dedup merge of batch B writes
    rule.confidence, rule.version = 0.9, rule.version + 1
    rule.save()
    item = review_item_create(experience=rule, batch=batch, sessions=3, proposed_scope="project")
    review_approve(item=item, user=reviewer, reason="team-wide rule")
    item.refresh_from_db()
    return {"holder": holder, "rule": rule, "batch": batch, "item": item, "project_rule": item.approved_experience}


def test_a_batch_behind_an_approved_rule_is_not_rolled_back_silently(api_client, approved_rule):
    """Observed: the rollback left the review item approved, the project rule active and re-activated the module
    rule the approval had superseded; search returned both."""
    batch = approved_rule["batch"]
    with pytest.raises(Conflict) as refused:
        batch_rollback(batch=batch, reason="bad batch")
    assert refused.value.code == "rollback_has_dependents"
    assert "reviewer approved the promotion" in refused.value.message
    batch.refresh_from_db()
    assert batch.status == "succeeded"
    rule, project_rule = Experience.objects.get(pk=approved_rule["rule"].pk), approved_rule["project_rule"]
    assert rule.status == "superseded"  # nothing changed
    project_rule.refresh_from_db()
    assert project_rule.status == "active"


def test_cascade_rolls_the_approval_back_with_the_batch_in_one_audited_step(api_client, approved_rule):
    batch, holder = approved_rule["batch"], approved_rule["holder"]
    plan = batch_rollback_plan(batch=batch)
    assert [d.kind for d in plan.dependents] == ["decision"]
    assert [o.pk for o in plan.reactivated] == [approved_rule["rule"].pk]
    batch_rollback(batch=batch, reason="bad batch", cascade=True)
    item = ReviewItem.objects.get(pk=approved_rule["item"].pk)
    project_rule = Experience.objects.get(pk=approved_rule["project_rule"].pk)
    rule = Experience.objects.get(pk=approved_rule["rule"].pk)
    assert item.status == "rolled_back" and "undone by the rollback" in item.decision_reason
    assert project_rule.status == "rolled_back"
    assert rule.status == "active" and rule.confidence != 0.9  # its state before batch B
    found = _search(api_client, holder, "who signs off a production deploy")
    assert str(rule.pk) in found and str(project_rule.pk) not in found  # the statement once, not twice
    [event] = AuditEvent.objects.filter(action="rollback")
    assert event.data["cascade"] is True and event.data["decisions_undone"][0]["rule"] == str(project_rule.pk)


def test_a_later_edit_is_kept_as_a_version(api_client, make_agent):
    """Observed: rolling back a batch discarded a later edit of one of its items with no copy kept."""
    holder = make_agent(modules=["ops"])
    rule = stored_rule(holder=holder, api_client=api_client, statement=RULE, user_texts=["a reviewer signs off"])
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded",
                                              finished_at=timezone.now())
    memory_version_save(obj=rule, batch=batch, reason="dedup")
    edited = "Every production deploy needs two reviewers who sign off in the change log."
    response = api_client.patch(f"/api/v1/experiences/{rule.pk}", {"statement": edited}, format="json",
                                **holder.headers)
    assert response.status_code == 200
    with pytest.raises(Conflict) as refused:
        batch_rollback(batch=batch)
    assert "edit of experience" in refused.value.message
    batch_rollback(batch=batch, cascade=True, reason="undo")
    rule.refresh_from_db()
    assert rule.statement == RULE  # the state before the batch
    kept = [v.snapshot["statement"] for v in MemoryVersion.objects.filter(experience=rule)]
    assert edited in kept  # the later edit survives as a version


@pytest.fixture
def consolidated(api_client, make_agent, settings, django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")
    holder = make_agent(modules=["coach"])
    for wave, day0 in ((MARATHON_WAVE_1, 0), (MARATHON_WAVE_2, 20)):
        session = post_session(api_client, holder, module="coach")["id"]
        with django_capture_on_commit_callbacks(execute=True):
            post_exchanges(api_client, holder, session, [{"user": u, "assistant": a, "occurred_at": at(days=day0 + i)}
                                                         for i, (u, a) in enumerate(wave)])
    return holder, ConsolidationBatch.objects.order_by("created_at").last()


def test_rolled_back_exchanges_are_not_reconsolidated_on_the_next_write(api_client, consolidated, admin_client,
                                                                        django_capture_on_commit_callbacks):
    """Observed: the rolled-back exchanges were consolidated into the same result on the next write."""
    holder, batch = consolidated
    consolidated_ids = set(batch.summary["exchanges"])
    batch_rollback(batch=batch, reason="bad run")
    assert set(Exchange.objects.filter(pk__in=consolidated_ids).values_list("state", flat=True)) == {"held"}
    batches = ConsolidationBatch.objects.count()
    session = post_session(api_client, holder, module="coach")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, session, [
            {"user": "Another question about my marathon training plan: how many rest days a week?",
             "assistant": "Two rest days a week in your marathon plan.", "occurred_at": at(days=40)}])
    assert ConsolidationBatch.objects.count() == batches
    assert set(Exchange.objects.filter(pk__in=consolidated_ids).values_list("state", flat=True)) == {"held"}
    # A person releases them (batch action): they may ripen again.
    response = admin_client.post("/admin/governance/consolidationbatch/",
                                 {"action": "release", "_selected_action": [batch.pk]}, follow=True)
    assert "Released 5 held exchanges" in str([str(m) for m in response.context["messages"]])
    assert set(Exchange.objects.filter(pk__in=consolidated_ids).values_list("state", flat=True)) == {"raw"}
    assert AuditEvent.objects.filter(action="update", object_type="exchange", reason="released from the admin").exists()


def test_new_evidence_takes_held_exchanges_along(api_client, consolidated, django_capture_on_commit_callbacks):
    holder, batch = consolidated
    held = set(batch.summary["exchanges"])
    batch_rollback(batch=batch)
    session = post_session(api_client, holder, module="coach")["id"]
    fresh = [(f"Marathon training plan check-in {i}: the long run this Sunday went well at {20 + i} km.",
              "Keep following your marathon training plan.") for i in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, session, [{"user": u, "assistant": a, "occurred_at": at(days=50 + i)}
                                                     for i, (u, a) in enumerate(fresh)])
    candidate = Candidate.objects.filter(reason="recurrence").order_by("created_at").last()
    members = {str(pk) for pk in candidate.exchanges.values_list("pk", flat=True)}
    assert members & held  # the held units joined the topic the new evidence ripened
    assert not Exchange.objects.filter(pk__in=members, state="held").exists()


def test_the_admin_rollback_previews_before_it_acts(admin_client, consolidated):
    """Observed: a list action that ran with no confirmation and no preview."""
    _, batch = consolidated
    response = admin_client.post("/admin/governance/consolidationbatch/",
                                 {"action": "rollback", "_selected_action": [batch.pk]})
    assert response.status_code == 302 and response["Location"].endswith(f"/{batch.pk}/rollback/")
    batch.refresh_from_db()
    assert batch.status == "succeeded"  # nothing happened yet
    page = admin_client.get(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/")
    body = page.content.decode()
    for text in ("Removed (", "Restored to their state before the batch", "Re-activated", "will be held back",
                 "Later changes that depend on this batch", "Confirm rollback"):
        assert text in body
    assert admin_client.post(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/", {"reason": ""}
                             ).status_code == 200  # a reason is required: the form again
    batch.refresh_from_db()
    assert batch.status == "succeeded"
    response = admin_client.post(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/",
                                 {"reason": "bad run"})
    assert response.status_code == 302
    batch.refresh_from_db()
    assert batch.status == "rolled_back"
    assert AuditEvent.objects.get(action="rollback").actor_user == admin_client.user


def test_the_admin_refuses_a_rollback_with_dependents_unless_confirmed(admin_client, approved_rule):
    batch = approved_rule["batch"]
    page = admin_client.get(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/").content.decode()
    assert "reviewer approved the promotion" in page and "Also undo the later changes" in page
    response = admin_client.post(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/", {"reason": "x"},
                                 follow=True)
    assert "rollback refused" in str([str(m) for m in response.context["messages"]])
    batch.refresh_from_db()
    assert batch.status == "succeeded"
    admin_client.post(f"/admin/governance/consolidationbatch/{batch.pk}/rollback/", {"reason": "x", "cascade": "on"})
    batch.refresh_from_db()
    assert batch.status == "rolled_back"


def test_batches_review_items_and_audit_events_cannot_be_deleted(admin_client, approved_rule):
    """Observed: consolidation batches (with their evidence rows) and review items could be deleted."""
    batch, item = approved_rule["batch"], approved_rule["item"]
    event = AuditEvent.objects.first()
    for url in (f"/admin/governance/consolidationbatch/{batch.pk}/delete/",
                f"/admin/memory/reviewitem/{item.pk}/delete/", f"/admin/governance/auditevent/{event.pk}/delete/"):
        assert admin_client.post(url, {"post": "yes"}).status_code == 403, url
    for changelist, pk in (("governance/consolidationbatch", batch.pk), ("memory/reviewitem", item.pk)):
        admin_client.post(f"/admin/{changelist}/", {"action": "delete_selected", "_selected_action": [pk],
                                                    "post": "yes"})
        page = admin_client.get(f"/admin/{changelist}/").content.decode()
        assert "delete_selected" not in page, changelist
    assert ConsolidationBatch.objects.filter(pk=batch.pk).exists()
    assert ReviewItem.objects.filter(pk=item.pk).exists()
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_memory_rows_cannot_be_deleted_from_the_admin(admin_client, approved_rule):
    """Every delete of a memory row goes through the services (reason, audit event), never the admin's own."""
    experience = approved_rule["rule"]
    exchange = Exchange.objects.filter(project_id=experience.project_id).first()
    for changelist, model, pk in (("memory/experience", Experience, experience.pk),
                                  ("memory/exchange", Exchange, exchange.pk),
                                  ("memory/session", type(exchange.session), exchange.session_id)):
        assert admin_client.post(f"/admin/{changelist}/{pk}/delete/", {"post": "yes"}).status_code == 403, changelist
        admin_client.post(f"/admin/{changelist}/", {"action": "delete_selected", "_selected_action": [pk],
                                                    "post": "yes"})
        assert "delete_selected" not in admin_client.get(f"/admin/{changelist}/").content.decode(), changelist
        assert model.objects.filter(pk=pk).exists(), changelist
