"""Typed exceptions: one class per HTTP status the API documents, built from its error body.

Every API error answers ``{"error": {"code": "...", "message": "...", "details": ...}}``; the exception carries
``status_code``, ``code`` (machine-readable: ``missing_role``, ``duplicate_session``, ``text_too_long``, …),
``message`` and ``details``. Network failures and timeouts are :class:`APIConnectionError` / :class:`APITimeoutError`.
"""

from __future__ import annotations

from typing import Any

import httpx


class RecMemError(Exception):
    """Base of every exception this client raises."""


class APIConnectionError(RecMemError):
    """The request did not get an answer (connection refused or reset, DNS, TLS), after every retry."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request


class APITimeoutError(APIConnectionError):
    """No answer within the client's timeout, after every retry."""


class APIStatusError(RecMemError):
    """The server answered with an error status."""

    status_code: int = 0

    def __init__(self, *, status_code: int, code: str, message: str, details: Any = None,
                 response: httpx.Response | None = None) -> None:
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details
        self.response = response


class BadRequestError(APIStatusError):
    """400: the input was refused (``details`` names the fields); nothing was changed."""


class AuthenticationError(APIStatusError):
    """401: missing, malformed, unknown, revoked or expired API key."""


class PermissionDeniedError(APIStatusError):
    """403: the key's agent lacks the role this endpoint needs (``code`` ``missing_role``) or may not do this."""


class NotFoundError(APIStatusError):
    """404: no such object, or one this agent may not see (foreign objects answer 404 too)."""


class ConflictError(APIStatusError):
    """409: e.g. a closed session, a duplicate ``external_id``, or an Idempotency-Key reused with another body."""


class PayloadTooLargeError(APIStatusError):
    """413: too many exchanges, a text or a request over the server's limits."""


class UnsupportedMediaTypeError(APIStatusError):
    """415: the body was not JSON."""


class RateLimitError(APIStatusError):
    """429: too many requests; ``retry_after`` is the server's ``Retry-After`` in seconds (or None)."""

    @property
    def retry_after(self) -> float | None:
        return retry_after_seconds(self.response) if self.response is not None else None


class ServerError(APIStatusError):
    """5xx."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError,
    409: ConflictError, 413: PayloadTooLargeError, 415: UnsupportedMediaTypeError, 429: RateLimitError,
}


def error_from_response(response: httpx.Response) -> APIStatusError:
    """The typed exception for an error response; a body that is not the documented one is kept as the message."""
    status = response.status_code
    code, message, details = "error", response.reason_phrase or f"HTTP {status}", None
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        code = str(error.get("code") or code)
        message = str(error.get("message") or message)
        details = error.get("details")
    elif response.text:
        message = response.text[:500]
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIStatusError)
    return cls(status_code=status, code=code, message=message, details=details, response=response)


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` as seconds (delta-seconds or an HTTP date), or None."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from datetime import datetime, timezone

    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())  # noqa: UP017 - Python 3.10 too
