"""Consolidation that consolidates: paraphrases from several sessions and agents become one corroborated item (merge
by meaning within the scope rule), support and confidence add up, proposals follow independent support, updates of
a consolidated topic land at once, and the session pass runs with an LLM too."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.visibility import ScopeKey
from bench.paraphrase import load_scenario
from governance.models import ConsolidationBatch, LLMCall
from memory.consolidators.extractive import ExtractiveConsolidator
from memory.consolidators.types import ExperienceDraft, Unit
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, ExperienceEvidence, ReviewItem
from memory.services import consolidation
from memory.services.consolidation import _empty_summary, _propose_promotion, consolidation_run
from memory.services.ingest import session_create
from memory.services.scheduling import RUN_MANUAL
from memory.tests.factories import T0, at, make_memories, post_exchanges, post_session, stored_at
from memory.thresholds import thresholds_for
from testing.scenarios import MARATHON

pytestmark = pytest.mark.django_db

FILLER = [("What is the capital of Canada?", "Ottawa."), ("How many seconds are in a day?", "86,400 seconds."),
          ("Suggest a name for a cat.", "Miso, Pixel or Biscuit."), ("What is 17 times 23?", "391.")]


def _fact(fact_id: str) -> dict:
    return next(f for f in load_scenario("platform_team")["facts"] if f["id"] == fact_id)


@pytest.fixture
def online(settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")


def _say(client, holder, pairs, day, capture, module="platform"):
    session = post_session(client, holder, module=module, started_at=at(days=day))["id"] if module else \
        post_session(client, holder, started_at=at(days=day))["id"]
    with capture(execute=True):
        out = post_exchanges(client, holder, session, [{"user": u, "assistant": a, "occurred_at": at(days=day,
                                                                                                     hours=i)}
                                                       for i, (u, a) in enumerate(pairs)])
    stored_at([o["id"] for o in out], days=day)  # sessions days apart, as they were stored
    return out


def test_a_fact_said_four_times_becomes_one_corroborated_item(api_client, make_agent, online,
                                                              django_capture_on_commit_callbacks):
    """Four paraphrases over four sessions of two agents ripen (θ_count = 5 made that impossible) and end in one
    item whose support counts the sessions and agents, with a confidence derived from them, proposed for the
    project through review (a module item held by two agents in three sessions)."""
    a = make_agent(name="atlas", modules=["platform"], roles=["writer", "reader", "operator"])
    b = make_agent(name="birch", modules=["platform"], roles=["writer", "reader", "operator"])
    paraphrases = _fact("friday-deploys")["paraphrases"]
    ids, filler = set(), set()
    for day, (holder, pair) in enumerate(zip([a, b, a, b], paraphrases, strict=True)):
        said = _say(api_client, holder, [pair, FILLER[day]], day * 2, django_capture_on_commit_callbacks)
        ids.add(said[0]["id"])
        filler.add(said[1]["id"])
    assert Candidate.objects.filter(reason="recurrence").exists()
    with django_capture_on_commit_callbacks(execute=True):  # the agent's next pass takes what waits
        assert api_client.post("/api/v1/consolidations/run", **b.headers).status_code == 202
    items = [x for x in Experience.objects.filter(status="active")
             if ids & {str(pk) for pk in x.evidence.values_list("pk", flat=True)}]
    assert len(items) == 1, [(x.type, x.statement) for x in items]
    [item] = items
    assert item.type == "constraint"
    assert item.support_sessions >= 3 and item.support_agents == 2
    # derived from the support, from the extraction's own confidence (one of the extractive rules' levels)
    assert item.confidence in {consolidation.support_confidence(base=b, sessions=item.support_sessions, agents=2)
                               for b in (0.5, 0.6, 0.65, 0.7, 0.75, 0.8)}
    proposal = ReviewItem.objects.get(experience=item, kind="promotion")
    assert proposal.proposed_scope == "project"
    # filler never makes an item of its own
    for x in Experience.objects.filter(status="active"):
        assert not {str(pk) for pk in x.evidence.values_list("pk", flat=True)} <= filler, x.statement


def test_a_change_of_a_consolidated_topic_supersedes_at_once(api_client, make_agent, online,
                                                             django_capture_on_commit_callbacks):
    """One changed preference on a consolidated topic lands in the agent's next pass, without waiting for
    θ_count − 1 further exchanges on the topic."""
    holder = make_agent(roles=["writer", "reader", "operator"])
    _say(api_client, holder, MARATHON, 0, django_capture_on_commit_callbacks, module=None)
    old = Experience.objects.get(status="active", type="preference", statement__icontains="morning")
    change = [("I now prefer to do my marathon training runs in the evening after work instead of the morning.",
               "Evening runs are fine for your marathon plan.")]
    [stored] = _say(api_client, holder, change, 20, django_capture_on_commit_callbacks, module=None)
    assert Candidate.objects.get(trigger_id=stored["id"]).reason == "update"
    with django_capture_on_commit_callbacks(execute=True):  # the next pass (here asked for; or the next ripe topic)
        assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202
    old.refresh_from_db()
    assert old.status == "superseded" and "evening" in old.superseded_by.statement.lower()


def _unit(user: str, assistant: str, n: int = 0) -> Unit:
    return Unit(id=f"u{n}", session_id="s1", turn_index=n, occurred_at=T0, user=user, assistant=assistant)


def test_extractive_statements_are_canonical_and_typed():
    consolidator = ExtractiveConsolidator(embedder=None)
    drafts = consolidator.refine(episodes=[], related=[], units=[
        _unit("Again: we never deploy to production on Fridays.", "Understood."),
        _unit("The release broke because the migration locked the orders table.",
              "Lesson: always run database migrations against a copy of production before the release.", 1),
        _unit("Reminder: every pull request needs two approvals before it can be merged.", "Noted.", 2),
    ])
    by_text = {d.statement: d.type for d in drafts}
    assert by_text.get("We never deploy to production on Fridays.") == "constraint", by_text
    lessons = [s for s, t in by_text.items() if t == "lesson"]
    assert lessons and lessons[0].startswith("Always run database migrations against a copy of production"), by_text
    assert by_text.get("Every pull request needs two approvals before it can be merged.") == "constraint", by_text
    assert not any(s.lower().startswith(("again", "reminder", "lesson")) for s in by_text)


def _item(agent, statement: str, *, confidence=0.6, type_="constraint", scope="module", module=None, sessions=1,
          agents=1) -> Experience:
    embedder = get_embedder()
    return Experience.objects.create(
        project_id=agent.project_id, owner_agent=agent, module=module, scope=scope, type=type_, subject="deploys",
        statement=statement, embedding=embedder.embed_one(f"deploys: {statement}"), embedding_model=embedder.model_id,
        confidence=confidence, support_sessions=sessions, support_agents=agents)


def test_the_best_of_the_k_nearest_by_confidence_is_corroborated(make_agent):
    holder = make_agent(modules=["platform"])
    module = holder.agent.modules.get()
    nearer = _item(holder.agent, "We never deploy to production on Fridays.", confidence=0.6, module=module)
    surer = _item(holder.agent, "Production deploys never happen on a Friday.", confidence=0.9, module=module)
    embedder = get_embedder()
    draft = ExperienceDraft(type="constraint", subject="deploys", statement="We never deploy to production on Fridays!",
                            evidence=[], confidence=0.8)
    scope = type(nearer).objects.filter(pk=nearer.pk).get()

    found = consolidation._corroborated_item(scope=ScopeKey.of(scope), draft=draft,
                                             thresholds=thresholds_for(embedder.model_id),
                                             vector=embedder.embed_one(f"deploys: {draft.statement}"))
    assert found is not None and found.pk == surer.pk  # not the single nearest (``nearer``)


def _corroborated(item, statement: str, type_: str):
    from agents.visibility import ScopeKey

    embedder = get_embedder()
    draft = ExperienceDraft(type=type_, subject="deploys", statement=statement, evidence=[], confidence=0.8)
    found = consolidation._corroborated_item(scope=ScopeKey.of(item), draft=draft,
                                             thresholds=thresholds_for(embedder.model_id),
                                             vector=embedder.embed_one(f"deploys: {statement}"))
    return found, draft


def test_the_same_rule_typed_otherwise_is_corroboration_not_a_new_item(make_agent):
    """The extraction's type is a guess: "we prefer squash merges" (a preference) and "always squash and merge" (a
    pattern) are one rule. Across those kinds only a close paraphrase counts (θ_corroborate + a margin)."""
    holder = make_agent(modules=["platform"])
    module = holder.agent.modules.get()
    rule = _item(holder.agent, "We never deploy to production on Fridays.", type_="pattern", module=module)
    found, _ = _corroborated(rule, "We never deploy to production on Fridays!", "constraint")
    assert found is not None and found.pk == rule.pk
    unrelated, _ = _corroborated(rule, "Every pull request needs two approvals before it can be merged.", "constraint")
    assert unrelated is None
    # a fact, a lesson, a procedure keep their kind: the same words as a fact are a fact of their own
    as_fact, _ = _corroborated(rule, "We never deploy to production on Fridays!", "fact")
    assert as_fact is None


def test_a_change_is_a_contradiction_and_a_procedure_is_not():
    from memory.services.consolidation import _changes

    assert _changes("We stopped squashing: the team now prefers rebase merges.", "Always squash and merge.")
    assert _changes("We switched from Jenkins to Buildkite.", "CI runs on Jenkins.")
    assert _changes("On-call now starts on Wednesdays.", "On-call starts on Mondays.")
    # a procedure that names a move is no change of what the item says
    assert not _changes("A flaky test is moved to quarantine the same day it is spotted.",
                        "Quarantine a flaky test within a day.")
    assert not _changes("Put risky changes behind a feature flag so they can be switched off without a deploy.",
                        "Release risky changes behind a feature flag.")


def test_an_exchange_that_says_what_an_item_changed_is_not_its_evidence(make_agent):
    from memory.services.consolidation import _states_otherwise

    old = Exchange(user_text="Our on-call shifts start on Mondays.", assistant_text="Noted, Monday hand-over.")
    same = Exchange(user_text="On-call hands over on Wednesdays now.", assistant_text="Got it: Wednesdays.")
    statement = "The on-call rotation now switches on Wednesdays instead of Mondays."
    assert _states_otherwise("The on-call rotation switches on Wednesdays.", old)
    assert not _states_otherwise(statement, same)


def test_a_gerund_is_the_same_term_as_its_noun_for_the_extractive_contradiction_rule():
    """"The team likes JSON logging" restates "we prefer structured JSON logs"; it changes nothing."""
    from memory.consolidators.types import ExistingExperience

    consolidator = ExtractiveConsolidator(embedder=None)
    existing = ExistingExperience(id="x1", type="preference", subject="log",
                                  statement="We prefer structured JSON logs in every service.", confidence=0.9,
                                  valid_from=None, created_at=None, similarity=0.72)
    drafts = consolidator.refine(episodes=[], related=[existing], units=[
        _unit("Plain text logs are hard to search for us; the team likes JSON logging.", "Noted, JSON logging it is."),
    ])
    assert drafts and not any("x1" in d.contradicts for d in drafts), [(d.statement, d.contradicts) for d in drafts]
    from memory.consolidators.extractive.topics import _stem

    assert _stem("logging") == _stem("logs") == _stem("log")
    assert _stem("merging") == _stem("merge")
    assert _stem("deploys") != _stem("dogs")


def test_confidence_follows_sessions_and_agents_not_restatements():
    assert consolidation.support_confidence(base=0.6, sessions=1, agents=1) == 0.6
    assert consolidation.support_confidence(base=0.6, sessions=2, agents=1) == pytest.approx(1 - 0.4 * 0.6, abs=1e-4)
    confidence = consolidation.support_confidence
    assert confidence(base=0.6, sessions=4, agents=3) > confidence(base=0.6, sessions=4, agents=1)
    assert consolidation.support_confidence(base=0.9, sessions=40, agents=10) == 0.99


def test_restating_in_one_session_adds_no_confidence(api_client, make_agent):
    holder = make_agent(modules=["platform"])
    item = _item(holder.agent, "We never deploy to production on Fridays.",
                 module=holder.agent.modules.get())
    session = post_session(api_client, holder, module="platform")["id"]
    stored = post_exchanges(api_client, holder, session, [
        {"user": "No deploys on Fridays.", "assistant": "Ok."}, {"user": "Friday: no deploy.", "assistant": "Ok."}])
    ExperienceEvidence.objects.create(experience=item, exchange_id=stored[0]["id"])
    consolidation.experience_support_update(experience=item, base=0.6)
    once = item.confidence
    ExperienceEvidence.objects.create(experience=item, exchange_id=stored[1]["id"])
    consolidation.experience_support_update(experience=item)
    assert item.confidence == once == 0.6 and item.support_sessions == 1


def _personal_note(api_client, holder, statement, days, type_="constraint"):
    item = _item(holder.agent, statement, scope="personal", type_=type_)
    for day in days:
        session = post_session(api_client, holder, started_at=at(days=day))["id"]
        [stored] = post_exchanges(api_client, holder, session, [{"user": statement, "assistant": "Noted.",
                                                                  "occurred_at": at(days=day)}])
        stored_at([stored["id"]], days=day)
        ExperienceEvidence.objects.create(experience=item, exchange_id=stored["id"])
    consolidation.experience_support_update(experience=item)
    return item


def test_personal_notes_of_two_module_members_are_proposed_for_the_module(api_client, make_agent):
    """Agreement across agents counts across comparable scopes: two members' personal notes of one rule, in three
    sessions, are independent support for a module item; one agent's alone is not."""
    a = make_agent(name="atlas", modules=["platform"])
    b = make_agent(name="birch", modules=["platform"])
    mine = _personal_note(api_client, a, "We never deploy to production on Fridays.", [0, 2, 4])
    _propose_promotion(agent=a.agent, batch=None, experience=mine, summary=_empty_summary(), audit=[])
    assert not ReviewItem.objects.exists()  # three sessions, but one agent
    theirs = _personal_note(api_client, b, "We never deploy to production on a Friday.", [6])
    _propose_promotion(agent=b.agent, batch=None, experience=theirs, summary=_empty_summary(), audit=[])
    proposal = ReviewItem.objects.get()
    assert proposal.proposed_scope == "module" and proposal.proposed_module.name == "platform"


