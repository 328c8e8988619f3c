"""Bounds on agent-supplied JSON: text PostgreSQL can store, and metadata of bounded size, depth and key count.

Pure functions over parsed JSON values (no HTTP, no database), so the API's parser and serializers and any service
can apply the same rules. Every walk is iterative: a hostile value nested thousands deep never reaches Python's
recursion limit here. Messages never repeat the submitted value (only where it is and which rule it broke).
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.errors import ApplicationError, TooLarge

# NUL (PostgreSQL text and jsonb refuse it) and UTF-16 surrogates (a lone one cannot be encoded as UTF-8).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def text_is_storable(text: str) -> bool:
    return _UNSTORABLE.search(text) is None


def text_check(text: str, *, where: str) -> None:
    if not text_is_storable(text):
        raise ApplicationError(f"{where}: text contains a NUL character or an unpaired UTF-16 surrogate",
                               code="invalid_text", details={"field": where})


def json_walk_check(value: Any, *, max_depth: int, where: str = "body") -> None:
    """Every string (keys included) storable, nesting at most ``max_depth`` containers deep."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            text_check(item, where=where)
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                raise ApplicationError(f"{where}: nested deeper than {max_depth} levels", code="too_deep",
                                       details={"field": where, "max_depth": max_depth})
            if isinstance(item, dict):
                for key, child in item.items():
                    text_check(key, where=where)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


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
