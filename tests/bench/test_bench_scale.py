"""bench_scale end to end at a tiny size: the code paths of the 100k and 1M runs, HTTP part aside."""

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
        # The floor: every statement of the retrieval replayed raw, at the configured ef_search and the sweep's.
        assert set(entry["search"]["floor"]) == {"200", "100"}
        for floor in entry["search"]["floor"].values():
            assert floor["queries"] == 4 and floor["cores"] >= 1
            kinds = floor["statements"]
            for layer in ("exchange", "episode", "experience"):
                assert kinds[f"{layer}:ann"]["per_search"] == 1.0 and kinds[f"{layer}:full-text"]["per_search"] == 1.0
            assert floor["floor"]["p50_ms"] >= floor["query_embedding"]["p50_ms"] > 0
            assert floor["statements_sum"]["p50_ms"] >= floor["longest_statement"]["p50_ms"] > 0
        for floor in entry["search"]["floor_vector_only"].values():
            assert set(floor["statements"]) == {"exchange:ann", "episode:ann", "experience:ann", "other"} or \
                set(floor["statements"]) == {"exchange:ann", "episode:ann", "experience:ann"}
    comp = report["components"]
    # The bound embeds what the API embeds (the masked forms); the unmasked forms' rate is kept beside it.
    assert comp["embedding_only_per_second"] > 0 and comp["embedding_raw_forms_per_second"] > 0
    assert comp["embedding_cpu_ms_per_text"] > 0 and comp["masking_cpu_ms_per_exchange"] > 0
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
    """The COPY fill (1M) stores what the service's fast fill stores: masked texts, text forms, composed
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


def test_the_1m_goals_show_the_floor_of_a_search_on_this_machine():
    from bench.report import million_goals_lines

    recall = {"recall_at_k": 0.954}
    spread = {"p50_ms": 9.8, "p95_ms": 16.8}
    floor = {"cores": 2, "floor": {"p50_ms": 23.2, "p95_ms": 31.7}, "statements_sum": {"p50_ms": 34.3, "p95_ms": 49.7},
             "longest_statement": spread, "query_embedding": {"p50_ms": 5.6, "p95_ms": 8.2},
             "statements": {"exchange:ann": {**spread, "per_search": 1.0},
                            "exchange:full-text": {"p50_ms": 4.7, "p95_ms": 7.6, "per_search": 1.0}}}
    scale = {"cpus": 2, "sizes": [{"size": 1_000_000, "hnsw_recall": {"exchanges": recall, "episodes": recall,
                                                                     "experiences": recall},
                                   "search": {"p50_ms": 56.8, "p95_ms": 68.2, "sql_p95_ms": 44.4,
                                              "floor": {"300": floor},
                                              "floor_vector_only": {"300": {"floor": {"p50_ms": 17.0,
                                                                                      "p95_ms": 24.5}}}}}]}
    text = "\n".join(million_goals_lines(scale))
    assert "at `ef_search` 300" in text and "over the 2 cores" in text
    assert "p50 / p95 23.2 / 31.7 ms" in text and "sum 34.3 / 49.7 ms" in text
    assert "exchange ANN statement alone 9.8 / 16.8 ms" in text and "exchange:full-text 4.7 / 7.6" in text
    assert "without the full-text half (vector search only) 17.0 / 24.5 ms" in text


def test_the_ingest_ceiling_leaves_out_the_web_servers_own_cpu():
    from bench.report import goals_lines, ingest_ceiling, layout_lines, worker_nice_lines

    # Bound: 1 / (1/125 + 1/250) = 83.3/s. Models 16 + 4 ms, database 6 ms per exchange: 2 cores → 76.9/s = 0.92.
    comp = {"embedding_only_per_second": 125.0, "embedding_raw_forms_per_second": 135.0,
            "masking_only_exchanges_per_second": 250.0, "embedding_cpu_ms_per_text": 16.0,
            "masking_cpu_ms_per_exchange": 4.0}
    run = {"clients": 4, "exchanges_per_request": 20, "exchanges_per_second": 50.0, "request_p50_ms": 1500.0,
           "cpu_ms_per_exchange": {"web": 31.0, "worker": 0.1, "database": 6.0, "clients": 0.1}}
    single = {**run, "exchanges_per_request": 1, "exchanges_per_second": 30.0,
              "cpu_ms_per_exchange": {"web": 55.0, "worker": 0.3, "database": 12.0, "clients": 0.6}}
    recall = {"recall_at_k": 0.96}
    entry = {"size": 2000, "bulk_import": {"exchanges_per_second": 60.0}, "search": {"p95_ms": 40.0},
             "hnsw_recall": {"exchanges": recall, "episodes": recall, "experiences": recall},
             "http": {"runs": [single, run]},
             "http_layouts": [{"workers": 1, "threads": 8, "http": {"runs": [single, run]}, "rss": {}}]}
    scale = {"cpus": 2, "components": comp, "sizes": [entry]}
    assert abs(ingest_ceiling(scale, run) - 2000 / 26 / (1 / (1 / 125 + 1 / 250))) < 1e-9
    assert ingest_ceiling(scale, {**run, "cpu_ms_per_exchange": {"database": None}}) is None  # remote server
    entry["worker_nice_ab"] = [{**run, "worker_nice": 0, "exchanges_per_second": 34.0},
                               {**run, "worker_nice": 10, "exchanges_per_second": 50.0}]
    nice = "\n".join(worker_nice_lines(scale))
    assert "| 2,000 | 0 | 34.0 | 1500.0 | 31.0 / 0.1 / 6.0 |" in nice and "| 2,000 | 10 | 50.0 |" in nice
    table = "\n".join(layout_lines(scale))
    assert "| 2,000 | 1 × 8 | 4 | 20 | 50.0 | 0.60 | 0.92 | 31.0 / 0.1 / 6.0 / 0.1 |" in table
    assert "83.3 exchanges/s in this run; with the unmasked forms embedded" in table
    goals = "\n".join(goals_lines(scale))
    assert "0.36 one per request, 0.60 20 per request — **missed**" in goals
    assert "ceiling with the web server's own CPU at zero 0.75 / 0.92" in goals


def test_cpu_seconds_count_each_server_process_group_and_the_database(tmp_path):
    import subprocess
    import sys
    import time

    from django.db import connection

    from bench.scale import Services

    services = Services.__new__(Services)  # the accounting only: no gunicorn, no qcluster
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\ntime.sleep(30)"
    services.procs = {"web": subprocess.Popen([sys.executable, "-c", busy], start_new_session=True)}
    try:
        before = services.cpu_seconds()
        assert before["database"] is not None  # the embedded server runs on this machine
        time.sleep(1.5)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM generate_series(1, 3000000)")
        after = services.cpu_seconds()
    finally:
        services.procs["web"].kill()
        services.procs["web"].wait()
    assert 0.5 <= after["web"] - before["web"] <= 1.0
    assert after["database"] - before["database"] >= 0.1


def test_the_http_runs_wait_until_the_queue_has_nothing_due_and_the_worker_is_idle():
    import subprocess
    import sys
    from datetime import timedelta

    from django.utils import timezone
    from django_q.models import Schedule

    from bench.scale import Services

    services = Services.__new__(Services)
    # A worker busy for ~2 s of CPU (as the first metrics pass over a bulk-filled store), then idle.
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 2.0: pass\ntime.sleep(60)"
    services.procs = {"worker": subprocess.Popen([sys.executable, "-c", busy], start_new_session=True)}
    try:
        settled = services.wait_settled(timeout=60, window=1.0)
        assert 1.5 <= settled["worker_cpu_seconds"] <= 3.0 and settled["seconds"] < 30
        # A schedule whose time has come and that no cluster fires: waited for until the timeout.
        Schedule.objects.create(name="due", func="math.floor", args="1", schedule_type=Schedule.ONCE, repeats=1,
                                next_run=timezone.now() - timedelta(seconds=5))
        assert services.wait_settled(timeout=3, window=1.0)["seconds"] >= 3
    finally:
        services.procs["worker"].kill()
        services.procs["worker"].wait()


def test_the_worker_priority_ab_needs_pairs_and_the_http_part():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="--worker-nice-ab"):
        call_command("bench_scale", "--exchanges", "10", "--worker-nice-ab", "-1")
    with pytest.raises(CommandError, match="--worker-nice-ab"):
        call_command("bench_scale", "--exchanges", "10", "--worker-nice-ab", "1", "--no-http")
