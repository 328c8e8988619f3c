"""LoCoMo benchmark: construction cost (vs an eager Mem0-style baseline) and evidence recall of the real search.

    python manage.py bench_locomo --mode online --json bench/results/locomo_online.json
    python manage.py bench_locomo --mode online,eager,flat --conversations 2 --json out.json
    python manage.py bench_locomo --sweep 0.5,0.55,0.6,0.65,0.7 --json sweep.json

Every run replays the conversations through the real services into a fresh project ``bench-locomo-<mode>-<id>``
of the configured database (deleted at the end unless ``--keep-data``) and forces django-q2 sync mode for this
process, so consolidation is enqueued through the real queue path and runs inline right after each commit.
``--consolidator llm`` without ``--llm-base-url`` starts the fake OpenAI-compatible server in this process (token
counts are then offline counts on the real prompts). See bench/locomo.py for pairing and scoring.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.management import migrate_if_needed


def default_data_path() -> Path:
    from core.config import config

    return config().datasets / "locomo" / "locomo_dev.json"


def _floats(value: str) -> list[float]:
    try:
        return [float(v) for v in value.split(",") if v.strip()]
    except ValueError as exc:
        raise CommandError(f"not a list of numbers: {value!r}") from exc


def _variants(values: list[str]) -> list:
    from bench.locomo import parse_search_variant

    try:
        return [parse_search_variant(v) for v in values]
    except ValueError as exc:
        raise CommandError(str(exc)) from exc


class Command(BaseCommand):
    help = "Replay LoCoMo through the real write path and score construction cost and retrieval."

    def add_arguments(self, parser):
        parser.add_argument("--data", default=None,
                            help="LoCoMo-format JSON (default: $RECMEM_DATASETS/locomo/locomo_dev.json, "
                                 "RECMEM_DATASETS defaulting to ../shared/datasets)")
        parser.add_argument("--mode", default="online",
                            help="online (RecMem), eager (Mem0-style baseline), flat (no consolidation, top-k "
                                 "10 and 25); several separated by commas")
        parser.add_argument("--consolidator", choices=["llm", "extractive"], default="llm",
                            help="llm (fake server unless --llm-base-url) or extractive (zero tokens)")
        parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
        parser.add_argument("--only", default="",
                            help="only these conversations (sample ids, e.g. conv-43,conv-44,conv-47)")
        parser.add_argument("--theta-sim", type=float, default=None, help="override θ_sim for this run")
        parser.add_argument("--sweep", default=None,
                            help="comma-separated θ_sim values: online trade-off curve instead of --mode")
        parser.add_argument("--llm-base-url", default="",
                            help="OpenAI-compatible endpoint: consolidation (--consolidator llm) and, per "
                                 "question, an answer (ANSWER prompt) graded by a judge (JUDGE prompt)")
        parser.add_argument("--llm-model", default="gpt-4o-mini")
        parser.add_argument("--judge-model", default="", help="default: --llm-model")
        parser.add_argument("--llm-api-key", default="", help="default: $RECMEM_LLM_API_KEY or $OPENAI_API_KEY")
        parser.add_argument("--raw-queries", action="store_true",
                            help="search with the raw question instead of the question masked like stored text")
        parser.add_argument("--no-salience", action="store_true",
                            help="switch the salience override off (paper-faithful: recurrence triggers only)")
        parser.add_argument("--seed", type=int, default=1,
                            help="the bench project's pseudonym key is derived from it: same seed, same run")
        parser.add_argument("--variant", default="",
                            help="a name for this run's settings (an ablation: RECMEM_SEARCH_LEXICAL_WEIGHT=0 …), "
                                 "kept in the report and the summary")
        parser.add_argument("--ablate", default="",
                            help="online runs: switch layers of the consolidation off — episodes, semantic, merge "
                                 "(comma-separated; name the run with --variant)")
        parser.add_argument("--flat-as-configured", action="store_true",
                            help="flat mode searches with the configured search (hybrid, expansion) instead of "
                                 "plain top-k by cosine")
        parser.add_argument("--with-flat", action="store_true",
                            help="online/eager: also score flat top-10/25 (plain cosine) on the run's own exchanges")
        parser.add_argument("--search-variant", action="append", default=[],
                            help="name:section.field=value,… — also search the same store with these settings (an "
                                 "ablation, e.g. vector-only:search.lexical_weight=0); repeatable")
        parser.add_argument("--keep-data", action="store_true", help="keep the bench project after the run")
        parser.add_argument("--details", action="store_true",
                            help="include per-question rows in the JSON, each with its context block's text")
        parser.add_argument("--json", dest="json_out", default=None, help="write the report here")

    def handle(self, *args, **opts):
        from bench.locomo import ABLATIONS, MODES, LocomoConfig, compare, run_locomo, run_sweep

        data = Path(opts["data"]) if opts["data"] else default_data_path()
        if not data.exists():
            raise CommandError(f"no LoCoMo data at {data} (pass --data or set RECMEM_DATASETS)")
        migrate_if_needed(self.stdout.write)
        modes = [m.strip() for m in opts["mode"].split(",") if m.strip()]
        unknown = [m for m in modes if m not in MODES]
        if unknown:
            raise CommandError(f"unknown mode(s) {unknown}; choose from {list(MODES)}")
        ablate = tuple(a.strip() for a in opts["ablate"].split(",") if a.strip())
        if set(ablate) - set(ABLATIONS):
            raise CommandError(f"unknown ablation(s) {sorted(set(ablate) - set(ABLATIONS))}; choose from "
                               f"{list(ABLATIONS)}")
        api_key = opts["llm_api_key"] or os.environ.get("RECMEM_LLM_API_KEY", "") or os.environ.get(
            "OPENAI_API_KEY", "")
        config = LocomoConfig(data=data, consolidator=opts["consolidator"], conversations=opts["conversations"],
                              only=tuple(c.strip() for c in opts["only"].split(",") if c.strip()),
                              theta_sim=opts["theta_sim"], llm_base_url=opts["llm_base_url"],
                              llm_model=opts["llm_model"], llm_api_key=api_key, judge_model=opts["judge_model"],
                              mask_queries=not opts["raw_queries"], salience=not opts["no_salience"],
                              keep_data=opts["keep_data"], seed=opts["seed"], variant=opts["variant"], ablate=ablate,
                              flat_plain=not opts["flat_as_configured"], with_flat=opts["with_flat"],
                              search_variants=tuple(_variants(opts["search_variant"])),
                              details=opts["details"])

        def log(message: str) -> None:
            self.stdout.write(message)
            self.stdout.flush()

        if opts["sweep"]:
            report = run_sweep(config, _floats(opts["sweep"]), log=log)
            for p in report["points"]:
                log(f"θ_sim {p['theta_sim']:.2f}: triggers {p['trigger_rate_per_100']}/100, batches {p['batches']}, "
                    f"consolidated {p['consolidated_share']:.0%}, calls {p['llm_calls_per_100']}/100, prompt "
                    f"tokens {p['prompt_tokens_per_100']}/100, evidence recall {p['evidence_recall']}")
        else:
            runs = []
            for mode in modes:
                config.mode = mode
                run = run_locomo(config, log=log)
                runs.append(run)
                log(format_run(run))
            report = {"benchmark": "locomo", "runs": runs, "comparison": compare(runs)}
            if "online_vs_eager" in report["comparison"]:
                r = report["comparison"]["online_vs_eager"]
                log(f"online ÷ eager: LLM calls {r['llm_calls_ratio']}, prompt tokens {r['prompt_tokens_ratio']}")
        if opts["json_out"]:
            out = Path(opts["json_out"])
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(report, indent=2, default=str))
            log(f"wrote {out}")


def format_run(run: dict) -> str:
    c = run["construction"]
    lines = [f"{run['label']}: {run['exchanges']} exchanges, {c['batches']} batches, triggers "
             f"{c['trigger_rate_per_100']}/100, consolidated {c['consolidated_share']:.0%}, LLM calls "
             f"{c['llm_calls_per_100']}/100, prompt tokens {c['prompt_tokens_per_100']}/100, completion tokens "
             f"{c['completion_tokens_per_100']}/100, wall {run['wall_seconds']['total']}s"]
    for name, stats in run["retrieval"].items():
        er, ar = stats["evidence_recall"], stats["answer_recall"]
        cats = " ".join(f"c{k}={v}" for k, v in er["by_category"].items())
        line = (f"  {name}: evidence recall {er['overall']} ({cats}), in context "
                f"{stats['evidence_recall_in_context']['overall']} (shown "
                f"{(stats.get('evidence_recall_shown') or {}).get('overall')}), answer recall {ar['overall']}, context "
                f"tokens/query {stats['context_tokens_per_query']}, p50 {stats['search_latency_ms']['p50']:.1f} ms")
        if "llm_judge_accuracy" in stats:
            line += f", judge accuracy {stats['llm_judge_accuracy']['overall']}"
        lines.append(line)
    return "\n".join(lines)