def test_a_persons_own_preference_is_never_proposed(api_client, make_agent):
    a = make_agent(name="atlas", modules=["platform"])
    b = make_agent(name="birch", modules=["platform"])
    _personal_note(api_client, a, "User prefers green tea in the morning.", [0, 2, 4], type_="preference")
    theirs = _personal_note(api_client, b, "User prefers green tea in the morning.", [6, 8], type_="preference")
    _propose_promotion(agent=b.agent, batch=None, experience=theirs, summary=_empty_summary(), audit=[])
    assert not ReviewItem.objects.exists()


def test_the_session_pass_runs_with_an_llm_and_sends_only_what_it_keeps(settings, make_agent, fake_llm):
    """With an LLM configured the idle/manual run's session pass is on (auto), and a session of chatter costs no
    call: only the units announcing a lesson, procedure, preference or rule are sent."""
    from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", idle__session_pass="auto")
    assert settings.RECMEM.session_pass_on
    agent = make_agent().agent
    chatter = session_create(agent=agent, started_at=T0)
    exchanges_ingest(agent=agent, session=chatter, items=[ExchangeIn(user=u, assistant=a) for u, a in FILLER])
    session_close(agent=agent, session=chatter)
    consolidation_run(agent_id=agent.pk, run=RUN_MANUAL)
    assert not LLMCall.objects.exists()
    lesson = session_create(agent=agent, started_at=T0 + timedelta(days=1))
    exchanges_ingest(agent=agent, session=lesson, items=[
        ExchangeIn(user="Lesson learned: warm the cache before switching traffic next time.",
                   assistant="Good idea, a cold cache made the deploy fail."),
        *[ExchangeIn(user=u, assistant=a) for u, a in FILLER]])
    session_close(agent=agent, session=lesson)
    consolidation_run(agent_id=agent.pk, run=RUN_MANUAL)
    assert LLMCall.objects.get(purpose="session_distill").ok
    prompts = [" ".join(str(m.get("content")) for m in body["messages"])
               for body in fake_llm.bodies("/v1/chat/completions")]
    assert any("warm the cache" in p for p in prompts) and not any("Ottawa" in p for p in prompts)  # no chatter
    assert Experience.objects.filter(type="lesson", status="active").exists()


