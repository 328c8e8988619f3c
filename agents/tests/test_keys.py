import pytest
from django.db import connection

from agents.keys import key_generate, key_hash, key_matches, key_parse_prefix
from agents.models import ApiKey
from agents.services import api_key_create


def test_generated_key_has_prefix_and_verifies():
    raw, prefix = key_generate()
    assert raw.startswith(f"rmk_{prefix}_")
    assert key_parse_prefix(raw) == prefix
    assert key_matches(raw, key_hash(raw))
    assert not key_matches(raw + "x", key_hash(raw))


@pytest.mark.parametrize("bad", ["", "rmk_", "Bearer", "rmk_short_abc", "sk-1234567890", "rmk_abcdefgh_" + "!" * 43])
def test_malformed_keys_have_no_prefix(bad):
    assert key_parse_prefix(bad) is None


@pytest.mark.django_db
def test_raw_key_is_nowhere_in_the_database(make_agent):
    holder = make_agent()
    issued = api_key_create(agent=holder.agent, name="second")
    stored = ApiKey.objects.get(pk=issued.api_key.pk)
    assert stored.key_hash == key_hash(issued.raw_key)
    assert stored.prefix == key_parse_prefix(issued.raw_key)
    secret_part = issued.raw_key.split("_", 2)[2]
    # Scan every row of every table in the schema as text: neither the key nor its secret part may appear.
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = [row[0] for row in cursor.fetchall()]
        assert "agents_apikey" in tables
        for table in tables:
            cursor.execute(
                f'SELECT count(*) FROM "{table}" t WHERE t::text LIKE %s OR t::text LIKE %s',
                [f"%{issued.raw_key}%", f"%{secret_part}%"],
            )
            assert cursor.fetchone()[0] == 0, table
