"""Embedders for tests, outside the product: deterministic, dependency-free feature hashing.

    embedder = HashingEmbeddingGateway()       # injected where a service takes ``embedder=``
    vector = hashing_vector("some text", 384)  # the fake OpenAI server's /v1/embeddings

The product never selects it (it is no ``RECMEM_EMBEDDINGS_BACKEND``): a test passes it to the services that take
``embedder=``, or patches the factory a command calls.
"""

from __future__ import annotations

import hashlib
import re

from memory.gateways.embeddings import LOCAL_MODEL_DIMENSIONS, EmbeddingGateway, l2_normalise
from memory.thresholds import Thresholds, model_thresholds_register

__all__ = ["HASHING_THRESHOLDS", "HashingEmbeddingGateway", "hashing_vector"]

HASHING_THRESHOLDS = Thresholds(theta_sim=0.45, theta_count=5, merge=0.45, dedup=0.85, related=0.2)


# Not core.text.words: these vectors hash Unicode words (and "_"); another split would move every fake vector.
_WORD_RE = re.compile(r"\w+")
_EMPTY_FEATURE = "\x00empty"


def hashing_vector(text: str, dimensions: int) -> list[float]:
    """Feature-hash lowercased word unigrams and bigrams of ``text`` into a unit vector.

    Signed hashing (the sign comes from the hash too) keeps unrelated texts near cosine 0; texts sharing
    words and word pairs score higher. Stable across processes (blake2b, not ``hash()``).
    """
    if dimensions <= 0:
        raise ValueError("dimensions must be positive")
    words = _WORD_RE.findall(text.lower())
    features = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    if not features:
        features = [_EMPTY_FEATURE]  # keep the vector unit-length: a zero vector has no cosine
    vector = [0.0] * dimensions
    for feature in features:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "little") % dimensions
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    if not any(vector):
        # All features cancelled out; fall back to an unsigned sum so the vector stays non-zero.
        for feature in features:
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            vector[int.from_bytes(digest[:4], "little") % dimensions] += 1.0
    return l2_normalise(vector)


class HashingEmbeddingGateway(EmbeddingGateway):
    """Deterministic fake embedder (feature hashing), ``model_id`` ``"hashing:<dims>"``: it captures shared words,
    not meaning. Its thresholds (bag-of-words overlap scores lower than a model's) are registered for its model
    id when it is built."""

    def __init__(self, *, dimensions: int = LOCAL_MODEL_DIMENSIONS, batch_size: int = 64) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.dimensions = int(dimensions)
        self.batch_size = int(batch_size)
        self.model_id = f"hashing:{self.dimensions}"
        model_thresholds_register(self.model_id, HASHING_THRESHOLDS)

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        return [hashing_vector(text, self.dimensions) for text in texts]
