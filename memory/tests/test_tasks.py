"""The task paths django-q2 stores are spelled once (memory.services.scheduling) and resolve to entry points."""

from django.utils.module_loading import import_string

from memory import tasks
from memory.services import scheduling


def test_task_paths_resolve_to_the_entry_points():
    assert import_string(scheduling.CONSOLIDATION_RUN_TASK) is tasks.consolidation_run_task
    assert import_string(scheduling.IDLE_TICK_TASK) is tasks.idle_consolidation_tick_task
    assert import_string(scheduling.REAPER_TICK_TASK) is tasks.batch_reaper_tick_task


def test_the_reaper_runs_every_minute(db):
    from django_q.models import Schedule

    schedule = Schedule.objects.get(name=scheduling.REAPER_SCHEDULE)  # created by governance migration 0006
    assert schedule.func == scheduling.REAPER_TICK_TASK
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == (Schedule.MINUTES, 1, -1)
    assert Schedule.objects.get(name=scheduling.IDLE_SCHEDULE).func == scheduling.IDLE_TICK_TASK
    assert scheduling.maintenance_schedules_ensure() == []  # both there
    schedule.delete()  # an operator deleted it in the admin: the next `recmem run` puts it back
    assert scheduling.maintenance_schedules_ensure() == [scheduling.REAPER_SCHEDULE]
    assert Schedule.objects.get(name=scheduling.REAPER_SCHEDULE).func == scheduling.REAPER_TICK_TASK
