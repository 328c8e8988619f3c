"""A real django-q2 cluster process (not sync mode) picks up a task from the ORM broker and finishes it."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django_q.models import Task
from django_q.tasks import async_task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def qcluster(transactional_db):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
        "RECMEM_HOME": str(settings.RECMEM.home),
        "RECMEM_DB_NAME": connection.settings_dict["NAME"],  # the test database
        "RECMEM_Q_SYNC": "0",
        "RECMEM_Q_POLL": "0.1",
        "RECMEM_Q_WORKERS": "1",
    }
    proc = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    yield proc
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    print(out.decode(errors="replace")[-3000:])


@pytest.mark.integration
def test_real_qcluster_runs_a_task(qcluster):
    task_id = async_task("operator.add", 2, 3, sync=False)
    assert not Task.objects.filter(id=task_id).exists()  # queued, not run in-process
    deadline = time.monotonic() + 90
    task = None
    while time.monotonic() < deadline:
        task = Task.objects.filter(id=task_id).first()
        if task is not None:
            break
        assert qcluster.poll() is None, "qcluster exited"
        time.sleep(0.3)
    assert task is not None, "the cluster did not finish the task in time"
    assert task.success and task.result == 5
