"""Exact scan on small tables (memory/vectors.py): the choice, the setting it leaves, the same answers."""

from __future__ import annotations

import time

import pytest
from django.db import connection, transaction

from agents.services import agent_create
from memory import vectors
from memory.models import Exchange
from memory.selectors import SearchQuery, memory_search
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
        settings.RECMEM_EXACT_SEARCH_MAX_ROWS = len(TEXTS)
        assert vectors.exact_scan_set(Exchange) is True and _indexscan() == "off"
        settings.RECMEM_EXACT_SEARCH_MAX_ROWS = len(TEXTS) - 1
        assert vectors.exact_scan_set(Exchange) is False and _indexscan() == "on"
    assert _indexscan() == "on"  # SET LOCAL: nothing leaks past the transaction


def test_unknown_statistics_keep_the_index(settings):
    from memory.models import Episode

    settings.RECMEM_EXACT_SEARCH_MAX_ROWS = 10**9
    # reltuples is -1 until a table's first ANALYZE: a bulk-loaded table may be big, so the index stays.
    vectors._rows_cache[(connection.alias, Episode._meta.db_table)] = (-1.0, time.monotonic())
    try:
        with transaction.atomic():
            assert vectors.exact_scan_set(Episode) is False and _indexscan() == "on"
    finally:
        vectors.table_rows_forget()


def test_search_answers_the_same_exact_or_approximate(agent, settings):
    query = SearchQuery(query="what is the cat's name?")
    settings.RECMEM_EXACT_SEARCH_MAX_ROWS = 10**6
    exact = memory_search(agent=agent, query=query)
    settings.RECMEM_EXACT_SEARCH_MAX_ROWS = 0
    vectors.table_rows_forget()
    approximate = memory_search(agent=agent, query=query)
    assert [h.obj.pk for h in exact.exchanges] == [h.obj.pk for h in approximate.exchanges]
    assert "kitten called Ash" in exact.exchanges[0].obj.user_text
