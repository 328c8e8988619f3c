"""``source_agent`` on episodes and experiences: the one agent whose exchanges an item was drawn from (all-zero UUID:
several agents; NULL: no source). Kept by triggers on the source and evidence tables, so every write path keeps it
right; the search's rule on another agent's items (RECMEM_SEARCH_PEER_ITEMS=trusted) reads it instead of running
correlated subqueries on those tables for every row the vector and full-text scans visit."""

from django.db import migrations, models

_FIELD = dict(blank=True, editable=False, null=True,
              help_text="the one agent whose exchanges it was drawn from (all-zero: several; empty: none)")

# (item table, link table, link column)
_TABLES = (("memory_episode", "memory_episodesource", "episode_id"),
           ("memory_experience", "memory_experienceevidence", "experience_id"))


def _agent_of(link: str, column: str, item: str) -> str:
    return f"""(SELECT CASE count(DISTINCT x.owner_agent_id) WHEN 0 THEN NULL
                     WHEN 1 THEN min(x.owner_agent_id::text)::uuid
                     ELSE '00000000-0000-0000-0000-000000000000'::uuid END
              FROM {link} s JOIN memory_exchange x ON x.id = s.exchange_id WHERE s.{column} = {item})"""


_FLAG = "recmem.source_agent_write"  # set (transaction-local) only while a link trigger writes the column


def _forwards_sql() -> list[str]:
    sql = []
    for table, link, column in _TABLES:
        keep, guard = f"{table}_source_agent_keep", f"{table}_source_agent_guard"
        # Written only when it changes: an item's row carries an HNSW index, and adding evidence from the agent it
        # already has (the usual case) must not write a new row version.
        sql.append(f"""
CREATE FUNCTION {keep}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE agent uuid;
BEGIN
  PERFORM set_config('{_FLAG}', 'on', true);
  IF TG_OP <> 'DELETE' THEN
    agent := {_agent_of(link, column, f"NEW.{column}")};
    UPDATE {table} SET source_agent = agent WHERE id = NEW.{column} AND source_agent IS DISTINCT FROM agent;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    agent := {_agent_of(link, column, f"OLD.{column}")};
    UPDATE {table} SET source_agent = agent WHERE id = OLD.{column} AND source_agent IS DISTINCT FROM agent;
  END IF;
  PERFORM set_config('{_FLAG}', 'off', true);
  RETURN NULL;
END $$;""")
        sql.append(f"CREATE TRIGGER {keep} AFTER INSERT OR UPDATE OR DELETE ON {link} "
                   f"FOR EACH ROW EXECUTE FUNCTION {keep}();")
        # Nobody else writes it: an item saved whole from a copy read before its links were written (Django's
        # save() writes every column), restored from a version or imported keeps what the links say.
        sql.append(f"""
CREATE FUNCTION {guard}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.source_agent := NULL;  -- no link can point at a row not yet inserted
  ELSIF current_setting('{_FLAG}', true) IS DISTINCT FROM 'on' THEN
    NEW.source_agent := OLD.source_agent;
  END IF;
  RETURN NEW;
END $$;""")
        sql.append(f"CREATE TRIGGER {guard} BEFORE INSERT OR UPDATE ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION {guard}();")
        sql.append(f"SELECT set_config('{_FLAG}', 'on', true); "
                   f"UPDATE {table} t SET source_agent = {_agent_of(link, column, 't.id')}; "
                   f"SELECT set_config('{_FLAG}', 'off', true);")
    return sql


def _backwards_sql() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_source_agent_keep ON {link}; "
            f"DROP FUNCTION IF EXISTS {table}_source_agent_keep(); "
            f"DROP TRIGGER IF EXISTS {table}_source_agent_guard ON {table}; "
            f"DROP FUNCTION IF EXISTS {table}_source_agent_guard();" for table, link, _ in _TABLES]


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0028_episode_trust_never_corroborated"),
    ]

    operations = [
        migrations.AddField(model_name="episode", name="source_agent", field=models.UUIDField(**_FIELD)),
        migrations.AddField(model_name="experience", name="source_agent", field=models.UUIDField(**_FIELD)),
        migrations.RunSQL(_forwards_sql(), _backwards_sql()),
    ]
