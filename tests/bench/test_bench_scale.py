"""bench_scale end to end at a tiny size: the code paths of the 100k and 1M runs (issue 5), HTTP part aside."""

from __future__ import annotations

import json

import pytest

from agents.models import Project
from bench.report import write_summary
from bench.scale import form_parts, run_scale
from memory.textform import unit_text_form

pytestmark = pytest.mark.django_db(transaction=True)


def quiet(message: str) -> None:
    pass


def test_form_parts_drop_the_timestamp_and_split_the_turns():
    from datetime import UTC, datetime

    form = unit_text_form(occurred_at=datetime(2023, 1, 1, 9, 0, tzinfo=UTC), user="hi there", assistant="hello")
    assert form_parts(form) == ["user: hi there", "assistant: hello"]
    assert form_parts("user: only") == ["user: only"]


def test_fast_fill_composes_vectors_memoises_masking_and_measures_every_size(tmp_path, locomo_file):
    report = run_scale(sizes=[120, 60], data=locomo_file, queries=4, recall_queries=3, http=False,
                       cache_dir=tmp_path, fast_fill=True, consolidation_mode="off", ef_sweep=(100,),
                       component_texts=20, build_index_after=True, halfvec=True, log=quiet)

    assert [e["size"] for e in report["sizes"]] == [60, 120]
    turns = 14  # the tiny conversation's turns: each is masked once, its line embedded once
    for entry in report["sizes"]:
        bulk = entry["bulk_import"]
        assert bulk["exchanges"] == 60 and bulk["embeddings_composed"] == 60
        assert bulk["masking"]["analysed"] <= turns
        assert bulk["masking"]["analysed"] + bulk["masking"]["memoised"] == 120
        assert entry["search"]["hits_per_query"][0] == 10
        assert set(entry["search"]["by_ef_search"]) == {"100"}  # the configured 200 is entry["search"] itself
        assert 0 < entry["search"]["sql_p50_ms"] <= entry["search"]["sql_p99_ms"]
        assert set(entry["index_build_seconds"]) >= {"exchange_embedding_hnsw", "episode_embedding_hnsw",
                                                     "experience_embedding_hnsw"}  # dropped, filled, built
        assert entry["storage"]["exchange_embedding_hnsw_mib"] > 0
        assert entry["memory"]["shared_buffers"] and entry["memory"]["bench_process_peak_rss_mib"] > 0
        half = entry["halfvec"]
        assert half["queries"] == 3 and half["halfvec_recall_at_10"] > 0.5 and half["halfvec_index_mib"] > 0
        for layer in ("exchanges", "episodes", "experiences"):
            recall = entry["hnsw_recall"][layer]
            assert 0 <= recall["recall_at_k"] <= 1 and recall["queries"] == 3
            assert recall["scan"] == "exact (small table)"  # 120 rows: below RECMEM_EXACT_SEARCH_MAX_ROWS
            assert set(recall["by_ef_search"]) == {"100", "200"}
    assert report["sizes"][1]["store"] == {"exchanges": 120, "episodes": 6, "experiences": 12, "candidates": 0}
    cache = report["embedding_cache"]
    assert cache["composed"] == 120 and cache["from_cache"] == 0
    # Turn lines (user and assistant forms of each turn) and each episode's own text (6 topic groups of 20).
    assert 0 < cache["computed"] <= 2 * turns + 6
    assert report["fast_fill_fidelity"]["cosine_mean"] > 0.7
    assert not Project.objects.filter(name=report["project"]).exists()  # deleted without --keep-data

    results = tmp_path / "results"
    results.mkdir()
    (results / "scale_1m.json").write_text(json.dumps(report, default=str))
    summary = write_summary(results).read_text()
    assert "**Fast fill**" in summary and "composed from the vectors of their two turn lines" in summary
    assert "`hnsw.ef_search` trade-off" in summary
    assert "| 120 | 100 |" in summary and "| 120 | 200 (configured) |" in summary
    assert "| exact / exact / exact |" in summary
    assert "Goals (at" not in summary  # goals are judged on the run with every vector computed


def test_episodes_group_similar_exchanges():
    import numpy as np

    from bench.scale import topic_groups

    rng = np.random.default_rng(3)
    centres = rng.normal(size=(3, 16))
    vectors = np.concatenate([c + 0.05 * rng.normal(size=(4, 16)) for c in centres])[[0, 4, 8, 1, 5, 9, 2, 6, 10,
                                                                                       3, 7, 11]]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    groups = topic_groups(vectors, 4)
    assert sorted(i for g in groups for i in g) == list(range(12))  # every exchange in exactly one episode
    assert [sorted(g) for g in groups] == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]  # by topic, not by order


def test_embedding_cache_is_reused_by_a_later_run(tmp_path, locomo_file):
    first = run_scale(sizes=[40], data=locomo_file, queries=2, recall_queries=2, http=False, cache_dir=tmp_path,
                      consolidation_mode="idle", ef_sweep=(), component_texts=10, log=quiet)
    # 40 exchanges, then 2 episodes (their own text) and 4 experience statements.
    assert first["embedding_cache"]["computed"] == 46 and first["embedding_cache"]["from_cache"] == 0
    # A new project, a fixed pseudonym key: the same masked texts, so every vector comes from the cache.
    second = run_scale(sizes=[40], data=locomo_file, queries=2, recall_queries=2, http=False, cache_dir=tmp_path,
                       embedding_cache=True, consolidation_mode="idle", ef_sweep=(), component_texts=10, log=quiet)
    assert second["embedding_cache"]["from_cache"] == 40 and second["embedding_cache"]["computed"] == 0
    assert second["sizes"][0]["bulk_import"]["embeddings_from_cache"] == 40
    assert second["sizes"][0]["store"]["exchanges"] == 40


def test_a_kept_store_is_re_measured_and_grown(tmp_path, locomo_file):
    from bench.locomo import project_delete

    first = run_scale(sizes=[40], data=locomo_file, queries=2, recall_queries=2, http=False, cache_dir=tmp_path,
                      consolidation_mode="off", ef_sweep=(), component_texts=10, keep_data=True, log=quiet)
    try:
        again = run_scale(sizes=[40, 60], data=locomo_file, queries=2, recall_queries=2, http=False,
                          cache_dir=tmp_path, consolidation_mode="off", ef_sweep=(), component_texts=10,
                          project=first["project"], log=quiet)
        assert again["project"] == first["project"] and again["resumed_from"] == 40
        assert [e["bulk_import"]["exchanges"] for e in again["sizes"]] == [0, 20]  # 40 re-measured, then grown
        assert again["sizes"][1]["store"]["exchanges"] == 60
        assert Project.objects.filter(name=first["project"]).exists()  # a store kept on purpose stays
        with pytest.raises(ValueError, match="not a kept bench_scale store"):
            run_scale(sizes=[10], data=locomo_file, queries=1, recall_queries=1, http=False, cache_dir=tmp_path,
                      ef_sweep=(), component_texts=10, project="no-such-project", log=quiet)
    finally:
        project_delete(first["project"])
