"""Spans around RecMem's own steps (ingest, mask, embed, store, trigger; a consolidation batch's plan, LLM calls and
write), for OpenTelemetry.

``@traced("recmem.ingest")`` opens a span as a child of the current one (the Django request's, the worker's batch).
Tracing is off unless ``recmem_site.tracing.setup`` turned it on (``RECMEM_TRACING``, the ``otel`` extra); off, a
traced function costs one flag check and OpenTelemetry is never imported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_enabled = False


def enable(on: bool = True) -> None:
    global _enabled
    _enabled = on


def enabled() -> bool:
    return _enabled


def traced(name: str, *, attributes: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
           on_result: Callable[[Any], Mapping[str, Any]] | None = None) -> Callable[[F], F]:
    """A span named ``name`` around each call; ``attributes(kwargs)`` and ``on_result(result)`` add attributes.
    An exception is recorded on the span (status error) and re-raised."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if not _enabled:
                return fn(*args, **kwargs)
            from opentelemetry import trace

            tracer = trace.get_tracer("recmem")
            with tracer.start_as_current_span(name, attributes=_clean(attributes(kwargs)) if attributes else None
                                              ) as span:
                result = fn(*args, **kwargs)
                if on_result is not None:
                    span.set_attributes(_clean(on_result(result)))
                return result

        return inner  # type: ignore[return-value]

    return wrap


def _clean(values: Mapping[str, Any]) -> dict[str, Any]:
    """OpenTelemetry attribute values are str, bool, int or float: everything else (UUIDs) as text."""
    return {k: v if isinstance(v, str | bool | int | float) else str(v) for k, v in values.items() if v is not None}
