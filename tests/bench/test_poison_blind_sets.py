"""What every blind attack set of the poisoning benchmark (bench/poison_r19.py, poison_r21.py, poison_r41.py) holds,
whatever its families: apart from the older sets, a split stable by id with every family in both halves, the tune
half listed case by case in a report and the held half (and the whole set) never, the benign look-alikes split
stable by text under a salt of their own, the entry point's refusals. Each set's own size and weighting are tested
in its own module (test_poison_r19.py, _r21.py, _r41.py). Structure only: no API run, no detector result."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import pytest
from django.core.management import CommandError, call_command

import bench.poison_r19
import bench.poison_r21
import bench.poison_r41
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
from bench.poison_defs import R19_SALT, R21_SALT, R41_SALT, r19_half, r21_half, r41_half


@dataclass(frozen=True)
class Blind:
    name: str
    module: ModuleType
    salt: str
    half: Callable[[str], str]
    older: tuple[str, ...]  # the parts written before it, which it must stay apart from
    min_benign: int

    @property
    def cases(self) -> tuple:
        return tuple(getattr(self.module, f"{self.name.upper()}_CASES"))

    @property
    def tune(self) -> tuple:
        return tuple(getattr(self.module, f"{self.name.upper()}_TUNE"))

    @property
    def held(self) -> tuple:
        return tuple(getattr(self.module, f"{self.name.upper()}_HELD"))


SETS = [
    Blind("r19", bench.poison_r19, R19_SALT, r19_half, ("all", "fresh"), 200),
    Blind("r21", bench.poison_r21, R21_SALT, r21_half, ("all", "fresh", "r19"), 200),
    Blind("r41", bench.poison_r41, R41_SALT, r41_half, ("all", "fresh", "r19", "r21"), 40),
]
by_name = pytest.mark.parametrize("blind", SETS, ids=[s.name for s in SETS])


@by_name
def test_a_blind_set_is_apart_from_the_older_sets(blind):
    others = [c for part in blind.older for c in cases_for(part)]
    assert check_cases(others + list(blind.cases)) == []  # ids and markers unique across sets, none inside another
    other_texts = [normalise(t) for c in others for t in c.texts() + [c.query]]
    for c in blind.cases:  # its markers occur nowhere in the other sets' texts or questions
        assert not any(normalise(c.marker) in t for t in other_texts), c.id
    assert not any(part_of(c).startswith(blind.name) for c in others)  # "all" stays tuned + held back


@by_name
def test_a_blind_split_is_stable_by_id_and_both_halves_hold_every_family(blind):
    for c in blind.cases:
        digest = int.from_bytes(hashlib.sha256(f"{blind.salt}{c.id}".encode()).digest()[:8], "big")
        expected = f"{blind.name}_tune" if digest % 100 < 40 else f"{blind.name}_held"
        assert blind.half(c.id) == expected == part_of(c)
    assert {c.id for c in blind.tune} | {c.id for c in blind.held} == {c.id for c in blind.cases}
    assert not {c.id for c in blind.tune} & {c.id for c in blind.held}
    assert 0.3 <= len(blind.tune) / len(blind.cases) <= 0.5
    for half in (blind.tune, blind.held):
        assert set(Counter(c.family for c in half)) == set(FAMILIES)
    assert [c.id for c in cases_for(f"{blind.name}_tune")] == [c.id for c in blind.tune]
    assert [c.id for c in cases_for(f"{blind.name}_held")] == [c.id for c in blind.held]
    assert [c.id for c in cases_for(blind.name)] == [c.id for c in blind.cases]


@by_name
def test_a_blind_tune_part_may_be_listed_case_by_case(blind):
    part = f"{blind.name}_tune"
    cases = cases_for(part)
    rows = [{"id": c.id, "family": c.family, "variant": c.variant, "part": part_of(c), "reached": False,
             "in_context": False, "hit_layers": {}, "returned_labelled_quarantined": 0, "listed_to_victim": False,
             "reached_by": [], "marker_stored": True, "settled": True, "review_items": {}} for c in cases]
    report = strip_held_back_cases({"attacks": {part: {**aggregate(rows), "cases": rows}},
                                    "source_field": {"note": "n"}, "quarantine_setting": "1", "wall_seconds": 1})
    text = "\n".join(summary_lines(report, details=True))
    assert all(f" {c.id} [" in text for c in cases)
    assert not any(f" {c.id} [" in text for c in blind.held)


@pytest.mark.parametrize("part", [p for s in SETS for p in (s.name, f"{s.name}_held")])
def test_bench_poison_refuses_case_details_for_unread_blind_parts(part):
    with pytest.raises(CommandError, match="--details"):
        call_command("bench_poison", part=part, details=True)
    with pytest.raises(CommandError, match="--only"):
        call_command("bench_poison", part=part, only=f"{part.split('_')[0]}-direct-1")


@by_name
def test_a_blind_benign_split_is_stable_by_text_and_large_enough(blind):
    benign = blind.module._BENIGN_SET
    assert benign.name == blind.name and benign.salt == f"recmem-{blind.name}-benign/"
    texts = benign.texts
    assert len(texts) >= blind.min_benign and len(set(texts)) == len(texts)
    for text in texts:
        digest = int.from_bytes(hashlib.sha256(f"{benign.salt}{text}".encode()).digest()[:8], "big")
        assert blind.module.benign_half(text) == ("tune" if digest % 100 < 40 else "held")
    tune = getattr(blind.module, f"{blind.name.upper()}_BENIGN_TUNE")
    held = getattr(blind.module, f"{blind.name.upper()}_BENIGN_HELD")
    assert set(tune) | set(held) == set(texts)
    assert not set(tune) & set(held)
    assert tune and held
    assert 0.3 <= len(tune) / len(texts) <= 0.5
    markers = [normalise(c.marker) for c in blind.cases]
    assert not any(m in normalise(t) for t in texts for m in markers)  # no attack marker in a benign text


def test_every_blind_benign_set_has_a_salt_of_its_own():
    salts = [s.module._BENIGN_SET.salt for s in SETS]
    assert len(set(salts)) == len(salts)


@by_name
def test_a_blind_benign_entry_point_refuses_bad_arguments(blind, capsys):
    assert blind.module.main([]) == 2
    assert blind.module.main(["benign", "all"]) == 2
    assert "usage" in capsys.readouterr().err
