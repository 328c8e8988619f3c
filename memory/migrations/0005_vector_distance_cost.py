"""Tell the planner what a cosine distance costs.

pgvector declares ``cosine_distance(vector, vector)`` with PostgreSQL's default COST 1 (one ``cpu_operator_cost``),
so an exact scan looks almost free next to the HNSW estimate, and at ``ef_search`` 400 the planner chose a 5,000-row
exact scan (18 ms) over the index (3 ms) on a 10k store. Measured on that store (bench_scale, inline vectors): one
384-dimensional distance takes ~0.36 µs where one planner cost unit (a sequential page) takes ~1 µs, i.e. about
150 × ``cpu_operator_cost``. The HNSW estimate does not use the function's cost, so only exact plans are affected.

On a server where the migrating role does not own the extension's functions (some managed services) the statement is
skipped with a notice: searches stay correct, only the planner's choice at high ``ef_search`` is less good.
"""

from django.db import migrations


def _cost(value: int) -> str:
    return f"""
DO $$
BEGIN
    ALTER FUNCTION cosine_distance(vector, vector) COST {value};
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'cosine_distance cost left unchanged: %', SQLERRM;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("memory", "0004_embedding_inline_storage")]
    operations = [migrations.RunSQL(_cost(150), reverse_sql=_cost(1))]
