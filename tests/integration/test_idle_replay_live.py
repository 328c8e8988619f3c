"""A live idle (REM) run: real qclusters — the main one, whose scheduler runs the idle tick, and the
low-priority idle cluster the run is queued for — with shortened settings. The run fires on its own, is pre-empted
by a new write (it stops at the next session boundary and keeps its cursor), and the next run resumes from it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule

from governance.models import ConsolidationBatch, LLMCall
from memory.models import Session
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.scheduling import IDLE_SCHEDULE
from memory.tests.factories import T0
from testing.fake_openai import FakeOpenAIServer, FakeReply
from testing.fake_responder import consolidation_responder
from tests.integration.conftest import wait_for

LESSONS = [
    ("The build broke because the lockfile was stale; I learned to refresh the lockfile before tagging.", "Noted."),
    ("Turned out the flaky test was a timezone issue; next time pin TZ=UTC in CI.", "Good lesson."),
    ("I prefer short commit messages with the ticket number first.", "Will do."),
    ("The release failed since the changelog was missing; I learned to write it before the tag.", "Right."),
    ("Turned out the cache key ignored the Python version; next time include it.", "Agreed."),
]


@pytest.mark.integration
def test_an_idle_run_fires_yields_to_a_write_and_resumes_from_its_cursor(qclusters, make_agent, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")  # this process only writes
    slow = FakeOpenAIServer(responder=lambda body: FakeReply(content=consolidation_responder(body), delay=2.0))
    with slow:
        env = {"RECMEM_LLM_BASE_URL": slow.base_url, "RECMEM_LLM_API_KEY": "k", "RECMEM_LLM_MAX_RETRIES": "0",
               "RECMEM_LLM_TIMEOUT": "60", "RECMEM_CONSOLIDATION_MODE": "idle", "RECMEM_IDLE_MINUTES": "0",
               "RECMEM_IDLE_COOLDOWN_MINUTES": "0", "RECMEM_IDLE_MAX_HOURS": "0", "RECMEM_IDLE_DAILY_CAP": "10",
               "RECMEM_IDLE_JITTER_SECONDS": "0,0", "RECMEM_IDLE_QUEUE": "recmem-idle",
               "RECMEM_IDLE_SESSION_PASS": "on"}
        agent = make_agent().agent
        sessions = []
        for day, pair in enumerate(LESSONS):
            session = session_create(agent=agent, started_at=T0 + timedelta(days=day))
            exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(*pair, occurred_at=T0 + timedelta(
                days=day))])
            sessions.append(session_close(agent=agent, session=session))
        # Quiet since a minute ago; the idle tick (every minute) is due now.
        type(agent).objects.filter(pk=agent.pk).update(last_write_at=timezone.now() - timedelta(minutes=1))
        Schedule.objects.filter(name=IDLE_SCHEDULE).update(next_run=timezone.now())
        main = qclusters("main", **env)
        idle = qclusters("idle", Q_CLUSTER_NAME="recmem-idle", **env)
        clusters = [main, idle]

        # The run fires by itself and works through the sessions, one slow LLM call each.
        wait_for(lambda: LLMCall.objects.filter(purpose="session_distill").exists(), timeout=180,
                 what="the idle run's first session call", clusters=clusters)
        first = ConsolidationBatch.objects.get()
        assert first.mode == "idle" and first.status == "running"
        # The agent becomes active again.
        live = session_create(agent=agent)
        exchanges_ingest(agent=agent, session=live, items=[ExchangeIn("What's on my calendar today?", "Two calls.")])

        first = wait_for(lambda: ConsolidationBatch.objects.filter(pk=first.pk, status="succeeded").first(),
                         timeout=120, what="the pre-empted run to write what it finished", clusters=clusters)
        replay = first.summary["replay"]
        assert replay["stopped"] == "preempted", replay
        done = replay["sessions_replayed"]
        assert 1 <= len(done) < len(LESSONS)
        cursors = {str(s.pk): Session.objects.get(pk=s.pk).replay_cursor for s in sessions}
        assert cursors == {str(s.pk): (1 if str(s.pk) in done else 0) for s in sessions}  # kept its cursor
        calls_first = LLMCall.objects.filter(batch=first, purpose="session_distill").count()
        assert calls_first == len(done)

        # The next tick (a minute later: the fired one-off schedule no longer blocks it) resumes from the cursor.
        second = wait_for(lambda: ConsolidationBatch.objects.exclude(pk=first.pk).filter(
            status="succeeded", mode="idle").first(), timeout=240, what="the next idle run", clusters=clusters)
        assert second.summary["replay"]["stopped"] == ""
        assert not set(second.summary["replay"]["sessions_replayed"]) & set(done)  # nothing replayed twice
        assert all(Session.objects.get(pk=s.pk).replay_cursor == 1 for s in sessions)
        # The live session is chatter: nothing of it is sent, so no call for it.
        assert LLMCall.objects.filter(purpose="session_distill").count() == len(LESSONS)
        # Both runs were executed by the low-priority cluster, none by the main one.
        assert "Processed 'memory.tasks.consolidation_run_task'" in idle.output()
        assert "Processed 'memory.tasks.consolidation_run_task'" not in main.output()
