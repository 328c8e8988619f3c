"""One domain error for every service: :class:`ApplicationError` with a machine-readable ``code``.

Services know nothing about HTTP. The kind of failure is the class (invalid input, not allowed, not found,
conflict, too large, limited); ``recmem_site.exceptions`` maps each class to its status code, so a new service
error needs no change there. ``message`` is safe to show to the caller; it must never repeat submitted values.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """Bad input or a broken rule of the domain (the default kind)."""

    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.details = details


class NotAllowed(ApplicationError):
    """The caller is known but may not do this (a missing role or permission, a rule that only review changes)."""

    default_code = "not_allowed"


class NotFound(ApplicationError):
    """The object does not exist for this caller (also what a foreign object looks like)."""

    default_code = "not_found"


class Conflict(ApplicationError):
    """The request contradicts the current state (a closed session, a duplicate, an item already decided)."""

    default_code = "conflict"


class TooLarge(ApplicationError):
    """The request asks for more than the documented limits allow."""

    default_code = "too_large"


class Limited(ApplicationError):
    """A rate limit or quota is reached; ``retry_after`` (seconds) says when trying again can succeed."""

    default_code = "limited"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None, retry_after: int | None = None):
        super().__init__(message, code=code, details=details)
        self.retry_after = retry_after
