"""The ``recmem`` command line: ``recmem run`` (what `make run` calls), ``recmem db start|stop|status``.

``recmem run`` is a small supervisor: it starts the embedded PostgreSQL (unless ``DATABASE_URL`` is set),
migrates, makes sure a demo agent exists, then starts gunicorn (the web server: multi-process, production-grade,
the same server a deployment uses; Django's runserver is single-process and meant for development only) and one
django-q2 worker (``manage.py qcluster``), waits until ``/healthz`` answers, prints the URLs and the demo key,
and on Ctrl-C (or SIGTERM, or either child dying) stops web, worker and database, in that order.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from core.config import config

SETTINGS = "recmem_site.settings.base"


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    import django

    django.setup()


def _demo_key(home: Path) -> str:
    """The demo agent's key: issued on first start, kept in RECMEM_HOME/demo_agent.key (mode 600) for reprints."""
    from agents.selectors import agent_get_by_name
    from agents.services import api_key_create, demo_agent_ensure

    key_file = home / "demo_agent.key"
    agent, issued = demo_agent_ensure()
    if issued is None and key_file.exists():
        return key_file.read_text().strip()
    if issued is None:
        agent = agent_get_by_name(project_name="demo", name="demo-agent")
        issued = api_key_create(agent=agent, name="demo")
    key_file.write_text(issued.raw_key + "\n")
    key_file.chmod(0o600)
    return issued.raw_key


def _wait_healthy(url: str, timeout: float, procs: list[subprocess.Popen]) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            return False
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:  # noqa: S310 - loopback only
                if resp.status == 200:
                    return True
        except Exception:
            pass
        time.sleep(0.5)
    return False


def _terminate(proc: subprocess.Popen, name: str, timeout: float = 20) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)  # the master stops its own children gracefully
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        print(f"  {name} did not stop in {timeout:.0f}s; killing it", flush=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


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
    try:
        if settings.EMBEDDED_DATABASE:
            print(f"Starting embedded PostgreSQL in {embedded_db.pgdata_for(home)} ...", flush=True)
            embedded_db.ensure_running(home, database=settings.DATABASES["default"]["NAME"], own=False)
        print("Applying migrations ...", flush=True)
        call_command("migrate", interactive=False, verbosity=0)
        if config().db_prewarm:
            from memory.vector_scan import hnsw_prewarm

            blocks = sum(hnsw_prewarm().values())
            print(f"Vector indexes pre-warmed ({blocks * 8 // 1024} MiB)", flush=True)
        call_command("collectstatic", interactive=False, verbosity=0)
        key = _demo_key(home)

        from django.db import connections

        connections.close_all()  # children open their own connections
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS, "RECMEM_HOME": str(home)}
        host, port = args.host or config().bind_host, args.port or config().bind_port
        python = sys.executable
        web_cmd = [python, "-m", "gunicorn", "recmem_site.wsgi:application", "--bind", f"{host}:{port}",
                   "--workers", str(config().web_workers), "--threads", str(config().web_threads),
                   "--timeout", "120", "--access-logfile", str(log_dir / "access.log"),
                   "--error-logfile", str(log_dir / "web.log")]
        worker_cmd = [python, str(Path(settings.BASE_DIR) / "manage.py"), "qcluster"]
        for name, cmd, log in (("web", web_cmd, "web.out"), ("worker", worker_cmd, "worker.log")):
            out = open(log_dir / log, "ab")  # noqa: SIM115 - lives as long as the child
            # Own process group: Ctrl-C reaches only this supervisor, which stops children in order.
            procs.append((name, subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                                 cwd=settings.BASE_DIR, start_new_session=True)))
        base = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}"
        if not _wait_healthy(f"http://127.0.0.1:{port}/healthz" if host in ("0.0.0.0", "127.0.0.1")
                             else f"{base}/healthz", 90, [p for _, p in procs]):
            if not stopping:
                print(f"RecMem did not become healthy; see {log_dir}/web.log and worker.log", file=sys.stderr)
            return 1
        print(
            "\nRecMem is running\n"
            f"  API          {base}/api/v1/\n"
            f"  API docs     {base}/api/docs/   (OpenAPI schema: {base}/api/schema/)\n"
            f"  Admin        {base}/admin/   (create a login: .venv/bin/python manage.py createsuperuser)\n"
            f"  Health       {base}/healthz\n"
            f"  Data         {home}   Logs {log_dir}\n"
            f"  Demo agent   project 'demo', agent 'demo-agent'; API key:\n{key}\n"
            "Press Ctrl-C to stop web server, worker and database.",
            flush=True,
        )
        while not stopping:
            for name, proc in procs:
                if proc.poll() is not None:
                    print(f"{name} exited with code {proc.returncode}; stopping (see {log_dir})", file=sys.stderr)
                    stopping = True
            time.sleep(0.5)
        return 0
    finally:
        print("\nStopping ...", flush=True)
        for name, proc in procs:
            _terminate(proc, name)
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
