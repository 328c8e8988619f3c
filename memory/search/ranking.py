"""The blended score a search ranks by: relevance blended with freshness, confidence and hit count.

Pure (no database): the weights (RECMEM_SEARCH_WEIGHTS) and the freshness half-life come from the settings unless
given, so a score can be recomputed and explained from an item's figures alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from core.config import config

# The hit count's term saturates here: an item hit this often counts as fully "used".
HITS_SATURATION = 100


def freshness(when: datetime | None, now: datetime, *, half_life_days: float | None = None) -> float:
    """1 for an item of ``now``, halving every ``half_life_days`` (RECMEM_FRESHNESS_HALF_LIFE_DAYS); 0 undated."""
    if when is None:
        return 0.0
    half_life = config().search.freshness_half_life_days if half_life_days is None else half_life_days
    age_days = max((now - when).total_seconds() / 86400, 0.0)
    return 0.5 ** (age_days / half_life)


def hits_term(hits: int) -> float:
    """The hit count on a log scale, 0 to 1."""
    return min(1.0, math.log1p(hits) / math.log1p(HITS_SATURATION))


@dataclass(frozen=True)
class ScoreExplanation:
    """The parts of one blended score: each component (0–1, relevance may exceed 1 in hybrid search), its weight,
    and the total (the sum of weight × component)."""

    similarity: float
    freshness: float
    confidence: float
    hits: float  # the hit count's term, not the count
    weights: dict[str, float]
    total: float

    def contributions(self) -> dict[str, float]:
        """weight × component, per component: what each adds to the total."""
        return {name: self.weights[name] * getattr(self, name)
                for name in ("similarity", "freshness", "confidence", "hits")}


def score_explain(*, similarity: float, when: datetime | None, confidence: float, hits: int, now: datetime,
                  weights: Mapping[str, float] | None = None,
                  half_life_days: float | None = None) -> ScoreExplanation:
    """The blended score of an item with its parts (see :func:`blended_score`)."""
    w = dict(config().search.weights if weights is None else weights)
    fresh = freshness(when, now, half_life_days=half_life_days)
    hit_term = hits_term(hits)
    total = (w["similarity"] * similarity + w["freshness"] * fresh
             + w["confidence"] * confidence + w["hits"] * hit_term)
    return ScoreExplanation(similarity=similarity, freshness=fresh, confidence=confidence, hits=hit_term,
                            weights=w, total=total)


def blended_score(*, similarity: float, when: datetime | None, confidence: float, hits: int, now: datetime,
                  weights: Mapping[str, float] | None = None, half_life_days: float | None = None) -> float:
    """Relevance (``similarity``: the cosine, plus the lexical match in hybrid search) blended with freshness,
    confidence and hit count (weights: RECMEM_SEARCH_WEIGHTS)."""
    return score_explain(similarity=similarity, when=when, confidence=confidence, hits=hits, now=now,
                         weights=weights, half_life_days=half_life_days).total


def relevance(*, similarity: float, lexical: float, lexical_weight: float, worth: float = 1.0) -> float:
    """What the context block orders by: the cosine plus the weighted lexical match, scaled by how much the item
    says (``worth``; experiences only)."""
    return (similarity + lexical_weight * lexical) * worth
