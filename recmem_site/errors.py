"""Errors raised before or outside DRF get the same JSON body as API errors.

- ``RequestIdMiddleware`` gives every request an id (``X-Request-ID`` on every response); an exception no handler
  took is logged with that id and its traceback, and answered ``500 {"error": {"code": "server_error", ...}}``
  without internals.
- ``handler400/403/404/500`` (``recmem_site.urls``) and ``CSRF_FAILURE_VIEW`` replace Django's HTML error pages: a
  body over RECMEM_MAX_REQUEST_BYTES is the documented 413, an unknown URL a JSON 404.
"""

from __future__ import annotations

import logging
import uuid

from django.core.exceptions import BadRequest, PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, JsonResponse

logger = logging.getLogger("recmem.errors")

REQUEST_ID_HEADER = "X-Request-ID"


def error_response(status: int, code: str, message: str, details=None) -> JsonResponse:
    body = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JsonResponse({"error": body}, status=status)


def too_large_response() -> JsonResponse:
    from core.config import config

    limit = config().limits.max_request_bytes
    return error_response(413, "request_too_large", f"request body larger than {limit} bytes",
                          {"max_bytes": limit})


def request_id(request) -> str:
    rid = getattr(request, "request_id", None)
    if rid is None:
        rid = uuid.uuid4().hex
        request.request_id = rid
    return rid


def server_error_response(request) -> JsonResponse:
    rid = request_id(request)
    return error_response(500, "server_error", f"internal error (request id {rid})", {"request_id": rid})


class RequestIdMiddleware:
    def __init__(self, get_response):
        from recmem_site.admin_digests import admin_headers_digest

        self.get_response = get_response
        self.admin_headers_digest = admin_headers_digest

    def __call__(self, request):
        rid = request_id(request)
        self.admin_headers_digest(request)  # before django-axes can record them
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = rid
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, Http404 | PermissionDenied | BadRequest | SuspiciousOperation):
            return None  # Django answers these through handler404/403/400 below (a too-large body among them)
        logger.error("unhandled %s on %s %s [request_id=%s]", type(exception).__name__, request.method,
                     request.path, request_id(request), exc_info=exception)
        return server_error_response(request)


def bad_request(request, exception=None):
    if isinstance(exception, RequestDataTooBig):
        return too_large_response()
    return error_response(400, "bad_request", "bad request")


def permission_denied(request, exception=None):
    return error_response(403, "permission_denied", "permission denied")


def page_not_found(request, exception=None):
    return error_response(404, "not_found", "not found")


def server_error(request):
    return server_error_response(request)


def csrf_failure(request, reason=""):
    return error_response(403, "csrf_failed", "CSRF verification failed (admin forms need their CSRF cookie and token)")
