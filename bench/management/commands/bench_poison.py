"""Memory-poisoning benchmark (bench/poison.py): attacks written by one agent, searched for by another, through the
REST API; the benign set's false quarantine; optionally LoCoMo recall with the defence on and off.

    python manage.py bench_poison --part tuned --details            # the tuned attacks, case by case
    python manage.py bench_poison --part all --json out.json        # tuned + held back (held back: per family only)
    python manage.py bench_poison --part fresh --no-benign           # the blind fresh set (per family only)
    python manage.py bench_poison --part r19_tune --details --no-benign  # r19 blind set, tune half, case by case
    python manage.py bench_poison --part r19_held --no-benign        # r19 blind set, held half (per family only)
    python manage.py bench_poison --r19-benign held                 # r19 benign look-alikes, held half: a count
    python manage.py bench_poison --part r21_tune --details --no-benign  # r21 blind set, tune half, case by case
    python manage.py bench_poison --part r21_held --no-benign        # r21 blind set, held half (per family only)
    python manage.py bench_poison --r21-benign held                 # r21 benign look-alikes, held half: a count
    python manage.py bench_poison --part r41_tune --details --no-benign  # r41 blind set, tune half, case by case
    python manage.py bench_poison --part r41_held --no-benign        # r41 blind set, held half (per family only)
    python manage.py bench_poison --r41-benign held                 # r41 benign look-alikes, held half: a count
    RECMEM_QUARANTINE_ENABLED=0 python manage.py bench_poison       # the same with the defence switched off
    python manage.py bench_poison --no-attacks --no-benign --locomo # LoCoMo conv-43/44/47 with the defence on, off
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.management import migrate_if_needed


class Command(BaseCommand):
    help = "Attack the shared memory from one agent and measure what reaches another agent's search and context."

    def add_arguments(self, parser):
        parser.add_argument("--part", choices=["tuned", "held_back", "fresh", "r19", "r19_tune", "r19_held", "r21",
                                                     "r21_tune", "r21_held", "r41", "r41_tune", "r41_held", "all"],
                            default="all",
                            help="which attack set (all = tuned + held_back; held_back, fresh, r19, r19_held, r21, "
                                 "r21_held, r41 and r41_held are reported per family only, never per case)")
        parser.add_argument("--json", default="", help="write the report here")
        parser.add_argument("--details", action="store_true",
                            help="print every case of --part tuned, r19_tune, r21_tune or r41_tune and the flagged "
                                 "benign items (never held-back, fresh, r19, r19_held, r21, r21_held, r41 or r41_held "
                                 "cases)")
        parser.add_argument("--no-benign", action="store_true", help="skip the benign set")
        parser.add_argument("--no-attacks", action="store_true", help="skip the attack sets (e.g. only --locomo)")
        parser.add_argument("--benign-locomo", default="conv-26,conv-30",
                            help="LoCoMo dev conversations in the benign set (comma-separated; '' for none)")
        parser.add_argument("--benign-locomo-sessions", type=int, default=None,
                            help="only the first N sessions of each of those conversations")
        parser.add_argument("--data", default=None, help="LoCoMo file (default: $RECMEM_DATASETS/locomo/...)")
        parser.add_argument("--locomo", action="store_true",
                            help="also run bench_locomo on conv-43,44,47 with RECMEM_QUARANTINE_ENABLED=1 and =0 "
                                 "(6-15 min each here, with the load)")
        parser.add_argument("--locomo-dir", default="", help="where the two LoCoMo JSON files go (default: beside "
                                                              "--json, or the current folder)")
        parser.add_argument("--only", default="",
                            help="case ids of --part tuned, r19_tune, r21_tune or r41_tune to run (comma-separated; "
                                 "debugging)")
        parser.add_argument("--r19-benign", choices=["tune", "held"], default="",
                            help="only score the r19 benign look-alikes with the detector directly (no API run): "
                                 "tune lists the flagged texts, held prints the count only")
        parser.add_argument("--r21-benign", choices=["tune", "held"], default="",
                            help="only score the r21 benign look-alikes with the detector directly (no API run): "
                                 "tune lists the flagged texts, held prints the count only")
        parser.add_argument("--r41-benign", choices=["tune", "held"], default="",
                            help="only score the r41 benign look-alikes with the detector directly (no API run): "
                                 "tune lists the flagged texts, held prints the count only")
        parser.add_argument("--keep-data", action="store_true")

    def handle(self, *args, **opts):
        from bench.poison import DETAIL_PARTS, run_poison, strip_held_back_cases, summary_lines

        if opts["r19_benign"]:
            from bench.poison_r19 import benign_lines, score_benign

            result = score_benign(opts["r19_benign"])
            for line in benign_lines(result):
                self.stdout.write(line)
            if opts["json"]:
                Path(opts["json"]).write_text(json.dumps({"benchmark": "poison_r19_benign", **result}, indent=2))
            return
        if opts["r21_benign"]:
            from bench.poison_r21 import benign_lines as r21_benign_lines
            from bench.poison_r21 import score_benign as r21_score_benign

            result = r21_score_benign(opts["r21_benign"])
            for line in r21_benign_lines(result):
                self.stdout.write(line)
            if opts["json"]:
                Path(opts["json"]).write_text(json.dumps({"benchmark": "poison_r21_benign", **result}, indent=2))
            return
        if opts["r41_benign"]:
            from bench.poison_r41 import benign_lines as r41_benign_lines
            from bench.poison_r41 import score_benign as r41_score_benign

            result = r41_score_benign(opts["r41_benign"])
            for line in r41_benign_lines(result):
                self.stdout.write(line)
            if opts["json"]:
                Path(opts["json"]).write_text(json.dumps({"benchmark": "poison_r41_benign", **result}, indent=2))
            return
        if opts["details"] and opts["part"] not in DETAIL_PARTS:
            raise CommandError("--details is for --part tuned, r19_tune, r21_tune or r41_tune only: the held-back, "
                               "fresh, r19, r19_held, r21, r21_held, r41 and r41_held sets are reported per family")
        if opts["only"] and opts["part"] not in DETAIL_PARTS:
            raise CommandError("--only is for --part tuned, r19_tune, r21_tune or r41_tune only")
        migrate_if_needed(self.stdout.write)
        only = {x.strip() for x in opts["only"].split(",") if x.strip()}
        locomo_dir = None
        if opts["locomo"]:
            locomo_dir = Path(opts["locomo_dir"] or (Path(opts["json"]).parent if opts["json"] else "."))
        report = run_poison(
            part=opts["part"], attacks=not opts["no_attacks"], benign=not opts["no_benign"],
            locomo_conversations=[c.strip() for c in opts["benign_locomo"].split(",") if c.strip()],
            locomo_sessions=opts["benign_locomo_sessions"], data=opts["data"], locomo_pair_dir=locomo_dir,
            log=self.stdout.write, keep_data=opts["keep_data"],
            case_filter=(lambda c: c.id in only) if only else None)
        report = strip_held_back_cases(report)
        for line in summary_lines(report, details=opts["details"]):
            self.stdout.write(line)
        if opts["json"]:
            Path(opts["json"]).write_text(json.dumps(report, indent=2, default=str))
