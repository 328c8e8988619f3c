"""The idle-time consolidation tick (every minute) as a django-q2 schedule."""

from django.db import migrations

NAME = "recmem:idle-consolidation-tick"


def create(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.get_or_create(name=NAME, defaults={
        "func": "memory.tasks.idle_consolidation_tick_task", "schedule_type": "I", "minutes": 1, "repeats": -1})


def remove(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("memory", "0002_initial"), ("django_q", "0018_task_success_index")]
    operations = [migrations.RunPython(create, remove)]
