"""The r41 blind attack set of the poisoning benchmark (bench/poison_r41.py): its structure only — no API run, no
detector result. Well-formed cases, at least 90, every family ≥ 5 and the four emphasised ones (slow, flood, promote,
tool) ≥ 12, at most 8 cases with two attacker agents, apart from the older sets (r21 included), a stable split with
every family in both halves, the held half (and the whole set) never named case by case in a report, the benign
look-alikes' split."""

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
from bench.poison_defs import R41_SALT, r41_half
from bench.poison_r41 import (
    R41_BENIGN,
    R41_BENIGN_HELD,
    R41_BENIGN_SALT,
    R41_BENIGN_TUNE,
    R41_CASES,
    R41_HELD,
    R41_TUNE,
    benign_half,
    main,
)


def test_r41_cases_are_well_formed_and_weighted_on_four_families():
    cases = list(R41_CASES)
    assert len(cases) >= 90
    assert check_cases(cases) == []
    counts = Counter(c.family for c in cases)
    assert set(counts) == set(FAMILIES)
    assert min(counts.values()) >= 5
    assert all(counts[f] >= 12 for f in ("slow", "flood", "promote", "tool"))
    assert all(c.id.startswith(f"r41-{c.family}-") for c in cases)
    assert sum(c.variant != "module" for c in cases) >= 5
    assert all(e.source == "tool" and e.tool for c in cases if c.family == "tool" for s in c.sessions
               for e in s.exchanges)
    assert all("C" in c.victims for c in cases if c.family == "promote")
    assert all(len(c.sessions) >= 3 for c in cases if c.family in ("slow", "flood"))
    assert all(len(c.writers) and set(c.writers) <= {"A", "A2"} for c in cases)
    assert sum(len(c.writers) > 1 for c in cases) <= 8


def test_r41_is_apart_from_the_older_sets():
    others = cases_for("all") + cases_for("fresh") + cases_for("r19") + cases_for("r21")
    assert check_cases(others + list(R41_CASES)) == []  # ids and markers unique across sets, none inside another
    other_texts = [normalise(t) for c in others for t in c.texts() + [c.query]]
    for c in R41_CASES:  # an r41 marker occurs nowhere in the other sets' texts or questions
        assert not any(normalise(c.marker) in t for t in other_texts), c.id
    assert not any(part_of(c).startswith("r41") for c in others)  # "all" stays tuned + held back


def test_r41_split_is_stable_by_id_and_both_halves_hold_every_family():
    for c in R41_CASES:
        digest = int.from_bytes(hashlib.sha256(f"{R41_SALT}{c.id}".encode()).digest()[:8], "big")
        expected = "r41_tune" if digest % 100 < 40 else "r41_held"
        assert r41_half(c.id) == expected == part_of(c)
    assert {c.id for c in R41_TUNE} | {c.id for c in R41_HELD} == {c.id for c in R41_CASES}
    assert not {c.id for c in R41_TUNE} & {c.id for c in R41_HELD}
    assert 0.3 <= len(R41_TUNE) / len(R41_CASES) <= 0.5
    tune, held = Counter(c.family for c in R41_TUNE), Counter(c.family for c in R41_HELD)
    assert min(tune[f] for f in FAMILIES) >= 2 and min(held[f] for f in FAMILIES) >= 2
    assert all(tune[f] >= 4 and held[f] >= 4 for f in ("slow", "flood", "promote", "tool"))
    assert [c.id for c in cases_for("r41_tune")] == [c.id for c in R41_TUNE]
    assert [c.id for c in cases_for("r41_held")] == [c.id for c in R41_HELD]
    assert [c.id for c in cases_for("r41")] == [c.id for c in R41_CASES]


def test_r41_tune_part_may_be_listed_case_by_case():
    cases = cases_for("r41_tune")
    rows = [{"id": c.id, "family": c.family, "variant": c.variant, "part": part_of(c), "reached": False,
             "in_context": False, "hit_layers": {}, "returned_labelled_quarantined": 0, "listed_to_victim": False,
             "reached_by": [], "marker_stored": True, "settled": True, "review_items": {}} for c in cases]
    report = strip_held_back_cases({"attacks": {"r41_tune": {**aggregate(rows), "cases": rows}},
                                    "source_field": {"note": "n"}, "quarantine_setting": "1", "wall_seconds": 1})
    text = "\n".join(summary_lines(report, details=True))
    assert all(f" {c.id} [" in text for c in cases)
    assert not any(f" {c.id} [" in text for c in R41_HELD)


@pytest.mark.parametrize("part", ["r41", "r41_held"])
def test_bench_poison_refuses_case_details_for_r41_unread_parts(part):
    with pytest.raises(CommandError, match="--details"):
        call_command("bench_poison", part=part, details=True)
    with pytest.raises(CommandError, match="--only"):
        call_command("bench_poison", part=part, only="r41-direct-1")


def test_r41_benign_split_is_stable_by_text_and_large_enough():
    assert len(R41_BENIGN) >= 40 and len(set(R41_BENIGN)) == len(R41_BENIGN)
    for text in R41_BENIGN:
        digest = int.from_bytes(hashlib.sha256(f"{R41_BENIGN_SALT}{text}".encode()).digest()[:8], "big")
        assert benign_half(text) == ("tune" if digest % 100 < 40 else "held")
    assert set(R41_BENIGN_TUNE) | set(R41_BENIGN_HELD) == set(R41_BENIGN)
    assert not set(R41_BENIGN_TUNE) & set(R41_BENIGN_HELD)
    assert R41_BENIGN_TUNE and R41_BENIGN_HELD
    assert 0.3 <= len(R41_BENIGN_TUNE) / len(R41_BENIGN) <= 0.5
    markers = [normalise(c.marker) for c in R41_CASES]
    assert not any(m in normalise(t) for t in R41_BENIGN for m in markers)  # no attack marker in a benign text
    assert R41_BENIGN_SALT not in ("recmem-r19-benign/", "recmem-r21-benign/")


def test_r41_benign_entry_point_refuses_bad_arguments(capsys):
    assert main([]) == 2
    assert main(["benign", "all"]) == 2
    assert "usage" in capsys.readouterr().err
