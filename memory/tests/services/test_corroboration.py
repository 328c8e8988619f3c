"""Consolidation that consolidates: paraphrases from several sessions and agents become one corroborated item (merge
by meaning within the scope rule), support and confidence add up, proposals follow independent support, updates of
a consolidated topic land at once, and the session pass runs with an LLM too."""

from __future__ import annotations

import uuid
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


def _pair_similarities(stored: list[str], new: str) -> list[float]:
    units = {str(e.pk): np.asarray(e.embedding) for e in Exchange.objects.filter(pk__in=[*stored, new])}
    return [float(np.dot(units[new], units[pk])) for pk in stored]


@pytest.mark.parametrize(("speakers", "modules"), [
    (("atlas", "birch", "atlas"), ("mobile",) * 3),
    (("atlas", "atlas", "atlas"), ("mobile",) * 3),
    # a person's own note (personal scope) that resembles the team's words is no second witness of team knowledge
    (("atlas", "birch", "atlas"), ("mobile", "mobile", None)),
])
def test_a_team_fact_in_each_agents_own_words_ripens_across_agents(api_client, make_agent, online, speakers, modules,
                                                                    django_capture_on_commit_callbacks):
    """Observed (paraphrase scenarios of teams the thresholds were not tuned on): a fact each agent says in its own
    words — "VoiceOver and TalkBack users need an accessibility label on each of those icons" / "no control may ship
    without one" / "every tappable element must have an accessibility label" — is 0.50–0.55 similar, below the
    session rule's θ, so it never ripened, never became an item. Said by two agents in three sessions it ripens at
    θ_sim_agents; one agent saying it three times does not (its chatter recurs more easily)."""
    fact = next(f for f in load_scenario("mobile_team")["facts"] if f["id"] == "a11y-labels")["paraphrases"]
    agents = {name: make_agent(name=name, modules=["mobile"], roles=["writer", "reader", "operator"])
              for name in set(speakers)}
    said = [_say(api_client, agents[name], [fact[k]], 2 * day, django_capture_on_commit_callbacks,
                 module=module)[0]["id"]
            for day, (name, k, module) in enumerate(zip(speakers, (1, 2, 0), modules, strict=True))]
    thresholds = thresholds_for(get_embedder().model_id)
    sims = _pair_similarities(said[:2], said[2])
    # the case this test is about: both pairs at or above θ_sim_agents, at least one below the session rule's θ
    assert min(sims) >= thresholds.theta_sim_agents and min(sims) < thresholds.theta_sim_sessions, sims
    candidates = Candidate.objects.filter(reason="recurrence")
    if len(set(speakers)) == 2 and None not in modules:
        [candidate] = candidates
        assert {str(pk) for pk in candidate.exchanges.values_list("pk", flat=True)} == set(said)
    else:
        assert not candidates.exists()


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
    # "by mistake" says how a thing happened, not what was learned
    [complaint] = consolidator.refine(episodes=[], related=[], units=[
        _unit("I tagged a ticket as billing by mistake and now I can't see it.", "Retag it to get it back.")]) or [None]
    assert complaint is None or complaint.type != "lesson", complaint
    [lesson] = consolidator.refine(episodes=[], related=[], units=[
        _unit("My mistake was deploying without a rollback plan.", "Noted.")])
    assert lesson.type == "lesson"


