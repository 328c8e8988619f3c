"""A search's layers side by side on their own connections (one after another their statements were most of a
1M-exchange search's time): the same results as one after another, on other database sessions, and one after another
wherever other connections would be wrong or no faster."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from agents.services import agent_create
from memory.search.query import SearchQuery
from memory.search.selectors import memory_search
from memory.search.side_by_side import run_side_by_side, side_by_side_close
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create


def _backend() -> tuple[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return threading.current_thread().name, cursor.fetchone()[0]


def _all_at_once(task, n: int = 3):
    """``task`` for each of ``n`` threads, each held until all ``n`` run: the caller's thread cannot run two."""
    together = threading.Barrier(n)

    def held():
        together.wait(timeout=10)
        return task()
    return held


def _open_backends(pids: set[int]) -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE pid = ANY(%s)", [list(pids)])
        return {row[0] for row in cursor.fetchall()}


@pytest.fixture
def pool(settings):
    settings.RECMEM = settings.RECMEM.replace(search__threads=2)
    yield
    side_by_side_close()


@pytest.mark.django_db(transaction=True)
def test_tasks_run_on_other_threads_and_connections_which_close_with_the_pool(pool):
    ran = run_side_by_side([_all_at_once(_backend)] * 3)
    threads, pids = {name for name, _ in ran}, {pid for _, pid in ran}
    assert ran[0] == _backend()  # the first task in the caller's thread, on its connection
    assert len(threads) == 3 and len(pids) == 3
    assert _open_backends(pids) == pids
    side_by_side_close()
    # the pool's connections are closed, the caller's is not (a backend leaves pg_stat_activity once it has exited)
    deadline = time.monotonic() + 10
    while _open_backends(pids) != {ran[0][1]} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _open_backends(pids) == {ran[0][1]}


@pytest.mark.django_db(transaction=True)
def test_in_a_transaction_or_with_no_threads_every_task_runs_in_the_callers_connection(settings):
    settings.RECMEM = settings.RECMEM.replace(search__threads=2)
    with transaction.atomic():
        # another connection would not see this transaction's rows
        assert {pid for _, pid in run_side_by_side([_backend, _backend, _backend])} == {_backend()[1]}
    settings.RECMEM = settings.RECMEM.replace(search__threads=0)
    assert {pid for _, pid in run_side_by_side([_backend, _backend])} == {_backend()[1]}


@pytest.mark.django_db(transaction=True)
def test_without_persistent_connections_every_task_runs_in_the_callers_connection(pool, monkeypatch):
    # DB_CONN_MAX_AGE=0: a pool thread would open and close a connection per task, slower than running in turn.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    assert {pid for _, pid in run_side_by_side([_backend, _backend, _backend])} == {_backend()[1]}


@pytest.mark.django_db(transaction=True)
def test_a_busy_pool_never_makes_the_caller_wait_for_a_turn(pool):
    release, started = threading.Event(), threading.Barrier(3)

    def hold():
        started.wait(timeout=10)
        release.wait(timeout=10)

    from memory.search.side_by_side import _executor

    held = [_executor().submit(hold) for _ in range(2)]
    started.wait(timeout=10)  # both pool threads are busy
    try:
        ran = run_side_by_side([_backend, _backend, _backend])
        assert {name for name, _ in ran} == {threading.current_thread().name}
    finally:
        release.set()
        for future in held:
            future.result()


@pytest.mark.django_db(transaction=True)
def test_an_error_in_any_task_reaches_the_caller(pool):
    def fail():
        raise LookupError("layer failed")

    with pytest.raises(LookupError, match="layer failed"):
        run_side_by_side([_backend, fail])
    with pytest.raises(LookupError, match="layer failed"):
        run_side_by_side([fail, _backend, _backend])
    assert run_side_by_side([lambda: 1, lambda: 2, lambda: 3]) == [1, 2, 3]


@pytest.mark.django_db(transaction=True)
def test_search_side_by_side_returns_what_search_in_turn_returns(settings, pool):
    agent = agent_create(project_name="side", name="a")
    session = session_create(agent=agent)
    exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user=text, assistant="Noted.") for text in (
            "My sister Ana moved to Lisbon last spring.", "I run ten kilometres every Sunday morning.",
            "The cat is called Miso and hates the vacuum.", "We adopted Miso from the shelter in 2021.")])

    def found(threads: int):
        settings.RECMEM = settings.RECMEM.replace(search__threads=threads)
        result = memory_search(agent=agent, query=SearchQuery(query="What is the cat called?"))
        return [(h.obj.pk, round(h.relevance, 6)) for h in result.exchanges], result.context

    side = found(2)
    assert side[0] and side == found(0)


@pytest.mark.django_db
def test_candidates_are_ranked_on_a_few_columns_and_the_items_returned_are_read_whole(django_assert_num_queries):
    agent = agent_create(project_name="whole", name="a")
    session = session_create(agent=agent, external_id="s1")
    exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user="The cat is called Miso and hates the vacuum.", assistant="Noted."),
        ExchangeIn(user="I run ten kilometres every Sunday morning.", assistant="Nice.")])
    result = memory_search(agent=agent, query=SearchQuery(query="What is the cat called?"))
    assert result.exchanges
    with django_assert_num_queries(0):  # texts, metadata and the session are loaded; no lazy read per hit
        seen = [(h.obj.user_text, h.obj.assistant_text, h.obj.metadata, h.obj.session.external_id)
                for h in result.exchanges]
    assert ("The cat is called Miso and hates the vacuum.", "Noted.", {}, "s1") in seen


@pytest.mark.django_db(transaction=True)
def test_the_pool_threads_see_the_callers_context(pool):
    import contextvars

    request = contextvars.ContextVar("request", default=None)
    request.set("req-42")
    ran = run_side_by_side([_all_at_once(lambda: (threading.current_thread().name, request.get()))] * 3)
    assert len({name for name, _ in ran}) == 3 and {value for _, value in ran} == {"req-42"}
