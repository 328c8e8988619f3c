"""A real django-q2 cluster process (not sync mode) picks up a task from the ORM broker and finishes it."""

import pytest
from django_q.models import Task
from django_q.tasks import async_task

from tests.integration.conftest import wait_for


@pytest.mark.integration
def test_real_qcluster_runs_a_task(qclusters):
    cluster = qclusters()
    task_id = async_task("operator.add", 2, 3, sync=False)
    assert not Task.objects.filter(id=task_id).exists()  # queued, not run in-process
    task = wait_for(lambda: Task.objects.filter(id=task_id).first(), timeout=90, what="the task", clusters=[cluster])
    assert task.success and task.result == 5


@pytest.mark.integration
def test_a_real_qclusters_tasks_run_at_the_workers_lower_priority(qclusters):
    """RECMEM_WORKER_NICE (10): a task runs at nice 10 and, where the kernel groups by session, in an autogroup at
    nice 10, so the web server's requests get the cores first (core/priority.py)."""
    import os

    cluster = qclusters()
    nice_id = async_task("os.getpriority", os.PRIO_PROCESS, 0, sync=False)
    group_id = async_task("subprocess.check_output", ["cat", "/proc/self/autogroup"], sync=False)
    nice = wait_for(lambda: Task.objects.filter(id=nice_id).first(), timeout=90, what="the task", clusters=[cluster])
    assert nice.success and nice.result == 10
    group = wait_for(lambda: Task.objects.filter(id=group_id).first(), timeout=90, what="the task", clusters=[cluster])
    if os.path.exists("/proc/self/autogroup"):
        assert group.success and group.result.decode().strip().endswith("nice 10")
