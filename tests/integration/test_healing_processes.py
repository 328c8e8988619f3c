"""Batches that heal, with real processes (a killed worker, a task killed at its timeout, duplicate episodes, a topic
ripening during a run): real ``manage.py qcluster`` processes on the test database, the real ``openai`` client over HTTP
to the fake server (made to hang where a test needs a worker caught mid-call), the reaper as the django-q schedule
migrations create.

Shortened settings: a 3 s batch lease. The reaper's period is django-q's: a one-minute schedule that the cluster's
scheduler looks at every 30 s, so recovery waits up to ~90 s after the lease (tests allow 150 s).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db.models import Q
from django_q.conf import Conf
from django_q.models import Task

from governance.models import ConsolidationBatch, LLMCall
from governance.services.batches import INTERRUPTED
from memory.gateways.llm import clear_llm_cache
from memory.models import Candidate, Episode, Exchange
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.tests.factories import T0
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder
from testing.scenarios import MARATHON_WAVE_1
from tests.integration.conftest import wait_for

pytestmark = pytest.mark.integration

RECOVERY_SECONDS = 150
PIANO = [
    ("I started piano lessons this month. Can you make me a piano practice plan?",
     "Here is a piano practice plan: 30 minutes of piano scales and pieces every day."),
    ("For my piano practice plan, how long should I practice piano scales each day?",
     "Practice piano scales for 10 minutes a day in your piano practice plan."),
    ("My wrists hurt after piano practice. Should I change my piano practice plan?",
     "Rest two days, then resume the piano practice plan with relaxed wrists."),
    ("Which piano piece should I practice first in my piano practice plan?",
     "Start your piano practice plan with Bach's Minuet in G after the piano scales."),
    ("I prefer to practice my piano scales in the evening. Does that fit my piano practice plan?",
     "Evening piano scales practice fits your piano practice plan well."),
]


class HangingLLM:
    """The fake endpoint answering RecMem's prompts, except that it can hold requests: ``hold(n)`` makes the next
    ``n`` chat requests wait (until ``release()`` or ``seconds``) — a worker caught mid-call; ``together(n)`` makes
    the next ``n`` requests wait until all ``n`` have arrived — batches planning at the same time."""

    def __init__(self) -> None:
        self.server = FakeOpenAIServer(responder=self._reply)
        self.received = 0
        self._lock = threading.Lock()
        self._held = 0
        self._release = threading.Event()
        self._barrier: threading.Barrier | None = None
        self._barrier_left = 0

    def hold(self, n: int = 1) -> None:
        self._held, self._release = n, threading.Event()

    def release(self) -> None:
        self._release.set()

    def together(self, n: int) -> None:
        self._barrier, self._barrier_left = threading.Barrier(n, timeout=120), n

    def _reply(self, request):
        with self._lock:
            self.received += 1
            hold = self._held > 0
            self._held -= hold
            barrier = self._barrier if self._barrier_left > 0 else None
            self._barrier_left -= barrier is not None
        if hold:
            self._release.wait(300)
        if barrier is not None:
            barrier.wait()  # raises BrokenBarrierError (the request fails) if the others never come
        return consolidation_responder(request)


@pytest.fixture
def llm(settings, monkeypatch):
    """The fake endpoint for the clusters and this process; ingests here enqueue to the broker (not in-process)."""
    clear_llm_cache()
    fake = HangingLLM()
    with fake.server:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url=fake.server.base_url, llm__api_key="k",
                                                  consolidation__mode="online")
        monkeypatch.setattr(Conf, "SYNC", False)
        yield fake
        fake.release()
    clear_llm_cache()


def cluster_env(llm: HangingLLM, **extra: str) -> dict[str, str]:
    return {"RECMEM_LLM_BASE_URL": llm.server.base_url, "RECMEM_LLM_API_KEY": "k", "RECMEM_LLM_MAX_RETRIES": "0",
            "RECMEM_LLM_TIMEOUT": "300", "RECMEM_CONSOLIDATION_MODE": "online", "RECMEM_BATCH_LEASE_SECONDS": "3",
            **extra}


def ingest(agent, pairs, *, day0: int = 0, module: str | None = None) -> list[Exchange]:
    from datetime import timedelta

    session = session_create(agent=agent, module=module)
    items = [ExchangeIn(user=u, assistant=a, occurred_at=T0 + timedelta(days=day0 + i))
             for i, (u, a) in enumerate(pairs)]
    result = exchanges_ingest(agent=agent, session=session, items=items)  # commits: the run is queued now
    assert result.candidates, "the topic did not ripen"
    return result.exchanges


def running_batch_in_call(llm: HangingLLM, clusters) -> ConsolidationBatch:
    """Wait until a worker is mid-call: the batch is running and its call is recorded in flight."""
    wait_for(lambda: llm.received >= 1, timeout=120, what="the worker's LLM call", clusters=clusters)
    return wait_for(lambda: ConsolidationBatch.objects.filter(status="running", calls__in_flight=True).first(),
                    timeout=30, what="the call recorded in flight", clusters=clusters)


def assert_whole_and_single(batch: ConsolidationBatch, exchanges: list[Exchange]) -> None:
    """0 lost: every exchange consolidated by this batch, its candidate done; 0 duplicated: one batch, one episode."""
    assert ConsolidationBatch.objects.count() == 1 and Episode.objects.count() == 1
    assert set(Exchange.objects.filter(pk__in=[e.pk for e in exchanges]).values_list("state", "consolidated_batch")
               ) == {("consolidated", batch.pk)}
    assert Episode.objects.get().sources.count() == len(exchanges)
    assert list(Candidate.objects.values_list("status", flat=True)) == ["done"]


def test_kill_9_of_the_qcluster_mid_call_the_same_batch_resumes(qclusters, llm, make_agent):
    """Observation 4(c): after kill -9 of the worker, recovery waited the whole RECMEM_Q_RETRY (12 min) and the
    killed call's tokens were never recorded."""
    first = qclusters("first", **cluster_env(llm))
    agent = make_agent().agent
    llm.hold(1)
    exchanges = ingest(agent, MARATHON_WAVE_1)
    batch = running_batch_in_call(llm, [first])
    first.kill9()
    killed = time.monotonic()
    llm.release()  # the endpoint would answer now, but nobody is listening

    second = qclusters("second", **cluster_env(llm))  # a supervisor starts the worker again
    done = wait_for(lambda: ConsolidationBatch.objects.filter(pk=batch.pk, status="succeeded").first(),
                    timeout=RECOVERY_SECONDS, what="the batch to resume and succeed", clusters=[second])
    print(f"recovered {time.monotonic() - killed:.0f}s after kill -9")
    assert done.attempts == 2  # the same batch, run again
    assert_whole_and_single(done, exchanges)
    killed_call = LLMCall.objects.get(batch=done, error=INTERRUPTED)
    assert killed_call.prompt_tokens > 0 and not killed_call.ok and not killed_call.in_flight
    assert LLMCall.objects.filter(batch=done, ok=True).count() == 1
    assert done.llm_call_count == 2 and done.prompt_tokens > killed_call.prompt_tokens


