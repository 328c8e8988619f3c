"""Scale benchmark: bulk import, HTTP ingest, 3-layer search latency and HNSW recall at 10k / 100k / 1M exchanges.

What it does (``python manage.py bench_scale --exchanges 10000,100000``), for each size in ascending order on one
growing store (a new Project ``bench-scale-<id>``, deleted at the end unless ``keep_data``):

1. **Bulk import** up to the size through the real service (``exchanges_ingest`` with 200 exchanges per call and
   per session: masking, embedding, storing, recurrence trigger, audit). Texts are LoCoMo turns recombined: an
   exchange pairs two turns drawn at random (fixed seed) from the dev set, timestamps one minute apart. Four agents
   of one module write round-robin; every other session is module-scoped, the rest personal, so searches run
   through the real visibility filter. The recurrence trigger runs with the configured consolidation mode
   (default ``idle``: candidates are recorded, nothing is consolidated during the import).
   Embeddings: with ``embedding_cache`` the vectors of text forms already seen in an earlier run are read from
   ``bench/cache/embeddings/`` instead of being computed (the bench project's pseudonym key is fixed so masked
   texts, hence text forms, repeat across runs); the report counts how many vectors came from the cache, and the
   bulk-import rate is then not embedding-bound. New vectors are always appended to the cache.
2. **Episode and experience layers**: filled to realistic ratios and shapes: each bulk chunk is cut into topic
   groups of 20 exchanges (a seed and its 19 most similar exchanges of the chunk, ``topic_groups``); one episode per
   group, linked to its exchanges, titled and narrated from its members' user lines and embedded from that text
   as consolidation embeds an episode (a real encoding, also in the fast fill); two experiences per group, each a
   member's user line, with that line's vector. (An episode used to be the centroid of 20 random
   exchanges: at 1M such centroids were nearly identical, which no consolidated store looks like.)
3. **Search latency**: p50 / p95 / p99 of ``memory_search`` (10/5/10, query embedding included) over LoCoMo
   questions, after a warm-up; the query-embedding time alone and the pure vector part (``layers_nearest``: the
   three layers' SQL with the visibility filter, from a vector already computed) are reported beside it.
4. **HNSW recall**: per layer, the ids the search's vector query returns (same ``hnsw.ef_search``, iterative scan
   and small-table exact scan as ``memory_search``, over-fetch of max(3k, 30) re-sorted by distance) against the
   exact top-k computed by a sequential scan (``SET LOCAL enable_indexscan = off``), recall@k averaged over the
   queries; also at each ``ef_sweep`` value, with the search latency at that value (the trade-off table).
5. **HTTP ingest** through the real web server: gunicorn on 127.0.0.1 with a random port and a django-q2 worker
   (``manage.py qcluster``) started as subprocesses against the same database (as ``recmem run`` does); 1 and 4
   concurrent clients, one exchange per request and 20 per request; then one consolidation run is requested
   through the API so the worker does real work. Peak RSS of the web and worker process trees is sampled (sum of
   the tree's processes, and the largest single process, with the kernel's VmHWM where available).
6. **Embedding-only and masking-only rates** on the same texts (the two costs that bound bulk import on CPU).

Loopback only; every loop is bounded by the sizes and counts given.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.locomo import bench_project_name, percentile, project_delete
from bench.store import (
    BULK_BATCH,
    EPISODE_EVERY,
    CountingEmbedder,
    EmbeddingCache,
    MemoisingMasker,
    Store,
    TextSource,
    compose_fidelity,
    fill_to,
)
from core.config import config, config_override

# --------------------------------------------------------------------------------------------------------
# Search latency and HNSW recall.


class CpuClock:
    """CPU time and run-queue wait of this process (all threads: the embedder's included) and of its database
    backends, from the kernel's scheduler statistics (``/proc/<pid>/task/*/schedstat``: nanoseconds on a CPU, waiting
    for one). On a machine shared with other work the wall time of a query is its CPU time plus the time it waited for
    a core; both are reported so a latency can be judged apart from the load.

    Backends: every client connection to the benchmark's database when the clock starts — its own and those of the
    search threads (``RECMEM_SEARCH_THREADS``), which the warm-up searches opened; nothing else connects while the
    searches are timed."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                           "AND backend_type = 'client backend'")
            self.pids = (os.getpid(), *sorted(row[0] for row in cursor.fetchall()))

    @staticmethod
    def _read(pid: int) -> tuple[int, int]:
        cpu = wait = 0
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            return 0, 0
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as fh:
                    on_cpu, waiting, _ = fh.read().split()
            except (OSError, ValueError):
                continue
            cpu += int(on_cpu)
            wait += int(waiting)
        return cpu, wait

    def sample(self) -> tuple[int, int]:
        cpu = wait = 0
        for pid in self.pids:
            c, w = self._read(pid)
            cpu, wait = cpu + c, wait + w
        return cpu, wait


class scheduling_priority:  # noqa: N801 - used as a context manager, like contextlib's
    """Run the block with every thread of this process and its database backend at nice value ``nice`` (negative:
    ahead of other work; needs the privilege), then put the previous values back. Reports what it applied to.

    With the kernel's autogroups on (``/proc/sys/kernel/sched_autogroup_enabled``), the scheduler first shares the
    CPUs between sessions and a thread's nice value only counts inside its session: the nice value of the two
    sessions (this process's, the database server's) is then set as well (``/proc/<pid>/autogroup``)."""

    def __init__(self, nice: int) -> None:
        self.nice = nice
        self.before: dict[int, int] = {}
        self.groups_before: dict[int, int] = {}

    @staticmethod
    def _autogroup(pid: int) -> int | None:
        try:
            with open(f"/proc/{pid}/autogroup", encoding="ascii") as fh:
                return int(fh.read().split()[-1])
        except (OSError, ValueError, IndexError):
            return None

    def _set_autogroup(self, pid: int, nice: int) -> None:
        with open(f"/proc/{pid}/autogroup", "w", encoding="ascii") as fh:
            fh.write(str(nice))

    def __enter__(self) -> dict[str, Any]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        tids = [int(t) for t in os.listdir("/proc/self/task")] + [backend]
        for tid in tids:
            try:
                self.before[tid] = os.getpriority(os.PRIO_PROCESS, tid)
                os.setpriority(os.PRIO_PROCESS, tid, self.nice)
            except OSError as exc:
                self.__exit__()
                raise RuntimeError(f"cannot set nice {self.nice} on {tid}: {exc}") from exc
        autogroups = False
        try:
            with open("/proc/sys/kernel/sched_autogroup_enabled", encoding="ascii") as fh:
                autogroups = fh.read().strip() == "1"
        except OSError:
            pass
        if autogroups:
            for pid in (os.getpid(), backend):
                value = self._autogroup(pid)
                if value is None:
                    continue
                try:
                    self._set_autogroup(pid, self.nice)
                    self.groups_before[pid] = value
                except OSError as exc:
                    self.__exit__()
                    raise RuntimeError(f"cannot set the autogroup nice {self.nice} of {pid}: {exc}") from exc
        return {"nice": self.nice, "threads": len(tids) - 1, "backend_pid": backend,
                "autogroups": sorted(self.groups_before)}

    def __exit__(self, *exc: object) -> None:
        for tid, value in self.before.items():
            try:
                os.setpriority(os.PRIO_PROCESS, tid, value)
            except OSError:
                pass  # a thread that has ended
        for pid, value in self.groups_before.items():
            try:
                self._set_autogroup(pid, value)
            except OSError:
                pass


