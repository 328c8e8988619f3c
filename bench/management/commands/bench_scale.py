"""Scale benchmark: bulk and HTTP ingest rates, 3-layer search latency, HNSW recall, peak RSS.

    python manage.py bench_scale --exchanges 10000,100000 --json bench/results/scale.json
    python manage.py bench_scale --exchanges 1000000 --embedding-cache   # long; reuses cached vectors

Writes into a new project ``bench-scale-<id>`` of the configured database (deleted at the end unless
``--keep-data``); starts gunicorn and a qcluster worker on 127.0.0.1 (random port) against the same database for
the HTTP part. See bench/scale.py for what is measured and how.

For 1M exchanges (hours, embedding-bound without ``--embedding-cache``) use a dedicated database
(``RECMEM_DB_NAME=recmem_bench_scale``) with ``--keep-data`` and drop it afterwards, as ``bench.run`` does:
deleting a project of that size through the ORM is slow.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.management import migrate_if_needed
from bench.management.commands.bench_locomo import default_data_path
from bench.store import TEXT_BANKS


def _sizes(value: str) -> list[int]:
    try:
        sizes = [int(float(v)) for v in value.replace("_", "").split(",") if v.strip()]
    except ValueError as exc:
        raise CommandError(f"--exchanges: not a list of integers: {value!r}") from exc
    if not sizes or min(sizes) <= 0:
        raise CommandError("--exchanges needs positive sizes")
    return sizes


def _graph(value: str | None) -> tuple[int, int] | None:
    """``--exchange-hnsw M,EF_CONSTRUCTION`` within pgvector's bounds (m 2–100, ef_construction 4–1000, ≥ 2m)."""
    if not value:
        return None
    try:
        m, ef_construction = (int(v) for v in value.split(","))
    except ValueError as exc:
        raise CommandError(f"--exchange-hnsw: expected M,EF_CONSTRUCTION, got {value!r}") from exc
    if not (2 <= m <= 100 and 4 <= ef_construction <= 1000 and ef_construction >= 2 * m):
        raise CommandError("--exchange-hnsw: m 2-100, ef_construction 4-1000 and at least 2m")
    return m, ef_construction


def _layouts(value: str) -> tuple[tuple[int, int], ...]:
    layouts = []
    for item in (v.strip() for v in value.split(",") if v.strip()):
        try:
            workers, threads = (int(x) for x in item.lower().split("x"))
        except ValueError as exc:
            raise CommandError(f"--web-layouts: expected PROCESSESxTHREADS, got {item!r}") from exc
        if workers <= 0 or threads <= 0:
            raise CommandError("--web-layouts needs positive numbers")
        layouts.append((workers, threads))
    return tuple(layouts)


