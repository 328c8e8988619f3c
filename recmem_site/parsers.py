"""The API's only body parser: JSON, bounded in size, value count and depth, every string storable in PostgreSQL,
every number finite.

DRF's JSONParser turns malformed JSON into a 400 but lets a body nested tens of thousands deep raise RecursionError
(a 500), lets NUL characters and unpaired surrogates through to the database (another 500), and parses ``1e400`` to
infinity, which the services mask and embed before jsonb refuses it (a 500 after the slow part). Here all are 400s
naming the field, before any view sees the data. A body of millions of tiny values is refused (413) from a count
made on its bytes, before ``json.loads`` would build millions of objects.
"""

from __future__ import annotations

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.config import config
from core.errors import TooLarge
from core.limits import json_values_upper_bound, json_walk_check


def max_json_values() -> int:
    """The most JSON values one body may hold: room for a full batch whose every item has metadata at its key
    limit (plus lists in it), far below what would take the process's memory (each parsed value costs ~60 bytes
    or more)."""
    cfg = config()
    return max(10_000, cfg.limits.max_batch_exchanges * (4 * cfg.limits.max_metadata_keys + 16))


def json_body_precheck(raw: bytes) -> None:
    """Refuse a body larger than RECMEM_MAX_REQUEST_BYTES or with more values than :func:`max_json_values`, without
    parsing it."""
    limit = config().limits.max_request_bytes
    if len(raw) > limit:
        raise TooLarge(f"request body larger than {limit} bytes", code="request_too_large",
                       details={"max_bytes": limit})
    most = max_json_values()
    if len(raw) > most and json_values_upper_bound(raw) > most:  # each value takes at least one byte
        raise TooLarge(f"request body holds more than {most} JSON values", code="too_many_values",
                       details={"max_values": most})


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        limit = config().limits.max_request_bytes
        raw = stream.read(limit + 1)
        json_body_precheck(raw)
        try:
            # NaN and Infinity parse to floats here so that the walk below names the field they are in
            data = json.loads(raw.decode(encoding), parse_constant=float)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deep") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        json_walk_check(data, max_depth=config().limits.max_json_depth, where="body")
        return data
