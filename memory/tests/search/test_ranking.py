"""The blended score, pure: its parts explained, and the total they add up to."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from core.config import config
from memory.search.ranking import blended_score, freshness, hits_term, score_explain

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
WEIGHTS = {"similarity": 0.6, "freshness": 0.2, "confidence": 0.15, "hits": 0.05}


def test_a_score_is_explained_by_its_components_and_weights():
    explained = score_explain(similarity=0.8, when=NOW - timedelta(days=10), confidence=0.9, hits=9, now=NOW,
                              weights=WEIGHTS, half_life_days=10.0)
    assert explained.similarity == 0.8
    assert explained.freshness == pytest.approx(0.5)  # one half-life old
    assert explained.confidence == 0.9
    assert explained.hits == pytest.approx(math.log(10) / math.log(101))
    assert explained.weights == WEIGHTS
    contributions = explained.contributions()
    assert contributions == pytest.approx({"similarity": 0.48, "freshness": 0.1, "confidence": 0.135,
                                           "hits": 0.05 * math.log(10) / math.log(101)})
    assert explained.total == pytest.approx(sum(contributions.values()))
    assert explained.total == blended_score(similarity=0.8, when=NOW - timedelta(days=10), confidence=0.9, hits=9,
                                            now=NOW, weights=WEIGHTS, half_life_days=10.0)


def test_the_settings_supply_the_weights_and_half_life_unless_given():
    settings = config()
    when = NOW - timedelta(days=settings.search.freshness_half_life_days)
    explained = score_explain(similarity=0.5, when=when, confidence=0.5, hits=0, now=NOW)
    assert explained.weights == settings.search.weights
    assert explained.freshness == pytest.approx(0.5)
    w = settings.search.weights
    assert explained.total == pytest.approx(w["similarity"] * 0.5 + w["freshness"] * 0.5 + w["confidence"] * 0.5)


def test_the_edges_of_the_components():
    assert freshness(None, NOW, half_life_days=30.0) == 0.0  # undated: no freshness
    assert freshness(NOW + timedelta(days=3), NOW, half_life_days=30.0) == 1.0  # from the future: as new
    assert hits_term(0) == 0.0 and hits_term(100) == pytest.approx(1.0) and hits_term(10_000) == 1.0