def masked_queries(store: Store, queries: list[str]) -> list[str]:
    """The texts a search sends: the API masks a query before it is embedded or searched (a name asked about is its
    stored placeholder, and so is the full-text half's term for it). Masking is done here, outside the timings."""
    from memory.search.services import search_query_mask

    return [search_query_mask(agent=store.searcher, query=q) for q in queries]


def search_latency(store: Store, queries: list[str], warmup: int = 10) -> dict[str, Any]:
    from memory.gateways.embeddings import get_embedder
    from memory.search.query import SearchQuery
    from memory.search.selectors import layers_nearest, memory_search

    embedder = get_embedder()
    queries = masked_queries(store, queries)
    for q in queries[:warmup]:
        memory_search(agent=store.searcher, query=SearchQuery(query=q))
    clock = CpuClock()
    latencies, embed_ms, sql_ms, sql_exchange_ms, hits = [], [], [], [], [0, 0, 0]
    exchanges_only = {"k_epi": 0, "k_sem": 0}  # a layer budget of 0 skips that layer's statements
    cpu_ms, wait_ms, sql_cpu_ms = [], [], []
    load_start = list(os.getloadavg())
    for q in queries:
        t = time.perf_counter()
        vector = embedder.embed_one(q)
        embed_ms.append((time.perf_counter() - t) * 1000)
        c0, _ = clock.sample()
        t = time.perf_counter()
        layers_nearest(agent=store.searcher, query=SearchQuery(query=q), vector=vector)
        sql_ms.append((time.perf_counter() - t) * 1000)
        c1, w1 = clock.sample()
        t = time.perf_counter()
        layers_nearest(agent=store.searcher, query=SearchQuery(query=q, **exchanges_only), vector=vector)
        sql_exchange_ms.append((time.perf_counter() - t) * 1000)
        c1, w1 = clock.sample()
        sql_cpu_ms.append((c1 - c0) / 1e6)
        t = time.perf_counter()
        result = memory_search(agent=store.searcher, query=SearchQuery(query=q))
        latencies.append((time.perf_counter() - t) * 1000)
        c2, w2 = clock.sample()
        cpu_ms.append((c2 - c1) / 1e6)
        wait_ms.append((w2 - w1) / 1e6)
        for i, layer in enumerate((result.exchanges, result.episodes, result.experiences)):
            hits[i] += len(layer)
    return {
        "queries": len(queries),
        "p50_ms": _r(percentile(latencies, 50)), "p95_ms": _r(percentile(latencies, 95)),
        "p99_ms": _r(percentile(latencies, 99)), "mean_ms": _r(sum(latencies) / len(latencies)),
        "query_embedding_p50_ms": _r(percentile(embed_ms, 50)),
        "query_embedding_p95_ms": _r(percentile(embed_ms, 95)),
        "sql_p50_ms": _r(percentile(sql_ms, 50)), "sql_p95_ms": _r(percentile(sql_ms, 95)),
        "sql_p99_ms": _r(percentile(sql_ms, 99)),
        # the exchange layer's statements alone (the 1M exchanges; the other layers are 5–10% of its size)
        "sql_exchanges_p50_ms": _r(percentile(sql_exchange_ms, 50)),
        "sql_exchanges_p95_ms": _r(percentile(sql_exchange_ms, 95)),
        "sql_exchanges_p99_ms": _r(percentile(sql_exchange_ms, 99)),
        "hits_per_query": [round(h / len(queries), 2) for h in hits],
        "budget": "k_sub=10, k_epi=5, k_sem=10",
        # CPU time of the search (this process + its database backend) and the time it waited for a core.
        "cpu_p50_ms": _r(percentile(cpu_ms, 50)), "cpu_p95_ms": _r(percentile(cpu_ms, 95)),
        "cpu_p99_ms": _r(percentile(cpu_ms, 99)), "runqueue_wait_p50_ms": _r(percentile(wait_ms, 50)),
        "runqueue_wait_p95_ms": _r(percentile(wait_ms, 95)),
        "sql_cpu_p50_ms": _r(percentile(sql_cpu_ms, 50)), "sql_cpu_p95_ms": _r(percentile(sql_cpu_ms, 95)),
        "sql_cpu_p99_ms": _r(percentile(sql_cpu_ms, 99)),
        "load_average_start": load_start, "load_average_end": list(os.getloadavg()),
    }


_SETTING = re.compile(r"^\s*(SELECT set_config\(|SET LOCAL )")
_TABLE = re.compile(r'FROM "(memory_\w+)"')


def _statement_kind(sql: str) -> str:
    """``<table>:ann`` (nearest by cosine), ``<table>:full-text`` (the lexical candidates) or ``other``."""
    table = _TABLE.search(sql)
    if "<=>" not in sql or table is None:
        return "other"
    # The nearest rows are ordered by distance alone; the lexical candidates by their score first (descending).
    lexical = " DESC" in sql.rsplit("ORDER BY", 1)[-1]
    return f"{table.group(1).removeprefix('memory_')}:{'full-text' if lexical else 'ann'}"


def search_floor(store: Store, queries: list[str], ef: int | None = None) -> dict[str, Any]:
    """The least a search could take on this machine (what the search latency goal is judged against): per question, the
    query embedding and every statement the search's retrieval sends, replayed as raw SQL one after the other on one
    connection (each under the scan settings it ran with), no row turned into an object. ``floor`` = embedding + max(the
    statements' sum ÷ the cores, the longest statement): a search whose Python cost nothing and whose statements shared
    the cores perfectly. What is left to the goal is then what no rewrite of the application can take off."""
    from django.db import connection, transaction

    from memory.gateways.embeddings import get_embedder
    from memory.search.query import SearchQuery
    from memory.search.selectors import layers_nearest

    embedder = get_embedder()
    queries = masked_queries(store, queries)
    cores = os.cpu_count() or 1
    by_kind: dict[str, list[float]] = {}
    embed_ms, sums, longest, floors = [], [], [], []
    for q in queries:
        t = time.perf_counter()
        vector = embedder.embed_one(q)
        embed_ms.append((time.perf_counter() - t) * 1000)
        captured: list[tuple[str, Any]] = []

        def capture(execute, sql, params, many, context, captured=captured):
            captured.append((sql, params))
            return execute(sql, params, many, context)

        # In turn on this connection, so that every statement passes through the wrapper.
        with config_override(search__threads=0, **({"search__hnsw_ef_search": ef} if ef else {})), \
                connection.execute_wrapper(capture):
            layers_nearest(agent=store.searcher, query=SearchQuery(query=q), vector=vector)
        times: list[float] = []
        settings: list[tuple[str, Any]] = []
        with connection.cursor() as cursor:
            for sql, params in captured:
                if _SETTING.match(sql):
                    settings.append((sql, params))  # SET LOCAL: replayed in the next statement's transaction
                    continue
                with transaction.atomic():
                    for s, p in settings:
                        cursor.execute(s, p)
                    t = time.perf_counter()
                    cursor.execute(sql, params)
                    cursor.fetchall()
                    ms = (time.perf_counter() - t) * 1000
                settings = []
                times.append(ms)
                by_kind.setdefault(_statement_kind(sql), []).append(ms)
        sums.append(sum(times))
        longest.append(max(times, default=0.0))
        floors.append(embed_ms[-1] + max(sums[-1] / cores, longest[-1]))

    def spread(values: list[float]) -> dict[str, float | None]:
        return {"p50_ms": _r(percentile(values, 50)), "p95_ms": _r(percentile(values, 95))}

    return {"queries": len(queries), "ef_search": ef or config().search.hnsw_ef_search, "cores": cores,
            "floor": spread(floors), "statements_sum": spread(sums), "longest_statement": spread(longest),
            "query_embedding": spread(embed_ms),
            "statements": {kind: {**spread(v), "per_search": round(len(v) / len(queries), 2)}
                           for kind, v in sorted(by_kind.items())}}


