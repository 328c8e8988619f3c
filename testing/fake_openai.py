"""A fake OpenAI-compatible HTTP server (standard library only) for tests and benchmarks.

Tests exercise the real ``openai`` client over real HTTP against this server instead of patching the client,
so request shapes, retries, timeouts and error mapping are the client's own. It binds to 127.0.0.1 only.

    with FakeOpenAIServer() as srv:
        srv.script({"episodes": []}, "not json", FakeReply(status=500), FakeReply(content={}, delay=2))
        client = openai.OpenAI(base_url=srv.base_url, api_key="test")

Endpoints: ``POST /v1/chat/completions`` (scripted replies), ``POST /v1/embeddings`` (deterministic hashing
vectors, float or base64), ``GET /v1/models``. Every request is recorded in ``srv.requests``.

Stand-alone, for pointing ``RECMEM_LLM_BASE_URL`` at it during development::

    python -m testing.fake_openai --port 8099 [--reply '{"items": []}'] [--replies-file r.jsonl]
"""

from __future__ import annotations

import argparse
import base64
import collections
import itertools
import json
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memory.gateways.tokens import count_messages, count_tokens
from testing.embedders import hashing_vector

__all__ = ["FakeOpenAIServer", "FakeReply", "main"]

HOST = "127.0.0.1"
DEFAULT_CHAT_MODEL = "fake-gpt"
DEFAULT_EMBEDDING_DIMENSIONS = 1536  # what text-embedding-3-small returns when ``dimensions`` is absent


@dataclass
class FakeReply:
    """One scripted chat reply.

    ``content``: a dict/list (sent as its JSON text) or a str (sent verbatim, e.g. malformed JSON).
    ``delay``: seconds to wait before answering (provokes client timeouts).
    ``status``: an HTTP status other than 200 answers with an OpenAI-style error body instead.
    ``usage``: overrides the computed ``usage`` object; ``omit_usage`` leaves it out entirely.
    """

    content: Any = None
    delay: float = 0.0
    status: int = 200
    usage: dict[str, int] | None = None
    omit_usage: bool = False
    finish_reason: str = "stop"
    error_message: str = "fake server error"


Reply = Any  # dict | list | str | FakeReply | Callable[[dict], Reply]


def _as_fake_reply(reply: Reply, request_json: dict[str, Any]) -> FakeReply:
    for _ in range(10):  # a callable may return another callable; don't loop forever
        if not callable(reply) or isinstance(reply, FakeReply):
            break
        reply = reply(request_json)
    if isinstance(reply, FakeReply):
        return reply
    return FakeReply(content=reply)


def _content_text(content: Any) -> str:
    if content is None:
        return "{}"
    if isinstance(content, str):
        return content
    return json.dumps(content)


