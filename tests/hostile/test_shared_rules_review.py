"""Shared rules change through review: an agent edits or deletes its own personal items directly; a PATCH or DELETE
of a module or project item becomes a proposal (202 with the review item's id) that a person decides in the admin;
``verified`` is never set by an agent; PATCH answers with the item, so it needs the reader role too."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Module
from governance.models import AuditEvent
from memory.gateways.embeddings import get_embedder
from memory.models import Experience, MemoryStatus, MemoryVersion, ReviewItem
from memory.review.services import review_approve, review_reject

RULE = "Deploys to production need a sign-off by a second reviewer."
OPPOSITE = "Deploys to production never need a second reviewer."


def _item(holder, *, scope="module", statement=RULE, module="ops") -> Experience:
    embedder = get_embedder()
    agent = holder.agent
    return Experience.objects.create(
        project=agent.project, owner_agent=agent, scope=scope, type="constraint", subject="deploys",
        statement=statement, embedding=embedder.embed_one(f"deploys: {statement}"),
        embedding_model=embedder.model_id, confidence=0.7,
        module=Module.objects.get(project=agent.project, name=module) if scope == "module" else None)


@pytest.fixture
def team(make_agent):
    """Two members of module ops: the rule's author and another member."""
    return make_agent(name="author", modules=["ops"]), make_agent(name="member", modules=["ops"])


@pytest.fixture
def person(db):
    return User.objects.create_superuser("reviewer", "reviewer@example.com", "pw-123456")


def _patch(api_client, holder, item, body):
    return api_client.patch(f"/api/v1/experiences/{item.pk}", body, format="json", **holder.headers)


def _delete(api_client, holder, item, body=None):
    return api_client.delete(f"/api/v1/experiences/{item.pk}", body or {}, format="json", **holder.headers)


def _unchanged(item: Experience) -> None:
    fresh = Experience.objects.get(pk=item.pk)
    assert (fresh.statement, fresh.confidence, fresh.verified, fresh.status, fresh.version) == (
        item.statement, item.confidence, item.verified, item.status, item.version)


def test_a_member_cannot_verify_a_rule(api_client, team):
    """Observed: a module member PATCHed another agent's module rule to its opposite with verified true (200)."""
    author, member = team
    rule = _item(author)
    response = _patch(api_client, member, rule, {"statement": OPPOSITE, "verified": True, "confidence": 1.0})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "field_not_allowed" and "verified" in error["message"]
    assert error["details"] == {"field": "verified"}
    _unchanged(rule)
    assert not ReviewItem.objects.exists()
    # not even on its own personal item
    own = _item(member, scope="personal")
    assert _patch(api_client, member, own, {"verified": True}).status_code == 400
    _unchanged(own)


def test_a_members_change_of_a_module_rule_waits_for_a_person(api_client, team, person):
    author, member = team
    rule = _item(author)
    response = _patch(api_client, member, rule, {"statement": OPPOSITE, "confidence": 1.0,
                                                 "reason": "we changed the policy"})
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) == {"review_item", "kind", "status", "experience"}  # nothing of the item's content
    assert (body["kind"], body["status"], body["experience"]) == ("change", "pending", str(rule.pk))
    _unchanged(rule)  # until a person approves
    item = ReviewItem.objects.get(pk=body["review_item"])
    assert (item.kind, item.status, item.proposed_by, item.proposal_reason) == (
        "change", "pending", member.agent, "we changed the policy")
    assert item.proposed_change == {"statement": OPPOSITE, "confidence": 1.0}
    assert item.experience_id == rule.pk and item.proposed_scope == "module"
    proposed = AuditEvent.objects.get(object_type="review_item", object_id=str(item.pk))
    assert proposed.actor_agent == member.agent and proposed.data["kind"] == "change"
    # a search still finds the rule as it was
    fetched = api_client.get(f"/api/v1/experiences/{rule.pk}", **member.headers).json()
    assert fetched["statement"] == RULE and fetched["confidence"] == 0.7

    review_approve(item=item, user=person, reason="policy changed on Monday")
    rule.refresh_from_db()
    assert (rule.statement, rule.confidence, rule.verified, rule.version) == (OPPOSITE, 1.0, False, 2)
    assert MemoryVersion.objects.filter(experience=rule).get().snapshot["statement"] == RULE
    applied = AuditEvent.objects.get(object_type="experience", object_id=str(rule.pk), action="update")
    assert applied.actor_user == person and applied.actor_agent is None
    decided = AuditEvent.objects.filter(object_type="review_item", object_id=str(item.pk),
                                        actor_user=person).get()
    assert decided.data["decision"] == "change_applied"
    item.refresh_from_db()
    assert item.status == "approved" and item.decided_by == person


