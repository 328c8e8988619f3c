"""Warm processes (observed: the first requests after a start waited 50-65 s while each web worker
loaded its models): a web worker's warm-up loads the models and runs one ingest and one search that leave nothing
behind; /healthz reports the answering process's readiness. The processes themselves: tests/integration."""

import threading

import pytest

from agents.models import Agent, Project
from governance.models import AuditEvent
from memory import warmup
from memory.models import Exchange, Session


@pytest.fixture
def fresh_state(monkeypatch):
    monkeypatch.setattr(warmup, "_state", {"state": "lazy", "role": "", "ms": {}})


@pytest.mark.django_db(transaction=True)
def test_a_web_worker_warms_up_and_leaves_nothing_behind(fresh_state, client):
    assert client.get("/healthz").json()["checks"]["process"]["warm_up"] == "lazy"  # no warm-up here: first use
    timings = {}
    # As gunicorn's post_worker_init does: in a thread with its own database connection.
    thread = threading.Thread(target=lambda: timings.update(warmup.warm_up(role="web")))
    thread.start()
    thread.join(300)
    assert set(timings) == {"embedder", "masker", "dry_run", "search_connections"}
    assert not Project.objects.exists() and not Agent.objects.exists()  # the dry run was rolled back whole
    assert not Session.objects.exists() and not Exchange.objects.exists() and not AuditEvent.objects.exists()
    process = client.get("/healthz").json()["checks"]["process"]
    assert process["ready"] and process["warm_up"] == "ready" and process["role"] == "web"
    assert set(process["warm_ms"]) == set(timings)
    assert warmup.warm_up(role="web") == timings  # once per process


@pytest.mark.django_db(transaction=True)
def test_a_web_worker_opens_its_search_threads_connections_while_warming_up(fresh_state, settings):
    from django.db import connection

    from memory.search.side_by_side import side_by_side_close

    settings.RECMEM = settings.RECMEM.replace(search__threads=2)
    side_by_side_close()  # no pool left from an earlier test

    def backends() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND backend_type = 'client backend'")
            return cursor.fetchone()[0]

    before = backends()
    try:
        warmup._search_connections()
        assert backends() == before + 2  # one per search thread, open before any search
    finally:
        side_by_side_close()


def test_a_failed_warm_up_is_not_ready(fresh_state, monkeypatch, db, client):
    def broken(*args, **kwargs):
        raise OSError("model files missing")

    from memory.gateways.embeddings import get_embedder

    monkeypatch.setattr(get_embedder(), "embed", broken)  # this process's embedder, restored after the test
    with pytest.raises(OSError):
        warmup.warm_up(role="web")
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["failing"] == ["process"]
    assert "model files missing" in response.json()["checks"]["process"]["error"]
