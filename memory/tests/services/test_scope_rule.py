"""The scope rule (a memory must never reach agents its sources could not): what consolidation writes is never wider
than its narrowest source; dedup and contradiction stay within one scope (a contradiction with a wider-scope item is a
conflict for a person); scopes widen only through the review queue."""

from __future__ import annotations

import pytest

from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, ExperienceEvidence, ReviewItem
from memory.review.services import review_item_create
from memory.tests.factories import at, post_exchanges, post_session, stored_at

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
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
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
    # Close to the consolidated deploy topic and its rules: an update of it, for the next pass.
    assert Candidate.objects.get(trigger_id=stored[0]["id"]).reason == "update"
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


# --- the recurrence neighbours: only what may be merged ---------------------------------------------------------

def _say(agent, session, pairs, day0=0):
    from datetime import timedelta

    from memory.services.ingest import ExchangeIn, exchanges_ingest
    from memory.tests.factories import T0

    return exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user=u, assistant=a, occurred_at=T0 + timedelta(days=day0 + i)) for i, (u, a) in enumerate(pairs)])


def test_a_module_unit_never_ripens_with_another_modules_units(make_agent, settings):
    from memory.services.ingest import session_create
    from testing.scenarios import MARATHON_WAVE_1

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    agent = make_agent(modules=["m1", "m2"]).agent
    _say(agent, session_create(agent=agent, module="m1"), MARATHON_WAVE_1[:4])
    second = _say(agent, session_create(agent=agent, module="m2"), MARATHON_WAVE_1[4:], day0=5)
    assert second.candidates == []  # its four neighbours are module m1's: not mergeable with module m2
    assert Exchange.objects.filter(state="candidate").count() == 0


def test_a_personal_unit_ripens_with_one_module_only(make_agent, settings):
    from memory.services.ingest import session_create
    from testing.scenarios import MARATHON_WAVE_1, MARATHON_WAVE_2

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", consolidation__theta_count=3,
                                              consolidation__theta_sim=0.5)
    agent = make_agent(modules=["m1", "m2"]).agent
    _say(agent, session_create(agent=agent, module="m1"), MARATHON_WAVE_1[:2])
    _say(agent, session_create(agent=agent, module="m2"), MARATHON_WAVE_2[:2], day0=5)
    last = _say(agent, session_create(agent=agent), MARATHON_WAVE_1[2:3], day0=10)
    [candidate] = last.candidates
    members = list(candidate.exchanges.all())
    assert len(members) >= 3
    assert len({m.module_id for m in members if m.scope == "module"}) == 1, [(m.scope, m.module_id)
                                                                               for m in members]


def test_members_of_an_older_mixed_candidate_are_dropped_and_become_raw(make_agent, settings):
    """A candidate formed before the rule (or before the agent left a module) mixing modules m1 and m2: the topic
    keeps what may be merged with its trigger; the rest is raw again, free to ripen in its own scope."""
    from memory.models import Candidate
    from memory.services.consolidation import consolidation_run
    from memory.services.ingest import session_create
    from testing.scenarios import MARATHON_WAVE_1

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off", llm__base_url="")
    agent = make_agent(modules=["m1", "m2"]).agent
    m1 = _say(agent, session_create(agent=agent, module="m1"), MARATHON_WAVE_1[:3]).exchanges
    m2 = _say(agent, session_create(agent=agent, module="m2"), MARATHON_WAVE_1[3:], day0=5).exchanges
    candidate = Candidate.objects.create(project_id=agent.project_id, agent=agent, trigger=m2[-1],
                                         reason=Candidate.Reason.RECURRENCE)
    candidate.exchanges.set([*m1, *m2])
    Exchange.objects.update(state="candidate")
    batch = consolidation_run(agent_id=agent.pk)
    assert batch.status == "succeeded", batch.error
    assert set(batch.summary["exchanges"]) == {str(e.pk) for e in m2}
    assert set(Exchange.objects.filter(pk__in=[e.pk for e in m1]).values_list("state", flat=True)) == {"raw"}
    from memory.models import Episode

    assert {(e.scope, e.module.name) for e in Episode.objects.all()} == {("module", "m2")}


