"""LLM gateway against the fake OpenAI server, through the real openai client over HTTP."""

from __future__ import annotations

import json
import socket
import time
from contextlib import nullcontext

import jsonschema
import pytest

from core.config import config_override
from memory.gateways.llm import (
    LLMCallRecord,
    LLMError,
    LLMGateway,
    LLMInvalidReply,
    LLMTimeout,
    get_llm,
    llm_configured,
)
from memory.gateways.tokens import count_messages, count_tokens
from testing.fake_openai import FakeOpenAIServer, FakeReply

CHAT = "/v1/chat/completions"

SCHEMA = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "type": {"enum": ["fact", "preference", "constraint"]},
                    "statement": {"type": "string", "minLength": 1},
                    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                },
                "required": ["type", "statement"],
            },
        }
    },
    "required": ["items"],
}
MESSAGES = [
    {"role": "system", "content": "Extract experiences. Answer in JSON."},
    {"role": "user", "content": "I always run before breakfast."},
]
GOOD = {"items": [{"type": "preference", "statement": "Runs before breakfast", "confidence": 0.9}]}


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def gateway(srv) -> LLMGateway:
    return LLMGateway(srv.base_url, "test-key", "gpt-4o-mini", 0.0, 5.0, 2, retry_backoff=0.01)


def test_happy_path_validates_and_records_api_tokens(srv, gateway):
    srv.script(GOOD)
    seen: list[LLMCallRecord] = []
    result = gateway.complete_json(purpose="semantic", messages=MESSAGES, schema=SCHEMA, on_call=seen.append)

    assert result.data == GOOD
    assert len(result.calls) == 1 and seen == result.calls
    call = result.calls[0]
    assert call.ok and call.error == "" and call.attempt == 1
    assert call.purpose == "semantic" and call.model == "gpt-4o-mini"
    assert call.tokens_source == "api"
    # The fake counts usage from what it received: the record holds the endpoint's numbers.
    body = srv.bodies(CHAT)[0]
    assert call.prompt_tokens == count_messages(body["messages"]) > 0
    assert call.completion_tokens > 0
    assert result.total_tokens == call.prompt_tokens + call.completion_tokens
    assert call.latency_ms > 0

    assert body["model"] == "gpt-4o-mini"
    assert body["temperature"] == 0.0
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"] == MESSAGES  # they mention JSON: no hint added
    assert "max_tokens" not in body


def test_max_tokens_is_sent_and_a_json_hint_added_when_messages_never_mention_json(srv, gateway):
    srv.script({"items": []})
    gateway.complete_json(
        purpose="p", messages=[{"role": "user", "content": "hello"}], schema=SCHEMA, max_tokens=50
    )
    body = srv.bodies(CHAT)[0]
    assert body["max_tokens"] == 50
    assert body["messages"][0]["role"] == "system" and "JSON" in body["messages"][0]["content"]


def test_code_fenced_reply_is_accepted(srv, gateway):
    srv.script('```json\n{"items": []}\n```')
    result = gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert result.data == {"items": []}
    assert len(result.calls) == 1


def test_malformed_json_gets_one_repair_round(srv, gateway):
    srv.script('{"items": [ oops', GOOD)
    result = gateway.complete_json(purpose="episode", messages=MESSAGES, schema=SCHEMA)

    assert result.data == GOOD
    assert [c.ok for c in result.calls] == [False, True]
    assert [c.attempt for c in result.calls] == [1, 2]
    assert "not valid JSON" in result.calls[0].error
    assert all(c.tokens_source == "api" for c in result.calls)

    first, repair = srv.bodies(CHAT)
    assert repair["messages"][: len(first["messages"])] == first["messages"]
    assert repair["messages"][-2] == {"role": "assistant", "content": '{"items": [ oops'}
    assert repair["messages"][-1]["role"] == "user"
    assert "not valid JSON" in repair["messages"][-1]["content"]
    # The repair prompt is longer, and the endpoint's counts say so.
    assert result.calls[1].prompt_tokens > result.calls[0].prompt_tokens


def test_schema_violation_is_repaired_with_the_exact_error(srv, gateway):
    srv.script({"items": [{"type": "opinion", "statement": "x"}]}, GOOD)
    result = gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert result.data == GOOD
    repair_prompt = srv.bodies(CHAT)[1]["messages"][-1]["content"]
    assert "$.items[0].type" in repair_prompt
    assert "'opinion' is not one of" in repair_prompt
    assert "$.items[0].type" in result.calls[0].error


def test_invalid_twice_raises_invalid_reply_with_two_records(srv, gateway):
    srv.script("not json at all", ["still", "not", "an object"])
    seen: list[LLMCallRecord] = []
    with pytest.raises(LLMInvalidReply) as info:
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA, on_call=seen.append)
    assert len(info.value.calls) == 2 and seen == info.value.calls
    assert not any(c.ok for c in info.value.calls)
    assert all(c.prompt_tokens > 0 for c in info.value.calls)  # paid for, so recorded
    assert "must be a JSON object" in str(info.value)
    assert srv.calls_by_path() == {CHAT: 2}


