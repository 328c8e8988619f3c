"""The ``Idempotency-Key`` header on every POST and DELETE of the API (README: "Retries and timeouts").

A client that timed out, lost the connection or got a 5xx retries the same request with the same key: it gets the
first response (status and body, with ``Idempotent-Replayed: true``) and nothing is written twice. The same key with
another body (or path) answers 409; a malformed key 400. Keys are per agent and kept RECMEM_IDEMPOTENCY_HOURS.

The request runs in one transaction with the key's row (governance/services/idempotency.py), so the key and the
request's writes commit together. Only final answers are kept: a 5xx, a 429 (rate limit, quota) or another answer
a retry can change rolls both back, and the retry runs the request again.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse

from agents.selectors import KeyRejected, api_key_authenticate
from core.errors import ApplicationError
from governance.services.idempotency import (
    KEY_RULE,
    idempotency_claim,
    idempotency_complete,
    idempotency_fingerprint,
    idempotency_key_check,
)
from recmem_site.exceptions import database_unavailable, status_for
from recmem_site.log_redaction import redact_target
from recmem_site.parsers import json_body_precheck

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
API_PREFIX = "/api/v1/"
HEADER_DOC = (
    "Optional. Send a new random key (e.g. a UUID) with each new request and the same key when you retry it after a "
    "timeout or an error: the first response is returned again and nothing is written twice. The same key with "
    f"another body answers 409. {KEY_RULE}; kept per agent for RECMEM_IDEMPOTENCY_HOURS (24 h by default)."
)


# DELETE too: a forget sent again must answer as the first time did, not 404 for what it removed.
METHODS = {"POST", "DELETE"}
# Answers that a retry of the same request can change: a timeout, "too early", a rate limit or quota (429, with
# Retry-After), and every 5xx (503 database down included).
NOT_FINAL = {408, 425, 429}


def _final(response: HttpResponse) -> bool:
    """Whether ``response`` is the answer to keep for the key: 2xx, and the 4xx a retry cannot change."""
    code = response.status_code
    return code < 500 and code not in NOT_FINAL and not getattr(response, "streaming", False)


def _error(exc: ApplicationError) -> JsonResponse:
    body = {"error": {"code": exc.code, "message": exc.message}}
    return JsonResponse(body, status=status_for(exc))


def _agent(request: HttpRequest):
    """The agent of a valid Bearer key, or None (the view then answers 401 itself)."""
    parts = request.headers.get("Authorization", "").split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    try:
        return api_key_authenticate(raw_key=parts[1]).agent
    except KeyRejected:
        return None


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if request.method not in METHODS or key is None or not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        try:
            idempotency_key_check(key)
        except ApplicationError as exc:
            return _error(exc)
        try:
            agent = _agent(request)
            if agent is None:
                return self.get_response(request)
            return self._once(request, agent=agent, key=key)
        except (OperationalError, InterfaceError):  # the database is down: the 503 a client retries (same key)
            response = database_unavailable()
            return JsonResponse(response.data, status=response.status_code,
                                headers={"Retry-After": response["Retry-After"]})

    def _once(self, request: HttpRequest, *, agent, key: str) -> HttpResponse:
        try:
            json_body_precheck(request.body)  # before the fingerprint parses it: a hostile body is refused cheaply
        except ApplicationError as exc:
            return _error(exc)
        fingerprint = idempotency_fingerprint(method=request.method, path=request.path, body=request.body)
        with transaction.atomic():
            try:
                # the path as the access log writes it: ids an agent sent in it are agent input
                record = idempotency_claim(agent=agent, key=key, fingerprint=fingerprint, method=request.method,
                                           path=redact_target(request.path))
            except ApplicationError as exc:
                return _error(exc)
            if record.status_code:
                response = HttpResponse(record.response_body.encode(), status=record.status_code,
                                        content_type=record.content_type or "application/json")
                response[REPLAYED] = "true"
                return response
            response = self.get_response(request)
            if not _final(response):
                # Nothing of a failed or refused-for-now request is kept (not even its key): the retry runs it again.
                transaction.set_rollback(True)
                return response
            idempotency_complete(record=record, status_code=response.status_code,
                                 content_type=response.get("Content-Type", ""), body=response.content)
        return response


def openapi_idempotency_header(result, generator, request, public):
    """drf-spectacular postprocessing hook: document the header on every POST operation."""
    parameter = {"in": "header", "name": HEADER, "required": False, "description": HEADER_DOC,
                 "schema": {"type": "string", "maxLength": 128, "pattern": "^[A-Za-z0-9_.:\\-]{1,128}$"}}
    for path, operations in result.get("paths", {}).items():
        for post in (operations.get(m) for m in ("post", "delete")):
            _document(post, path, parameter)
    return result


def _document(post: dict | None, path: str, parameter: dict) -> None:
    if post is not None and path.startswith(API_PREFIX):
        post.setdefault("parameters", [])
        if not any(p.get("name") == HEADER for p in post["parameters"]):
            post["parameters"].append(parameter)
        for status, response in post.get("responses", {}).items():
            if status.startswith("2"):
                response.setdefault("headers", {})[REPLAYED] = {
                    "description": "present (true) when this is the stored response of an earlier request "
                                   "with the same Idempotency-Key", "schema": {"type": "string"}}
        post.setdefault("responses", {}).setdefault("409", {
            "description": "the Idempotency-Key was used with another request",
            "content": {"application/json": {"schema": {"type": "object"}}}})