# --- what the consolidator is shown ------------------------------------------------------------------------------

def test_a_module_topic_is_never_shown_its_writers_personal_items(api_client, make_agent, settings, fake_llm,
                                                                   django_capture_on_commit_callbacks):
    from memory.tests.factories import make_memories
    from testing.scenarios import MARATHON_WAVE_1

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    x = make_agent(modules=["m"])
    personal = post_session(api_client, x)["id"]
    module = post_session(api_client, x, module="m")["id"]
    secret = post_exchanges(api_client, x, personal, [{
        "user": "My marathon training plan is secretly paid by my employer, codeword plumquist.", "assistant": "Noted.",
        "occurred_at": at(days=-30)}])[0]
    shared = post_exchanges(api_client, x, module, [{
        "user": "The team marathon training plan has three runs a week.", "assistant": "Noted.",
        "occurred_at": at(days=-29)}])[0]
    Exchange.objects.update(state="consolidated")  # as if consolidated long ago
    make_memories(Exchange.objects.get(pk=secret["id"]))  # a personal episode and experience quoting it
    make_memories(Exchange.objects.get(pk=shared["id"]))
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, x, module, [{"user": u, "assistant": a, "occurred_at": at(days=i)}
                                               for i, (u, a) in enumerate(MARATHON_WAVE_1)])
    batch = ConsolidationBatch.objects.get(agent=x.agent)
    assert batch.status == "succeeded", batch.error
    prompts = str(fake_llm.bodies("/v1/chat/completions"))
    assert "three runs a week" in prompts  # the module's own items are shown (merge, related experiences)
    assert "plumquist" in str(Experience.objects.filter(scope="personal").values_list("statement"))
    assert "plumquist" not in prompts
    from memory.models import Episode

    assert not Episode.objects.filter(scope="module", narrative__icontains="plumquist").exists()
    assert not Experience.objects.filter(scope="module", statement__icontains="plumquist").exists()


# --- conflicts: a person decides ---------------------------------------------------------------------------------

@pytest.fixture
def conflict(api_client, team, django_capture_on_commit_callbacks):
    batch = _alice_writes_a_contradicting_note(api_client, team, django_capture_on_commit_callbacks)
    item = ReviewItem.objects.get(kind="conflict", other_experience=team["rules"][0])
    return {**team, "item": item, "new": Experience.objects.get(batch=batch), "old": team["rules"][0]}


