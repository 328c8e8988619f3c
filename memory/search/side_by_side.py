"""Independent reads run side by side, each on its own database connection.

A search's statements (two per layer, then the reads of the items it returns) are independent; one after another
they were most of a 1M-exchange search's time (bench_scale: 83 of 101 ms), while the server can run them on both cores
at once. The first task runs in the caller's thread, the others in a small per-process pool of threads
(``RECMEM_SEARCH_THREADS``), each of which keeps its own connection (the usual ``CONN_MAX_AGE`` and health checks
apply to it).

One after another instead, in the caller's thread:
- inside a transaction: another connection would not see its uncommitted rows (the test suite's transactions, a
  caller's ``atomic`` block);
- with ``RECMEM_SEARCH_THREADS=0``, or without persistent connections (``DB_CONN_MAX_AGE=0``);
- for a task the pool has not started by the time the caller's own task is done (a busy pool never makes a search
  slower than running its layers in turn).
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TypeVar

from django.db import connection, connections

from core.config import config

T = TypeVar("T")

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_size = 0


def _executor() -> ThreadPoolExecutor | None:
    global _pool, _pool_pid, _pool_size
    size = int(config().search.threads)
    # Without persistent connections (DB_CONN_MAX_AGE=0) each task would open and close one: slower than in turn.
    if size <= 0 or not connection.settings_dict.get("CONN_MAX_AGE"):
        return None
    if _pool is not None and _pool_pid == os.getpid() and _pool_size != size:
        side_by_side_close()  # the setting changed (tests): the old threads' connections must not linger
    with _lock:
        # A forked child inherits the object but not its threads: it builds its own.
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="recmem-read")
            _pool_pid, _pool_size = os.getpid(), size
        return _pool


def _on_own_connection(task: Callable[[], T]) -> T:
    # The pool's threads serve no request, so nothing else retires their connections: do what Django does around
    # a request (a broken or expired connection is closed here and reopened by the next statement).
    connection.close_if_unusable_or_obsolete()
    try:
        return task()
    finally:
        connection.close_if_unusable_or_obsolete()


def run_side_by_side(tasks: list[Callable[[], T]]) -> list[T]:
    """The results of ``tasks``, in order. Each task opens its own transaction if it needs one (the tasks do not
    share a snapshot); an exception of a task is raised here."""
    pool = None if connection.in_atomic_block or len(tasks) < 2 else _executor()
    if pool is None:
        return [task() for task in tasks]
    # Each task in a copy of the caller's context: a trace span or a context variable set by the request is the
    # same in the pool's threads (one copy per task: a context cannot be entered by two threads at once).
    futures: list[Future] = [pool.submit(contextvars.copy_context().run, _on_own_connection, task)
                             for task in tasks[1:]]
    try:
        first = tasks[0]()
    except BaseException:
        for future in futures:
            if not future.cancel():
                wait([future])  # a started task still holds its connection: let it finish before raising
        raise
    # A task the pool has not started yet (it is busy with other searches) runs here rather than waiting a turn.
    return [first, *[task() if future.cancel() else future.result()
                     for task, future in zip(tasks[1:], futures, strict=True)]]


def _on_every_thread(pool: ThreadPoolExecutor, size: int, work: Callable[[], None]) -> None:
    # One task per thread: each is held at a barrier until all of them have one (an idle thread cannot take two).
    barrier = threading.Barrier(size)

    def task() -> None:
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass  # a thread still busy after 10 s: do this one's part all the same
        work()

    for future in [pool.submit(task) for _ in range(size)]:
        future.result()


def side_by_side_connect() -> None:
    """Open every pool thread's connection now (a web worker's warm-up), not in its first searches."""
    pool = _executor()
    if pool is not None:
        _on_every_thread(pool, _pool_size, lambda: connection.ensure_connection())  # the thread's own


def side_by_side_close() -> None:
    """Close the pool threads' connections and stop the pool (before a test database is dropped, which open
    connections would block). Each thread must close its own connection."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is None or _pool_pid != os.getpid():
        return
    _on_every_thread(pool, _pool_size, lambda: connections.close_all())  # the thread's own
    pool.shutdown(wait=True)