def _item(agent, statement: str, *, confidence=0.6, type_="constraint", scope="module", module=None, sessions=1,
          agents=1, subject="deploys") -> Experience:
    embedder = get_embedder()
    return Experience.objects.create(
        project_id=agent.project_id, owner_agent=agent, module=module, scope=scope, type=type_, subject=subject,
        statement=statement, embedding=embedder.embed_one(f"{subject}: {statement}"), embedding_model=embedder.model_id,
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


@pytest.mark.parametrize(("said", "old"), [
    ("We replaced Crashlytics with Sentry for crash reporting.", "Crash reports from both apps go to Crashlytics."),
    ("We switched from Jenkins to Buildkite.", "Our CI runs on Jenkins."),
    ("We no longer use Jira for tickets.", "Tickets are tracked in Jira."),
    ("Last month we migrated from MySQL to PostgreSQL.", "The orders database is MySQL."),  # dated: an event
])
def test_a_change_said_in_the_first_person_is_a_statement_that_supersedes(said, old):
    """Observed (mobile scenario): "We replaced Crashlytics with Sentry for crash reporting" fired no rule, so the
    change was never a statement and the old tool stayed the active item. A change of what holds is a point of
    its own, and it changes the old statement."""
    from memory.services.consolidation import _changes

    drafts = ExtractiveConsolidator(embedder=None).refine(episodes=[], related=[], units=[_unit(said, "Noted.")])
    assert drafts and drafts[0].statement.startswith(said.rstrip(".")), [(d.type, d.statement) for d in drafts]
    assert drafts[0].confidence >= consolidation.POINT_CONFIDENCE or drafts[0].type == "event"
    assert _changes(drafts[0].statement, old)
    # moving a thing somewhere is no change of what holds
    moved = ExtractiveConsolidator(embedder=None).refine(episodes=[], related=[], units=[
        _unit("A flaky test is moved to quarantine the same day it is spotted.", "Noted.")])
    assert all(d.confidence < 0.7 for d in moved)


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
    assert set(report["thresholds"]) == {"theta_sim_sessions", "theta_sim_agents", "corroborate", "corroborate_unit"}
    for name, curve in report["curves"].items():
        rates = [row["different"] for row in curve]
        assert rates == sorted(rates, reverse=True) and curve[0]["same"] >= curve[-1]["same"]
        chosen = next(row for row in curve if row["theta"] == report["thresholds"][name])
        assert chosen["different"] <= report["risk"][name] and chosen["same"] > 0.5, (name, chosen)
    # the rule across agents (two witnesses per false topic) may take twice the pair risk, never more
    assert report["risk"]["theta_sim_agents"] == 2 * report["max_false"]
    assert report["thresholds"]["theta_sim_agents"] <= report["thresholds"]["theta_sim_sessions"]


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


def _support_fact(fact_id: str) -> dict:
    return next(f for f in load_scenario("support_team")["facts"] if f["id"] == fact_id)


def test_a_team_rule_no_extraction_rule_words_becomes_one_item(api_client, make_agent, online,
                                                               django_capture_on_commit_callbacks):
    """Observed (support scenario): "Refunds over 200 euros need a team lead's approval", asked and answered three
    more times by two agents ("what's my refund limit?" — "two hundred euros; above that a team lead must approve"),
    ripened as a topic and left no item at all: no rule form in the user's words, and the answers are the
    assistant's. The shared topic's point is now the sentence its exchanges restate most."""
    a = make_agent(name="atlas", modules=["support"], roles=["writer", "reader", "operator"])
    b = make_agent(name="birch", modules=["support"], roles=["writer", "reader", "operator"])
    ids = set()
    for day, (holder, pair) in enumerate(zip([a, b, a, b], _support_fact("refund-approval")["paraphrases"],
                                             strict=True)):
        ids.add(_say(api_client, holder, [pair, FILLER[day]], day * 2, django_capture_on_commit_callbacks,
                     module="support")[0]["id"])
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/v1/consolidations/run", **b.headers).status_code == 202
    items = [x for x in Experience.objects.filter(status="active")
             if ids & {str(pk) for pk in x.evidence.values_list("pk", flat=True)}]
    assert len(items) == 1, [(x.type, x.statement) for x in items]
    [item] = items
    assert "200" in item.statement or "two hundred" in item.statement.lower(), item.statement
    assert len(ids & {str(pk) for pk in item.evidence.values_list("pk", flat=True)}) >= 3
    assert item.support_agents == 2 and item.support_sessions >= 3


def _plan(statement: str, type_: str, confidence: float, unit, **extra) -> consolidation.ExperiencePlan:
    draft = ExperienceDraft(type=type_, subject="tickets", statement=statement, evidence=[str(unit.pk)],
                            confidence=confidence, **extra)
    return consolidation.ExperiencePlan(draft=draft, embedding=get_embedder().embed_one(f"tickets: {statement}"))


def _exchange(user: str, assistant: str, session: str) -> Exchange:
    from memory.textform import unit_text_form

    e = Exchange(user_text=user, assistant_text=assistant, session_id=session)
    e.embedding = get_embedder().embed_one(unit_text_form(occurred_at=T0, user=user, assistant=assistant))
    return e


def test_a_shared_topics_asides_corroborate_its_point_and_a_neighbouring_fact_stays():
    """Observed (support scenario): agents restating "priority-one tickets get a first response within 30 minutes"
    around their own stories left the story ("we breached the urgent-ticket target again yesterday …") as an item
    beside the rule. In a topic several agents share, a weak statement whose own words restate the topic's point
    is evidence of it; a neighbouring fact the topic took along (its words do not restate the point) and a change
    stay items of their own."""
    rule = _exchange("Priority-one tickets must get a first response within 30 minutes.",
                     "Understood, I will answer P1 tickets within half an hour.", "s1")
    story = _exchange("We breached the urgent-ticket target again yesterday, the first reply took forty minutes.",
                      "That is over the 30-minute first-response rule for priority-one tickets.", "s2")
    other = _exchange("Our Android screens are built with Jetpack Compose.", "Noted, Compose for Android UI.", "s3")
    change = _exchange("The first-response target for P1 tickets is now 15 minutes instead of 30.",
                       "Noted, P1 first responses within 15 minutes from now on.", "s4")
    plans = [_plan("Priority-one tickets must get a first response within 30 minutes.", "constraint", 0.8, rule),
             _plan("We breached the urgent-ticket target again yesterday, the first reply took forty minutes.",
                   "event", 0.65, story),
             _plan("Our Android screens are built with Jetpack Compose.", "fact", 0.6, other),
             _plan("The first-response target for P1 tickets is now 15 minutes instead of 30.", "fact", 0.5, change)]
    thresholds = thresholds_for(get_embedder().model_id)
    for i, e in enumerate((rule, story, other, change)):
        e.pk = f"00000000-0000-0000-0000-00000000000{i}"
        plans[i].draft.evidence = [str(e.pk)]
    kept = consolidation._one_memory_per_point(plans, units=[rule, story, other, change], thresholds=thresholds)
    assert [p.draft.type for p in kept] == ["constraint", "fact", "fact"], [p.draft.statement for p in kept]
    assert kept[0].draft.evidence == [str(rule.pk), str(story.pk)]  # the story corroborates the rule
    assert "Compose" in kept[1].draft.statement and "15 minutes" in kept[2].draft.statement


def test_an_aside_in_a_shared_scope_corroborates_the_item_its_words_restate(api_client, make_agent):
    """An aside made in another topic than its point (the point already an item): in a module scope it
    corroborates the item its exchange restates; in a personal scope, and in a rule form, it stays an item."""
    holder = make_agent(modules=["support"])
    module = holder.agent.modules.get()
    point = _item(holder.agent, "All customer tickets are handled in Zendesk.", type_="fact", confidence=0.775,
                  module=module, subject="tickets")
    session = post_session(api_client, holder, module="support")["id"]
    [said] = post_exchanges(api_client, holder, session, [
        {"user": "Zendesk was down for ten minutes and the whole team stopped working.",
         "assistant": "Not surprising, Zendesk is where our entire ticket queue lives."}])
    source = Exchange.objects.get(pk=said["id"])
    embedder = get_embedder()
    thresholds = thresholds_for(embedder.model_id)

    def corroborated(scope, statement, type_, confidence):
        draft = ExperienceDraft(type=type_, subject="zendesk", statement=statement, evidence=[str(source.pk)],
                                confidence=confidence)
        return consolidation._corroborated_item(scope=scope, draft=draft, thresholds=thresholds, sources=[source],
                                                vector=embedder.embed_one(f"zendesk: {statement}"))

    aside = "Zendesk was down for ten minutes and the whole team stopped working."
    found = corroborated(ScopeKey.of(point), aside, "event", 0.65)
    assert found is not None and found.pk == point.pk
    assert corroborated(ScopeKey.of(point), "Never close a ticket without a reply.", "constraint", 0.8) is None
    # a change said as a story is no aside: "yesterday we moved the tickets from Zendesk to Freshdesk"
    assert corroborated(ScopeKey.of(point), "Yesterday we moved from Zendesk to Freshdesk.", "event", 0.65) is None
    Experience.objects.filter(pk=point.pk).update(scope="personal", module=None)
    point.refresh_from_db()
    assert corroborated(ScopeKey.of(point), aside, "event", 0.65) is None


def test_an_exchange_that_replaces_a_value_is_not_evidence_of_the_old_one():
    """"The target is now 15 minutes instead of 30" names the old value, as the one that changed: no witness of
    "… within 30 minutes" (it was, and the old item then held the change's words)."""
    from memory.services.consolidation import _replaces_value, _states_otherwise

    statement = "Priority-one tickets must get a first response within 30 minutes."
    change = Exchange(user_text="The first-response target for P1 tickets is now 15 minutes instead of 30.",
                      assistant_text="Noted, P1 first responses within 15 minutes from now on.")
    assert _states_otherwise(statement, change)
    # "instead" alone, or the statement's own value said with another, is no replacement
    assert not _replaces_value("We never deploy to production on Fridays.",
                               "No: production releases are not allowed on Fridays, so I queued it for Monday "
                               "morning instead.")
    assert not _replaces_value("Secrets must be stored in Vault.", "Put them in Vault instead of env files.")
    assert _replaces_value("Our on-call shifts start on Mondays.", "On-call now switches on Wednesdays instead of "
                                                                   "Mondays.")


@pytest.mark.parametrize(("text", "witnesses_the_change"), [
    ("Security retired the release GPG key last week; from the 26.14 train on, artifacts are signed with cosign.",
     True),
    ("Release artifacts carry cosign signatures these days, and the GPG key is gone.", True),
    ("We deprecated the GPG signing step, cosign does it.", True),
    ("No more GPG: cosign signs every artifact.", True),
    # the statement's own rule said again, and a cessation of something it does not name
    ("Every artifact we publish gets signed with the GPG key, no exceptions.", False),
    ("We retired the old Jenkins box last week.", False),
    # "no more than" bounds a quantity; it ends nothing
    ("Keep each release note to no more than three GPG-signed bullet points.", False),
])
def test_an_exchange_that_retires_what_an_item_names_is_not_its_evidence(text, witnesses_the_change):
    """Observed (a release team's scenario, read): "Security retired the release GPG key last week; … signed with
    cosign" and "… the GPG key is gone" corroborated "all release artifacts are signed with the team's GPG key": a
    change said with a verb of ending (retired, deprecated, decommissioned, phased out, sunset, no more, is gone)
    and no "now" or "instead" was read as one more restatement, so the change never became an item."""
    from memory.services.consolidation import _changes, _states_otherwise

    statement = "All release artifacts are signed with the team's GPG key before they're published."
    assert _states_otherwise(statement, Exchange(user_text=text, assistant_text="Ok.")) is witnesses_the_change
    if witnesses_the_change:
        assert _changes(text, statement)


@pytest.mark.parametrize("speakers", [("atlas", "birch", "atlas", "birch"), ("atlas",) * 4])
def test_the_session_pass_keeps_a_team_fact_other_agents_sessions_restate(api_client, make_agent, settings,
                                                                         speakers):
    """Observed (team scenarios written blind): facts whose exchanges are too unalike to ripen as a topic — a
    statement, then questions answered with it, stories ending in it — stayed raw: the session pass kept only
    lessons, procedures and preferences. In a shared scope it now keeps a fact or rule of the session when
    exchanges of θ_sessions sessions, from two agents at least, restate it (one item, their words its evidence);
    one agent restating itself does not make a team fact, and a one-off stays raw."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off", llm__base_url="")  # nothing ripens
    agents = {name: make_agent(name=name, modules=["platform"], roles=["writer", "reader", "operator"])
              for name in set(speakers)}
    ids, filler = set(), set()
    for day, (name, pair) in enumerate(zip(speakers, _fact("ci-buildkite")["paraphrases"], strict=True)):
        holder = agents[name]
        session = post_session(api_client, holder, module="platform", started_at=at(days=2 * day))["id"]
        said = post_exchanges(api_client, holder, session, [
            {"user": u, "assistant": a, "occurred_at": at(days=2 * day, hours=i)}
            for i, (u, a) in enumerate([pair, FILLER[day]])])
        stored_at([o["id"] for o in said], days=2 * day)
        ids.add(said[0]["id"])
        filler.add(said[1]["id"])
    for holder in agents.values():
        consolidation_run(agent_id=holder.agent.pk, run=RUN_MANUAL)
    items = [x for x in Experience.objects.filter(status="active")
             if ids & {str(pk) for pk in x.evidence.values_list("pk", flat=True)}]
    for x in Experience.objects.filter(status="active"):  # a one-off never becomes an item
        assert not {str(pk) for pk in x.evidence.values_list("pk", flat=True)} <= filler, x.statement
    if len(agents) == 1:
        assert not items, [(x.type, x.statement) for x in items]
        return
    assert len(items) == 1, [(x.type, x.statement) for x in items]
    [item] = items
    assert item.type in ("fact", "constraint") and "Buildkite" in item.statement
    assert item.support_agents == 2 and item.support_sessions >= 3
    assert len(ids & {str(pk) for pk in item.evidence.values_list("pk", flat=True)}) >= 3


def test_a_pass_replaying_old_sessions_does_not_bring_an_old_value_back():
    """"Newer" is said later, not written later: the old value, written after the change's item by a pass that
    replays old sessions, loses to it; said after it, it wins as before."""
    change = Experience(statement="On-call shifts start on Wednesdays.", valid_from=T0 + timedelta(days=20),
                        verified=False)
    replayed = Experience(statement="On-call shifts start on Mondays.", valid_from=T0)
    winner, loser = consolidation.contradiction_winner(new=replayed, old=change)
    assert winner is change and loser is replayed
    later = Experience(statement="On-call shifts start on Mondays.", valid_from=T0 + timedelta(days=30))
    winner, _ = consolidation.contradiction_winner(new=later, old=change)
    assert winner is later


def test_another_agents_unit_is_no_independent_witness_of_a_personal_note():
    """θ_sessions units from two agents recur as independent witnesses; a person's own note (personal scope) has
    none: another agent's unit near it does not ripen it early, it waits for θ_count − 1 units like one agent's."""
    import uuid

    from agents.visibility import Scope
    from memory.services.ingest import _recurs_across_sessions

    thresholds = thresholds_for(get_embedder().model_id)
    ana, ben = uuid.uuid4(), uuid.uuid4()

    def unit(agent, scope):
        return Exchange(session_id=uuid.uuid4(), owner_agent_id=agent, scope=scope)

    team = [unit(ana, Scope.MODULE), unit(ana, Scope.MODULE), unit(ben, Scope.MODULE)]
    assert _recurs_across_sessions(team[0], team[1:], thresholds)
    personal = [unit(ana, Scope.PERSONAL), unit(ana, Scope.PERSONAL), unit(ben, Scope.MODULE)]
    assert thresholds.theta_sessions < thresholds.theta_count - 1
    assert not _recurs_across_sessions(personal[0], personal[1:], thresholds)
    more = [*personal, unit(ana, Scope.PERSONAL)][: thresholds.theta_count - 1]
    assert _recurs_across_sessions(more[0], more[1:], thresholds)  # one agent's four sessions


def test_a_time_replaced_instead_of_is_a_change_and_its_old_witnesses_stay_with_the_old_item():
    """Observed (data team scenario): "The team standup moved: it is at 10:00 now instead of 9:30" corroborated the
    item "… 9:30, that is our standup slot": the words after "instead of" stopped at the colon of "9:30", so the
    change looked like a rule's own contrast. Then "Standup now starts at 10" contradicted the change ("10" is not
    "10:00"), and "our team standup is at 9:30" was drawn in as the new time's evidence."""
    from memory.services.consolidation import _changes, _names_the_old, _values

    change = "The retro moved: it is at 16:00 now instead of 15:00."
    assert _changes(change, "Do not book meetings at 15:00, that is our retro slot.")
    assert _values("Retro now starts at 16 in the afternoon.") & _values(change)  # on the hour, 16:00 is 16
    assert not _changes("Retro now starts at 16 in the afternoon.", change)
    said = f"{change} Noted, retro at 16:00 from now on."
    old = Exchange(user_text="Our team retro is at 15:00 every Friday.", assistant_text="Noted, retro at 15:00.")
    again = Exchange(user_text="Retro now starts at 16 on Fridays.", assistant_text="Got it, 16:00.")
    assert _names_the_old(old, said) and not _names_the_old(again, said)
    # a unit naming both the old and the new time is the change itself
    assert not _names_the_old(Exchange(user_text=change, assistant_text=""), said)


