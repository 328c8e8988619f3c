"""A wedged real cluster heals: `manage.py queue_watchdog --supervise` runs a real qcluster; its workers are frozen
(SIGSTOP: alive, holding their tasks, taking no more — as when a killed worker left the queue lock held); tasks
queued behind them wait, nothing finishes; the watchdog restarts the cluster (SIGKILL to the group when SIGTERM
does nothing) and every task runs, well within 2 minutes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django_q.models import Task
from django_q.status import Stat
from django_q.tasks import async_task

from tests.integration.conftest import ROOT, QCluster, wait_for


@pytest.mark.integration
def test_a_wedged_cluster_is_restarted_and_its_tasks_run(transactional_db, tmp_path):
    from memory.services.scheduling import maintenance_schedules_ensure

    maintenance_schedules_ensure()
    env = QCluster("watched", tmp_path / "unused.log").env
    env.update(RECMEM_QUEUE_STALL_SECONDS="8", RECMEM_Q_TIMEOUT="15", RECMEM_Q_RETRY="20")
    log = tmp_path / "watchdog.log"
    out = open(log, "ab")  # noqa: SIM115 - closed below
    supervisor = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "queue_watchdog", "--supervise",
                                   "--interval", "1", "--grace", "3"], env=env, cwd=ROOT, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        first = async_task("operator.add", 1, 1, sync=False)
        wait_for(lambda: Task.objects.filter(id=first).exists(), timeout=120, what="a first task")
        stats = wait_for(lambda: [s for s in Stat.get_all() if s.workers], timeout=30, what="the cluster's stats")
        workers = [pid for s in stats for pid in s.workers]
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        wedged_at = time.monotonic()
        ids = [async_task("operator.add", i, i, sync=False) for i in range(6)]
        time.sleep(3)
        assert Task.objects.filter(id__in=ids).count() == 0  # wedged: nothing runs
        done = wait_for(lambda: Task.objects.filter(id__in=ids).count() == len(ids) or None, timeout=150,
                        what="the queued tasks after the restart", interval=1)
        recovered_s = time.monotonic() - wedged_at
        text = log.read_text(errors="replace")
        assert done and "restarting the cluster" in text, text[-3000:]
        assert "ready for" in text
        assert recovered_s < 120, recovered_s
        print(f"wedged → all {len(ids)} tasks done in {recovered_s:.1f} s")
        for pid in workers:  # the frozen workers are gone with their process group
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        supervisor.send_signal(signal.SIGTERM)
        try:
            supervisor.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait()
        out.close()
        print(f"--- watchdog (last 4000 characters) ---\n{log.read_text(errors='replace')[-4000:]}")
