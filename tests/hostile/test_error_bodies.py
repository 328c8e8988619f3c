"""One error shape for clients: every error is the project's JSON error body, also those raised before DRF or by a
crash."""

import logging

import pytest
from django.test import Client

from memory.tests.factories import post_session

pytestmark = pytest.mark.django_db


def _json_error(response, status, code):
    assert response.status_code == status, (response.status_code, response.content[:200])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["error"]["code"] == code, body
    return body["error"]


def test_a_30mb_body_is_the_documented_413(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    body = b'{"user": "' + b"x" * (30 * 1024 * 1024) + b'", "assistant": "y"}'
    response = api_client.generic("POST", f"/api/v1/sessions/{session['id']}/exchanges", body,
                                  content_type="application/json", **holder.headers)
    error = _json_error(response, 413, "request_too_large")
    assert error["details"]["max_bytes"] == 25 * 1024 * 1024


def test_a_too_large_body_outside_the_api_is_413_json(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    response = client.post("/admin/login/", {"username": "x" * 4000, "password": "y"})
    _json_error(response, 413, "request_too_large")


@pytest.mark.parametrize("path", ["/api/v1/nope", "/api/v2/sessions", "/nothing-here", "/api/v1/sessions/a/b/c"])
def test_unknown_urls_are_json_404(client, path):
    _json_error(client.get(path), 404, "not_found")


def test_wrong_method_is_json_405(api_client, make_agent):
    holder = make_agent()
    _json_error(api_client.put("/api/v1/search", {}, format="json", **holder.headers), 405, "method_not_allowed")


@pytest.mark.parametrize("path", ["/crash/api", "/crash/plain"])
def test_unexpected_exceptions_are_logged_with_a_request_id_and_answered_without_internals(settings, caplog, path):
    settings.ROOT_URLCONF = "tests.hostile.crash_urls"
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="recmem.errors"):
        response = client.get(path)
    error = _json_error(response, 500, "server_error")
    request_id = error["details"]["request_id"]
    assert response["X-Request-ID"] == request_id
    assert "hunter2" not in response.content.decode() and "Traceback" not in response.content.decode()
    logged = [r for r in caplog.records if request_id in r.getMessage()]
    assert logged and logged[0].exc_info is not None


def test_every_response_has_a_request_id(client):
    first, second = client.get("/api/v1/agents/me"), client.get("/api/v1/agents/me")
    assert first.status_code == 401
    assert len(first["X-Request-ID"]) == 32 and first["X-Request-ID"] != second["X-Request-ID"]


def test_malformed_and_non_utf8_json_is_400(api_client, make_agent):
    holder = make_agent()
    for body in (b"{", b'{"query": "x"', b'\xff\xfe{"query": 1}', b'{"query": NaN}', b"[" * 5000):
        response = api_client.generic("POST", "/api/v1/search", body, content_type="application/json",
                                      **holder.headers)
        assert response.status_code == 400, body[:20]
        assert response.json()["error"]["code"] in ("parse_error", "too_deep", "invalid", "invalid_number")


def test_csrf_failure_is_json_403(make_agent):
    client = Client(enforce_csrf_checks=True)
    _json_error(client.post("/admin/login/", {"username": "a", "password": "b"}), 403, "csrf_failed")


def test_schema_states_the_limits_and_error_bodies(client):
    schema = client.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    assert components["ExchangeInRequest"]["properties"]["user"]["maxLength"] == 20000
    assert components["ExchangeBatchInRequest"]["properties"]["exchanges"]["maxItems"] == 500
    assert components["ExchangeInRequest"]["additionalProperties"] is False
    listing = schema["paths"]["/api/v1/exchanges"]["get"]
    limit = next(p for p in listing["parameters"] if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1 and limit["schema"]["maximum"] == 500
    page = listing["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert set(components[page]["properties"]) == {"count", "next", "previous", "results"}
    post = schema["paths"]["/api/v1/sessions/{session_id}/exchanges"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "413", "415", "429", "500"} <= set(post)
    assert post["413"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")


@pytest.mark.parametrize("method,path", [("put", "/api/v1/search"), ("delete", "/api/v1/sessions"),
                                         ("patch", "/api/v1/exchanges"), ("post", "/api/v1/agents/me")])
def test_unsupported_methods_are_405_not_403(api_client, make_agent, method, path):
    """An endpoint without a handler for the method answers 405 with Allow (schemathesis' unsupported-method
    check); a method it implements without a declared role is still refused (roles fail closed)."""
    holder = make_agent(roles=("writer", "reader", "operator"))
    response = getattr(api_client, method)(path, {}, format="json", **holder.headers)
    _json_error(response, 405, "method_not_allowed")
    assert response["Allow"]
