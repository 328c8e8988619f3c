"""One machine-readable error body for every API error, and the one place where domain errors meet HTTP.

``{"error": {"code": "...", "message": "...", "details": {...}}}`` with the HTTP status of the error's kind.

An error body never repeats what the request sent (a rejected ``types: ["ghp_…"]`` must not come back in clear: an error
body reaches logs and clients that the masking never saw): messages that quote input are replaced by generic ones, and
every submitted value is scrubbed from the body (:func:`scrub`).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
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


# DRF messages that quote the rejected input ('"ghp_…" is not a valid choice.'): replaced by the same message
# without it. Whatever else might echo input is caught by the scrub below.
_GENERIC_MESSAGES = {
    "invalid_choice": "not a valid choice",
    "does_not_exist": "object does not exist",
    "invalid_pk_value": "object does not exist",
    "incorrect_type": "incorrect type",
    "no_match": "no matching object",
}
# A body key (outside metadata) or query parameter name of this shape is a field name, not a value (kept in errors).
_FIELD_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")
REDACTED = "[value]"
MIN_SCRUBBED_CHARS = 4


def _generic(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {k: _generic(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_generic(v) for v in detail]
    code = getattr(detail, "code", None)
    if code in _GENERIC_MESSAGES:
        return exceptions.ErrorDetail(_GENERIC_MESSAGES[code], code=code)
    return detail


def submitted_values(request: Any, path_kwargs: dict | None = None) -> list[str]:
    """Every value the request carried — body leaves of every JSON type, every key inside a ``metadata`` object,
    other keys and query names that are not field-shaped, query values, path parameters — longest first. Field
    names (``user``, ``assistant`` of an exchange) stay, so an error can still say which field is wrong."""
    found: set[str] = set()

    def walk(value: Any, free: bool) -> None:  # free: inside metadata, where keys are the agent's data
        if isinstance(value, dict):
            for key, item in value.items():
                if free or not _FIELD_NAME_RE.fullmatch(str(key)):
                    found.add(str(key))
                walk(item, free or key == "metadata")
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item, free)
        elif isinstance(value, str):
            found.add(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            found.add(str(value))

    if request is not None:
        walk(getattr(request, "_full_data", None), False)  # the parsed body, if DRF parsed one (never re-parsed here)
        query = getattr(request, "query_params", None) or getattr(request, "GET", None)
        if query is not None:
            for key, values in query.lists():
                if not _FIELD_NAME_RE.fullmatch(key):
                    found.add(key)
                found.update(values)
    for value in (path_kwargs or {}).values():
        found.add(str(value))
    return sorted((v for v in found if len(v) >= MIN_SCRUBBED_CHARS), key=len, reverse=True)


def scrub(value: Any, needles: list[str], *, names: bool = True) -> Any:
    """``value`` (an error body) with every submitted value replaced by ``[value]``: errors never repeat input. A
    field-shaped key is a field's name and stays (an enum value may spell a field's name: ``source: "tool"`` and the
    field ``tool``), except inside ``metadata``, whose keys are the agent's data."""
    if not needles:
        return value
    if isinstance(value, dict):
        return {(str(k) if names and _FIELD_NAME_RE.fullmatch(str(k)) else scrub(str(k), needles)):
                scrub(v, needles, names=names and k != "metadata") for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, needles, names=names) for v in value]
    if isinstance(value, str):
        out = value
        for needle in needles:
            if needle in out:
                out = out.replace(needle, REDACTED)
        if out is not value and isinstance(value, exceptions.ErrorDetail):
            return exceptions.ErrorDetail(out, code=value.code)
        return out
    return value


DATABASE_RETRY_AFTER = 5  # seconds: the database is restarting or unreachable, not broken


def database_unavailable() -> Response:
    """503 while the database cannot be reached (restart, failover, network): a state to wait out and retry, not a
    server error; nothing of the request was written (its transaction did not commit)."""
    response = Response(_body("database_unavailable", "the database is unavailable; retry shortly", None),
                        status=status.HTTP_503_SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    response = _handle(exc, context)
    if response is not None:
        response.data = scrub(response.data, submitted_values(context.get("request"), context.get("kwargs")))
    return response


def _handle(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ApplicationError):
        response = Response(_body(exc.code, exc.message, exc.details), status=status_for(exc))
        if isinstance(exc, Limited) and exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, RequestDataTooBig):  # Django refuses the body before DRF parses it: the documented 413
        limit = config().limits.max_request_bytes
        return Response(_body("request_too_large", f"request body larger than {limit} bytes",
                              {"max_bytes": limit}), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, OperationalError | InterfaceError):  # unreachable or restarting, not a bug of ours
        return database_unavailable()
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
        code, details = "invalid", _generic(exc.detail)
        exc.detail = details
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else "error"
        details = None
    response.data = _body(code, _message(getattr(exc, "detail", str(exc))), details)
    return response
