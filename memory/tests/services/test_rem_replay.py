"""Idle-time (REM) runs, consolidation while no one writes: the replay cursor and the session-level pass within a
per-run budget, yielding to a new write at a topic boundary, exact cooldown, manual runs outside the idle cap, the
low-priority queue."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule

from agents.models import Agent
from governance.models import ConsolidationBatch, LLMCall
from memory.consolidators import get_consolidator
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, Session
from memory.search.vector import table_rows
from memory.services.consolidation import consolidation_run
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.scheduling import idle_due, idle_run_request, idle_runs_start
from memory.tests.factories import T0
from testing.scenarios import MARATHON_WAVE_1

# Stated once, no "must/never": neither recurrence nor salience ever picks these up.
LESSON = ("The deploy failed again; turned out the cache was stale. I learned to clear the build cache before "
          "every release.", "Good catch, clearing the build cache first avoids that.")
CHAT = [("What's a good name for a grey kitten?", "Ash or Smoky are nice."),
        ("Can you recommend a sci-fi novel?", "Try The Left Hand of Darkness.")]
# Sessions that do not repeat each other (the same turns in three sessions would recur: a ripe topic).
VARIED = [
    [*CHAT, LESSON],
    [("What is the capital of Canada?", "Ottawa."), ("Suggest a podcast about history.", "The Rest Is History."),
     ("The migration timed out on the big table. I learned to run schema changes in small batches next time.",
      "Small batches keep the locks short.")],
    [("How many bytes are in a kilobyte?", "1,000 or 1,024."), ("Which planet is the largest?", "Jupiter."),
     ("Our restore drill failed. The lesson I learned: test restores every month, not only the backups.",
      "Only a restore proves a backup.")],
]


def _session(agent, pairs, day=0, close=True):
    session = session_create(agent=agent, started_at=T0 + timedelta(days=day))
    exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user=u, assistant=a, occurred_at=T0 + timedelta(days=day, minutes=i)) for i, (u, a) in
        enumerate(pairs)])
    if close:
        session_close(agent=agent, session=session)
    return Session.objects.get(pk=session.pk)


@pytest.fixture
def idle(settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", idle__session_pass="on")
    return settings


@pytest.mark.django_db
def test_a_lesson_stated_once_is_distilled_by_the_replay(make_agent, idle, either_consolidator):
    """Observed: only ripe or salient candidates were replayed; a lesson stated once was never distilled."""
    agent = make_agent().agent
    session = _session(agent, [*CHAT, LESSON])
    assert not Candidate.objects.exists()  # not ripe, not salient
    batch = consolidation_run(agent_id=agent.pk, run="idle")
    assert batch.status == "succeeded" and batch.mode == "idle"
    lessons = Experience.objects.filter(type="lesson", status="active")
    assert lessons.exists(), list(Experience.objects.values_list("type", "statement"))
    lesson = lessons.get()
    assert list(lesson.evidence.values_list("pk", flat=True)) == list(
        Exchange.objects.filter(session=session, turn_index=2).values_list("pk", flat=True))
    assert lesson.tags  # tagged by the consolidator
    assert not Experience.objects.exclude(type__in=("lesson", "procedure", "preference")).exists()
    session.refresh_from_db()
    assert session.replay_cursor == session.next_turn_index == 3 and session.replayed_at is not None
    assert set(Exchange.objects.values_list("state", flat=True)) == {"raw"}  # they may still recur
    assert batch.summary["replay"]["sessions_replayed"] == [str(session.pk)]
    # The cursor has passed the session: the next run has nothing to replay (no second call, no duplicate).
    calls = LLMCall.objects.count()
    assert consolidation_run(agent_id=agent.pk, run="idle") is None
    assert LLMCall.objects.count() == calls
    # The session grows: only its new turns are replayed.
    Session.objects.filter(pk=session.pk).update(status="open")
    session.refresh_from_db()
    exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(*CHAT[0])])
    again = consolidation_run(agent_id=agent.pk, run="idle")
    session.refresh_from_db()
    assert session.replay_cursor == 4 and again.summary["replay"]["sessions_replayed"] == [str(session.pk)]


@pytest.mark.django_db
def test_online_runs_do_not_replay(make_agent, idle, fake_llm):
    agent = make_agent().agent
    _session(agent, [*CHAT, LESSON])
    assert consolidation_run(agent_id=agent.pk) is None  # nothing ripe: an online run has nothing to do
    assert not Experience.objects.exists()


@pytest.mark.django_db
def test_budget_exhausted_the_rest_waits_for_the_next_run(make_agent, idle, fake_llm):
    agent = make_agent().agent
    sessions = [_session(agent, VARIED[d], day=d) for d in range(3)]
    # About one session's call fits (its estimate is the units plus ~1,000 tokens of prompt).
    idle.RECMEM = idle.RECMEM.replace(idle__run_token_budget=2000)
    batch = consolidation_run(agent_id=agent.pk, run="idle")
    replay = batch.summary["replay"]
    assert replay["stopped"] == "budget" and replay["sessions_replayed"] == [str(sessions[0].pk)]
    assert replay["sessions_waiting"] == 2 and 0 < replay["used"] <= 2000
    assert batch.prompt_tokens + batch.completion_tokens == replay["used"]
    cursors = [Session.objects.get(pk=s.pk).replay_cursor for s in sessions]
    assert cursors == [3, 0, 0]
    # The next run resumes from the cursor: the second session.
    nxt = consolidation_run(agent_id=agent.pk, run="idle")
    assert nxt.summary["replay"]["sessions_replayed"] == [str(sessions[1].pk)]
    assert [Session.objects.get(pk=s.pk).replay_cursor for s in sessions] == [3, 3, 0]


@pytest.mark.django_db
def test_extractive_work_budget(make_agent, idle):
    idle.RECMEM = idle.RECMEM.replace(llm__base_url="", idle__extractive_budget=150)
    agent = make_agent().agent
    sessions = [_session(agent, [*CHAT, LESSON], day=d) for d in range(2)]
    batch = consolidation_run(agent_id=agent.pk, run="idle")
    replay = batch.summary["replay"]
    assert replay["budget_unit"] == "tokens of text parsed" and replay["stopped"] == "budget"
    assert replay["sessions_replayed"] == [str(sessions[0].pk)] and replay["used"] <= 150


class _WritesDuringRun:
    """The configured consolidator, except that while planning its first topic or session the agent writes again
    (what a live agent does when it becomes active during an idle run)."""

    def __init__(self, inner, agent):
        self.inner, self.agent, self.calls = inner, agent, 0
        self.kind, self.model = inner.kind, inner.model

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _write(self):
        self.calls += 1
        if self.calls == 1:
            Agent.objects.filter(pk=self.agent.pk).update(last_write_at=timezone.now())

    def consolidate_topic(self, **kwargs):
        self._write()
        return self.inner.consolidate_topic(**kwargs)

    def distil_session(self, **kwargs):
        self._write()
        return self.inner.distil_session(**kwargs)


@pytest.mark.django_db
def test_an_idle_run_yields_when_the_agent_writes_and_keeps_its_cursor(make_agent, idle):
    idle.RECMEM = idle.RECMEM.replace(llm__base_url="")
    agent = make_agent().agent
    sessions = [_session(agent, VARIED[d], day=d) for d in range(3)]
    consolidator = _WritesDuringRun(get_consolidator(llm=None, embedder=get_embedder()), agent)
    batch = consolidation_run(agent_id=agent.pk, run="idle", consolidator=consolidator)
    replay = batch.summary["replay"]
    # It finished the session it was on (a topic boundary), then stopped.
    assert replay["stopped"] == "preempted" and replay["sessions_replayed"] == [str(sessions[0].pk)]
    assert [Session.objects.get(pk=s.pk).replay_cursor for s in sessions] == [3, 0, 0]
    assert Experience.objects.filter(type="lesson").count() == 1
    # The next run resumes at the second session.
    batch = consolidation_run(agent_id=agent.pk, run="idle")
    assert batch.summary["replay"]["stopped"] == ""
    assert [Session.objects.get(pk=s.pk).replay_cursor for s in sessions] == [3, 3, 3]


@pytest.mark.django_db
def test_a_yielding_run_leaves_the_topics_it_did_not_reach_waiting(make_agent, idle):
    idle.RECMEM = idle.RECMEM.replace(llm__base_url="", idle__session_pass="off")
    agent = make_agent().agent
    _session(agent, MARATHON_WAVE_1)
    _session(agent, [(u.replace("marathon", "swimming"), a) for u, a in MARATHON_WAVE_1], day=20)
    _session(agent, [("Never deploy to production on Fridays.", "Noted.")], day=30)  # a salient one-off
    # (Failed once in a whole-suite run with 2: the message names which kind was missing, and how the scan ran.)
    assert Candidate.objects.count() == 3, (list(Candidate.objects.values_list("reason", "trigger__user_text")),
                                            table_rows(Exchange))
    consolidator = _WritesDuringRun(get_consolidator(llm=None, embedder=get_embedder()), agent)
    batch = consolidation_run(agent_id=agent.pk, run="idle", consolidator=consolidator)
    assert batch.status == "succeeded"
    done = Candidate.objects.filter(status="done")
    assert done.count() == 1 and done.get().reason == "recurrence"  # ripe topics come first
    waiting = Candidate.objects.filter(status="pending")
    assert waiting.count() == 2 and not waiting.filter(batch__isnull=False).exists()
    assert consolidation_run(agent_id=agent.pk, run="idle").status == "succeeded"
    assert not Candidate.objects.filter(status="pending").exists()


@pytest.mark.django_db
def test_finished_one_off_schedule_does_not_delay_the_next_run(make_agent, idle):
    """Observed: a fired one-off schedule (repeats=0) counted as waiting for an hour: a 30-minute cooldown acted as
    one hour (an agent due at 05:51 ran at 06:44)."""
    idle.RECMEM = idle.RECMEM.replace(idle__cooldown_minutes=5, idle__jitter_seconds=(0, 0), idle__max_hours=0)
    agent = make_agent().agent
    _session(agent, MARATHON_WAVE_1)  # a ripe topic waits
    now = timezone.now() + timedelta(minutes=idle.RECMEM.idle.minutes + 1)
    assert idle_runs_start(now=now) == 1
    # django-q2 fires it: the schedule stays with repeats=0; the run is recorded as an idle batch.
    Schedule.objects.filter(name=f"idle:{agent.pk}").update(repeats=0)
    ConsolidationBatch.objects.create(project=agent.project, agent=agent, mode="idle", status="succeeded",
                                      started_at=now)
    assert idle_runs_start(now=now + timedelta(minutes=4)) == 0  # within the cooldown
    due = now + timedelta(minutes=5, seconds=30)
    assert idle_due(agent=agent, now=due)
    assert idle_runs_start(now=due) == 1  # exactly after the cooldown, not an hour later
    schedule = Schedule.objects.get(name=f"idle:{agent.pk}")
    assert schedule.repeats == 1 and schedule.next_run == due


@pytest.mark.django_db
def test_idle_runs_go_to_the_low_priority_queue(make_agent, idle, settings):
    agent = make_agent().agent
    _session(agent, [*CHAT, LESSON])
    assert idle_runs_start(now=timezone.now() + timedelta(minutes=idle.RECMEM.idle.minutes + 1)) == 1
    schedule = Schedule.objects.get(name=f"idle:{agent.pk}")
    import ast

    kwargs = ast.literal_eval(schedule.kwargs)
    assert kwargs == {"q_options": {"cluster": "recmem-idle"}, "run": "idle"}
    assert settings.Q_CLUSTER["ALT_CLUSTERS"] == {"recmem-idle": {"workers": 1}}
    idle.RECMEM = idle.RECMEM.replace(idle__queue="")
    Schedule.objects.all().delete()
    idle_runs_start(now=timezone.now() + timedelta(minutes=idle.RECMEM.idle.minutes + 1))
    assert ast.literal_eval(Schedule.objects.get(name=f"idle:{agent.pk}").kwargs)["q_options"] == {}


@pytest.mark.django_db
def test_manual_runs_are_outside_the_idle_cooldown_and_cap(make_agent, idle, django_capture_on_commit_callbacks):
    """Observed: manual runs were recorded as idle runs and used up the daily idle cap."""
    idle.RECMEM = idle.RECMEM.replace(llm__base_url="", idle__daily_cap=1, idle__max_hours=0)
    agent = make_agent().agent
    _session(agent, MARATHON_WAVE_1)
    with django_capture_on_commit_callbacks(execute=True):
        assert idle_run_request(agent=agent) == 1  # the queue runs in-process in tests
    batch = ConsolidationBatch.objects.get()
    assert batch.mode == "manual" and batch.status == "succeeded"
    assert "replay" in batch.summary  # a manual run replays like an idle one
    _session(agent, [(u.replace("marathon", "swimming"), a) for u, a in MARATHON_WAVE_1], day=20)
    soon = timezone.now() + timedelta(minutes=idle.RECMEM.idle.minutes + 1)
    assert idle_due(agent=agent, now=soon)  # no cooldown, no cap used by the manual run
