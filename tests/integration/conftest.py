"""Real django-q2 clusters (``manage.py qcluster`` processes on the test database) for the integration tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


class QCluster:
    """One ``manage.py qcluster`` in its own process group (so kill -9 takes the whole cluster), on the test
    database, with its output in a log file that is printed when the test ends."""

    def __init__(self, name: str, log: Path, **env: str) -> None:
        self.name, self.log = name, log
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
            "RECMEM_HOME": str(settings.RECMEM.home),
            "RECMEM_DB_NAME": connection.settings_dict["NAME"],  # the test database
            "RECMEM_Q_SYNC": "0",
            "RECMEM_Q_POLL": "0.1",
            "RECMEM_Q_WORKERS": "1",
            "RECMEM_WARM_UP": "0",  # these tests are about batches, not start-up time; a first task loads lazily
            "LOG_LEVEL": "INFO",
            **env,
        }
        self.proc: subprocess.Popen | None = None

    def start(self) -> QCluster:
        out = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], env=self.env, cwd=ROOT,
                                     stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        """kill -9 of the whole cluster: master, sentinel, workers (no chance to clean anything up)."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if not self.alive():
            return
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@pytest.fixture
def qclusters(transactional_db, tmp_path):
    """Factory: ``qclusters("a", RECMEM_Q_WORKERS="2", ...)`` starts a cluster; all are stopped at the end. The
    reaper and idle schedules are put back first: an earlier transactional test's flush removed what migrations
    created (as `recmem run` puts them back at its start)."""
    from memory.services.scheduling import maintenance_schedules_ensure

    maintenance_schedules_ensure()
    started: list[QCluster] = []

    def start(name: str = "q", **env: str) -> QCluster:
        cluster = QCluster(name, tmp_path / f"{name}.log", **env).start()
        started.append(cluster)
        return cluster

    yield start
    for cluster in started:
        cluster.stop()
        print(f"--- qcluster {cluster.name} (last 4000 characters) ---\n{cluster.output()[-4000:]}")


def wait_for(predicate, *, timeout: float, what: str, clusters=(), interval: float = 0.3):
    """Poll ``predicate`` until it returns a truthy value (returned); fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        for cluster in clusters:
            assert cluster.alive(), f"qcluster {cluster.name} exited:\n{cluster.output()[-3000:]}"
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
