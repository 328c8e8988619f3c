"""Opportunistic micro-batching (core.batching): concurrent callers share one call, each gets its own results."""

from __future__ import annotations

import threading
import time

import pytest

from core.batching import Coalescer


class Gate:
    """``fn`` for a Coalescer whose first call blocks until released, so that callers queue up behind it."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, list[int]]] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, key, items):
        self.calls.append((key, list(items)))
        if len(self.calls) == 1:
            self.entered.set()
            assert self.release.wait(10)
        if any(i < 0 for i in items):
            raise ValueError("negative item")
        return [i * 10 for i in items]


def _call_in_threads(coalescer, calls):
    results: dict[int, object] = {}

    def run(n, key, items):
        try:
            results[n] = coalescer(key, items)
        except Exception as exc:  # noqa: BLE001 - recorded for the assertion
            results[n] = exc

    threads = [threading.Thread(target=run, args=(n, key, items)) for n, (key, items) in enumerate(calls)]
    for t in threads:
        t.start()
    return threads, results


def _wait_queued(coalescer, n):
    deadline = time.monotonic() + 10
    while len(coalescer._queue) < n and time.monotonic() < deadline:
        time.sleep(0.005)
    assert len(coalescer._queue) == n


def test_a_lone_caller_runs_at_once():
    gate = Gate()
    gate.release.set()
    coalescer = Coalescer(gate)
    assert coalescer("k", [1, 2]) == [10, 20]
    assert coalescer("k", []) == []
    assert gate.calls == [("k", [1, 2])] and coalescer.calls == 1


def test_callers_arriving_during_a_call_share_the_next_one():
    gate = Gate()
    coalescer = Coalescer(gate)
    first, results = _call_in_threads(coalescer, [("k", [1])])
    assert gate.entered.wait(10)
    rest, more = _call_in_threads(coalescer, [("k", [2, 3]), ("k", [4]), ("k", [5, 6, 7])])
    _wait_queued(coalescer, 3)
    gate.release.set()
    for t in first + rest:
        t.join(10)
    assert results[0] == [10]
    assert more == {0: [20, 30], 1: [40], 2: [50, 60, 70]}
    # One call for the first request, one for the three that queued behind it (not one per request).
    assert [items for _, items in gate.calls] == [[1], [2, 3, 4, 5, 6, 7]]


def test_keys_are_never_mixed_and_max_items_is_kept():
    gate = Gate()
    coalescer = Coalescer(gate, max_items=3)
    first, _ = _call_in_threads(coalescer, [("a", [1])])
    assert gate.entered.wait(10)
    rest, results = _call_in_threads(coalescer, [("a", [2, 3]), ("b", [4]), ("a", [5]), ("a", [6, 7])])
    _wait_queued(coalescer, 4)
    gate.release.set()
    for t in first + rest:
        t.join(10)
    assert results == {0: [20, 30], 1: [40], 2: [50], 3: [60, 70]}
    batches = gate.calls[1:]
    assert all(len(items) <= 3 for _, items in batches)
    assert sorted(i for _, items in batches for i in items) == [2, 3, 4, 5, 6, 7]
    assert [items for k, items in batches if k == "b"] == [[4]]  # "b" alone: never in a batch of "a"
    assert len(batches) == 3  # [2, 3, 5] (3 items), [4], [6, 7]


def test_a_failure_reaches_every_caller_of_its_batch_and_the_next_calls_work():
    gate = Gate()
    coalescer = Coalescer(gate)
    first, _ = _call_in_threads(coalescer, [("k", [1])])
    assert gate.entered.wait(10)
    rest, results = _call_in_threads(coalescer, [("k", [2]), ("k", [-1])])
    _wait_queued(coalescer, 2)
    gate.release.set()
    for t in first + rest:
        t.join(10)
    assert all(isinstance(r, ValueError) for r in results.values())
    assert coalescer("k", [3]) == [30]
    with pytest.raises(ValueError):
        coalescer("k", [-2])
