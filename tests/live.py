"""pytest fixtures for tests that need a running RecMem (clients, MCP server, adapters, examples).

``recmem_server`` (session-scoped) is ``recmem run`` against a database of its own on the test session's PostgreSQL,
with the fake OpenAI server (``recmem_llm``) as its LLM and online consolidation; ``recmem_agent`` makes a fresh agent
in a project of its own for each test, so tests never see each other's memory.
"""

from __future__ import annotations

import os

import pytest

from testing.live_server import LiveAgent, LiveServer, create_database, database_url


def _postgres() -> tuple[str, int, str, str]:
    """Host (or socket folder), port, user, password of the PostgreSQL the test session uses."""
    from django.conf import settings
    from django.db import connection

    if settings.EMBEDDED_DATABASE:
        from recmem_site import embedded_db

        info = embedded_db.ensure_running(settings.RECMEM.home)
        return info.socket_dir, info.port, "postgres", ""
    params = connection.get_connection_params()
    return params.get("host") or "127.0.0.1", int(params.get("port") or 5432), params.get("user") or "postgres", \
        params.get("password") or ""


@pytest.fixture(scope="session")
def recmem_llm():
    from testing.fake_openai import FakeOpenAIServer
    from testing.fake_responder import consolidation_responder

    with FakeOpenAIServer(responder=consolidation_responder) as server:
        yield server


@pytest.fixture(scope="session")
def recmem_server(recmem_llm, django_db_blocker):
    host, port, user, password = _postgres()
    name = f"recmem_live_{os.getpid()}"
    with django_db_blocker.unblock():
        create_database(host=host, port=port, name=name, user=user, password=password)
    server = LiveServer(
        database=database_url(host=host, port=port, name=name, user=user, password=password),
        env={"RECMEM_CONSOLIDATION_MODE": "online", "RECMEM_LLM_BASE_URL": recmem_llm.base_url,
             "RECMEM_LLM_API_KEY": "live-test", "RECMEM_LLM_MODEL": "fake-gpt", "RECMEM_LLM_TIMEOUT": "20",
             "RECMEM_LLM_MAX_RETRIES": "0"},
    )
    server.start()
    try:
        _warm(server)
        yield server
    finally:
        server.stop()
        print(server.logs("web.log")[-2000:])


def _warm(server: LiveServer) -> None:
    """One write and one search, so that the web worker has loaded the masking and embedding models before the
    first test measures anything with a timeout."""
    import json
    import urllib.request

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST", headers={
            "Authorization": f"Bearer {server.demo_key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=300) as response:  # noqa: S310 - loopback only
            return json.loads(response.read())

    session = post("/api/v1/sessions", {"external_id": "warm-up"})
    post(f"/api/v1/sessions/{session['id']}/exchanges", {"user": "warming up", "assistant": "ok"})
    post("/api/v1/search", {"query": "warming up"})


@pytest.fixture
def recmem_agent(recmem_server) -> LiveAgent:
    """A fresh writer+reader agent in a project of its own."""
    return recmem_server.agent()
