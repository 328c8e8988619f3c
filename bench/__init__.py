"""RecMem benchmarks (DESIGN §8): construction cost, evidence recall on LoCoMo, throughput and latency.

- :mod:`bench.locomo` — LoCoMo loader, turn pairing, replay through the real service path, retrieval scoring;
  driven by ``python manage.py bench_locomo``.
- :mod:`bench.scale` — bulk and HTTP ingest, search latency and HNSW recall at 10k / 100k / 1M exchanges;
  driven by ``python manage.py bench_scale``; :mod:`bench.store` is its store and fill (shared with
  :mod:`bench.bulkfill`, the COPY fill of the 1M store).
- :mod:`bench.pii` — label mapping and scoring of the masking engine against labelled records (presidio-research
  format, our secrets set); driven by ``python manage.py bench_pii``.
- :mod:`bench.report` — ``bench/results/SUMMARY.md`` and the PNG plots from the JSON results.
- :mod:`bench.run` — ``python -m bench.run --profile quick|full`` (``make bench`` / ``make bench-full``): runs
  everything against a private embedded PostgreSQL under ``bench/cache/home``, never the developer's data.

``bench`` is a Django app (:mod:`bench.apps`, listed last in ``INSTALLED_APPS``) so that its commands live here, in
``bench/management/commands/``; no product app imports it. Benchmarks are commands, not timed tests;
``tests/bench`` only checks that they work on tiny inputs.
"""
