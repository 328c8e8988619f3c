"""The pseudonym registry (keyed digests of pseudonymised values, no originals) and a project's phone region."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    # After the audit chain (0007, merged first): one line of governance migrations, no merge migration.
    dependencies = [
        ("agents", "0001_initial"),
        ("governance", "0007_audit_chain"),
    ]

    operations = [
        migrations.AddField(
            model_name="privacypolicy",
            name="phone_region",
            field=models.CharField(
                blank=True, default="", max_length=2,
                help_text="ISO 3166 region whose national phone formats are recognised without a country code (e.g. "
                          "US, DE); empty: RECMEM_PII_PHONE_REGION",
            ),
        ),
        migrations.CreateModel(
            name="PseudonymEntry",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("entity_type", models.CharField(max_length=64)),
                ("placeholder", models.CharField(max_length=120)),
                ("digest", models.CharField(
                    help_text="HMAC-SHA256 (hex) of type + normalised value, project key", max_length=64)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ("project", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="+", to="agents.project")),
            ],
            options={
                "verbose_name": "pseudonym registry entry",
                "verbose_name_plural": "pseudonym registry",
                "ordering": ["project", "placeholder"],
                "indexes": [models.Index(fields=["project", "placeholder"], name="pseudonym_placeholder_idx")],
                "constraints": [models.UniqueConstraint(fields=("project", "digest"), name="pseudonym_unique_digest")],
            },
        ),
    ]
