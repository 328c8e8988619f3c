"""bench_scale end to end at a tiny size: the code paths of the 100k and 1M runs (issue 5), HTTP part aside."""

from __future__ import annotations

import json

import pytest

from agents.models import Project
from bench.report import write_summary
from bench.scale import HNSW_INDEXES, hnsw_build, hnsw_drop, hnsw_with, run_scale
from bench.store import form_parts
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
        assert 0 < entry["search"]["sql_exchanges_p50_ms"] <= entry["search"]["sql_exchanges_p99_ms"]
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

    from bench.store import topic_groups

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
                          project=first["project"], exchange_hnsw=(24, 80), log=quiet)
        assert again["project"] == first["project"] and again["resumed_from"] == 40
        # the exchange graph built again with the parameters asked for, on the kept store and after growing it
        assert again["exchange_hnsw"] == {"m": 24, "ef_construction": 80}
        assert [set(e.get("index_build_seconds", {})) & set(HNSW_INDEXES) for e in again["sizes"]] == [
            {"exchange_embedding_hnsw"}, {"exchange_embedding_hnsw"}]
        assert "m='24'" in _exchange_index() and "ef_construction='80'" in _exchange_index()
        assert [e["bulk_import"]["exchanges"] for e in again["sizes"]] == [0, 20]  # 40 re-measured, then grown
        assert again["sizes"][1]["store"]["exchanges"] == 60
        assert Project.objects.filter(name=first["project"]).exists()  # a store kept on purpose stays
        with pytest.raises(ValueError, match="not a kept bench_scale store"):
            run_scale(sizes=[10], data=locomo_file, queries=1, recall_queries=1, http=False, cache_dir=tmp_path,
                      ef_sweep=(), component_texts=10, project="no-such-project", log=quiet)
    finally:
        project_delete(first["project"])
        hnsw_build({"exchange_embedding_hnsw": hnsw_with(hnsw_drop(("exchange_embedding_hnsw",))[
            "exchange_embedding_hnsw"], 16, 64)})  # as migrated, for the tests after this one
    assert "m='16'" in _exchange_index()


def _exchange_index() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'exchange_embedding_hnsw'")
        return cursor.fetchone()[0]


def test_exchange_graph_parameters_are_checked_and_replace_the_migrated_ones():
    from django.core.management.base import CommandError

    from bench.management.commands.bench_scale import _graph

    definition = ("CREATE INDEX exchange_embedding_hnsw ON public.memory_exchange USING hnsw "
                  "(embedding vector_cosine_ops) WITH (m='16', ef_construction='64')")
    assert hnsw_with(definition, 32, 128) == definition.replace(
        "WITH (m='16', ef_construction='64')", "WITH (m = 32, ef_construction = 128)")
    assert _graph("32,128") == (32, 128) and _graph(None) is None
    for bad in ("32", "a,b", "1,64", "32,40", "200,1000"):
        with pytest.raises(CommandError, match="--exchange-hnsw"):
            _graph(bad)


