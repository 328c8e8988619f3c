"""Recurrence trigger details, salience, idle-time scheduling, the planner's layers and the per-agent run lock."""

from datetime import timedelta

import numpy as np
import pytest
from django.utils import timezone

from governance.models import ConsolidationBatch, LLMCall
from memory.calibration import coverage_curve, ripeness_similarities, theta_for_coverage
from memory.models import Candidate, Exchange, Experience
from memory.salience import salience_reason
from memory.services.consolidation import consolidation_run
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.scheduling import idle_due, idle_runs_start
from memory.tests.factories import T0, agent_lock_held_elsewhere
from memory.thresholds import thresholds_for
from testing.scenarios import CHATTER, MARATHON_WAVE_1


@pytest.mark.parametrize("text,reason", [
    ("The report is due by Friday 5pm, no later than that.", "deadline"),
    ("Never deploy to production on Fridays, please remember that.", "rule"),
    ("You must always run the migrations before the tests.", "rule"),
    ("I'm allergic to peanuts, keep that in mind for recipes.", "medical"),
    ("Our contract requires GDPR compliance for all customer data.", "legal"),
])
def test_salience_fires_on_critical_one_offs(text, reason):
    assert salience_reason(text, "Noted.") == reason


@pytest.mark.parametrize("text", [
    "What's a good name for a grey kitten?",
    "I always wanted a dog when I was a kid.",
    "Can you recommend a sci-fi novel?",
])
def test_salience_ignores_small_talk(text):
    assert salience_reason(text, "Sure.") == ""


def _ingest(agent, pairs, day0=0, session=None):
    session = session or session_create(agent=agent)
    items = [ExchangeIn(user=u, assistant=a, occurred_at=T0 + timedelta(days=day0 + i)) for i, (u, a) in
             enumerate(pairs)]
    return session, exchanges_ingest(agent=agent, session=session, items=items)


