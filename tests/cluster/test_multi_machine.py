"""Multi-machine mode, exercised (`make test-cluster`, also run by .ci/run).

Two machines, each with its own RECMEM_HOME: machine A runs gunicorn and a qcluster, machine B the same. They share
one PostgreSQL over TCP with a password (DATABASE_URL) and django-q2 on Redis (REDIS_URL), and nothing else but the
settings that must match (DJANGO_SECRET_KEY, RECMEM_VAULT_KEY, the queue name, the embedding and LLM configuration).
Eight agents ingest at once, each request of each client going to the web server the previous one did not use, with
online consolidation against the fake LLM endpoint (each machine's worker with its own LLM key, so the endpoint
knows which machine made each call). Checked: no exchange lost or stored twice, turn indexes without gaps, every
candidate consolidated by exactly one batch, every LLM call of every batch recorded once, no exchange in two active
episodes, and batches run on both workers. The figures are printed and written to RECMEM_CLUSTER_REPORT if set.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from recmem_client import RecMem
from testing.cluster import Cluster, RedisServer, TcpPostgres
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder

pytestmark = [pytest.mark.cluster, pytest.mark.integration]

CLIENTS = 8
TOPICS = {
    "marathon": [
        "I'm training for the {city} marathon; can you make me a marathon training plan?",
        "For my marathon plan, how long should this Sunday's long run be?",
        "My knee hurts after the long run in my marathon training; should I change the plan?",
        "What should I eat before the long runs in my marathon training plan?",
        "I prefer to do my marathon training runs in the early morning before work.",
        "Week 6 of my marathon training plan: the long run felt easy at 24 km.",
    ],
    "garden": [
        "My tomato plants in the vegetable garden have yellow leaves; what should I do?",
        "How often should I water the tomato plants in my vegetable garden in July?",
        "Should I prune the side shoots of my garden tomato plants?",
        "What fertiliser is best for the tomatoes in my vegetable garden?",
        "The tomatoes in my vegetable garden are splitting after rain; why?",
        "When should I harvest the tomatoes in my vegetable garden?",
    ],
}
CHATTER = ["What's a good name for a grey kitten?", "Can you recommend a sci-fi novel?",
           "How do I descale my coffee machine?"]


@pytest.fixture(scope="module")
def cluster():
    root = Path(tempfile.mkdtemp(prefix="recmem-cluster-"))
    llm = FakeOpenAIServer(responder=consolidation_responder).start()
    postgres = TcpPostgres(root / "db")
    redis_server = RedisServer(root / "redis")
    topology = Cluster(root)
    try:
        postgres.start()
        redis_server.start()
        topology.shared = {
            "DATABASE_URL": postgres.url, "REDIS_URL": redis_server.url,
            "DJANGO_SECRET_KEY": "cluster-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
            "RECMEM_VAULT_KEY": "x3dDKJp3CPeR2ifCE8Yw1jz8u6i9G8VWvXKdKYaR_8E=",
            "RECMEM_Q_NAME": "recmem-cluster", "RECMEM_Q_WORKERS": "1", "RECMEM_Q_POLL": "0.2",
            "RECMEM_CONSOLIDATION_MODE": "online",
            "RECMEM_LLM_BASE_URL": llm.base_url, "RECMEM_LLM_MODEL": "fake-gpt", "RECMEM_LLM_MAX_RETRIES": "0",
            "RECMEM_LLM_TIMEOUT": "30",
        }
        topology.manage("machine-a", "migrate", "--no-input")  # once, from one machine
        for machine in ("machine-a", "machine-b"):
            topology.manage(machine, "collectstatic", "--no-input", "-v", "0")  # each machine serves its own
        webs = [topology.web("machine-a"), topology.web("machine-b")]
        workers = [topology.worker("machine-a", RECMEM_LLM_API_KEY="machine-a"),
                   topology.worker("machine-b", RECMEM_LLM_API_KEY="machine-b")]
        health = [topology.wait_healthy(w) for w in webs]
        yield {"topology": topology, "webs": webs, "workers": workers, "llm": llm, "postgres": postgres,
               "redis": redis_server, "health": health}
    finally:
        topology.stop()
        redis_server.stop()
        postgres.stop()
        llm.stop()
        for process in topology.processes:
            print(f"--- {process.name} ({process.log}) ---\n{process.log.read_text(errors='replace')[-1500:]}")


def _create_agents(topology: Cluster) -> list[str]:
    """One agent per client (writer, reader, operator), through the operators' command on machine A."""
    keys = []
    for i in range(CLIENTS):
        out = topology.manage("machine-a", "create_agent", "--project", f"team-{i % 2}", "--name", f"agent-{i}",
                              "--role", "writer", "--role", "reader", "--role", "operator")
        keys.append(out.strip().splitlines()[-1])
    return keys


