"""The ``recmem`` command line: ``recmem run`` (what `make run` calls), ``recmem db start|stop|status``.

``recmem run`` is a small supervisor: it starts the embedded PostgreSQL (unless ``DATABASE_URL`` is set),
migrates, makes sure a demo agent exists, then starts gunicorn (the web server: multi-process, production-grade,
the same server a deployment uses; Django's runserver is single-process and meant for development only) and one
django-q2 worker (``manage.py qcluster``), and waits until web and queue workers are warm (models loaded: the first
request is as fast as the hundredth), printing each part's progress on the way (database, migrations, web workers
n/N warm, queue workers n/N warm). It prints the URLs and the demo key as soon as the web server answers warm, says
so when queue workers are still warming, and keeps waiting for them; a start slower than RECMEM_START_TIMEOUT is
reported with the part that waits and its log, never given up on (only a crash ends a start).

On Ctrl-C (or SIGTERM, or the web server dying) it stops web and worker together within RECMEM_STOP_GRACE, then
the database. A worker that dies is started again (a few times, with a growing pause); a worker whose queue stalls
(tasks waiting, none finishing: memory/queue_health.py) is stopped — SIGKILL to its process group when SIGTERM does
nothing — and started again.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import psutil

from core.config import config
from memory.queue_health import QueueWatchdog, process_group_stop

SETTINGS = "recmem_site.settings.base"
PROGRESS_EVERY = 15.0  # seconds between two progress lines when nothing changed
WORKER_RESTARTS = 5  # a worker that dies more often than this in five minutes stops `recmem run`
WATCH_INTERVAL = 5.0  # seconds between two looks of the queue watchdog
WEDGED_GRACE = 10.0  # seconds a stalled cluster gets to obey SIGTERM before its process group is killed


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    import django

    django.setup()


def _demo_key(home: Path) -> str:
    """The demo agent's key: issued on first start, kept in RECMEM_HOME/demo_agent.key (mode 600) for reprints."""
    from agents.selectors import agent_get_by_name
    from governance.services.agent_admin import agent_key_issue, demo_agent_ensure

    key_file = home / "demo_agent.key"
    agent, issued = demo_agent_ensure()
    if issued is None and key_file.exists():
        return key_file.read_text().strip()
    if issued is None:
        agent = agent_get_by_name(project_name="demo", name="demo-agent")
        issued = agent_key_issue(agent=agent, name="demo", actor_label="cli:recmem_run",
                                 reason="demo key reissued (key file missing)")
    key_file.write_text(issued.raw_key + "\n")
    key_file.chmod(0o600)
    return issued.raw_key


def web_command(*, host: str, port: int, log_dir: Path) -> list[str]:
    """gunicorn as `recmem run` starts it (settings and warm-up hooks in recmem_site/gunicorn_conf.py)."""
    return [sys.executable, "-m", "gunicorn", "recmem_site.wsgi:application", "-c", "python:recmem_site.gunicorn_conf",
            "--bind", f"{host}:{port}", "--workers", str(config().server.workers),
            "--threads", str(config().server.threads),
            "--access-logfile", str(log_dir / "access.log"), "--error-logfile", str(log_dir / "web.log")]


def worker_command(base_dir: Path) -> list[str]:
    return [sys.executable, str(Path(base_dir) / "manage.py"), "qcluster"]


def idle_worker_env(env: dict) -> dict | None:
    """The environment of the idle runs' cluster (RECMEM_IDLE_QUEUE), or None when they share the main one."""
    from memory.services.scheduling import idle_queue

    name = idle_queue()
    return None if name is None else {**env, "Q_CLUSTER_NAME": name, "RECMEM_WARM_UP": "0"}


