"""ReviewItem arrives from governance: state only (table ``governance_reviewitem`` kept, no data moves); the
content type follows, so permissions granted on review items are kept."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from core.migration_ops import move_content_type


class Migration(migrations.Migration):
    dependencies = [
        ("agents", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("governance", "0003_reviewitem_to_memory"),
        ("memory", "0005_vector_distance_cost"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ReviewItem",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True,
                                                serialize=False)),
                        ("proposed_scope", models.CharField(default="project", max_length=16)),
                        ("proposed_statement", models.TextField()),
                        ("status", models.CharField(choices=[("pending", "Pending"), ("approved", "Approved"),
                                                             ("rejected", "Rejected")],
                                                    db_index=True, default="pending", max_length=16)),
                        ("evidence", models.JSONField(blank=True, default=list,
                                                      help_text="source exchanges (masked) at proposal time")),
                        ("similar", models.JSONField(blank=True, default=list,
                                                     help_text="similar existing project rules")),
                        ("corroborating_sessions", models.PositiveIntegerField(default=0)),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        ("decision_reason", models.TextField(blank=True, default="")),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ("approved_experience", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                            to="memory.experience")),
                        ("batch", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                            related_name="review_items", to="governance.consolidationbatch")),
                        ("decided_by", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                            to=settings.AUTH_USER_MODEL)),
                        ("experience", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE, related_name="review_items",
                            to="memory.experience")),
                        ("project", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE, related_name="+", to="agents.project")),
                    ],
                    options={"db_table": "governance_reviewitem", "ordering": ["status", "-created_at"]},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type("governance", "memory", "reviewitem"),
                             move_content_type("memory", "governance", "reviewitem")),
    ]
