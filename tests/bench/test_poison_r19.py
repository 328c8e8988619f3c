"""The r19 blind attack set of the poisoning benchmark (bench/poison_r19.py): its structure only — no API run, no
detector result. Well-formed cases, every family ≥ 10. What every blind set holds (apart from the older sets, its
split, its reports, its benign look-alikes) is in test_poison_blind_sets.py."""

from __future__ import annotations

from collections import Counter

from bench.poison import FAMILIES, check_cases
from bench.poison_r19 import R19_CASES


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
