"""Keep embeddings inside the heap row (``STORAGE MAIN``) instead of PostgreSQL's default for ``vector`` (EXTENDED).

An exchange row (two texts, the embedded text form and a 1.5 kB vector) passes the 2 kB TOAST threshold, and with
EXTENDED the toaster moves the largest value out of line: the vector. Every exact distance then starts with a TOAST
fetch: bench_scale at 10k measured 2.3 µs per row against 0.1 µs inline, so an exact scan over 5,000 visible rows
took ~20 ms. With MAIN the texts are moved out first and the vector stays in the row unless the row cannot fit in a
page at all. HNSW scans read the index, not the heap, and are unaffected.

Only rows written from now on are stored this way; ``VACUUM FULL`` (or any rewrite) converts existing rows.
"""

from django.db import migrations

TABLES = ("memory_exchange", "memory_episode", "memory_experience")


def _storage(mode: str) -> list[str]:
    return [f"ALTER TABLE {table} ALTER COLUMN embedding SET STORAGE {mode}" for table in TABLES]


class Migration(migrations.Migration):
    dependencies = [("memory", "0003_idle_schedule")]
    operations = [migrations.RunSQL(_storage("MAIN"), reverse_sql=_storage("EXTENDED"))]
