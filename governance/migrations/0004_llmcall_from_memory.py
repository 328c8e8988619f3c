"""LLMCall arrives from memory: state only (table ``memory_llmcall`` kept, no data moves), content type follows."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

from core.migration_ops import move_content_type


class Migration(migrations.Migration):
    dependencies = [
        ("agents", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("governance", "0003_reviewitem_to_memory"),
        ("memory", "0007_llmcall_to_governance"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LLMCall",
                    fields=[
                        ("id", models.BigAutoField(primary_key=True, serialize=False)),
                        ("purpose", models.CharField(db_index=True, max_length=64)),
                        ("model", models.CharField(max_length=120)),
                        ("prompt_tokens", models.PositiveIntegerField(default=0)),
                        ("completion_tokens", models.PositiveIntegerField(default=0)),
                        ("tokens_source", models.CharField(default="api", max_length=16)),
                        ("latency_ms", models.FloatField(default=0)),
                        ("ok", models.BooleanField(default=True)),
                        ("error", models.TextField(blank=True, default="")),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ("batch", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="calls",
                            to="governance.consolidationbatch")),
                        ("project", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+",
                            to="agents.project")),
                    ],
                    options={"db_table": "memory_llmcall", "verbose_name": "LLM call", "ordering": ["-created_at"]},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type("memory", "governance", "llmcall"),
                             move_content_type("governance", "memory", "llmcall")),
    ]
