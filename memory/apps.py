from django.apps import AppConfig


class MemoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "memory"
    verbose_name = "Memory"

    def ready(self) -> None:
        from django_q.signals import post_spawn, pre_execute

        from memory.warmup import on_queue_task_start, on_queue_worker_spawn

        # Each django-q worker process loads its models as it starts; its first task waits for that (memory/warmup.py).
        post_spawn.connect(on_queue_worker_spawn, dispatch_uid="recmem-warm-queue-worker")
        pre_execute.connect(on_queue_task_start, dispatch_uid="recmem-warm-queue-task")
