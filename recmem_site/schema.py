"""The OpenAPI schema tells the truth about errors and strictness.

Every operation documents the error statuses it can answer, each with the one error body
(``{"error": {"code", "message", "details"}}``); request objects say ``additionalProperties: false`` because unknown
fields are refused (400).
"""

from __future__ import annotations

from rest_framework import serializers

from agents.schema import RoleDocumentingSchema
from core.config import config


class ErrorOut(serializers.Serializer):
    class ErrorBody(serializers.Serializer):
        code = serializers.CharField(help_text="machine-readable, e.g. invalid, not_found, throttled")
        message = serializers.CharField(help_text="what is wrong; never repeats the submitted value")
        details = serializers.JSONField(required=False, help_text="field errors, limits, request_id (500)")

    error = ErrorBody()


ERROR_DESCRIPTIONS = {
    "400": "invalid input (unknown field, wrong type, out of range, unstorable text, malformed JSON)",
    "401": "missing, malformed, unknown, revoked or expired API key",
    "403": "the agent lacks the role this operation needs (missing_role)",
    "404": "no such object for this agent (foreign objects look the same)",
    "409": "conflicts with the current state (closed session, duplicate)",
    "413": "over a documented limit (body size, texts, batch size, metadata)",
    "415": "the body is not application/json",
    "429": "rate limit or quota reached (Retry-After says when to try again)",
    "500": "unexpected error; details.request_id identifies it in the server log",
}


class RecMemAutoSchema(RoleDocumentingSchema):
    """Roles in each description (agents), and the error statuses with the error body; a JSON body on DELETE when the
    view declares one (``DELETE /api/v1/experiences/{id}`` takes its ``reason`` there: a URL is written to access
    logs). drf-spectacular documents bodies for PUT/PATCH/POST only, so a declared DELETE body would be missing from
    the schema — and from the test that checks every request field is covered (``tests/test_agent_input_coverage``)."""

    def _get_request_body(self, direction="request"):
        if self.method == "DELETE" and self.get_request_serializer() is not None:
            self.method = "PUT"  # the parent only builds bodies for the methods that usually carry one
            try:
                return super()._get_request_body(direction)
            finally:
                self.method = "DELETE"
        return super()._get_request_body(direction)

    def _error_statuses(self) -> list[str]:
        codes = ["401", "403", "429", "500"]
        has_body = self.method in ("POST", "PUT", "PATCH")
        if has_body or self.method == "DELETE" or self.get_override_parameters():
            codes.append("400")
        if "{" in self.path or has_body:  # a path id, or an id or name in the body (a module), may be foreign
            codes.append("404")
        if has_body:
            codes += ["409", "413", "415"]
        return sorted(codes)

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in self._error_statuses():
            if code not in responses:
                response = self._get_response_for_code(ErrorOut, code, direction=direction)
                response["description"] = ERROR_DESCRIPTIONS[code]
                responses[code] = response
        return responses


NO_NUL = "^[^\\u0000]*$"
NOT_BLANK = "\\S"


def strict_request_objects(result, generator, request, public):
    """Postprocessing hook: request bodies refuse unknown fields and NUL characters, so their schemas say so; the
    ingest limits that answer 413 (configurable, so not on the serializers) are stated too."""
    cfg = config()
    schemas = result.get("components", {}).get("schemas", {})
    for prop in ("user", "assistant"):
        schemas.get("ExchangeInRequest", {}).get("properties", {}).get(prop, {})["maxLength"] = \
            cfg.limits.max_text_chars
    schemas.get("ExchangeBatchInRequest", {}).get("properties", {}).get("exchanges", {})["maxItems"] = \
        cfg.limits.max_batch_exchanges
    if "ExchangeInRequest" in schemas:  # one side may be missing, not both (whitespace alone counts as missing)
        schemas["ExchangeInRequest"]["anyOf"] = [
            {"required": [side], "properties": {side: {"pattern": NOT_BLANK}}} for side in ("user", "assistant")]
    for name, schema in schemas.items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema.setdefault("additionalProperties", False)
            for prop in schema.get("properties", {}).values():
                if prop.get("type") == "string" and "format" not in prop and "enum" not in prop:
                    prop.setdefault("pattern", NO_NUL)
                    if prop.get("minLength", 0) >= 1:  # surrounding whitespace is trimmed before the check
                        prop["allOf"] = [{"pattern": NOT_BLANK}]
    if "ForgetInputRequest" in schemas:  # a forget names at least one selector; a subject has 3 characters trimmed
        forget = schemas["ForgetInputRequest"]
        forget["anyOf"] = [{"required": [name]} for name in ("session_ids", "agent", "subject")]
        forget.get("properties", {}).get("subject", {})["allOf"] = [{"pattern": "\\S[\\s\\S]+\\S"}]
    return result
