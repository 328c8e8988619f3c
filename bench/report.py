"""``bench/results/SUMMARY.md`` and the PNG plots beside it, from the JSON results of a bench run.

Pure Python + matplotlib (Agg backend); no Django. ``python -m bench.report [--results DIR]`` rebuilds the summary
from whatever JSON files are in the folder:

- ``locomo*.json``: reports of ``bench_locomo`` (``{"runs": [...]}``) — merged, compared (online ÷ eager);
- ``locomo_sweep*.json``: θ_sim sweeps;
- ``scale*.json``: ``bench_scale`` reports;
- ``pii*.json``: ``bench_pii`` reports;
- ``faults.json``: ``python -m bench.faults`` (kill -9 of worker and database; first ingest after a start).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"

GOALS = {
    "calls_ratio": 0.15,
    "prompt_ratio": 0.15,
    "search_p95_ms_100k": 60.0,
    "hnsw_recall_100k": 0.95,
    "api_ingest_4_clients": 100.0,
    "bulk_import": 150.0,
}


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def collect(results: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"locomo_runs": [], "sweeps": [], "scale": [], "pii": [], "embedders": [], "faults": [],
                           "admin_pages": [], "startup": [], "poison": [], "meta": None}
    for path in sorted(results.glob("*.json")):
        data = _load(path)
        if not isinstance(data, dict):
            continue
        kind = data.get("benchmark")
        if kind == "locomo":
            for run in data.get("runs", []):
                run = {**run, "_file": path.name}
                out["locomo_runs"].append(run)
        elif kind == "locomo_sweep":
            out["sweeps"].append({**data, "_file": path.name})
        elif kind == "scale":
            out["scale"].append({**data, "_file": path.name})
        elif kind == "embedders":
            out["embedders"].append({**data, "_file": path.name})
        elif kind == "faults":
            out["faults"].append({**data, "_file": path.name})
        elif kind == "startup":
            out["startup"].append({**data, "_file": path.name})
        elif kind == "admin_pages":
            out["admin_pages"].append({**data, "_file": path.name})
        elif kind == "poison":
            out["poison"].append({**data, "_file": path.name})
        elif path.name.startswith("pii") and "pii" in data:
            out["pii"].append({**data, "_file": path.name})
        elif path.name == "run.json":
            out["meta"] = data
    return out


# --------------------------------------------------------------------------------------------------------
# Formatting helpers.


def _f(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _n(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _ok(passed: bool | None) -> str:
    return "–" if passed is None else ("met" if passed else "**missed**")


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


# --------------------------------------------------------------------------------------------------------
# Sections.


def _locomo_rows(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (run, search config)."""
    rows = []
    for run in runs:
        c = run["construction"]
        for name, stats in run["retrieval"].items():
            er = stats["evidence_recall"]
            rows.append({
                "label": run["label"], "config": name, "conversations": len(run.get("conversations", [])),
                "exchanges": run["exchanges"], "questions": stats["questions"], "batches": c["batches"],
                "trigger_rate": c["trigger_rate_per_100"], "consolidated": c["consolidated_share"],
                "calls100": c["llm_calls_per_100"], "prompt100": c["prompt_tokens_per_100"],
                "completion100": c["completion_tokens_per_100"], "recall": er["overall"],
                "by_category": er["by_category"], "answer_recall": stats["answer_recall"]["overall"],
                "in_context": (stats.get("evidence_recall_in_context") or {}).get("overall"),
                "context_tokens": stats["context_tokens_per_query"],
                "result_tokens": stats["result_tokens_per_query"],
                "p50": (stats.get("search_latency_ms") or {}).get("p50"),
                "judge": (stats.get("llm_judge_accuracy") or {}).get("overall"),
                "wall": run["wall_seconds"]["total"], "endpoint": run.get("llm_endpoint"),
                "equiv": (c.get("llm_equivalent") or {}).get("prompt_tokens"),
                "equiv_calls": (c.get("llm_equivalent") or {}).get("llm_calls"),
            })
    return rows


def _group_by_dataset(runs: list[dict[str, Any]]) -> dict[tuple, list[dict[str, Any]]]:
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for run in runs:
        key = tuple(run.get("conversations", []))
        groups.setdefault(key, []).append(run)
    return groups


def locomo_section(runs: list[dict[str, Any]], plots: dict[str, str]) -> list[str]:
    from bench.locomo import compare

    lines = ["## LoCoMo: construction cost and evidence recall", ""]
    if not runs:
        return [*lines, "_no LoCoMo results_", ""]
    first = runs[0]
    lines += [
        f"Data `{Path(first['data']).name}`; embedding model `{first['embedding_model']}`, θ_sim "
        f"{first['thresholds']['theta_sim']}, θ_count {first['thresholds']['theta_count']}; search budget 10/5/10 "
        f"(flat: top-k exchanges only), context budget {first['search_token_budget']} tokens; queries "
        f"{'masked like the stored text' if first.get('mask_queries', True) else 'raw'}. Pairing: "
        f"{first['pairing']}. Token counts: offline `{first['construction']['tokenizer']}` on the real prompts "
        "(the fake server's `usage` is computed the same way); completion tokens are the fake responder's "
        "replies and are not representative of a real model.",
        "",
    ]
    for conversations, group in _group_by_dataset(runs).items():
        rows = _locomo_rows(group)
        lines += [f"### {len(conversations)} conversation(s): {', '.join(conversations)}", ""]
        lines += _table(
            ["run", "search", "exch.", "batches", "triggers/100", "consolidated", "LLM calls/100",
             "prompt tok/100", "compl. tok/100", "evidence recall", "c1 multi-hop", "c2 temporal",
             "c3 open", "c4 single", "recall in context", "answer recall", "context tok/q", "all-hits tok/q",
             "wall s"],
            [[r["label"], r["config"], _n(r["exchanges"]), _n(r["batches"]), _f(r["trigger_rate"], 1),
              _f(r["consolidated"], 2), _f(r["calls100"], 1), _n(r["prompt100"]), _n(r["completion100"]),
              _f(r["recall"]), _f(r["by_category"].get("1")), _f(r["by_category"].get("2")),
              _f(r["by_category"].get("3")), _f(r["by_category"].get("4")), _f(r["in_context"]),
              _f(r["answer_recall"]),
              _n(r["context_tokens"]), _n(r["result_tokens"]), _n(r["wall"])] for r in rows])
        lines.append("")
        judged = [r for r in rows if r["judge"] is not None]
        if judged:
            lines += ["LLM-judge accuracy: " + ", ".join(f"{r['label']}/{r['config']} {_f(r['judge'])}"
                                                      for r in judged), ""]
        notes: list[str] = []  # one per run: the rows are per run and search, the estimate is the run's
        for r in rows:
            if r["equiv"]:
                note = (f"`{r['label']}` makes no LLM calls; the LLM consolidator would have been sent about "
                        f"{_n(r['equiv'])} prompt tokens in {r['equiv_calls']} calls for the same batches "
                        f"({_n(r['equiv'] * 100 / r['exchanges'])} per 100 exchanges; estimate, see JSON).")
                if note not in notes:
                    notes.append(note)
        for note in notes:
            lines += [note, ""]
        comparison = compare(group)
        for ratio in (comparison.get("online_vs_eager_by_run") or {}).values():
            lines += [
                f"**Online ÷ eager** (`{ratio['online']}` ÷ `eager-llm`, fake server): LLM calls "
                f"**{_f(ratio['llm_calls_ratio'])}** (goal ≤ 0.15: "
                f"{_ok(ratio['llm_calls_ratio'] <= GOALS['calls_ratio'])}), prompt tokens "
                f"**{_f(ratio['prompt_tokens_ratio'])}** (goal ≤ 0.15: "
                f"{_ok(ratio['prompt_tokens_ratio'] <= GOALS['prompt_ratio'])}), all tokens "
                f"{_f(ratio['total_tokens_ratio'])}. The paper: 193.2K vs 1,520.8K tokens (0.127).", ""]
        flat25 = next((r for r in rows if r["config"] == "flat_top25"), None)
        extractive = next((r for r in rows if r["label"].startswith("online-extractive")), None)
        if flat25 and extractive:
            passed = (extractive["recall"] or 0) >= (flat25["recall"] or 0)
            lines += [
                f"**Extractive online vs flat top-25**: evidence recall {_f(extractive['recall'])} vs "
                f"{_f(flat25['recall'])} (goal ≥: {_ok(passed)}); counting only what fits the "
                f"{first['search_token_budget']}-token context {_f(extractive['in_context'])} vs "
                f"{_f(flat25['in_context'])}; context tokens per query "
                f"{_n(extractive['context_tokens'])} vs {_n(flat25['context_tokens'])} at the default budget, all "
                f"hits rendered {_n(extractive['result_tokens'])} vs {_n(flat25['result_tokens'])} (goal: no more "
                f"than flat top-25: {_ok((extractive['result_tokens'] or 0) <= (flat25['result_tokens'] or 0))}).",
                ""]
    if "cost_recall" in plots:
        lines += [f"![cost vs recall]({plots['cost_recall']})", ""]
    return lines


