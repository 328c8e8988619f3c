"""Fixtures of the client's tests: a live RecMem (``recmem_server``, from tests/live.py), a client per test
agent, a scripted proxy in front of the server, and an agent whose memory has been through a consolidation."""

from __future__ import annotations

import pytest

from testing.live_server import wait_until

from .proxy import ScriptedProxy

# A topic that recurs five times (θ_count for MiniLM): one consolidation batch, an episode and typed experiences.
MARATHON = [
    ("I'm training for the Berlin marathon in September. Can you make me a marathon training plan?",
     "Sure, here is a 16-week marathon training plan with three runs a week and a long run on Sundays."),
    ("For my marathon plan, how long should this Sunday's long run be?",
     "In week 3 of your marathon plan the long run is 18 km at an easy pace."),
    ("My knee hurts after the long run in my marathon training. Should I change the plan?",
     "Take two rest days, then resume the marathon plan with a shorter long run."),
    ("What should I eat before the long runs in my marathon training plan?",
     "Before long marathon training runs eat oatmeal and a banana two hours ahead."),
    ("I prefer to do my marathon training runs in the early morning before work.",
     "Morning runs fit your marathon plan; do the long run early on Sunday."),
]


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
