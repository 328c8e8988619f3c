"""One machine-readable error body for every API error, and the one place where domain errors meet HTTP.

``{"error": {"code": "...", "message": "...", "details": {...}}}`` with the HTTP status of the error's kind.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.config import config
from core.errors import ApplicationError, Conflict, Limited, NotAllowed, NotFound, TooLarge

# The kind of a domain error decides its status; the first class in the error's MRO that is listed wins.
STATUS_BY_KIND: dict[type[ApplicationError], int] = {
    NotAllowed: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    TooLarge: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    Limited: status.HTTP_429_TOO_MANY_REQUESTS,
    ApplicationError: status.HTTP_400_BAD_REQUEST,
}


def status_for(error: ApplicationError) -> int:
    return next(STATUS_BY_KIND[kind] for kind in type(error).__mro__ if kind in STATUS_BY_KIND)


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        return f"{key}: {_message(value)}"
    return str(detail)


def _body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ApplicationError):
        response = Response(_body(exc.code, exc.message, exc.details), status=status_for(exc))
        if isinstance(exc, Limited) and exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, RequestDataTooBig):  # Django refuses the body before DRF parses it: the documented 413
        limit = config().max_request_bytes
        return Response(_body("request_too_large", f"request body larger than {limit} bytes",
                              {"max_bytes": limit}), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=getattr(exc, "message_dict", None) or exc.messages)

    response = exception_handler(exc, context)
    if response is None:
        return None

    if isinstance(exc, exceptions.ValidationError):
        code, details = "invalid", exc.detail
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else "error"
        details = None
    response.data = _body(code, _message(getattr(exc, "detail", str(exc))), details)
    return response
