"""DELETE /sessions/{id} and POST /forget: strict input (400 naming the problem), roles (403), what the caller cannot
see (404, untouched), idempotent replays (one forget, one audit event)."""

from __future__ import annotations

import uuid

import pytest

from governance.models import AuditEvent
from memory.models import Exchange, Session
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _session(api_client, holder, text="The staging database runs on port 5433.", **body):
    sid = post_session(api_client, holder, **body)["id"]
    [stored] = post_exchanges(api_client, holder, sid, [{"user": text, "assistant": "Noted."}])
    make_memories(Exchange.objects.get(pk=stored["id"]))
    return sid


def _forgets() -> int:
    return AuditEvent.objects.filter(object_type="forget").count()


def test_delete_a_session(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader"])
    sid = _session(api_client, holder)
    response = api_client.delete(f"/api/v1/sessions/{sid}", {"reason": "no longer needed"}, format="json",
                                 **holder.headers)
    assert response.status_code == 200, response.content
    forgotten = response.json()["forgotten"]
    assert forgotten["sessions_deleted"] == 1 and forgotten["exchanges_deleted"] == 1
    assert forgotten["experiences_deleted"] == 1 and forgotten["episodes_deleted"] == 1
    assert api_client.get(f"/api/v1/sessions/{sid}", **holder.headers).status_code == 404
    assert api_client.get("/api/v1/exchanges", **holder.headers).json()["count"] == 0
    found = api_client.post("/api/v1/search", {"query": "staging database port"}, format="json", **holder.headers)
    assert "5433" not in found.content.decode()
    # no body: a default reason
    other = _session(api_client, holder)
    assert api_client.delete(f"/api/v1/sessions/{other}", **holder.headers).status_code == 200
    assert _forgets() == 2


def test_a_foreign_or_unknown_session_is_404_and_untouched(api_client, make_agent):
    owner = make_agent(name="owner", roles=["writer", "reader", "operator"])
    stranger = make_agent(name="stranger", roles=["writer", "reader", "operator"])
    outsider = make_agent(project="globex", name="outsider", roles=["writer", "reader", "operator"])
    sid = _session(api_client, owner)
    for holder in (stranger, outsider):
        response = api_client.delete(f"/api/v1/sessions/{sid}", **holder.headers)
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
        response = api_client.post("/api/v1/forget", {"session_ids": [sid], "reason": "x"}, format="json",
                                   **holder.headers)
        assert response.status_code == 404
    assert api_client.delete(f"/api/v1/sessions/{uuid.uuid4()}", **owner.headers).status_code == 404
    response = api_client.post("/api/v1/forget", {"agent": "outsider", "reason": "x"}, format="json",
                               **owner.headers)
    assert response.status_code == 404 and response.json()["error"]["code"] == "agent_not_found"
    assert Session.objects.filter(pk=sid).exists() and Exchange.objects.count() == 1 and _forgets() == 0


def test_roles(api_client, make_agent):
    reader = make_agent(name="reader", modules=["ops"], roles=["reader"])
    writer = make_agent(name="writer", modules=["ops"], roles=["writer", "reader"])
    reviewer = make_agent(name="reviewer", modules=["ops"], roles=["writer", "reader", "reviewer"])
    mine = _session(api_client, writer)
    shared = _session(api_client, writer, module="ops")
    response = api_client.delete(f"/api/v1/sessions/{shared}", **reader.headers)
    assert response.status_code == 403 and response.json()["error"]["code"] == "missing_role"
    for body in ({"session_ids": [shared], "reason": "x"}, {"subject": "staging", "reason": "x"},
                 {"agent": "reviewer", "reason": "x"}, {"session_ids": [mine, shared], "reason": "x"}):
        response = api_client.post("/api/v1/forget", body, format="json", **writer.headers)
        assert response.status_code == 403, body
        assert response.json()["error"]["code"] == "missing_role"
    assert Session.objects.count() == 2 and _forgets() == 0
    assert api_client.delete(f"/api/v1/sessions/{shared}", **reviewer.headers).status_code == 200
    response = api_client.post("/api/v1/forget", {"agent": "writer", "reason": "x"}, format="json",
                               **writer.headers)
    assert response.status_code == 200 and response.json()["forgotten"]["sessions_deleted"] == 1
    assert Session.objects.count() == 0


@pytest.mark.parametrize("body, field", [
    ({}, "reason"),
    ({"reason": "x"}, "non_field_errors"),
    ({"session_ids": [], "reason": "x"}, "session_ids"),
    ({"session_ids": ["not-a-uuid"], "reason": "x"}, "session_ids"),
    ({"session_ids": "abc", "reason": "x"}, "session_ids"),
    ({"subject": "ab", "reason": "x"}, "subject"),
    ({"subject": "", "reason": "x"}, "subject"),
    ({"agent": 7, "reason": "x"}, "agent"),
    ({"subject": "staging", "reason": ""}, "reason"),
    ({"subject": "staging", "reason": "x", "everything": True}, "non_field_errors"),
])
def test_bad_input_is_400_naming_the_problem(api_client, make_agent, body, field):
    holder = make_agent(roles=["writer", "reader", "operator"])
    _session(api_client, holder)
    response = api_client.post("/api/v1/forget", body, format="json", **holder.headers)
    assert response.status_code == 400, response.content
    assert field in response.content.decode()
    assert Exchange.objects.count() == 1 and _forgets() == 0


def test_bad_delete_body_is_400(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader"])
    sid = _session(api_client, holder)
    for body in ({"reason": ""}, {"why": "x"}, ["x"]):
        response = api_client.delete(f"/api/v1/sessions/{sid}", body, format="json", **holder.headers)
        assert response.status_code == 400, body
    assert Session.objects.filter(pk=sid).exists() and _forgets() == 0


def test_replays_answer_the_same_and_forget_once(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader", "operator"])
    sid = _session(api_client, holder)
    key = {"HTTP_IDEMPOTENCY_KEY": "forget-1"}
    first = api_client.delete(f"/api/v1/sessions/{sid}", **holder.headers, **key)
    again = api_client.delete(f"/api/v1/sessions/{sid}", **holder.headers, **key)
    assert first.status_code == again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert first.json() == again.json() and _forgets() == 1
    other = _session(api_client, holder, text="The release train leaves on Tuesdays.")
    body = {"session_ids": [other], "reason": "asked"}
    key = {"HTTP_IDEMPOTENCY_KEY": "forget-2"}
    first = api_client.post("/api/v1/forget", body, format="json", **holder.headers, **key)
    again = api_client.post("/api/v1/forget", body, format="json", **holder.headers, **key)
    assert first.status_code == again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert first.json() == again.json() and _forgets() == 2
    # without a key, the session is gone: 404 like any unknown one
    assert api_client.post("/api/v1/forget", body, format="json", **holder.headers).status_code == 404


def test_subject_forget_over_the_api(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader", "reviewer"])
    _session(api_client, holder, text="My colleague Jane Roe owns the billing service.")
    response = api_client.post("/api/v1/forget", {"subject": "Jane Roe", "reason": "erasure request"},
                               format="json", **holder.headers)
    assert response.status_code == 200, response.content
    assert response.json()["forgotten"]["exchanges_deleted"] == 1
    assert response.json()["forgotten"]["registry_entries_deleted"] >= 1
    response = api_client.post("/api/v1/forget", {"subject": "Jane Roe", "reason": "again"}, format="json",
                               **holder.headers)
    assert response.status_code == 404 and response.json()["error"]["code"] == "subject_not_found"
