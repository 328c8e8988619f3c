"""Masking quality and speed: precision / recall / F2 per entity type on presidio-research-format data and on our
labelled secrets set, plus the throughput of the production masking gateway on typical ~300-character exchanges."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

ADVERSARIAL_PARTS = ("none", "tuned", "held_back", "all", "fresh", "fresh_tune", "fresh_held", "r18", "r18_tune",
                     "r18_held")


def default_datasets_dir() -> Path:
    from core.config import config

    return config().datasets


def typical_exchanges(texts: list[str], n: int, width: int = 300) -> list[str]:
    """Deterministic ~300-character texts made by joining dataset sentences (what an exchange looks like)."""
    out, buf = [], ""
    i = 0
    while len(out) < n and texts:
        buf = f"{buf} {texts[i % len(texts)]}".strip()
        i += 1
        if len(buf) >= width:
            out.append(buf[:width])
            buf = ""
    return out


class Command(BaseCommand):
    help = "Score the production PII/secret masking (precision, recall, F2 per type) and measure its throughput."

    def add_arguments(self, parser):
        parser.add_argument("--data", default=None, help="presidio-research format JSON (default: shared dev set)")
        parser.add_argument("--secrets", default=str(Path(settings.BASE_DIR) / "tests" / "data" /
                                                     "secrets_labelled.json"))
        parser.add_argument("--techtext", default=str(Path(settings.BASE_DIR) / "bench" / "data" / "techtext.json"),
                            help="the technical-text precision set (manage.py build_techtext)")
        parser.add_argument("--techchat", default=str(Path(settings.BASE_DIR) / "bench" / "data" / "techchat.json"),
                            help="the engineering-team chat precision set, written blind (python -m bench.techchat)")
        parser.add_argument("--json", dest="json_out", default=None, help="write the report here")
        parser.add_argument("--throughput-texts", type=int, default=600)
        parser.add_argument("--limit", type=int, default=None, help="only the first N records (quick runs)")
        parser.add_argument("--adversarial", choices=ADVERSARIAL_PARTS, default="none",
                            help="also run the adversarial suite through the API against the configured database, "
                                 "in a transaction that is rolled back (tuned while developing, held_back once); "
                                 "fresh: only the blind second set (bench/pii_adversarial_fresh.py, counts by group "
                                 "only; not part of all); fresh_tune / fresh_held: its two halves by "
                                 "sha256('recmem-fresh/' + case id) %% 2 (tune may be read, held is run once, unread); "
                                 "r18 / r18_tune / r18_held: the third blind set (bench/pii_adversarial_r18.py, counts "
                                 "by group and place only; not part of all), halves by sha256('recmem-r18/' + case id) "
                                 "%% 2")
        parser.add_argument("--adversarial-only", action="store_true", help="skip the dataset scores and throughput")
        parser.add_argument("--adversarial-seed", type=int, default=None, help="reproduce a run's canaries")
        parser.add_argument("--adversarial-limit", type=int, default=None, help="only the first N cases (smoke runs)")

    def handle(self, *args, data, secrets, techtext, json_out, throughput_texts, limit, adversarial="none",
               adversarial_only=False, adversarial_seed=None, adversarial_limit=None, techchat=None, **options):
        if adversarial_only:
            if adversarial == "none":
                raise CommandError(f"--adversarial-only needs --adversarial {'|'.join(ADVERSARIAL_PARTS[1:])}")
            report = {"adversarial": self.adversarial(adversarial, adversarial_seed, adversarial_limit)}
            if json_out:
                Path(json_out).parent.mkdir(parents=True, exist_ok=True)
                Path(json_out).write_text(json.dumps(report, indent=2, default=str))
            return
        from bench.pii import (
            SECRET_GROUP,
            combine,
            format_report,
            load_presidio_research,
            make_masker,
            score,
            split_dev,
        )

        data_path = Path(data) if data else default_datasets_dir() / "presidio_research" / "synth_pii_dev.json"
        if not data_path.exists():
            raise CommandError(f"no data at {data_path} (pass --data or set RECMEM_DATASETS)")
        masker = make_masker()
        started = time.perf_counter()
        masker(["warm-up: Jane Doe, jane@example.com"])  # engine load is not part of the measured rate
        load_seconds = time.perf_counter() - started

        records = load_presidio_research(data_path)[:limit]
        parts = split_dev(records)
        # The unread part is scored without keeping any of its texts: nobody reads its misses.
        read = score(parts["read"], masker)
        unread = score(parts["unread"], masker, keep_examples=False)
        pii = combine([read, unread])
        for name, rep in (("dev-read", read), ("dev-unread", unread), ("all", pii)):
            self.stdout.write(format_report(rep, title=f"PII {name}: {data_path.name} ({rep['records']} records)"))
        report = {"data": str(data_path), "records": len(records), "pii": pii, "pii_dev_read": read,
                  "pii_dev_unread": unread, "engine_load_seconds": load_seconds}

        secrets_path = Path(secrets)
        if secrets_path.exists():
            secret_records = load_presidio_research(secrets_path)
            sections: dict[str, list] = {}
            for r in secret_records:
                sections.setdefault(str((r.metadata or {}).get("split", "tuning")), []).append(r)
            by_section = {name: score(recs, masker, only_types={SECRET_GROUP}) for name, recs in sections.items()}
            # the goal-bearing set: tuning + holdout; the evasion sections (split, encoded, wrapped) are reported
            # apart ("evasion": written before the code that catches it; "evasion_holdout": written after, scored
            # once before any fix it prompted)
            labelled = combine([rep for name, rep in by_section.items() if not name.startswith("evasion")])
            for name, rep in (*by_section.items(), ("labelled (tuning + holdout)", labelled)):
                self.stdout.write(format_report(rep, title=f"Secrets {name}: {secrets_path.name} "
                                                           f"({rep['records']} records)"))
            report["secrets"] = labelled
            report["secrets_by_section"] = by_section

        techtext_path = Path(techtext)
        if techtext_path.exists():
            from bench import techtext as tt

            tech = tt.load(techtext_path)
            # the held-back part is scored without keeping any of its texts
            tech_read = tt.score([r for r in tech if r["part"] == "read"], masker)
            tech_held = tt.score([r for r in tech if r["part"] == "held"], masker, keep_examples=False)
            self.stdout.write(tt.format_report(tech_read, f"Technical text, read: {tech_read['sentences']} sentences"))
            self.stdout.write(tt.format_report(tech_held, f"Technical text, held back: {tech_held['sentences']} "
                                                          "sentences"))
            report["techtext"] = {"read": tech_read, "held": tech_held}

        techchat_path = Path(techchat) if techchat else None
        if techchat_path is not None and techchat_path.exists():
            from bench import techchat as tc
            from bench import techtext as tt

            chat = tc.load(techchat_path)
            # scored with techtext's scorer; the held part without keeping any of its texts
            chat_read = tt.score([r for r in chat if r["part"] == "read"], masker)
            chat_held = tt.score([r for r in chat if r["part"] == "held"], masker, keep_examples=False)
            self.stdout.write(tt.format_report(chat_read, f"Team chat, read: {chat_read['sentences']} sentences"))
            self.stdout.write(tt.format_report(chat_held, f"Team chat, held back: {chat_held['sentences']} sentences"))
            report["techchat"] = {"read": chat_read, "held": chat_held}

        texts = typical_exchanges([r.text for r in records], throughput_texts)
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(0, len(texts), 64):  # the ingest path masks a request's texts in one batch
            masker(texts[i:i + 64])
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        rate = len(texts) / elapsed if elapsed else 0.0
        # Per CPU-second too: on a shared machine the wall rate measures the other processes as much as this one
        # (masking runs on one BLAS thread, so on an idle machine the two agree).
        cpu_rate = len(texts) / cpu if cpu else 0.0
        report["throughput"] = {"texts": len(texts), "chars_per_text": 300, "seconds": round(elapsed, 3),
                                "cpu_seconds": round(cpu, 3), "texts_per_second": round(rate, 1),
                                "texts_per_cpu_second": round(cpu_rate, 1), "batch": 64, "cpus": os.cpu_count(),
                                "load_average": os.getloadavg()[0], "machine": platform.machine()}
        self.stdout.write(f"Throughput: {rate:.1f} texts/s, {cpu_rate:.1f} texts per CPU-second ({len(texts)} texts "
                          f"of ~300 chars, batches of 64, one process; load average {os.getloadavg()[0]:.1f})")
        if adversarial != "none":
            report["adversarial"] = self.adversarial(adversarial, adversarial_seed, adversarial_limit)
        if json_out:
            Path(json_out).parent.mkdir(parents=True, exist_ok=True)
            Path(json_out).write_text(json.dumps(report, indent=2, default=str))
            self.stdout.write(f"wrote {json_out}")

    def adversarial(self, part: str, seed: int | None, limit: int | None = None) -> dict:
        """The adversarial suite (bench/pii_adversarial.py; ``fresh``: the blind set of bench/pii_adversarial_fresh.py;
        ``r18``: the third blind set of bench/pii_adversarial_r18.py) through the API, in a transaction rolled back at
        the end: the planted canaries never stay in the database this command runs against."""
        import contextlib
        import random
        import uuid

        from django.db import transaction
        from django.test.utils import setup_test_environment
        from rest_framework.test import APIClient

        from agents.services import agent_create, api_key_create
        from bench.pii_adversarial import format_report, generate_cases, run_cases, select

        with contextlib.suppress(RuntimeError):  # already set up under pytest
            setup_test_environment()  # the test client's host and an in-memory mail outbox
        rng = random.Random(seed) if seed is not None else None
        if part.startswith("r18"):
            import functools

            from bench.pii_adversarial_r18 import format_r18_report, generate_r18_cases, run_r18_cases, select_r18

            # the halves are filtered before anything runs: a held case never reaches a report of the tune half
            cases = select_r18(generate_r18_cases(rng), part)[:limit]
            run, report_text = functools.partial(run_r18_cases, part=part), format_r18_report
        elif part.startswith("fresh"):
            from bench.pii_adversarial import fresh_part
            from bench.pii_adversarial_fresh import format_fresh_report, generate_fresh_cases, run_fresh_cases

            # the halves are filtered before anything runs: a held case never reaches a report of the tune half
            cases = [c for c in generate_fresh_cases(rng) if part == "fresh" or fresh_part(c.id) == part][:limit]
            run, report_text = run_fresh_cases, format_fresh_report
        else:
            cases, run, report_text = select(generate_cases(rng), part)[:limit], run_cases, format_report
        with transaction.atomic():
            agent = agent_create(project_name=f"adversarial-{uuid.uuid4().hex[:8]}", name="attacker", module_names=(),
                                 roles=("writer", "reader"))
            headers = {"HTTP_AUTHORIZATION": f"Bearer {api_key_create(agent=agent).raw_key}"}
            report = run(cases, client=APIClient(), headers=headers, agent_id=agent.pk)
            transaction.set_rollback(True)
        self.stdout.write(report_text(report))
        return report
