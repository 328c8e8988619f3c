"""Retries, backoff, timeouts and the Idempotency-Key, provoked by a scripted proxy in front of the live server."""

from __future__ import annotations

import json
import time

import pytest

from recmem_client import (
    APIConnectionError,
    APITimeoutError,
    AsyncRecMem,
    ConflictError,
    RateLimitError,
    RecMem,
    RetryPolicy,
    ServerError,
)
from testing.live_server import free_port

pytestmark = pytest.mark.integration

FAST = RetryPolicy(max_retries=3, backoff=0.05, backoff_max=0.2)


def _posts(proxy, suffix: str):
    return [(headers, body) for method, path, headers, body in proxy.requests
            if method == "POST" and path.endswith(suffix)]


def _key(headers: dict[str, str]) -> str:
    return {k.lower(): v for k, v in headers.items()}["idempotency-key"]


def test_a_lost_response_is_retried_with_the_same_idempotency_key(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    session = mem.sessions.create(external_id="lost")
    proxy.script("lose")  # the server stores the exchange, the answer never arrives
    exchange = mem.sessions.add_exchanges(session.id, [("my locker code is in the blue notebook", "noted")])[0]
    attempts = _posts(proxy, "/exchanges")
    assert len(attempts) == 2
    assert _key(attempts[0][0]) == _key(attempts[1][0])  # one logical write, one key
    assert attempts[0][1] == attempts[1][1]
    assert exchange.user == "my locker code is in the blue notebook"


def test_a_retried_write_is_stored_once(proxy, recmem_agent, recmem_server):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    session = mem.sessions.create(external_id="once")
    proxy.script("lose")
    exchange = mem.sessions.add_exchanges(session.id, [("stored once?", "yes")])[0]
    direct = RecMem(recmem_server.url, api_key=recmem_agent.key)
    assert [e.id for e in direct.exchanges.iter(session=session.id)] == [exchange.id]
    assert exchange.turn_index == 0


def test_every_logical_write_gets_its_own_key(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    with mem.session() as s:
        s.add("one", "1")
        s.add("two", "2")
    keys = [_key(h) for h, _ in _posts(proxy, "")]
    assert len(keys) == 4 and len(set(keys)) == 4  # create, add, add, close
    reads = [h for method, _, h, _ in proxy.requests if method == "GET"]
    assert all("idempotency-key" not in {k.lower() for k in h} for h in reads)


def test_an_explicit_idempotency_key_is_sent_as_given(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    session = mem.sessions.create(idempotency_key="my-own-key-1")
    assert session.id
    assert _key(_posts(proxy, "/sessions")[0][0]) == "my-own-key-1"


def test_503_is_retried_after_backoff(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    proxy.script(("status", 503, {}), ("status", 502, {}))
    assert mem.me().name == recmem_agent.name
    assert len(proxy.requests) == 3


def test_a_busy_idempotency_key_is_retried_other_conflicts_are_not(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    proxy.script(("status", 409, {}, "idempotency_busy"))
    session = mem.sessions.create(external_id="busy")
    assert session.external_id == "busy" and len(proxy.requests) == 2
    with pytest.raises(ConflictError) as err:
        mem.sessions.create(external_id="busy")  # duplicate_session: final
    assert err.value.code == "duplicate_session" and len(proxy.requests) == 3


def test_retries_give_up_with_a_typed_error(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=RetryPolicy(max_retries=2, backoff=0.01))
    proxy.script(*[("status", 503, {})] * 5)
    with pytest.raises(ServerError) as err:
        mem.me()
    assert err.value.status_code == 503 and err.value.code == "unavailable"
    assert len(proxy.requests) == 3  # the first attempt and two retries


def test_429_honours_retry_after(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    proxy.script(("status", 429, {"Retry-After": "1"}))
    started = time.monotonic()
    mem.me()
    assert time.monotonic() - started >= 1.0
    assert len(proxy.requests) == 2


def test_429_asking_for_longer_than_we_wait_is_raised(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=RetryPolicy(max_retries=3, max_retry_after=5))
    proxy.script(("status", 429, {"Retry-After": "120"}))
    with pytest.raises(RateLimitError) as err:
        mem.me()
    assert err.value.retry_after == 120
    assert len(proxy.requests) == 1


def test_a_slow_answer_times_out_then_the_retry_succeeds(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, timeout=1.0, retry=FAST)
    proxy.script(("slow", 3))
    started = time.monotonic()
    assert mem.me().name == recmem_agent.name
    assert time.monotonic() - started < 3
    assert len(proxy.requests) == 2


def test_timeouts_exhausted_raise_api_timeout_error(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, timeout=0.5, retry=RetryPolicy(max_retries=1, backoff=0.01))
    proxy.script(("slow", 2), ("slow", 2))
    with pytest.raises(APITimeoutError):
        mem.me()
    assert len(proxy.requests) == 2


def test_connection_refused_raises_api_connection_error():
    mem = RecMem(f"http://127.0.0.1:{free_port()}", api_key="rmk_x_y", retry=RetryPolicy(max_retries=2, backoff=0.01))
    with pytest.raises(APIConnectionError) as err:
        mem.me()
    assert not isinstance(err.value, APITimeoutError)


def test_a_client_error_is_not_retried(proxy, recmem_agent):
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    session = mem.sessions.create()
    with pytest.raises(Exception):  # noqa: B017 - the type is tested elsewhere; here only the count matters
        mem.sessions.add_exchanges(session.id, [{"user": "", "assistant": ""}])
    assert len(_posts(proxy, "/exchanges")) == 1


def test_delete_whose_answer_was_lost_is_done(proxy, recmem_agent, recmem_server):
    from .conftest import consolidate_marathon

    direct = RecMem(recmem_server.url, api_key=recmem_agent.key, timeout=120)
    target, other = consolidate_marathon(direct)[:2]
    mem = RecMem(proxy.url, api_key=recmem_agent.key, retry=FAST)
    proxy.script("lose")
    mem.experiences.delete(target.id, reason="obsolete")
    assert direct.experiences.get(target.id).status == "deleted"
    deletes = [(path, h, body) for method, path, h, body in proxy.requests if method == "DELETE"]
    assert len(deletes) == 2 and _key(deletes[0][1]) == _key(deletes[1][1])
    assert "?" not in deletes[0][0] and json.loads(deletes[0][2]) == {"reason": "obsolete"}  # in the body, not the URL


@pytest.mark.anyio
async def test_async_client_retries_a_lost_response_with_the_same_key(proxy, recmem_agent):
    async with AsyncRecMem(proxy.url, api_key=recmem_agent.key, retry=FAST) as mem:
        session = await mem.sessions.create(external_id="async-lost")
        proxy.script("lose")
        stored = await mem.sessions.add_exchanges(session.id, [("async question", "async answer")])
    attempts = _posts(proxy, "/exchanges")
    assert len(attempts) == 2 and _key(attempts[0][0]) == _key(attempts[1][0])
    assert stored[0].user == "async question"
    assert json.loads(attempts[1][1])["exchanges"][0]["user"] == "async question"
