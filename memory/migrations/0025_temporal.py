from django.db import migrations, models

# A superseded item ended where its successor began; when the successor does not start after it (it won on other
# grounds, or is undated) or is gone, the supersede itself (its last update) is the end.
FILL = """
UPDATE memory_experience AS old
SET valid_to = CASE
    WHEN new.id IS NOT NULL AND COALESCE(new.valid_from, new.created_at) > COALESCE(old.valid_from, old.created_at)
        THEN COALESCE(new.valid_from, new.created_at)
    ELSE GREATEST(old.updated_at, COALESCE(old.valid_from, old.created_at))
END
FROM memory_experience AS self
LEFT JOIN memory_experience AS new ON new.id = self.superseded_by_id
WHERE self.id = old.id AND old.status = 'superseded' AND old.valid_to IS NULL
"""


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0024_review_agent_change_proposals'),
    ]

    operations = [
        migrations.AddField(
            model_name='experience',
            name='valid_to',
            field=models.DateTimeField(blank=True, null=True),
        ),
        # Backwards the column goes away with the field: nothing to undo here.
        migrations.RunSQL(FILL, reverse_sql=migrations.RunSQL.noop),
    ]