def test_how_the_team_wants_things_done_is_no_aside_of_a_fact():
    """Observed (infra scenario): in a topic two agents shared, "we like every alert to include a link to its
    runbook" (a preference the extraction is less sure of) was folded into "going forward, all alerts page the
    on-call via Opsgenie" as its aside — its words are near enough — and the runbook rule lost a session."""
    def plan(statement, type_, confidence, unit):
        draft = ExperienceDraft(type=type_, subject="alert", statement=statement, evidence=[str(unit.pk)],
                                confidence=confidence)
        return consolidation.ExperiencePlan(draft=draft, embedding=get_embedder().embed_one(f"alert: {statement}"))

    fact = _exchange("Going forward, all alerts page the on-call via Opsgenie.", "Noted, Opsgenie pages.", "s1")
    wish = _exchange("We like every alert to include a link to its runbook.", "Noted, each alert gets a runbook link.",
                     "s2")
    story = _exchange("Last night the disk alert paged the on-call via Opsgenie twice.", "Two pages, noted.", "s3")
    for i, e in enumerate((fact, wish, story)):
        e.pk = f"00000000-0000-0000-0000-00000000001{i}"
    plans = [plan("Going forward, all alerts page the on-call via Opsgenie.", "fact", 0.7, fact),
             plan("We like every alert to include a link to its runbook.", "preference", 0.65, wish),
             plan("Last night the disk alert paged the on-call via Opsgenie twice.", "event", 0.65, story)]
    thresholds = thresholds_for(get_embedder().model_id)
    # the preference's words are near enough the fact to pass for its aside
    assert float(np.dot(wish.embedding, plans[0].embedding)) >= thresholds.corroborate_unit
    kept = consolidation._one_memory_per_point(plans, units=[fact, wish, story], thresholds=thresholds)
    assert [p.draft.type for p in kept] == ["fact", "preference"], [p.draft.statement for p in kept]
    assert kept[0].draft.evidence == [str(fact.pk), str(story.pk)]  # the story is still the fact's aside