def test_bulk_copy_writes_the_rows_the_fast_fill_writes(tmp_path, locomo_file):
    """The COPY fill (1M, issue 19) stores what the service's fast fill stores: masked texts, text forms, composed
    vectors readable by pgvector, two sessions' scopes, topic-grouped episodes with their links; the HNSW indexes are
    built after it and the search runs on it."""
    import numpy as np

    from bench.locomo import project_delete
    from bench.store import CountingEmbedder, EmbeddingCache, TextSource
    from governance.services.privacy import texts_mask
    from memory.gateways.embeddings import get_embedder
    from memory.models import Episode, EpisodeSource, Exchange, Experience, ExperienceEvidence, Session

    report = run_scale(sizes=[250], data=locomo_file, queries=3, recall_queries=2, http=False, cache_dir=tmp_path,
                       bulk_copy=True, consolidation_mode="off", ef_sweep=(), component_texts=10, keep_data=True,
                       log=quiet)
    try:
        entry = report["sizes"][0]
        # Sessions of 200 and 50 exchanges: topic groups of 20 → 10 + 3 episodes, two experiences each.
        assert entry["bulk_import"]["rows"] == {"exchanges": 250, "episodes": 13, "experiences": 26, "links": 276}
        episodes = entry["bulk_import"]["episode_vectors"]
        # The first episodes are encoded for real (and cached): here all 13, so none is composed.
        assert (episodes["encoded"], episodes["real"], episodes["composed"]) == (13, 13, 0)
        assert episodes["fidelity"]["episodes"] == 13 and episodes["fidelity"]["cosine_mean"] > 0.7
        assert set(entry["index_build_seconds"]) >= {"exchange_embedding_hnsw", "episode_embedding_hnsw",
                                                     "experience_embedding_hnsw", "maintenance_work_mem"}
        assert entry["vacuum_analyze_seconds"] >= 0 and entry["search"]["hits_per_query"][0] == 10
        # the same searches with the statements in turn, beside the side-by-side ones (RECMEM_SEARCH_THREADS)
        assert report["search_threads"] >= 0
        assert all(entry["search"]["in_turn"][k] > 0 for k in ("p50_ms", "p95_ms", "sql_p50_ms", "sql_p95_ms"))
        assert report["turn_bank"]["turns"] == 14 and entry["load_average_end"]
        project = report["project"]
        assert entry["store"] == {"exchanges": 250, "episodes": 13, "experiences": 26, "candidates": 0}

        sessions = list(Session.objects.filter(project__name=project).order_by("external_id"))
        assert [(s.external_id, s.scope, s.next_turn_index) for s in sessions] == [
            ("bulk-0", "module", 200), ("bulk-1", "personal", 50)]
        assert sessions[0].owner_agent_id != sessions[1].owner_agent_id and sessions[1].module_id is None

        source = TextSource(locomo_file)
        embedder = CountingEmbedder(get_embedder(), EmbeddingCache(tmp_path, get_embedder().model_id),
                                    read_cache=True, compose=True)
        rows = list(Exchange.objects.filter(project__name=project).order_by("occurred_at"))
        assert len(rows) == 250
        for i in (0, 199, 200, 249):
            user, assistant, when = source.exchange(i)
            row = rows[i]
            assert (row.user_text, row.assistant_text) == tuple(texts_mask(project=row.project,
                                                                           texts=[user, assistant]))
            assert row.occurred_at == when and row.turn_index == i % 200 and row.state == "raw"
            assert row.text_form == unit_text_form(occurred_at=when, user=row.user_text, assistant=row.assistant_text)
            # pgvector read the binary COPY back: the fast fill's composed vector of the same text form.
            assert np.allclose(np.asarray(row.embedding), embedder.composed_vectors([row.text_form])[0], atol=1e-5)
        assert (EpisodeSource.objects.filter(exchange__project__name=project).values("exchange").distinct().count()
                == 250)  # every exchange in exactly one episode
        episode = Episode.objects.filter(project__name=project).first()
        assert np.allclose(np.asarray(episode.embedding),
                           get_embedder().embed([f"{episode.title}\n{episode.narrative}"])[0], atol=1e-4)
        experience = Experience.objects.filter(project__name=project).first()
        assert ExperienceEvidence.objects.get(experience=experience).exchange.user_text == experience.statement

        # The kept store measured again (nothing written), and both runs in the summary.
        again = run_scale(sizes=[250], data=locomo_file, queries=2, recall_queries=2, http=False, cache_dir=tmp_path,
                          bulk_copy=True, consolidation_mode="off", ef_sweep=(), component_texts=10,
                          project=project, log=quiet)
        assert again["sizes"][0]["bulk_import"]["exchanges"] == 0 and "index_build_seconds" not in again["sizes"][0]
        results = tmp_path / "results"
        results.mkdir()
        (results / "scale_1m.json").write_text(json.dumps(report, default=str))
        (results / "scale_1m_again.json").write_text(json.dumps(again, default=str))
        summary = write_summary(results).read_text()
        assert summary.count("**COPY fill** to 250") == 1 and "Goals at" not in summary  # 1M goals only at 1M
    finally:
        project_delete(report["project"])


def test_scheduling_priority_reaches_every_thread_and_the_backend_and_is_put_back():
    import os
    import threading

    from django.db import connection

    from bench.scale import scheduling_priority

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)  # a second thread, as the embedder's pool is
    helper.start()
    try:
        before = os.getpriority(os.PRIO_PROCESS, helper.native_id)
        # Some kernels keep the file but leave it empty (no autogroups): the reader says None, as the code's does.
        groups = {pid: scheduling_priority._autogroup(pid) for pid in (os.getpid(), backend)}
        with scheduling_priority(before + 3) as applied:
            assert applied["backend_pid"] == backend and applied["threads"] >= 2
            assert os.getpriority(os.PRIO_PROCESS, helper.native_id) == before + 3
            assert os.getpriority(os.PRIO_PROCESS, backend) == before + 3
            for pid in applied["autogroups"]:  # where the kernel groups by session
                assert groups[pid] is not None
                assert scheduling_priority._autogroup(pid) == before + 3
        if os.geteuid() == 0:  # lowering a nice value again needs the privilege
            assert os.getpriority(os.PRIO_PROCESS, helper.native_id) == before
            assert os.getpriority(os.PRIO_PROCESS, backend) == before
            for pid in applied["autogroups"]:
                assert scheduling_priority._autogroup(pid) == groups[pid]
    finally:
        stop.set()
        helper.join()


def test_the_1m_goals_name_the_side_by_side_and_in_turn_latencies():
    from bench.report import million_goals_lines

    recall = {"recall_at_k": 0.954, "recall_at_k_ties": 0.954, "recall_at_k_eps_0_01": 0.99, "exact_gap_k_to_3k": 0.02}
    scale = {"search_threads": 2, "cpus": 2, "sizes": [{
        "size": 1_000_000, "hnsw_recall": {"exchanges": recall, "episodes": recall, "experiences": recall},
        "search": {"p50_ms": 56.8, "p95_ms": 68.2, "sql_p50_ms": 33.0, "sql_p95_ms": 44.4,
                   "in_turn": {"p50_ms": 77.1, "p95_ms": 91.6, "sql_p50_ms": 50.4, "sql_p95_ms": 61.6}}}]}
    text = "\n".join(million_goals_lines(scale))
    assert "search p95 ≤ 30 ms end to end: 68.2 ms" in text and "pure SQL p95 ≤ 10 ms: 44.4 ms" in text
    assert "on 2 extra connections" in text and "68.2 vs 77.1 / 91.6 ms" in text and "44.4 vs 50.4 / 61.6 ms" in text
