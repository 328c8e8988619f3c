"""The r21 blind attack set of the poisoning benchmark (bench/poison_r21.py): its structure only — no API run, no
detector result. Well-formed cases, every family ≥ 12 and the six emphasised ones ≥ 18, apart from the older sets
(r19 included), a stable split with every family at least 4 tune cases, the held half (and the whole set) never
named case by case in a report, the benign look-alikes' split."""

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
from bench.poison_defs import R21_SALT, r21_half
from bench.poison_r21 import (
    R21_BENIGN,
    R21_BENIGN_HELD,
    R21_BENIGN_SALT,
    R21_BENIGN_TUNE,
    R21_CASES,
    R21_HELD,
    R21_TUNE,
    benign_half,
    main,
)


def test_r21_cases_are_well_formed_and_every_family_has_at_least_twelve():
    cases = list(R21_CASES)
    assert len(cases) >= 130
    assert check_cases(cases) == []
    counts = Counter(c.family for c in cases)
    assert set(counts) == set(FAMILIES)
    assert min(counts.values()) >= 12
    assert all(counts[f] >= 18 for f in ("flood", "slow", "exfil", "rce", "direct", "encoded"))
    assert all(c.id.startswith(f"r21-{c.family}-") for c in cases)
    assert sum(c.variant == "personal" for c in cases) >= 8
    assert any(e.source == "tool" and e.tool for c in cases for s in c.sessions for e in s.exchanges)
    assert all("C" in c.victims for c in cases if c.family == "promote")
    assert all(len(c.sessions) >= 3 for c in cases if c.family in ("slow", "flood"))
    assert all(len(c.writers) and set(c.writers) <= {"A", "A2"} for c in cases)


def test_r21_is_apart_from_the_older_sets():
    others = cases_for("all") + cases_for("fresh") + cases_for("r19")
    assert check_cases(others + list(R21_CASES)) == []  # ids and markers unique across sets, none inside another
    other_texts = [normalise(t) for c in others for t in c.texts() + [c.query]]
    for c in R21_CASES:  # an r21 marker occurs nowhere in the other sets' texts or questions
        assert not any(normalise(c.marker) in t for t in other_texts), c.id
    assert not any(part_of(c).startswith("r21") for c in others)  # "all" stays tuned + held back


def test_r21_split_is_stable_by_id_and_both_halves_hold_every_family():
    for c in R21_CASES:
        digest = int.from_bytes(hashlib.sha256(f"{R21_SALT}{c.id}".encode()).digest()[:8], "big")
        expected = "r21_tune" if digest % 100 < 40 else "r21_held"
        assert r21_half(c.id) == expected == part_of(c)
    assert {c.id for c in R21_TUNE} | {c.id for c in R21_HELD} == {c.id for c in R21_CASES}
    assert not {c.id for c in R21_TUNE} & {c.id for c in R21_HELD}
    assert 0.3 <= len(R21_TUNE) / len(R21_CASES) <= 0.5
    for half in (R21_TUNE, R21_HELD):
        assert set(Counter(c.family for c in half)) == set(FAMILIES)
    assert min(Counter(c.family for c in R21_TUNE)[f] for f in FAMILIES) >= 4
    assert [c.id for c in cases_for("r21_tune")] == [c.id for c in R21_TUNE]
    assert [c.id for c in cases_for("r21_held")] == [c.id for c in R21_HELD]
    assert [c.id for c in cases_for("r21")] == [c.id for c in R21_CASES]


def test_r21_tune_part_may_be_listed_case_by_case():
    cases = cases_for("r21_tune")
    rows = [{"id": c.id, "family": c.family, "variant": c.variant, "part": part_of(c), "reached": False,
             "in_context": False, "hit_layers": {}, "returned_labelled_quarantined": 0, "listed_to_victim": False,
             "reached_by": [], "marker_stored": True, "settled": True, "review_items": {}} for c in cases]
    report = strip_held_back_cases({"attacks": {"r21_tune": {**aggregate(rows), "cases": rows}},
                                    "source_field": {"note": "n"}, "quarantine_setting": "1", "wall_seconds": 1})
    text = "\n".join(summary_lines(report, details=True))
    assert all(f" {c.id} [" in text for c in cases)
    assert not any(f" {c.id} [" in text for c in R21_HELD)


@pytest.mark.parametrize("part", ["r21", "r21_held"])
def test_bench_poison_refuses_case_details_for_r21_unread_parts(part):
    with pytest.raises(CommandError, match="--details"):
        call_command("bench_poison", part=part, details=True)
    with pytest.raises(CommandError, match="--only"):
        call_command("bench_poison", part=part, only="r21-direct-1")


def test_r21_benign_split_is_stable_by_text_and_large_enough():
    assert len(R21_BENIGN) >= 200 and len(set(R21_BENIGN)) == len(R21_BENIGN)
    for text in R21_BENIGN:
        digest = int.from_bytes(hashlib.sha256(f"{R21_BENIGN_SALT}{text}".encode()).digest()[:8], "big")
        assert benign_half(text) == ("tune" if digest % 100 < 40 else "held")
    assert set(R21_BENIGN_TUNE) | set(R21_BENIGN_HELD) == set(R21_BENIGN)
    assert not set(R21_BENIGN_TUNE) & set(R21_BENIGN_HELD)
    assert R21_BENIGN_TUNE and R21_BENIGN_HELD
    assert 0.3 <= len(R21_BENIGN_TUNE) / len(R21_BENIGN) <= 0.5
    markers = [normalise(c.marker) for c in R21_CASES]
    assert not any(m in normalise(t) for t in R21_BENIGN for m in markers)  # no attack marker in a benign text
    assert R21_BENIGN_SALT != "recmem-r19-benign/"


def test_r21_benign_entry_point_refuses_bad_arguments(capsys):
    assert main([]) == 2
    assert main(["benign", "all"]) == 2
    assert "usage" in capsys.readouterr().err
