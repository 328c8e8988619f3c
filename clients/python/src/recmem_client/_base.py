"""What the sync and async clients share: configuration, request preparation, the retry policy, response parsing."""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from recmem_client import __version__
from recmem_client._operations import Operation
from recmem_client.errors import APIConnectionError, APITimeoutError, error_from_response, retry_after_seconds
from recmem_client.models import Page, Request, Response

logger = logging.getLogger("recmem_client")

DEFAULT_URL = "http://localhost:8000"
IDEMPOTENCY_HEADER = "Idempotency-Key"
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=5.0)


@dataclass(frozen=True)
class RetryPolicy:
    """Retries with exponential backoff and full jitter.

    Retried: connection errors and timeouts (the request may or may not have reached the server: every retry of a
    write carries the same Idempotency-Key, so the server answers it with the first response instead of writing
    twice), the statuses in ``statuses`` (a 5xx rolled the request back; 429 honours ``Retry-After`` up to
    ``max_retry_after`` seconds), and 409s whose code is in ``conflict_codes`` (the same key still being claimed by
    an earlier attempt).
    """

    max_retries: int = 3
    backoff: float = 0.5
    backoff_max: float = 8.0
    max_retry_after: float = 60.0
    statuses: frozenset[int] = field(default_factory=lambda: frozenset({429, 500, 502, 503, 504}))
    conflict_codes: frozenset[str] = field(default_factory=lambda: frozenset({"idempotency_busy"}))

    def delay(self, attempt: int, response: httpx.Response | None = None) -> float | None:
        """Seconds to wait before retry ``attempt + 1``, or None when the server asks for longer than we wait."""
        if response is not None:
            asked = retry_after_seconds(response)
            if asked is not None:
                return asked if asked <= self.max_retry_after else None
        return random.uniform(0, min(self.backoff_max, self.backoff * (2 ** attempt)))


def normalise_base_url(url: str) -> str:
    """``http://host:8000``, ``http://host:8000/`` and ``http://host:8000/api/v1`` all name the same server."""
    url = url.rstrip("/")
    return url[: -len("/api/v1")] if url.endswith("/api/v1") else url


@dataclass
class Prepared:
    method: str
    url: str
    params: dict[str, str]
    json: dict[str, Any] | None
    headers: dict[str, str]


class BaseClient:
    def __init__(self, base_url: str | None, api_key: str | None, *, timeout: float | httpx.Timeout | None,
                 max_retries: int | None, retry: RetryPolicy | None, headers: dict[str, str] | None) -> None:
        self.base_url = normalise_base_url(base_url or os.environ.get("RECMEM_URL") or DEFAULT_URL)
        key = api_key if api_key is not None else os.environ.get("RECMEM_API_KEY", "")
        if not key:
            raise ValueError("an API key is needed: pass api_key=... or set RECMEM_API_KEY")
        self._api_key = key
        self.timeout = DEFAULT_TIMEOUT if timeout is None else (
            timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout, connect=min(5.0, timeout)))
        policy = retry or RetryPolicy()
        if max_retries is not None:
            policy = dataclasses.replace(policy, max_retries=max_retries)
        self.retry = policy
        self._headers = {
            "Authorization": f"Bearer {key}",
            "Accept": "application/json",
            "User-Agent": f"recmem-client/{__version__} httpx/{httpx.__version__}",
            **(headers or {}),
        }

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}(base_url={self.base_url!r}, key={self._api_key[:12]}…)"

    def _prepare(self, op: Operation, *, path: dict[str, Any] | None, query: dict[str, str] | None,
                 body: Request | None, idempotency_key: str | None) -> Prepared:
        headers: dict[str, str] = {}
        if op.writes:
            # One key per logical write; every retry of this call re-sends the same one.
            headers[IDEMPOTENCY_HEADER] = idempotency_key or str(uuid.uuid4())
        if op.request is not None and body is not None and not isinstance(body, op.request):
            raise TypeError(f"{op.id} takes a {op.request.__name__} body, not {type(body).__name__}")
        return Prepared(op.method, self.base_url + op.url(**(path or {})), query or {},
                        body.body() if body is not None else None, headers)

    @staticmethod
    def _parse(op: Operation, response: httpx.Response, *, ambiguous: bool) -> Any:
        if response.status_code >= 400:
            if op.method == "DELETE" and response.status_code in (404, 409) and ambiguous:
                # An earlier attempt may have deleted it before its answer was lost, so this one finds it gone (404)
                # or already deleted (409): gone is what was asked.
                logger.info("%s: %d after an unanswered attempt; treating as deleted", op.id, response.status_code)
                return None
            raise error_from_response(response)
        if op.accepted is not None and response.status_code == 202:
            return op.accepted.model_validate(response.json())
        if op.response is None or response.status_code == 204:
            return None
        data = response.json()
        if op.paginated:
            return _page(op.response, data)
        return op.response.model_validate(data)


class Attempts:
    """The retry policy applied to one logical call, outcome by outcome; the sync and async clients only send and
    sleep. Every attempt re-sends the same request, Idempotency-Key included."""

    def __init__(self, client: BaseClient, op: Operation, request: httpx.Request) -> None:
        self._client, self._op, self._request = client, op, request
        self._attempt = 0
        self._ambiguous = False  # an earlier attempt may have reached the server without its answer reaching us

    def after_response(self, response: httpx.Response) -> float | None:
        """Seconds to wait before the next attempt, or None when ``result(response)`` is final."""
        policy = self._client.retry
        if response.status_code == 409 and policy.conflict_codes:
            if error_from_response(response).code not in policy.conflict_codes:
                return None
        elif response.status_code not in policy.statuses:
            return None
        return self._next(response.status_code, response)

    def after_error(self, exc: httpx.TransportError) -> float:
        """Seconds to wait before the next attempt; raises the typed error when no attempt is left."""
        timeout = isinstance(exc, httpx.TimeoutException)
        self._ambiguous = self._ambiguous or not isinstance(exc, httpx.ConnectError)
        delay = self._next(type(exc).__name__, None)
        if delay is None:
            error = (APITimeoutError(f"{self._op.id}: no answer within the timeout ({exc})", request=self._request)
                     if timeout else
                     APIConnectionError(f"{self._op.id}: {type(exc).__name__}: {exc}", request=self._request))
            raise error from exc
        return delay

    def result(self, response: httpx.Response) -> Any:
        return self._client._parse(self._op, response, ambiguous=self._ambiguous)

    def _next(self, what: object, response: httpx.Response | None) -> float | None:
        if self._attempt >= self._client.retry.max_retries:
            return None
        delay = self._client.retry.delay(self._attempt, response)
        if delay is not None:
            self._attempt += 1
            logger.info("%s: attempt %d failed (%s); retrying in %.2fs", self._op.id, self._attempt, what, delay)
        return delay


def _page(item: type[Response], data: Any) -> Page[Any]:
    if isinstance(data, list):  # an unpaginated answer: one page holding everything
        return Page[item](count=len(data), next=None, previous=None, results=data)  # type: ignore[valid-type]
    return Page[item].model_validate(data)  # type: ignore[valid-type]


def list_query(filters: dict[str, Any], *, limit: int | None, offset: int | None) -> dict[str, Any]:
    return {**{k: v for k, v in filters.items() if v is not None}, "limit": limit, "offset": offset}


def given(**values: Any) -> dict[str, Any]:
    """The keyword arguments that were given (not None): what a request sends, the server's defaults for the rest."""
    return {k: v for k, v in values.items() if v is not None}
