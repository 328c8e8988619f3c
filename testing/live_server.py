"""A real RecMem server for the tests of its clients (Python client, MCP server, framework adapters, examples).

``LiveServer.start()`` runs ``recmem run`` itself — the supervisor ``make run`` uses: migrations, gunicorn, one
django-q2 cluster, ``/healthz`` — in a subprocess with its own ``RECMEM_HOME``, against a database of its own on a
PostgreSQL the caller names (the test session's embedded server), with the fake OpenAI-compatible server as its LLM
endpoint. Agents are created by a helper process that shares the server's settings (``LiveServer.agent(...)``).
Nothing is mocked: clients talk HTTP to gunicorn, which masks with Presidio, embeds with MiniLM and stores in
PostgreSQL; consolidation runs in the qcluster and calls the fake LLM over HTTP.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(*, host: str, port: int, name: str, user: str = "postgres", password: str = "") -> str:
    """A DATABASE_URL for ``host`` (a host name or a Unix socket folder)."""
    auth = urllib.parse.quote(user, safe="") + (":" + urllib.parse.quote(password, safe="") if password else "")
    return f"postgres://{auth}@{urllib.parse.quote(host, safe='')}:{port}/{name}"


def create_database(*, host: str, port: int, name: str, user: str = "postgres", password: str = "") -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=host, port=port, user=user, password=password or None, dbname="postgres",
                         autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


@dataclass
class LiveAgent:
    key: str
    project: str
    name: str
    roles: tuple[str, ...]
    modules: tuple[str, ...]


# Runs in a helper process with the server's environment: creates agents and keys on request (one JSON per line).
_AGENT_FACTORY = """
import json, sys, django
django.setup()
from agents.services import agent_create, api_key_create
for line in sys.stdin:
    req = json.loads(line)
    try:
        agent = agent_create(project_name=req["project"], name=req["name"], module_names=req["modules"],
                             roles=req["roles"])
        print(json.dumps({"key": api_key_create(agent=agent).raw_key}), flush=True)
    except Exception as exc:
        print(json.dumps({"error": repr(exc)}), flush=True)
"""


@dataclass
class LiveServer:
    """``recmem run`` in a subprocess. Use as a context manager, or ``start()`` / ``stop()``."""

    database: str  # DATABASE_URL of the server's own (empty) database
    env: dict[str, str] = field(default_factory=dict)  # extra RECMEM_* settings
    port: int = 0
    home: Path | None = None
    demo_key: str = ""
    _proc: subprocess.Popen | None = None
    _factory: subprocess.Popen | None = None
    _factory_lock: threading.Lock = field(default_factory=threading.Lock)
    _counter: int = 0
    _output: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("RECMEM_", "DJANGO_", "PYTEST_")) and k not in ("DATABASE_URL", "REDIS_URL")}
        env.update({
            "DATABASE_URL": self.database,
            "RECMEM_HOME": str(self.home),
            "HOME": str(self.home),  # gunicorn keeps its control socket under ~/.gunicorn: not the developer's
            "DJANGO_SECRET_KEY": "live-test-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "RECMEM_WEB_WORKERS": "1",
            "RECMEM_WEB_THREADS": "4",
            "RECMEM_Q_WORKERS": "1",
            "RECMEM_Q_POLL": "0.2",
            "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
            **self.env,
        })
        return env

    def start(self, timeout: float = 600) -> LiveServer:
        self.home = self.home or Path(tempfile.mkdtemp(prefix="recmem-live-"))
        self.port = self.port or free_port()
        log = open(self.home / "recmem-run.out", "w")  # noqa: SIM115 - closed in stop()
        self._log = log
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "recmem_site.cli", "run", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.environment(), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        ready = threading.Event()
        threading.Thread(target=self._pump, args=(ready,), daemon=True).start()
        if not ready.wait(timeout) or not self.demo_key:
            out = "".join(self._output)[-4000:]
            self.stop()
            raise RuntimeError(f"recmem run did not start within {timeout:.0f}s:\n{out}")
        return self

    def _pump(self, ready: threading.Event) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self._output.append(line)
            self._log.write(line)
            self._log.flush()
            if line.startswith("rmk_"):  # the demo agent's key, printed alone on its line
                self.demo_key = line.strip()
            if line.startswith("All parts warm"):  # web and queue workers warm (the URLs and key come first)
                ready.set()
        ready.set()  # the process ended: wake the waiter

    def agent(self, *, project: str | None = None, name: str | None = None, roles=("writer", "reader"),
              modules=()) -> LiveAgent:
        """A new agent with a key. Each call without ``project`` gets a project of its own (isolated memory)."""
        with self._factory_lock:
            if self._factory is None:
                self._factory = subprocess.Popen([sys.executable, "-c", _AGENT_FACTORY], env=self.environment(),
                                                 cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self._counter += 1
            request = {"project": project or f"p{self._counter}-{os.getpid()}", "name": name or f"a{self._counter}",
                       "roles": list(roles), "modules": list(modules)}
            assert self._factory.stdin is not None and self._factory.stdout is not None
            self._factory.stdin.write(json.dumps(request) + "\n")
            self._factory.stdin.flush()
            answer = json.loads(self._factory.stdout.readline() or '{"error": "agent factory exited"}')
        if "error" in answer:
            raise RuntimeError(f"could not create agent {request}: {answer['error']}")
        return LiveAgent(key=answer["key"], project=request["project"], name=request["name"], roles=tuple(roles),
                         modules=tuple(modules))

    def get(self, path: str, key: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path, headers={"Authorization": f"Bearer {key}"} if key else {})
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - loopback only
            return json.loads(response.read())

    def stop(self, timeout: float = 60) -> None:
        if self._factory is not None:
            self._factory.stdin.close()  # type: ignore[union-attr]
            try:
                self._factory.wait(10)
            except subprocess.TimeoutExpired:
                self._factory.kill()
            self._factory = None
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # what Ctrl-C does: web, then worker, in order
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if getattr(self, "_log", None) is not None:
            self._log.close()

    def logs(self, name: str = "web.log") -> str:
        path = (self.home or Path(".")) / "logs" / name
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_until(predicate, timeout: float, interval: float = 0.5, message: str = "condition"):
    """Poll ``predicate`` until it returns something truthy; that value, or AssertionError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} not reached within {timeout:.0f}s")
        time.sleep(interval)
