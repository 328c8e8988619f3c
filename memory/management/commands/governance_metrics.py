"""Read (and optionally compute first) the stored daily governance metrics: hit rate, repetition rate, validity with
its 95 % interval, cost and growth, per project and scope (definitions: memory/services/metrics.py, README
"Governance"). The periodic task computes them every hour; ``--compute`` does it now."""

from __future__ import annotations

import json
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from agents.models import Project
from memory.figures import metrics_list
from memory.serializers import MetricDayOut
from memory.services.metrics import metrics_compute


def _pct(value) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


class Command(BaseCommand):
    help = "Print the daily governance metrics (compute them first with --compute)."

    def add_arguments(self, parser):
        parser.add_argument("--project", help="project name (default: every project)")
        parser.add_argument("--days", type=int, default=7, help="the last N days (default 7)")
        parser.add_argument("--scope", choices=["personal", "module", "project", "all"], default="all")
        parser.add_argument("--compute", action="store_true", help="compute today's and yesterday's rows first")
        parser.add_argument("--json", action="store_true", help="JSON Lines, one row per line")

    def handle(self, *args, project=None, days=7, scope="all", compute=False, json=False, **options):
        projects = Project.objects.order_by("name")
        if project:
            projects = projects.filter(name=project)
            if not projects.exists():
                raise CommandError(f"no project named {project!r}")
        if days < 1:
            raise CommandError("--days must be at least 1")
        if compute:
            written = metrics_compute(days=2, projects=list(projects))
            self.stderr.write(f"computed {written} rows")
        since = timezone.localdate() - timedelta(days=days - 1)
        for p in projects:
            rows = metrics_list(project=p, since=since, scope=scope)
            if json:
                for row in rows:
                    self.stdout.write(_dumps({"project": p.name, **MetricDayOut(row).data}))
                continue
            self.stdout.write(f"{p.name} ({scope})")
            self.stdout.write(f"  {'day':<10} {'hit rate':>9} {'rep/100':>8} {'validity (95% CI)':>22} "
                              f"{'batches':>7} {'tokens':>9} {'seconds':>8} {'backlog':>7} {'exchanges':>9} "
                              f"{'experiences':>11}")
            for r in rows:
                validity = (f"{_pct(r.validity_rate)} ({_pct(r.validity_low)}–{_pct(r.validity_high)})"
                            if r.validity_rate is not None else "—")
                rep = "—" if r.repetition_rate is None else f"{r.repetition_rate:.1f}"
                self.stdout.write(f"  {r.day.isoformat():<10} {_pct(r.hit_rate):>9} {rep:>8} {validity:>22} "
                                  f"{r.batches:>7} {r.prompt_tokens + r.completion_tokens:>9} "
                                  f"{r.batch_seconds:>8.1f} {r.backlog:>7} {r.exchanges_total:>9} "
                                  f"{r.experiences_active:>11}")


def _dumps(row: dict) -> str:
    return json.dumps(row, default=str)
