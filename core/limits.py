"""Bounds on agent-supplied JSON: text PostgreSQL can store, and metadata of bounded size, depth and key count.

Pure functions over parsed JSON values (no HTTP, no database), so the API's parser and serializers and any service
can apply the same rules. Every walk is iterative: a hostile value nested thousands deep never reaches Python's
recursion limit here. Messages never repeat the submitted value (only where it is and which rule it broke).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from core.errors import ApplicationError, TooLarge

# NUL (PostgreSQL text and jsonb refuse it) and UTF-16 surrogates (a lone one cannot be encoded as UTF-8).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


# A JSON string literal (escapes included), for the pre-scan: matched in C, no backtracking.
_STRING_LITERAL = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def json_values_upper_bound(raw: bytes) -> int:
    """At least as many as the values (containers and scalars; keys not counted) a JSON document ``raw`` parses to,
    counted without parsing it: its containers and commas outside string literals. In C over the bytes (~0.1 s for
    25 MB), so a body of millions of tiny items is refused before ``json.loads`` builds millions of objects."""
    structure = _STRING_LITERAL.sub(b"", raw)
    return structure.count(b",") + structure.count(b"{") + structure.count(b"[") + 1


def text_is_storable(text: str) -> bool:
    return _UNSTORABLE.search(text) is None


def text_check(text: str, *, where: str) -> None:
    if not text_is_storable(text):
        raise ApplicationError(f"{where}: text contains a NUL character or an unpaired UTF-16 surrogate",
                               code="invalid_text", details={"field": where})


def _path(where: str, node: tuple | None) -> str:
    """``where`` followed by the keys and indexes of a walk's parent links (``body.items[2].metadata.score``)."""
    parts: list[str] = []
    while node is not None:
        node, key = node
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return where + "".join(reversed(parts))


def json_walk_check(value: Any, *, max_depth: int, where: str = "body") -> None:
    """Every string (keys included) storable, every number finite (JSON has no NaN or Infinity: ``1e400`` parses
    to infinity and PostgreSQL's jsonb refuses it), nesting at most ``max_depth`` containers deep."""
    stack: list[tuple[Any, int, tuple | None]] = [(value, 0, None)]
    while stack:
        item, depth, node = stack.pop()
        if isinstance(item, str):
            text_check(item, where=where)
        elif isinstance(item, float):
            if not math.isfinite(item):
                field = _path(where, node)
                raise ApplicationError(f"{field}: not a finite number (JSON numbers must be finite)",
                                       code="invalid_number", details={"field": field})
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                raise ApplicationError(f"{where}: nested deeper than {max_depth} levels", code="too_deep",
                                       details={"field": where, "max_depth": max_depth})
            if isinstance(item, dict):
                for key, child in item.items():
                    text_check(key, where=where)
                    if not isinstance(child, str):  # strings need no path: skip the tuple
                        stack.append((child, depth + 1, (node, key)))
                    else:
                        text_check(child, where=where)
            else:
                stack.extend((child, depth + 1, (node, i)) for i, child in enumerate(item))


def metadata_check(value: Any, *, max_bytes: int, max_depth: int, max_keys: int, where: str = "metadata") -> None:
    """A metadata object: an object, storable text, at most ``max_depth`` levels, ``max_keys`` keys in all
    (nested ones included), ``max_bytes`` bytes as compact UTF-8 JSON. Size limits are 413, shape errors 400."""
    if not isinstance(value, dict):
        raise ApplicationError(f"{where}: must be a JSON object", code="invalid", details={"field": where})
    json_walk_check(value, max_depth=max_depth, where=where)
    keys = 0
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys += len(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    if keys > max_keys:
        raise TooLarge(f"{where}: more than {max_keys} keys", code="metadata_too_many_keys",
                       details={"field": where, "max_keys": max_keys, "keys": keys})
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    if size > max_bytes:
        raise TooLarge(f"{where}: larger than {max_bytes} bytes", code="metadata_too_large",
                       details={"field": where, "max_bytes": max_bytes, "bytes": size})
