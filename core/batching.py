"""Opportunistic micro-batching: concurrent callers of one function share one call.

The ingest path runs two CPU-bound models per request (the NER behind masking, the embedder). Threads of one web
worker that arrive while a call is running queue up, and the next call takes all of them at once: one forward pass
over everyone's texts instead of one per request. A caller that finds nothing running runs at once, so a lone
request waits for nobody (no timer, no added latency).

One caller at a time is the *leader*: it runs batches, oldest first, until its own items are done, then hands the
lead to the oldest waiting caller, so no request serves others for long.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class _Pending(Generic[T, R]):
    __slots__ = ("error", "event", "finished", "items", "key", "result")

    def __init__(self, key: Hashable, items: list[T]) -> None:
        self.key = key
        self.items = items
        self.result: list[R] = []
        self.error: BaseException | None = None
        self.finished = False
        self.event = threading.Event()


class Coalescer(Generic[T, R]):
    """``coalescer(key, items)`` returns ``fn(key, items)``, computed in one call of ``fn`` together with the items
    of concurrent callers with the same ``key`` (at most ``max_items`` per call; one caller's items never split).
    ``fn`` must return one result per item, in order. ``calls`` and ``items`` count what ran (for tests and the
    benchmark)."""

    def __init__(self, fn: Callable[[Hashable, list[T]], Sequence[R]], *, max_items: int = 512) -> None:
        self._fn = fn
        self._max = max_items
        self._lock = threading.Lock()
        self._queue: list[_Pending[T, R]] = []
        self._busy = False
        self.calls = 0
        self.items = 0

    def __call__(self, key: Hashable, items: Sequence[T]) -> list[R]:
        mine: _Pending[T, R] = _Pending(key, list(items))
        if not mine.items:
            return []
        with self._lock:
            self._queue.append(mine)
            lead = not self._busy
            self._busy = True
        if not lead:
            mine.event.wait()  # set when done, or when handed the lead
        if not mine.finished:
            self._lead(mine)
        if mine.error is not None:
            raise mine.error
        return mine.result

    def _lead(self, mine: _Pending[T, R]) -> None:
        while not mine.finished:
            with self._lock:
                batch = self._take()
            self._run(batch)
        with self._lock:
            if self._queue:
                self._queue[0].event.set()  # the oldest waiter leads next
            else:
                self._busy = False

    def _take(self) -> list[_Pending[T, R]]:
        """The oldest pending call and every later one with its key, up to ``max_items`` (under the lock)."""
        first = self._queue[0]
        batch, size, rest = [first], len(first.items), []
        for pending in self._queue[1:]:
            if pending.key == first.key and size + len(pending.items) <= self._max:
                batch.append(pending)
                size += len(pending.items)
            else:
                rest.append(pending)
        self._queue = rest
        return batch

    def _run(self, batch: list[_Pending[T, R]]) -> None:
        flat = [item for pending in batch for item in pending.items]
        try:
            results: Any = list(self._fn(batch[0].key, flat))
            if len(results) != len(flat):
                raise RuntimeError(f"batched call returned {len(results)} results for {len(flat)} items")
        except BaseException as exc:  # every caller of the batch sees the failure, none hangs
            for pending in batch:
                pending.error = exc
        else:
            start = 0
            for pending in batch:
                pending.result = results[start:start + len(pending.items)]
                start += len(pending.items)
        self.calls += 1
        self.items += len(flat)
        for pending in batch:
            pending.finished = True
            pending.event.set()