class Command(BaseCommand):
    help = "Bulk import + HTTP ingest + search latency + HNSW recall at the given store sizes."

    def add_arguments(self, parser):
        parser.add_argument("--exchanges", default="10000", help="store sizes, e.g. 10000,100000,1000000")
        parser.add_argument("--data", default=None, help="LoCoMo-format JSON whose turns are recombined")
        parser.add_argument("--queries", type=int, default=200, help="search queries per size (latency)")
        parser.add_argument("--recall-queries", type=int, default=100, help="queries per size for HNSW recall")
        parser.add_argument("--http-single", type=int, default=200,
                            help="exchanges posted one per request, per client count (1 and 4 clients)")
        parser.add_argument("--http-batch", type=int, default=800,
                            help="exchanges posted 20 per request, per client count")
        parser.add_argument("--component-texts", type=int, default=1000,
                            help="texts of the embedding-only and masking-only rate measurement")
        parser.add_argument("--search-nice", type=int, default=None,
                            help="also time the searches with this process and its database backend at this nice "
                                 "value (e.g. -10; needs the privilege): the latency when a search gets a core as "
                                 "it needs one on a machine busy with other work")
        parser.add_argument("--no-http", action="store_true", help="skip the web server / HTTP ingest part")
        parser.add_argument("--web-layouts", default="",
                            help="gunicorn processes x threads to measure in turn, e.g. 2x4,1x8 (default: the "
                                 "configured RECMEM_WEB_WORKERS x RECMEM_WEB_THREADS)")
        parser.add_argument("--http-clients", default="1,4", help="concurrent HTTP clients, e.g. 1,4,8")
        parser.add_argument("--embedding-cache", action="store_true",
                            help="reuse vectors cached by earlier runs under bench/cache/embeddings/")
        parser.add_argument("--fast-fill", action="store_true",
                            help="for 1M: memoise masking per turn and compose vectors missing from the cache from "
                                 "turn vectors (reported; the bulk-import rate is then not a real-ingest rate)")
        parser.add_argument("--bulk-copy", action="store_true",
                            help="for 1M: write the store with COPY (texts masked once per turn, exchange vectors "
                                 "composed from real turn-line vectors, real episode vectors; bench/bulkfill.py), "
                                 "HNSW indexes built once after the fill")
        parser.add_argument("--ef-sweep", default="100,300",
                            help="extra hnsw.ef_search values at which HNSW recall is also measured")
        parser.add_argument("--consolidation-mode", default="idle", choices=["idle", "online", "off"],
                            help="consolidation mode while importing (default idle: the trigger runs, no LLM)")
        parser.add_argument("--build-index-after", action="store_true",
                            help="drop the HNSW indexes before each bulk fill and build them after it, timed "
                                 "(index build time; a bulk fill without the graph to maintain is faster)")
        parser.add_argument("--halfvec", action="store_true",
                            help="also measure the exchange layer through a halfvec HNSW index built beside the "
                                 "float one (recall, latency, size, build time), then drop it")
        parser.add_argument("--text-bank", default="locomo-turns", choices=list(TEXT_BANKS),
                            help="lines recombined into exchanges: LoCoMo's turns, or every distinct line of the "
                                 "shared datasets (~4x more: smaller crowds of near-ties at 1M)")
        parser.add_argument("--exchange-hnsw", default=None, metavar="M,EF_CONSTRUCTION",
                            help="build the exchange layer's HNSW index with these graph parameters after the fill "
                                 "(a kept store: rebuilt), e.g. 32,128; default: as migrated (16,64)")
        parser.add_argument("--worker-nice-ab", type=int, default=0, metavar="PAIRS",
                            help="after the HTTP runs: 4 clients × 20 per request during a governance-metrics pass of "
                                 "the queue worker, worker at nice 0 and at RECMEM_WORKER_NICE, PAIRS times")
        parser.add_argument("--keep-data", action="store_true")
        parser.add_argument("--project", default=None,
                            help="continue the store of an earlier --keep-data run (its project name, printed at "
                                 "the start): re-measure it, or grow it to larger sizes; it is kept")
        parser.add_argument("--json", dest="json_out", default=None)

    def handle(self, *args, **opts):
        from bench.scale import run_scale

        # SIGTERM (a time limit, an operator) unwinds like Ctrl-C, so the web server and worker started for the
        # HTTP phase are stopped by run_scale's cleanup instead of being left running.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

        # The arguments first: a wrong one is reported before any data is looked for or migrated.
        if opts["worker_nice_ab"] < 0 or (opts["worker_nice_ab"] and opts["no_http"]):
            raise CommandError("--worker-nice-ab needs a number of pairs ≥ 0, and the HTTP part")
        data = Path(opts["data"]) if opts["data"] else default_data_path()
        if not data.exists():
            raise CommandError(f"no LoCoMo data at {data} (pass --data or set RECMEM_DATASETS)")
        migrate_if_needed(self.stdout.write)

        def log(message: str) -> None:
            self.stdout.write(message)
            self.stdout.flush()

        report = run_scale(sizes=_sizes(opts["exchanges"]), data=data, queries=opts["queries"],
                           recall_queries=opts["recall_queries"], http=not opts["no_http"],
                           http_single=opts["http_single"], http_batch=opts["http_batch"],
                           embedding_cache=opts["embedding_cache"], consolidation_mode=opts["consolidation_mode"],
                           keep_data=opts["keep_data"], fast_fill=opts["fast_fill"], project=opts["project"],
                           build_index_after=opts["build_index_after"], halfvec=opts["halfvec"],
                           web_layouts=_layouts(opts["web_layouts"]), bulk_copy=opts["bulk_copy"],
                           component_texts=opts["component_texts"], search_nice=opts["search_nice"],
                           text_bank=opts["text_bank"], exchange_hnsw=_graph(opts["exchange_hnsw"]),
                           http_clients=tuple(_sizes(opts["http_clients"])), worker_nice_ab=opts["worker_nice_ab"],
                           ef_sweep=tuple(_sizes(opts["ef_sweep"])) if opts["ef_sweep"] else (), log=log)
        if opts["json_out"]:
            out = Path(opts["json_out"])
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(report, indent=2, default=str))
            log(f"wrote {out}")
