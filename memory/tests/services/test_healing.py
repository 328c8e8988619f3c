"""Batches that heal (a failed batch must neither lose its exchanges nor stay stuck), in one process: a failure of the
write phase schedules the bounded retry; exhausted attempts leave a visible ``failed`` state that /healthz reports as
degraded and the admin's "retry now" repairs; LLM calls are recorded as they happen; the reaper re-queues a batch whose
process died (its lease passed) and leaves a live one alone; a batch re-queued while it still ran writes nothing.

The processes themselves (kill -9, the task timeout, two clusters) are in tests/integration/test_healing_processes.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db.models.functions import Now
from django_q.models import Schedule

from governance.models import ConsolidationBatch, LLMCall
from governance.services.batches import INTERRUPTED, batch_call_sent, batch_start
from memory.gateways.llm import clear_llm_cache
from memory.models import Candidate, Episode, Exchange, Experience
from memory.services.consolidation import consolidation_run
from memory.services.recovery import batches_reap
from memory.tests.factories import agent_lock_held_elsewhere, on_each_llm_call, refusing_inserts
from memory.tests.services.test_trigger_modes import _ingest
from testing.fake_openai import FakeOpenAIServer, FakeReply
from testing.fake_responder import consolidation_responder
from testing.scenarios import MARATHON_WAVE_1


@pytest.fixture
def llm(settings):
    """The fake endpoint, answering RecMem's prompts until a test scripts something else."""
    clear_llm_cache()
    with FakeOpenAIServer(responder=consolidation_responder) as server:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url=server.base_url, llm__api_key="k", llm__max_retries=0,
                                                  llm__timeout=20, consolidation__mode="idle",
                                                  consolidation__max_attempts=2)
        yield server
    clear_llm_cache()


@pytest.mark.django_db
def test_a_write_phase_error_schedules_the_bounded_retry(make_agent, llm):
    """Observation 4(b): a database error in the write phase left the batch `running`, with no retry."""
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    with refusing_inserts("memory_episode", "could not extend file (test: disk full)"):
        batch = consolidation_run(agent_id=agent.pk)  # does not raise: the failure is recorded

    assert batch.status == "failed" and batch.error.startswith("write: ") and "disk full" in batch.error
    candidate = Candidate.objects.get()
    assert candidate.status == "pending" and candidate.attempts == 1 and "disk full" in candidate.last_error
    assert Schedule.objects.filter(name=f"retry:{batch.pk}:1", func="memory.tasks.consolidation_run_task").exists()
    assert not Episode.objects.exists() and not Experience.objects.exists()  # the write rolled back whole
    assert set(Exchange.objects.values_list("state", flat=True)) == {"candidate"}  # nothing lost
    assert batch.llm_call_count == 1 and batch.prompt_tokens > 0  # the call made before the write is paid for

    # the disk has room again: the scheduled retry (run here) writes the batch
    retried = consolidation_run(agent_id=agent.pk, batch_id=batch.pk)
    assert retried.pk == batch.pk and retried.status == "succeeded" and retried.attempts == 2
    assert Episode.objects.count() == 1 and Candidate.objects.get().status == "done"
    assert set(Exchange.objects.values_list("state", flat=True)) == {"consolidated"}


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("admin", "admin@example.com", "pw-123456"))
    return client


