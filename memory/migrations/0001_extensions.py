"""PostgreSQL prerequisites: the pgvector extension and the shared cache table (django-q2 cluster stats)."""

from django.core.management import call_command
from django.db import migrations
from pgvector.django import VectorExtension


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS recmem_cache")


class Migration(migrations.Migration):
    initial = True
    dependencies = []

    operations = [
        VectorExtension(),
        migrations.RunPython(create_cache_table, drop_cache_table),
    ]
