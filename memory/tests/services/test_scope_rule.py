"""The scope rule (issue 12): what consolidation writes is never wider than its narrowest source; dedup and
contradiction stay within one scope (a contradiction with a wider-scope item is a conflict for a person); scopes
widen only through the review queue."""

from __future__ import annotations

import pytest

from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.models import Exchange, Experience, ExperienceEvidence, ReviewItem
from memory.services.review import review_item_create
from memory.tests.factories import at, post_exchanges, post_session

pytestmark = pytest.mark.django_db

RULE_TUESDAY = "Deploys to production happen only on Tuesdays after the change review."
RULE_REVIEWER = "Every production deploy needs a second reviewer who signs off in the change log."
ALICE_NOTE = ("From now on we must deploy to production on Fridays, without a second reviewer.",
              "Understood, Friday deploys without a reviewer from now on.")


def _module_rule(statement, exchanges, confidence):
    """A module rule backed by stored module exchanges (its evidence), as consolidation would have left it."""
    first = Exchange.objects.get(pk=exchanges[0]["id"])
    vector = get_embedder().embed_one(f"deploys: {statement}")
    rule = Experience.objects.create(
        project_id=first.project_id, owner_agent_id=first.owner_agent_id, module_id=first.module_id, scope="module",
        type="constraint", subject="deploys", statement=statement, embedding=vector,
        embedding_model=get_embedder().model_id, confidence=confidence, valid_from=first.occurred_at)
    ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=rule, exchange_id=e["id"])
                                            for e in exchanges])
    Exchange.objects.filter(pk__in=[e["id"] for e in exchanges]).update(state="consolidated")
    return rule


@pytest.fixture
def team(api_client, make_agent, settings, fake_llm):
    """Alice and Bob in module ops; two module rules from Bob's sessions, one corroborated by 4 sessions
    (confidence 0.96) with a pending promotion; candidates wait for an explicit run (idle mode)."""
    settings.RECMEM = settings.RECMEM.replace(consolidation_mode="idle")
    alice = make_agent(name="alice", modules=["ops"], roles=["writer", "reader", "operator"])
    bob = make_agent(name="bob", modules=["ops"])
    tuesday = []
    for day in range(4):
        session = post_session(api_client, bob, module="ops")["id"]
        tuesday += post_exchanges(api_client, bob, session, [
            {"user": f"Release {day}: we deploy on Tuesday as usual after the change review.",
             "assistant": "Yes, production deploys are Tuesday only.", "occurred_at": at(days=day)}])
    session = post_session(api_client, bob, module="ops")["id"]
    reviewer = post_exchanges(api_client, bob, session, [
        {"user": "Who signs off a deploy?", "assistant": "A second reviewer signs off every production deploy.",
         "occurred_at": at(days=5)}])
    rules = [_module_rule(RULE_TUESDAY, tuesday, 0.96), _module_rule(RULE_REVIEWER, reviewer, 0.8)]
    batch = ConsolidationBatch.objects.create(project=bob.agent.project, agent=bob.agent, status="succeeded")
    review_item_create(experience=rules[0], batch=batch, sessions=4)
    return {"alice": alice, "bob": bob, "rules": rules, "server": fake_llm}


def _alice_writes_a_contradicting_note(api_client, team, capture):
    alice, rules = team["alice"], team["rules"]
    session = post_session(api_client, alice)["id"]  # personal
    stored = post_exchanges(api_client, alice, session, [
        {"user": ALICE_NOTE[0], "assistant": ALICE_NOTE[1], "occurred_at": at(days=10)}])
    assert stored[0]["candidate"] is True  # salient: a rule
    # The consolidator (here a scripted LLM reply, as a prompt-injected agent could obtain) says the note
    # replaces both module rules.
    team["server"].script({"items": [{
        "type": "constraint", "subject": "deploys", "confidence": 0.95, "evidence": [stored[0]["id"]],
        "statement": "Production deploys happen on Fridays without a second reviewer.",
        "contradicts": [str(r.pk) for r in rules]}]})
    with capture(execute=True):
        response = api_client.post("/api/v1/consolidations/run", **alice.headers)
    assert response.status_code == 202
    batch = ConsolidationBatch.objects.get(agent=alice.agent)
    assert batch.status == "succeeded", batch.error
    return batch


def test_a_personal_note_never_supersedes_module_rules(api_client, team, django_capture_on_commit_callbacks):
    batch = _alice_writes_a_contradicting_note(api_client, team, django_capture_on_commit_callbacks)
    new = Experience.objects.get(batch=batch)
    assert new.scope == "personal" and new.owner_agent_id == team["alice"].agent.pk and new.status == "active"
    for rule in team["rules"]:
        rule.refresh_from_db()
        assert rule.status == "active" and rule.superseded_by_id is None, rule.statement
    # Bob still finds both rules, and nothing of Alice's note
    found = api_client.post("/api/v1/search", {"query": "when do we deploy to production, who reviews"},
                            format="json", **team["bob"].headers).json()
    ids = {x["id"] for x in found["experiences"]}
    assert {str(r.pk) for r in team["rules"]} <= ids and str(new.pk) not in ids
    assert "fridays" not in found["context"].lower()
    # each contradiction is a conflict for a person to decide, showing both sides and their evidence
    conflicts = ReviewItem.objects.filter(kind="conflict", status="pending")
    assert {c.other_experience_id for c in conflicts} == {r.pk for r in team["rules"]}
    for c in conflicts:
        assert c.experience_id == new.pk and c.batch_id == batch.pk
        assert c.evidence and "Fridays" in c.evidence[0]["user"]
        assert c.other_evidence and c.proposed_statement == new.statement
    assert set(batch.summary["review_items"]) == {str(c.pk) for c in conflicts}
    assert batch.summary["experiences_superseded"] == []
