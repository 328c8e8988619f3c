"""The Idempotency-Key header on every POST (observed: a client that timed out and retried wrote the exchange
twice). Same key and body: the first response again, nothing written; same key, other body: 409; a bad
key: 400; keys are per agent and expire; a failed (5xx) request keeps nothing, so its retry runs; two concurrent
requests with one key write once."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from governance.models import IdempotencyKey
from memory.models import Exchange, Session
from memory.tests.factories import at, post_session, refusing_inserts

pytestmark = pytest.mark.django_db

EXCHANGE = {"user": "I'm training for the Berlin marathon; my coach is Jane Doe.", "assistant": "Great, let's plan.",
            "occurred_at": at()}


def _post(client, holder, path, body, key=None):
    headers = dict(holder.headers)
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(path, body, format="json", **headers)


def test_a_retried_ingest_returns_the_first_response_and_writes_once(api_client, make_agent):
    """Observation 5: the request timed out on the client's side, the client retried, the exchange was stored twice."""
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    key = str(uuid.uuid4())
    first = _post(api_client, holder, f"/api/v1/sessions/{session}/exchanges", EXCHANGE, key)
    again = _post(api_client, holder, f"/api/v1/sessions/{session}/exchanges", EXCHANGE, key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Exchange.objects.count() == 1
    # key order and spacing of the JSON body do not make it another request
    reordered = dict(reversed(list(EXCHANGE.items())))
    assert _post(api_client, holder, f"/api/v1/sessions/{session}/exchanges", reordered, key).json() == first.json()
    # without a key, a repeat is a new request (the header is optional)
    assert _post(api_client, holder, f"/api/v1/sessions/{session}/exchanges", EXCHANGE).status_code == 201
    assert Exchange.objects.count() == 2


def test_every_post_honours_the_key(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader", "operator"])
    key = "session-create-1"
    created = _post(api_client, holder, "/api/v1/sessions", {"external_id": "chat-1"}, key)
    replayed = _post(api_client, holder, "/api/v1/sessions", {"external_id": "chat-1"}, key)
    assert created.status_code == replayed.status_code == 201 and replayed.json() == created.json()
    assert Session.objects.count() == 1  # not a 409 duplicate_session: the retry is recognised as the same request
    session = created.json()["id"]
    closed = _post(api_client, holder, f"/api/v1/sessions/{session}/close", None, "close-1")
    assert _post(api_client, holder, f"/api/v1/sessions/{session}/close", None, "close-1").json() == closed.json()
    search = _post(api_client, holder, "/api/v1/search", {"query": "marathon"}, "search-1")
    assert _post(api_client, holder, "/api/v1/search", {"query": "marathon"}, "search-1").json() == search.json()
    run = _post(api_client, holder, "/api/v1/consolidations/run", None, "run-1")
    assert run.status_code == 202
    assert _post(api_client, holder, "/api/v1/consolidations/run", None, "run-1")["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_a_409(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    path = f"/api/v1/sessions/{session}/exchanges"
    assert _post(api_client, holder, path, EXCHANGE, "k-1").status_code == 201
    response = _post(api_client, holder, path, {**EXCHANGE, "user": "something else"}, "k-1")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    other_path = _post(api_client, holder, "/api/v1/sessions", {}, "k-1")  # another endpoint, same key
    assert other_path.status_code == 409 and Exchange.objects.count() == 1 and Session.objects.count() == 1


@pytest.mark.parametrize("key", ["", "x" * 129, "has space", "ünïcode", "semi;colon", "new\nline"])
def test_a_malformed_key_is_a_400_that_changes_nothing(api_client, make_agent, key):
    holder = make_agent()
    client = APIClient()
    response = client.generic("POST", "/api/v1/sessions", b"{}", content_type="application/json",
                              HTTP_IDEMPOTENCY_KEY=key, **holder.headers) if "\n" not in key else None
    if response is None:  # a header with a line break cannot even be sent; check the rule itself
        from core.errors import ApplicationError
        from governance.services.idempotency import idempotency_key_check

        with pytest.raises(ApplicationError):
            idempotency_key_check(key)
        return
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid_idempotency_key"
    assert Session.objects.count() == 0 and IdempotencyKey.objects.count() == 0


def test_keys_are_per_agent_and_expire(api_client, make_agent, settings):
    alice, bob = make_agent(name="alice"), make_agent(name="bob")
    a = _post(api_client, alice, "/api/v1/sessions", {"external_id": "x"}, "shared-key")
    b = _post(api_client, bob, "/api/v1/sessions", {"external_id": "y"}, "shared-key")
    assert a.status_code == b.status_code == 201 and a.json()["id"] != b.json()["id"]  # not bob's replay of alice's
    # after RECMEM_IDEMPOTENCY_HOURS the key is forgotten: the same key may name a new request
    forgotten = timezone.now() - timedelta(hours=settings.RECMEM.limits.idempotency_hours + 1)
    IdempotencyKey.objects.update(created_at=forgotten)
    again = _post(api_client, alice, "/api/v1/sessions", {"external_id": "z"}, "shared-key")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    from governance.services.idempotency import idempotency_keys_purge

    assert idempotency_keys_purge() == 1  # bob's; alice's was claimed anew
    assert IdempotencyKey.objects.count() == 1


def test_a_4xx_is_replayed_but_a_5xx_keeps_nothing(make_agent, api_client):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    path = f"/api/v1/sessions/{session}/exchanges"
    bad = _post(api_client, holder, path, {"user": "", "assistant": ""}, "bad-1")
    assert bad.status_code == 400 and _post(api_client, holder, path, {"user": "", "assistant": ""},
                                            "bad-1").json() == bad.json()
    # a real database failure during the request (a trigger refuses new exchanges): 500, and the key is not kept
    client = APIClient(raise_request_exception=False)
    with refusing_inserts("memory_exchange", "database is shutting down (test)"):
        failed = _post(client, holder, path, EXCHANGE, "retry-me")
    assert failed.status_code == 500 and not IdempotencyKey.objects.filter(key="retry-me").exists()
    retried = _post(client, holder, path, EXCHANGE, "retry-me")
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried
    assert Exchange.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_one_key_write_once(make_agent):
    holder = make_agent()
    session = post_session(APIClient(), holder)["id"]
    start = threading.Barrier(4)
    responses = []

    def send():
        client = APIClient()
        start.wait(10)
        responses.append(_post(client, holder, f"/api/v1/sessions/{session}/exchanges", EXCHANGE, "together"))
        connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert [r.status_code for r in responses] == [201] * 4
    assert len({r.content for r in responses}) == 1  # every one got the first response
    assert sum("Idempotent-Replayed" in r for r in responses) == 3
    assert Exchange.objects.count() == 1


def test_the_header_is_documented_on_every_post(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    posts = {path: ops["post"] for path, ops in schema["paths"].items() if "post" in ops}
    assert len(posts) >= 5
    for path, op in posts.items():
        header = [p for p in op.get("parameters", []) if p["in"] == "header" and p["name"] == "Idempotency-Key"]
        assert header and "retry" in header[0]["description"], path
        assert "409" in op["responses"], path


def test_a_throttled_request_is_not_stored_under_its_key(api_client, make_agent, settings, monkeypatch):
    """The observation: a 429 was stored under the Idempotency-Key and replayed for 24 h, so a retry that followed
    the README (same key, after Retry-After) never succeeded. Only final answers are kept."""
    from agents.throttling import WindowRateThrottle

    clock = [1_800_000_000.0]  # the rate window on a frozen clock: no flakiness on a slow machine
    monkeypatch.setattr(WindowRateThrottle, "timer", staticmethod(lambda: clock[0]))
    settings.RECMEM = settings.RECMEM.replace(limits__rate_agent="2/min", limits__rate_ip="")
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    path = f"/api/v1/sessions/{session}/exchanges"
    assert _post(api_client, holder, path, {**EXCHANGE, "user": "first"}).status_code == 201
    throttled = _post(api_client, holder, path, EXCHANGE, "retry-me")
    assert throttled.status_code == 429, throttled.content
    assert not IdempotencyKey.objects.exists()
    clock[0] += int(throttled["Retry-After"])
    retried = _post(api_client, holder, path, EXCHANGE, "retry-me")
    assert retried.status_code == 201, retried.content
    assert "Idempotent-Replayed" not in retried
    again = _post(api_client, holder, path, EXCHANGE, "retry-me")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert Exchange.objects.filter(session_id=session).count() == 2


def test_a_quota_refusal_is_not_stored_under_its_key(api_client, make_agent, settings):
    settings.RECMEM = settings.RECMEM.replace(limits__quota_exchanges=1)
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    path = f"/api/v1/sessions/{session}/exchanges"
    assert _post(api_client, holder, path, {**EXCHANGE, "user": "first"}).status_code == 201
    assert _post(api_client, holder, path, EXCHANGE, "after-quota").status_code == 429
    settings.RECMEM = settings.RECMEM.replace(limits__quota_exchanges=2)  # an operator raised the quota
    assert _post(api_client, holder, path, EXCHANGE, "after-quota").status_code == 201