def _conversations(i: int) -> list[list[tuple[str, str]]]:
    """Two sessions per client: a recurring topic each (ripe at the 5th exchange), chatter between."""
    sessions = []
    for n, (_topic, lines) in enumerate(TOPICS.items()):
        turns = [(line.format(city=["Berlin", "Boston", "Tokyo", "Chicago"][i % 4]), f"Answer {n}.{k} for client {i}.")
                 for k, line in enumerate(lines)]
        turns.insert(3, (CHATTER[(i + n) % len(CHATTER)], "A short answer."))
        sessions.append(turns)
    return sessions


def _client(i: int, key: str, urls: list[str], out: dict, errors: list) -> None:
    clients = [RecMem(url, api_key=key, timeout=300, max_retries=2) for url in urls]
    sent, turn = [], 0
    try:
        for conversation in _conversations(i):
            session = clients[turn % 2].sessions.create(external_id=f"c{i}-{len(sent)}")
            turn += 1
            for user, assistant in conversation:
                client = clients[turn % 2]  # every request to the other web server than the last one
                started = time.monotonic()
                [stored] = client.sessions.add_exchanges(session.id, [(user, assistant)])
                out.setdefault("latency", []).append((client.base_url, time.monotonic() - started))
                sent.append((str(session.id), str(stored.id), stored.turn_index))
                turn += 1
            clients[turn % 2].sessions.close(session.id)
            turn += 1
        out["sent"] = sent
    except Exception as exc:  # reported by the test, with the client it came from
        errors.append(f"client {i}: {exc!r}")
    finally:
        for c in clients:
            c.close()


