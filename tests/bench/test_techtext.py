"""The technical-text precision set: real prose from installed packages, labelled personal data, a held-back part."""

from __future__ import annotations

from dataclasses import dataclass

from bench import techtext


def test_the_committed_set_is_large_labelled_and_split():
    records = techtext.load()
    assert len(records) >= 300
    assert len({r["source"] for r in records}) >= 50  # many packages' documentation, not one README
    labelled = [r for r in records if r["spans"]]
    assert len(labelled) >= 60
    for r in labelled:
        for span in r["spans"]:
            assert span["type"] in techtext.RECALL_TYPES
            assert r["text"][span["start"]:span["end"]].strip() == r["text"][span["start"]:span["end"]]
    held = [r for r in records if r["part"] == "held"]
    assert 0.2 * len(records) <= len(held) <= 0.4 * len(records)
    assert all(r["part"] == techtext.part(r["text"]) or r["spans"] for r in records)


def test_the_generator_skips_sentences_with_personal_data_of_their_own():
    sentences = techtext._sentences_of(
        "Written by Jane Roe. Contact jane@example.com for details about this library.\n\n"
        "The cache stores compiled templates so that rendering a page twice is fast and cheap.")
    assert sentences == ["The cache stores compiled templates so that rendering a page twice is fast and cheap."]


@dataclass
class _E:
    entity_type: str
    start: int
    end: int


@dataclass
class _R:
    entities: list


def test_score_counts_false_masks_and_recall():
    records = [{"text": "Use Redis with Ann Lee today.", "spans": [{"type": "PERSON", "start": 15, "end": 22}]},
               {"text": "Kafka is a log.", "spans": []}]

    def masker(texts):
        return [_R([_E("PERSON", 15, 22)]), _R([_E("PERSON", 0, 5)])]

    rep = techtext.score(records, masker)
    assert rep["false_masks"] == 1 and rep["tokens"] == 10
    assert rep["false_masks_per_1000_tokens"] == 100.0
    assert rep["recall"]["PERSON"] == 1.0 and rep["recall"]["EMAIL_ADDRESS"] is None
