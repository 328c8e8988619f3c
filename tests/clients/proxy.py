"""A scripted HTTP proxy on 127.0.0.1 in front of the live server, to provoke what retries are for.

Each request takes the next action of the script (then ``forward`` when the script is empty):

- ``"forward"``: pass the request to the server and its answer back;
- ``"lose"``: pass the request to the server (it is processed), then drop the connection without answering — a
  response lost on the way back, the case where a blind retry would write twice;
- ``("status", 503, {"Retry-After": "0"})``: answer that status without asking the server (error code
  ``unavailable``, or a fourth item);
- ``("slow", seconds)``: pass the request on, then wait before answering (the client times out first).

Every request is recorded as ``(method, path, headers, body)``.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        proxy = self.server.proxy
        action = proxy.next_action()
        proxy.record(self.command, self.path, dict(self.headers), body)
        if isinstance(action, tuple) and action[0] == "status":
            status, headers, code = action[1], action[2], action[3] if len(action) > 3 else "unavailable"
            payload = json.dumps({"error": {"code": code, "message": "scripted by the test proxy"}}).encode()
            self.send_response(status)
            for name, value in {**headers, "Content-Type": "application/json",
                                "Content-Length": str(len(payload))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
            return
        status, headers, answer = proxy.forward(self.command, self.path, dict(self.headers), body)
        if action == "lose":
            self.close_connection = True
            return  # processed upstream; the client never hears back
        if isinstance(action, tuple) and action[0] == "slow":
            time.sleep(action[1])
        try:
            self.send_response(status)
            for name, value in headers:
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_GET = do_POST = do_PATCH = do_DELETE = _handle


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    proxy: ScriptedProxy


class ScriptedProxy:
    def __init__(self, upstream: str) -> None:
        parsed = urllib.parse.urlsplit(upstream)
        self.upstream = (parsed.hostname or "127.0.0.1", parsed.port or 80)
        self.requests: list[tuple[str, str, dict[str, str], bytes]] = []
        self._script: list[Any] = []
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.proxy = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def script(self, *actions: Any) -> None:
        with self._lock:
            self._script.extend(actions)

    def next_action(self) -> Any:
        with self._lock:
            return self._script.pop(0) if self._script else "forward"

    def record(self, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
        with self._lock:
            self.requests.append((method, path, headers, body))

    def forward(self, method: str, path: str, headers: dict[str, str], body: bytes):
        conn = http.client.HTTPConnection(*self.upstream, timeout=120)
        try:
            sent = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
            conn.request(method, path, body=body or None, headers=sent)
            response = conn.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            conn.close()

    def __enter__(self) -> ScriptedProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
