"""Derive θ_sim for the configured embedding model from a store's neighbour-similarity distribution
(method: memory/calibration.py). Source: the database's exchanges (optionally one project), or a LoCoMo file
embedded on the fly (text form with timestamp and speaker tags, two-turn units, one conversation = one agent)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from memory.calibration import coverage_curve, distribution, ripeness_similarities, theta_for_coverage
from memory.gateways.embeddings import get_embedder
from memory.thresholds import thresholds_for


class Command(BaseCommand):
    help = "Derive θ_sim for the configured embedding model from the store's neighbour-similarity distribution."

    def add_arguments(self, parser):
        parser.add_argument("--project", default=None, help="only this project's exchanges")
        parser.add_argument("--locomo", default=None, help="calibrate on a LoCoMo file instead of the database")
        parser.add_argument("--theta-count", type=int, default=None)
        parser.add_argument("--target-coverage", type=float, default=0.75,
                            help="share of units that should be able to make their topic ripe")
        parser.add_argument("--json", dest="json_out", default=None)

    def handle(self, *args, project, locomo, theta_count, target_coverage, json_out, **options):
        embedder = get_embedder()
        current = thresholds_for(embedder.model_id)
        theta_count = theta_count or current.theta_count
        if locomo:
            groups, source = self._locomo_groups(Path(locomo), embedder), f"LoCoMo file {locomo}"
        else:
            groups, source = self._store_groups(embedder.model_id, project), "database"
        units = sum(len(g) for g in groups)
        if units == 0:
            raise CommandError("no units to calibrate on")
        ripeness = ripeness_similarities(groups, theta_count)
        theta = theta_for_coverage(ripeness, target_coverage)
        curve = coverage_curve(ripeness, [round(x, 2) for x in np.arange(0.40, 0.91, 0.05)])
        report = {"model": embedder.model_id, "source": source, "units": units, "groups": len(groups),
                  "theta_count": theta_count, "target_coverage": target_coverage,
                  "theta_sim": round(theta, 3), "current_theta_sim": current.theta_sim,
                  "ripeness_distribution": distribution(ripeness), "coverage_curve": curve}
        self.stdout.write(f"model {embedder.model_id}: {units} units in {len(groups)} groups ({source}), "
                          f"θ_count={theta_count}")
        self.stdout.write("ripeness similarity ((θ_count−1)-th neighbour): " +
                          ", ".join(f"{k}={v}" for k, v in report["ripeness_distribution"].items()))
        self.stdout.write("θ_sim  share of units that can make a topic ripe")
        for row in curve:
            self.stdout.write(f"{row['theta_sim']:.2f}   {row['ripe_share']:.3f}")
        self.stdout.write(f"θ_sim for {target_coverage:.0%} coverage: {theta:.3f} (configured: {current.theta_sim})")
        if json_out:
            Path(json_out).parent.mkdir(parents=True, exist_ok=True)
            Path(json_out).write_text(json.dumps(report, indent=2))

    def _store_groups(self, model_id: str, project: str | None) -> list[np.ndarray]:
        from memory.models import Exchange

        qs = Exchange.objects.filter(embedding_model=model_id)
        if project:
            qs = qs.filter(project__name=project)
        groups: dict = {}
        for owner, vector in qs.values_list("owner_agent_id", "embedding").iterator(chunk_size=2000):
            groups.setdefault(owner, []).append(vector)
        return [np.asarray(v, dtype=np.float32) for v in groups.values()]

    def _locomo_groups(self, path: Path, embedder) -> list[np.ndarray]:
        from bench.locomo import conversation_exchanges, load_locomo  # the benchmark's loader and pairing
        from memory.textform import unit_text_form

        groups = []
        for conversation in load_locomo(path):
            forms = [unit_text_form(occurred_at=session.started_at, user=pair.user, assistant=pair.assistant)
                     for session, pairs in conversation_exchanges(conversation) for pair in pairs]
            groups.append(np.asarray(embedder.embed(forms), dtype=np.float32))
        return groups
