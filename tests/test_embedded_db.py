"""The embedded PostgreSQL: start, reuse of data across restarts, clean stop (a separate home, not the test one)."""

import psycopg
import pytest

from recmem_site import embedded_db


@pytest.fixture
def home(tmp_path):
    yield tmp_path / "home"
    embedded_db.stop(tmp_path / "home")


def _connect(info, dbname="recmem"):
    return psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname=dbname, autocommit=True)


def test_start_stop_and_reuse(home):
    home.mkdir()
    assert embedded_db.status(home) is None
    info = embedded_db.ensure_running(home, database="recmem")
    assert embedded_db.status(home) == info
    with _connect(info) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE TABLE kept (v vector(3))")
        conn.execute("INSERT INTO kept VALUES ('[1,2,3]')")
    # A second call while running reuses the same server.
    assert embedded_db.ensure_running(home, database="recmem").pid == info.pid

    assert embedded_db.stop(home) is True
    assert embedded_db.status(home) is None
    assert embedded_db.stop(home) is False  # already stopped

    again = embedded_db.ensure_running(home, database="recmem")
    assert again.pid != info.pid
    with _connect(again) as conn:
        assert conn.execute("SELECT v::text FROM kept").fetchone()[0] == "[1,2,3]"
        assert conn.execute("SELECT extversion FROM pg_extension WHERE extname='vector'").fetchone()[0] >= "0.8"
    embedded_db.stop(home)
    assert embedded_db.status(home) is None


def test_owner_process_stops_its_server_at_exit(home, tmp_path):
    """A process that starts the server (e.g. `manage.py migrate` alone) leaves nothing running behind."""
    import subprocess
    import sys

    home.mkdir()
    code = (
        "from recmem_site import embedded_db; "
        f"info = embedded_db.ensure_running({str(home)!r}, database='recmem'); print(info.pid)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip().splitlines()[-1]) > 0
    assert embedded_db.status(home) is None


def test_memory_settings_are_sized_from_the_machine_and_overridable(settings):
    gib = 1024 ** 3
    assert embedded_db.memory_settings(24 * gib) == {"shared_buffers": "6144MB", "effective_cache_size": "18432MB",
                                                     "maintenance_work_mem": "1536MB", "work_mem": "48MB"}
    small = embedded_db.memory_settings(gib // 2)  # the floors: never below PostgreSQL's own defaults
    assert small["shared_buffers"] == "128MB" and small["maintenance_work_mem"] == "64MB"
    assert embedded_db.memory_settings(512 * gib)["shared_buffers"] == "8192MB"  # the ceiling
    settings.RECMEM = settings.RECMEM.replace(database__shared_buffers="1GB", database__work_mem="16MB")
    chosen = embedded_db.memory_settings(24 * gib)
    assert chosen["shared_buffers"] == "1GB" and chosen["work_mem"] == "16MB"
    assert chosen["maintenance_work_mem"] == "1536MB"


def test_a_started_server_runs_with_the_sized_memory_settings(home, settings):
    """The embedded server's default shared_buffers (128 MB) kept a large store's HNSW index on disk, so searches waited
    on reads."""
    settings.RECMEM = settings.RECMEM.replace(database__shared_buffers="256MB", database__work_mem="24MB")
    home.mkdir()
    info = embedded_db.ensure_running(home, database="recmem")
    wanted = embedded_db.memory_settings()
    with _connect(info) as conn:
        for name, value in wanted.items():
            shown = conn.execute(f"SELECT pg_size_bytes(current_setting('{name}'))").fetchone()[0]
            assert shown == conn.execute("SELECT pg_size_bytes(%s)", [value]).fetchone()[0], name
    assert wanted["shared_buffers"] == "256MB" and wanted["work_mem"] == "24MB"
    embedded_db.stop(home)
    # A restart keeps them (ALTER SYSTEM wrote postgresql.auto.conf) without another restart of its own.
    again = embedded_db.ensure_running(home, database="recmem")
    with _connect(again) as conn:
        assert conn.execute("SHOW shared_buffers").fetchone()[0] == "256MB"


def test_a_postmaster_pid_file_being_written_reads_as_not_ready_and_a_start_waits_for_it(tmp_path, monkeypatch):
    """PostgreSQL writes postmaster.pid line by line while it starts; another process (web or worker after the
    database went away) reading it then must see "not ready" — the library asserts on a partial file (the fault
    bench's PostgreSQL kill stopped on that)."""
    import os

    pgdata = embedded_db.pgdata_for(tmp_path / "home")
    pgdata.mkdir(parents=True)
    (pgdata / "PG_VERSION").write_text("18\n")
    # 7 of the 8 lines: the status line is not written yet
    (pgdata / "postmaster.pid").write_text(f"{os.getpid()}\n{pgdata}\n1796056361\n5432\n\n\n  5932800   1605645\n")
    assert embedded_db.status(tmp_path / "home") is None  # no AssertionError
    # A process that finds a postgres process behind the file waits for it instead of starting a second server.
    monkeypatch.setattr(embedded_db, "_starting", lambda pgdata: True)
    calls = []

    def read_info(pgdata):
        calls.append(1)
        return None if len(calls) < 3 else "ready-info"

    monkeypatch.setattr(embedded_db, "_read_info", read_info)
    monkeypatch.setattr(embedded_db.time, "sleep", lambda s: None)
    assert embedded_db._wait_while_starting(pgdata, timeout=5) == "ready-info" and len(calls) == 3


def test_a_stale_postmaster_pid_file_is_not_a_server_starting(tmp_path):
    import os

    pgdata = tmp_path / "pgdata"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text(f"{os.getpid()}\n")  # alive, but this is python, not postgres
    assert embedded_db._starting(pgdata) is False
    (pgdata / "postmaster.pid").write_text("999999999\n")  # no such process
    assert embedded_db._starting(pgdata) is False
    (pgdata / "postmaster.pid").write_text("")  # empty: being created
    assert embedded_db._starting(pgdata) is False
