"""The OpenAPI schema class: the role-documenting one (:mod:`agents.schema`), also documenting a JSON body on DELETE
when a view declares one.

``DELETE /api/v1/experiences/{id}`` takes its ``reason`` in the body (a URL is written to access logs); drf-spectacular
documents bodies for PUT/PATCH/POST only, so a declared DELETE body would be missing from the schema — and from the
test that checks every request field of the schema is masked or validated (``tests/test_agent_input_coverage.py``).
"""

from __future__ import annotations

from agents.schema import RoleDocumentingSchema


class AutoSchema(RoleDocumentingSchema):
    def _get_request_body(self, direction="request"):
        if self.method == "DELETE" and self.get_request_serializer() is not None:
            self.method = "PUT"  # the parent only builds bodies for the methods that usually carry one
            try:
                return super()._get_request_body(direction)
            finally:
                self.method = "DELETE"
        return super()._get_request_body(direction)
