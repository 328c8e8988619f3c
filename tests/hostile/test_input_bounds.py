"""Input that no longer hurts: a non-finite number is a 400 naming its field before masking and embedding run; a
chunked body is read (or refused with a JSON 411), never taken for an empty one; a body of millions of tiny items is
refused from a count on its bytes, before it is parsed; gunicorn's own refusals speak the API's JSON envelope."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from django.core.handlers.wsgi import WSGIHandler

from memory.models import Exchange, Session
from memory.tests.factories import post_session
from recmem_site.parsers import StrictJSONParser, max_json_values
from recmem_site.wsgi_body import ChunkedBodyMiddleware
from testing.live_server import free_port

REPO = Path(__file__).resolve().parents[2]


# --- finite numbers -------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_metadata_1e400_is_a_400_naming_the_field_before_masking(api_client, make_agent, monkeypatch):
    """The observation: metadata {"n": 1e400} → 500, after masking and embedding ran."""
    import memory.services.ingest as ingest

    holder = make_agent()
    session = post_session(api_client, holder)["id"]

    def no_masking(**kwargs):
        raise AssertionError("masking ran on a refused body")

    monkeypatch.setattr(ingest, "texts_mask", no_masking)
    body = '{"exchanges": [{"user": "a", "assistant": "b"}, {"user": "c", "assistant": "d", "metadata": ' \
           '{"scores": [1, 1e400]}}]}'
    response = api_client.generic("POST", f"/api/v1/sessions/{session}/exchanges", body,
                                  content_type="application/json", **holder.headers)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_number" and error["details"] == {"field": "body.exchanges[1].metadata.scores[1]"}
    assert "1e400" not in response.content.decode()
    assert not Exchange.objects.exists()


# --- chunked bodies -------------------------------------------------------------------------------------------

def _wsgi(app, *, path: str, body: bytes, headers: dict, terminated: bool):
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "SERVER_NAME": "testserver", "SERVER_PORT": "80",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "wsgi.input": io.BytesIO(body),
               "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http", "wsgi.version": (1, 0),
               "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
               "CONTENT_TYPE": "application/json", "HTTP_TRANSFER_ENCODING": "chunked", **headers}
    if terminated:
        environ["wsgi.input_terminated"] = True
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

    chunks = app(environ, start_response)
    answer["body"] = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return answer


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_is_read_not_taken_for_an_empty_one(make_agent):
    """The observation: a chunked POST /sessions {"module": …} created a personal session, with no error."""
    holder = make_agent(modules=["ops"])
    app = ChunkedBodyMiddleware(WSGIHandler())
    headers = {"HTTP_AUTHORIZATION": f"Bearer {holder.key}"}
    # a server that decoded the chunks (gunicorn: wsgi.input_terminated) hands the body on with no Content-Length
    answer = _wsgi(app, path="/api/v1/sessions", body=b'{"module": "ops"}', headers=headers, terminated=True)
    assert answer["status"] == 201, answer
    assert json.loads(answer["body"])["module"] == "ops"
    assert Session.objects.get().module.name == "ops"
    # a server that did not: the body cannot be read safely, so the request is refused, with the JSON envelope
    answer = _wsgi(app, path="/api/v1/sessions", body=b'{"module": "ops"}', headers=headers, terminated=False)
    assert answer["status"] == 411 and answer["headers"]["Content-Type"] == "application/json"
    assert json.loads(answer["body"])["error"]["code"] == "length_required"
    assert Session.objects.count() == 1


# --- bodies of millions of items ------------------------------------------------------------------------------

def _millions_of_empty_items() -> bytes:
    return b'{"exchanges": [' + b",".join([b"{}"] * 8_000_000) + b"]}"  # 24 MB


def test_a_body_of_millions_of_items_is_refused_before_it_is_parsed(monkeypatch):
    """The observation: a 24 MB body of 8.4 M empty items took 31 s and ≥ 640 MB to refuse."""
    body = _millions_of_empty_items()
    assert len(body) > 23_000_000

    def no_parse(*args, **kwargs):
        raise AssertionError("the body was parsed")

    monkeypatch.setattr(json, "loads", no_parse)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(Exception) as refused:
            StrictJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert getattr(refused.value, "code", "") == "too_many_values", refused.value
    assert refused.value.details == {"max_values": max_json_values()}
    assert peak < 50 * 1024 * 1024, peak
    assert elapsed < 5, elapsed  # generous bound for a shared machine; measured ~0.1 s


@pytest.mark.django_db
def test_the_api_refuses_it_with_a_413_and_parses_nothing(api_client, make_agent, monkeypatch):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]

    real_loads = json.loads

    def no_big_parse(text, *args, **kwargs):  # json.loads is shared: only the big body must never reach it
        if len(text) > 1_000_000:
            raise AssertionError("the body was parsed")
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", no_big_parse)
    for key in ({}, {"HTTP_IDEMPOTENCY_KEY": "big-1"}):  # the key's fingerprint must not parse it either
        response = api_client.generic("POST", f"/api/v1/sessions/{session}/exchanges", _millions_of_empty_items(),
                                      content_type="application/json", **holder.headers, **key)
        assert response.status_code == 413, response.content[:300]
        assert response.json()["error"]["code"] == "too_many_values"


def test_a_full_legitimate_batch_is_within_the_value_count():
    from core.config import config
    from core.limits import json_values_upper_bound

    cfg = config()
    metadata = {f"k{i}": [i, {"x": None}] for i in range(cfg.limits.max_metadata_keys // 2)}
    batch = {"exchanges": [{"user": "u, {[", "assistant": "a", "metadata": metadata}
                           for _ in range(cfg.limits.max_batch_exchanges)]}
    assert json_values_upper_bound(json.dumps(batch).encode()) <= max_json_values()


# --- through the real gunicorn --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def gunicorn_echo():
    port = free_port()
    env = {**os.environ, "RECMEM_WARM_UP": "0", "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tests.hostile.gunicorn_echo:application", "-c",
         "python:recmem_site.gunicorn_conf", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=30)


def _raw(port: int, request: bytes) -> tuple[int, dict, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def test_gunicorn_hands_a_chunked_body_on(gunicorn_echo):
    status, _, body = _raw(gunicorn_echo, b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                                          b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                                          b"8\r\n{\"module\r\n9\r\n\": \"ops\"}\r\n0\r\n\r\n")
    assert status == 200
    assert json.loads(body) == {"content_length": 17, "body": '{"module": "ops"}'}


@pytest.mark.parametrize("request_bytes,status,code", [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(150)) + b"\r\n", 431,
     "header_fields_too_large"),
    (b"NOT A REQUEST\r\n\r\n", 400, "bad_request"),
])
def test_gunicorns_own_refusals_are_json(gunicorn_echo, request_bytes, status, code):
    got, headers, body = _raw(gunicorn_echo, request_bytes)
    assert got == status and headers["content-type"] == "application/json", (got, headers, body[:200])
    assert json.loads(body)["error"]["code"] == code
