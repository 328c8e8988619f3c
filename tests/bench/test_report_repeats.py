"""bench/report.py over repeated LoCoMo runs (one run's seed moves the numbers): mean ± sd per split, run and search;
goals on untuned."""

from __future__ import annotations

import pytest

from bench.locomo import parse_search_variant
from bench.report import UNTUNED, repeats_section


def _stats(recall: float, c1: float, tokens: float, answer: float) -> dict:
    return {"evidence_recall": {"overall": recall, "by_category": {"1": c1, "2": recall, "3": recall, "4": recall}},
            "evidence_recall_in_context": {"overall": recall}, "answer_recall": {"overall": answer},
            "context_tokens_per_query": tokens, "result_tokens_per_query": tokens + 500}


def _run(seed: int, recall: float, variant: str = "final", matched: float | None = None) -> dict:
    primary = _stats(recall, 0.7, 1980, 0.66)
    if matched is not None:
        primary["at_flat_budget"] = {"reference": "flat_top25", "context_tokens_per_query": 1930,
                                     "evidence_recall_in_context": {"overall": matched},
                                     "answer_recall": {"overall": 0.65}}
    return {"label": "online-extractive", "variant": variant, "seed": seed, "conversations": list(UNTUNED),
            "retrieval": {"recmem_10_5_10": primary, "flat_top25": _stats(0.7, 0.5, 1940, 0.6)}}


def test_seeds_are_averaged_and_one_seed_ablations_stay_out_of_the_goals():
    lines = "\n".join(repeats_section([_run(1, 0.86), _run(2, 0.88), _run(3, 0.87), _run(1, 0.5, "registry-off")]))
    assert "| untuned | online-extractive (final) | recmem_10_5_10 | 1,2,3 | 0.870 ± 0.010 |" in lines
    assert "| untuned | online-extractive (registry-off) | recmem_10_5_10 | 1 | 0.500 |" in lines
    assert "extractive evidence recall 0.870 (goal ≥ 0.80: met)" in lines  # not dragged down by the ablation
    assert "+0.170 against flat top-25" in lines and "(goal: no more: **missed**)" in lines


def test_search_variants_parse_to_typed_settings():
    assert parse_search_variant("vector-only:search.lexical_weight=0,search.expand=0") == (
        "vector-only", (("search__lexical_weight", 0.0), ("search__expand", 0)))
    assert parse_search_variant("no-registry:privacy.registry_gazetteer=0")[1] == (
        ("privacy__registry_gazetteer", False),)
    with pytest.raises(ValueError, match="no setting"):
        parse_search_variant("flat:search_expand=0")


def test_the_comparison_at_flat_top25s_block_size_is_reported_when_every_seed_has_it():
    lines = "\n".join(repeats_section([_run(1, 0.86, matched=0.80), _run(2, 0.88, matched=0.82)]))
    assert "at flat top-25's block size per question (1,930 tokens per query against 1,940: met)" in lines
    assert ("evidence in the block 0.810 ± 0.014 against flat top-25's 0.700 ± 0.000 (+0.110; goal ≥ +0.05: met)"
            in lines)
    assert "answer recall 0.650 ± 0.000 against 0.600 (goal ≥: met)" in lines
    # one seed without it: no mixed mean
    assert "block size" not in "\n".join(repeats_section([_run(1, 0.86, matched=0.80), _run(2, 0.88)]))
