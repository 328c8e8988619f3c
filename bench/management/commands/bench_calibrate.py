"""θ_sim calibration (memory/calibration.py) on a LoCoMo file embedded on the fly: text form with timestamp and
speaker tags, two-turn units, one conversation = one agent. On the database: ``manage.py calibrate_thresholds``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand

from bench.locomo import conversation_exchanges, load_locomo
from memory.gateways.embeddings import get_embedder
from memory.management.commands.calibrate_thresholds import add_calibration_arguments, calibrate_and_print
from memory.textform import unit_text_form


class Command(BaseCommand):
    help = "Derive θ_sim for the configured embedding model from a LoCoMo file's neighbour-similarity distribution."

    def add_arguments(self, parser):
        parser.add_argument("locomo", help="a LoCoMo JSON file (e.g. ../shared/datasets/locomo/locomo_dev.json)")
        add_calibration_arguments(parser)

    def handle(self, *args, locomo, theta_count, target_coverage, json_out, **options):
        embedder = get_embedder()
        groups = []
        for conversation in load_locomo(Path(locomo)):
            forms = [unit_text_form(occurred_at=session.started_at, user=pair.user, assistant=pair.assistant)
                     for session, pairs in conversation_exchanges(conversation) for pair in pairs]
            groups.append(np.asarray(embedder.embed(forms), dtype=np.float32))
        calibrate_and_print(self, groups=groups, source=f"LoCoMo file {locomo}", embedder=embedder,
                            theta_count=theta_count, target_coverage=target_coverage, json_out=json_out)
