"""`recmem run` as a user runs it: it says "running" only once the web process that answers has loaded its models,
"All parts warm" once the queue worker has too, shows each part's progress on the way, and Ctrl-C stops web server
and worker within their grace period — also when it comes while they are still loading (the load used to make a
stop wait for it, and the supervisor killed both)."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from recmem_site.cli import health

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
GRACE = 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Run:
    def __init__(self, home: Path, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "RECMEM_LLM_BASE_URL")}
        env.update({"DJANGO_SETTINGS_MODULE": "recmem_site.settings.base", "RECMEM_HOME": str(home),
                    "RECMEM_PORT": str(port), "RECMEM_WEB_WORKERS": "1", "RECMEM_Q_WORKERS": "1",
                    "RECMEM_STOP_GRACE": str(GRACE), "PYTHONUNBUFFERED": "1"})
        # Its own process group, like a terminal's foreground job: SIGINT reaches `recmem run`, which stops its
        # children (each in a session of its own) itself.
        self.proc = subprocess.Popen([sys.executable, "-m", "recmem_site.cli", "run"], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for_line(self, text: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if text in line:
                return line
        raise AssertionError(f"no {text!r} within {timeout}s:\n{self.output}")

    def interrupt(self) -> None:
        """Ctrl-C, then wait until `recmem run` has exited."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=GRACE + 60)
        self._reader.join(10)
        while not self._queue.empty():
            line = self._queue.get()
            if line is not None:
                self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)


def test_recmem_run_is_warm_when_it_says_running_and_stops_within_the_grace(tmp_path):
    home, port = tmp_path / "home", _free_port()
    first = second = None
    try:
        # Ctrl-C while web server and worker are still loading their models: both stop at once, nobody is killed.
        first = Run(home, port)
        first.wait_for_line("Starting web server and worker", timeout=300)
        time.sleep(3)
        first.interrupt()
        assert first.proc.returncode == 0, first.output
        assert "Stopped." in first.output and "killing" not in first.output, first.output

        # A full start: "running" is printed once the web server answers warm (the first request is fast), with
        # each part's progress on the way; "All parts warm" once the queue worker is warm too.
        second = Run(home, port)
        second.wait_for_line("RecMem is running", timeout=900)
        assert "database ready" in second.output and "migrations done" in second.output, second.output
        assert "web workers 0/1 warm" in second.output or "web workers 1/1 warm" in second.output, second.output
        assert "queue workers" in second.output, second.output
        second.wait_for_line("All parts warm", timeout=900)
        body = health(f"http://127.0.0.1:{port}/healthz")
        assert body is not None and body["status"] == "ok", body
        process, queue = body["checks"]["process"], body["checks"]["queue"]
        assert process["ready"] and process["warm_up"] == "ready" and process["role"] == "web", process
        assert set(process["warm_ms"]) == {"embedder", "masker", "dry_run", "search_connections"}, process
        assert queue["workers_warm"] == 1, queue
        # Beside the main cluster, the idle (REM) cluster with its one worker (it loads models on first use).
        deadline = time.monotonic() + 60
        while queue["clusters_seen"] < 2 and time.monotonic() < deadline:
            time.sleep(1)
            queue = health(f"http://127.0.0.1:{port}/healthz")["checks"]["queue"]
        assert queue["workers_seen"] == queue["clusters_seen"] == 2 and queue["workers_warm"] == 1, queue
        # the key alone on its line, printed with the URLs (before the queue worker was warm, or with them)
        key = next(line.strip() for line in second.lines if line.startswith("rmk_"))
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/sessions", data=b"{}", method="POST",
                                         headers={"Authorization": f"Bearer {key}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
            assert response.status == 201

        second.interrupt()
        assert second.proc.returncode == 0, second.output
        # web and worker stopped by themselves within the grace, not killed at its end
        assert "Stopped." in second.output and "killing" not in second.output, second.output
        web_log = (home / "logs" / "web.log").read_text()
        assert "Shutting down: Master" in web_log
        assert "has stopped" in (home / "logs" / "worker.log").read_text()
    finally:
        for run in (first, second):  # a failed assertion must not leave `recmem run` and its children running
            if run is not None and run.proc.poll() is None:
                run.interrupt()
        subprocess.run([sys.executable, "-m", "recmem_site.cli", "db", "stop"], cwd=ROOT, capture_output=True,
                       env={**os.environ, "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
                            "RECMEM_HOME": str(home)})
