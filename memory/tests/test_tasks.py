"""The task paths django-q2 stores are spelled once (memory.services.scheduling) and resolve to entry points."""

from django.utils.module_loading import import_string

from memory import tasks
from memory.services import scheduling


def test_task_paths_resolve_to_the_entry_points():
    assert import_string(scheduling.CONSOLIDATION_RUN_TASK) is tasks.consolidation_run_task
    assert import_string(scheduling.IDLE_TICK_TASK) is tasks.idle_consolidation_tick_task
