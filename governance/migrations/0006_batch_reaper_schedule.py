"""The batch reaper (every minute) as a django-q2 schedule: it re-queues consolidation batches whose lease passed.

Here, beside the lease it reads (0005), rather than in memory's migrations; the task itself is memory's
(``memory.services.scheduling.REAPER_TICK_TASK``, checked by memory/tests/test_tasks.py).
"""

from django.db import migrations

NAME = "recmem:batch-reaper"
FUNC = "memory.tasks.batch_reaper_tick_task"


def create(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(name=NAME, defaults={"func": FUNC, "schedule_type": "I", "minutes": 1,
                                                           "repeats": -1})


def remove(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("governance", "0005_batch_lease_idempotency"), ("django_q", "0018_task_success_index")]
    operations = [migrations.RunPython(create, remove)]
