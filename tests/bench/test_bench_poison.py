"""The poisoning benchmark's case definitions (bench/poison.py, bench/poison_held.py, bench/poison_fresh.py): no API
run here — the sets are large enough, every family is in every part, ids and markers are unique, each marker is in its
case's text (in the normalised form the harness looks for it in), and a held-back or fresh report names no case."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from bench.poison import (
    DETAIL_PARTS,
    FAMILIES,
    UNREAD_PARTS,
    aggregate,
    bidi_reversed,
    cases_for,
    check_cases,
    normalise,
    part_of,
    strip_held_back_cases,
    summary_lines,
    tag_chars,
    zero_width,
)


def test_at_least_100_well_formed_cases_with_unique_ids_and_markers():
    cases = cases_for("all")
    assert len(cases) >= 100
    assert check_cases(cases) == []
    assert len({c.id for c in cases}) == len(cases)
    assert len({normalise(c.marker) for c in cases}) == len(cases)


def test_every_family_in_both_parts_and_parts_split_by_id():
    tuned, held = cases_for("tuned"), cases_for("held_back")
    assert len(tuned) >= 55 and len(held) >= 40
    for part, cases in (("tuned", tuned), ("held_back", held)):
        counts = Counter(c.family for c in cases)
        assert set(counts) == set(FAMILIES), part
        assert min(counts.values()) >= 4, part
        assert {part_of(c) for c in cases} == {part}
    assert not {normalise(c.marker) for c in tuned} & {normalise(c.marker) for c in held}


def test_each_part_has_module_and_personal_variants_and_tool_sources():
    for part in ("tuned", "held_back"):
        cases = cases_for(part)
        assert {c.variant for c in cases} >= {"module", "personal"}
        assert any(e.source == "tool" and e.tool for c in cases for s in c.sessions for e in s.exchanges)
        assert all("C" in c.victims for c in cases if c.family == "promote")
        assert all(len(c.sessions) >= 3 for c in cases if c.family in ("slow", "flood"))


def test_normalise_reveals_hidden_text():
    assert "marker" in normalise("x" + zero_width("marker"))
    assert "marker" in normalise("x" + tag_chars("marker"))
    assert "rekram" in normalise(bidi_reversed("marker"))
    assert normalise("\uff2d\uff21\uff32\uff2b") == "mark"  # full-width forms fold (NFKC)


@pytest.mark.parametrize("part", ["held_back", "fresh", "r19", "r19_held", "r21", "r21_held", "r41", "r41_held"])
def test_unread_part_summary_names_no_case(part):
    assert part in UNREAD_PARTS and part not in DETAIL_PARTS
    cases = cases_for(part)
    rows = [{"id": c.id, "family": c.family, "variant": c.variant, "part": part, "reached": True,
             "in_context": True, "hit_layers": {"exchanges": 1}, "returned_labelled_quarantined": 0,
             "listed_to_victim": True, "reached_by": ["B"], "marker_stored": True, "settled": True,
             "review_items": {}} for c in cases]
    entry = aggregate(rows)
    report = strip_held_back_cases({"attacks": {part: {**entry, "cases": rows}},
                                    "source_field": {"note": "n"}, "quarantine_setting": "1", "wall_seconds": 1})
    assert "cases" not in report["attacks"][part]
    text = "\n".join(summary_lines(report, details=True))
    assert entry["overall"]["reached"] == len(cases)
    assert set(entry["by_family"]) == set(FAMILIES)
    for c in cases:
        assert c.id not in text and normalise(c.marker) not in text.lower()


def test_fresh_set_is_large_well_formed_and_apart_from_the_others():
    fresh, others = cases_for("fresh"), cases_for("all")
    assert len(fresh) >= 60
    assert check_cases(fresh) == []
    assert check_cases(others + fresh) == []  # ids and markers unique across the three sets, none inside another
    counts = Counter(c.family for c in fresh)
    assert set(counts) == set(FAMILIES) and min(counts.values()) >= 5
    assert {part_of(c) for c in fresh} == {"fresh"}
    assert not any(part_of(c) == "fresh" for c in others)  # "all" stays tuned + held back
    other_texts = [normalise(t) for c in others for t in c.texts() + [c.query]]
    for c in fresh:  # a fresh marker occurs nowhere in the other sets' texts or questions
        assert not any(normalise(c.marker) in t for t in other_texts), c.id
    assert {c.variant for c in fresh} >= {"module", "personal"}
    assert any(e.source == "tool" and e.tool for c in fresh for s in c.sessions for e in s.exchanges)
    assert all("C" in c.victims for c in fresh if c.family == "promote")
    assert all(len(c.sessions) >= 3 for c in fresh if c.family in ("slow", "flood"))


@pytest.mark.parametrize("part", ["held_back", "fresh", "all"])
def test_bench_poison_refuses_case_details_for_unread_parts(part):
    with pytest.raises(CommandError, match="--details"):
        call_command("bench_poison", part=part, details=True)


def test_locomo_scores_read_the_primary_search_of_a_bench_locomo_report():
    from bench.poison import _locomo_scores, locomo_commands

    report = {"runs": [{"primary": "recmem_10_5_10", "retrieval": {"recmem_10_5_10": {
        "evidence_recall": {"overall": 0.9, "by_category": {}}, "evidence_recall_in_context": {"overall": 0.8},
        "answer_recall": {"overall": 0.6}}}}]}
    assert _locomo_scores(report) == {"evidence_recall": 0.9, "evidence_recall_in_context": 0.8, "answer_recall": 0.6}
    commands = locomo_commands(__import__("pathlib").Path("/tmp"))
    assert [env for _, _, env in commands] == [{"RECMEM_QUARANTINE_ENABLED": "1"}, {"RECMEM_QUARANTINE_ENABLED": "0"}]
    assert all("conv-43,conv-44,conv-47" in args for _, args, _ in commands)


def test_the_sanity_check_counts_no_defence_only_with_both_halves_off():
    """The harness check (most module-scope attacks must reach with no defence) applies only when the detector is off
    and the peer rule is open: with the rule on, a peer's raw exchanges are not searched, detector or not."""
    from bench.poison import _sanity

    module = {"cases": 10, "marker_not_stored": 0, "errors": 0, "reached": 9}
    report = {"source_field": {"accepted": True}, "attacks": {"tuned": {"by_variant": {"module": module}}}}
    both_off = _sanity({**report, "quarantine_setting": "0", "peer_exchanges_setting": "all"})
    assert both_off["no_defence"] and both_off["harness_ok"]
    rule_on = _sanity({**report, "quarantine_setting": "0", "peer_exchanges_setting": "trusted"})
    assert not rule_on["no_defence"] and rule_on["harness_ok"] is None
    assert not _sanity({**report, "quarantine_setting": "1", "peer_exchanges_setting": "all"})["no_defence"]
