"""Evidence recall, answer recall and aggregation on hand-made results."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bench.locomo import _shown, aggregate, answer_recall, covered_dia_ids, evidence_recall, percentile, turn_sentences
from memory.search.query import Hit

DIA = {"ex1": ("D1:1", "D1:2"), "ex2": ("D1:3", "D1:4"), "ex3": ("D2:1",), "ex4": ("D3:1", "D3:2")}


def test_coverage_counts_exchanges_episode_sources_and_experience_evidence():
    assert covered_dia_ids(exchange_ids=["ex1"], dia_map=DIA) == {"D1:1", "D1:2"}
    covered = covered_dia_ids(exchange_ids=["ex1"], episode_source_ids=["ex2", "ex3"],
                              experience_evidence_ids=["ex4", "unknown"], dia_map=DIA)
    assert covered == {"D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D3:1", "D3:2"}


def test_evidence_recall():
    covered = covered_dia_ids(exchange_ids=["ex1"], episode_source_ids=["ex3"], dia_map=DIA)
    assert evidence_recall(["D1:2"], covered) == 1.0
    assert evidence_recall(["D1:2", "D3:1"], covered) == 0.5
    assert evidence_recall(["D2:1", "D2:1", "D9:9"], covered) == 0.5  # duplicates count once
    assert evidence_recall([], covered) is None  # no resolvable evidence: not scored


def test_answer_recall_uses_content_words():
    context = "- [fact] Ann ran the Berlin marathon on 2023-09-24 | assistant: great"
    assert answer_recall("the Berlin marathon", context) == 1.0
    assert answer_recall("Berlin half marathon", context) == pytest.approx(2 / 3)
    assert answer_recall("2023", context) == 1.0
    assert answer_recall("the", context) is None  # only stopwords


def test_aggregate_per_category_and_overall():
    rows = [{"category": 1, "r": 1.0}, {"category": 1, "r": 0.0}, {"category": 4, "r": 1.0},
            {"category": 2, "r": None}]
    agg = aggregate(rows, "r")
    assert agg["overall"] == pytest.approx(2 / 3, abs=1e-4)
    assert agg["by_category"] == {"1": 0.5, "2": None, "3": None, "4": 1.0}
    assert agg["n"] == 3


def test_percentile_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50 and percentile(values, 95) == 95 and percentile(values, 99) == 99
    assert percentile([], 50) is None and percentile([7.0], 95) == 7.0


def test_an_episode_is_shown_evidence_only_for_the_turns_its_line_carries():
    """The block shows an episode's title and a few sentences: a source turn whose words are not among them is
    covered (``covered_dia_ids``) but not shown."""
    sources = [SimpleNamespace(pk="ex1"), SimpleNamespace(pk="ex2")]
    day = datetime(2023, 5, 8, tzinfo=UTC)
    episode = SimpleNamespace(title="Marathon", narrative="On 2023-05-08, the user ran the Berlin marathon in four "
                              "hours.", started_at=day, ended_at=day, scope="personal",
                              sources=SimpleNamespace(all=lambda: sources))
    turns = {"D1:1": "Ann: Long week, I told you. I ran the Berlin marathon yesterday, four hours! My legs hate me.",
             "D1:2": "Bo: Wow, well done.", "D1:3": "Ann: My sister adopted a grey kitten called Ash.",
             "D1:4": "Bo: Cute."}
    turn_words = {d: turn_sentences(t) for d, t in turns.items()}
    layers = {"exchanges": [], "episodes": [Hit(obj=episode, similarity=0.8, score=0.8)], "experiences": []}
    assert covered_dia_ids(exchange_ids=[], episode_source_ids=["ex1", "ex2"], dia_map=DIA) >= {"D1:1", "D1:3"}
    shown = _shown(layers, DIA, turn_words)
    assert "D1:1" in shown  # one of the marathon turn's sentences is on the line, though most of the turn is not
    assert "D1:3" not in shown and "D1:4" not in shown  # the kitten was never shown