def test_paraphrase_calibration_reads_a_scenario():
    """calibrate_thresholds --paraphrase: per threshold, same-fact against different-fact pair rates, and the lowest
    value within the false-merge budget."""
    from memory.calibration import paraphrase_calibration

    embedder = get_embedder()
    scenario = load_scenario("platform_team")
    report = paraphrase_calibration(scenario=scenario, embed=embedder.embed, unit_form=lambda u, a: f"{u}\n{a}")
    assert set(report["thresholds"]) == {"theta_sim_sessions", "corroborate", "corroborate_unit"}
    for name, curve in report["curves"].items():
        rates = [row["different"] for row in curve]
        assert rates == sorted(rates, reverse=True) and curve[0]["same"] >= curve[-1]["same"]
        chosen = next(row for row in curve if row["theta"] == report["thresholds"][name])
        assert chosen["different"] <= report["max_false"] and chosen["same"] > 0.5, (name, chosen)


def test_an_items_evidence_sweep_does_not_grow_with_its_history(make_agent):
    """Observed (fault bench, 4 clients writing without pause): a batch's write phase grew from 0.7 s to 154 s, and
    a cluster kill took minutes to recover from. The sweep hopped from every witness the item ever had — hundreds of
    nearest-neighbour queries per item merged, in the write transaction. It now hops from this batch's witnesses."""
    from agents.visibility import ScopeKey
    from memory.models import Exchange
    agent = make_agent().agent
    session = session_create(agent=agent, started_at=T0)
    statement = "Deploys to production are never done on Fridays."
    embedder = get_embedder()
    vector = np.asarray(embedder.embed_one(statement), dtype=np.float32)
    rng = np.random.default_rng(7)
    turns = iter(range(1000))

    def witnesses(n: int) -> list[Exchange]:
        rows = []
        for _ in range(n):
            v = vector + rng.normal(0, 0.01, vector.shape).astype(np.float32)
            i = next(turns)
            rows.append(Exchange(session=session, turn_index=i, user_text=statement, assistant_text="Noted.",
                                 text_form=statement, embedding=(v / np.linalg.norm(v)).tolist(),
                                 embedding_model=embedder.model_id, project=agent.project, owner_agent=agent,
                                 scope=session.scope))
        return Exchange.objects.bulk_create(rows)

    first = witnesses(1)[0]
    _, item = make_memories(first)
    thresholds = thresholds_for(embedder.model_id)

    def history(n: int) -> None:  # evidence attached by earlier batches
        ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=item, exchange=e)
                                                for e in witnesses(n)])

    def sweep() -> int:
        batch = ConsolidationBatch.objects.create(project=agent.project, agent=agent, mode="manual",
                                                  status="running")
        with CaptureQueriesContext(connection) as queries:
            consolidation._evidence_sweep(experience=item, vector=item.embedding, scope=ScopeKey.of(first),
                                          thresholds=thresholds, batch=batch)
        return len(queries)

    history(30)
    short = sweep()
    history(120)
    long = sweep()
    assert item.evidence.count() == 151  # the sweep kept every witness (and found no one new: there is none)
    assert long <= short + 2, (short, long)  # before: one query more per earlier witness (+120)