def _r(value: float | None) -> float | None:
    return round(value, 2) if value is not None else None


def hnsw_recall(store: Store, queries: list[str], ef_values: tuple[int, ...] = ()) -> dict[str, Any]:
    """Recall@k of the search's vector query against exact search, per layer, at the configured ``ef_search``
    and at each of ``ef_values`` (the trade-off the default is chosen from)."""
    from django.db import connection, transaction
    from pgvector.django import CosineDistance

    from memory.gateways.embeddings import get_embedder
    from memory.models import Episode, Exchange, Experience
    from memory.search.selectors import HIDDEN_STATUSES
    from memory.search.vector import exact_scan_set, search_ef, vector_search_params

    agent = store.searcher
    layers = {
        "exchanges": (lambda: Exchange.objects.visible_to(agent), 10),
        "episodes": (lambda: Episode.objects.visible_to(agent).exclude(status__in=HIDDEN_STATUSES), 5),
        "experiences": (lambda: Experience.objects.visible_to(agent).exclude(status__in=HIDDEN_STATUSES), 10),
    }
    configured = search_ef(10)
    efs = sorted({configured, *ef_values})
    vectors = get_embedder().embed(queries)

    scans: dict[str, str] = {}

    def ann(name: str, qs_fn, vector, fetch: int, ef: int) -> list[tuple[Any, float]]:
        # The search's own settings: iterative scan, ef_search, and the exact scan of small tables.
        with transaction.atomic():
            vector_search_params(ef_search=ef)
            qs = qs_fn()
            scans[name] = "exact (small table)" if exact_scan_set(qs.model) else "hnsw"
            return list(qs.annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
                        .values_list("id", "distance")[:fetch])

    out: dict[str, Any] = {}
    for name, (qs_fn, k) in layers.items():
        recalls: dict[int, list[float]] = {ef: [] for ef in efs}
        ann_ms: dict[int, list[float]] = {ef: [] for ef in efs}
        strict, exact_ms = [], []
        ties: dict[int, list[float]] = {ef: [] for ef in efs}
        near: dict[int, list[float]] = {ef: [] for ef in efs}
        gaps: list[float] = []
        fetch = max(k * 3, 30)
        for vector in vectors:
            t = time.perf_counter()
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL enable_indexscan = off")
                    cursor.execute("SET LOCAL enable_indexonlyscan = off")
                exact_rows = list(qs_fn().annotate(distance=CosineDistance("embedding", vector))
                                  .order_by("distance").values_list("id", "distance")[:3 * k])
            exact_ms.append((time.perf_counter() - t) * 1000)
            exact = [i for i, _ in exact_rows[:k]]
            if not exact:
                continue
            d_k = exact_rows[len(exact) - 1][1]
            # How crowded the neighbourhood is: the distance from the k-th to the 3k-th exact neighbour.
            gaps.append(exact_rows[-1][1] - d_k)
            for ef in efs:
                t = time.perf_counter()
                rows = ann(name, qs_fn, vector, fetch, ef)
                ann_ms[ef].append((time.perf_counter() - t) * 1000)
                top = sorted(rows, key=lambda r: r[1])[:k]
                recalls[ef].append(len({i for i, _ in top} & set(exact)) / len(exact))
                # Rows at the k-th exact distance are as good as the ones the id count expects (identical vectors
                # tie), and ann-benchmarks' ε-recall (ε = 0.01) counts rows within 1 % of that distance.
                ties[ef].append(sum(d <= d_k + 1e-6 for _, d in top) / len(exact))
                near[ef].append(sum(d <= d_k * 1.01 + 1e-6 for _, d in top) / len(exact))
                if ef == configured:
                    strict.append(len({i for i, _ in rows[:k]} & set(exact)) / len(exact))
        out[name] = {"k": k, "scan": scans.get(name), "recall_at_k": _r4(recalls[configured]),
                     "recall_at_k_ties": _r4(ties[configured]), "recall_at_k_eps_0_01": _r4(near[configured]),
                     "exact_gap_k_to_3k": _r4(gaps),
                     "recall_first_k_rows": _r4(strict),
                     "ann_p50_ms": _r(percentile(ann_ms[configured], 50)),
                     "exact_p50_ms": _r(percentile(exact_ms, 50)), "queries": len(strict),
                     "by_ef_search": {str(ef): {"recall_at_k": _r4(recalls[ef]), "recall_at_k_ties": _r4(ties[ef]),
                                                "recall_at_k_eps_0_01": _r4(near[ef]),
                                                "ann_p50_ms": _r(percentile(ann_ms[ef], 50))} for ef in efs}}
    out["ef_search"] = configured
    out["method"] = ("search's vector query (iterative scan relaxed_order, over-fetch max(3k,30), re-sorted; "
                     "tables of at most RECMEM_EXACT_SEARCH_MAX_ROWS rows scanned exactly, as the search does) vs "
                     "exact top-k by sequential scan (SET LOCAL enable_indexscan = off)")
    out["exact_search_max_rows"] = config().search.exact_max_rows
    return out


