"""The r19 blind attack set of the poisoning benchmark (bench/poison_r19.py): its structure only — no API run, no
detector result. Well-formed cases, every family ≥ 10, apart from the older sets, a stable split with both halves
non-empty, the held half (and the whole set) never named case by case in a report, the benign look-alikes' split."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from bench.poison import (
    FAMILIES,
    aggregate,
    cases_for,
    check_cases,
    normalise,
    part_of,
    strip_held_back_cases,
    summary_lines,
)
from bench.poison_defs import R19_SALT, r19_half
from bench.poison_r19 import (
    R19_BENIGN,
    R19_BENIGN_HELD,
    R19_BENIGN_TUNE,
    R19_CASES,
    R19_HELD,
    R19_TUNE,
    benign_half,
    main,
)


def test_r19_cases_are_well_formed_and_every_family_has_at_least_ten():
    cases = list(R19_CASES)
    assert len(cases) >= 130
    assert check_cases(cases) == []
    counts = Counter(c.family for c in cases)
    assert set(counts) == set(FAMILIES)
    assert min(counts.values()) >= 10
    assert all(c.id.startswith(f"r19-{c.family}-") for c in cases)
    assert sum(c.variant == "personal" for c in cases) >= 8
    assert any(e.source == "tool" and e.tool for c in cases for s in c.sessions for e in s.exchanges)
    assert all("C" in c.victims for c in cases if c.family == "promote")
    assert all(len(c.sessions) >= 3 for c in cases if c.family in ("slow", "flood"))
    assert all(len(c.writers) and set(c.writers) <= {"A", "A2"} for c in cases)


def test_r19_is_apart_from_the_older_sets():
    others = cases_for("all") + cases_for("fresh")
    assert check_cases(others + list(R19_CASES)) == []  # ids and markers unique across sets, none inside another
    other_texts = [normalise(t) for c in others for t in c.texts() + [c.query]]
    for c in R19_CASES:  # an r19 marker occurs nowhere in the other sets' texts or questions
        assert not any(normalise(c.marker) in t for t in other_texts), c.id
    assert not any(part_of(c).startswith("r19") for c in others)  # "all" stays tuned + held back


def test_r19_split_is_stable_by_id_and_both_halves_hold_every_family():
    for c in R19_CASES:
        digest = int.from_bytes(hashlib.sha256(f"{R19_SALT}{c.id}".encode()).digest()[:8], "big")
        expected = "r19_tune" if digest % 100 < 40 else "r19_held"
        assert r19_half(c.id) == expected == part_of(c)
    assert {c.id for c in R19_TUNE} | {c.id for c in R19_HELD} == {c.id for c in R19_CASES}
    assert not {c.id for c in R19_TUNE} & {c.id for c in R19_HELD}
    assert 0.3 <= len(R19_TUNE) / len(R19_CASES) <= 0.5
    for half in (R19_TUNE, R19_HELD):
        assert set(Counter(c.family for c in half)) == set(FAMILIES)
    assert [c.id for c in cases_for("r19_tune")] == [c.id for c in R19_TUNE]
    assert [c.id for c in cases_for("r19_held")] == [c.id for c in R19_HELD]
    assert [c.id for c in cases_for("r19")] == [c.id for c in R19_CASES]


def test_r19_tune_part_may_be_listed_case_by_case():
    cases = cases_for("r19_tune")
    rows = [{"id": c.id, "family": c.family, "variant": c.variant, "part": part_of(c), "reached": False,
             "in_context": False, "hit_layers": {}, "returned_labelled_quarantined": 0, "listed_to_victim": False,
             "reached_by": [], "marker_stored": True, "settled": True, "review_items": {}} for c in cases]
    report = strip_held_back_cases({"attacks": {"r19_tune": {**aggregate(rows), "cases": rows}},
                                    "source_field": {"note": "n"}, "quarantine_setting": "1", "wall_seconds": 1})
    text = "\n".join(summary_lines(report, details=True))
    assert all(f" {c.id} [" in text for c in cases)
    assert not any(f" {c.id} [" in text for c in R19_HELD)


@pytest.mark.parametrize("part", ["r19", "r19_held"])
def test_bench_poison_refuses_case_details_for_r19_unread_parts(part):
    with pytest.raises(CommandError, match="--details"):
        call_command("bench_poison", part=part, details=True)
    with pytest.raises(CommandError, match="--only"):
        call_command("bench_poison", part=part, only="r19-direct-1")


def test_r19_benign_split_is_stable_by_text_and_large_enough():
    assert len(R19_BENIGN) >= 200 and len(set(R19_BENIGN)) == len(R19_BENIGN)
    for text in R19_BENIGN:
        digest = int.from_bytes(hashlib.sha256(f"recmem-r19-benign/{text}".encode()).digest()[:8], "big")
        assert benign_half(text) == ("tune" if digest % 100 < 40 else "held")
    assert set(R19_BENIGN_TUNE) | set(R19_BENIGN_HELD) == set(R19_BENIGN)
    assert not set(R19_BENIGN_TUNE) & set(R19_BENIGN_HELD)
    assert R19_BENIGN_TUNE and R19_BENIGN_HELD
    assert 0.3 <= len(R19_BENIGN_TUNE) / len(R19_BENIGN) <= 0.5
    markers = [normalise(c.marker) for c in R19_CASES]
    assert not any(m in normalise(t) for t in R19_BENIGN for m in markers)  # no attack marker in a benign text


def test_r19_benign_entry_point_refuses_bad_arguments(capsys):
    assert main([]) == 2
    assert main(["benign", "all"]) == 2
    assert "usage" in capsys.readouterr().err
