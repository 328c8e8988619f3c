"""The API's only body parser: JSON, bounded in depth, every string storable in PostgreSQL.

DRF's JSONParser turns malformed JSON into a 400 but lets a body nested tens of thousands deep raise RecursionError
(a 500) and lets NUL characters and unpaired surrogates through to the database (another 500). Here both are 400s
before any view sees the data.
"""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.config import config
from core.limits import json_walk_check


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deep") from None
        json_walk_check(data, max_depth=config().max_json_depth, where="body")
        return data
