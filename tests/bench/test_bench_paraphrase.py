"""bench_paraphrase on a small part of the tuned scenario: the REST replay, the queue runs, the measures."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from bench.paraphrase import load_scenario, scenario_sessions


def test_scenario_layout_meets_the_brief():
    for name in ("platform_team", "data_team"):
        scenario = load_scenario(name)
        assert len(scenario["facts"]) >= 12 and len(scenario["filler"]) >= 20
        assert len(scenario["contradictions"]) >= 2
        assert {f["type"] for f in scenario["facts"]} >= {"fact", "lesson", "constraint", "preference"}
        sessions = scenario_sessions(scenario)
        for fact in scenario["facts"]:
            assert len({p[0] for p in fact["paraphrases"]}) >= 4 and fact["question"] and fact["answer"]
            where = [(n, s.agent) for n, s in enumerate(sessions) for item in s.items
                     if item.kind == "paraphrase" and item.fact == fact["id"]]
            assert len({n for n, _ in where}) >= 4 and len({a for _, a in where}) >= 2


@pytest.mark.django_db(transaction=True)
def test_bench_paraphrase_small_part(tmp_path):
    out = tmp_path / "out.json"
    stdout = io.StringIO()
    call_command("bench_paraphrase", "--scenario", "platform_team", "--facts", "3", "--filler", "4",
                 "--json", str(out), stdout=stdout)
    [run] = json.loads(out.read_text())["runs"]
    assert run["facts"] == 3 and run["exchanges"] == 3 * 4 + 4 + 2  # one contradiction among the first three
    assert run["batches"] >= 1 and run["candidate_exchanges"] >= 1
    assert set(run["goals"]) == {"items_per_fact", "merged_share", "best_sessions", "contradictions_resolved",
                                 "filler_items", "in_block"}
    assert "items/fact" in stdout.getvalue()


@pytest.mark.django_db(transaction=True)
def test_bench_paraphrase_idle_mode_takes_the_backlog_in_the_final_runs(tmp_path):
    """--mode idle: nothing is consolidated while the scenario is sent; each agent's final "run now" takes its
    backlog in one pass (the `make run` way: a history sent, then one pass), and the changes still land."""
    out = tmp_path / "out.json"
    call_command("bench_paraphrase", "--scenario", "platform_team", "--facts", "3", "--filler", "4", "--mode",
                 "idle", "--json", str(out), stdout=io.StringIO())
    [run] = json.loads(out.read_text())["runs"]
    assert run["mode"] == "idle" and run["candidate_exchanges"] >= 1
    assert 1 <= run["batches"] <= 2 * 3  # the agents' final runs (and the follow-up of a change found in one)
    assert run["contradictions_resolved"] == len(run["contradictions"])
