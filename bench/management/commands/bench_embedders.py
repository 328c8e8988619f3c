"""Embedder backends side by side: speed, LoCoMo retrieval quality, neighbour agreement, thresholds.

    python manage.py bench_embedders --json bench/results/embedders.json
    python manage.py bench_embedders --backends local,onnx-int8

Runs in one process, backend after backend, so the speed figures are comparable (ratios: the machine is shared).
See bench/embedders.py for what is measured and how.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.management.commands.bench_locomo import default_data_path


class Command(BaseCommand):
    help = "Compare the embedding backends on the LoCoMo dev set (speed, retrieval, neighbours, thresholds)."

    def add_arguments(self, parser):
        parser.add_argument("--data", default=None, help="LoCoMo-format JSON (default: the dev set)")
        parser.add_argument("--backends", default="local,onnx,onnx-int8,static")
        parser.add_argument("--reference", default="local", help="the backend others are compared with")
        parser.add_argument("--json", dest="json_out", default=None)

    def handle(self, *args, **opts):
        from bench.embedders import run_embedders
        from memory.gateways.embeddings import BACKENDS

        data = Path(opts["data"]) if opts["data"] else default_data_path()
        if not data.exists():
            raise CommandError(f"no LoCoMo data at {data} (pass --data or set RECMEM_DATASETS)")
        backends = [b.strip() for b in opts["backends"].split(",") if b.strip()]
        unknown = [b for b in [*backends, opts["reference"]] if b not in BACKENDS or b == "openai"]
        if unknown:
            raise CommandError(f"not a local backend: {unknown}")

        def log(message: str) -> None:
            self.stdout.write(message)
            self.stdout.flush()

        report = run_embedders(data=data, backends=backends, reference=opts["reference"], log=log)
        if opts["json_out"]:
            out = Path(opts["json_out"])
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(report, indent=2, default=str))
            log(f"wrote {out}")