def test_two_web_servers_and_two_workers_share_one_database_and_queue(cluster, django_db_blocker):
    topology, webs, llm = cluster["topology"], cluster["webs"], cluster["llm"]
    assert all(h["checks"]["queue"]["ok"] and not h["checks"]["database"]["embedded"] for h in cluster["health"])
    keys = _create_agents(topology)
    urls = [w.url for w in webs]
    for url in urls:  # each web worker loads the masking and embedding models on its first request
        RecMem(url, api_key=keys[0], timeout=300).search("warm-up")

    results = [dict() for _ in range(CLIENTS)]
    errors: list[str] = []
    threads = [threading.Thread(target=_client, args=(i, keys[i], urls, results[i], errors)) for i in range(CLIENTS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(900)
    ingest_seconds = time.monotonic() - started
    assert not errors, errors
    sent = [row for r in results for row in r["sent"]]
    latencies = [lat for r in results for lat in r["latency"]]

    # Let the online consolidation settle; then ask for a run where candidates are still waiting (a topic that
    # ripened while the same agent's batch ran on the other worker is left for the next run, not lost).
    db = _cluster_db(cluster["postgres"].url)
    with django_db_blocker.unblock():
        settle_started = time.monotonic()
        queue = cluster["redis"]
        _wait_idle(db, queue, timeout=600)
        left_after_online = _pending(db)
        for key in keys:
            RecMem(urls[0], api_key=key).consolidations.request()
        _wait_idle(db, queue, timeout=600)
        settle_seconds = time.monotonic() - settle_started
        report = _check_invariants(db, sent, llm)
    report.update({
        "clients": CLIENTS, "web_servers": len(webs), "workers": len(cluster["workers"]),
        "exchanges": len(sent), "ingest_seconds": round(ingest_seconds, 1),
        "exchanges_per_second": round(len(sent) / ingest_seconds, 2),
        "request_latency_ms": {url: _percentiles([s for u, s in latencies if u == url]) for url in urls},
        "requests_per_web_server": dict(Counter(u for u, _ in latencies)),
        "candidates_left_by_online_runs": left_after_online,
        "consolidation_tasks_by_machine": {w.name.split("/")[0]: w.log.read_text(errors="replace").count(
            "Processed 'memory.tasks.consolidation_run_task'") for w in cluster["workers"]},
        "consolidation_settle_seconds": round(settle_seconds, 1),
    })
    print(json.dumps(report, indent=2))
    if os.environ.get("RECMEM_CLUSTER_REPORT"):
        Path(os.environ["RECMEM_CLUSTER_REPORT"]).write_text(json.dumps(report, indent=2) + "\n")
    assert set(report["requests_per_web_server"]) == set(urls)
    assert set(report["llm_calls_by_machine"]) == {"machine-a", "machine-b"}, "batches ran on one worker only"


def _cluster_db(url: str) -> str:
    """A Django database alias for the cluster's PostgreSQL (outside the test database), for the checks."""
    import dj_database_url
    from django.db import connections

    alias = "cluster"
    if alias not in connections.settings:
        configured = connections.configure_settings({"default": connections.settings["default"],
                                                     alias: dj_database_url.parse(url)})
        connections.settings[alias] = configured[alias]
    return alias


def _pending(db: str) -> int:
    from memory.models import Candidate

    return Candidate.objects.using(db).exclude(status__in=[Candidate.Status.DONE]).count()


def _wait_idle(db: str, queue: RedisServer, timeout: float) -> None:
    """Until, for two seconds in a row, the broker holds no task and no candidate or batch is running."""
    import redis

    from governance.models import ConsolidationBatch
    from memory.models import Candidate

    broker = redis.Redis.from_url(queue.url)
    deadline, quiet_since = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        busy = (any(broker.llen(k) for k in broker.keys("django_q:*:q"))
                or Candidate.objects.using(db).filter(status=Candidate.Status.RUNNING).exists()
                or ConsolidationBatch.objects.using(db).filter(status__in=["pending", "running"]).exists())
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 2.0:
            return
        time.sleep(0.5)
    raise AssertionError("consolidation did not settle")


def _check_invariants(db: str, sent: list[tuple[str, str, int]], llm) -> dict:
    from governance.models import ConsolidationBatch, LLMCall
    from memory.models import Candidate, Episode, EpisodeSource, Exchange

    # Exchanges: every one a client got a 201 for is stored once; nothing else is stored; no gap in a session.
    ids = [e for _, e, _ in sent]
    assert len(ids) == len(set(ids)), "the server returned one exchange id twice"
    stored = list(Exchange.objects.using(db).values_list("id", "session_id", "turn_index"))
    assert {str(i) for i, _, _ in stored} == set(ids), "lost or extra exchanges"
    by_session: dict[str, list[int]] = {}
    for _, session, turn in stored:
        by_session.setdefault(str(session), []).append(turn)
    assert all(sorted(t) == list(range(len(t))) for t in by_session.values()), "turn indexes with gaps or twins"

    # Batches and candidates: all consolidated, each candidate by one batch, each batch succeeded.
    batches = list(ConsolidationBatch.objects.using(db).all())
    assert batches and all(b.status == "succeeded" for b in batches), Counter(b.status for b in batches)
    candidates = list(Candidate.objects.using(db).all())
    assert candidates and all(c.status == Candidate.Status.DONE and c.batch_id for c in candidates), \
        Counter(c.status for c in candidates)
    consolidated = Exchange.objects.using(db).exclude(consolidated_batch=None)
    assert not consolidated.exclude(consolidated_batch__in=[b.pk for b in batches]).exists()

    # LLM calls: what the endpoint received is what the batches recorded, once each (no batch ran twice).
    calls = LLMCall.objects.using(db).filter(batch__isnull=False).count()
    received = llm.bodies("/v1/chat/completions")
    assert calls == sum(b.llm_call_count for b in batches) == len(received)

    # Episodes: no exchange is a source of two active episodes.
    active = Episode.objects.using(db).filter(status="active")
    sources = Counter(EpisodeSource.objects.using(db).filter(episode__in=active).values_list("exchange_id",
                                                                                          flat=True))
    assert sources and max(sources.values()) == 1, "an exchange in two active episodes"

    by_machine = Counter(_llm_key(headers) for headers in llm.headers("/v1/chat/completions"))
    return {
        "sessions": len(by_session), "batches": len(batches), "candidates": len(candidates),
        "episodes_active": active.count(), "exchanges_consolidated": consolidated.count(),
        "llm_calls": calls, "llm_calls_by_machine": dict(by_machine),
    }


def _llm_key(headers: dict[str, str]) -> str:
    value = {k.lower(): v for k, v in headers.items()}.get("authorization", "")
    return value.removeprefix("Bearer ").strip()


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    values = sorted(values)
    return {"p50": round(statistics.median(values) * 1000, 1),
            "p95": round(values[min(len(values) - 1, int(0.95 * len(values)))] * 1000, 1),
            "max": round(values[-1] * 1000, 1)}
