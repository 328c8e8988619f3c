"""A queue that heals itself: "work waiting, none progressing" seen from outside the cluster, and the cluster
restarted.

A django-q2 cluster can wedge without dying: a worker killed while it held the cluster's multiprocessing queue lock
leaves the other workers blocked in ``Queue.get`` and the pusher in ``Queue.put``; SIGTERM does nothing, and the
reaper and maintenance ticks that would heal it run on that same queue. The cluster's own heartbeat (its ``Stat``)
goes on. What shows it is the work: tasks ready to run wait (the broker's backlog and, with the ORM broker, since
when) while no task finishes and no consolidation batch run by the cluster's workers renews its lease.

- :func:`queue_progress` reads that; :func:`queue_stall_reason` says whether it is a stall
  (RECMEM_QUEUE_STALL_SECONDS); :func:`queue_progress_health` is the ``queue_progress`` part of ``/healthz``
  (``degraded`` with the reason as soon as the queue stops progressing).
- :class:`QueueWatchdog` follows one cluster over time and says when to restart it; :func:`process_group_stop`
  stops a cluster: SIGTERM to its process group, SIGKILL when SIGTERM did nothing within the grace. ``recmem run``
  (recmem_site/cli.py) and ``manage.py queue_watchdog`` (for other deployments) use both.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Min
from django.utils import timezone

from core.config import config


@dataclass(frozen=True)
class QueueProgress:
    cluster: str
    waiting: int  # tasks ready to run that no worker has taken
    waiting_since: datetime | None  # since when the oldest of them is ready (ORM broker); None: unknown (Redis)
    last_progress: datetime | None  # the last task finished, or batch heartbeat, by this cluster's workers
    clusters_seen: int  # clusters of this name with a recent heartbeat
    #: the oldest batch this cluster's workers finished after the last task the cluster recorded: tasks that ran but
    #: whose result never reached the cluster's monitor (None: none, or successes are not recorded)
    unrecorded_since: datetime | None = None


def _cluster_name() -> str:
    from django_q.conf import Conf

    return Conf.CLUSTER_NAME


def queue_progress(*, cluster: str | None = None) -> QueueProgress:
    from django_q.brokers import get_broker
    from django_q.models import OrmQ, Task
    from django_q.status import Stat

    from governance.models import ConsolidationBatch

    cluster = cluster or _cluster_name()
    now = timezone.now()
    broker = get_broker(list_key=cluster)
    if config().queue.redis_url:
        waiting, since = broker.queue_size(), None
    else:  # a row's lock is its enqueue time until a cluster takes it, then when it may be taken again
        ready = OrmQ.objects.filter(key=cluster, lock__lte=now).aggregate(n=Count("id"), since=Min("lock"))
        waiting, since = ready["n"], ready["since"]
    # Heartbeats of the clusters sharing this configuration's prefix (they expire a few seconds after the last)
    stats = Stat.get_all(broker=broker) or []
    workers = [f"{s.host}:{pid}" for s in stats for pid in (getattr(s, "workers", None) or [])]
    finished = Task.objects.filter(cluster=cluster).aggregate(at=Max("stopped"))["at"]
    beat = None
    if workers:
        beat = ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.RUNNING, worker__in=workers) \
            .aggregate(at=Max("heartbeat_at"))["at"]
    last = max((t for t in (finished, beat) if t is not None), default=None)
    unrecorded = None
    if workers and config().queue.save_limit >= 0:  # successes are recorded: each finished run has its Task row
        done = ConsolidationBatch.objects.filter(worker__in=workers, finished_at__isnull=False)
        if finished is not None:
            done = done.filter(finished_at__gt=finished)
        unrecorded = done.aggregate(at=Min("finished_at"))["at"]
    return QueueProgress(cluster=cluster, waiting=waiting, waiting_since=since, last_progress=last,
                         clusters_seen=len(stats), unrecorded_since=unrecorded)


def queue_stall_reason(progress: QueueProgress, *, now: datetime | None = None, stall_seconds: float | None = None,
                       waiting_since: datetime | None = None, progress_floor: datetime | None = None) -> str:
    """Why the queue counts as stalled ("" when it does not): tasks ready for at least ``stall_seconds`` and no
    progress for as long. ``waiting_since``: when the caller first saw the backlog (for brokers that do not say);
    ``progress_floor``: a time that counts as progress (the cluster's last restart)."""
    if not progress.waiting:
        return ""
    now = now or timezone.now()
    stall = stall_seconds if stall_seconds is not None else config().queue.stall_seconds
    since = progress.waiting_since or waiting_since
    # A healthy cluster takes a ready task within a poll, or finishes or renews a batch within a stall period: work
    # ready for a quarter of the period while nothing progressed for a whole one is a stall. Waiting for the ready
    # work to age a whole period too put the restart of a wedged cluster ~2 minutes after the kill (fault bench:
    # no task had finished for 104 s when tasks enqueued after the wedge had waited 69 s).
    if since is None or (now - since).total_seconds() < stall / 4:
        return ""
    # Workers that take tasks and run them while their results never reach the monitor (a worker killed while it
    # held the result queue's lock): batches finish and renew their leases, yet no task is recorded or
    # acknowledged, so the same tasks come back again and again. Observed in the fault bench: 4 minutes of that.
    stuck = progress.unrecorded_since
    if stuck is not None and (progress_floor is None or stuck > progress_floor) \
            and (now - stuck).total_seconds() >= stall:
        return (f"queue {progress.cluster}: {progress.waiting} task(s) ready; runs finished for "
                f"{int((now - stuck).total_seconds())} s without a task result recorded")
    last = max((t for t in (progress.last_progress, progress_floor) if t is not None), default=None)
    if last is not None and (now - last).total_seconds() < stall:
        return ""
    waited = int((now - since).total_seconds())
    if last is None and waited < stall:  # nothing ever finished: judged by how long the work has waited alone
        return ""
    idle = "no task has finished" if last is None else \
        f"no task finished and no batch progressed for {int((now - last).total_seconds())} s"
    who = "" if progress.clusters_seen else "; no queue cluster is running"
    return f"queue {progress.cluster}: {progress.waiting} task(s) ready for {waited} s, {idle}{who}"


def queue_progress_health() -> dict[str, Any]:
    """The ``queue_progress`` part of /healthz: serving (``ok``) but ``degraded`` while the queue is stalled."""
    progress = queue_progress()
    now = timezone.now()
    report: dict[str, Any] = {
        "ok": True, "waiting": progress.waiting,
        "oldest_waiting_s": round((now - progress.waiting_since).total_seconds(), 1)
        if progress.waiting_since else None,
        "last_progress_s": round((now - progress.last_progress).total_seconds(), 1)
        if progress.last_progress else None,
        "stall_after_s": config().queue.stall_seconds,
    }
    reason = queue_stall_reason(progress, now=now)
    if reason:
        report.update(degraded=True, problems=[reason])
    return report


# A restarted (or just started) cluster whose workers are alive but still loading their models is not judged
# until one of them is warm — on a loaded 2-core machine that took 34–181 s, longer than a stall period, and judging
# it earlier restarted the cluster every minute while nothing could finish — or until this limit passes.
WARM_UP_LIMIT = 600.0


def _warming(cluster: str | None) -> bool:
    """Whether the cluster's workers are alive (their cluster's heartbeat names them) and none has finished its
    warm-up yet. A cluster with no heartbeat at all is not warming: it is gone."""
    from django_q.brokers import get_broker
    from django_q.status import Stat

    from memory.warmup import queue_workers_warm

    if not config().server.warm_up:
        return False
    stats = Stat.get_all(broker=get_broker(list_key=cluster or _cluster_name())) or []
    workers = [(s.host, pid) for s in stats for pid in (getattr(s, "workers", None) or [])]
    return bool(workers) and queue_workers_warm(workers) == 0


class QueueWatchdog:
    """Follows one cluster; :meth:`check` returns the reason to restart it now, or "". A stall must be seen on
    checks spanning ``confirm`` seconds (one unlucky read never restarts anything); a cluster still warming up is
    not judged (up to ``warm_up_limit`` seconds after the watchdog started or last restarted it), and once warm,
    or after :meth:`restarted`, it gets a full stall period before it can be found stalled."""

    def __init__(self, *, cluster: str | None = None, stall_seconds: float | None = None, confirm: float = 5.0,
                 clock=time.monotonic, warm_up_limit: float = WARM_UP_LIMIT) -> None:
        self.cluster = cluster
        self.stall_seconds = stall_seconds if stall_seconds is not None else config().queue.stall_seconds
        self.confirm, self.clock, self.warm_up_limit = confirm, clock, warm_up_limit
        self._backlog_seen: datetime | None = None
        self._stalled_since: float | None = None
        self._restarted_at: datetime | None = None
        self._started = clock()  # when this cluster (the first one, or the last restarted) began to warm up
        self._warm = False

    def check(self) -> str:
        progress = queue_progress(cluster=self.cluster)
        now = timezone.now()
        if not progress.waiting:
            self._backlog_seen = None
        elif self._backlog_seen is None:
            self._backlog_seen = now
        if not self._warm and progress.waiting:
            if _warming(self.cluster):
                if self.clock() - self._started < self.warm_up_limit:
                    self._stalled_since = None
                    return ""
                self._warm = True  # past the limit: judged now, like any cluster
            elif progress.clusters_seen:  # warm now: a full stall period from here
                self._warm, self._restarted_at = True, now
        reason = queue_stall_reason(progress, now=now, stall_seconds=self.stall_seconds,
                                    waiting_since=self._backlog_seen, progress_floor=self._restarted_at)
        if not reason:
            self._stalled_since = None
            return ""
        if self._stalled_since is None:
            self._stalled_since = self.clock()
        return reason if self.clock() - self._stalled_since >= self.confirm else ""

    def restarted(self) -> None:
        self._restarted_at, self._stalled_since = timezone.now(), None
        self._started, self._warm = self.clock(), False


def process_group_stop(proc: subprocess.Popen, *, grace: float) -> str:
    """Stop a cluster started in its own process group: SIGTERM to the group (master, sentinel, workers), then
    SIGKILL to the group if the master has not exited within ``grace`` seconds (a wedged cluster ignores SIGTERM).
    Returns "stopped" or "killed"."""
    if proc.poll() is not None:
        return "stopped"
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        os.killpg(proc.pid, signal.SIGCONT)  # a stopped (SIGSTOP) process acts on SIGTERM only once continued
    except ProcessLookupError:
        pass
    try:
        proc.wait(grace)
        outcome = "stopped"
    except subprocess.TimeoutExpired:
        outcome = "killed"
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # whatever of the group is left (workers orphaned by the master too)
    except ProcessLookupError:
        pass
    proc.wait()
    return outcome
