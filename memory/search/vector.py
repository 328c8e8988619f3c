"""pgvector query plans shared by every similarity query: iterative scan, ef_search, exact scan of small tables."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, models

from core.config import config

# Planner statistics are refreshed by autovacuum, not per query: a per-process copy a minute old is as good.
_ROWS_TTL_SECONDS = 60.0
_rows_cache: dict[tuple[str, str], tuple[float, float]] = {}


def vector_search_params(*, ef_search: int | None = None) -> None:
    """Filtered HNSW scans return too few rows unless iterative scan is on (pgvector ≥ 0.8); ``SET LOCAL`` only
    lasts for the current transaction, so call this inside the transaction that runs the query. Without
    ``ef_search``: the write path's value (``RECMEM_HNSW_EF_SEARCH_WRITE``); searches pass their own.

    Parallel plans are off for these queries: the planner leaves the distance out of a parallel sort's cost, so at
    high ``ef_search`` it picked a parallel exact scan over HNSW (bench_scale 10k, ef 600: 22 ms against 3 ms), and
    on a small machine the workers take the cores that concurrent requests need."""
    # One statement (set_config(..., true) is SET LOCAL): a round trip fewer on every ingest and search.
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                       "set_config('max_parallel_workers_per_gather', '0', true), "
                       "set_config('hnsw.ef_search', %s, true)",
                       [str(int(ef_search or config().search.hnsw_ef_search_write))])


def search_ef(k: int) -> int:
    """``hnsw.ef_search`` of a search whose layer budget is ``k``: the setting, but never below 3k (the over-fetch)."""
    return max(int(config().search.hnsw_ef_search), k * 3, 40)


def table_rows(model: type[models.Model]) -> float:
    """The planner's row estimate for ``model``'s table (``pg_class.reltuples``). Before the first ANALYZE there is
    none (-1): the rows are then counted, but only up to ``RECMEM_EXACT_SEARCH_MAX_ROWS`` + 1 — enough to choose the
    scan. (Left unknown, the choice fell to the planner, which on a young store picked HNSW or not depending on when
    autovacuum ran: flat top-25 recall on the quick LoCoMo subset moved between 0.773 and 0.794.)"""
    table = model._meta.db_table
    key = (connection.alias, table)
    now = time.monotonic()
    cached = _rows_cache.get(key)
    if cached is not None and now - cached[1] < _ROWS_TTL_SECONDS:
        return cached[0]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", [table])
        row = cursor.fetchone()
        rows = float(row[0]) if row and row[0] is not None else -1.0
        if rows < 0:
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"SELECT count(*) FROM (SELECT 1 FROM {quoted} LIMIT %s) AS sample",
                           [int(config().search.exact_max_rows) + 1])
            rows = float(cursor.fetchone()[0])
    _rows_cache[key] = (rows, now)
    return rows


def table_rows_forget() -> None:
    """Drop the cached row estimates (after an ANALYZE, so the next query sees the new statistics)."""
    _rows_cache.clear()


def exact_scan_set(model: type[models.Model], *, force: bool = False) -> bool:
    """Choose the scan for the next similarity query on ``model`` in this transaction, and say which.

    When the whole table holds at most ``RECMEM_EXACT_SEARCH_MAX_ROWS`` rows, the rows a filter admits are fewer
    still, and a sequential scan over them costs about what the HNSW walk costs while being exact; HNSW under a
    visibility filter can lose recall on such small, crowded sets (bench_scale at 100k: 0.84–0.90 for the 5k-row
    episode layer at ``ef_search`` 100).
    """
    exact = force or 0 <= table_rows(model) <= config().search.exact_max_rows
    with connection.cursor() as cursor:
        # The exact plan's own nodes on as well: a planner that counts disabled nodes (PostgreSQL 18) weighs a
        # disabled index scan against a disabled sort as equals, and then took the cheaper HNSW walk.
        cursor.execute("SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = on; "
                       "SET LOCAL enable_bitmapscan = on; SET LOCAL enable_sort = on" if exact
                       else "SET LOCAL enable_indexscan = on")
    return exact


@contextmanager
def nearest_scan(model: type[models.Model], *, ef_search: int | None = None,
                 exact: bool = False) -> Iterator[bool]:
    """The plan of one nearest-neighbour statement inside a longer transaction (ingest's recurrence check,
    consolidation's look-ups): iterative scan and ``ef_search``, the exact scan on a small table, then index scans
    back on for the transaction's other statements. Yields whether the scan is exact.

    ``exact=True`` always scans exactly: for a look-up whose filter admits few rows (one scope's rules, one agent's
    held exchanges) and whose answer must be complete. Under a filter, HNSW's iterative scan ends at
    ``hnsw.max_scan_tuples`` or when its memory passes ``work_mem`` (4 MB on a small machine), and on a large store,
    or one full of dead index entries, that can be before it reaches the filter's rows (seen in CI: the reviewer's
    closest rule not found).

    Left to the planner, the recurrence check of a young store walked HNSW under its visibility filter, and past the
    index's dead entries (a store whose writes were rolled back, or deleted) it found fewer neighbours than there
    were, so a topic that recurred did not ripen."""
    vector_search_params(ef_search=ef_search)
    exact = exact_scan_set(model, force=exact)
    try:
        yield exact
    finally:
        if exact:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_indexscan = on")


def hnsw_prewarm() -> dict[str, int]:
    """Load every HNSW index of the database into ``shared_buffers`` (``pg_prewarm``); index name → 8 kB blocks
    read. Searches walk these graphs at random: a page that is not in shared memory is a read, and at 200k exchanges
    the cold store's p95 was 3× the warm one's (bench_scale). Skipped with a log line where the extension cannot be
    created (an external server whose role may not): the server then warms up with the first searches."""
    import logging

    from django.db import DatabaseError, transaction

    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    except DatabaseError as exc:
        logging.getLogger(__name__).warning("pg_prewarm unavailable (%s); HNSW indexes not pre-warmed", exc)
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, pg_prewarm(c.oid) FROM pg_class c JOIN pg_am am ON am.oid = c.relam "
                       "WHERE c.relkind = 'i' AND am.amname = 'hnsw' ORDER BY c.relname")
        return {name: int(blocks) for name, blocks in cursor.fetchall()}