def test_timeout_raises_llm_timeout_quickly(srv):
    gateway = LLMGateway(srv.base_url, "k", timeout=0.5, max_retries=0)
    srv.script(FakeReply(content=GOOD, delay=2))
    started = time.monotonic()
    with pytest.raises(LLMTimeout) as info:
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert time.monotonic() - started < 1.5
    assert len(info.value.calls) == 1
    call = info.value.calls[0]
    assert not call.ok and "timeout" in call.error and call.tokens_source == "none"
    assert srv.calls_by_path() == {CHAT: 1}  # the openai client's own retries are off


def test_timeouts_are_retried_a_bounded_number_of_times(srv):
    gateway = LLMGateway(srv.base_url, "k", timeout=0.3, max_retries=1, retry_backoff=0.01)
    srv.script(FakeReply(content=GOOD, delay=2), FakeReply(content=GOOD, delay=2), GOOD)
    with pytest.raises(LLMTimeout) as info:
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert [c.attempt for c in info.value.calls] == [1, 2]
    assert srv.calls_by_path() == {CHAT: 2}


def test_timeout_then_success_recovers(srv):
    gateway = LLMGateway(srv.base_url, "k", timeout=0.3, max_retries=2, retry_backoff=0.01)
    srv.script(FakeReply(content=GOOD, delay=2), GOOD)
    result = gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert result.data == GOOD
    assert [c.ok for c in result.calls] == [False, True]


def test_http_500_raises_llm_error_after_bounded_retries(srv, gateway):
    srv.script(*[FakeReply(status=500) for _ in range(5)])
    with pytest.raises(LLMError) as info:
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert type(info.value) is LLMError
    assert len(info.value.calls) == 3  # 1 + max_retries
    assert all("HTTP 500" in c.error for c in info.value.calls)
    assert srv.calls_by_path() == {CHAT: 3}
    assert srv.pending_replies() == 2


def test_http_500_then_success_recovers(srv, gateway):
    srv.script(FakeReply(status=503), GOOD)
    result = gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert result.data == GOOD
    assert [c.ok for c in result.calls] == [False, True]


def test_client_errors_are_not_retried(srv, gateway):
    srv.script(FakeReply(status=400, error_message="bad request"), GOOD)
    with pytest.raises(LLMError, match="bad request"):
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert srv.calls_by_path() == {CHAT: 1}


def test_missing_usage_is_counted_offline(srv, gateway):
    srv.script(FakeReply(content=GOOD, omit_usage=True))
    result = gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    call = result.calls[0]
    assert call.tokens_source == "offline"
    assert call.prompt_tokens == count_messages(MESSAGES)
    assert call.completion_tokens == count_tokens(json.dumps(GOOD))  # the fake sends json.dumps(content)


def test_endpoint_down_raises_llm_error():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    gateway = LLMGateway(f"http://127.0.0.1:{port}/v1", "k", max_retries=1, retry_backoff=0.01)
    with pytest.raises(LLMError) as info:
        gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA)
    assert len(info.value.calls) == 2
    assert "connection error" in info.value.calls[0].error


def test_bad_schema_is_a_programming_error(gateway):
    with pytest.raises(jsonschema.SchemaError):
        gateway.complete_json(purpose="p", messages=MESSAGES, schema={"type": "nonsense"})


# -- factory -------------------------------------------------------------------------------------------


def _no_llm_settings():
    """Blank RECMEM_LLM_BASE_URL when Django settings are in use; nothing to do otherwise."""
    from django.conf import settings

    if settings.configured:

        return config_override(llm__base_url="")
    return nullcontext()


def test_get_llm_returns_none_without_a_base_url():
    with _no_llm_settings():
        assert get_llm() is None
        assert llm_configured() is False
    assert get_llm(base_url="") is None


def test_get_llm_builds_a_cached_gateway_from_overrides(srv):
    gateway = get_llm(base_url=srv.base_url, api_key="k", model="fake-model", timeout=3, max_retries=1)
    assert isinstance(gateway, LLMGateway)
    assert gateway is get_llm(
        base_url=srv.base_url, api_key="k", model="fake-model", timeout=3, max_retries=1
    )
    assert (gateway.model, gateway.timeout, gateway.max_retries) == ("fake-model", 3.0, 1)
    srv.script({"items": []})
    assert gateway.complete_json(purpose="p", messages=MESSAGES, schema=SCHEMA).data == {"items": []}
    assert srv.bodies(CHAT)[0]["model"] == "fake-model"
    with pytest.raises(TypeError):
        get_llm(colour="blue")