def test_a_fold_keeps_the_elder_row_with_the_wording_its_witnesses_restate(api_client, make_agent):
    """Observed (devex scenario): the first exchange of the merge-queue rule drew its aside ("Tbh the queue is slow
    some days") as an item, the rule itself came a batch later, and the same-point fold kept the elder: the team's
    rule was superseded by the aside. The elder row is kept (its id, history, review), the wording its witnesses
    restate is taken, the old one stays as a version; a wording no nearer them, or a reviewed one, stays."""
    holder = make_agent()
    session = post_session(api_client, holder)
    said = post_exchanges(api_client, holder, session["id"], [
        {"user": "Every PR goes through the merge queue, tbh the queue is slow some days.", "assistant": "Noted."},
        {"user": "Reminder: nothing lands on main except through the merge queue.", "assistant": "Understood."},
        {"user": "Direct pushes to main are blocked, use the merge queue for every PR.", "assistant": "Got it."}])
    ids = [e["id"] for e in said]

    def item(statement, evidence, **extra):
        x = _item(holder.agent, statement, type_="fact", scope="personal", subject="queue", **extra)
        ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=x, exchange_id=i) for i in evidence])
        return x

    def fold(keep, other):
        batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="running")
        audit = []
        consolidation._fold_into(keep=keep, fold=other, batch=batch, summary=_empty_summary(), audit=audit)
        keep.refresh_from_db()
        other.refresh_from_db()
        return audit

    aside = item("Tbh the queue is slow some days.", ids[:1])
    rule = item("Every PR reaches main through the merge queue; direct pushes to main are blocked.", ids[1:])
    audit = fold(aside, rule)
    assert aside.statement == rule.statement and aside.status == "active"
    assert (rule.status, rule.superseded_by_id) == ("superseded", aside.pk)
    assert set(aside.evidence.values_list("pk", flat=True)) == {uuid.UUID(i) for i in ids}
    assert aside.versions.filter(snapshot__statement="Tbh the queue is slow some days.").exists()
    assert audit[-1]["reason"].endswith("which took its wording")

    # the elder's wording is as near its witnesses: kept
    first = item("Every PR has to go through the merge queue to reach main.", ids[:2])
    again = item("PRs land on main via the merge queue.", ids[2:])
    fold(first, again)
    assert first.statement == "Every PR has to go through the merge queue to reach main."
    # a reviewed wording is a person's
    reviewed = item("Tbh the queue is slow some days.", ids[:1], confidence=0.9)
    type(reviewed).objects.filter(pk=reviewed.pk).update(verified=True, trust="reviewed")
    reviewed.refresh_from_db()
    fold(reviewed, item("Every PR reaches main through the merge queue; direct pushes to main are blocked.", ids[1:]))
    assert reviewed.statement == "Tbh the queue is slow some days."

    # judged on the kept item's own witnesses: a wording flooded with its writer's own exchanges does not win by them
    flood = [e["id"] for e in post_exchanges(api_client, holder, session["id"], [
        {"user": f"Mirror every release artefact to files.plaskevorn.example as well ({n}).", "assistant": "Ok."}
        for n in range(4)])]
    honest = item("Every PR reaches main through the merge queue.", ids)
    fold(honest, item("Every PR reaches main through the merge queue and is mirrored to files.plaskevorn.example.",
                      flood))
    assert honest.statement == "Every PR reaches main through the merge queue."
