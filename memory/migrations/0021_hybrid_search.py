"""Hybrid search (vectors alone ranked chit-chat above the exchange that answers): a stored tsvector per row of the
three layers (computed by PostgreSQL from the row's text, placeholders as single terms: memory/search/lexical.py) with a
GIN index each, and the informativeness of each experience, filled for the rows written before."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models

import memory.search.lexical


def informativeness_fill(apps, schema_editor):
    from memory.informativeness import informativeness

    Experience = apps.get_model("memory", "Experience")
    for row in Experience.objects.only("id", "statement").iterator(chunk_size=1000):
        Experience.objects.filter(pk=row.pk).update(informativeness=informativeness(row.statement))



class Migration(migrations.Migration):

    dependencies = [
        ('agents', '0002_project_quotas_archive'),
        ('governance', '0009_metric_day'),
        ('memory', '0020_replay_lifecycle'),
    ]

    operations = [
        migrations.AddField(
            model_name='episode',
            name='search_vector',
            field=models.GeneratedField(db_persist=True, expression=memory.search.lexical.LexicalVector('title', 'narrative'), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddField(
            model_name='exchange',
            name='search_vector',
            field=models.GeneratedField(db_persist=True, expression=memory.search.lexical.LexicalVector('user_text', 'assistant_text'), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddField(
            model_name='experience',
            name='informativeness',
            field=models.FloatField(default=0.5),
        ),
        migrations.AddField(
            model_name='experience',
            name='search_vector',
            field=models.GeneratedField(db_persist=True, expression=memory.search.lexical.LexicalVector('statement'), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name='episode',
            index=django.contrib.postgres.indexes.GinIndex(fields=['search_vector'], name='episode_search_gin'),
        ),
        migrations.AddIndex(
            model_name='exchange',
            index=django.contrib.postgres.indexes.GinIndex(fields=['search_vector'], name='exchange_search_gin'),
        ),
        migrations.AddIndex(
            model_name='experience',
            index=django.contrib.postgres.indexes.GinIndex(fields=['search_vector'], name='experience_search_gin'),
        ),
        migrations.RunPython(informativeness_fill, migrations.RunPython.noop),
    ]
