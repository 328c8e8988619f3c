"""Request bodies without a Content-Length (``Transfer-Encoding: chunked``): read, or refused with 411 — never
silently empty.

Django reads exactly CONTENT_LENGTH bytes of ``wsgi.input`` and takes a missing length for 0, so a chunked body
reached the views as no body at all (a session asked for in a module was created as a personal one, with no
error). A server that decodes the chunks and ends the stream itself says so with ``wsgi.input_terminated``
(gunicorn does): the body is then read here, up to RECMEM_MAX_REQUEST_BYTES, and handed on with its length. A server
that does not cannot be read safely: 411 with the API's JSON error.
"""

from __future__ import annotations

import io
import json

from core.config import config


def _error(start_response, status: str, code: str, message: str, details=None):
    body = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    payload = json.dumps({"error": body}).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
    return [payload]


class ChunkedBodyMiddleware:
    """WSGI middleware around the Django application (recmem_site/wsgi.py)."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            if not environ.get("wsgi.input_terminated"):
                return _error(start_response, "411 Length Required", "length_required",
                              "a request body needs a Content-Length header here (chunked bodies are not read)")
            limit = config().limits.max_request_bytes
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                return _error(start_response, "413 Request Entity Too Large", "request_too_large",
                              f"request body larger than {limit} bytes", {"max_bytes": limit})
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)
