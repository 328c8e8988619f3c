"""Paraphrase consolidation benchmark (bench/paraphrase.py): an engineering team's facts, lessons, constraints and
preferences, each said four times in different words by several agents, replayed through the REST API in online
mode with the extractive consolidator.

    python manage.py bench_paraphrase                      # the tuned scenario and the held-back one
    python manage.py bench_paraphrase --scenario platform_team --json out.json
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.management import migrate_if_needed


class Command(BaseCommand):
    help = "Replay the paraphrase scenarios through the REST API and measure how they consolidate."

    def add_arguments(self, parser):
        parser.add_argument("--scenario", action="append", default=[],
                            help="a scenario name under bench/scenarios or a JSON file (repeatable; default: "
                                 "platform_team, the held-back data_team and the blind security_team, "
                                 "frontend_team, growth_team, docs_team and search_team)")
        parser.add_argument("--facts", type=int, default=None, help="only the first N facts (a small part)")
        parser.add_argument("--filler", type=int, default=None, help="only the first N filler exchanges")
        parser.add_argument("--json", default="", help="write the whole report here")
        parser.add_argument("--details", action="store_true", help="print per-fact and per-question results")
        parser.add_argument("--keep-data", action="store_true")
        parser.add_argument("--mode", choices=["online", "idle"], default="online",
                            help="online: topics consolidated as they ripen; idle: nothing runs before each agent's "
                                 "final run now, which takes the whole backlog in one pass")
        parser.add_argument("--changes", default=None,
                            help="the change-statement set scored on the extractive statements (bench/changes.py; "
                                 "default bench/data/change_statements.json, 'none' to skip)")
        parser.add_argument("--seed", type=int, default=1,
                            help="the projects' pseudonym key seed (placeholders are embedded: a fixed key makes a "
                                 "run repeatable); -1 for a random key")

    def handle(self, *args, **opts):
        from bench.paraphrase import BLIND, HELD_BACK, TUNED, run_paraphrase, summary_lines

        migrate_if_needed(self.stdout.write)
        scenarios = opts["scenario"] or [TUNED, HELD_BACK, *BLIND]
        try:
            report = run_paraphrase(scenarios=scenarios, log=self.stdout.write, facts=opts["facts"],
                                    filler=opts["filler"], keep_data=opts["keep_data"],
                                    seed=None if opts["seed"] < 0 else opts["seed"], mode=opts["mode"])
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from exc
        if opts["changes"] != "none":
            from bench import changes

            scores = changes.score(changes.extractive_statements(), changes.load(opts["changes"] or changes.DATA))
            report["change_statements"] = scores
        for line in summary_lines(report):
            self.stdout.write(line)
        if opts["details"]:
            for run in report["runs"]:
                for f in run["per_fact"]:
                    self.stdout.write(f"  {f['fact']}: items {f['items']} merged {f['merged']} sessions "
                                      f"{f['best_sessions']} agents {f['best_agents']} states {f['states']} "
                                      f"best {f['best']} others {f['others']}")
                    if not f["merged"]:
                        for n, where in enumerate(f["trace"]):
                            self.stdout.write(f"    paraphrase {n + 1}: {where or 'no item'}")
                for q in run["questions"]:
                    self.stdout.write(f"  Q {q['fact']}: in block {q['in_block']}")
                for c in run["contradictions"]:
                    self.stdout.write(f"  C {c}")
                for s in run["filler_item_statements"]:
                    self.stdout.write(f"  filler item: {s}")
        if opts["json"]:
            Path(opts["json"]).write_text(json.dumps(report, indent=2, default=str))