@pytest.mark.django_db
def test_trigger_counts_the_new_unit_and_skips_queued_units(make_agent, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")  # candidates wait: the trigger alone
    agent = make_agent().agent
    _, first = _ingest(agent, MARATHON_WAVE_1[:4])
    assert not first.candidates  # 4 related units: |R| + 1 = 4 < θ_count
    _, second = _ingest(agent, MARATHON_WAVE_1[4:], day0=5)
    assert len(second.candidates) == 1 and second.candidates[0].reason == "recurrence"
    members = set(second.candidates[0].exchanges.values_list("id", flat=True))
    assert len(members) == 5 and second.exchanges[0].pk in members
    # a sixth related unit: its neighbours are already queued, so no second candidate for the same topic
    _, third = _ingest(agent, [("One more question about my marathon training plan: rest days?",
                                "Take one full rest day per week in your marathon plan.")], day0=6)
    assert not third.candidates and Candidate.objects.count() == 1
    assert thresholds_for("local:all-MiniLM-L6-v2").k == 10


@pytest.mark.django_db
def test_one_request_one_neighbour_statement_and_each_unit_in_one_candidate(make_agent, settings):
    """A request's exchanges get their neighbours in one statement (a LATERAL join), read before any of them is
    queued; a unit an earlier exchange's candidate took along is not a trigger again, nor a member twice."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    agent = make_agent().agent
    pairs = [*MARATHON_WAVE_1, *CHATTER, *[(u.replace("marathon", "Berlin marathon"), a) for u, a in MARATHON_WAVE_1]]
    session = session_create(agent=agent)
    with CaptureQueriesContext(connection) as queries:
        _, result = _ingest(agent, pairs, session=session)
    assert sum("CROSS JOIN LATERAL" in q["sql"] for q in queries.captured_queries) == 1
    assert len(result.candidates) >= 1
    memberships = list(Candidate.exchanges.through.objects.values_list("exchange_id", flat=True))
    assert len(memberships) == len(set(memberships))  # no unit waits in two candidates
    earlier: set = set()
    for candidate in result.candidates:  # in request order: no trigger was already queued by an earlier one
        assert candidate.trigger_id not in earlier
        earlier |= set(candidate.exchanges.values_list("id", flat=True))
    queued = set(memberships)
    assert set(Exchange.objects.filter(state="candidate").values_list("id", flat=True)) == queued
    chatter = {e.pk for e in result.exchanges[len(MARATHON_WAVE_1):len(MARATHON_WAVE_1) + len(CHATTER)]}
    assert not chatter & queued  # unrelated small talk stays raw


@pytest.mark.django_db
def test_salient_one_off_becomes_a_candidate(make_agent, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    agent = make_agent().agent
    _, result = _ingest(agent, [("The tax filing is due by April 15, no later than that.", "Noted.")])
    assert result.candidates[0].reason == "salience" and result.exchanges[0].salience == "deadline"
    settings.RECMEM = settings.RECMEM.replace(consolidation__salience=False)
    _, result = _ingest(agent, [("The visa renewal is due by May 2, no later than that.", "Noted.")])
    assert not result.candidates


@pytest.mark.django_db
def test_idle_mode_waits_for_quiet_agent_and_closed_sessions(make_agent, settings):
    from django_q.models import Schedule

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
    agent = make_agent().agent
    session, _ = _ingest(agent, MARATHON_WAVE_1)
    agent.refresh_from_db()
    assert Candidate.objects.filter(status="pending").count() == 1
    assert ConsolidationBatch.objects.count() == 0  # idle mode: nothing runs while the agent writes
    assert not idle_due(agent=agent)  # just wrote
    later = timezone.now() + timedelta(minutes=settings.RECMEM.idle.minutes + 1)
    assert idle_due(agent=agent, now=later)  # first run: no previous run, so the 24 h rule holds
    assert idle_runs_start(now=later) == 1
    schedule = Schedule.objects.get(name=f"idle:{agent.pk}")
    low, high = (int(x) for x in settings.RECMEM.idle.jitter_seconds)
    assert later + timedelta(seconds=low - 1) <= schedule.next_run <= later + timedelta(seconds=high + 1)
    assert idle_runs_start(now=later) == 0  # already waiting
    # the scheduled task runs the consolidation
    batch = consolidation_run(agent_id=agent.pk)
    ConsolidationBatch.objects.filter(pk=batch.pk).update(mode="idle")
    assert batch.status == "succeeded"
    # cooldown and the closed-session rule apply to the next run
    session_close(agent=agent, session=session)
    _ingest(agent, [(u.replace("marathon", "half marathon"), a) for u, a in MARATHON_WAVE_1], day0=30)
    agent.refresh_from_db()
    soon = timezone.now() + timedelta(minutes=settings.RECMEM.idle.minutes + 1)
    assert not idle_due(agent=agent, now=soon)  # cooldown since the last run
    after_cooldown = timezone.now() + timedelta(minutes=settings.RECMEM.idle.cooldown_minutes + 1)
    assert not idle_due(agent=agent, now=after_cooldown)  # only 1 closed session since the last run
    for _ in range(settings.RECMEM.idle.min_closed_sessions):
        session_close(agent=agent, session=session_create(agent=agent))
    assert idle_due(agent=agent, now=after_cooldown)


@pytest.mark.django_db(transaction=True)
def test_one_run_per_agent(make_agent, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    # another worker (here: another connection) holds the agent's lock: this run backs off and changes nothing
    with agent_lock_held_elsewhere(agent.pk):
        assert consolidation_run(agent_id=agent.pk) is None
        assert Candidate.objects.get().status == "pending"
    assert consolidation_run(agent_id=agent.pk).status == "succeeded"


def test_calibration_math():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(1, 16))
    tight = base + 0.1 * rng.normal(size=(6, 16))  # one recurring topic
    loose = rng.normal(size=(6, 16))  # unrelated units
    groups = [np.vstack([tight, loose])]
    groups = [g / np.linalg.norm(g, axis=1, keepdims=True) for g in groups]
    ripeness = ripeness_similarities(groups, theta_count=5)
    assert ripeness.shape == (12,)
    assert ripeness[:6].min() > 0.8 > ripeness[6:].max()
    theta = theta_for_coverage(ripeness, 0.5)
    assert ripeness[6:].max() <= theta <= ripeness[:6].min()
    curve = coverage_curve(ripeness, [float(ripeness.min()), theta, float(ripeness.max()) + 0.01])
    assert curve[0]["ripe_share"] == 1.0 and curve[-1]["ripe_share"] == 0.0


@pytest.mark.django_db
def test_calibrate_thresholds_command_on_the_store(make_agent, settings, tmp_path):
    import json
    from io import StringIO

    from django.core.management import call_command

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off")
    agent = make_agent(project="calib").agent
    _ingest(agent, MARATHON_WAVE_1 + CHATTER)
    out = StringIO()
    call_command("calibrate_thresholds", "--project", "calib", "--json", str(tmp_path / "c.json"), stdout=out)
    report = json.loads((tmp_path / "c.json").read_text())
    assert report["units"] == 8 and report["model"] == "local:all-MiniLM-L6-v2"
    assert 0.0 < report["theta_sim"] < 1.0 and report["coverage_curve"]
    assert "θ_sim for 75% coverage" in out.getvalue()


@pytest.mark.parametrize("text", [
    "That must be fun! I just started agility classes.",
    "Never been to an animal shelter before, but it must be great!",
    "Always here to help! Let me know.",
    "We'll keep going and never give up.",
    "You must really enjoy having them around.",
])
def test_salience_is_quiet_on_casual_chat(text):
    assert salience_reason(text, "Sure.") == ""


@pytest.mark.parametrize("text", [
    "Always run the tests before merging.",
    "Please never share the staging password in chat.",
    "Remember to always lock the door of the server room.",
])
def test_salience_catches_imperative_rules(text):
    assert salience_reason(text, "Understood.") == "rule"


@pytest.mark.django_db
def test_salient_one_offs_wait_and_are_refined_together(make_agent, settings, fake_llm,
                                                        django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    agent = make_agent().agent
    with django_capture_on_commit_callbacks(execute=True):
        _ingest(agent, [("The tax filing is due by April 15, no later than that.", "Noted."),
                        ("I'm allergic to peanuts, keep that in mind for recipes.", "Noted."),
                        ("Always run the tests before merging.", "Will do.")])
    assert Candidate.objects.filter(reason="salience", status="pending").count() == 3
    assert ConsolidationBatch.objects.count() == 0  # one-offs alone start no run
    with django_capture_on_commit_callbacks(execute=True):
        _ingest(agent, MARATHON_WAVE_1, day0=10)  # a ripe topic starts a run that takes them along
    batch = ConsolidationBatch.objects.get()
    assert batch.status == "succeeded"
    purposes = list(LLMCall.objects.values_list("purpose", flat=True))
    # One call for the topic (episode + items), one refine call for all three one-offs together (no episode).
    assert sorted(purposes) == ["semantic_refine", "topic_consolidate"]
    assert not Candidate.objects.filter(status="pending").exists()
    salient_units = Exchange.objects.exclude(salience="")
    assert set(salient_units.values_list("state", flat=True)) == {"consolidated"}


@pytest.mark.django_db
@pytest.mark.parametrize("layers,purposes,episodes,items", [
    ({"semantic": False}, ["episode_write"], True, False),  # episodes only: merge-or-write, no items
    ({"episodes": False}, ["semantic_refine"], False, True),  # items only: one refine call, no episode
])
def test_a_planner_without_a_layer_takes_the_separate_steps(make_agent, settings, fake_llm,
                                                            django_capture_on_commit_callbacks, layers, purposes,
                                                            episodes, items):
    """The product's consolidation with a layer off (the benchmarks' ablations): the queued runs of the block take
    the planner."""
    from memory.models import Episode
    from memory.services.consolidation import Planner, consolidation_planner

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    agent = make_agent().agent
    with consolidation_planner(Planner(**layers)), django_capture_on_commit_callbacks(execute=True):
        _ingest(agent, MARATHON_WAVE_1)
    assert ConsolidationBatch.objects.get().status == "succeeded"
    assert list(LLMCall.objects.values_list("purpose", flat=True)) == purposes
    assert Episode.objects.exists() is episodes
    assert Experience.objects.exists() is items
