"""The admin pages an operator and a reviewer use render, and their actions work."""

import pytest
from django.contrib.auth.models import User

from governance.models import AuditEvent, ConsolidationBatch
from memory.models import Experience, ReviewItem
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("admin", "admin@example.com", "pw-123456")
    client.force_login(user)
    client.user = user
    return client


def test_changelists_render(admin_client, make_agent, api_client):
    holder = make_agent()
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "hello", "assistant": "hi",
                                                                  "occurred_at": at()}])
    from memory.models import Exchange

    make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    for model in ("agents/project", "agents/module", "agents/agent", "agents/apikey", "memory/session",
                  "memory/exchange", "memory/episode", "memory/experience", "memory/candidate", "governance/llmcall",
                  "governance/consolidationbatch", "governance/auditevent", "memory/reviewitem",
                  "governance/privacypolicy", "governance/vaultentry", "django_q/failure", "django_q/success",
                  "django_q/schedule"):
        response = admin_client.get(f"/admin/{model}/")
        assert response.status_code == 200, model
    experience = Experience.objects.get()
    assert admin_client.get(f"/admin/memory/experience/{experience.pk}/change/").status_code == 200


def test_issue_key_action_shows_key_once(admin_client, make_agent):
    holder = make_agent()
    response = admin_client.post("/admin/agents/agent/", {"action": "issue_key", "_selected_action": [holder.agent.pk]},
                                 follow=True)
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert any("rmk_" in m for m in messages)
    assert holder.agent.api_keys.count() == 2


def test_review_decide_page_approves_with_edit(admin_client, make_agent, api_client):
    holder = make_agent()
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "Always run the linter before merging",
                                                                  "assistant": "Will do.", "occurred_at": at()}])
    from memory.models import Exchange
    from memory.review.services import review_item_create

    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    item = review_item_create(experience=experience, batch=batch, sessions=3)
    page = admin_client.get(f"/admin/memory/reviewitem/{item.pk}/decide/")
    assert page.status_code == 200 and b"Always run the linter" in page.content
    assert admin_client.get(f"/admin/memory/reviewitem/{item.pk}/change/").status_code == 200
    response = admin_client.post(f"/admin/memory/reviewitem/{item.pk}/decide/",
                                 {"statement": "Run the linter before every merge.", "reason": "team rule",
                                  "approve": "1"})
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.status == ReviewItem.Status.APPROVED
    assert item.approved_experience.statement == "Run the linter before every merge."
    assert AuditEvent.objects.filter(action="review", actor_user=admin_client.user).exists()


def test_an_outdated_proposal_says_so_and_approving_it_is_refused(admin_client, make_agent, api_client):
    """A promotion still waiting after its item was superseded (the paraphrase bench's reviewer pass found one)."""
    from memory.models import Exchange
    from memory.review.services import review_item_create

    holder = make_agent()
    sid = post_session(api_client, holder)["id"]
    stored = post_exchanges(api_client, holder, sid, [
        {"user": "Dependency PRs are opened by Dependabot", "assistant": "Ok."},
        {"user": "Renovate replaced Dependabot this sprint", "assistant": "Ok."}])
    _, old = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    _, new = make_memories(Exchange.objects.get(pk=stored[1]["id"]))
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    item = review_item_create(experience=old, batch=batch, sessions=3)
    type(old).objects.filter(pk=old.pk).update(status="superseded", superseded_by=new)
    page = admin_client.get(f"/admin/memory/reviewitem/{item.pk}/decide/").content.decode()
    assert 'id="outdated"' in page and "superseded since it was proposed" in page
    assert "Renovate replaced Dependabot this sprint" in page
    response = admin_client.post(f"/admin/memory/reviewitem/{item.pk}/decide/",
                                 {"statement": old.statement, "reason": "ok", "approve": "1"}, follow=True)
    assert "reject or dismiss this proposal" in str([str(m) for m in response.context["messages"]])
    item.refresh_from_db()
    assert item.status == "pending" and not type(old).objects.filter(status="active", verified=True).exists()


