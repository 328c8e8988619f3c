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
        parser.add_argument("--paraphrase", default=None,
                            help="a paraphrase scenario (bench/scenarios/*.json): calibrate θ_sim_sessions, "
                                 "θ_corroborate and θ_corroborate_unit on its facts instead")
        parser.add_argument("--max-false", type=float, default=0.003,
                            help="with --paraphrase: the share of different-fact pairs allowed to merge")
        add_calibration_arguments(parser)

    def handle(self, *args, project, theta_count, target_coverage, json_out, **options):
        embedder = get_embedder()
        if options.get("paraphrase"):
            self._paraphrase(embedder, Path(options["paraphrase"]), options["max_false"], json_out)
            return
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

    def _paraphrase(self, embedder, path: Path, max_false: float, json_out: str | None) -> None:
        from datetime import UTC, datetime

        from memory.calibration import paraphrase_calibration
        from memory.textform import unit_text_form

        if not path.exists():
            raise CommandError(f"no scenario at {path}")
        when = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
        report = paraphrase_calibration(
            scenario=json.loads(path.read_text()), embed=embedder.embed, max_false=max_false,
            unit_form=lambda u, a: unit_text_form(occurred_at=when, user=u, assistant=a))
        report["model"] = embedder.model_id
        current = thresholds_for(embedder.model_id)
        for name, curve in report["curves"].items():
            self.stdout.write(f"{name} (configured {getattr(current, name)}): θ  same-fact  different-fact")
            for row in curve:
                self.stdout.write(f"  {row['theta']:.2f}  {row['same']:.3f}  {row['different']:.4f}")
            self.stdout.write(f"  → {report['thresholds'][name]} (at most {report['risk'][name]:.2%} of different "
                              "pairs)")
        if json_out:
            Path(json_out).parent.mkdir(parents=True, exist_ok=True)
            Path(json_out).write_text(json.dumps(report, indent=2))