UNTUNED = ("conv-43", "conv-44", "conv-47")  # never tuned on: reported beside the tuning split, so overfitting shows


def _mean_sd(values: list[float]) -> str:
    import statistics

    values = [v for v in values if v is not None]
    if not values:
        return "–"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.3f}" if mean < 10 else f"{mean:,.0f}"
    sd = statistics.stdev(values)
    return f"{mean:.3f} ± {sd:.3f}" if mean < 10 else f"{mean:,.0f} ± {sd:,.0f}"


def repeats_section(runs: list[dict[str, Any]]) -> list[str]:
    """Mean ± sample standard deviation over the runs that differ only in their seed (the pseudonym key), per split,
    run and search; then the retrieval goals on the untuned split."""
    import statistics

    seeded = [r for r in runs if r.get("seed") is not None]
    if not seeded:
        return []
    groups: dict[tuple, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for run in seeded:
        split = "untuned" if tuple(run.get("conversations", [])) == UNTUNED else ", ".join(run.get("conversations", []))
        for name, stats in run["retrieval"].items():
            key = (split, run["label"], run.get("variant") or "", name)
            groups.setdefault(key, []).append((run, stats))
    lines = ["## LoCoMo over repeated runs", "",
             "Each row: mean ± sample standard deviation over the runs listed (seeds: each seed fixes the bench "
             "project's pseudonym key, so a run is reproducible and the seeds show the spread the key causes). "
             "`@name` rows search the same store with one setting changed (ablation); `flat_top*` rows of an "
             "online run are plain top-k by cosine over that run's own exchange layer (what flat mode searches).", ""]
    rows = []
    for (split, label, variant, name), members in sorted(groups.items()):
        def pick(f, members=members):
            return [f(s) for _, s in members]
        rows.append([split, label + (f" ({variant})" if variant else ""), name,
                     ",".join(str(r.get("seed")) for r, _ in members),
                     _mean_sd(pick(lambda s: s["evidence_recall"]["overall"])),
                     *[_mean_sd(pick(lambda s, c=c: s["evidence_recall"]["by_category"].get(c))) for c in "1234"],
                     _mean_sd(pick(lambda s: (s.get("evidence_recall_in_context") or {}).get("overall"))),
                     _mean_sd(pick(lambda s: s["answer_recall"]["overall"])),
                     _mean_sd(pick(lambda s: s["context_tokens_per_query"])),
                     _mean_sd(pick(lambda s: s["result_tokens_per_query"]))])
    lines += _table(["split", "run", "search", "seeds", "evidence recall", "c1", "c2", "c3", "c4", "in context",
                     "answer recall", "context tok/q", "all-hits tok/q"], rows)
    lines.append("")
    # Goals on the untuned split: the extractive run's default search against flat top-25 of the same stores, for
    # the run variant repeated most (the ablation replays, one seed each, stay out of the means).
    from collections import Counter

    seeds = Counter({v: len(m) for (split, label, v, name), m in groups.items() if split == "untuned"
                     and label == "online-extractive" and name.startswith("recmem") and "@" not in name})
    main = seeds.most_common(1)[0][0] if seeds else None
    ext = [(r, s) for (split, label, v, name), m in groups.items() if split == "untuned" and v == main
           and label == "online-extractive" and "@" not in name and name.startswith("recmem") for r, s in m]
    flat = [(r, s) for (split, label, v, name), m in groups.items() if split == "untuned" and v == main
            and name == "flat_top25" and label == "online-extractive" for r, s in m]
    if ext and flat:
        def mean(items, f):
            return statistics.fmean(f(s) for _, s in items)
        er = mean(ext, lambda s: s["evidence_recall"]["overall"])
        c1 = mean(ext, lambda s: s["evidence_recall"]["by_category"]["1"])
        fr = mean(flat, lambda s: s["evidence_recall"]["overall"])
        ct, fct = (mean(ext, lambda s: s["context_tokens_per_query"]),
                   mean(flat, lambda s: s["context_tokens_per_query"]))
        ar = mean(ext, lambda s: s["answer_recall"]["overall"])
        far = mean(flat, lambda s: s["answer_recall"]["overall"])
        lines += ["**Retrieval goals on the untuned conversations** (means over the seeds above):", "",
                  f"- extractive evidence recall {er:.3f} (goal ≥ 0.80: {_ok(er >= 0.80)}); category 1 {c1:.3f} "
                  f"(goal ≥ 0.68: {_ok(c1 >= 0.68)});",
                  f"- {er - fr:+.3f} against flat top-25 ({fr:.3f}; goal ≥ +0.05: {_ok(er - fr >= 0.05)}) with "
                  f"{ct:,.0f} context tokens per query against {fct:,.0f} (goal: no more: {_ok(ct <= fct)});",
                  f"- answer recall {ar:.3f} against flat top-25's {far:.3f} (goal ≥: {_ok(ar >= far)})."]
        matched = [s["at_flat_budget"] for _, s in ext if s.get("at_flat_budget")]
        if len(matched) == len(ext):
            # The same results packed into a block no larger than flat top-25's for the same question: the
            # comparison at equal tokens, scored on what the block holds (not on all returned hits).
            m_ct = statistics.fmean(m["context_tokens_per_query"] for m in matched)
            m_ic = [m["evidence_recall_in_context"]["overall"] for m in matched]
            m_ar = [m["answer_recall"]["overall"] for m in matched]
            f_ic = [(s.get("evidence_recall_in_context") or {}).get("overall") for _, s in flat]
            # Episodes credited only with the source turns their line shows (older results lack the figure).
            m_sh = [(m.get("evidence_recall_shown") or {}).get("overall") for m in matched]
            f_sh = [(s.get("evidence_recall_shown") or {}).get("overall") for _, s in flat]
            lines += [f"- at flat top-25's block size per question ({m_ct:,.0f} tokens per query against "
                      f"{fct:,.0f}: {_ok(m_ct <= fct)}): evidence in the block {_mean_sd(m_ic)} against flat "
                      f"top-25's {_mean_sd(f_ic)} ({statistics.fmean(m_ic) - statistics.fmean(f_ic):+.3f}; goal "
                      f"≥ +0.05: {_ok(statistics.fmean(m_ic) - statistics.fmean(f_ic) >= 0.05)}), answer recall "
                      f"{_mean_sd(m_ar)} against {far:.3f} (goal ≥: {_ok(statistics.fmean(m_ar) >= far)})."]
            if None not in m_sh + f_sh:
                lines += [f"- the same with an episode credited only with the turns its line shows: "
                          f"{_mean_sd(m_sh)} against {_mean_sd(f_sh)} "
                          f"({statistics.fmean(m_sh) - statistics.fmean(f_sh):+.3f})."]
        lines.append("")
    onl = [r for r in seeded if tuple(r.get("conversations", [])) == UNTUNED and r["label"] == "online-llm"]
    eag = [r for r in seeded if tuple(r.get("conversations", [])) == UNTUNED and r["label"] == "eager-llm"]
    if onl and eag:
        eager_prompt = statistics.fmean(r["construction"]["prompt_tokens_per_100"] for r in eag)
        ratios = [r["construction"]["prompt_tokens_per_100"] / eager_prompt for r in onl]
        lines += [f"- LLM online ÷ eager prompt tokens on the untuned conversations: {_mean_sd(ratios)} "
                  f"(online seeds {','.join(str(r['seed']) for r in onl)}, eager seeds "
                  f"{','.join(str(r['seed']) for r in eag)}; goal ≤ 0.10: "
                  f"{_ok(statistics.fmean(ratios) <= 0.10)}).", ""]
    return lines


def sweep_section(sweeps: list[dict[str, Any]], plots: dict[str, str]) -> list[str]:
    if not sweeps:
        return []
    lines = ["## θ_sim trade-off", ""]
    for sweep in sweeps:
        lines += [f"Consolidator `{sweep['consolidator']}`, embedding model `{sweep['embedding_model']}`, θ_count "
                  f"{sweep.get('theta_count')}, conversations: {sweep.get('conversations') or 'all'}.", ""]
        lines += _table(["θ_sim", "triggers/100", "salience/100", "batches", "consolidated", "LLM calls/100",
                         "prompt tok/100", "evidence recall", "answer recall", "context tok/q"],
                        [[_f(p["theta_sim"], 2), _f(p["trigger_rate_per_100"], 1), _f(p["salience_rate_per_100"], 1),
                          _n(p["batches"]), _f(p["consolidated_share"], 2), _f(p["llm_calls_per_100"], 1),
                          _n(p["prompt_tokens_per_100"]), _f(p["evidence_recall"]), _f(p["answer_recall"]),
                          _n(p["context_tokens_per_query"])] for p in sweep["points"]])
        lines.append("")
    if "sweep" in plots:
        lines += [f"![θ_sim sweep]({plots['sweep']})", ""]
    return lines


def embedders_section(reports: list[dict[str, Any]]) -> list[str]:
    """The embedding backends side by side (bench_embedders)."""
    if not reports:
        return []
    lines = ["## Embedding backends (bench_embedders)", ""]
    for rep in reports:
        ref = rep["reference"]
        ref_rate = (rep["backends"].get(ref) or {}).get("texts_per_second")
        load = (rep.get("load_average_start") or [None])[0]
        lines += [f"`{rep['_file']}`: {_n(rep['exchanges'])} LoCoMo dev exchanges and {_n(rep['questions'])} "
                  f"questions, every backend in one process one after the other ({rep.get('cpus')} CPUs, load "
                  f"average {_f(load, 2)} at start, {_f((rep.get('load_average_end') or [None])[0], 2)} at the end: "
                  "compare the ratios). Retrieval: flat exact top-k over each conversation's exchanges, raw text; "
                  f"tuning conversations {', '.join(rep['tuning_conversations'])}, untuned "
                  f"{', '.join(rep['untuned_conversations'])}. Masking alone: "
                  f"{_n(rep.get('masking_only_exchanges_per_second'))} exchanges/s.", ""]
        rows = []
        for name, b in rep["backends"].items():
            r = b["retrieval"]
            rows.append([f"`{name}`", f"`{b['model_id']}`", _n(b["texts_per_second"]),
                         _f(b["texts_per_second"] / ref_rate, 2) + "×" if ref_rate else "–",
                         _f(b["query_p50_ms"], 2), _f(b["query_p95_ms"], 2),
                         _n(b.get("embedding_plus_masking_exchanges_per_second")),
                         f"{_f(r['tuning']['evidence_recall@10'])} / {_f(r['tuning']['evidence_recall@25'])}",
                         f"{_f(r['untuned']['evidence_recall@10'])} / {_f(r['untuned']['evidence_recall@25'])}",
                         _f(b.get("neighbour_overlap@10_with_reference")) if name != ref else "(reference)"])
        lines += _table(["backend", "model id", "texts/s", "÷ reference", "query p50 ms", "query p95 ms",
                         "embedding + masking exch./s", "recall @10 / @25 (tuning)", "recall @10 / @25 (untuned)",
                         "neighbour overlap @10"], rows)
        lines.append("")
        rows = []
        for name, b in rep["backends"].items():
            t = b.get("thresholds") or {}
            conf, cal = t.get("configured") or {}, t.get("calibrated_on_tuning") or {}
            m = b.get("marathon") or {}
            rows.append([f"`{name}`", f"{_f(conf.get('theta_sim'), 2)} / {_f(cal.get('theta_sim'), 3)}",
                         f"{_f(conf.get('merge'), 2)} / {_f(cal.get('merge'), 3)}",
                         f"{_f(conf.get('dedup'), 2)} / {_f(cal.get('dedup'), 3)}",
                         _f(t.get("ripe_share_tuning_at_configured")), _f(t.get("ripe_share_untuned_at_configured")),
                         f"{_f(m.get('within_topic_min'))} / {_f(m.get('to_chatter_max'))}",
                         "yes" if m.get("ripe_at_fifth_unit") else "**no**"])
        lines += [f"Thresholds (configured / calibrated on the tuning conversations: θ_sim at the reference's ripe "
                  f"share {_f(rep.get('reference_ripe_share_tuning'))}, merge and dedup at equal selectivity), the "
                  "share of units that can make a topic ripe at the configured θ_sim, and the e2e marathon "
                  "scenario (lowest similarity within the topic / highest to chatter; ripe at its fifth unit):", "",
                  *_table(["backend", "θ_sim", "merge", "dedup", "ripe share (tuning)", "ripe share (untuned)",
                           "marathon within / to chatter", "marathon triggers"], rows), ""]
        if rep.get("two_stage"):
            rows = [[f"`{name}`", f"{_f(v['tuning']['evidence_recall@10'])} / {_f(v['tuning']['evidence_recall@25'])}",
                     f"{_f(v['untuned']['evidence_recall@10'])} / {_f(v['untuned']['evidence_recall@25'])}"]
                    for name, v in rep["two_stage"].items()]
            lines += ["Two stages (static candidates re-scored by the reference's vectors):", "",
                      *_table(["variant", "recall @10 / @25 (tuning)", "recall @10 / @25 (untuned)"], rows), "",
                      rep.get("two_stage_note", ""), ""]
    return lines


def scale_section(scales: list[dict[str, Any]], plots: dict[str, str]) -> list[str]:
    lines = ["## Throughput, latency and HNSW recall at scale", ""]
    if not scales:
        return [*lines, "_no scale results_", ""]
    for scale in scales:
        comp = scale.get("components") or {}
        cache = scale.get("embedding_cache") or {}
        load = (scale.get("load_average_start") or [None])[0]
        lines += [f"### `{scale.get('_file', 'scale')}`: sizes "
                  f"{', '.join(_n(e['size']) for e in scale['sizes'])}", ""]
        if scale.get("fast_fill"):
            fid = scale.get("fast_fill_fidelity") or {}
            lines += [
                f"**Fast fill** (how the 1M store is built): masking memoised per turn text (identical input, "
                f"identical output); "
                f"vectors from the cache where present ({_n(cache.get('from_cache'))}, real), the other "
                f"{_n(cache.get('composed'))} composed from the vectors of their two turn lines ({fid.get('method')}; "
                f"cosine to the real vector {_f(fid.get('cosine_mean'))} on average, 5th percentile "
                f"{_f(fid.get('cosine_p5'))}, {fid.get('pairs')} pairs); consolidation mode during the import "
                f"`{scale.get('consolidation_mode_during_import')}`. Its bulk-import rate is therefore not an ingest "
                "rate, and the goals below are judged on the run with every vector computed."
                + (" No vector was composed in this run." if not cache.get("composed") else "")
                + (f" It continued a store kept by an earlier run ({_n(scale['resumed_from'])} exchanges)."
                   if scale.get("resumed_from") else ""), ""]
        if scale.get("bulk_copy"):
            lines += copy_fill_lines(scale)
        first = (scale["sizes"] or [{}])[0].get("hnsw_recall") or {}
        exact_rows = first.get("exact_search_max_rows")
        graph = scale.get("exchange_hnsw")
        lines += [f"Search settings: `hnsw.ef_search` {first.get('ef_search')} (configured); "
                  + (f"exchange graph m {graph['m']} / `ef_construction` {graph['ef_construction']} "
                     "(`--exchange-hnsw`; the migrations build 16 / 64); " if isinstance(graph, dict) else "")
                  + (f"tables of at most {_n(exact_rows)} rows scanned exactly." if exact_rows is not None
                     else "HNSW on every layer (run before the exact scan of small tables existed)."), ""]
        lines += [
            f"Embedder `{scale['embedding_model']}` ({comp.get('torch_threads')} torch threads, OMP_WAIT_POLICY "
            f"{comp.get('omp_wait_policy') or 'default'}, OPENBLAS_NUM_THREADS "
            f"{comp.get('openblas_threads') or 'default'}), {scale.get('cpus')} CPUs, load average {_f(load, 2)} at "
            f"start (other processes share this machine). Texts: {scale['text_source']}. Layers: {scale['layers']}. "
            f"Embeddings from the cache: {_n(cache.get('from_cache'))} of "
            f"{_n((cache.get('from_cache') or 0) + (cache.get('computed') or 0))} "
            f"({'read enabled' if cache.get('read') else 'not read: every vector computed'}).",
            "",
            f"Component rates on the same texts: **embedding only {_n(comp.get('embedding_only_per_second'))}/s**, "
            f"masking only {_n(comp.get('masking_only_exchanges_per_second'))} exchanges/s (one process).",
            "",
        ]
        rows = []
        for e in scale["sizes"]:
            http = {(r["clients"], r["exchanges_per_request"]): r for r in (e.get("http") or {}).get("runs", [])}
            rss = e.get("rss") or {}
            rows.append([
                _n(e["size"]), _n(e["bulk_import"]["exchanges_per_second"]),
                _n(e["bulk_import"].get("embeddings_from_cache")),
                _f(e["search"]["p50_ms"], 1), _f(e["search"]["p95_ms"], 1), _f(e["search"]["p99_ms"], 1),
                _f(e["search"].get("query_embedding_p50_ms"), 1),
                " / ".join(_f(e["search"].get(f"sql_{p}_ms"), 1) for p in ("p50", "p95", "p99")),
                _f(e["hnsw_recall"]["exchanges"]["recall_at_k"]), _f(e["hnsw_recall"]["episodes"]["recall_at_k"]),
                _f(e["hnsw_recall"]["experiences"]["recall_at_k"]),
                _n((http.get((1, 1)) or {}).get("exchanges_per_second")),
                _n((http.get((4, 1)) or {}).get("exchanges_per_second")),
                _n((http.get((1, 20)) or {}).get("exchanges_per_second")),
                _n((http.get((4, 20)) or {}).get("exchanges_per_second")),
                _n((rss.get("web") or {}).get("peak_tree_rss_mib")),
                _n((rss.get("worker") or {}).get("peak_tree_rss_mib")),
            ])
        lines += _table(["exchanges", "bulk import /s", "cached vectors", "search p50 ms", "p95 ms", "p99 ms",
                         "query embed p50 ms", "SQL p50 / p95 / p99 ms", "HNSW recall exch. @10", "episodes @5",
                         "experiences @10",
                         "API 1 client /s", "API 4 clients /s", "API 1×20/req /s", "API 4×20/req /s",
                         "web RSS MiB", "worker RSS MiB"], rows)
        lines.append("")
        errors = [(e["size"], r) for e in scale["sizes"] for r in (e.get("http") or {}).get("runs", []) if r["errors"]]
        for size, r in errors:
            lines.append(f"- HTTP errors at {size}: {r['errors']} in the {r['clients']}-client run "
                         f"({r['first_errors'][:1]})")
        for e in scale["sizes"]:
            cons = (e.get("http") or {}).get("consolidation")
            if cons:
                lines.append(f"- {e['size']}: consolidation requested through the API, run by the worker: {cons}")
            lines += store_lines(e)
        lines.append("")
        lines += layout_lines(scale)
        lines += worker_nice_lines(scale)
        lines += ef_lines(scale)
        if not scale.get("fast_fill") and not scale.get("bulk_copy"):
            lines += goals_lines(scale)
        lines += million_goals_lines(scale)
    if "latency" in plots:
        lines += [f"![latency vs store size]({plots['latency']})", ""]
    return lines


def _bound(comps: list[dict[str, Any]], embedding_key: str = "embedding_only_per_second") -> tuple[float | None,
                                                                                                  list[float]]:
    """The embedding + masking bound (exchanges/s, one process, serial) of each component measurement, and their
    mean."""
    bounds = [1 / (1 / c[embedding_key] + 1 / c["masking_only_exchanges_per_second"])
              for c in comps if c.get(embedding_key) and c.get("masking_only_exchanges_per_second")]
    return (sum(bounds) / len(bounds) if bounds else None), bounds


def _components(scale: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in (scale.get("components") or {}, scale.get("components_end") or {}) if c]


def ingest_ceiling(scale: dict[str, Any], run: dict[str, Any]) -> float | None:
    """The highest API ÷ bound a run's database work leaves: the cores ÷ (embedding CPU + masking CPU
    per exchange at the bound's own batching + the database server's CPU per exchange measured in the run), i.e.
    with the web server's and the worker's own CPU at zero, against the bound."""
    bound, _ = _bound(_components(scale))
    comps = [c for c in _components(scale) if c.get("embedding_cpu_ms_per_text") and
             c.get("masking_cpu_ms_per_exchange")]
    database = (run.get("cpu_ms_per_exchange") or {}).get("database")
    if not bound or not comps or database is None:
        return None
    models = sum(c["embedding_cpu_ms_per_text"] + c["masking_cpu_ms_per_exchange"] for c in comps) / len(comps)
    return (scale.get("cpus") or os.cpu_count() or 1) * 1000 / (models + database) / bound


def layout_lines(scale: dict[str, Any]) -> list[str]:
    """API ingest per web layout (processes × threads) against the embedding + masking bound: measured
    before the HTTP runs and, where the run did, again after them; the mean of the two is the bound."""
    bound, bounds = _bound(_components(scale))
    raw_bound, _ = _bound(_components(scale), "embedding_raw_forms_per_second")
    rows = []
    for e in scale["sizes"]:
        for layout in e.get("http_layouts") or []:
            for r in layout["http"]["runs"]:
                rate = r["exchanges_per_second"]
                load = " → ".join(_f((r.get(k) or [None])[0], 1) for k in ("load_average_start", "load_average_end"))
                cpu = r.get("cpu_ms_per_exchange") or {}
                rows.append([_n(e["size"]), f"{layout['workers']} × {layout['threads']}", str(r["clients"]),
                             str(r["exchanges_per_request"]), _n(rate), _f(rate / bound, 2) if bound and rate else "–",
                             _f(ingest_ceiling(scale, r), 2),
                             " / ".join(_f(cpu.get(k), 1) for k in ("web", "worker", "database", "clients")),
                             _f(r["request_p50_ms"], 1), _n((layout["rss"].get("web") or {}).get("peak_tree_rss_mib")),
                             load])
    if not rows:
        return []
    each = (f" (the mean of {_n(round(bounds[0], 1))} before and {_n(round(bounds[1], 1))} after the HTTP runs)"
            if len(bounds) > 1 else "")
    raw = (f"; with the unmasked forms embedded, as the bound was computed before session 11: "
           f"{_n(round(raw_bound, 1))}/s" if raw_bound else "")
    return [f"API ingest by web layout (gunicorn processes × threads; bound = embedding of the masked forms + masking "
            f"only in one process, {_n(round(bound, 1)) if bound else '–'} exchanges/s in this run{each}{raw}). "
            "Ceiling: the ratio left if the web server and the worker cost no CPU of their own — the cores ÷ "
            "(embedding + masking CPU per exchange at the bound's batching + the database server's CPU per "
            "exchange in that run):", "",
            *_table(["exchanges", "processes × threads", "clients", "exch./request", "API exch./s", "÷ bound",
                     "ceiling", "CPU ms/exch. web / worker / database / clients", "request p50 ms", "web RSS MiB",
                     "load average start → end"], rows), ""]


def worker_nice_lines(scale: dict[str, Any]) -> list[str]:
    """HTTP ingest during a governance-metrics pass, queue worker at nice 0 and at RECMEM_WORKER_NICE."""
    rows = [[_n(e["size"]), str(r["worker_nice"]), _n(r["exchanges_per_second"]), _f(r["request_p50_ms"], 1),
             " / ".join(_f((r.get("cpu_ms_per_exchange") or {}).get(k), 1) for k in ("web", "worker", "database"))]
            for e in scale["sizes"] for r in e.get("worker_nice_ab") or []]
    if not rows:
        return []
    return ["API ingest (4 clients × 20 per request) while the queue worker runs a governance-metrics pass (it "
            "embeds the user texts of the 3,000 newest exchanges again), the worker at nice 0 and at "
            "`RECMEM_WORKER_NICE`, alternating:", "",
            *_table(["exchanges", "worker nice", "API exch./s", "request p50 ms",
                     "CPU ms/exch. web / worker / database"], rows), ""]


def store_lines(e: dict[str, Any]) -> list[str]:
    """Index build, sizes, pre-warm and memory of one size, where the run measured them."""
    out = []
    size = _n(e["size"])
    build = {k: v for k, v in (e.get("index_build_seconds") or {}).items() if k.endswith("_hnsw")}
    storage = e.get("storage") or {}
    if build or storage:
        layers = ("exchange", "episode", "experience")
        text = (f"- {size}: HNSW index size exchanges / episodes / experiences "
                + " / ".join(_n(storage.get(f"{n}_embedding_hnsw_mib")) for n in layers) + " MiB; tables "
                + " / ".join(_n(storage.get(f"memory_{n}_mib")) for n in layers) + " MiB")
        if build:
            info = e["index_build_seconds"]
            text += (f"; index build after the fill {' / '.join(_n(build.get(f'{n}_embedding_hnsw')) for n in layers)}"
                     f" s (maintenance_work_mem {info.get('maintenance_work_mem')}, "
                     f"{info.get('max_parallel_maintenance_workers')} parallel workers)")
        out.append(text)
    memory = e.get("memory") or {}
    if memory:
        out.append(f"- {size}: server shared_buffers {memory.get('shared_buffers')}, effective_cache_size "
                   f"{memory.get('effective_cache_size')}, work_mem {memory.get('work_mem')}; PostgreSQL PSS "
                   f"{_n(memory.get('postgres_pss_mib'))} MiB, benchmark process peak RSS "
                   f"{_n(memory.get('bench_process_peak_rss_mib'))} MiB; HNSW pre-warm "
                   f"{_n((e.get('prewarm') or {}).get('seconds'))} s")
    return out


def copy_fill_lines(scale: dict[str, Any]) -> list[str]:
    """How a ``--bulk-copy`` store was written (bench/bulkfill.py), with the fidelity of its composed vectors."""
    fid = scale.get("fast_fill_fidelity") or {}
    bank = scale.get("turn_bank") or {}
    out = []
    for e in scale["sizes"]:
        bulk = e["bulk_import"]
        if not bulk.get("exchanges"):
            continue
        episodes = bulk.get("episode_vectors") or {}
        efid = episodes.get("fidelity") or {}
        rows = bulk.get("rows") or {}
        out.append(
            f"**COPY fill** to {_n(e['size'])} (`--bulk-copy`, bench/bulkfill.py): {_n(bulk['exchanges'])} exchanges, "
            f"{_n(rows.get('episodes'))} episodes, {_n(rows.get('experiences'))} experiences and "
            f"{_n(rows.get('links'))} provenance links written with binary COPY in {_n(bulk.get('seconds'))} s "
            f"({_n(bulk.get('exchanges_per_second'))} exchanges/s; "
            + ", ".join(f"{k} {v} s" for k, v in (bulk.get("seconds_by_part") or {}).items())
            + f"), then VACUUM ANALYZE {_n(e.get('vacuum_analyze_seconds'))} s. Texts: each of "
            f"{_n(bank.get('turns'))} distinct lines (turns) masked once ({bank.get('masking_seconds')} s). "
            "Exchange vectors: "
            f"composed from the real vectors of their two turn lines ({fid.get('method')}; cosine to the real "
            f"vector {_f(fid.get('cosine_mean'))} on average, 5th percentile {_f(fid.get('cosine_p5'))}, "
            f"{fid.get('pairs')} pairs). Episode vectors: {_n(episodes.get('real'))} real encodings (cache), "
            f"{_n(episodes.get('composed'))} composed ({efid.get('method')}; cosine to the real encoding "
            f"{_f(efid.get('cosine_mean'))}, 5th percentile {_f(efid.get('cosine_p5'))}, {efid.get('episodes')} "
            "episodes). Experiences: real line vectors. Queries and the ground truth: real query vectors, exact scan "
            "of the same rows. The fill rate is not an ingest rate; the goals below judge the store.")
        out.append("")
    return out


def million_goals_lines(scale: dict[str, Any]) -> list[str]:
    """The scale goals at 1M exchanges: search p95 ≤ 30 ms end to end with exchange recall@10 ≥ 0.95, SQL ≤ 10 ms."""
    big = [e for e in scale["sizes"] if e["size"] >= 1_000_000]
    if not big:
        return []
    e = big[-1]
    search = e["search"]
    p95, sql = search["p95_ms"], search.get("sql_p95_ms")
    recall = e["hnsw_recall"]["exchanges"]["recall_at_k"]
    lines = [f"Goals at {_n(e['size'])} exchanges:", "",
             f"- search p95 ≤ 30 ms end to end: {_f(p95, 1)} ms — {_ok(p95 <= 30 if p95 else None)}",
             f"- exchange recall@10 ≥ 0.95: {_f(recall)} — {_ok(recall >= 0.95 if recall else None)}",
             f"- pure SQL p95 ≤ 10 ms: {_f(sql, 1)} ms — {_ok(sql <= 10 if sql else None)}"]
    layers = {n: e["hnsw_recall"][n] for n in ("exchanges", "episodes", "experiences")}
    if layers["exchanges"].get("recall_at_k_ties") is not None:
        lines.append("- recall@k by ids / counting rows tied with the k-th exact distance / ε-recall (ε 0.01, rows "
                     "within 1 % of that distance), and the distance from the k-th to the 3k-th exact neighbour "
                     "(how crowded the neighbourhood is): "
                     + "; ".join(f"{n} {_f(r['recall_at_k'])} / {_f(r.get('recall_at_k_ties'))} / "
                                 f"{_f(r.get('recall_at_k_eps_0_01'))}, gap {_f(r.get('exact_gap_k_to_3k'), 4)}"
                                 for n, r in layers.items()))
    in_turn = search.get("in_turn")
    if in_turn:
        lines.append(
            f"- with the statements side by side on {scale.get('search_threads', 'their own')} extra connections "
            f"(`RECMEM_SEARCH_THREADS`) against in turn on one, same run: search p50 / p95 {_f(search['p50_ms'], 1)} / "
            f"{_f(p95, 1)} vs {_f(in_turn['p50_ms'], 1)} / {_f(in_turn['p95_ms'], 1)} ms, SQL p50 / p95 "
            f"{_f(search.get('sql_p50_ms'), 1)} / {_f(sql, 1)} vs {_f(in_turn['sql_p50_ms'], 1)} / "
            f"{_f(in_turn['sql_p95_ms'], 1)} ms")
    vector_only = search.get("floor_vector_only") or {}
    for ef, floor in (search.get("floor") or {}).items():
        statements = floor.get("statements") or {}
        bare = (vector_only.get(ef) or {}).get("floor") or {}
        ann = statements.get("exchange:ann") or {}
        lines.append(
            f"- the least a search could take here at `ef_search` {ef} (the query embedding + the statements the "
            f"search sends, replayed as raw SQL, their sum spread perfectly over the {floor.get('cores')} cores, no "
            f"Python): p50 / p95 {_f(floor['floor']['p50_ms'], 1)} / {_f(floor['floor']['p95_ms'], 1)} ms; the "
            f"statements' sum {_f(floor['statements_sum']['p50_ms'], 1)} / {_f(floor['statements_sum']['p95_ms'], 1)} "
            f"ms, the exchange ANN statement alone {_f(ann.get('p50_ms'), 1)} / {_f(ann.get('p95_ms'), 1)} ms, the "
            f"query embedding {_f(floor['query_embedding']['p50_ms'], 1)} / {_f(floor['query_embedding']['p95_ms'], 1)}"
            " ms (per statement: " + "; ".join(f"{kind} {_f(v['p50_ms'], 1)} / {_f(v['p95_ms'], 1)}"
                                                for kind, v in statements.items()) + ")"
            + (f"; without the full-text half (vector search only) {_f(bare.get('p50_ms'), 1)} / "
               f"{_f(bare.get('p95_ms'), 1)} ms" if bare else ""))
    prioritised = e.get("search_prioritised")
    if prioritised:
        lines.append(
            f"- the same searches with the benchmark process and its database backend at nice "
            f"{prioritised.get('nice')} (ahead of the other work on the machine): search p50 / p95 / p99 "
            f"{_f(prioritised.get('p50_ms'), 1)} / {_f(prioritised.get('p95_ms'), 1)} / "
            f"{_f(prioritised.get('p99_ms'), 1)} ms, SQL p95 {_f(prioritised.get('sql_p95_ms'), 1)} ms, CPU p95 "
            f"{_f(prioritised.get('cpu_p95_ms'), 1)} ms (SQL {_f(prioritised.get('sql_cpu_p95_ms'), 1)}), waiting "
            f"for a core p95 {_f(prioritised.get('runqueue_wait_p95_ms'), 1)} ms, load average "
            f"{_f((prioritised.get('load_average_start') or [None])[0], 2)}")
    if search.get("cpu_p95_ms") is not None:
        load = [(search.get(k) or [None])[0] for k in ("load_average_start", "load_average_end")]
        lines.append(
            f"- the same searches in CPU time (this process and its database backend, from the kernel's scheduler "
            f"statistics): whole search p50 / p95 / p99 {_f(search.get('cpu_p50_ms'), 1)} / "
            f"{_f(search.get('cpu_p95_ms'), 1)} / {_f(search.get('cpu_p99_ms'), 1)} ms, SQL p95 "
            f"{_f(search.get('sql_cpu_p95_ms'), 1)} ms; time spent waiting for a core p50 / p95 "
            f"{_f(search.get('runqueue_wait_p50_ms'), 1)} / {_f(search.get('runqueue_wait_p95_ms'), 1)} ms, load "
            f"average {_f(load[0], 2)} → {_f(load[1], 2)} on {scale.get('cpus')} CPUs during the measurement")
    return [*lines, ""]


def ef_lines(scale: dict[str, Any]) -> list[str]:
    """Recall and latency at each ``hnsw.ef_search`` measured (the trade-off the default is chosen from)."""
    rows = []
    for e in scale["sizes"]:
        recall = e["hnsw_recall"]
        configured = str(recall.get("ef_search"))
        by_search = {configured: e["search"], **(e["search"].get("by_ef_search") or {})}
        efs = sorted({*by_search, *(recall["exchanges"].get("by_ef_search") or {})}, key=int)
        for ef in efs:
            layer = {name: (recall[name].get("by_ef_search") or {}).get(ef) or {}
                     for name in ("exchanges", "episodes", "experiences")}
            timing = by_search.get(ef) or {}
            rows.append([_n(e["size"]), ef + (" (configured)" if ef == configured else ""),
                         _f(timing.get("p50_ms"), 1), _f(timing.get("p95_ms"), 1),
                         _f(layer["exchanges"].get("recall_at_k")), _f(layer["episodes"].get("recall_at_k")),
                         _f(layer["experiences"].get("recall_at_k")), _f(layer["exchanges"].get("ann_p50_ms"), 1),
                         " / ".join(str(recall[n].get("scan") or "hnsw").split(" ")[0]
                                    for n in ("exchanges", "episodes", "experiences"))])
    if not any(len(e["hnsw_recall"]["exchanges"].get("by_ef_search") or {}) > 1 for e in scale["sizes"]):
        return []
    return ["`hnsw.ef_search` trade-off (search latency includes the query embedding):", "",
            *_table(["exchanges", "ef_search", "search p50 ms", "search p95 ms", "recall exch. @10", "episodes @5",
                     "experiences @10", "exchange ANN p50 ms", "scan exch. / epi. / exp."], rows),
            "", "Tables of at most `RECMEM_EXACT_SEARCH_MAX_ROWS` rows are scanned exactly (`exact`), as the search "
            "does; the others walk HNSW with the iterative scan.", ""]


def goals_lines(scale: dict[str, Any]) -> list[str]:
    sizes = {e["size"]: e for e in scale["sizes"]}
    big = sizes.get(100000) or (sizes[max(sizes)] if sizes else None)
    if big is None:
        return []
    at = f"{big['size']:,}"
    http = {(r["clients"], r["exchanges_per_request"]): r for r in (big.get("http") or {}).get("runs", [])}
    best_bulk = max(e["bulk_import"]["exchanges_per_second"] or 0 for e in scale["sizes"]
                    if not e["bulk_import"].get("embeddings_from_cache"))if any(
        not e["bulk_import"].get("embeddings_from_cache") for e in scale["sizes"]) else None
    p95 = big["search"]["p95_ms"]
    four = (http.get((4, 1)) or {}).get("exchanges_per_second")
    four_batch = (http.get((4, 20)) or {}).get("exchanges_per_second")
    comp = scale.get("components") or {}
    lines = [f"Goals (at {at} exchanges{'' if big['size'] == 100000 else ' — the largest size run, not 100k'}):", ""]
    lines.append(f"- search p95 ≤ 60 ms: {_f(p95, 1)} ms — {_ok(p95 <= GOALS['search_p95_ms_100k'] if p95 else None)}")
    layers = [big["hnsw_recall"][n]["recall_at_k"] for n in ("exchanges", "episodes", "experiences")]
    lines.append(f"- HNSW recall ≥ 0.95 (exchanges / episodes / experiences): {' / '.join(_f(r) for r in layers)} — "
                 f"{_ok(min(layers) >= GOALS['hnsw_recall_100k'] if None not in layers else None)}")
    lines.append(f"- API ingest ≥ 100 exchanges/s with 4 clients: {_n(four)} one exchange per request — "
                 f"{_ok(four >= GOALS['api_ingest_4_clients'] if four else None)}; {_n(four_batch)} with 20 per "
                 "request")
    bound, _ = _bound(_components(scale))  # before and, where measured, after the HTTP runs (layout_lines)
    if bound and four:
        best = max(rate for rate in (four, four_batch) if rate)
        ceilings = [c for c in (ingest_ceiling(scale, http[key]) for key in ((4, 1), (4, 20)) if key in http) if c]
        lines.append(f"- API ingest with 4 clients ÷ (embedding + masking only, {_n(round(bound, 1))} exchanges/s in "
                     f"the same run) ≥ 0.9: {_f(four / bound, 2)} one per request, {_f((four_batch or 0) / bound, 2)} "
                     f"20 per request — {_ok(best / bound >= 0.9)}"
                     + (f"; ceiling with the web server's own CPU at zero {' / '.join(_f(c, 2) for c in ceilings)}"
                        if ceilings else ""))
    lines.append(f"- bulk import ≥ 150 exchanges/s: {_n(best_bulk)} with every vector computed — "
                 f"{_ok(best_bulk >= GOALS['bulk_import'] if best_bulk else None)} (embedding only: "
                 f"{_n(comp.get('embedding_only_per_second'))}/s on this machine)")
    lines.append("")
    return lines


def pii_section(piis: list[dict[str, Any]]) -> list[str]:
    if not piis:
        return []
    lines = ["## PII masking (bench_pii)", ""]
    for pii in piis:
        report = pii.get("pii") or {}
        overall = report.get("overall") or {}
        tp = pii.get("throughput") or {}
        lines += [f"`{Path(str(pii.get('data', ''))).name}`, {pii.get('records')} records: overall precision "
                  f"{_f(overall.get('precision'))}, recall {_f(overall.get('recall'))}, F2 {_f(overall.get('f2'))}; "
                  f"throughput {_n(tp.get('texts_per_second'))} texts/s"
                  + (f", {_n(tp.get('texts_per_cpu_second'))} per CPU-second (load average "
                     f"{tp.get('load_average'):.1f})" if tp.get("texts_per_cpu_second") else "")
                  + f" (~300 characters, batches of {tp.get('batch')}).", ""]
        read, unread = pii.get("pii_dev_read"), pii.get("pii_dev_unread")
        if read and unread:  # the goals apply to the unread part (bench/pii.py: dev_part)
            rows = []
            for t in sorted(set(read["per_type"]) | set(unread["per_type"])):
                r, u = read["per_type"].get(t, {}), unread["per_type"].get(t, {})
                rows.append([t, _n(r.get("gold")), _f(r.get("precision")), _f(r.get("recall")), _n(u.get("gold")),
                             _f(u.get("precision")), _f(u.get("recall")), _f(u.get("f2"))])
            lines += _table(["type", "read gold", "read P", "read R", "unread gold", "unread P", "unread R",
                             "unread F2"], rows)
            lines.append("")
        else:
            per_type = report.get("per_type") or {}
            if per_type:
                lines += _table(["type", "gold", "precision", "recall", "F2"],
                                [[t, _n(r.get("gold")), _f(r.get("precision")), _f(r.get("recall")),
                                  _f(r.get("f2"))] for t, r in per_type.items()])
                lines.append("")
        secrets = (pii.get("secrets") or {}).get("overall")
        if secrets:
            fp = (pii.get("secrets") or {}).get("negatives", {}).get("secret_fp_rate")
            lines += [f"Secrets set (tuning + holdout): precision {_f(secrets.get('precision'))}, recall "
                      f"{_f(secrets.get('recall'))}, F2 {_f(secrets.get('f2'))}, false-positive rate {_f(fp)}.", ""]
        for name, section in (pii.get("secrets_by_section") or {}).items():
            if name.startswith("evasion"):
                o, neg = section["overall"], section["negatives"]
                lines += [f"Secrets `{name}`: recall {_f(o.get('recall'))} ({o.get('found')}/{o.get('gold')}), "
                          f"{neg.get('with_secret_prediction')}/{neg.get('records')} negatives flagged.", ""]
    return lines


# --------------------------------------------------------------------------------------------------------
# Plots.


def faults_section(faults: list[dict[str, Any]]) -> list[str]:
    lines = ["## Faults: processes killed, writes lost or doubled, the first request after a start", ""]
    if not faults:
        return [*lines, "_no fault results_", ""]
    for run in faults:
        if run.get("error"):
            lines += [f"`{run['_file']}`: **the run stopped**: {run['error']}", ""]
        lines += [f"`{run['_file']}`: {run.get('clients')} concurrent clients (one agent each) writing through the "
                  "API, every request with its own `Idempotency-Key` and sent again with it after an error or a "
                  f"timeout; LLM consolidator on the fake endpoint, {run.get('llm_delay_seconds')} s per call; batch "
                  f"lease 20 s, reaper every minute; {run.get('cpus')} CPUs, load average "
                  f"{_f((run.get('load_average_start') or [None])[0], 2)} at start; "
                  f"wall {_n(run.get('wall_seconds'))} s.", ""]
        warm = run.get("warm_start") or {}
        if warm:
            lines += _table(["first ingest after start", "median ingest (next 40)", "ratio", "goal", "",
                             "ready after start", "first request (session)"],
                            [[f"{_n(warm['first_ingest_ms'])} ms", f"{_n(warm['median_ingest_ms'])} ms",
                              _f(warm["ratio"], 2), f"≤ {_f(warm['goal_ratio'], 1)}", _ok(warm["ok"]),
                              f"{_n(warm['ready_seconds'])} s", f"{_n(warm['first_request_ms'])} ms"]])
            lines.append("")
        rows = []
        for key, label in (("worker_kill", "kill -9 of the queue worker mid-batch"),
                           ("postgres_kill", "kill -9 of PostgreSQL mid-ingest")):
            phase = run.get(key)
            if not phase or "acknowledged" not in phase:
                continue
            recover = phase.get("recover_seconds") if key == "worker_kill" else phase.get(
                "all_clients_writing_after_seconds")
            rows.append([label, _n(phase["acknowledged"]), _n(phase["stored"]),
                         f"{_n(phase['lost'])} {_ok(phase['lost'] == 0)}",
                         f"{_n(phase['duplicated'])} {_ok(phase['duplicated'] == 0)}",
                         _n(phase["duplicated_episodes"]), f"{_n(recover)} s",
                         _n(phase.get("all_consolidated_after_seconds"))])
        for i, phase in enumerate((run.get("postgres_kills") or [])[1:], start=2):
            if "acknowledged" in phase:
                rows.append([f"kill -9 of PostgreSQL mid-ingest ({i})", _n(phase["acknowledged"]),
                             _n(phase["stored"]), f"{_n(phase['lost'])} {_ok(phase['lost'] == 0)}",
                             f"{_n(phase['duplicated'])} {_ok(phase['duplicated'] == 0)}",
                             _n(phase["duplicated_episodes"]),
                             f"{_n(phase.get('all_clients_writing_after_seconds'))} s",
                             _n(phase.get("all_consolidated_after_seconds"))])
        many = run.get("worker_kills") or {}
        if "acknowledged" in many:
            summary = many["summary"]
            rows.append([f"kill -9 of one queue worker × {summary['kills']}", _n(many["acknowledged"]),
                         _n(many["stored"]), f"{_n(many['lost'])} {_ok(many['lost'] == 0)}",
                         f"{_n(many['duplicated'])} {_ok(many['duplicated'] == 0)}", _n(many["duplicated_episodes"]),
                         f"longest {_n(summary['longest_recovery_seconds'])} s {_ok(summary['ok'])}",
                         _n(many.get("all_consolidated_after_seconds"))])
        if rows:
            lines += _table(["fault", "acknowledged writes", "stored", "lost", "duplicated", "duplicated episodes",
                             "time to recover", "all consolidated after (s)"], rows)
            lines.append("")
        wk, pg = run.get("worker_kill") or {}, run.get("postgres_kill") or {}
        if wk.get("acknowledged") is not None:
            lines.append(f"- Worker: {wk.get('batches_running_at_kill')} batch(es) running at the kill "
                         f"({wk.get('batches_mid_call_at_kill')} waiting for the LLM), re-queued by the reaper "
                         f"{_n(wk.get('requeued_after_seconds'))} s after the kill (lease 20 s + the reaper's next "
                         "tick; the worker was started again at once and loaded its models meanwhile); time to "
                         "recover = until all of them succeeded (the same batches, resumed). "
                         f"Interrupted calls recorded: {wk.get('interrupted_calls_recorded')} "
                         f"({_n(wk.get('interrupted_prompt_tokens'))} prompt tokens, counted offline).")
        if "acknowledged" in many:
            summary = many["summary"]
            lines.append(f"- Queue worker kills (the worker side runs under `manage.py queue_watchdog --supervise`): "
                         f"{summary['kills']} kills ({summary['taking_a_task']} while tasks waited to be taken), "
                         f"{summary['recoveries']} recovered (the cluster finished as many tasks after the kill as "
                         "it has workers: the survivors can finish only what they held, a wedged cluster finishes "
                         f"none), median {_n(summary['median_recovery_seconds'])} s, longest "
                         f"{_n(summary['longest_recovery_seconds'])} s (goal ≤ {_n(summary['goal_longest_seconds'])} "
                         f"s); the longest wait of a task taken after a kill until it finished (behind the backlog): "
                         f"{_n(summary.get('longest_queue_wait_seconds'))} s; {summary['cluster_restarts']} needed "
                         "the watchdog to restart the cluster; /healthz during the stalls (one look a second): "
                         f"{summary['healthz_during_stalls']}.")
        if pg.get("acknowledged") is not None:
            lines.append(f"- PostgreSQL: the server was running again {_n(pg.get('database_back_after_seconds'))} s "
                         f"after the kill; the first write sent after the kill was acknowledged after "
                         f"{_n(pg.get('first_ack_after_kill_seconds'))} s, every client wrote again after "
                         f"{_n(pg.get('all_clients_writing_after_seconds'))} s (time to recover); the service's "
                         f"processes restarted the embedded server themselves on their next connection. Requests "
                         f"sent again by the clients: {_n(pg.get('client_retries'))}; worker restarts: "
                         f"{pg.get('worker_restarts')}; errors seen by clients: {pg.get('errors_seen_by_clients')}"
                         + (f"; writes sent after the kill: {pg['writes_sent_after_kill']}, /healthz after the kill "
                            f"(one look a second): {pg.get('healthz_after_kill')}"
                            if pg.get("writes_sent_after_kill") is not None else "") + ".")
        lines.append("")
    return lines


def make_plots(data: dict[str, Any], results: Path) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plots: dict[str, str] = {}
    rows = _locomo_rows(data["locomo_runs"])
    if rows:
        fig, ax = plt.subplots(figsize=(8, 5))
        for i, r in enumerate(sorted(rows, key=lambda r: (r["prompt100"] + r["completion100"], r["recall"] or 0))):
            cost = (r["prompt100"] + r["completion100"]) / 1000
            ax.scatter(cost, r["recall"] or 0, s=60)
            ax.annotate(f"{r['label']}/{r['config']} ({r['conversations']} conv.)", (cost, r["recall"] or 0),
                        textcoords="offset points", xytext=(6, 6 if i % 2 else -10), fontsize=7)
        ax.set_xlim(left=-10)
        ax.set_xlabel("construction tokens per 100 exchanges, thousands (prompt + completion)")
        ax.set_ylabel("evidence recall (LoCoMo cat. 1-4)")
        ax.set_title("Construction cost vs evidence recall")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(results / "cost_vs_recall.png", dpi=120)
        plt.close(fig)
        plots["cost_recall"] = "cost_vs_recall.png"
    for sweep in data["sweeps"][:1]:
        points = sweep["points"]
        if not points:
            continue
        fig, ax1 = plt.subplots(figsize=(7, 4.5))
        thetas = [p["theta_sim"] for p in points]
        ax1.plot(thetas, [p["prompt_tokens_per_100"] for p in points], "o-", color="tab:red", label="prompt tokens/100")
        ax1.set_xlabel("θ_sim")
        ax1.set_ylabel("prompt tokens per 100 exchanges", color="tab:red")
        ax2 = ax1.twinx()
        ax2.plot(thetas, [p["evidence_recall"] for p in points], "s-", color="tab:blue", label="evidence recall")
        ax2.plot(thetas, [p["consolidated_share"] for p in points], "^--", color="tab:green",
                 label="consolidated share")
        ax2.set_ylabel("recall / share", color="tab:blue")
        fig.legend(loc="upper right", fontsize=8)
        ax1.set_title("θ_sim trade-off")
        fig.tight_layout()
        fig.savefig(results / "theta_sweep.png", dpi=120)
        plt.close(fig)
        plots["sweep"] = "theta_sweep.png"
    if any(s["sizes"] for s in data["scale"]):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for scale in data["scale"]:
            sizes = sorted(scale["sizes"], key=lambda e: e["size"])
            xs = [e["size"] for e in sizes]
            tag = " (fast fill)" if scale.get("fast_fill") else ""
            for key, style in (("p50_ms", "o-"), ("p95_ms", "s-"), ("p99_ms", "^-")):
                ax.plot(xs, [e["search"][key] for e in sizes], style + ("-" if tag else ""),
                        label=f"search {key[:3]}{tag}")
        ax.axhline(60, color="grey", linestyle="--", linewidth=1, label="goal p95 60 ms")
        ax.set_xscale("log")
        ax.set_xlabel("exchanges in the store")
        ax.set_ylabel("3-layer search latency (ms, query embedding included)")
        ax.set_title("Search latency vs store size")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(results / "latency_vs_size.png", dpi=120)
        plt.close(fig)
        plots["latency"] = "latency_vs_size.png"
    return plots


def poison_section(reports: list[dict[str, Any]]) -> list[str]:
    """One line per attack set (reached another agent unquarantined, in the context block) and one for the benign
    set's false quarantine (bench_poison)."""
    if not reports:
        return []
    lines = ["## Memory poisoning (bench_poison)", ""]
    for report in reports:
        source = (report.get("source_field") or {}).get("note", "")
        lines.append(f"`{report['_file']}` (RECMEM_QUARANTINE_ENABLED={report.get('quarantine_setting')}; {source}):")
        lines.append("")
        for part, entry in (report.get("attacks") or {}).items():
            t = entry.get("overall") or {}
            goal = "met" if t.get("reached") == 0 else "**missed**"
            lines.append(f"- attacks {part}: {t.get('reached')}/{t.get('cases')} reached another agent unquarantined "
                         f"(in the context block {t.get('in_context')}; goal 0: {goal}); by family: "
                         + ", ".join(f"{f} {x['reached']}/{x['cases']}" for f, x in entry.get("by_family", {}).items()))
        benign = report.get("benign")
        if benign:
            parts = []
            for group in ("exchanges", "consolidated"):
                g = benign["totals"][group]
                flagged = (f"flagged {g['flagged']}/{g['items']} ({_f(g['flagged_rate'], 4)})"
                           if benign.get("quarantined_field") == "exposed" else "flagged: not exposed")
                parts.append(f"{group} {flagged}, hidden from a module peer "
                             f"{g['hidden_from_peer']}/{g['module_items']}")
            lines.append(f"- benign false quarantine (goal ≤ 1 %): {'; '.join(parts)}")
        pair = report.get("locomo_defence_on_off")
        if pair:
            lines.append(f"- LoCoMo {pair.get('conversations')} evidence recall: on "
                         f"{_f((pair.get('on') or {}).get('evidence_recall'), 4)}, off "
                         f"{_f((pair.get('off') or {}).get('evidence_recall'), 4)} "
                         f"(difference {pair.get('difference')}; goal within 0.005)")
        lines.append("")
    return lines


# --------------------------------------------------------------------------------------------------------


def admin_pages_section(reports: list[dict[str, Any]]) -> list[str]:
    """The console's server time per page with 10,000 audit events (bench/admin_pages.py)."""
    if not reports:
        return []
    from bench.admin_pages import summary_lines

    lines = ["## Admin pages with a long audit trail", ""]
    for report in reports:
        lines += summary_lines(report)
        slow = sorted(report["pages"], key=lambda r: r["median_ms"], reverse=True)[:8]
        lines += ["", *_table(["page", "median ms", "slowest ms", "SQL queries", "SQL ms"],
                              [[r["page"], _f(r["median_ms"], 0), _f(r["max_ms"], 0), str(r["queries"]),
                                _f(r["sql_ms"], 0)] for r in slow]), ""]
    return lines


def startup_section(reports: list[dict[str, Any]]) -> list[str]:
    if not reports:
        return []
    from bench.startup import summary_lines

    lines = ["## Time to running", ""]
    for report in reports:
        lines += [*summary_lines(report), ""]
    return lines


def write_summary(results: Path = RESULTS_DIR, *, profile: str = "", notes: list[str] | None = None) -> Path:
    data = collect(results)
    plots = make_plots(data, results)
    meta = data.get("meta") or {}
    lines = [
        "# RecMem benchmark summary",
        "",
        f"Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by `python -m bench.run"
        f"{' --profile ' + (profile or meta.get('profile', '')) if (profile or meta.get('profile')) else ''}` on "
        f"{platform.machine()}, {meta.get('cpus', '?')} CPUs, Python {platform.python_version()}"
        f"{'; wall ' + _n(meta.get('wall_seconds')) + ' s' if meta.get('wall_seconds') else ''}. "
        "Numbers are measured, never edited; a missed goal is marked **missed**.",
        "",
    ]
    for note in (notes or []) + (meta.get("notes") or []):
        lines.append(f"> {note}")
    if notes or meta.get("notes"):
        lines.append("")
    if meta.get("failures"):
        lines += ["Failed steps: " + "; ".join(f"`{k}`: {v}" for k, v in meta["failures"].items()), ""]
    lines += locomo_section(data["locomo_runs"], plots)
    lines += repeats_section(data["locomo_runs"])
    lines += sweep_section(data["sweeps"], plots)
    lines += embedders_section(data["embedders"])
    lines += scale_section(data["scale"], plots)
    lines += pii_section(data["pii"])
    lines += faults_section(data["faults"])
    lines += admin_pages_section(data["admin_pages"])
    lines += startup_section(data["startup"])
    lines += poison_section(data["poison"])
    out = results / "SUMMARY.md"
    out.write_text("\n".join(lines).rstrip() + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rebuild bench/results/SUMMARY.md and plots from the JSON results")
    parser.add_argument("--results", default=str(RESULTS_DIR))
    args = parser.parse_args(argv)
    print(write_summary(Path(args.results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