def _error_body(message: str, status: int) -> dict[str, Any]:
    kind = "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like real endpoints; every reply sets Content-Length
    server: _Server
    timeout = 30  # seconds an idle keep-alive connection may hold a thread
    disable_nagle_algorithm = True  # headers and body go out in two writes: avoid a 40 ms delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.fake.verbose:
            super().log_message(format, *args)

    # -- plumbing ---------------------------------------------------------------------------------------

    def _read_json(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        try:
            body = json.loads(raw)
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("x-request-id", f"req_fake_{next(self.server.fake._ids)}")
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. timed out) before we answered

    def _authorised(self) -> bool:
        expected = self.server.fake.api_key
        if expected is None:
            return True
        if self.headers.get("Authorization") == f"Bearer {expected}":
            return True
        self._send_json(401, _error_body("Incorrect API key provided.", 401))
        return False

    def _path(self) -> str:
        return self.path.split("?", 1)[0].rstrip("/")

    # -- routes -----------------------------------------------------------------------------------------

    def do_GET(self) -> None:
        path = self._path()
        self.server.fake._record(path, {}, dict(self.headers))
        if not self._authorised():
            return
        if path == "/v1/models":
            self._send_json(200, self.server.fake._models_payload())
        else:
            self._send_json(404, _error_body(f"Unknown path {path}", 404))

    def do_POST(self) -> None:
        path = self._path()
        body = self._read_json()
        self.server.fake._record(path, body if body is not None else {}, dict(self.headers))
        if not self._authorised():
            return
        if body is None:
            self._send_json(400, _error_body("The request body is not a JSON object.", 400))
        elif path == "/v1/chat/completions":
            self._chat(body)
        elif path == "/v1/embeddings":
            self._embeddings(body)
        else:
            self._send_json(404, _error_body(f"Unknown path {path}", 404))

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self.server.fake
        messages = body.get("messages")
        if not isinstance(messages, list):
            self._send_json(400, _error_body("'messages' is required.", 400))
            return
        if body.get("stream"):
            self._send_json(400, _error_body("Streaming is not supported by the fake server.", 400))
            return
        reply = _as_fake_reply(fake._next_reply(body), body)
        if reply.delay > 0 and fake._stopping.wait(reply.delay):
            return  # shutting down: drop the request
        if reply.status != 200:
            self._send_json(reply.status, _error_body(reply.error_message, reply.status))
            return
        text = _content_text(reply.content)
        payload: dict[str, Any] = {
            "id": f"chatcmpl-fake-{next(fake._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or fake.chat_model,
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "logprobs": None,
                    "finish_reason": reply.finish_reason,
                }
            ],
        }
        if not reply.omit_usage:
            if reply.usage is not None:
                payload["usage"] = reply.usage
            else:
                prompt = count_messages(messages)
                completion = count_tokens(text)
                payload["usage"] = {
                    "prompt_tokens": prompt,
                    "completion_tokens": completion,
                    "total_tokens": prompt + completion,
                }
        self._send_json(200, payload)

    def _embeddings(self, body: dict[str, Any]) -> None:
        raw_input = body.get("input")
        if isinstance(raw_input, str):
            texts = [raw_input]
        elif isinstance(raw_input, list) and raw_input and all(isinstance(x, int) for x in raw_input):
            texts = [" ".join(map(str, raw_input))]  # one pre-tokenised input
        elif isinstance(raw_input, list) and raw_input:
            texts = [x if isinstance(x, str) else " ".join(map(str, x)) for x in raw_input]
        else:
            self._send_json(400, _error_body("'input' must be a non-empty string or array.", 400))
            return
        dimensions = body.get("dimensions") or DEFAULT_EMBEDDING_DIMENSIONS
        if not isinstance(dimensions, int) or dimensions <= 0:
            self._send_json(400, _error_body("'dimensions' must be a positive integer.", 400))
            return
        as_float = body.get("encoding_format") == "float"
        data = []
        for index, text in enumerate(texts):
            vector = hashing_vector(text, dimensions)
            embedding: Any
            if as_float:
                embedding = vector
            else:
                embedding = base64.b64encode(struct.pack(f"<{dimensions}f", *vector)).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(count_tokens(text) for text in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": body.get("model") or "fake-embedding",
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler sleeping on a scripted delay must not block shutdown
    fake: FakeOpenAIServer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Wake handler threads blocked on idle keep-alive connections so they exit now."""
        with self._open_lock:
            sockets = list(self._open)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class FakeOpenAIServer:
    """An OpenAI-compatible HTTP server on 127.0.0.1 with scripted chat replies; a context manager.

    ``script(*replies)`` queues chat replies (FIFO); when the queue is empty ``responder(request_json)`` is
    used if set, else ``{}`` is returned. ``requests`` lists ``(path, json_body)`` of every request.
    """

    def __init__(
        self,
        port: int = 0,
        *,
        responder: Callable[[dict[str, Any]], Reply] | None = None,
        api_key: str | None = None,
        chat_model: str = DEFAULT_CHAT_MODEL,
        verbose: bool = False,
    ) -> None:
        self.responder = responder
        self.api_key = api_key
        self.chat_model = chat_model
        self.verbose = verbose
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._headers: list[tuple[str, dict[str, str]]] = []
        self._port = port
        self._queue: collections.deque[Reply] = collections.deque()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        """Bind and serve in a background thread; returns self."""
        if self._httpd is not None:
            return self
        self._stopping.clear()
        httpd = _Server((HOST, self._port), _Handler)
        httpd.fake = self
        self._httpd = httpd
        # A short poll interval makes shutdown() (and so each test's teardown) take milliseconds, not 0.5 s.
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, release the port and wake any handler sleeping on a delay."""
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        httpd.close_connections()
        if thread is not None:
            thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- addresses --------------------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the fake server is not running")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no ``/v1``)."""
        return f"http://{HOST}:{self.port}"

    @property
    def base_url(self) -> str:
        """The ``base_url`` for ``openai.OpenAI``: ``http://127.0.0.1:PORT/v1``."""
        return f"{self.url}/v1"

    # -- scripting and inspection -----------------------------------------------------------------------

    def script(self, *replies: Reply) -> None:
        """Queue chat replies: dict/list (JSON content), str (raw content), ``FakeReply`` or a callable."""
        with self._lock:
            self._queue.extend(replies)

    def pending_replies(self) -> int:
        """How many scripted replies are still queued."""
        with self._lock:
            return len(self._queue)

    def calls_by_path(self) -> dict[str, int]:
        """Number of requests received per path, e.g. ``{"/v1/chat/completions": 2}``."""
        with self._lock:
            return dict(collections.Counter(path for path, _ in self.requests))

    def bodies(self, path: str) -> list[dict[str, Any]]:
        """JSON bodies of the requests received on ``path``, oldest first."""
        with self._lock:
            return [body for p, body in self.requests if p == path]

    def headers(self, path: str) -> list[dict[str, str]]:
        """HTTP headers of the requests received on ``path``, oldest first (e.g. which API key made each call)."""
        with self._lock:
            return [headers for p, headers in self._headers if p == path]

    def reset(self) -> None:
        """Forget recorded requests and queued replies."""
        with self._lock:
            self.requests.clear()
            self._headers.clear()
            self._queue.clear()

    def _record(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self.requests.append((path, body))
            self._headers.append((path, headers or {}))

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder
        return {}

    def _models_payload(self) -> dict[str, Any]:
        models = [self.chat_model, "text-embedding-3-small"]
        return {
            "object": "list",
            "data": [{"id": m, "object": "model", "created": 0, "owned_by": "recmem-fake"} for m in models],
        }


def _load_replies(lines: Iterable[str]) -> list[Any]:
    replies = []
    for line in lines:
        line = line.strip()
        if line:
            try:
                replies.append(json.loads(line))
            except ValueError:
                replies.append(line)  # not JSON: sent verbatim
    return replies


def main(argv: list[str] | None = None) -> int:
    """Serve until interrupted (Ctrl-C); prints the base URL on the first line of stdout."""
    parser = argparse.ArgumentParser(description="Fake OpenAI-compatible server on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8099, help="port (0 picks a free one); default 8099")
    parser.add_argument("--reply", default="{}", help="JSON content returned when no scripted reply is left")
    parser.add_argument("--replies-file", help="file with one scripted reply per line (JSON or raw text)")
    parser.add_argument("--api-key", default=None, help="require this bearer key")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)

    try:
        default_reply: Any = json.loads(args.reply)
    except ValueError:
        default_reply = args.reply
    server = FakeOpenAIServer(
        args.port, responder=lambda _request: default_reply, api_key=args.api_key, verbose=args.verbose
    )
    if args.replies_file:
        with open(args.replies_file, encoding="utf-8") as fh:
            server.script(*_load_replies(fh))
    # Stop on Ctrl-C and on SIGTERM even when started from a background job (which inherits SIGINT ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with server:
        print(server.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("stopping", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