def test_audit_log_is_read_only(admin_client, make_agent):
    make_agent()
    event = AuditEvent.objects.create(action="read", object_type="search")
    assert admin_client.get(f"/admin/governance/auditevent/{event.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/governance/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def _conflict(api_client, make_agent):
    """A personal item contradicting a module item of the same agent's module (as consolidation files it)."""
    from memory.models import Exchange
    from memory.review.services import review_conflict_create

    holder = make_agent(modules=["ops"])
    personal = post_session(api_client, holder)
    module = post_session(api_client, holder, module="ops")
    mine = post_exchanges(api_client, holder, personal["id"], [{"user": "We deploy on Fridays now",
                                                               "assistant": "Ok.", "occurred_at": at()}])
    shared = post_exchanges(api_client, holder, module["id"], [{"user": "Deploys happen on Tuesdays only",
                                                               "assistant": "Ok.", "occurred_at": at()}])
    _, new = make_memories(Exchange.objects.get(pk=mine[0]["id"]))
    _, old = make_memories(Exchange.objects.get(pk=shared[0]["id"]))
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    return review_conflict_create(experience=new, other=old, batch=batch), new, old


@pytest.mark.parametrize("button,status,new_status,old_status,decision", [
    ("approve", "approved", "superseded", "superseded", "keep_new"),
    ("reject", "rejected", "superseded", "active", "keep_old"),
    ("dismiss", "dismissed", "active", "active", "keep_both"),
])
def test_conflict_decide_page(admin_client, make_agent, api_client, button, status, new_status, old_status,
                              decision):
    item, new, old = _conflict(api_client, make_agent)
    assert b"Keep new / keep old / keep both" in admin_client.get(
        f"/admin/memory/reviewitem/{item.pk}/change/").content
    page = admin_client.get(f"/admin/memory/reviewitem/{item.pk}/decide/")
    assert page.status_code == 200
    for text in (b"We deploy on Fridays now", b"Deploys happen on Tuesdays only", b"Keep the new one",
                 b"Keep the old one", b"Keep both"):
        assert text in page.content
    if button == "reject":  # keeping the old one needs a reason, like any rejection
        response = admin_client.post(f"/admin/memory/reviewitem/{item.pk}/decide/", {"reason": "", button: "1"},
                                     follow=True)
        assert "reason is required" in str([str(m) for m in response.context["messages"]])
        item.refresh_from_db()
        assert item.status == "pending"
    response = admin_client.post(f"/admin/memory/reviewitem/{item.pk}/decide/",
                                 {"statement": new.statement, "reason": "decided", button: "1"})
    assert response.status_code == 302
    item.refresh_from_db()
    new.refresh_from_db()
    old.refresh_from_db()
    assert (item.status, new.status, old.status) == (status, new_status, old_status)
    event = AuditEvent.objects.get(action="review", object_id=str(item.pk))
    assert event.actor_user == admin_client.user and event.data["decision"] == decision
    if button == "approve":  # the new statement replaces the old item in the old item's scope
        assert (item.approved_experience.scope, item.approved_experience.module_id) == ("module", old.module_id)


def test_experience_history_reads_as_a_timeline_without_vectors(admin_client, make_agent, api_client):
    """Who, when, why and a word diff per change; no snapshot JSON and no embedding numbers on the page."""
    from memory.models import Exchange
    from memory.review.changes import experience_change_apply, experience_delete_apply

    holder = make_agent()
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "We deploy on Tuesdays", "assistant": "Noted.",
                                                                  "occurred_at": at()}])
    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    experience_change_apply(experience=experience, change={"statement": "We deploy on Thursdays", "confidence": 0.9},
                            reason="the release day moved", actor_agent=holder.agent)
    experience.refresh_from_db()
    experience_delete_apply(experience=experience, reason="replaced by the release calendar",
                            actor_user=admin_client.user)
    page = admin_client.get(f"/admin/memory/experience/{experience.pk}/change/").content.decode()
    assert 'class="rm-history"' in page
    timeline = page[page.index('class="rm-history"'):]
    timeline = timeline[:timeline.index("</table>")]
    assert "<del>Tuesdays</del>" in timeline and "<ins>Thursdays</ins>" in timeline
    assert f"agent {holder.agent}" in timeline and "the release day moved" in timeline
    assert "reviewer admin" in timeline and "replaced by the release calendar" in timeline
    assert "status: active → deleted" in timeline
    assert "confidence:" in timeline and "→ 0.90" in timeline
    # The delete is the newest step and comes first.
    assert timeline.index("replaced by the release calendar") < timeline.index("the release day moved")
    import re

    assert 'field-embedding"' not in page and "snapshot" not in page
    assert not re.search(r"(-?\d\.\d+,\s*){10}", page), "a vector is printed on the page"
