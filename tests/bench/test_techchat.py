"""The engineering-team chat precision set: hand-written team prose, labelled personal data, a hash-chosen split."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from bench import techchat, techtext

TYPES = {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "LOCATION"}


def test_the_committed_set_loads_and_is_large():
    records = techchat.load()
    assert len(records) >= 400
    assert len({r["text"] for r in records}) == len(records)  # no sentence twice
    assert all(set(r) == {"text", "spans", "source", "part"} for r in records)
    assert sum(1 for r in records if r["spans"]) >= 0.2 * len(records)  # about one in four carries personal data


def test_the_json_is_reproducible_from_the_module():
    assert techchat.load() == techchat.build()


def test_spans_are_in_bounds_disjoint_and_look_like_their_type():
    for r in techchat.load():
        text = r["text"]
        spans = sorted(r["spans"], key=lambda s: s["start"])
        for s in spans:
            assert s["type"] in TYPES
            assert 0 <= s["start"] < s["end"] <= len(text)
            value = text[s["start"]:s["end"]]
            assert value == value.strip() and value
            if s["type"] == "EMAIL_ADDRESS":
                assert "@" in value
            elif s["type"] == "PHONE_NUMBER":
                assert len(re.sub(r"\D", "", value)) >= 7
            else:
                assert any(c.isalpha() for c in value) and "@" not in value
        for a, b in zip(spans, spans[1:], strict=False):
            assert a["end"] <= b["start"]


def test_both_parts_are_non_empty_and_match_the_hash():
    records = techchat.load()
    for r in records:
        digest = int(hashlib.sha256(("recmem-techchat-v1:" + r["text"]).encode()).hexdigest(), 16)
        assert r["part"] == ("held" if digest % 100 < 50 else "read")
    assert {r["part"] for r in records} == {"read", "held"}
    for name in ("read", "held"):
        assert any(r["spans"] for r in records if r["part"] == name)


def test_marks_parse_to_spans():
    text, spans = techchat.parse("ask @⟦P:maria⟧ in ⟦L:Lisbon⟧ about eu-central-1")
    assert text == "ask @maria in Lisbon about eu-central-1"
    assert [(s["type"], text[s["start"]:s["end"]]) for s in spans] == [("PERSON", "maria"), ("LOCATION", "Lisbon")]


@dataclass
class _E:
    entity_type: str
    start: int
    end: int


@dataclass
class _R:
    entities: list


def test_score_counts_location_labels_without_false_masks():
    records = [{"text": "I'm in Lisbon, Kafka is down.", "spans": [{"type": "LOCATION", "start": 7, "end": 13}]}]

    def masker(texts):
        return [_R([_E("LOCATION", 7, 13), _E("ORGANIZATION", 15, 20)])]

    rep = techtext.score(records, masker)
    assert rep["false_masks"] == 1  # Kafka, not Lisbon
    assert rep["recall"]["LOCATION"] == 1.0 and rep["labels"]["LOCATION"] == 1
    assert rep["recall"]["PERSON"] is None
    assert "LOCATION 1.0 (n=1)" in techtext.format_report(rep, "t")