def health(url: str) -> dict | None:
    """The /healthz body (whatever its status), or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:  # noqa: S310 - loopback only
            return json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        try:
            return json.loads(exc.read())
        except ValueError:
            return None
    except Exception:
        return None


def ready(body: dict | None, *, queue_workers: int) -> bool:
    """Whether the first request will be fast and consolidation starts at once: the web process that answered is
    healthy and warm, and the queue workers are warm (each loads its models as it starts)."""
    return web_ready(body) and (body or {}).get("checks", {}).get("queue", {}).get("workers_warm", 0) >= queue_workers


def web_ready(body: dict | None) -> bool:
    """Whether the web server answers warm: gunicorn workers load their models before they accept a request."""
    if body is None or body.get("status") not in ("ok", "degraded"):
        return False
    return bool(body.get("checks", {}).get("process", {}).get("ready"))


@dataclass
class StartProgress:
    """What `recmem run` waits for, part by part."""

    web_warm: int
    web_total: int
    queue_warm: int
    queue_total: int
    web_ready: bool

    @property
    def queue_ready(self) -> bool:
        return self.queue_warm >= self.queue_total

    def describe(self) -> str:
        web = "answering" if self.web_ready else "not answering yet"
        return (f"web workers {self.web_warm}/{self.web_total} warm ({web}), "
                f"queue workers {self.queue_warm}/{self.queue_total} warm")

    def waiting_for(self) -> str:
        parts = ([] if self.web_ready else ["the web workers (web.log)"]) + \
            ([] if self.queue_ready else ["the queue workers (worker.log)"])
        return " and ".join(parts)


def start_progress(url: str, web: subprocess.Popen, since: float) -> StartProgress:
    """Each part's state: the web server from its /healthz, the web workers from the warm-up each records (the
    gunicorn master's children), the queue workers as /healthz counts them — asked directly while no web worker
    answers yet."""
    from memory.warmup import web_workers_warm
    from recmem_site.health import CHECKS

    body = health(url)
    try:
        pids = [child.pid for child in psutil.Process(web.pid).children()]
    except psutil.Error:
        pids = []
    total_web, total_queue = config().server.workers, config().queue.workers
    try:
        warm_web = web_workers_warm(pids, since=since) if config().server.warm_up else len(pids)
        queue = (body or {}).get("checks", {}).get("queue") or CHECKS["queue"]()
    except Exception:  # the database is busy or away for a moment: nothing to count this time
        from django.db import connections

        connections.close_all()
        warm_web, queue = 0, {}
    return StartProgress(web_warm=min(warm_web, total_web), web_total=total_web,
                         queue_warm=min(queue.get("workers_warm", 0), total_queue), queue_total=total_queue,
                         web_ready=web_ready(body))


class _StartReporter:
    """Progress lines while the start waits: on every change and every PROGRESS_EVERY seconds, and once, past the
    start timeout, which part is slow and where to look."""

    def __init__(self, timeout: float, log_dir: Path) -> None:
        self.started = time.monotonic()
        self.timeout, self.log_dir = timeout, log_dir
        self.last_line, self.last_at, self.warned = "", 0.0, False

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def report(self, progress: StartProgress) -> None:
        line = progress.describe()
        now = time.monotonic()
        if line != self.last_line or now - self.last_at >= PROGRESS_EVERY:
            print(f"  [{self.elapsed():4.0f}s] {line}", flush=True)
            self.last_line, self.last_at = line, now
        if not self.warned and self.elapsed() > self.timeout and progress.waiting_for():
            print(f"  still waiting after {self.timeout:.0f}s (RECMEM_START_TIMEOUT) for {progress.waiting_for()} "
                  f"in {self.log_dir}: the machine is busy or a model is still loading; waiting on (Ctrl-C stops)",
                  flush=True)
            self.warned = True


def stop_all(procs: list[tuple[str, subprocess.Popen]], grace: float) -> dict[str, str]:
    """SIGTERM to every child at once, then wait: gunicorn finishes its requests within its graceful timeout (the
    same grace), the worker its current task. A child still running after the grace (plus a margin for its own
    shutdown) is killed; a consolidation batch cut off that way resumes after the next start (the reaper).
    Returns how each stopped: "stopped" or "killed"."""
    for _, proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # the master stops its own children gracefully
    deadline = time.monotonic() + grace + 5
    outcome = {}
    for name, proc in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
            outcome[name] = "stopped"
        except subprocess.TimeoutExpired:
            print(f"  {name} did not stop within {grace:.0f}s; killing it", flush=True)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            outcome[name] = "killed"
    return outcome


class _QueueWatch:
    """The queue watchdog of `recmem run`: one per cluster it runs, checked every WATCH_INTERVAL seconds (the
    database is asked from this process, so a wedged cluster cannot hide its backlog)."""

    def __init__(self) -> None:
        from memory.services.scheduling import idle_queue

        self.clusters = {"worker": config().queue.name, "idle-worker": idle_queue()}
        self.watchdogs: dict[str, QueueWatchdog] = {}
        self.next_check: dict[str, float] = {}

    def stalled(self, name: str, proc: subprocess.Popen) -> str:
        if self.clusters.get(name) is None or proc.poll() is not None:
            return ""
        if time.monotonic() < self.next_check.get(name, 0.0):
            return ""
        self.next_check[name] = time.monotonic() + WATCH_INTERVAL
        watchdog = self.watchdogs.setdefault(name, QueueWatchdog(cluster=self.clusters[name]))
        try:
            return watchdog.check()
        except Exception as exc:  # the database is away: nothing to judge by now (the next check will see)
            print(f"queue watchdog: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            from django.db import connections

            connections.close_all()
            return ""

    def restarted(self, name: str) -> None:
        self.watchdogs[name].restarted()


def cmd_run(args: argparse.Namespace) -> int:
    import fasteners

    _setup_django()
    from django.conf import settings
    from django.core.management import call_command

    from recmem_site import embedded_db

    home = Path(config().home)
    home.mkdir(parents=True, exist_ok=True)
    log_dir = Path(settings.LOG_DIR)
    log_dir.mkdir(parents=True, exist_ok=True)
    lock = fasteners.InterProcessLock(str(home / "run.lock"))
    if not lock.acquire(blocking=False):
        print(f"another `recmem run` is using {home} (lock {home / 'run.lock'})", file=sys.stderr)
        return 1

    stopping = False

    def _on_signal(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)

    procs: list[tuple[str, subprocess.Popen]] = []
    started_at = time.time()
    try:
        if settings.EMBEDDED_DATABASE:
            print(f"Starting embedded PostgreSQL in {embedded_db.pgdata_for(home)} ...", flush=True)
            embedded_db.ensure_running(home, database=settings.DATABASES["default"]["NAME"], own=False)
            print(f"  database ready ({time.time() - started_at:.0f}s)", flush=True)
        print("Applying migrations ...", flush=True)
        part = time.time()
        call_command("migrate", interactive=False, verbosity=0)
        print(f"  migrations done ({time.time() - part:.0f}s)", flush=True)
        if config().database.prewarm:
            from memory.search.vector import hnsw_prewarm

            blocks = sum(hnsw_prewarm().values())
            print(f"Vector indexes pre-warmed ({blocks * 8 // 1024} MiB)", flush=True)
        call_command("collectstatic", interactive=False, verbosity=0)
        from memory.services.scheduling import maintenance_schedules_ensure

        for name in maintenance_schedules_ensure():
            print(f"  schedule {name} was missing: created again", flush=True)
        key = _demo_key(home)

        from django.db import connections

        connections.close_all()  # children open their own connections
        host, port = args.host or config().server.host, args.port or config().server.port
        config().replace(server__host=host)  # validated like RECMEM_HOST: DJANGO_DEBUG=1 only on a loopback address
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS, "RECMEM_HOME": str(home), "RECMEM_HOST": host}
        web_cmd = web_command(host=host, port=port, log_dir=log_dir)
        worker_cmd = worker_command(settings.BASE_DIR)

        def spawn(cmd: list[str], log: str, child_env: dict | None = None) -> subprocess.Popen:
            out = open(log_dir / log, "ab")  # noqa: SIM115 - lives as long as the child
            # Own process group: Ctrl-C reaches only this supervisor, which stops the children itself.
            return subprocess.Popen(cmd, env=child_env or env, stdout=out, stderr=subprocess.STDOUT,
                                    cwd=settings.BASE_DIR, start_new_session=True)

        spawned_at = time.time()
        procs += [("web", spawn(web_cmd, "web.out")), ("worker", spawn(worker_cmd, "worker.log"))]
        idle_env = idle_worker_env(env)
        if idle_env is not None:  # the low-priority cluster of idle (REM) runs: one worker, models loaded on use
            procs.append(("idle-worker", spawn(worker_cmd, "worker-idle.log", idle_env)))
        base = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}"
        health_url = f"http://127.0.0.1:{port}/healthz" if host in ("0.0.0.0", "127.0.0.1") else f"{base}/healthz"
        print("Starting web server and worker (each loads its models before it accepts work) ...", flush=True)
        reporter = _StartReporter(config().server.start_timeout, log_dir)
        progress = None
        while not stopping:
            exited = [(name, proc) for name, proc in procs if proc.poll() is not None]
            if exited:  # a crash, not slowness
                name, proc = exited[0]
                print(f"{name} exited with code {proc.returncode} while starting; see {log_dir}", file=sys.stderr)
                return 1
            progress = start_progress(health_url, procs[0][1], spawned_at)
            reporter.report(progress)
            if progress.web_ready:
                break
            time.sleep(1.0)
        if stopping:  # Ctrl-C during the start: an ordinary stop
            return 0
        print(
            f"\nRecMem is running (web server ready after {time.time() - started_at:.0f}s)\n"
            f"  API          {base}/api/v1/\n"
            f"  API docs     {base}/api/docs/   (OpenAPI schema: {base}/api/schema/)\n"
            f"  Admin        {base}/admin/   (create a login: .venv/bin/python manage.py createsuperuser)\n"
            f"  Health       {base}/healthz\n"
            f"  Data         {home}   Logs {log_dir}\n"
            f"  Demo agent   project 'demo', agent 'demo-agent'; API key:\n{key}\n"
            "Press Ctrl-C to stop web server, worker and database.",
            flush=True,
        )
        all_warm = progress.queue_ready
        if all_warm:
            print(f"All parts warm after {time.time() - started_at:.0f}s.", flush=True)
        else:
            print(f"Queue workers still warming ({progress.queue_warm}/{progress.queue_total} warm): the API answers "
                  "now; consolidation starts when they are warm.", flush=True)
        restarts: list[float] = []
        watch = _QueueWatch()
        while not stopping:
            if not all_warm:
                progress = start_progress(health_url, procs[0][1], spawned_at)
                reporter.report(progress)
                if progress.queue_ready:
                    all_warm = True
                    print(f"All parts warm after {time.time() - started_at:.0f}s "
                          f"(queue workers {progress.queue_warm}/{progress.queue_total}).", flush=True)
            for i, (name, proc) in enumerate(procs):
                reason = watch.stalled(name, proc)
                if reason:
                    # Work waits and none progresses: the cluster is wedged (a worker killed while holding its
                    # queue lock leaves the others blocked, and SIGTERM does nothing). Stop it hard, start it again.
                    print(f"{name}: {reason}; restarting it", file=sys.stderr, flush=True)
                    outcome = process_group_stop(proc, grace=WEDGED_GRACE)
                    procs[i] = (name, spawn(worker_cmd, "worker.log") if name == "worker"
                                else spawn(worker_cmd, "worker-idle.log", idle_worker_env(env)))
                    watch.restarted(name)
                    print(f"{name}: {outcome} and started again", file=sys.stderr, flush=True)
            for i, (name, proc) in enumerate(procs):
                if proc.poll() is None:
                    continue
                recent = [t for t in restarts if t > time.monotonic() - 300]
                if name in ("worker", "idle-worker") and len(recent) < WORKER_RESTARTS:
                    # The worker died (killed, or the database went away under it): start it again. Batches it was
                    # running resume: their lease passes and the reaper re-queues them.
                    print(f"worker exited with code {proc.returncode}; starting it again (see {log_dir})",
                          file=sys.stderr, flush=True)
                    pause_until = time.monotonic() + min(30, 2 ** len(recent))
                    while not stopping and time.monotonic() < pause_until:
                        time.sleep(0.2)
                    if stopping:
                        break
                    procs[i] = (name, spawn(worker_cmd, "worker.log") if name == "worker"
                                else spawn(worker_cmd, "worker-idle.log", idle_worker_env(env)))
                    restarts = [*recent, time.monotonic()]
                    continue
                print(f"{name} exited with code {proc.returncode}; stopping (see {log_dir})", file=sys.stderr)
                stopping = True
            time.sleep(0.5)
        return 0
    finally:
        print("\nStopping ...", flush=True)
        stop_all(procs, config().server.stop_grace)
        if settings.EMBEDDED_DATABASE:
            from django.db import connections

            connections.close_all()
            embedded_db.stop(home)
        lock.release()
        try:
            (home / "run.lock").unlink()
        except FileNotFoundError:
            pass
        print("Stopped.", flush=True)


def cmd_db(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    from django.conf import settings

    from recmem_site import embedded_db

    if not settings.EMBEDDED_DATABASE:
        print("DATABASE_URL is set: the embedded server is not used", file=sys.stderr)
        return 1
    home = config().home
    if args.action == "start":
        info = embedded_db.ensure_running(home, database=settings.DATABASES["default"]["NAME"], own=False)
        print(f"running: pid {info.pid}, socket {info.socket_dir}")
    elif args.action == "stop":
        print("stopped" if embedded_db.stop(home) else "not running")
    else:
        info = embedded_db.status(home)
        print(f"running: pid {info.pid}, socket {info.socket_dir}" if info else "not running")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="recmem", description="RecMem service control")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="database + migrations + web server + worker, until Ctrl-C")
    run.add_argument("--host", default=None)
    run.add_argument("--port", type=int, default=None)
    run.set_defaults(func=cmd_run)
    db = sub.add_parser("db", help="control the embedded PostgreSQL")
    db.add_argument("action", choices=["start", "stop", "status"])
    db.set_defaults(func=cmd_db)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
