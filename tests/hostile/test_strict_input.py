"""Hostile input: every observed 500 or wrong answer is now a 4xx JSON error that changes nothing."""

import json
import time

import pytest

from core.config import config_override
from memory.models import Exchange, Session
from memory.tests.factories import post_session

pytestmark = pytest.mark.django_db


def _error(response, status, code=None):
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def _post(client, holder, url, body):
    return client.generic("POST", url, json.dumps(body), content_type="application/json", **holder.headers)


@pytest.fixture
def holder(make_agent):
    return make_agent()


@pytest.fixture
def session_url(api_client, holder):
    return f"/api/v1/sessions/{post_session(api_client, holder)['id']}/exchanges"


# --- unstorable text: NUL and lone surrogates, keys included (were HTML 500s) ---------------------------------

UNSTORABLE = ["nul\x00value", "lone \ud800 surrogate", "low \udfff"]


@pytest.mark.parametrize("bad", UNSTORABLE)
@pytest.mark.parametrize("where", ["metadata_value", "metadata_key", "nested_key", "user"])
def test_unstorable_text_in_exchanges_is_400(api_client, holder, session_url, bad, where):
    item = {"user": "hello", "assistant": "hi", "metadata": {"k": "v"}}
    if where == "metadata_value":
        item["metadata"] = {"note": bad}
    elif where == "metadata_key":
        item["metadata"] = {bad: "v"}
    elif where == "nested_key":
        item["metadata"] = {"a": [{"b": {bad: 1}}]}
    else:
        item["user"] = bad
    _error(_post(api_client, holder, session_url, item), 400)
    _error(_post(api_client, holder, session_url, {"exchanges": [item]}), 400)
    assert Exchange.objects.count() == 0


@pytest.mark.parametrize("bad", UNSTORABLE)
def test_unstorable_text_in_session_metadata_and_fields_is_400(api_client, holder, bad):
    for body in ({"metadata": {"x": bad}}, {"metadata": {bad: 1}}, {"external_id": bad}, {"module": bad}):
        _error(_post(api_client, holder, "/api/v1/sessions", body), 400)
    search = _post(api_client, holder, "/api/v1/search", {"query": f"where {bad}"})
    _error(search, 400)
    assert Session.objects.count() == 0


def test_error_messages_do_not_repeat_the_submitted_value(api_client, holder, session_url):
    marker = "secret-marker-8841"
    for body in ({"user": "x", "assistant": "y", "metadata": {marker + "\x00": 1}},
                 {"user": "x", "assistant": "y", marker: 1},
                 {"user": "x", "assistant": "y", "metadata": {"k": marker * 2000}}):
        response = _post(api_client, holder, session_url, body)
        assert response.status_code in (400, 413)
        assert marker not in response.content.decode()
    response = api_client.get(f"/api/v1/exchanges?state={marker}", **holder.headers)
    _error(response, 400)
    assert marker not in response.content.decode()


# --- metadata bounds: depth, size, keys (were 500s, 70 s requests) -----------------------------------------------

def test_metadata_nested_900_deep_is_400(api_client, holder, session_url):
    deep: dict = {}
    for _ in range(900):
        deep = {"a": deep}
    _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y", "metadata": deep}), 400, "too_deep")
    _error(_post(api_client, holder, "/api/v1/sessions", {"metadata": deep}), 400, "too_deep")
    with config_override(limits__max_metadata_depth=3):
        _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y",
                                                         "metadata": {"a": {"b": {"c": {}}}}}), 400, "too_deep")
        ok = _post(api_client, holder, session_url, {"user": "x", "assistant": "y", "metadata": {"a": {"b": {}}}})
        assert ok.status_code == 201, ok.content


def test_json_nested_beyond_the_parser_is_400_not_500(api_client, holder, session_url):
    body = '{"user": "x", "assistant": "y", "metadata": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = api_client.generic("POST", session_url, body, content_type="application/json", **holder.headers)
    _error(response, 400)


def test_huge_metadata_string_is_413_fast(api_client, holder, session_url):
    started = time.perf_counter()
    for size in (280_000, 1_100_000):
        body = {"user": "x", "assistant": "y", "metadata": {"note": "word " * (size // 5)}}
        error = _error(_post(api_client, holder, session_url, body), 413, "metadata_too_large")
        assert error["details"]["max_bytes"] == 16 * 1024
    # Refused before masking: no model ran on the text.
    assert time.perf_counter() - started < 10
    _error(_post(api_client, holder, "/api/v1/sessions", {"metadata": {"n": "x" * 20_000}}), 413,
           "metadata_too_large")
    assert Exchange.objects.count() == 0


def test_metadata_key_count_is_bounded(api_client, holder, session_url):
    with config_override(limits__max_metadata_keys=10):
        _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y",
                                                         "metadata": {str(i): i for i in range(11)}}),
               413, "metadata_too_many_keys")
        _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y",
                                                         "metadata": {"a": [{str(i): i} for i in range(11)]}}),
               413, "metadata_too_many_keys")
    assert Exchange.objects.count() == 0


@pytest.mark.parametrize("metadata", [[1, 2], "text", 3, None])
def test_metadata_must_be_an_object(api_client, holder, session_url, metadata):
    _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y", "metadata": metadata}), 400)


