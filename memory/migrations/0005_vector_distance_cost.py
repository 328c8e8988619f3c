"""Tell the planner what a cosine distance costs.

pgvector declares ``cosine_distance(vector, vector)`` with PostgreSQL's default COST 1 (one ``cpu_operator_cost``),
so an exact scan looks almost free next to the HNSW estimate, which grows with ``hnsw.ef_search``: on a 10k-exchange
store at ``ef_search`` 200 the planner chose an exact scan of the 5,000 visible rows (21 ms) over the index (3 ms).
Measured on that store (bench_scale): a distance on an exchange row, whose vector lies in TOAST, takes 2.3 µs
(0.36 µs when the vector is in the row) where one planner cost unit (a sequential page) takes ~1.1 µs: about
850 × ``cpu_operator_cost``. The exchange layer is where the choice matters, so that is the price. The HNSW estimate
does not use the function's cost, so only exact plans become dearer; a filter that admits a few hundred rows still
gets an exact scan.

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
    operations = [migrations.RunSQL(_cost(850), reverse_sql=_cost(1))]
