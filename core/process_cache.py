"""Values built once per process and key (models, gateways, analyzers), shared by every thread.

Loading a model takes seconds and a lot of memory: it must happen once per process, and concurrent first users
must wait for that one load instead of starting their own. Reads after the first are lock-free.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class ProcessCache(Generic[V]):
    def __init__(self) -> None:
        self._values: dict[Hashable, V] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value for ``key``, built by ``build()`` by the first caller (the others wait for it)."""
        value = self._values.get(key)
        if value is not None:
            return value
        with self._lock:
            value = self._values.get(key)
            if value is None:
                value = build()
                self._values[key] = value
        return value

    def peek(self, key: Hashable) -> V | None:
        return self._values.get(key)

    def values(self) -> list[V]:
        return list(self._values.values())

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
