"""Keep episode and experience embeddings inside the heap row (``STORAGE MAIN``; pgvector's default is EXTERNAL).

An episode with a long narrative (the extractive consolidator's run to ~500 tokens) passes the 2 kB TOAST threshold,
and with EXTERNAL the toaster moves the largest value out of line: the vector. Every exact distance then starts with
a TOAST fetch — 2.3 µs per row against 0.36 µs inline (bench_scale, 10k store) — and these two layers are the ones
scanned exactly (tables up to ``RECMEM_EXACT_SEARCH_MAX_ROWS``). With MAIN the texts are moved out first and the
vector stays in the row unless the row cannot fit in a page at all.

Exchanges keep EXTERNAL: their table is the one searched through HNSW at scale, where the walk checks the visibility
filter on heap rows, and inline vectors made those rows 2.4 times larger (100k store: 195 MB heap against 95 MB;
exchange query 11.9 against 10.6 ms median, search p95 61–66 against 59 ms).

Only rows written from now on are stored this way; ``VACUUM FULL`` (or any rewrite) converts existing rows.
"""

from django.db import migrations

TABLES = ("memory_episode", "memory_experience")


def _storage(mode: str) -> list[str]:
    return [f"ALTER TABLE {table} ALTER COLUMN embedding SET STORAGE {mode}" for table in TABLES]


class Migration(migrations.Migration):
    dependencies = [("memory", "0003_idle_schedule")]
    operations = [migrations.RunSQL(_storage("MAIN"), reverse_sql=_storage("EXTERNAL"))]
