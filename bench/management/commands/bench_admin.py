"""Admin page timings with a long audit trail (bench/admin_pages.py):

    python manage.py bench_admin --json bench/results/admin_pages.json     # 10,000 audit events, 5 requests a page
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from bench.management import migrate_if_needed


class Command(BaseCommand):
    help = "Time every admin page (changelists, dashboard, item pages) with 10,000 audit events in the database."

    def add_arguments(self, parser):
        parser.add_argument("--events", type=int, default=10_000, help="audit events in the project (default 10000)")
        parser.add_argument("--repeats", type=int, default=5, help="timed requests per page (default 5)")
        parser.add_argument("--json", default="", help="write the report here")

    def handle(self, *args, **opts):
        from bench.admin_pages import run_admin_pages, summary_lines

        migrate_if_needed(self.stdout.write)
        report = run_admin_pages(events=opts["events"], repeats=opts["repeats"], log=self.stdout.write)
        for line in summary_lines(report):
            self.stdout.write(line)
        if opts["json"]:
            Path(opts["json"]).write_text(json.dumps(report, indent=2))
            self.stdout.write(f"wrote {opts['json']}")