def test_a_task_killed_at_its_timeout_resumes(qclusters, llm, make_agent):
    """Observation 4(a): django-q stopped the task at its timeout (acknowledged as failed, never redelivered) and
    the batch stayed `running` for good."""
    # Warm workers: a task's timeout then covers its own work only, not a first model load (the re-run happens in
    # the worker django-q starts in place of the stopped one).
    cluster = qclusters("q", **cluster_env(llm, RECMEM_Q_TIMEOUT="8", RECMEM_Q_RETRY="600", RECMEM_WARM_UP="1"))
    agent = make_agent().agent
    llm.hold(1)  # the first call outlives the 8 s task timeout
    exchanges = ingest(agent, MARATHON_WAVE_1)
    batch = running_batch_in_call(llm, [cluster])
    wait_for(lambda: Task.objects.filter(success=False, func__endswith="consolidation_run_task").exists(),
             timeout=60, what="django-q to stop the task at its timeout", clusters=[cluster])
    llm.release()
    done = wait_for(lambda: ConsolidationBatch.objects.filter(pk=batch.pk, status="succeeded").first(),
                    timeout=RECOVERY_SECONDS, what="the batch to resume and succeed", clusters=[cluster])
    assert done.attempts == 2
    assert_whole_and_single(done, exchanges)
    assert LLMCall.objects.filter(batch=done, error=INTERRUPTED).count() == 1


