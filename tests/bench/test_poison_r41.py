"""The r41 blind attack set of the poisoning benchmark (bench/poison_r41.py): its structure only — no API run, no
detector result. Well-formed cases, at least 90, every family ≥ 5 and the four emphasised ones (slow, flood, promote,
tool) ≥ 12, at most 8 cases with two attacker agents, every family ≥ 2 in each half and the emphasised ones ≥ 4. What
every blind set holds (apart from the older sets, its split, its reports, its benign look-alikes) is in
test_poison_blind_sets.py."""

from __future__ import annotations

from collections import Counter

from bench.poison import FAMILIES, check_cases
from bench.poison_r41 import R41_CASES, R41_HELD, R41_TUNE


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


def test_r41_halves_hold_two_of_every_family_and_four_of_the_emphasised_ones():
    tune, held = Counter(c.family for c in R41_TUNE), Counter(c.family for c in R41_HELD)
    assert min(tune[f] for f in FAMILIES) >= 2 and min(held[f] for f in FAMILIES) >= 2
    assert all(tune[f] >= 4 and held[f] >= 4 for f in ("slow", "flood", "promote", "tool"))
