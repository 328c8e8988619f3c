"""The asyncio client against the live server, and its parity with the sync client (same resources, same methods,
same parameters)."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from recmem_client import AsyncRecMem, ConflictError, NotFoundError, RecMem, SearchResult
from recmem_client.models import Page

pytestmark = pytest.mark.integration


@pytest.fixture
async def amem(recmem_server, recmem_agent):
    async with AsyncRecMem(recmem_server.url, api_key=recmem_agent.key, timeout=120) as client:
        yield client


@pytest.mark.anyio
async def test_async_session_search_and_pages(amem, recmem_agent):
    assert (await amem.me()).name == recmem_agent.name
    async with amem.session(external_id="async-1") as s:
        await s.add("I keep my bike in the garage on Elm street", "Good to know.")
        await s.add_many([("Do I have a bike?", "Yes, in the garage."), ("Is it blue?", "You did not say.")])
        assert [e.turn_index async for e in s.exchanges(page_size=2)] == [0, 1, 2]  # oldest first
    assert (await amem.sessions.get(s.id)).status == "closed"
    result = await amem.search("where is my bike?")
    assert isinstance(result, SearchResult) and "bike" in result.context
    page = await amem.exchanges.list(session=s.id, limit=2)
    assert isinstance(page, Page) and page.count == 3 and len(page.results) == 2
    with pytest.raises(ConflictError):
        await amem.sessions.add_exchanges(s.id, [("closed", "")])


@pytest.mark.anyio
async def test_async_entities_and_filters(amem):
    async with amem.session(external_id="async-entities") as s:
        await s.add_many([("Ask Maria Lopez before any schema change.", "Noted."),
                          ("Maria Lopez is away next week.", "Noted.")])
    page = await amem.entities(kind="placeholder")
    [maria] = [e for e in page.results if e.value.startswith("<PERSON_")]
    assert maria.exchanges == 2
    assert [e.id async for e in amem.iter_entities(kind="placeholder")] == [e.id for e in page.results]
    found = await amem.search("who to ask", entity="Maria Lopez")
    assert len(found.exchanges) == 2
    assert (await amem.exchanges.list(entity=maria.value)).count == 2


@pytest.mark.anyio
async def test_async_requests_run_concurrently(amem):
    sessions = await asyncio.gather(*(amem.sessions.create(external_id=f"c{i}") for i in range(5)))
    assert len({s.id for s in sessions}) == 5
    assert {s.id async for s in amem.sessions.iter(page_size=2)} == {s.id for s in sessions}


@pytest.mark.anyio
async def test_async_errors_are_typed(amem, recmem_server):
    other = RecMem(recmem_server.url, api_key=recmem_server.agent().key).sessions.create()
    with pytest.raises(NotFoundError):
        await amem.sessions.get(other.id)


RESOURCES = ["sessions", "exchanges", "episodes", "experiences", "consolidations"]


def _public(cls) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(fn) for name, fn in inspect.getmembers(cls, inspect.isfunction)
            if not name.startswith("_")}


def test_the_async_client_mirrors_the_sync_client():
    sync, asyn = RecMem(api_key="rmk_x_y"), AsyncRecMem(api_key="rmk_x_y")
    pairs = [(RecMem, AsyncRecMem)] + [(type(getattr(sync, r)), type(getattr(asyn, r))) for r in RESOURCES]
    for sync_cls, async_cls in pairs:
        s, a = _public(sync_cls), _public(async_cls)
        assert set(s) == set(a), (sync_cls, set(s) ^ set(a))
        for name in s:
            # same parameters, defaults and kinds; return types differ only by being awaited or async-iterated
            assert list(s[name].parameters.values()) == list(a[name].parameters.values()), (sync_cls, name)