def _r4(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def halfvec_compare(store: Store, queries: list[str], ef: int | None = None) -> dict[str, Any]:
    """The exchange layer with a half-precision index beside the float one, in one run: an HNSW index on
    ``embedding::halfvec(384)`` (build time, size), then per query the float index's and the halfvec index's top-10
    under the visibility filter, interleaved, each against the exact float top-10 (recall) and timed."""
    from django.db import connection, transaction
    from django.db.models.expressions import RawSQL
    from pgvector.django import CosineDistance

    from memory.gateways.embeddings import get_embedder
    from memory.models import Exchange
    from memory.search.vector import search_ef, vector_search_params

    ef = ef or search_ef(10)
    dims = get_embedder().dimensions
    with connection.cursor() as cursor:
        t = time.perf_counter()
        cursor.execute(f"CREATE INDEX IF NOT EXISTS bench_exchange_halfvec_hnsw ON memory_exchange USING hnsw "
                       f"((embedding::halfvec({dims})) halfvec_cosine_ops) WITH (m = 16, ef_construction = 64)")
        build = round(time.perf_counter() - t, 1)
        cursor.execute("SELECT pg_relation_size('bench_exchange_halfvec_hnsw'), "
                       "pg_relation_size('exchange_embedding_hnsw')")
        half_size, float_size = cursor.fetchone()
        cursor.execute("SELECT pg_prewarm('bench_exchange_halfvec_hnsw')")
    agent = store.searcher
    fetch = 30
    recall: dict[str, list[float]] = {"float": [], "halfvec": []}
    timing: dict[str, list[float]] = {"float": [], "halfvec": []}
    try:
        for vector in get_embedder().embed(queries):
            literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL enable_indexscan = off")
                exact = set(Exchange.objects.visible_to(agent)
                            .annotate(distance=CosineDistance("embedding", vector))
                            .order_by("distance").values_list("id", flat=True)[:10])
            for kind in ("float", "halfvec"):
                distance = (CosineDistance("embedding", vector) if kind == "float" else
                            RawSQL(f"(embedding::halfvec({dims})) <=> %s::halfvec({dims})", [literal]))
                t = time.perf_counter()
                with transaction.atomic():
                    vector_search_params(ef_search=ef)
                    rows = list(Exchange.objects.visible_to(agent).annotate(distance=distance)
                                .order_by("distance").values_list("id", flat=True)[:fetch])
                timing[kind].append((time.perf_counter() - t) * 1000)
                recall[kind].append(len(set(rows[:10]) & exact) / max(len(exact), 1))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX IF EXISTS bench_exchange_halfvec_hnsw")
    mib = 1024 * 1024
    return {"ef_search": ef, "queries": len(queries),
            "halfvec_index_build_seconds": build, "halfvec_index_mib": round(half_size / mib, 1),
            "float_index_mib": round(float_size / mib, 1),
            **{f"{kind}_recall_at_10": _r4(recall[kind]) for kind in recall},
            **{f"{kind}_query_p50_ms": _r(percentile(timing[kind], 50)) for kind in timing},
            **{f"{kind}_query_p95_ms": _r(percentile(timing[kind], 95)) for kind in timing},
            "method": "exchange layer only, visibility filter and iterative scan as the search; recall of the top 10 "
                      "of 30 fetched against the exact float top-10; the two indexes queried alternately"}


# --------------------------------------------------------------------------------------------------------
# Indexes, sizes, memory.

HNSW_INDEXES = ("exchange_embedding_hnsw", "episode_embedding_hnsw", "experience_embedding_hnsw")
LAYER_TABLES = ("memory_exchange", "memory_episode", "memory_experience")


def hnsw_drop(names: tuple[str, ...] = HNSW_INDEXES) -> dict[str, str]:
    """Drop the HNSW indexes ``names`` (index name → its definition, to build it again after a bulk fill: one build
    is several times faster than maintaining the graph row by row, and its time is what ``index_build`` reports)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)", [list(names)])
        definitions = dict(cursor.fetchall())
        for name in definitions:
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
    return definitions


def hnsw_with(definition: str, m: int, ef_construction: int) -> str:
    """An HNSW index ``definition`` (``pg_indexes.indexdef``) with other graph parameters."""
    base = re.sub(r"\s+WITH\s*\([^)]*\)", "", definition, flags=re.IGNORECASE)
    return f"{base} WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"


def hnsw_build_memory_mb(rows: int, dims: int) -> int:
    """``maintenance_work_mem`` (MB) under which the HNSW graph of ``rows`` vectors fits while it is built (pgvector
    builds several times faster in memory, and warns when the graph stops fitting): each element holds its vector and
    its neighbour lists (m = 16: 32 on layer 0), ~1 kB beside the vector; capped at a quarter of the machine."""
    from recmem_site.embedded_db import machine_memory_bytes

    need = rows * (dims * 4 + 1024) * 1.2 / (1024 * 1024)
    return int(max(64, min(need, machine_memory_bytes() / 4 / (1024 * 1024))))


def vacuum_analyze() -> float:
    """VACUUM ANALYZE the three layers after a bulk fill (visibility map and hint bits set once, statistics fresh)."""
    from django.db import connection

    t = time.perf_counter()
    with connection.cursor() as cursor:
        for table in LAYER_TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")
    return round(time.perf_counter() - t, 1)


def hnsw_build(definitions: dict[str, str], parallel_workers: int = 2) -> dict[str, Any]:
    """Build the dropped indexes again, timing each: ``maintenance_work_mem`` raised for this session where the
    server's is smaller than the largest graph (``hnsw_build_memory_mb``), ``parallel_workers`` maintenance workers."""
    from django.db import connection

    from memory.models import EMBEDDING_DIMENSIONS

    out: dict[str, Any] = {}
    with connection.cursor() as cursor:
        rows = 0
        for table in LAYER_TABLES:
            cursor.execute(f"SELECT count(*) FROM {table}")
            rows = max(rows, cursor.fetchone()[0])
        cursor.execute("SELECT pg_size_bytes(current_setting('maintenance_work_mem')) / (1024 * 1024)")
        server_mb = int(cursor.fetchone()[0])
        wanted = hnsw_build_memory_mb(rows, EMBEDDING_DIMENSIONS)
        if wanted > server_mb:
            cursor.execute(f"SET maintenance_work_mem = '{wanted}MB'")
        cursor.execute(f"SET max_parallel_maintenance_workers = {int(parallel_workers)}")
        out["server_maintenance_work_mem_mb"] = server_mb
        for name, definition in definitions.items():
            t = time.perf_counter()
            cursor.execute(definition)
            out[name] = round(time.perf_counter() - t, 1)
        cursor.execute("SHOW maintenance_work_mem")
        out["maintenance_work_mem"] = cursor.fetchone()[0]
        cursor.execute("SHOW max_parallel_maintenance_workers")
        out["max_parallel_maintenance_workers"] = int(cursor.fetchone()[0])
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET max_parallel_maintenance_workers")
    return out


def storage_sizes() -> dict[str, Any]:
    """MiB of each layer's table (heap + TOAST) and of its HNSW index."""
    from django.db import connection

    mib = 1024 * 1024
    out: dict[str, Any] = {}
    with connection.cursor() as cursor:
        for table in LAYER_TABLES:
            cursor.execute("SELECT pg_table_size(to_regclass(%s))", [table])
            out[f"{table}_mib"] = round((cursor.fetchone()[0] or 0) / mib, 1)
        for index in HNSW_INDEXES:
            cursor.execute("SELECT pg_relation_size(to_regclass(%s))", [index])
            out[f"{index}_mib"] = round((cursor.fetchone()[0] or 0) / mib, 1)
    return out


def server_memory() -> dict[str, Any]:
    """The database server's memory settings and its processes' proportional set size (shared buffers counted
    once), and this process's peak RSS."""
    import psutil
    from django.db import connection

    out: dict[str, Any] = {}
    with connection.cursor() as cursor:
        for name in ("shared_buffers", "effective_cache_size", "maintenance_work_mem", "work_mem"):
            cursor.execute(f"SHOW {name}")
            out[name] = cursor.fetchone()[0]
        cursor.execute("SELECT pg_backend_pid()")
        backend = psutil.Process(cursor.fetchone()[0])
    try:
        root = backend.parent()
        pss = sum(_pss(p.pid) for p in [root, *root.children()])
        out["postgres_pss_mib"] = round(pss / (1024 * 1024), 1)
    except psutil.Error:  # an external server: not ours to measure
        pass
    out["bench_process_peak_rss_mib"] = round(_vm_hwm(os.getpid()) / (1024 * 1024), 1)
    return out


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


# --------------------------------------------------------------------------------------------------------
# Component rates.


def _process_cpu() -> float:
    """CPU seconds of this process, every thread (the embedder's pool included)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def component_rates(source: TextSource, n: int = 1000) -> dict[str, Any]:
    """Embedding-only and masking-only throughput on the same kind of texts (one process), and their CPU.

    The embedder gets what the API embeds: the unit forms of the *masked* turns (a placeholder such as
    ``<PERSON_7b0410>`` is ~8 tokens where the name was 1–2: 10 % more tokens here). Until session 11 the
    unmasked forms were embedded, a cheaper text than the API's; their rate is still reported
    (``embedding_raw_forms_per_second``) so older bounds can be compared."""
    from governance.privacy.engine import MaskingPolicy, mask_many
    from memory.gateways.embeddings import get_embedder
    from memory.textform import unit_text_form

    texts = [source.exchange(10**9 + i) for i in range(n)]
    policy = MaskingPolicy.default()
    raw = [x for u, a, _ in texts for x in (u, a)]
    mask_many(raw[:4], policy=policy, key=b"k" * 32)
    masked: list[str] = []
    c, t = _process_cpu(), time.perf_counter()
    for i in range(0, len(raw), 2 * BULK_BATCH):
        masked += [m.text for m in mask_many(raw[i:i + 2 * BULK_BATCH], policy=policy, key=b"k" * 32)]
    mask_s, mask_cpu = time.perf_counter() - t, _process_cpu() - c
    forms = [unit_text_form(occurred_at=w, user=masked[2 * i], assistant=masked[2 * i + 1])
             for i, (_, _, w) in enumerate(texts)]
    raw_forms = [unit_text_form(occurred_at=w, user=u, assistant=a) for u, a, w in texts]
    embedder = get_embedder()
    embedder.embed(forms[:8])
    c, t = _process_cpu(), time.perf_counter()
    embedder.embed(forms)
    embed_s, embed_cpu = time.perf_counter() - t, _process_cpu() - c
    t = time.perf_counter()
    embedder.embed(raw_forms)
    raw_s = time.perf_counter() - t
    return {"texts": n, "embedding_only_per_second": round(n / embed_s, 1),
            "embedding_raw_forms_per_second": round(n / raw_s, 1),
            "embedding_cpu_ms_per_text": round(embed_cpu * 1000 / n, 2),
            "masking_only_exchanges_per_second": round(n / mask_s, 1),
            "masking_cpu_ms_per_exchange": round(mask_cpu * 1000 / n, 2), "embedding_batch": embedder.batch_size,
            "embedder": embedder.model_id,
            "torch_threads": _torch_threads(), "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", ""),
            "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "")}


def _torch_threads() -> int | None:
    try:
        import torch

        return torch.get_num_threads()
    except ImportError:  # pragma: no cover
        return None


# --------------------------------------------------------------------------------------------------------
# Web server + worker, HTTP clients, RSS.


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Services:
    """gunicorn + qcluster subprocesses on the configured database (as ``recmem run`` starts them)."""

    def __init__(self, *, log_dir: Path, consolidation_mode: str, workers: int | None = None,
                 threads: int | None = None, env: dict[str, str] | None = None) -> None:
        from django.conf import settings
        from django.db import connection

        self.port = free_port()
        self.log_dir = log_dir
        log_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                                      "recmem_site.settings.base"),
               "RECMEM_HOME": str(config().home), "RECMEM_DB_NAME": connection.settings_dict["NAME"],
               "RECMEM_Q_SYNC": "0", "RECMEM_CONSOLIDATION_MODE": consolidation_mode, "RECMEM_LLM_BASE_URL": "",
               "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
               # Throughput is measured here, not the limiter: every client is 127.0.0.1.
               "RECMEM_RATE_IP": "off", "RECMEM_RATE_AGENT": "off", **(env or {})}
        python = sys.executable
        base = Path(settings.BASE_DIR)
        # As `recmem run` starts it (recmem_site.cli.web_command): its gunicorn settings and warm-up hooks.
        web = [python, "-m", "gunicorn", "recmem_site.wsgi:application", "-c", "python:recmem_site.gunicorn_conf",
               "--bind", f"127.0.0.1:{self.port}",
               "--workers", str(workers or config().server.workers),
               "--threads", str(threads or config().server.threads),
               "--access-logfile", str(log_dir / "access.log"), "--error-logfile", str(log_dir / "web.log")]
        worker = [python, str(base / "manage.py"), "qcluster"]
        self.web_workers = workers or config().server.workers
        self.web_threads = threads or config().server.threads
        self.procs: dict[str, subprocess.Popen] = {}
        connection.close()
        for name, cmd in (("web", web), ("worker", worker)):
            out = open(log_dir / f"{name}.out", "ab")  # noqa: SIM115 - lives as long as the child
            self.procs[name] = subprocess.Popen(cmd, env=env, cwd=base, stdout=out, stderr=subprocess.STDOUT,
                                                start_new_session=True)

    def wait_healthy(self, timeout: float = 180) -> None:
        """Until ready as `recmem run` means it: the web worker and every queue worker warm. (The queue workers load
        their models as they start, ~12 s of CPU on two cores: measured before they finish, an HTTP run shared the
        cores with that load.)"""
        from recmem_site.cli import ready

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}; see {self.log_dir}")
            try:
                _, body = http_request(self.port, "GET", "/healthz", None, None)
                if ready(body if isinstance(body, dict) else None, queue_workers=config().queue.workers):
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"web server and queue workers not ready after {timeout:.0f}s; see {self.log_dir}")

    def wait_settled(self, timeout: float = 600, window: float = 2.0) -> dict[str, float]:
        """Until the queue has nothing due: no schedule whose time has come, no queued task, and the worker idle for
        ``window`` seconds (under 5 % of a core). A freshly started cluster fires the schedules that came due while
        it was down; on a store just bulk-filled, the hourly governance metrics embed every new user text once more
        (~20 s of CPU at 2,000 exchanges): measured during it, an HTTP run shared the cores with a pass a serving
        system makes once an hour, for an hour's exchanges. Returns the wait and the worker's CPU meanwhile."""
        from django.utils import timezone
        from django_q.models import OrmQ, Schedule

        started, cpu_start = time.monotonic(), self.cpu_seconds()["worker"]
        previous = cpu_start
        while time.monotonic() - started < timeout:
            time.sleep(window)
            now_cpu = self.cpu_seconds()["worker"]
            due = Schedule.objects.filter(next_run__lte=timezone.now()).exclude(repeats=0).exists()
            if not due and not OrmQ.objects.exists() and now_cpu - previous < 0.05 * window:
                break
            previous = now_cpu
        return {"seconds": round(time.monotonic() - started, 1),
                "worker_cpu_seconds": round(self.cpu_seconds()["worker"] - cpu_start, 1)}

    def cpu_seconds(self) -> dict[str, float | None]:
        """CPU seconds so far of the web server, the queue worker (each a process group: a worker and its children)
        and the database server (the postmaster and its backends; None for a server not on this machine), children
        already reaped included: the difference of two samples is what a run cost each of them."""
        totals: dict[str, float | None] = {name: 0.0 for name in self.procs}
        postmaster = _postmaster_pid()
        totals["database"] = None if postmaster is None else 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        groups = {proc.pid: name for name, proc in self.procs.items()}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid, group = int(entry), int(fields[1]), int(fields[2])
            name = groups.get(group)
            if name is None and postmaster is not None and postmaster in (pid, ppid):
                name = "database"
            if name is not None:
                # utime + stime + the reaped children's cutime + cstime
                totals[name] += sum(int(v) for v in fields[11:15]) / ticks
        return totals

    def stop(self) -> None:
        for _name, proc in self.procs.items():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _name, proc in self.procs.items():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _postmaster_pid() -> int | None:
    """The database server's postmaster, when it runs on this machine (its ``postmaster.pid`` is readable)."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW data_directory")
            directory = cursor.fetchone()[0]
        with open(Path(directory) / "postmaster.pid", encoding="ascii") as fh:
            pid = int(fh.readline())
        os.kill(pid, 0)
        return pid
    except Exception:  # noqa: BLE001 - a remote or unreadable server: its CPU is not measured
        return None


def http_request(port: int, method: str, path: str, body: Any, key: str | None,
                 conn: http.client.HTTPConnection | None = None) -> tuple[int, Any]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = data[:200]
        return response.status, parsed
    finally:
        if own:
            conn.close()


class RssSampler:
    """Samples the RSS of process trees (root + descendants) every ``interval`` seconds in a thread."""

    def __init__(self, roots: dict[str, int], interval: float = 0.25) -> None:
        self.roots = roots
        self.interval = interval
        self.peak_tree: dict[str, int] = dict.fromkeys(roots, 0)
        self.peak_process: dict[str, int] = dict.fromkeys(roots, 0)
        self.hwm: dict[str, int] = dict.fromkeys(roots, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import psutil

        while not self._stop.is_set():
            for name, pid in self.roots.items():
                try:
                    root = psutil.Process(pid)
                    procs = [root, *root.children(recursive=True)]
                except psutil.Error:
                    continue
                total = 0
                for p in procs:
                    try:
                        rss = p.memory_info().rss
                    except psutil.Error:
                        continue
                    total += rss
                    self.peak_process[name] = max(self.peak_process[name], rss)
                    self.hwm[name] = max(self.hwm[name], _vm_hwm(p.pid))
                self.peak_tree[name] = max(self.peak_tree[name], total)
            self._stop.wait(self.interval)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def report(self) -> dict[str, Any]:
        mib = 1024 * 1024
        return {name: {"peak_tree_rss_mib": round(self.peak_tree[name] / mib, 1),
                       "peak_process_rss_mib": round(self.peak_process[name] / mib, 1),
                       "peak_process_vmhwm_mib": round(self.hwm[name] / mib, 1)} for name in self.roots}


def _vm_hwm(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def http_ingest(*, port: int, keys: list[str], source: TextSource, offset: int, total: int, clients: int,
                per_request: int, cpu: Callable[[], dict[str, float | None]] | None = None) -> dict[str, Any]:
    """``clients`` threads post ``total`` exchanges (``per_request`` per request), each to its own session. With
    ``cpu`` (:meth:`Services.cpu_seconds`): the CPU each server process spent per exchange, and the clients' (this
    process)."""
    errors: list[str] = []
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = total // clients

    def client(c: int) -> None:
        key = keys[c % len(keys)]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            status, body = http_request(port, "POST", "/api/v1/sessions",
                                        {"external_id": f"http-{uuid.uuid4().hex[:10]}"}, key, conn)
            if status != 201:
                errors.append(f"session: {status} {body}")
                return
            session = body["id"]
            base = offset + c * per_client
            for start in range(0, per_client, per_request):
                items = []
                for i in range(base + start, base + min(start + per_request, per_client)):
                    user, assistant, when = source.exchange(i)
                    items.append({"user": user, "assistant": assistant, "occurred_at": when.isoformat()})
                body = items[0] if per_request == 1 else {"exchanges": items}
                t = time.perf_counter()
                status, reply = http_request(port, "POST", f"/api/v1/sessions/{session}/exchanges", body, key, conn)
                with lock:
                    latencies.append((time.perf_counter() - t) * 1000)
                if status != 201:
                    with lock:
                        errors.append(f"{status} {str(reply)[:200]}")
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    load_start = list(os.getloadavg())
    cpu_start = {**(cpu() if cpu else {}), "clients": _process_cpu()}
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    done = per_client * clients
    cpu_end = {**(cpu() if cpu else {}), "clients": _process_cpu()}
    cpu_ms = {name: round((cpu_end[name] - before) * 1000 / done, 2) if done and before is not None else None
              for name, before in cpu_start.items()}
    return {"clients": clients, "exchanges_per_request": per_request, "exchanges": done,
            "cpu_ms_per_exchange": cpu_ms,
            "seconds": round(elapsed, 2), "exchanges_per_second": round(done / elapsed, 1) if elapsed else None,
            "request_p50_ms": _r(percentile(latencies, 50)), "request_p95_ms": _r(percentile(latencies, 95)),
            "errors": len(errors), "first_errors": errors[:3],
            "load_average_start": load_start, "load_average_end": list(os.getloadavg())}


def http_phase(*, services: Services, store: Store, source: TextSource, offset: int, n_single: int,
               n_batch: int, log: Callable[[str], None], clients_list: tuple[int, ...] = (1, 4),
               consolidate: bool = True) -> tuple[dict[str, Any], int]:
    """HTTP ingest runs (each client count of ``clients_list``, 1 and 20 exchanges per request) + one consolidation
    via the API."""
    from agents.services import api_key_create

    keys = [api_key_create(agent=a, name="bench-http").raw_key for a in store.agents]
    # Warm-up: every gunicorn worker loads the masking engine and the embedding model on its first requests.
    warm = http_ingest(port=services.port, keys=keys, source=source, offset=offset, total=4 * 8, clients=4,
                       per_request=1)
    offset += warm["exchanges"]
    settled = services.wait_settled()
    log(f"    queue settled before the runs: {settled}")
    runs = []
    plan = [(c, per_request, total) for per_request, total in ((1, n_single), (20, n_batch)) for c in clients_list]
    for clients, per_request, total in plan:
        total = max(clients * per_request, total - total % (clients * per_request))
        r = http_ingest(port=services.port, keys=keys, source=source, offset=offset, total=total, clients=clients,
                        per_request=per_request, cpu=services.cpu_seconds)
        offset += r["exchanges"]
        runs.append(r)
        log(f"    HTTP ingest {clients} client(s) × {per_request}/request: {r['exchanges_per_second']} exchanges/s "
            f"(p50 {r['request_p50_ms']} ms, errors {r['errors']})")
    # Give the worker real work: consolidate the pending candidates of one writer (extractive: no endpoint).
    consolidation = request_consolidation(services=services, store=store, key=keys[0]) if consolidate else None
    log(f"    consolidation via API: {consolidation}")
    return {"warmup_exchanges": warm["exchanges"], "settled": settled, "runs": runs,
            "consolidation": consolidation}, offset


def worker_priority_ab(*, store: Store, source: TextSource, offset: int, pairs: int, consolidation_mode: str,
                       log: Callable[[str], None], backlog: int = 3000) -> tuple[list[dict[str, Any]], int]:
    """HTTP ingest (4 clients × 20 per request) while the queue worker runs a governance-metrics pass, with the worker
    at nice 0 and at the configured ``RECMEM_WORKER_NICE``, alternating: what background work costs the
    requests at each priority. The pass has work: the repetition checks of the ``backlog`` newest exchanges are
    dropped before it, so it embeds their user texts again (as the hourly pass does for an hour's new exchanges)."""
    from django_q.models import OrmQ
    from django_q.tasks import async_task

    from agents.services import api_key_create
    from memory.models import RepetitionCheck

    keys = [api_key_create(agent=a, name="bench-nice").raw_key for a in store.agents]
    configured = config().queue.nice
    runs = []
    for nice in [0, configured] * pairs:
        services = Services(log_dir=Path(config().home) / "logs" / "bench-scale-nice",
                            consolidation_mode=consolidation_mode, env={"RECMEM_WORKER_NICE": str(nice)})
        try:
            services.wait_healthy()
            http_ingest(port=services.port, keys=keys, source=source, offset=offset, total=32, clients=4,
                        per_request=1)
            offset += 32
            settled = services.wait_settled()
            newest = RepetitionCheck.objects.filter(exchange__project=store.project).order_by("-checked_at")
            RepetitionCheck.objects.filter(pk__in=list(newest.values_list("pk", flat=True)[:backlog])).delete()
            async_task("memory.tasks.governance_metrics_task", sync=False)
            time.sleep(3)  # the worker picks the task up and starts embedding
            r = http_ingest(port=services.port, keys=keys, source=source, offset=offset, total=800, clients=4,
                            per_request=20, cpu=services.cpu_seconds)
            offset += r["exchanges"]
            runs.append({"worker_nice": nice, "settled": settled, **r})
            log(f"    HTTP ingest 4 × 20 during a metrics pass, worker nice {nice}: {r['exchanges_per_second']} "
                f"exchanges/s, CPU per exchange {r['cpu_ms_per_exchange']}")
        finally:
            services.stop()
            OrmQ.objects.all().delete()  # the pass the stop cut short would be redelivered to the next cluster
    return runs, offset


def request_consolidation(*, services: Services, store: Store, key: str, timeout: float = 300) -> dict[str, Any]:
    from governance.models import ConsolidationBatch

    agent = store.agents[0]
    before = set(ConsolidationBatch.objects.filter(agent=agent).values_list("id", flat=True))
    status, body = http_request(services.port, "POST", "/api/v1/consolidations/run", None, key)
    if status != 202 or not (body or {}).get("queued"):
        return {"queued": False, "status": status, "reply": body}
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        batch = ConsolidationBatch.objects.filter(agent=agent).exclude(id__in=before).order_by("-created_at").first()
        if batch is not None and batch.status in ("succeeded", "failed"):
            return {"queued": True, "pending_candidates": body.get("pending_candidates"), "status": batch.status,
                    "consolidator": batch.consolidator, "seconds": round(time.monotonic() - started, 1),
                    "exchanges": len((batch.summary or {}).get("exchanges", []))}
        time.sleep(1)
    return {"queued": True, "status": "timeout", "seconds": timeout}


# --------------------------------------------------------------------------------------------------------
# The run.


def run_scale(*, sizes: list[int], data: Path, queries: int = 200, recall_queries: int = 100,
              http: bool = True, http_single: int = 200, http_batch: int = 800, embedding_cache: bool = False,
              cache_dir: Path | None = None, consolidation_mode: str = "idle", keep_data: bool = False,
              fast_fill: bool = False, ef_sweep: tuple[int, ...] = (100, 300), component_texts: int = 1000,
              project: str | None = None, build_index_after: bool = False, halfvec: bool = False,
              web_layouts: tuple[tuple[int, int], ...] = (), http_clients: tuple[int, ...] = (1, 4),
              bulk_copy: bool = False, search_nice: int | None = None, text_bank: str = "locomo-turns",
              exchange_hnsw: tuple[int, int] | None = None, worker_nice_ab: int = 0,
              log: Callable[[str], None] = print) -> dict[str, Any]:
    from django.conf import settings
    from django.db import connection

    from memory.gateways.embeddings import get_embedder
    from memory.search.vector import hnsw_prewarm, search_ef, table_rows_forget

    sizes = sorted(set(sizes))
    source = TextSource(data, bank=text_bank)
    project_name = project or bench_project_name("scale")
    keep_data = keep_data or project is not None  # a store kept on purpose stays
    cache_dir = cache_dir or Path(settings.BASE_DIR) / "bench" / "cache" / "embeddings"
    inner = get_embedder()
    cache = EmbeddingCache(cache_dir, inner.model_id)
    # The fast fill and the COPY fill always start from the cached real vectors.
    read_cache = embedding_cache or fast_fill or bulk_copy
    embedder = CountingEmbedder(inner, cache, read_cache=read_cache, compose=fast_fill)
    report: dict[str, Any] = {
        "benchmark": "scale", "project": project_name, "embedding_model": inner.model_id,
        "embedding_cache": {"read": read_cache, "dir": str(cache.dir), "entries_at_start": len(cache)},
        "fast_fill": fast_fill, "bulk_copy": bulk_copy, "text_bank": {"name": text_bank, "lines": len(source.turns)},
        "exchange_hnsw": ({"m": exchange_hnsw[0], "ef_construction": exchange_hnsw[1]} if exchange_hnsw
                          else "as migrated (m 16, ef_construction 64)"),
        "consolidation_mode_during_import": consolidation_mode, "cpus": os.cpu_count(),
        "search_threads": config().search.threads,
        "load_average_start": list(os.getloadavg()), "sizes": [],
        "text_source": (f"{'LoCoMo dev turns' if text_bank == 'locomo-turns' else 'the shared datasets distinct lines'}"
                        f" ({len(source.turns):,}) recombined in pairs (seeded), timestamps one minute apart"),
        "layers": f"synthetic: per topic group of {EPISODE_EVERY} similar exchanges (topic_groups) 1 episode linked "
                  f"to them, embedded from its title and narrative, and 2 experiences (a member's user line)",
    }
    log(f"scale benchmark: sizes {sizes}, project {project_name}, embedder {inner.model_id}, "
        f"cache {'read+write' if read_cache else 'write only'} ({len(cache)} entries)")
    started = time.perf_counter()
    services = None
    offset_http = 10**8  # HTTP texts never collide with bulk texts
    with config_override(consolidation__mode=consolidation_mode):
        try:
            report["components"] = component_rates(source, n=component_texts)
            log(f"  components: {report['components']}")
            store = Store(project_name, existing=project is not None)
            report["resumed_from"] = store.count if project else None
            if fast_fill or bulk_copy:
                report["fast_fill_fidelity"] = compose_fidelity(source, embedder, store, n=min(300, component_texts))
                log(f"  fast fill: composed vs real vectors {report['fast_fill_fidelity']}")
            layouts = web_layouts or ((config().server.workers, config().server.threads),)
            if http:
                report["web"] = {"workers": layouts[0][0], "threads": layouts[0][1], "layouts": list(layouts)}
            query_texts = source.queries(queries)
            recall_texts = source.queries(recall_queries)
            composed_before = 0
            bank = None
            for size in sizes:
                log(f"  size {size}: bulk import from {store.count}")
                entry: dict[str, Any] = {"size": size, "load_average_start": list(os.getloadavg())}
                masker = MemoisingMasker() if fast_fill and not bulk_copy else None
                growing = store.count < size
                definitions = hnsw_drop() if (build_index_after or bulk_copy) and growing else {}
                if exchange_hnsw:
                    # Another graph for the exchange layer (the m / ef_construction trade-off: build time and size
                    # against recall), built after the fill; on a kept store that does not grow, the exchange index
                    # alone is built again.
                    definitions = definitions or hnsw_drop(("exchange_embedding_hnsw",))
                    definitions["exchange_embedding_hnsw"] = hnsw_with(definitions["exchange_embedding_hnsw"],
                                                                      *exchange_hnsw)
                if bulk_copy:
                    from bench.bulkfill import TurnBank, fill_copy

                    if bank is None and growing:
                        bank = TurnBank(source=source, store=store, embedder=embedder, log=log)
                        report["turn_bank"] = bank.report()
                    entry["bulk_import"] = (fill_copy(store=store, source=source, target=size, bank=bank,
                                                      embedder=embedder, log=log) if growing
                                            else {"exchanges": 0, "seconds": 0.0, "exchanges_per_second": None})
                    if growing:
                        entry["vacuum_analyze_seconds"] = vacuum_analyze()
                else:
                    entry["bulk_import"] = fill_to(store, source, size, embedder, log, masker=masker)
                if definitions:
                    log("    building the HNSW indexes ...")
                    entry["index_build_seconds"] = hnsw_build(definitions)
                    log(f"    index build: {entry['index_build_seconds']}")
                if masker is not None:
                    entry["bulk_import"]["masking"] = dict(masker.counts)
                entry["bulk_import"].setdefault("embeddings_composed", embedder.composed - composed_before)
                composed_before = embedder.composed
                log(f"    bulk import: {entry['bulk_import']}")
                connection.close()
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE memory_exchange")
                    cursor.execute("ANALYZE memory_episode")
                    cursor.execute("ANALYZE memory_experience")
                table_rows_forget()  # the search decides exact vs HNSW on these statistics
                entry["storage"] = storage_sizes()
                t = time.perf_counter()
                entry["prewarm"] = {"blocks": hnsw_prewarm(), "seconds": round(time.perf_counter() - t, 1)}
                log(f"    storage: {entry['storage']}; pre-warmed in {entry['prewarm']['seconds']} s")
                entry["search"] = search_latency(store, query_texts)
                log(f"    search: {entry['search']}")
                # The same searches with the layers' statements in turn on one connection (RECMEM_SEARCH_THREADS=0):
                # what running them side by side gains, measured in the same run.
                with config_override(search__threads=0):
                    in_turn = search_latency(store, query_texts)
                entry["search"]["in_turn"] = {k: in_turn[k] for k in (
                    "p50_ms", "p95_ms", "p99_ms", "sql_p50_ms", "sql_p95_ms", "sql_exchanges_p50_ms",
                    "sql_exchanges_p95_ms")}
                log(f"    search, layers in turn: {entry['search']['in_turn']}")
                if search_nice is not None:
                    # The same searches with this process and its backend ahead of the machine's other work: what
                    # the latency is when a search gets a core as it needs one (the load is the other engineers').
                    with scheduling_priority(search_nice) as applied:
                        entry["search_prioritised"] = {**search_latency(store, query_texts), **applied}
                    log(f"    search at nice {search_nice}: {entry['search_prioritised']}")
                # The same latency at the other ef_search values of the sweep: the cost side of the recall table.
                entry["search"]["by_ef_search"] = {}
                for ef in ef_sweep:
                    with config_override(search__hnsw_ef_search=ef):
                        timing = search_latency(store, query_texts)
                        entry["search"]["by_ef_search"][str(search_ef(10))] = {
                            k: timing[k] for k in ("p50_ms", "p95_ms", "p99_ms", "sql_p50_ms", "sql_p95_ms",
                                                   "cpu_p50_ms", "cpu_p95_ms", "sql_cpu_p95_ms",
                                                   "runqueue_wait_p95_ms")}
                # The least a search could take here, at each ef_search (the latency goal is judged against it).
                entry["search"]["floor"] = {str(ef): search_floor(store, query_texts, ef)
                                            for ef in (config().search.hnsw_ef_search, *ef_sweep)}
                # And without the full-text half (vector search only, RECMEM_SEARCH_LEXICAL_WEIGHT=0): what dropping
                # the hybrid search would leave.
                with config_override(search__lexical_weight=0.0):
                    entry["search"]["floor_vector_only"] = {str(ef): search_floor(store, query_texts, ef)
                                                            for ef in (config().search.hnsw_ef_search, *ef_sweep)}
                log(f"    search floor: {entry['search']['floor']}")
                log(f"    search floor, vector only: {entry['search']['floor_vector_only']}")
                log(f"    search by ef_search: {entry['search']['by_ef_search']}")
                entry["hnsw_recall"] = hnsw_recall(store, recall_texts, ef_values=ef_sweep)
                recall = {k: v["recall_at_k"] for k, v in entry["hnsw_recall"].items() if isinstance(v, dict)}
                log(f"    HNSW recall@k: {recall}")
                if halfvec:
                    entry["halfvec"] = halfvec_compare(store, recall_texts)
                    log(f"    halfvec beside float: {entry['halfvec']}")
                if http:
                    # Each web layout (gunicorn processes × threads) in turn on the same store: one process
                    # holding one copy of each model for all threads, or one copy per process.
                    entry["http_layouts"] = []
                    for n, (workers, threads) in enumerate(layouts):
                        log(f"    web server: {workers} process(es) × {threads} threads")
                        services = Services(log_dir=Path(config().home) / "logs" / "bench-scale",
                                            consolidation_mode=consolidation_mode, workers=workers, threads=threads)
                        try:
                            services.wait_healthy()
                            with RssSampler({"web": services.procs["web"].pid,
                                             "worker": services.procs["worker"].pid}) as sampler:
                                result, offset_http = http_phase(
                                    services=services, store=store, source=source, offset=offset_http,
                                    n_single=http_single, n_batch=http_batch, log=log, clients_list=http_clients,
                                    consolidate=n == 0)
                        finally:
                            services.stop()
                            services = None
                        entry["http_layouts"].append({"workers": workers, "threads": threads, "http": result,
                                                      "rss": sampler.report()})
                        log(f"    RSS: {entry['http_layouts'][-1]['rss']}")
                    entry["http"], entry["rss"] = entry["http_layouts"][0]["http"], entry["http_layouts"][0]["rss"]
                    if worker_nice_ab:
                        entry["worker_nice_ab"], offset_http = worker_priority_ab(
                            store=store, source=source, offset=offset_http, pairs=worker_nice_ab,
                            consolidation_mode=consolidation_mode, log=log)
                entry["store"] = store_counts(project_name)
                entry["memory"] = server_memory()
                entry["load_average_end"] = list(os.getloadavg())
                log(f"    memory: {entry['memory']}")
                report["sizes"].append(entry)
            if http:
                # Measured again after the HTTP runs: on a shared machine the load moves between the two, and the
                # API rates are judged against the bound of both ends (the summary divides by their mean).
                report["components_end"] = component_rates(source, n=component_texts)
                log(f"  components after the HTTP runs: {report['components_end']}")
        finally:
            if services is not None:
                services.stop()
            cache.flush()
            if not keep_data:
                log("  deleting the bench project ...")
                project_delete(project_name)
    report["embedding_cache"]["entries_at_end"] = len(cache)
    report["embedding_cache"]["computed"] = embedder.computed
    report["embedding_cache"]["from_cache"] = embedder.cached
    report["embedding_cache"]["composed"] = embedder.composed
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    report["load_average_end"] = list(os.getloadavg())
    return report


def store_counts(project_name: str) -> dict[str, int]:
    from memory.models import Candidate, Episode, Exchange, Experience

    return {"exchanges": Exchange.objects.filter(project__name=project_name).count(),
            "episodes": Episode.objects.filter(project__name=project_name).count(),
            "experiences": Experience.objects.filter(project__name=project_name).count(),
            "candidates": Candidate.objects.filter(project__name=project_name).count()}
