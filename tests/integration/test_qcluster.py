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
