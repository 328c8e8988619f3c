"""One machine-readable error body for every API error.

``{"error": {"code": "...", "message": "...", "details": {...}}}`` with the HTTP status of the exception.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApiError(exceptions.APIException):
    """A domain error raised by services with its own status and code (e.g. 409 session_closed)."""

    def __init__(self, message: str, *, code: str, status_code: int = 400, details: Any = None):
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.details = details


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        return f"{key}: {_message(value)}"
    return str(detail)


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=getattr(exc, "message_dict", None) or exc.messages)

    response = exception_handler(exc, context)
    if response is None:
        return None

    if isinstance(exc, ApiError):
        code, details = exc.error_code, exc.details
    elif isinstance(exc, exceptions.ValidationError):
        code, details = "invalid", exc.detail
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        details = None
    else:  # pragma: no cover - DRF only returns responses for APIException
        code, details = "error", None

    body: dict[str, Any] = {"code": code, "message": _message(getattr(exc, "detail", str(exc)))}
    if details is not None:
        body["details"] = details
    if response.status_code == status.HTTP_413_REQUEST_ENTITY_TOO_LARGE:
        body.setdefault("code", "too_large")
    response.data = {"error": body}
    return response
