"""The fake OpenAI-compatible server itself, driven by the real openai client and plain urllib."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import openai
import pytest

from memory.gateways.tokens import count_messages, count_tokens
from testing.fake_openai import FakeOpenAIServer, FakeReply

CHAT = "/v1/chat/completions"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def client(srv) -> openai.OpenAI:
    return openai.OpenAI(base_url=srv.base_url, api_key="k", max_retries=0, timeout=5)


def _ask(client: openai.OpenAI, text: str = "hi") -> openai.types.chat.ChatCompletion:
    return client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])


def test_binds_to_loopback_on_a_real_port_and_lists_models(srv, client):
    assert srv.base_url == f"http://127.0.0.1:{srv.port}/v1"
    assert srv.port > 0
    assert [m.id for m in client.models.list()] == ["fake-gpt", "text-embedding-3-small"]
    assert srv.requests == [("/v1/models", {})]


def test_replies_come_from_the_script_in_order_then_the_default(srv, client):
    srv.script({"a": 1}, "raw {not json", lambda request: {"echo": request["messages"][0]["content"]})
    assert json.loads(_ask(client).choices[0].message.content) == {"a": 1}
    assert _ask(client).choices[0].message.content == "raw {not json"
    assert json.loads(_ask(client, "ping").choices[0].message.content) == {"echo": "ping"}
    assert srv.pending_replies() == 0
    assert _ask(client).choices[0].message.content == "{}"  # queue empty, no responder


def test_responder_is_used_when_the_queue_is_empty(srv, client):
    srv.responder = lambda request: FakeReply(content={"n": len(request["messages"])})
    srv.script({"scripted": True})
    assert json.loads(_ask(client).choices[0].message.content) == {"scripted": True}
    assert json.loads(_ask(client).choices[0].message.content) == {"n": 1}


def test_chat_completion_shape_and_usage(srv, client):
    srv.script({"ok": True})
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say ok in JSON."}]
    response = client.chat.completions.create(model="gpt-x", messages=messages)
    assert response.object == "chat.completion"
    assert response.model == "gpt-x"
    assert response.choices[0].message.role == "assistant"
    assert response.choices[0].finish_reason == "stop"
    content = response.choices[0].message.content
    assert response.usage.prompt_tokens == count_messages(messages)
    assert response.usage.completion_tokens == count_tokens(content)
    assert response.usage.total_tokens == response.usage.prompt_tokens + response.usage.completion_tokens


def test_usage_can_be_overridden_or_omitted(srv, client):
    srv.script(
        FakeReply(content={}, usage={"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}),
        FakeReply(content={}, omit_usage=True),
    )
    assert _ask(client).usage.prompt_tokens == 7
    assert _ask(client).usage is None


def test_status_replies_become_openai_errors(srv, client):
    srv.script(FakeReply(status=500, error_message="boom"), FakeReply(status=429))
    with pytest.raises(openai.InternalServerError, match="boom"):
        _ask(client)
    with pytest.raises(openai.RateLimitError):
        _ask(client)


def test_delay_provokes_a_client_timeout_and_shutdown_is_not_blocked():
    server = FakeOpenAIServer().start()
    fast_client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=0.3)
    server.script(FakeReply(content={}, delay=30))
    with pytest.raises(openai.APITimeoutError):
        _ask(fast_client)
    started = time.monotonic()
    server.stop()  # the handler is still sleeping on its 30 s delay
    assert time.monotonic() - started < 2


def test_requests_are_recorded_by_path(srv, client):
    _ask(client, "one")
    client.embeddings.create(model="e", input=["a", "b"], encoding_format="float")
    _ask(client, "two")
    assert srv.calls_by_path() == {CHAT: 2, "/v1/embeddings": 1}
    assert [b["messages"][0]["content"] for b in srv.bodies(CHAT)] == ["one", "two"]
    srv.reset()
    assert srv.requests == [] and srv.calls_by_path() == {}


def test_embeddings_honour_dimensions_and_count_tokens(srv, client):
    response = client.embeddings.create(
        model="e", input=["hello world", "x"], dimensions=8, encoding_format="float"
    )
    assert [len(d.embedding) for d in response.data] == [8, 8]
    assert [d.index for d in response.data] == [0, 1]
    assert response.usage.prompt_tokens == count_tokens("hello world") + count_tokens("x")


def test_bad_requests_and_unknown_paths(srv):
    def post(path: str, payload: bytes) -> int:
        request = urllib.request.Request(
            srv.url + path, data=payload, headers={"Content-Type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code

    assert post("/v1/nowhere", b"{}") == 404
    assert post(CHAT, b"[not json") == 400
    assert post(CHAT, b"{}") == 400  # no messages
    assert post("/v1/embeddings", b'{"input": []}') == 400


def test_api_key_can_be_required():
    with FakeOpenAIServer(api_key="sk-right") as server:
        wrong = openai.OpenAI(base_url=server.base_url, api_key="sk-wrong", max_retries=0)
        with pytest.raises(openai.AuthenticationError):
            _ask(wrong)
        right = openai.OpenAI(base_url=server.base_url, api_key="sk-right", max_retries=0)
        assert _ask(right).choices[0].message.content == "{}"


def test_concurrent_requests_are_served(srv, client):
    results: list[str] = []

    def worker(i: int) -> None:
        results.append(_ask(client, f"q{i}").choices[0].message.content)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert results == ["{}"] * 8
    assert srv.calls_by_path() == {CHAT: 8}


def test_stops_cleanly_and_releases_the_port():
    with FakeOpenAIServer() as server:
        port = server.port
    with socket.socket() as sock, pytest.raises(OSError):
        sock.settimeout(1)
        sock.connect(("127.0.0.1", port))


def test_runs_stand_alone_until_interrupted():
    process = subprocess.Popen(
        [sys.executable, "-m", "testing.fake_openai", "--port", "0", "--reply", '{"stand": "alone"}'],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        client = openai.OpenAI(base_url=base_url, api_key="k", max_retries=0, timeout=5)
        assert json.loads(_ask(client).choices[0].message.content) == {"stand": "alone"}
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
