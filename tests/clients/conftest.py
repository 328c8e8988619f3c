"""Fixtures of the client's tests: a live RecMem (``recmem_server``, from tests/live.py), a client per test
agent, a scripted proxy in front of the server, and an agent whose memory has been through a consolidation."""

from __future__ import annotations

import pytest

from testing.live_server import wait_until
from testing.scenarios import MARATHON

from .proxy import ScriptedProxy


@pytest.fixture
def mem(recmem_server, recmem_agent):
    from recmem_client import RecMem

    with RecMem(recmem_server.url, api_key=recmem_agent.key, timeout=120) as client:
        yield client


@pytest.fixture
def proxy(recmem_server):
    with ScriptedProxy(recmem_server.url) as p:
        yield p


def consolidate_marathon(mem, timeout: float = 240):
    """Ingest the recurring topic in one session and wait until the online consolidation wrote experiences."""
    with mem.session(external_id="marathon") as s:
        s.add_many(MARATHON)
    return wait_until(lambda: mem.experiences.list().results, timeout, interval=1.0,
                      message="experiences from the online consolidation")
