"""Shared pytest fixtures.

The test settings (recmem_site.settings.test) point RECMEM_HOME at a fresh temporary folder, so the whole run uses
its own throwaway embedded PostgreSQL (started once, on first connection); it is stopped and deleted at the end.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

import pytest

# A running RecMem for the tests of its clients (recmem_server, recmem_agent, recmem_llm).
pytest_plugins = ["tests.live"]


@pytest.fixture(autouse=True)
def _fresh_row_estimates():
    """The similarity scan is chosen from a per-process, 60-second cache of each table's row estimate: a test that
    filled a table must not make the next tests walk HNSW over a handful of rows (a topic then stopped being found
    near its consolidated exchanges, seen once in a full run)."""
    from memory.search.vector import table_rows_forget

    table_rows_forget()
    yield


@pytest.fixture(scope="session", autouse=True)
def _throwaway_embedded_database():
    yield
    from django.conf import settings
    from django.db import connections

    if not settings.configured:  # run without the Django plugin (pure-Python tests)
        return

    from recmem_site import embedded_db

    connections.close_all()
    home = str(settings.RECMEM.home)
    if settings.EMBEDDED_DATABASE and "recmem-test-" in home:
        embedded_db.stop(home)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, plus: the search pool's threads close their connections before the test database is
    dropped (open connections would block the drop)."""
    yield
    from memory.search.side_by_side import side_by_side_close

    with django_db_blocker.unblock():
        side_by_side_close()


@dataclass
class AgentWithKey:
    agent: object
    key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {self.key}"}


@pytest.fixture
def make_agent(db):
    """Factory: ``make_agent(project="p", name="a", modules=[...], roles=[...])`` -> AgentWithKey."""
    from agents.services import agent_create, api_key_create

    counter = {"n": 0}

    def _make(project: str = "acme", name: str | None = None, modules=(), roles=("writer", "reader")):
        counter["n"] += 1
        agent = agent_create(project_name=project, name=name or f"agent-{counter['n']}", module_names=modules,
                             roles=roles)
        return AgentWithKey(agent=agent, key=api_key_create(agent=agent).raw_key)

    return _make


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def fake_llm(settings):
    """The fake OpenAI-compatible server (plausible replies to every RecMem prompt) configured as the LLM endpoint;
    the real `openai` client talks to it over HTTP."""
    from memory.gateways.llm import clear_llm_cache
    from testing.fake_openai import FakeOpenAIServer
    from testing.fake_responder import consolidation_responder

    clear_llm_cache()
    with FakeOpenAIServer(responder=consolidation_responder) as server:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url=server.base_url, llm__api_key="test-key")
        settings.RECMEM = settings.RECMEM.replace(llm__model="fake-gpt", llm__timeout=10, llm__max_retries=0)
        yield server
    clear_llm_cache()
