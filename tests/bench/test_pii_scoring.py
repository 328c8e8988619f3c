"""Scoring code and the labelled secrets set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.pii import (
    LABEL_MAPPING,
    GoldSpan,
    Record,
    combine,
    dev_part,
    format_report,
    load_presidio_research,
    make_masker,
    score,
    split_dev,
)
from core.config import config

ROOT = Path(__file__).resolve().parents[2]
SECRETS_FILE = ROOT / "tests" / "data" / "secrets_labelled.json"
DATASETS = config().datasets  # as bench_pii
DEV_FILE = DATASETS / "presidio_research" / "synth_pii_dev.json"


def _rec(text, *spans, meta=None):
    return Record(text=text, spans=tuple(GoldSpan(t, s, e) for t, s, e in spans), metadata=meta)


def test_load_presidio_research_format(tmp_path):
    data = [
        {
            "full_text": "Call Anna at 555-0100",
            "masked": "Call {{PERSON}} at {{PHONE_NUMBER}}",
            "spans": [
                {"entity_type": "PERSON", "entity_value": "Anna", "start_position": 5, "end_position": 9},
                {
                    "entity_type": "PHONE_NUMBER",
                    "entity_value": "555-0100",
                    "start_position": 13,
                    "end_position": 21,
                },
            ],
            "template_id": 1,
            "metadata": None,
        }
    ]
    path = tmp_path / "d.json"
    path.write_text(json.dumps(data))
    [rec] = load_presidio_research(path)
    assert rec.text == "Call Anna at 555-0100"
    assert [(s.entity_type, s.start, s.end, s.value) for s in rec.spans] == [
        ("PERSON", 5, 9, "Anna"),
        ("PHONE_NUMBER", 13, 21, "555-0100"),
    ]


def test_overlap_matching_precision_recall_f2():
    records = [
        _rec("Anna Berg lives in Oslo", ("PERSON", 0, 9), ("GPE", 19, 23)),
        _rec("Mail bob@example.com on 2024-01-02", ("EMAIL_ADDRESS", 5, 20), ("DATE_TIME", 24, 34)),
        _rec("nothing to see"),
    ]
    preds = {
        "Anna Berg lives in Oslo": [("PERSON", 0, 4), ("LOCATION", 10, 15)],  # partial hit + a false location
        "Mail bob@example.com on 2024-01-02": [("EMAIL_ADDRESS", 5, 20), ("PHONE_NUMBER", 24, 34)],
        "nothing to see": [],
    }
    rep = score(records, lambda texts: [preds[t] for t in texts])
    pt = rep["per_type"]
    assert pt["PERSON"]["recall"] == 1.0 and pt["PERSON"]["precision"] == 1.0
    assert pt["LOCATION"]["recall"] == 0.0 and pt["LOCATION"]["precision"] == 0.0
    assert pt["EMAIL_ADDRESS"]["f2"] == 1.0
    assert pt["PHONE_NUMBER"]["recall"] is None and pt["PHONE_NUMBER"]["precision"] == 0.0
    assert pt["PHONE_NUMBER"]["fp_overlapping_unscored_gold"] == 1  # it hit the (excluded) date
    assert "DATE_TIME" not in pt
    assert rep["excluded"]["counts"] == {"DATE_TIME->DATE_TIME": 1}
    o = rep["overall"]
    assert (o["gold"], o["found"], o["predicted"], o["true_positive_predictions"]) == (3, 2, 4, 2)
    assert o["f2"] == pytest.approx(5 * 0.5 * (2 / 3) / (4 * 0.5 + 2 / 3))
    assert rep["negatives"]["records"] == 1
    assert rep["timing"]["texts_per_second"] > 0
    assert "OVERALL" in format_report(rep)


def test_secret_group_and_false_positive_rate():
    records = [
        _rec("key sk-abc", ("SECRET", 4, 10), meta={"kind": "openai_key"}),
        _rec("uuid 123", meta={"category": "uuid"}),
        _rec("prose only", meta={"category": "prose"}),
    ]
    preds = {
        "key sk-abc": [("SECRET_OPENAI_KEY", 4, 10)],
        "uuid 123": [("SECRET_HIGH_ENTROPY", 5, 8)],
        "prose only": [],
    }
    rep = score(records, lambda texts: [preds[t] for t in texts], only_types={"SECRET"})
    assert rep["per_type"]["SECRET"]["recall"] == 1.0
    assert rep["negatives"]["secret_fp_rate"] == pytest.approx(0.5)
    assert rep["by_kind"]["openai_key"]["recall"] == 1.0


@pytest.mark.skipif(not DEV_FILE.exists(), reason="shared dataset not available")
def test_every_dev_entity_type_has_a_documented_mapping():
    types = {s.entity_type for r in load_presidio_research(DEV_FILE) for s in r.spans}
    assert types <= set(LABEL_MAPPING)


def test_secrets_file_shape():
    records = load_presidio_research(SECRETS_FILE)
    positives = [r for r in records if r.spans]
    negatives = [r for r in records if not r.spans]
    assert len(positives) >= 150 and len(negatives) >= 150
    kinds = {r.metadata["kind"] for r in positives}
    assert {
        "openai_key",
        "anthropic_key",
        "aws",
        "github_token",
        "gitlab_token",
        "slack_token",
        "slack_webhook",
        "stripe_key",
        "google_api_key",
        "jwt",
        "bearer_token",
        "private_key",
        "password",
        "url_credentials",
        "high_entropy",
        "context_key",
        "basic_auth",
    } <= kinds
    for r in positives:
        for s in r.spans:
            assert s.entity_type == "SECRET" and r.text[s.start : s.end] == s.value


def _section(name: str) -> list[Record]:
    records = load_presidio_research(SECRETS_FILE)
    if name == "labelled":
        return [r for r in records if not r.metadata.get("split", "").startswith("evasion")]
    return [r for r in records if r.metadata.get("split") == name]


def test_engine_meets_secret_targets_on_labelled_set():
    rep = score(_section("labelled"), make_masker(), only_types={"SECRET"})
    assert rep["per_type"]["SECRET"]["recall"] >= 0.98
    assert rep["negatives"]["secret_fp_rate"] <= 0.02
    assert rep["per_type"]["SECRET"]["leaked_verbatim"] <= 2


def test_dev_split_is_by_template_and_deterministic():
    a = Record(text="Call Anna", spans=(), template_id=7)
    b = Record(text="Mail Bob", spans=(), template_id=7)
    assert dev_part(a) == dev_part(b)  # one template, one part
    records = [Record(text=f"t{i}", spans=(), template_id=i) for i in range(400)]
    parts = split_dev(records)
    assert parts == split_dev(records)
    assert 0.3 < len(parts["unread"]) / len(records) < 0.5
    assert {id(r) for r in parts["read"]}.isdisjoint(id(r) for r in parts["unread"])


@pytest.mark.skipif(not DEV_FILE.exists(), reason="shared dataset not available")
def test_dev_unread_part_is_fixed():
    parts = split_dev(load_presidio_research(DEV_FILE))
    # pinned so that nobody moves records between the parts after reading them
    assert (len(parts["read"]), len(parts["unread"])) == (626, 435)


def test_unread_scoring_keeps_no_text_and_combine_sums_counts():
    records = [_rec("Anna Berg lives in Oslo", ("PERSON", 0, 9), ("GPE", 19, 23))]
    rep = score(records, lambda texts: [[] for _ in texts], keep_examples=False)
    assert rep["missed_examples"] == [] and "Anna" not in json.dumps(rep)
    both = combine([rep, score(records, lambda texts: [[("PERSON", 0, 4)] for _ in texts])])
    assert both["per_type"]["PERSON"]["gold"] == 2 and both["per_type"]["PERSON"]["found"] == 1
    assert both["overall"]["recall"] == pytest.approx(1 / 4)


def test_conversation_records_are_masked_turn_by_turn():
    turns = ["key part ghp_AAAA", "BBBB1234xyz rest"]
    rec = Record(text="\n".join(turns), spans=(GoldSpan("SECRET", 9, 17), GoldSpan("SECRET", 18, 29)),
                 metadata={"turns": turns})
    seen = []

    def masker(texts):
        seen.append(list(texts))
        return [[("SECRET_X", 0, len(t))] if t.startswith("BBBB") else [] for t in texts]

    rep = score([rec], masker, only_types={"SECRET"})
    assert seen == [turns]
    assert rep["per_type"]["SECRET"]["found"] == 1  # the tail (offset into the joined text), not the head

    def conversation(texts):
        return [[("SECRET_X", len(t) - 8, len(t))] if t.startswith("key") else [("SECRET_X", 0, 11)] for t in texts]

    masker.conversation = conversation
    assert score([rec], masker, only_types={"SECRET"})["per_type"]["SECRET"]["recall"] == 1.0


@pytest.mark.parametrize("section", ["evasion", "evasion_holdout"])
def test_engine_catches_the_evasion_sections(section):
    """Split (across turns and exchanges), encoded (base64, hex, URL) and wrapped (forged placeholders, brackets,
    zero-width characters) secrets, with their hard negatives."""
    records = _section(section)
    assert any(r.metadata.get("turns") for r in records) and any(not r.spans for r in records)
    rep = score(records, make_masker(), only_types={"SECRET"})
    assert rep["per_type"]["SECRET"]["recall"] >= 0.95
    assert rep["per_type"]["SECRET"]["leaked_verbatim"] == 0
    assert rep["negatives"]["with_secret_prediction"] <= 1
