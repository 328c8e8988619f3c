"""Domain errors meet HTTP in one place: each kind of ApplicationError has its status and the JSON error body."""

import pytest
from django.db import InterfaceError, OperationalError
from rest_framework import exceptions

from core.errors import ApplicationError, Conflict, NotAllowed, NotFound, TooLarge
from recmem_site.exceptions import api_exception_handler, status_for


@pytest.mark.parametrize(("error", "status", "code"), [
    (ApplicationError("bad input"), 400, "invalid"),
    (NotAllowed("no"), 403, "not_allowed"),
    (NotFound("gone"), 404, "not_found"),
    (Conflict("closed", code="session_closed"), 409, "session_closed"),
    (TooLarge("big", code="text_too_long", details={"max_chars": 3}), 413, "text_too_long"),
])
def test_each_kind_maps_to_its_status_and_body(error, status, code):
    assert status_for(error) == status
    response = api_exception_handler(error, {})
    assert response.status_code == status
    body = response.data["error"]
    assert body["code"] == code and body["message"] == error.message
    assert body.get("details") == error.details


def test_a_subclass_of_a_kind_keeps_its_status():
    class SessionClosed(Conflict):
        default_code = "session_closed"

    assert status_for(SessionClosed("x")) == 409
    assert api_exception_handler(SessionClosed("x"), {}).data["error"]["code"] == "session_closed"


def test_drf_errors_get_the_same_body():
    response = api_exception_handler(exceptions.ValidationError({"query": ["This field is required."]}), {})
    assert response.status_code == 400
    assert response.data == {"error": {"code": "invalid", "message": "query: This field is required.",
                                       "details": {"query": ["This field is required."]}}}


@pytest.mark.django_db
def test_service_errors_reach_the_client_through_the_api(api_client, make_agent):
    agent = make_agent(modules=["ops"])
    headers = agent.headers
    first = api_client.post("/api/v1/sessions", {"external_id": "chat-1"}, format="json", **headers)
    assert first.status_code == 201
    again = api_client.post("/api/v1/sessions", {"external_id": "chat-1"}, format="json", **headers)
    assert again.status_code == 409 and again.json()["error"]["code"] == "duplicate_session"
    unknown = api_client.post("/api/v1/sessions", {"module": "not-mine"}, format="json", **headers)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_module"
    missing = api_client.get("/api/v1/sessions/00000000-0000-0000-0000-000000000000", **headers)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    closed = api_client.post(f"/api/v1/sessions/{first.json()['id']}/close", **headers)
    assert closed.status_code == 200
    late = api_client.post(f"/api/v1/sessions/{first.json()['id']}/exchanges", {"user": "hi", "assistant": "hello"},
                           format="json", **headers)
    assert late.status_code == 409 and late.json()["error"]["code"] == "session_closed"


@pytest.mark.parametrize("error", [OperationalError("server closed the connection unexpectedly"),
                                   InterfaceError("connection already closed")])
def test_an_unreachable_database_is_a_503_to_retry_not_a_server_error(error):
    response = api_exception_handler(error, {})
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.data["error"]["code"] == "database_unavailable"
    assert "closed" not in response.data["error"]["message"]  # nothing internal reaches the client


def test_a_database_bug_stays_a_server_error():
    from django.db import ProgrammingError

    assert api_exception_handler(ProgrammingError("syntax error"), {}) is None  # -> 500 server_error
