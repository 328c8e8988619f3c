"""A queue that stops progressing shows: tasks ready to run wait while no task finishes and no batch renews its
lease → /healthz `degraded` naming the reason (it said ok while 99 tasks waited 9 minutes behind a wedged
cluster); the watchdog's judgement and the hard stop of a cluster that ignores SIGTERM."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.conf import Conf
from django_q.models import OrmQ, Task

from memory.queue_health import QueueWatchdog, process_group_stop, queue_progress, queue_stall_reason

pytestmark = pytest.mark.django_db


def _queued(n: int, *, age_s: float) -> None:
    lock = timezone.now() - timedelta(seconds=age_s)
    OrmQ.objects.bulk_create([OrmQ(key=Conf.CLUSTER_NAME, payload="x", lock=lock) for _ in range(n)])


def _finished(age_s: float) -> None:
    at = timezone.now() - timedelta(seconds=age_s)
    Task.objects.create(id=f"t{age_s}", name="t", func="operator.add", started=at, stopped=at, success=True,
                        cluster=Conf.CLUSTER_NAME)


def test_healthz_is_degraded_as_soon_as_work_waits_and_none_progresses(client, settings):
    settings.RECMEM = settings.RECMEM.replace(queue__stall_seconds=60)
    _queued(3, age_s=5)  # a fresh backlog is no stall
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["checks"]["queue_progress"]["waiting"] == 3
    _queued(2, age_s=90)  # ready for 90 s; no task has ever finished
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and "queue_progress" in body["degraded"], body
    problem = body["checks"]["queue_progress"]["problems"][0]
    assert "5 task(s) ready for 90 s" in problem and "no task has finished" in problem
    _finished(age_s=200)  # long ago: still stalled
    assert client.get("/healthz").json()["status"] == "degraded"
    _finished(age_s=3)  # the queue moves again
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["checks"]["queue_progress"]["last_progress_s"] < 60


def test_work_ready_a_quarter_period_while_nothing_progressed_for_a_whole_one_is_a_stall():
    """Tasks enqueued after a wedge are the first ready ones; waiting for them to age a whole stall period as well
    put the restart ~2 minutes after the kill in the fault bench."""
    _finished(age_s=70)  # the last task the cluster finished
    _queued(2, age_s=10)
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""  # ready for less than a quarter period
    OrmQ.objects.all().delete()
    _queued(2, age_s=20)
    reason = queue_stall_reason(queue_progress(), stall_seconds=60)
    assert "2 task(s) ready for 20 s" in reason and "no task finished" in reason, reason
    _finished(age_s=30)  # something finished within the period: a busy cluster, not a stalled one
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""
    Task.objects.all().delete()  # nothing ever finished (a fresh deployment): the ready work alone must age the period
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""
    OrmQ.objects.all().delete()
    _queued(1, age_s=61)
    assert "no task has finished" in queue_stall_reason(queue_progress(), stall_seconds=60)


def test_a_batch_heartbeat_is_progress_too(make_agent, monkeypatch):
    from django_q.status import Stat

    from governance.models import ConsolidationBatch

    holder = make_agent()
    _queued(1, age_s=300)
    stat = type("S", (), {"host": "h", "workers": [42], "timestamp": timezone.now()})()
    monkeypatch.setattr(Stat, "get_all", staticmethod(lambda broker=None: [stat]))
    assert queue_stall_reason(queue_progress(), stall_seconds=60)
    ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent,
                                      status=ConsolidationBatch.Status.RUNNING, worker="h:42",
                                      heartbeat_at=timezone.now())
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""


def test_runs_that_finish_while_no_task_result_is_recorded_are_a_stall(make_agent, monkeypatch):
    """The fault bench's wedge: after a worker was killed, the others went on taking tasks and running batches (their
    heartbeats fresh) while no result reached the monitor, so nothing was acknowledged and the same tasks came
    back, for 4 minutes, with the watchdog counting the heartbeats as progress."""
    from django_q.status import Stat

    from governance.models import ConsolidationBatch

    holder = make_agent()
    _queued(1, age_s=300)
    _finished(age_s=200)  # the last task the cluster recorded
    stat = type("S", (), {"host": "h", "workers": [42], "timestamp": timezone.now()})()
    monkeypatch.setattr(Stat, "get_all", staticmethod(lambda broker=None: [stat]))
    now = timezone.now()
    running = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent,
                                                status=ConsolidationBatch.Status.RUNNING, worker="h:42",
                                                heartbeat_at=now)
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""  # a long run renewing its lease
    ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent,
                                      status=ConsolidationBatch.Status.SUCCEEDED, worker="h:42",
                                      finished_at=now - timedelta(seconds=30), heartbeat_at=now)
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""  # its result may still be on its way
    ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent,
                                      status=ConsolidationBatch.Status.SUCCEEDED, worker="h:42",
                                      finished_at=now - timedelta(seconds=90))
    reason = queue_stall_reason(queue_progress(), stall_seconds=60)
    assert "without a task result recorded" in reason, reason
    # a run outside this cluster's workers (a manual `consolidation_run`, another cluster) says nothing of it
    ConsolidationBatch.objects.filter(worker="h:42").exclude(pk=running.pk).update(worker="other:7")
    assert queue_stall_reason(queue_progress(), stall_seconds=60) == ""


def test_the_watchdog_restarts_only_a_confirmed_stall_and_gives_a_new_cluster_time():
    clock = [0.0]
    watchdog = QueueWatchdog(stall_seconds=60, confirm=5, clock=lambda: clock[0])
    assert watchdog.check() == ""  # nothing waits
    _queued(1, age_s=120)
    assert watchdog.check() == ""  # seen once: not yet confirmed
    clock[0] = 6
    assert "ready for 120 s" in watchdog.check()
    watchdog.restarted()  # the new cluster loads its models: a full stall period before it can be judged
    clock[0] = 20
    assert watchdog.check() == ""


def test_a_cluster_still_warming_up_is_not_restarted_until_warm_or_past_the_limit(monkeypatch):
    """Under load a worker took up to 181 s to load its models; judged meanwhile, the cluster was restarted every
    minute and nothing ever finished."""
    from django.core.cache import cache
    from django_q.status import Stat

    from memory.warmup import worker_key

    stat = type("S", (), {"host": "h", "workers": [42], "timestamp": timezone.now()})()
    monkeypatch.setattr(Stat, "get_all", staticmethod(lambda broker=None: [stat]))
    cache.delete(worker_key(42, "h"))
    clock = [0.0]
    watchdog = QueueWatchdog(stall_seconds=60, confirm=5, clock=lambda: clock[0], warm_up_limit=600)
    _queued(1, age_s=300)
    for t in (0, 10, 200, 590):  # alive, loading its models: never judged, however long the backlog waits
        clock[0] = t
        assert watchdog.check() == ""
    clock[0] = 601  # past the limit: judged like any cluster
    watchdog.check()
    clock[0] = 607
    assert "ready for" in watchdog.check()

    watchdog.restarted()  # a new cluster: warming again
    clock[0] = 700
    assert watchdog.check() == ""
    cache.set(worker_key(42, "h"), 1, 60)  # warm: from now on it gets a full stall period, then is judged
    for t in (701, 710):
        clock[0] = t
        assert watchdog.check() == ""
    cache.delete(worker_key(42, "h"))


def test_a_cluster_that_ignores_sigterm_is_killed_after_the_grace():
    code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True, stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"up"
    started = time.monotonic()
    assert process_group_stop(proc, grace=1.0) == "killed"
    assert proc.returncode is not None and time.monotonic() - started < 10
    polite = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    assert process_group_stop(polite, grace=10.0) == "stopped"