# --- unknown fields and wrong types (were silently ignored or coerced) ------------------------------------------

@pytest.mark.parametrize("extra", [{"scope": "project"}, {"owner_agent": "00000000-0000-0000-0000-000000000000"},
                                   {"embedding": [0.1]}])
def test_unknown_fields_are_400(api_client, holder, session_url, extra):
    _error(_post(api_client, holder, session_url, {"user": "x", "assistant": "y", **extra}), 400)
    _error(_post(api_client, holder, session_url, {"exchanges": [{"user": "x", "assistant": "y", **extra}]}), 400)
    _error(_post(api_client, holder, session_url, {"exchanges": [{"user": "x", "assistant": "y"}], **extra}), 400)
    _error(_post(api_client, holder, "/api/v1/sessions", {"external_id": "a", **extra}), 400)
    _error(_post(api_client, holder, "/api/v1/search", {"query": "hello", **extra}), 400)
    assert Exchange.objects.count() == 0 and Session.objects.count() == 1


@pytest.mark.parametrize("body", [
    {"user": 123, "assistant": "y"}, {"user": "x", "assistant": True}, {"user": "x", "assistant": 1.5},
    {"user": "x", "assistant": "y", "occurred_at": 1700000000},
])
def test_wrong_types_are_400_not_coerced(api_client, holder, session_url, body):
    _error(_post(api_client, holder, session_url, body), 400)
    assert Exchange.objects.count() == 0


@pytest.mark.parametrize("body", [{"query": 5}, {"query": "x", "k_sub": "5"}, {"query": "x", "k_sub": 5.0},
                                  {"query": "x", "k_sub": True}, {"query": "x", "types": "fact"},
                                  {"query": "x", "types": [1]}])
def test_search_types_are_strict(api_client, holder, body):
    _error(_post(api_client, holder, "/api/v1/search", body), 400)


def test_experience_update_types_are_strict(api_client, holder):
    from memory.tests.factories import make_memories, post_exchanges

    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "I like tea", "assistant": "ok"}])
    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    url = f"/api/v1/experiences/{experience.pk}"
    for body in ({"confidence": "0.5"}, {"verified": "yes"}, {"statement": 7}, {"scope": "project"}):
        _error(api_client.patch(url, body, format="json", **holder.headers), 400)
    assert api_client.patch(url, {"confidence": 0.5}, format="json", **holder.headers).status_code == 200


# --- query parameters: limit, offset, unknown and repeated ones ---------------------------------------------------

@pytest.mark.parametrize("query", ["limit=-5", "limit=0", "limit=abc", "limit=1e3", "limit=501", "limit=5.0",
                                   "limit=9223372036854775808", "offset=-1", "offset=9223372036854775808",
                                   "limit=%00", "limit=%20%205"])
@pytest.mark.parametrize("path", ["sessions", "exchanges", "episodes", "experiences", "consolidations"])
def test_bad_limits_are_400(api_client, holder, path, query):
    _error(api_client.get(f"/api/v1/{path}?{query}", **holder.headers), 400)


def test_limit_is_honoured_up_to_the_maximum(api_client, holder, session_url):
    _post(api_client, holder, session_url, {"exchanges": [{"user": f"q{i}", "assistant": "a"} for i in range(3)]})
    page = api_client.get("/api/v1/exchanges?limit=2", **holder.headers).json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert len(api_client.get("/api/v1/exchanges?limit=500&offset=1", **holder.headers).json()["results"]) == 2
    with config_override(limits__max_page_size=2):
        _error(api_client.get("/api/v1/exchanges?limit=3", **holder.headers), 400)


@pytest.mark.parametrize("url", ["/api/v1/exchanges?status=active", "/api/v1/consolidations?status=%00",
                                 "/api/v1/consolidations?status=bogus", "/api/v1/sessions?type=fact",
                                 "/api/v1/episodes?state=raw", "/api/v1/exchanges?session=not-a-uuid",
                                 "/api/v1/exchanges?scope=everything", "/api/v1/sessions?since=yesterday",
                                 "/api/v1/exchanges?state=raw&state=candidate", "/api/v1/exchanges?cachebust=1"])
def test_unknown_or_bad_query_parameters_are_400(api_client, holder, url):
    _error(api_client.get(url, **holder.headers), 400)


def test_delete_reason_is_validated(api_client, holder):
    from memory.tests.factories import make_memories, post_exchanges

    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "I like tea", "assistant": "ok"}])
    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    url = f"/api/v1/experiences/{experience.pk}"
    # the reason travels in the JSON body (URLs reach access logs), validated like any text
    _error(api_client.delete(url, {"reason": "x" * 301}, format="json", **holder.headers), 400)
    _error(api_client.delete(url, {"reason": "a\x00b"}, format="json", **holder.headers), 400)
    _error(api_client.delete(url, {"reason": 5}, format="json", **holder.headers), 400)
    _error(api_client.delete(url, {"reason": "ok", "scope": "project"}, format="json", **holder.headers), 400)
    _error(api_client.delete(f"{url}?reason=wrong", **holder.headers), 400, "reason_in_url")
    assert api_client.delete(url, {"reason": "wrong"}, format="json", **holder.headers).status_code == 204
