import django.utils.timezone
from django.db import migrations, models


def anchor_existing_chains(apps, schema_editor):
    """Anchor each chain at its head as it stands (events written before the checkpoints existed)."""
    from governance.services.audit import audit_checkpoints_create

    audit_checkpoints_create(checkpoint_model=apps.get_model("governance", "AuditCheckpoint"),
                             event_model=apps.get_model("governance", "AuditEvent"))


class Migration(migrations.Migration):

    dependencies = [
        ('governance', '0010_allowed_terms'),
    ]

    operations = [
        migrations.CreateModel(
            name='AuditCheckpoint',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('chain', models.CharField(help_text="the project's id; empty: events without one", max_length=36, unique=True)),
                ('length', models.PositiveBigIntegerField(default=0)),
                ('head_hash', models.CharField(blank=True, default='', max_length=64)),
                ('signature', models.CharField(max_length=64)),
                ('updated_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.RunPython(anchor_existing_chains, migrations.RunPython.noop),
    ]
