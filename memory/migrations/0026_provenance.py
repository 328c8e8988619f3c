"""Provenance and quarantine: the exchange's declared source (and tool), trust on episodes and experiences,
quarantine fields on the three layers, and the review queue's quarantine kind (its item may be an exchange or an
episode, so the experience link becomes optional). Reversible: going back deletes the quarantine review items
first (an item without an experience cannot stay)."""

import django.db.models.deletion
from django.db import migrations, models


def _reviewed_trust(apps, schema_editor):
    # A person approved these (the review queue is the only way to "verified"): the top trust level.
    Experience = apps.get_model("memory", "Experience")
    Experience.objects.filter(verified=True).update(trust="reviewed")


def _drop_quarantine_items(apps, schema_editor):
    ReviewItem = apps.get_model("memory", "ReviewItem")
    ReviewItem.objects.filter(experience__isnull=True).delete()
    # The deletes' deferred foreign-key checks fire now: the table is altered next, in this transaction.
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0025_temporal'),
    ]

    operations = [
        migrations.AddField(
            model_name='episode',
            name='quarantine_reason',
            field=models.CharField(blank=True, default='', help_text='why the detector flagged it (kept after a release)', max_length=300),
        ),
        migrations.AddField(
            model_name='episode',
            name='quarantined',
            field=models.BooleanField(db_index=True, default=False, help_text='held: instruction-like or exfiltrating text, until a reviewer releases it'),
        ),
        migrations.AddField(
            model_name='episode',
            name='trust',
            field=models.CharField(choices=[('reviewed', 'Reviewed'), ('corroborated', 'corroborated (≥ 2 agents)'), ('user', "one agent's user statements"), ('assistant', 'assistant statements'), ('tool', 'tool output')], default='user', help_text='what its evidence earns (memory/trust.py)', max_length=16),
        ),
        migrations.AddField(
            model_name='exchange',
            name='quarantine_reason',
            field=models.CharField(blank=True, default='', help_text='why the detector flagged it (kept after a release)', max_length=300),
        ),
        migrations.AddField(
            model_name='exchange',
            name='quarantined',
            field=models.BooleanField(db_index=True, default=False, help_text='held: instruction-like or exfiltrating text, until a reviewer releases it'),
        ),
        migrations.AddField(
            model_name='exchange',
            name='source',
            field=models.CharField(choices=[('conversation', 'conversation (user text said by the user, assistant text by the assistant)'), ('tool', 'tool output'), ('agent_note', 'agent note'), ('import', 'Import')], default='conversation', max_length=16),
        ),
        migrations.AddField(
            model_name='exchange',
            name='tool',
            field=models.CharField(blank=True, default='', help_text="source tool: the tool's name", max_length=100),
        ),
        migrations.AddField(
            model_name='experience',
            name='quarantine_reason',
            field=models.CharField(blank=True, default='', help_text='why the detector flagged it (kept after a release)', max_length=300),
        ),
        migrations.AddField(
            model_name='experience',
            name='quarantined',
            field=models.BooleanField(db_index=True, default=False, help_text='held: instruction-like or exfiltrating text, until a reviewer releases it'),
        ),
        migrations.AddField(
            model_name='experience',
            name='trust',
            field=models.CharField(choices=[('reviewed', 'Reviewed'), ('corroborated', 'corroborated (≥ 2 agents)'), ('user', "one agent's user statements"), ('assistant', 'assistant statements'), ('tool', 'tool output')], default='user', help_text='what its evidence earns (memory/trust.py)', max_length=16),
        ),
        migrations.AddField(
            model_name='reviewitem',
            name='episode',
            field=models.ForeignKey(blank=True, help_text='quarantine: the held episode', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='quarantine_items', to='memory.episode'),
        ),
        migrations.AddField(
            model_name='reviewitem',
            name='exchange',
            field=models.ForeignKey(blank=True, help_text='quarantine: the held exchange', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='quarantine_items', to='memory.exchange'),
        ),
        migrations.AlterField(
            model_name='reviewitem',
            name='experience',
            field=models.ForeignKey(blank=True, help_text='the item proposed (promotion) or the new, narrower item (conflict); quarantine: the held item, when it is an experience', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='review_items', to='memory.experience'),
        ),
        migrations.AlterField(
            model_name='reviewitem',
            name='kind',
            field=models.CharField(choices=[('promotion', 'Promotion'), ('conflict', 'Conflict'), ('change', 'change (proposed by an agent)'), ('deletion', 'deletion (proposed by an agent)'), ('quarantine', 'quarantine (held: instruction-like or exfiltrating text)')], db_index=True, default='promotion', max_length=16),
        ),
        migrations.AlterField(
            model_name='reviewitem',
            name='proposal_reason',
            field=models.TextField(blank=True, default='', help_text="change / deletion: the agent's reason (masked); quarantine: why the detector flagged it"),
        ),
        migrations.RunPython(_reviewed_trust, _drop_quarantine_items),
    ]