def test_a_rejected_change_keeps_the_rule(api_client, team, person):
    author, member = team
    rule = _item(author)
    response = _patch(api_client, member, rule, {"subject": "deploys (no review)"})
    assert response.status_code == 202
    item = ReviewItem.objects.get(pk=response.json()["review_item"])
    review_reject(item=item, user=person, reason="the policy has not changed")
    _unchanged(rule)
    assert AuditEvent.objects.filter(object_type="review_item", object_id=str(item.pk),
                                     data__decision="change_rejected").exists()


def test_a_members_deletion_of_a_module_rule_waits_for_a_person(api_client, team, person):
    """Observed: a member DELETEd another agent's module rule (204), no review."""
    author, member = team
    rule = _item(author)
    response = _delete(api_client, member, rule, {"reason": "obsolete"})
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["kind"], body["status"]) == ("deletion", "pending")
    _unchanged(rule)
    assert Experience.objects.get(pk=rule.pk).status == MemoryStatus.ACTIVE
    item = ReviewItem.objects.get(pk=body["review_item"])
    assert (item.kind, item.proposed_by, item.proposal_reason) == ("deletion", member.agent, "obsolete")

    review_approve(item=item, user=person, reason="obsolete indeed")
    rule.refresh_from_db()
    assert rule.status == MemoryStatus.DELETED and rule.version == 2
    deleted = AuditEvent.objects.get(object_type="experience", object_id=str(rule.pk), action="delete")
    assert deleted.actor_user == person
    assert MemoryVersion.objects.filter(experience=rule, reason="delete").exists()


def test_project_items_go_to_review_too(api_client, make_agent):
    holder = make_agent()
    rule = _item(holder, scope="project")
    assert _patch(api_client, holder, rule, {"confidence": 0.2}).status_code == 202
    assert _delete(api_client, holder, rule).status_code == 202
    _unchanged(rule)
    assert sorted(ReviewItem.objects.values_list("kind", flat=True)) == ["change", "deletion"]


def test_an_agents_own_personal_items_change_at_once(api_client, make_agent):
    holder = make_agent()
    own = _item(holder, scope="personal")
    response = _patch(api_client, holder, own, {"statement": OPPOSITE, "confidence": 0.4})
    assert response.status_code == 200 and response.json()["statement"] == OPPOSITE
    own.refresh_from_db()
    assert (own.statement, own.confidence, own.version) == (OPPOSITE, 0.4, 2)
    assert _delete(api_client, holder, own).status_code == 204
    own.refresh_from_db()
    assert own.status == MemoryStatus.DELETED
    assert not ReviewItem.objects.exists()


def test_a_writer_without_reader_gets_nothing_back_from_patch(api_client, make_agent):
    """Observed: a writer-only agent read any item through PATCH {}."""
    holder = make_agent(roles=("writer",))
    own = _item(holder, scope="personal")
    response = _patch(api_client, holder, own, {})
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "missing_role" and error["details"] == {"required_role": "reader"}
    assert RULE not in response.content.decode()
    _unchanged(own)


def test_an_empty_change_of_a_shared_item_proposes_nothing(api_client, team):
    author, member = team
    rule = _item(author)
    response = _patch(api_client, member, rule, {"reason": "just looking"})
    assert response.status_code == 200 and response.json()["statement"] == RULE  # a reader may read it anyway
    _unchanged(rule)
    assert not ReviewItem.objects.exists()


def test_the_admin_decide_page_shows_the_proposed_change(api_client, team, client, person):
    author, member = team
    rule = _item(author)
    change = _patch(api_client, member, rule, {"statement": OPPOSITE, "reason": "new policy"}).json()
    deletion = _delete(api_client, member, rule, {"reason": "obsolete"}).json()
    client.force_login(person)
    page = client.get(f"/admin/memory/reviewitem/{change['review_item']}/decide/").content.decode()
    assert "asks to change" in page and RULE in page and OPPOSITE in page and "new policy" in page
    assert 'name="approve"' in page and 'name="reject"' in page
    page = client.get(f"/admin/memory/reviewitem/{deletion['review_item']}/decide/").content.decode()
    assert "asks to delete" in page and RULE in page and "obsolete" in page
    # approve through the page applies the deletion
    response = client.post(f"/admin/memory/reviewitem/{deletion['review_item']}/decide/",
                           {"approve": "1", "statement": RULE, "reason": "ok"})
    assert response.status_code == 302
    assert Experience.objects.get(pk=rule.pk).status == MemoryStatus.DELETED
    assert client.get("/admin/memory/reviewitem/").status_code == 200
