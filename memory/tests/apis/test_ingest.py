"""Ingest API: sessions, exchanges, limits and errors (each bad request changes nothing)."""

import pytest

from core.config import config_override
from memory.models import Exchange, Session
from memory.tests.factories import at, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _error(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body


def test_create_session_personal_and_module(api_client, make_agent):
    holder = make_agent(modules=["ops"])
    personal = post_session(api_client, holder, external_id="s-1", metadata={"channel": "chat"})
    assert personal["scope"] == "personal" and personal["module"] is None and personal["status"] == "open"
    module = post_session(api_client, holder, module="ops")
    assert module["scope"] == "module" and module["module"] == "ops"
    _error(api_client.post("/api/v1/sessions", {"module": "not-mine"}, format="json", **holder.headers),
           404, "unknown_module")
    _error(api_client.post("/api/v1/sessions", {"external_id": "s-1"}, format="json", **holder.headers),
           409, "duplicate_session")
    _error(api_client.post("/api/v1/sessions", {"started_at": "yesterday"}, format="json", **holder.headers),
           400, "invalid")
    assert Session.objects.count() == 2


def test_single_and_batched_exchanges_keep_turn_order(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    one = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges",
                          {"user": "Hello there", "assistant": "Hi! How can I help?", "occurred_at": at()},
                          format="json", **holder.headers)
    assert one.status_code == 201
    first = one.json()["exchanges"]
    assert [e["turn_index"] for e in first] == [0]
    batch = post_exchanges(api_client, holder, session["id"], [
        {"user": f"Question {i} about gardening tomatoes", "assistant": f"Answer {i}", "occurred_at": at(hours=i)}
        for i in range(1, 4)
    ])
    assert [e["turn_index"] for e in batch] == [1, 2, 3]
    more = post_exchanges(api_client, holder, session["id"], [{"user": "And one more", "assistant": "Sure"}])
    assert more[0]["turn_index"] == 4
    listed = api_client.get(f"/api/v1/exchanges?session={session['id']}", **holder.headers).json()
    assert [e["turn_index"] for e in listed["results"]] == [0, 1, 2, 3, 4]
    assert all(set(e) >= {"id", "user", "assistant", "candidate", "state"} for e in batch)


def test_texts_are_masked_before_storage(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{
        "user": "Mail me at jane.doe@example.com, my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
        "assistant": "Noted, I will email jane.doe@example.com.",
    }])[0]
    assert "jane.doe@example.com" not in stored["user"] + stored["assistant"]
    assert "sk-proj-" not in stored["user"]
    row = Exchange.objects.get(pk=stored["id"])
    assert "jane.doe@example.com" not in row.user_text + row.assistant_text + row.text_form
    # the same address becomes the same pseudonym in both texts
    placeholder = [w for w in stored["user"].replace(",", " ").split() if w.startswith("<EMAIL_ADDRESS_")][0]
    assert placeholder in stored["assistant"]


@pytest.mark.parametrize("item,code", [
    ({"user": "", "assistant": ""}, "invalid"),
    ({"user": "   ", "assistant": " "}, "invalid"),
    ({}, "invalid"),
    ({"user": 42, "assistant": ["x"]}, "invalid"),
    ({"user": "x", "assistant": "y", "occurred_at": "not a time"}, "invalid"),
    ({"user": "x", "assistant": "y", "metadata": [1, 2]}, "invalid"),
])
def test_bad_exchanges_are_400_and_store_nothing(api_client, make_agent, item, code):
    holder = make_agent()
    session = post_session(api_client, holder)
    response = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {"exchanges": [
        {"user": "fine", "assistant": "fine"}, item]}, format="json", **holder.headers)
    _error(response, 400, code)
    assert Exchange.objects.count() == 0


def test_limits_are_413(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    with config_override(limits__max_text_chars=100):
        body = _error(api_client.post(f"/api/v1/sessions/{session['id']}/exchanges",
                                      {"user": "x" * 101, "assistant": "ok"}, format="json", **holder.headers),
                      413, "text_too_long")
        assert body["error"]["details"]["indexes"] == [0]
    with config_override(limits__max_batch_exchanges=3):
        _error(api_client.post(f"/api/v1/sessions/{session['id']}/exchanges",
                               {"exchanges": [{"user": "a", "assistant": "b"}] * 4}, format="json",
                               **holder.headers), 413, "too_many_exchanges")
    _error(api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {"exchanges": []}, format="json",
                           **holder.headers), 400, "invalid")
    assert Exchange.objects.count() == 0


def test_unknown_foreign_and_closed_sessions(api_client, make_agent):
    owner, other = make_agent(), make_agent()
    session = post_session(api_client, owner)
    item = {"user": "hello", "assistant": "hi"}
    url = f"/api/v1/sessions/{session['id']}/exchanges"
    _error(api_client.post("/api/v1/sessions/00000000-0000-0000-0000-000000000000/exchanges", item, format="json",
                           **owner.headers), 404, "not_found")
    _error(api_client.post("/api/v1/sessions/not-a-uuid/exchanges", item, format="json", **owner.headers),
           404, "not_found")
    _error(api_client.post(url, item, format="json", **other.headers), 404, "not_found")
    closed = api_client.post(f"/api/v1/sessions/{session['id']}/close", **owner.headers)
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert api_client.post(f"/api/v1/sessions/{session['id']}/close", **owner.headers).status_code == 200
    _error(api_client.post(url, item, format="json", **owner.headers), 409, "session_closed")
    assert Exchange.objects.count() == 0


def test_non_json_body_is_rejected(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    response = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", "not json",
                               content_type="text/plain", **holder.headers)
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
    response = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", "[1,2",
                               content_type="application/json", **holder.headers)
    _error(response, 400, "parse_error")


def test_exchange_is_searchable_immediately(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    post_exchanges(api_client, holder, session["id"], [
        {"user": "My sister's wedding is in Lisbon in June", "assistant": "How lovely!", "occurred_at": at()},
        {"user": "Can you recommend a pasta recipe?", "assistant": "Try carbonara.", "occurred_at": at(hours=1)},
    ])
    response = api_client.post("/api/v1/search", {"query": "where is the wedding?"}, format="json",
                               **holder.headers)
    assert response.status_code == 200
    body = response.json()
    assert body["exchanges"][0]["user"].startswith("My sister's wedding")
    assert body["exchanges"][0]["score"] >= body["exchanges"][1]["score"]
    assert "wedding" in body["context"]
