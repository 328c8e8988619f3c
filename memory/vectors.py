"""pgvector query settings shared by every similarity query."""

from django.conf import settings
from django.db import connection


def vector_search_params(*, ef_search: int | None = None) -> None:
    """Filtered HNSW scans return too few rows unless iterative scan is on (pgvector ≥ 0.8); ``SET LOCAL`` only
    lasts for the current transaction, so call this inside the transaction that runs the query."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("SET LOCAL hnsw.ef_search = %s", [int(ef_search or settings.RECMEM_HNSW_EF_SEARCH)])
