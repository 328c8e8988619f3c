"""Derive θ_sim for the configured embedding model from the store's neighbour-similarity distribution
(method: memory/calibration.py): the database's exchanges, optionally of one project, one group per agent.
For a LoCoMo file instead of the database: ``manage.py bench_calibrate`` (the bench app)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from memory.calibration import calibration_lines, calibration_report
from memory.gateways.embeddings import get_embedder
from memory.models import Exchange
from memory.thresholds import thresholds_for


def add_calibration_arguments(parser) -> None:
    parser.add_argument("--theta-count", type=int, default=None)
    parser.add_argument("--target-coverage", type=float, default=0.75,
                        help="share of units that should be able to make their topic ripe")
    parser.add_argument("--json", dest="json_out", default=None)


def calibrate_and_print(command: BaseCommand, *, groups, source: str, embedder, theta_count: int | None,
                        target_coverage: float, json_out: str | None) -> dict:
    """Calibrate on ``groups`` (one array of vectors per agent), print the curve, optionally write the JSON."""
    if sum(len(g) for g in groups) == 0:
        raise CommandError("no units to calibrate on")
    current = thresholds_for(embedder.model_id)
    report = calibration_report(groups=groups, model_id=embedder.model_id, source=source,
                                theta_count=theta_count or current.theta_count, target_coverage=target_coverage,
                                current_theta_sim=current.theta_sim)
    for line in calibration_lines(report):
        command.stdout.write(line)
    if json_out:
        Path(json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(json_out).write_text(json.dumps(report, indent=2))
    return report


class Command(BaseCommand):
    help = "Derive θ_sim for the configured embedding model from the store's neighbour-similarity distribution."

    def add_arguments(self, parser):
        parser.add_argument("--project", default=None, help="only this project's exchanges")
        add_calibration_arguments(parser)

    def handle(self, *args, project, theta_count, target_coverage, json_out, **options):
        embedder = get_embedder()
        qs = Exchange.objects.all_scopes_unscoped(why="an operator calibrates on the whole store").filter(
            embedding_model=embedder.model_id)
        if project:
            qs = qs.filter(project__name=project)
        groups: dict = {}
        for owner, vector in qs.values_list("owner_agent_id", "embedding").iterator(chunk_size=2000):
            groups.setdefault(owner, []).append(vector)
        calibrate_and_print(self, groups=[np.asarray(v, dtype=np.float32) for v in groups.values()],
                            source="database", embedder=embedder, theta_count=theta_count,
                            target_coverage=target_coverage, json_out=json_out)