@pytest.mark.django_db
def test_exhausted_retries_are_visible_degrade_healthz_and_retry_now_repairs(make_agent, llm, admin_client,
                                                                              django_capture_on_commit_callbacks):
    """Observation 4(d): with the LLM down for good the candidates ended `failed`, their exchanges stayed
    `candidate` with no further retry, and /healthz still said all was well."""
    llm.responder = lambda request: FakeReply(status=503, error_message="the endpoint is down")
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    first = consolidation_run(agent_id=agent.pk)
    assert first.status == "failed" and Candidate.objects.get().status == "pending"  # attempt 1 of 2: retry queued
    body = admin_client.get("/healthz").json()
    assert body["status"] == "degraded" and "latest consolidation batch failed" in str(body["checks"])

    last = consolidation_run(agent_id=agent.pk, batch_id=first.pk)  # the scheduled retry, run here
    assert last.pk == first.pk and last.status == "failed" and "attempts exhausted" in last.error
    candidate = Candidate.objects.get()
    assert candidate.status == "failed" and candidate.attempts == 2 and "503" in candidate.last_error
    assert not Schedule.objects.filter(name=f"retry:{first.pk}:2").exists()  # no more automatic retries

    response = admin_client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body  # degraded: keep serving, tell the operator
    assert body["status"] == "degraded" and body["degraded"] == ["consolidation"] and body["failing"] == []
    consolidation = body["checks"]["consolidation"]
    assert consolidation["failed_candidates"] == 1 and consolidation["failed_batches"] == [str(first.pk)]
    assert any("Retry now" in p for p in consolidation["problems"])

    llm.responder = consolidation_responder  # the endpoint is back: the operator retries from the admin
    with django_capture_on_commit_callbacks(execute=True):  # queued for a worker (here: run in-process)
        page = admin_client.post("/admin/governance/consolidationbatch/",
                                 {"action": "retry", "_selected_action": [first.pk]}, follow=True)
    assert page.status_code == 200 and any("Queued" in str(m) for m in page.context["messages"])
    first.refresh_from_db()
    assert first.status == "succeeded" and first.attempts == 3
    assert Candidate.objects.get().status == "done" and Episode.objects.count() == 1
    assert set(Exchange.objects.values_list("state", flat=True)) == {"consolidated"}
    assert admin_client.get("/healthz").json()["status"] == "ok"


@pytest.mark.django_db
def test_retry_now_refuses_a_batch_that_is_running_or_done(make_agent, llm, admin_client):
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    done = consolidation_run(agent_id=agent.pk)
    running = batch_start(project=agent.project, agent=agent, mode="online", consolidator="llm")
    for batch in (done, running):
        page = admin_client.post("/admin/governance/consolidationbatch/",
                                 {"action": "retry", "_selected_action": [batch.pk]}, follow=True)
        assert any("only failed, pending or stalled" in str(m) for m in page.context["messages"])
        assert ConsolidationBatch.objects.get(pk=batch.pk).status == batch.status


@pytest.mark.django_db(transaction=True)
def test_each_call_is_recorded_when_sent_and_completed_when_answered(make_agent, llm):
    """Observation 4(c), the cost side: a call is in the database before its reply arrives (a process killed while
    it waits still leaves the call and its prompt tokens), and is completed with the endpoint's usage after."""
    seen = []
    llm.responder = on_each_llm_call(lambda: seen.extend(LLMCall.objects.filter(in_flight=True).values(
        "purpose", "prompt_tokens", "tokens_source")), consolidation_responder)
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    batch = consolidation_run(agent_id=agent.pk)
    assert batch.status == "succeeded"
    assert len(seen) == 1 and seen[0]["purpose"] == "topic_consolidate" and seen[0]["prompt_tokens"] > 0
    assert seen[0]["tokens_source"] == "offline"
    call = LLMCall.objects.get(batch=batch)
    assert not call.in_flight and call.ok and call.tokens_source == "api" and call.completion_tokens > 0
    assert batch.llm_call_count == 1 and batch.prompt_tokens == call.prompt_tokens


def _dead_batch(agent, *, with_call: bool = True) -> ConsolidationBatch:
    """What a batch looks like after its process died mid-call: running, lease passed, a call in flight."""
    candidate = Candidate.objects.get(agent=agent)
    batch = batch_start(project=agent.project, agent=agent, mode="online", consolidator="llm")
    Candidate.objects.filter(pk=candidate.pk).update(batch=batch)
    if with_call:
        batch_call_sent(batch=batch, purpose="topic_consolidate", model="fake-gpt", prompt_tokens=812)
    ConsolidationBatch.objects.filter(pk=batch.pk).update(lease_expires_at=Now() - timedelta(seconds=1))
    return batch


