"""Strict input for the memory API: every body and query parameter goes through one of these serializers.

Unknown fields and parameters are refused (400), types are not coerced (``"user": 123`` is an error, not "123"),
text must be storable (no NUL, no unpaired surrogate), metadata is bounded in bytes, depth and keys, and list pages
are 1 to RECMEM_MAX_PAGE_SIZE long. Error messages name the field and the rule, never the submitted value.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.config import config
from core.errors import ApplicationError
from core.limits import metadata_check, text_is_storable
from memory.entities import entity_malformed

_UNSTORABLE = "must not contain NUL characters or unpaired UTF-16 surrogates"
MAX_OFFSET = 1_000_000_000


class StrictCharField(serializers.CharField):
    """A JSON string only (numbers and booleans are not turned into text), storable in PostgreSQL."""

    default_error_messages = {"invalid": "must be a string", "unstorable": _UNSTORABLE}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if not text_is_storable(data):
            self.fail("unstorable")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": "must be an integer"}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFloatField(serializers.FloatField):
    default_error_messages = {"invalid": "must be a number"}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": "must be true or false"}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    """A choice whose error lists the allowed values instead of repeating the submitted one."""

    def __init__(self, choices, **kwargs):
        super().__init__(choices, **kwargs)
        self.error_messages["invalid_choice"] = "must be one of: " + ", ".join(str(c) for c in self.choices)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid_choice")
        return super().to_internal_value(data)


@extend_schema_field({"type": "object", "additionalProperties": True,
                      "description": "free JSON object, masked like text; limits: RECMEM_MAX_METADATA_BYTES "
                                     "(compact UTF-8 JSON), RECMEM_MAX_METADATA_DEPTH, RECMEM_MAX_METADATA_KEYS"})
class MetadataField(serializers.JSONField):
    """A bounded JSON object (README: limits). Too many bytes or keys is 413, a wrong shape 400."""

    def to_internal_value(self, data):
        cfg = config()
        metadata_check(data, max_bytes=cfg.limits.max_metadata_bytes, max_depth=cfg.limits.max_metadata_depth,
                       max_keys=cfg.limits.max_metadata_keys, where=self.field_name or "metadata")
        return data


class BoundedDateTimeField(serializers.DateTimeField):
    """A filter's time bound: a valid timestamp that falls outside Python's range once moved to UTC (year 1 with a
    positive offset, year 9999 with a negative one) is clamped to the first or last representable instant, which
    filters the same, instead of being refused."""

    def enforce_timezone(self, value):
        try:
            return super().enforce_timezone(value)
        except serializers.ValidationError:
            if getattr(value, "tzinfo", None) is None:
                raise
            edge = datetime.min if value.year == datetime.min.year else datetime.max
            return edge.replace(tzinfo=UTC)


class EntityField(StrictCharField):
    """A placeholder (``<PERSON_3f2a9c>``), a subject or a clear value (masked before use); a value in angle
    brackets that is not a keyed placeholder is refused."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 300)
        kwargs.setdefault("help_text", "only rows about this entity: a placeholder such as <PERSON_3f2a9c>, a "
                                       "subject, or a clear value (masked like ingest masks it)")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        problem = entity_malformed(value)
        if problem:
            raise serializers.ValidationError(problem, code="invalid")
        return value.strip()


class StrictSerializer(serializers.Serializer):
    """A JSON object with only the declared fields."""

    default_error_messages = {"invalid": "must be a JSON object"}

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = set(data) - set(self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {"non_field_errors": [f"unknown fields are not accepted ({len(unknown)} given); accepted: "
                                          + ", ".join(self.fields)]}, code="unknown_field")
        return super().to_internal_value(data)


class QuerySerializer(StrictSerializer):
    """Query parameters: each at most once, only the declared ones."""

    @classmethod
    def parse(cls, request) -> dict[str, Any]:
        known = cls().fields
        repeated = [k for k, values in request.query_params.lists() if len(values) > 1 and k in known]
        if repeated:
            raise ApplicationError(f"query parameters given more than once: {', '.join(sorted(repeated))}",
                                   code="invalid")
        serializer = cls(data={k: v for k, v in request.query_params.items()})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class PageQuery(QuerySerializer):
    """``limit`` 1..RECMEM_MAX_PAGE_SIZE (default 50) and ``offset`` >= 0; anything else is 400."""

    def get_fields(self):
        fields = super().get_fields()
        fields["limit"] = StrictQueryInteger(required=False, min_value=1, max_value=config().limits.max_page_size,
                                             help_text="page size (default 50)")
        fields["offset"] = StrictQueryInteger(required=False, min_value=0, max_value=MAX_OFFSET)
        return fields


class StrictQueryInteger(serializers.IntegerField):
    """Digits only: ``1e3``, ``5.0`` and `` 5`` are refused instead of being read as something else."""

    default_error_messages = {"invalid": "must be a whole number written with digits"}

    def to_internal_value(self, data):
        digits = data[1:] if isinstance(data, str) and data.startswith("-") else data
        if not isinstance(digits, str) or not digits.isascii() or not digits.isdigit():
            self.fail("invalid")
        if data.startswith("-"):
            self.fail("min_value", min_value=self.min_value)
        if len(digits) > 12:  # bigger than any page or offset; never reaches int() or the database
            self.fail("max_value", max_value=self.max_value)
        return super().to_internal_value(data)