@pytest.fixture
def reviewer(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("reviewer", password="x")


def _found(api_client, holder):
    body = api_client.post("/api/v1/search", {"query": "when do we deploy to production"}, format="json",
                           **holder.headers).json()
    return {x["id"]: x["statement"] for x in body["experiences"]}


def test_keep_the_new_one_replaces_the_old_item_in_its_scope(api_client, conflict, reviewer):
    from governance.models import AuditEvent
    from memory.review.services import review_approve

    review_approve(item=conflict["item"], user=reviewer, edited_statement="Production deploys happen on Fridays.",
                   reason="the team moved deploys")
    item = ReviewItem.objects.get(pk=conflict["item"].pk)
    replacement = item.approved_experience
    assert item.status == "approved" and item.decided_by == reviewer
    assert (replacement.scope, replacement.module_id) == ("module", conflict["old"].module_id)
    assert replacement.statement == "Production deploys happen on Fridays." and replacement.verified
    for side in (conflict["new"], conflict["old"]):
        side.refresh_from_db()
        assert side.status == "superseded" and side.superseded_by_id == replacement.pk
    assert str(replacement.pk) in _found(api_client, conflict["bob"])  # Bob now gets the new module statement
    event = AuditEvent.objects.get(action="review", object_id=str(item.pk))
    assert event.data["decision"] == "keep_new" and event.actor_user == reviewer
    # Bob's view of the replacement shows no source id of Alice's personal exchanges
    detail = api_client.get(f"/api/v1/experiences/{replacement.pk}", **conflict["bob"].headers).json()
    assert detail["provenance"]["exchange_ids"] == [] and detail["provenance"]["session_ids"] == []
    mine = api_client.get(f"/api/v1/experiences/{replacement.pk}", **conflict["alice"].headers).json()
    assert mine["provenance"]["exchange_ids"]


def test_keep_the_old_one_supersedes_the_new_item(api_client, conflict, reviewer):
    from core.errors import ApplicationError
    from governance.models import AuditEvent
    from memory.models import ExperienceEvidence
    from memory.review.services import review_reject

    def alice_recalls() -> tuple[set[str], str]:
        body = api_client.post("/api/v1/search", {"query": "when do we deploy to production"}, format="json",
                               **conflict["alice"].headers).json()
        return {x["id"] for x in body["exchanges"]}, body["context"]

    said = {str(i) for i in ExperienceEvidence.objects.filter(experience=conflict["new"])
            .values_list("exchange_id", flat=True)}
    assert said & alice_recalls()[0]  # before the decision her note comes back through her own exchanges too
    with pytest.raises(ApplicationError):
        review_reject(item=conflict["item"], user=reviewer, reason="")
    review_reject(item=conflict["item"], user=reviewer, reason="Tuesday is still the rule")
    recalled, context = alice_recalls()
    assert not said & recalled  # overruled: neither the item nor the exchanges it was drawn from are recalled
    assert conflict["new"].statement not in context
    new, old = Experience.objects.get(pk=conflict["new"].pk), Experience.objects.get(pk=conflict["old"].pk)
    assert new.status == "superseded" and new.superseded_by_id == old.pk and old.status == "active"
    # the old rule won on a person's word, not by being newer: the new item held until the decision
    assert new.valid_to is not None and new.valid_to >= new.created_at and old.valid_to is None
    assert ReviewItem.objects.get(pk=conflict["item"].pk).status == "rejected"
    event = AuditEvent.objects.get(action="review", object_id=str(conflict["item"].pk))
    assert event.data["decision"] == "keep_old"
    # a person chose the old rule: it is a reviewed item now (as a kept new one is), so every agent of its scope
    # retrieves it whoever wrote it
    assert old.verified and old.trust == "reviewed" and event.data["vouched"] is True
    assert str(new.pk) not in _found(api_client, conflict["alice"])  # Alice's search now returns the rule
    assert str(old.pk) in _found(api_client, conflict["alice"])


def test_keep_both_changes_nothing_but_closes_the_conflict(conflict, reviewer):
    from core.errors import Conflict
    from governance.models import AuditEvent
    from memory.review.services import review_approve, review_dismiss

    review_dismiss(item=conflict["item"], user=reviewer)
    assert Experience.objects.get(pk=conflict["new"].pk).status == "active"
    assert Experience.objects.get(pk=conflict["old"].pk).status == "active"
    assert ReviewItem.objects.get(pk=conflict["item"].pk).status == "dismissed"
    assert AuditEvent.objects.get(action="review", object_id=str(conflict["item"].pk)).data["decision"] == "keep_both"
    with pytest.raises(Conflict):
        review_approve(item=conflict["item"], user=reviewer)


def test_a_rollback_closes_the_conflicts_of_its_batch(conflict):
    from memory.review.rollback import batch_rollback

    batch_rollback(batch=conflict["item"].batch, reason="bad note")
    # Closed by the rollback, not rejected by a person (a rejection would block a later proposal).
    assert set(ReviewItem.objects.filter(kind="conflict").values_list("status", flat=True)) == {"rolled_back"}
    assert all(r.status == "active" for r in Experience.objects.filter(pk__in=[x.pk for x in conflict["rules"]]))


# --- promotions: scopes widen only through review -------------------------------------------------------------

def _corroborated_personal_item(api_client, holder, sessions=3):
    stored = []
    for day in range(sessions):
        session = post_session(api_client, holder)["id"]
        stored += post_exchanges(api_client, holder, session, [
            {"user": "I always review pull requests before lunch.", "assistant": "Noted.",
             "occurred_at": at(days=day)}])
        stored_at([stored[-1]["id"]], days=day)  # days apart as stored (a burst counts once)
    first = Exchange.objects.get(pk=stored[0]["id"])
    item = Experience.objects.create(
        project_id=first.project_id, owner_agent_id=first.owner_agent_id, scope="personal", type="pattern",
        subject="reviews", statement="The user reviews pull requests before lunch.",
        embedding=get_embedder().embed_one("reviews: The user reviews pull requests before lunch."),
        embedding_model=get_embedder().model_id)
    ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=item, exchange_id=e["id"]) for e in stored])
    return item


