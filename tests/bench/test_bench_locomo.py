"""bench_locomo end to end on a tiny synthetic conversation: real services, sync queue, fake LLM server over HTTP."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from agents.models import Project
from bench.report import write_summary
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder

RUN_KEYS = {"benchmark", "mode", "consolidator", "label", "conversations", "turns", "exchanges", "construction",
            "retrieval", "primary", "wall_seconds", "thresholds", "embedding_model", "token_counting",
            "questions_scored", "unresolved_evidence_dropped", "llm_endpoint"}
RETRIEVAL_KEYS = {"questions", "evidence_recall", "evidence_recall_exchanges_only", "evidence_recall_in_context",
                  "answer_recall",
                  "context_tokens_per_query", "result_tokens_per_query", "search_latency_ms", "hits_per_query"}


def _run(tmp_path, *args) -> dict:
    out = tmp_path / "out.json"
    stdout = io.StringIO()
    call_command("bench_locomo", *args, "--json", str(out), stdout=stdout)
    return json.loads(out.read_text())


def _check_retrieval(stats: dict) -> None:
    assert RETRIEVAL_KEYS <= set(stats)
    assert stats["questions"] == 5  # categories 1-4 only
    assert stats["questions_without_evidence"] == 1  # the "D" evidence resolves to nothing
    recall = stats["evidence_recall"]
    assert 0.0 <= recall["overall"] <= 1.0 and recall["n"] == 4
    assert set(recall["by_category"]) == {"1", "2", "3", "4"}
    assert 0 < stats["context_tokens_per_query"] <= stats["result_tokens_per_query"] + 1e-9
    assert stats["search_latency_ms"]["p50"] > 0


@pytest.mark.django_db(transaction=True)
def test_three_modes_end_to_end(tmp_path, locomo_file):
    report = _run(tmp_path, "--data", str(locomo_file), "--mode", "online,eager,flat", "--theta-sim", "0.3")
    online, eager, flat = report["runs"]
    for run in (online, eager, flat):
        assert RUN_KEYS <= set(run)
        assert run["exchanges"] == 8 and run["turns"] == 14 and run["questions_scored"] == 5
        assert run["unresolved_evidence_dropped"] == 2
    assert online["llm_endpoint"] == "fake" and eager["llm_endpoint"] == "fake" and flat["llm_endpoint"] == "none"

    # online: the recurring marathon topic got ripe, was consolidated through the queue, cost a few LLM calls
    c = online["construction"]
    assert c["candidates"].get("recurrence", 0) >= 1 and c["batches"] >= 1
    assert c["batch_status"] == {"succeeded": c["batches"]}
    # the flush at the end is a manual run: it replays the sessions (session_distill)
    assert set(c["by_purpose"]) <= {"topic_consolidate", "semantic_refine", "session_distill"}
    assert c["llm_calls"] >= 1 and c["prompt_tokens"] > 500 and 0 < c["consolidated_share"] <= 1
    assert c["llm_calls_per_100"] == pytest.approx(c["llm_calls"] * 100 / 8, abs=0.01)
    assert c["tokenizer"] == "regex-approx-cl100k"

    # eager: one extraction per exchange, at most one update decision per exchange, every exchange in a batch
    e = eager["construction"]
    assert e["by_purpose"]["eager_extract"]["calls"] == 8 and e["batches"] == 8
    assert 1 <= e["by_purpose"]["eager_update"]["calls"] <= 8
    assert e["llm_calls"] == e["by_purpose"]["eager_extract"]["calls"] + e["by_purpose"]["eager_update"]["calls"]
    assert e["llm_calls"] > c["llm_calls"] and e["consolidated_share"] == 1.0
    assert "single_update_estimate" not in e  # the baseline now makes one update call per exchange itself

    # flat: no consolidation at all, two search budgets
    f = flat["construction"]
    assert f["llm_calls"] == 0 and f["batches"] == 0 and f["candidates"] == {}
    assert set(flat["retrieval"]) == {"flat_top10", "flat_top25"} and flat["primary"] == "flat_top25"
    # 8 exchanges only: top-10 and top-25 both return everything, so both cover all resolvable evidence
    assert flat["retrieval"]["flat_top25"]["evidence_recall"]["overall"] == 1.0
    for run in (online, eager, flat):
        for stats in run["retrieval"].values():
            _check_retrieval(stats)

    ratio = report["comparison"]["online_vs_eager"]
    assert 0 < ratio["llm_calls_ratio"] < 1 and 0 < ratio["prompt_tokens_ratio"]
    # every run cleaned up its project
    assert not Project.objects.filter(name__startswith="bench-locomo-").exists()

    # the summary and the cost-vs-recall plot are built from the JSON
    results = tmp_path / "results"
    results.mkdir()
    (results / "locomo.json").write_text(json.dumps(report))
    summary = write_summary(results).read_text()
    assert "Online ÷ eager" in summary and "| flat | flat_top25 |" in summary
    assert (results / "cost_vs_recall.png").stat().st_size > 1000


@pytest.mark.django_db(transaction=True)
def test_an_ablation_switches_a_layer_off_for_the_run_only(tmp_path, locomo_file):
    from django.core.management.base import CommandError

    from memory.services.consolidation import _PLANNER, DEFAULT_PLANNER

    report = _run(tmp_path, "--data", str(locomo_file), "--mode", "online", "--consolidator", "extractive",
                  "--theta-sim", "0.3", "--ablate", "episodes", "--variant", "no-episodes")
    (run,) = report["runs"]
    assert run["ablate"] == ["episodes"] and run["variant"] == "no-episodes"
    c = run["construction"]
    assert c["batch_status"].get("succeeded", 0) >= 1 and c["episodes"] == 0 and c["experiences"] > 0
    assert _PLANNER.get() is DEFAULT_PLANNER  # the product's planner again after the run
    with pytest.raises(CommandError, match="unknown ablation"):
        _run(tmp_path, "--data", str(locomo_file), "--mode", "online", "--ablate", "merges")


@pytest.mark.django_db(transaction=True)
def test_extractive_online_costs_no_tokens(tmp_path, locomo_file):
    report = _run(tmp_path, "--data", str(locomo_file), "--mode", "online", "--consolidator", "extractive",
                  "--theta-sim", "0.3", "--raw-queries", "--with-flat")
    (run,) = report["runs"]
    assert run["llm_endpoint"] == "none" and run["consolidator"] == "extractive" and run["mask_queries"] is False
    # scored again at flat top-25's block size, question by question: never more tokens than the baseline
    primary, flat25 = run["retrieval"][run["primary"]], run["retrieval"]["flat_top25"]
    matched = primary["at_flat_budget"]
    assert matched["reference"] == "flat_top25" and "at_flat_budget" not in flat25
    assert 0 < matched["context_tokens_per_query"] <= flat25["context_tokens_per_query"]
    assert matched["context_tokens_per_query"] <= primary["context_tokens_per_query"]
    assert 0.0 <= matched["evidence_recall_in_context"]["overall"] <= primary["evidence_recall"]["overall"]
    assert matched["answer_recall"]["n"] == primary["answer_recall"]["n"]
    c = run["construction"]
    assert c["batches"] >= 1 and c["llm_calls"] == 0 and c["prompt_tokens"] == 0
    # one topic call per batch that consolidated exchanges (the flush's replay-only batch distils sessions)
    assert 1 <= c["llm_equivalent"]["llm_calls"] <= c["batch_status"]["succeeded"]
    assert c["llm_equivalent"]["prompt_tokens"] > 0


@pytest.mark.django_db(transaction=True)
def test_answer_and_judge_against_the_fake_server(tmp_path, locomo_file):
    with FakeOpenAIServer(responder=consolidation_responder) as server:
        report = _run(tmp_path, "--data", str(locomo_file), "--mode", "online", "--theta-sim", "0.3",
                      "--llm-base-url", server.base_url, "--llm-model", "fake-answerer", "--judge-model",
                      "fake-judge", "--details")
        bodies = server.bodies("/v1/chat/completions")
    (run,) = report["runs"]
    assert run["llm_endpoint"] == "given"  # consolidation used the given endpoint too
    stats = run["retrieval"][run["primary"]]
    accuracy = stats["llm_judge_accuracy"]
    assert 0.0 <= accuracy["overall"] <= 1.0 and accuracy["n"] == 5
    usage = run["answer_llm"]["usage"]
    assert usage["bench_answer"]["calls"] == 5 and usage["bench_judge"]["calls"] == 5
    assert run["answer_llm"]["model"] == "fake-answerer" and run["answer_llm"]["judge_model"] == "fake-judge"
    assert run["answer_llm"]["errors"] == 0
    models = {b["model"] for b in bodies}
    assert {"fake-answerer", "fake-judge"} <= models
    prompts = [b["messages"][0]["content"] for b in bodies]
    assert any("answer@1" in p for p in prompts) and any("judge@1" in p for p in prompts)
    rows = run["details"][run["primary"]]
    assert all("answer" in r and r["correct"] in (0.0, 1.0) for r in rows)
    # the judge saw the gold answer as a string (the int 2023 was cast)
    judge_bodies = [b for b in bodies if b["model"] == "fake-judge"]
    assert any("<gold_answer>2023</gold_answer>" in b["messages"][1]["content"] for b in judge_bodies)