@pytest.mark.django_db
def test_the_reaper_requeues_a_batch_whose_lease_passed(make_agent, llm, django_capture_on_commit_callbacks):
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    batch = _dead_batch(agent)
    with django_capture_on_commit_callbacks(execute=True):  # the re-queued task runs here (sync queue)
        assert [b.pk for b in batches_reap()] == [batch.pk]
    batch.refresh_from_db()
    assert batch.status == "succeeded" and batch.attempts == 2  # the same batch, resumed
    interrupted = LLMCall.objects.get(batch=batch, error=INTERRUPTED)
    assert interrupted.prompt_tokens == 812 and not interrupted.in_flight and not interrupted.ok
    assert batch.llm_call_count == 2 and batch.prompt_tokens > 812  # the lost call is paid for, and counted
    candidate = Candidate.objects.get()
    assert candidate.status == "done" and candidate.attempts == 1  # the lost run counted as an attempt
    assert Episode.objects.count() == 1 and batches_reap() == []


@pytest.mark.django_db
def test_a_batch_that_keeps_losing_its_worker_ends_failed(make_agent, llm, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__max_attempts=1)
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    batch = _dead_batch(agent, with_call=False)
    batches_reap()
    batch.refresh_from_db()
    assert batch.status == "failed" and "attempts exhausted" in batch.error
    assert Candidate.objects.get().status == "failed"


@pytest.mark.django_db(transaction=True)
def test_the_reaper_leaves_a_live_run_alone(make_agent, llm):
    """A lease can pass while its run lives (a stalled heartbeat); the run still holds the agent's lock."""
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    batch = _dead_batch(agent, with_call=False)
    with agent_lock_held_elsewhere(agent.pk):
        assert batches_reap() == []
        assert ConsolidationBatch.objects.get(pk=batch.pk).status == "running"
    assert [b.pk for b in batches_reap()] == [batch.pk]


@pytest.mark.django_db(transaction=True)
def test_a_batch_requeued_while_it_runs_writes_nothing(make_agent, llm):
    """If the reaper took a batch away while its run was still planning, that run must not write it as well."""
    llm.responder = on_each_llm_call(  # the reaper's act, while the run waits for its reply
        lambda: ConsolidationBatch.objects.filter(status="running").update(status="pending", worker=""),
        consolidation_responder)
    agent = make_agent().agent
    _ingest(agent, MARATHON_WAVE_1)
    batch = consolidation_run(agent_id=agent.pk)
    assert batch.status == "pending" and not Episode.objects.exists() and not Experience.objects.exists()
    assert Candidate.objects.get().status == "pending"


def test_one_scope_one_write_lock():
    import uuid

    from agents.visibility import Scope, ScopeKey
    from memory.services.consolidation import _scope_lock_key

    project, module, a, b = (uuid.uuid4() for _ in range(4))
    same = [ScopeKey(project_id=project, scope=Scope.MODULE, module_id=module),
            ScopeKey(project_id=project, scope="module", module_id=module),
            ScopeKey.for_scope(project_id=project, scope="module", module_id=module, owner_agent_id=a)]
    assert len({_scope_lock_key(k) for k in same}) == 1  # the module's scope, whoever writes to it
    personal = {_scope_lock_key(ScopeKey.for_scope(project_id=project, scope="personal", owner_agent_id=x))
                for x in (a, b)}
    assert len(personal) == 2 and not personal & {_scope_lock_key(same[0])}


