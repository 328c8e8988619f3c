"""The hashing embedder of the tests (``testing.embedders``): deterministic, normalised, word overlap counts."""

from __future__ import annotations

import math

import pytest

from memory.thresholds import thresholds_for
from testing.embedders import HASHING_THRESHOLDS, HashingEmbeddingGateway, hashing_vector


def _norm(vector: list[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_hashing_is_deterministic_normalised_and_sized():
    gateway = HashingEmbeddingGateway(dimensions=64, batch_size=2)
    texts = ["the marathon plan", "weekly long run", "", "tax return deadline", "the marathon plan"]
    vectors = gateway.embed(texts)
    assert gateway.model_id == "hashing:64"
    assert len(vectors) == 5
    assert all(len(v) == 64 for v in vectors)
    assert all(_norm(v) == pytest.approx(1.0) for v in vectors)  # the empty text too
    assert vectors[0] == vectors[4] == hashing_vector("The Marathon plan!", 64)


def test_hashing_shared_words_score_higher_than_unrelated():
    gateway = HashingEmbeddingGateway()
    base, near, far = gateway.embed(
        [
            "training plan for the berlin marathon in october",
            "my berlin marathon training plan needs a long run",
            "the quarterly tax report is due tomorrow",
        ]
    )
    assert _cos(base, near) > _cos(base, far) + 0.2


def test_hashing_registers_its_thresholds():
    gateway = HashingEmbeddingGateway(dimensions=48)
    assert thresholds_for(gateway.model_id).theta_sim == HASHING_THRESHOLDS.theta_sim