def test_two_clusters_one_module_topic_from_two_agents_one_episode(qclusters, llm, make_agent, monkeypatch):
    """Observation 4, last part: two agents of one module consolidating the same topic at once wrote two module
    episodes for it (similarity 0.86, merge threshold 0.6). Each agent's run goes to its own cluster (named
    queues), and the fake endpoint answers only when both batches are planning, so they truly overlap."""
    clusters = [qclusters(name, Q_CLUSTER_NAME=name, **cluster_env(llm)) for name in ("recmem-a", "recmem-b")]
    x1 = make_agent(name="x1", modules=["m"]).agent
    x2 = make_agent(name="x2", modules=["m"]).agent
    llm.together(2)
    for agent, cluster, day0 in ((x1, clusters[0], 0), (x2, clusters[1], 10)):
        monkeypatch.setattr(Conf, "CLUSTER_NAME", cluster.name)  # this agent's run is queued for this cluster
        ingest(agent, MARATHON_WAVE_1, day0=day0, module="m")
    wait_for(lambda: ConsolidationBatch.objects.filter(status="succeeded").count() == 2, timeout=240,
             what="both batches", clusters=clusters)
    assert set(ConsolidationBatch.objects.values_list("agent", flat=True)) == {x1.pk, x2.pk}
    episodes = list(Episode.objects.filter(status="active"))
    assert len(episodes) == 1, [(e.title, str(e.batch_id)) for e in episodes]
    assert episodes[0].scope == "module" and episodes[0].sources.count() == 10  # both agents' units, merged
    assert episodes[0].version == 2  # written by one batch, merged by the other after planning again
    assert Candidate.objects.filter(status="done").count() == 2
    assert LLMCall.objects.filter(ok=True).count() == 3  # one call each, and the re-plan of the later writer


def test_a_topic_ripening_during_a_run_is_consolidated_right_after(qclusters, llm, make_agent):
    """Observation 4(e): a topic that became ripe while the same agent's batch ran met the per-agent lock, its task
    logged "already running elsewhere" and returned, and nothing queued it again before the idle window."""
    cluster = qclusters("q", **cluster_env(llm, RECMEM_Q_WORKERS="2"))
    agent = make_agent().agent
    llm.hold(1)
    marathon = ingest(agent, MARATHON_WAVE_1)
    first = running_batch_in_call(llm, [cluster])
    piano = ingest(agent, PIANO, day0=20)  # ripe now, while the marathon batch runs
    wait_for(lambda: any(t.result is None for t in Task.objects.filter(func__endswith="consolidation_run_task",
                                                                         success=True)),
             timeout=60, what="the second topic's task to meet the agent's lock", clusters=[cluster])
    assert Candidate.objects.filter(status="pending", batch__isnull=True).count() == 1
    llm.release()
    wait_for(lambda: not Candidate.objects.filter(~Q(status="done")).exists(), timeout=60,
             what="both topics consolidated (no idle tick in between)", clusters=[cluster])
    batches = list(ConsolidationBatch.objects.order_by("started_at"))
    assert [b.status for b in batches] == ["succeeded", "succeeded"] and batches[0].pk == first.pk
    assert set(Exchange.objects.filter(pk__in=[e.pk for e in piano]).values_list("consolidated_batch",
                                                                                      flat=True)) == {batches[1].pk}
    assert set(Exchange.objects.filter(pk__in=[e.pk for e in marathon]).values_list("consolidated_batch",
                                                                                     flat=True)) == {first.pk}