def test_personal_to_module_is_proposed_never_automatic(api_client, make_agent, reviewer):
    from memory.review.services import review_approve
    from memory.services.consolidation import _empty_summary, _propose_promotion

    holder = make_agent(modules=["ops"])
    peer = make_agent(modules=["ops"])
    item = _corroborated_personal_item(api_client, holder)
    _propose_promotion(agent=holder.agent, batch=None, experience=item, summary=_empty_summary(), audit=[])
    assert not ReviewItem.objects.exists()  # one agent's habit alone is not the module's
    _corroborated_personal_item(api_client, peer, sessions=1)  # a second member holds it independently
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="running")
    summary, audit = _empty_summary(), []
    _propose_promotion(agent=holder.agent, batch=batch, experience=item, summary=summary, audit=audit)
    item.refresh_from_db()
    assert (item.scope, item.module_id, item.version) == ("personal", None, 1)  # nothing shared yet
    proposal = ReviewItem.objects.get()
    assert (proposal.kind, proposal.proposed_scope, proposal.proposed_module.name) == ("promotion", "module", "ops")
    assert summary["review_items"] == [str(proposal.pk)] and len(proposal.evidence) == 3
    assert api_client.get(f"/api/v1/experiences/{item.pk}", **peer.headers).status_code == 404
    _propose_promotion(agent=holder.agent, batch=batch, experience=item, summary=summary, audit=audit)
    assert ReviewItem.objects.count() == 1  # proposed once
    review_approve(item=proposal, user=reviewer)
    shared = ReviewItem.objects.get().approved_experience
    assert (shared.scope, shared.module.name, shared.verified) == ("module", "ops", True)
    assert api_client.get(f"/api/v1/experiences/{shared.pk}", **peer.headers).status_code == 200
    item.refresh_from_db()
    assert item.status == "superseded" and item.superseded_by_id == shared.pk


def test_a_rejected_promotion_is_not_proposed_again(api_client, make_agent, reviewer):
    from memory.review.services import review_reject
    from memory.services.consolidation import _empty_summary, _propose_promotion

    holder = make_agent(modules=["ops"])
    item = _corroborated_personal_item(api_client, holder)
    _corroborated_personal_item(api_client, make_agent(modules=["ops"]), sessions=1)
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="running")
    _propose_promotion(agent=holder.agent, batch=batch, experience=item, summary=_empty_summary(), audit=[])
    review_reject(item=ReviewItem.objects.get(), user=reviewer, reason="private habit")
    _propose_promotion(agent=holder.agent, batch=batch, experience=item, summary=_empty_summary(), audit=[])
    assert ReviewItem.objects.count() == 1
    item.refresh_from_db()
    assert item.scope == "personal" and item.status == "active"


def test_an_agent_in_two_modules_gets_no_personal_promotion(api_client, make_agent):
    from memory.services.consolidation import _empty_summary, _propose_promotion

    holder = make_agent(modules=["ops", "web"])
    item = _corroborated_personal_item(api_client, holder)
    _corroborated_personal_item(api_client, make_agent(modules=["ops"]), sessions=1)
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="running")
    _propose_promotion(agent=holder.agent, batch=batch, experience=item, summary=_empty_summary(), audit=[])
    assert ReviewItem.objects.count() == 0
