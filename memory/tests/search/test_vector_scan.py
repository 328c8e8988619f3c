"""Exact scan on small tables (memory/search/vector.py): the choice, the setting it leaves, the same answers."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from agents.services import agent_create
from memory.models import Exchange
from memory.search import vector as vectors
from memory.search.query import SearchQuery
from memory.search.selectors import memory_search
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create

pytestmark = pytest.mark.django_db

TEXTS = ["I adopted a kitten called Ash.", "The marathon is in September.", "My sister lives in Porto.",
         "We repainted the kitchen green.", "The dentist appointment moved to Friday.",
         "I am learning to play the cello.", "Our team ships the release on Monday."]


@pytest.fixture
def agent():
    agent = agent_create(project_name="scan", name="a")
    session = session_create(agent=agent, external_id="s")
    exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(user=t, assistant="Noted.") for t in TEXTS])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_exchange")  # planner statistics: reltuples known
    vectors.table_rows_forget()
    yield agent
    vectors.table_rows_forget()


def _indexscan() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW enable_indexscan")
        return cursor.fetchone()[0]


def test_small_table_is_scanned_exactly_and_large_one_keeps_hnsw(agent, settings):
    assert vectors.table_rows(Exchange) == len(TEXTS)
    with transaction.atomic():
        settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=len(TEXTS))
        assert vectors.exact_scan_set(Exchange) is True and _indexscan() == "off"
        settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=len(TEXTS) - 1)
        assert vectors.exact_scan_set(Exchange) is False and _indexscan() == "on"
    assert _indexscan() == "on"  # SET LOCAL: nothing leaks past the transaction


def test_tables_never_analysed_are_counted_up_to_the_limit(settings):
    from memory.models import Episode

    agent = agent_create(project_name="scan", name="fresh")
    session = session_create(agent=agent, external_id="s")
    exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(user=t, assistant="Noted.") for t in TEXTS])
    with connection.cursor() as cursor:
        # Never analysed: no planner estimate (reltuples -1), as in a young store before autovacuum's first pass.
        cursor.execute("UPDATE pg_class SET reltuples = -1 WHERE oid IN ('memory_exchange'::regclass, "
                       "'memory_episode'::regclass)")
    vectors.table_rows_forget()
    try:
        settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=3)
        assert vectors.table_rows(Exchange) == 4  # counted, but no further than the limit + 1
        assert vectors.table_rows(Episode) == 0
        with transaction.atomic():
            assert vectors.exact_scan_set(Exchange) is False and _indexscan() == "on"
            assert vectors.exact_scan_set(Episode) is True and _indexscan() == "off"
        vectors.table_rows_forget()
        settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=len(TEXTS))
        assert vectors.table_rows(Exchange) == len(TEXTS)
    finally:
        vectors.table_rows_forget()


def test_search_answers_the_same_exact_or_approximate(agent, settings):
    query = SearchQuery(query="what is the cat's name?")
    settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=10**6)
    exact = memory_search(agent=agent, query=query)
    settings.RECMEM = settings.RECMEM.replace(search__exact_max_rows=0)
    vectors.table_rows_forget()
    approximate = memory_search(agent=agent, query=query)
    assert [h.obj.pk for h in exact.exchanges] == [h.obj.pk for h in approximate.exchanges]
    assert "kitten called Ash" in exact.exchanges[0].obj.user_text


def _column_storage(table: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'embedding'",
                       [table])
        return cursor.fetchone()[0]


def test_vector_storage_and_distance_price():
    # 'm' (MAIN): the exactly scanned layers keep vectors in the row; 'e' (EXTERNAL, pgvector's): the HNSW-searched
    # exchange table keeps its rows small (migration 0004).
    assert {t: _column_storage(t) for t in ("memory_exchange", "memory_episode", "memory_experience")} == {
        "memory_exchange": "e", "memory_episode": "m", "memory_experience": "m"}
    with connection.cursor() as cursor:
        cursor.execute("SELECT procost FROM pg_proc WHERE oid = 'cosine_distance(vector, vector)'::regprocedure")
        assert cursor.fetchone()[0] == 850  # migration 0005; the test database's role owns the extension


def test_a_ten_thousand_row_store_is_searched_through_hnsw_at_the_default_ef(agent, settings):
    """The 10k regression the scale benchmark found: at ef_search 200 the planner priced an exact scan of 5,000 rows
    whose vectors lie in TOAST (~20 ms) below the HNSW walk (~3 ms). With the distance priced at its cost it keeps the
    index."""
    other = agent_create(project_name="scan", name="b")
    template = Exchange.objects.filter(project=agent.project).first()
    generated = {"id", "embedding", "turn_index", "owner_agent_id", "scope", "user_text", "assistant_text",
                 "text_form"}
    listed = ", ".join(f.column for f in Exchange._meta.concrete_fields
                       if f.column not in generated and not f.generated)  # search_vector: PostgreSQL computes it
    # Texts of LoCoMo length (~300 characters each, hardly compressible): with them a row passes the 2 kB TOAST
    # threshold and its vector is moved out of line, as in a real store.
    text = "(SELECT string_agg(md5(g::text || '-' || i::text), ' ') FROM generate_series(1, 9) AS i)"
    with connection.cursor() as cursor:
        # Building the index once after the load takes seconds; 10,000 inserts into it take half a minute.
        cursor.execute("SELECT pg_get_indexdef('exchange_embedding_hnsw'::regclass)")
        index_definition = cursor.fetchone()[0]
        cursor.execute("DROP INDEX exchange_embedding_hnsw")
        # Half of the rows are another agent's personal memory: the visibility filter admits 5,000 of 10,000.
        cursor.execute(
            f"INSERT INTO memory_exchange (id, embedding, turn_index, owner_agent_id, scope, user_text, "
            f"assistant_text, text_form, {listed}) "
            f"SELECT gen_random_uuid(), ARRAY(SELECT random() - 0.5 FROM generate_series(1, 384) WHERE g > 0)::vector,"
            f" 100 + g, CASE WHEN g %% 2 = 0 THEN %s ELSE %s END, CASE WHEN g %% 2 = 0 THEN 'personal' ELSE scope END,"
            f" {text}, {text}, {text}, {listed} "
            f"FROM memory_exchange, generate_series(1, 10000) AS g WHERE id = %s",
            [other.pk, agent.pk, template.pk])
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # Django's deferred FK checks block CREATE INDEX otherwise
        cursor.execute(index_definition)
        cursor.execute("ANALYZE memory_exchange")
    vectors.table_rows_forget()
    assert vectors.table_rows(Exchange) > settings.RECMEM.search.exact_max_rows

    from pgvector.django import CosineDistance

    from memory.gateways.embeddings import get_embedder

    vector = get_embedder().embed_one("what is the cat's name?")
    with transaction.atomic():
        vectors.vector_search_params(ef_search=vectors.search_ef(10))
        assert vectors.exact_scan_set(Exchange) is False
        qs = (Exchange.objects.visible_to(agent).select_related("session")
              .defer("embedding").annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[:30])
        sql, params = qs.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "exchange_embedding_hnsw" in plan, [line for line in plan.splitlines() if "Scan" in line]
    found = memory_search(agent=agent, query=SearchQuery(query="what is the cat's name?"))
    assert len(found.exchanges) == 10 and all(h.obj.owner_agent_id == agent.pk for h in found.exchanges)