def test_an_online_task_leaves_the_rest_of_a_backlog_to_a_new_task_when_its_time_is_spent(make_agent, settings,
                                                                                           monkeypatch):
    """A backlog of topics at a few seconds per LLM call held a worker for minutes while everything queued behind it
    waited (the fault bench: the first task after a cluster restart finished ~3 minutes later). One online task plans
    for RECMEM_CONSOLIDATION_TASK_SECONDS; the topics it did not reach wait for a new task at the end of the queue."""
    from datetime import timedelta

    from memory.consolidators.extractive import ExtractiveConsolidator
    from memory.models import Candidate, Exchange
    from memory.services import consolidation
    from memory.services.consolidation import consolidation_run
    from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
    from memory.tests.factories import T0

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off", llm__base_url="")
    agent = make_agent().agent
    topics = [("I fixed the flaky login test by waiting for the redirect.", "Waiting for the redirect fixes it."),
              ("The invoice PDF renders blank when the font is missing.", "Install the font in the image."),
              ("Our staging database is reset every night at two.", "Staging resets nightly at 2 am.")]
    session = session_create(agent=agent)
    stored = exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user=u, assistant=a, occurred_at=T0 + timedelta(hours=i)) for i, (u, a) in enumerate(topics)])
    for e in stored.exchanges:  # three separate topics, each its own candidate
        Candidate.objects.create(project_id=agent.project_id, agent=agent, trigger=e,
                                 reason=Candidate.Reason.RECURRENCE).exchanges.set([e])
    Exchange.objects.update(state="candidate")
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", consolidation__task_seconds=1)
    clock = iter(range(0, 1000, 5))  # every look at the clock is 5 s later: the first topic spends the budget
    monkeypatch.setattr(consolidation.time, "monotonic", lambda: next(clock))
    queued = []
    monkeypatch.setattr(consolidation, "consolidation_enqueue", lambda **kw: queued.append(kw))

    batch = consolidation_run(agent_id=agent.pk, consolidator=ExtractiveConsolidator(embedder=None))
    assert batch.status == "succeeded", batch.error
    assert len(batch.summary["exchanges"]) == 1  # one topic planned, then out of time
    waiting = Candidate.objects.filter(agent=agent, status=Candidate.Status.PENDING, batch__isnull=True)
    assert waiting.count() == 2  # released, not failed
    assert queued == [{"agent_id": agent.pk}]  # a new task for them, at the end of the queue


def _in_other_thread(action):
    """Run ``action()`` on another thread's own connection, which gives up on a row lock after 2 s."""
    import threading

    from django.db import connection

    out: list = []

    def run() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
            out.append(action())
        except Exception as exc:  # noqa: BLE001 - the test reports it
            out.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    return out[0]


@pytest.mark.django_db(transaction=True)
def test_the_write_phase_does_not_block_the_heartbeat_and_is_fenced_at_its_end(make_agent):
    """A write holding the batch row blocked the heartbeat thread's renewal for as long as it ran (40 s and more
    behind a large backlog in the fault bench): the lease ran out under a live run and the queue watchdog, seeing no
    progress, restarted the cluster again and again. The write now leaves the row to the heartbeat and checks at its
    end that the batch is still its own."""
    from django.db import transaction

    from core.errors import Conflict
    from governance.services.batches import batch_heartbeat, batch_owned, batch_succeed

    agent = make_agent().agent
    batch = batch_start(project=agent.project, agent=agent, mode="online", consolidator="extractive")
    with transaction.atomic():  # the write phase
        assert batch_owned(batch=batch)
        renewed = _in_other_thread(lambda: batch_heartbeat(batch_id=batch.pk, worker=batch.worker))
        assert renewed is True, renewed
        batch_succeed(batch=batch, summary={}, timings_ms={})
    assert ConsolidationBatch.objects.get(pk=batch.pk).status == "succeeded"

    again = batch_start(project=agent.project, agent=agent, mode="online", consolidator="extractive")
    with pytest.raises(Conflict), transaction.atomic():
        assert batch_owned(batch=again)
        _in_other_thread(lambda: ConsolidationBatch.objects.filter(pk=again.pk).update(status="pending", worker=""))
        batch_succeed(batch=again, summary={}, timings_ms={})
    assert ConsolidationBatch.objects.get(pk=again.pk).status == "pending"  # the reaper's, untouched
