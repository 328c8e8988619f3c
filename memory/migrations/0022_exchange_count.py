"""Exchange counts per project kept by statement triggers (memory.models.ExchangeCount): the quota check reads a few
rows instead of counting a project's exchanges on every ingest. Existing exchanges are counted once here."""

from django.db import migrations, models

SLOTS = 16  # memory.models.EXCHANGE_COUNT_SLOTS when this migration was written

FORWARD = f"""
CREATE FUNCTION memory_exchange_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- One row per (project, this session's slot): concurrent sessions rarely touch the same row.
    IF TG_OP = 'INSERT' THEN
        INSERT INTO memory_exchangecount (project_id, slot, exchanges)
        SELECT project_id, pg_backend_pid() % {SLOTS}, count(*) FROM new_rows GROUP BY project_id
        ON CONFLICT (project_id, slot) DO UPDATE SET exchanges = memory_exchangecount.exchanges + EXCLUDED.exchanges;
    ELSE
        INSERT INTO memory_exchangecount (project_id, slot, exchanges)
        SELECT project_id, pg_backend_pid() % {SLOTS}, -count(*) FROM old_rows GROUP BY project_id
        ON CONFLICT (project_id, slot) DO UPDATE SET exchanges = memory_exchangecount.exchanges + EXCLUDED.exchanges;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER memory_exchange_count_insert AFTER INSERT ON memory_exchange
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_exchange_count_add();
CREATE TRIGGER memory_exchange_count_delete AFTER DELETE ON memory_exchange
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_exchange_count_add();
CREATE FUNCTION memory_exchange_count_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memory_exchangecount WHERE project_id IN (SELECT id FROM old_rows);
    RETURN NULL;
END $$;
CREATE TRIGGER memory_exchange_count_project_delete AFTER DELETE ON agents_project
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_exchange_count_forget();
INSERT INTO memory_exchangecount (project_id, slot, exchanges)
    SELECT project_id, 0, count(*) FROM memory_exchange GROUP BY project_id;
"""

BACKWARD = """
DROP TRIGGER memory_exchange_count_project_delete ON agents_project;
DROP FUNCTION memory_exchange_count_forget();
DROP TRIGGER memory_exchange_count_delete ON memory_exchange;
DROP TRIGGER memory_exchange_count_insert ON memory_exchange;
DROP FUNCTION memory_exchange_count_add();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('agents', '0002_project_quotas_archive'),
        ('memory', '0021_hybrid_search'),
    ]

    operations = [
        migrations.CreateModel(
            name='ExchangeCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('project_id', models.UUIDField()),
                ('slot', models.SmallIntegerField()),
                ('exchanges', models.BigIntegerField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('project_id', 'slot'),
                                                        name='exchange_count_unique_slot')],
            },
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]
