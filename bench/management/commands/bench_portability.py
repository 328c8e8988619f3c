"""Export → import round trip on LoCoMo stores: identical search results before and after, in a fresh database.

    RECMEM_HOME=/tmp/pa RECMEM_DATASETS=/work/shared/datasets \\
        python manage.py bench_portability --only conv-26 --questions 100 --target-home /tmp/pb \\
        --json bench/results/portability/round_trip.json

Builds each conversation's store with the extractive consolidator in a new project of this database (as
bench_locomo does), exports it, then runs itself again (``--phase target``) with ``RECMEM_HOME=--target-home`` (a
fresh embedded PostgreSQL, migrated from nothing) to import it twice and search the same questions as the same
agent. Reports identical top-k per question, the second import's created count (must be 0), and the clear-value
check of the export. See bench/portability.py.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.management import migrate_if_needed
from bench.management.commands.bench_locomo import default_data_path


class Command(BaseCommand):
    help = "Export a LoCoMo store, import it into a fresh database twice, compare search results for N questions."

    def add_arguments(self, parser):
        parser.add_argument("--data", default=None, help="LoCoMo JSON (default: $RECMEM_DATASETS/locomo/...)")
        parser.add_argument("--only", default="conv-26", help="conversation ids, separated by commas")
        parser.add_argument("--questions", type=int, default=100, help="questions in all (spread over the stores)")
        parser.add_argument("--target-home", default="", help="RECMEM_HOME of the importing process (must not "
                                                              "exist yet; default: a new temporary folder)")
        parser.add_argument("--keep-target", action="store_true", help="leave the target home (and its server)")
        parser.add_argument("--json", default="", help="write the report here")
        parser.add_argument("--phase", choices=["source", "target"], default="source", help=argparse_hidden())
        parser.add_argument("--export", default="", help=argparse_hidden())
        parser.add_argument("--questions-file", default="", help=argparse_hidden())
        parser.add_argument("--agents", default="", help=argparse_hidden())
        parser.add_argument("--out", default="", help=argparse_hidden())

    def handle(self, *args, **o):
        migrate_if_needed(self.stderr.write)
        if o["phase"] == "target":
            from bench.portability import run_target

            run_target(export=Path(o["export"]), questions_file=Path(o["questions_file"]),
                       agent_names=o["agents"].split(","), out=Path(o["out"]))
            return
        report = self._source(o)
        text = json.dumps(report, indent=2)
        if o["json"]:
            Path(o["json"]).parent.mkdir(parents=True, exist_ok=True)
            Path(o["json"]).write_text(text + "\n")
        self.stdout.write(text)

    def _source(self, o) -> dict:
        from bench.locomo import (
            LocomoConfig,
            bench_project_name,
            bench_settings,
            replay_conversation,
            select_conversations,
        )
        from bench.portability import clear_value_check, compare, search_all, spawn_target
        from core.config import config
        from memory.services.portability import project_export

        data = Path(o["data"]) if o["data"] else default_data_path()
        if not data.exists():
            raise CommandError(f"no LoCoMo data at {data} (set RECMEM_DATASETS)")
        only = tuple(s.strip() for s in o["only"].split(",") if s.strip())
        conversations = select_conversations(LocomoConfig(data=data, only=only))
        work = Path(tempfile.mkdtemp(prefix="recmem-portability-"))
        target_home = Path(o["target_home"]) if o["target_home"] else work / "target-home"
        if target_home.exists() and any(target_home.iterdir()):
            raise CommandError(f"--target-home {target_home} is not empty: the import must meet a fresh database")
        per = max(1, o["questions"] // len(conversations))
        report: dict = {"command": "bench_portability", "conversations": list(only), "stores": []}
        started = time.perf_counter()
        try:
            with bench_settings(mode="online", consolidator="extractive"):
                for conversation in conversations:
                    name = bench_project_name("portability")
                    t0 = time.perf_counter()
                    replayed = replay_conversation(project_name=name, conversation=conversation,
                                                   log=self.stderr.write, flush=True)
                    build = time.perf_counter() - t0
                    agent = replayed.agent
                    questions = [qa.question for qa in conversation.qa][:per]
                    export = work / f"{name}.jsonl"
                    t0 = time.perf_counter()
                    text = "".join(project_export(project=agent.project, actor_label="bench:portability"))
                    export.write_text(text, encoding="utf-8")
                    export_seconds = time.perf_counter() - t0
                    # searched after the export: masking a question may register a pseudonym, and both sides must
                    # start from the same registry
                    before = search_all(agent=agent, questions=questions)
                    qfile, out = work / f"{name}.questions.json", work / f"{name}.after.json"
                    qfile.write_text(json.dumps({agent.name: questions}))
                    home = target_home / name
                    env = {k: v for k, v in os.environ.items() if not k.startswith("RECMEM_DB_")}
                    # the deployment's keys travel with it (outside the database)
                    env["RECMEM_PSEUDONYM_KEY"] = config().privacy.pseudonym_key
                    env["RECMEM_VAULT_KEY"] = config().privacy.vault_key
                    spawn_target(home=home, env=env, cwd=Path(settings.BASE_DIR), args=[
                        "--export", str(export), "--questions-file", str(qfile), "--agents", agent.name,
                        "--out", str(out)])
                    after = json.loads(out.read_text())
                    counts = json.loads(text.splitlines()[-1])["counts"]
                    report["stores"].append({
                        "conversation": conversation.sample_id, "exchanges": replayed.exchanges,
                        "build_seconds": round(build, 1), "export_bytes": len(text.encode()),
                        "export_seconds": round(export_seconds, 2), "exported": counts,
                        "first_import": after["first_import"], "second_import": after["second_import"],
                        "search": compare(before, after["results"][agent.name]),
                        "clear_values": clear_value_check(project=agent.project, export_text=text)})
                    if not o["keep_target"]:
                        _stop(home)
        finally:
            if not o["keep_target"]:
                shutil.rmtree(work, ignore_errors=True)
        stores = report["stores"]
        report["summary"] = {
            "questions": sum(s["search"]["questions"] for s in stores),
            "identical_top_k": sum(s["search"]["identical_top_k"] for s in stores),
            "second_import_created": sum(s["second_import"]["created_total"] for s in stores),
            "clear_values_in_export_not_clear_in_db": sum(s["clear_values"]["in_export_not_clear_in_db"]
                                                          for s in stores),
            "seconds": round(time.perf_counter() - started, 1)}
        return report


def _stop(home: Path) -> None:
    from recmem_site import embedded_db

    try:
        embedded_db.stop(str(home))
    except Exception:  # noqa: BLE001 (a bench's cleanup: the report is what matters)
        pass


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS
