"""Idempotency keys: a POST sent again with the same ``Idempotency-Key`` gets the first response and writes nothing.

The key row is written in the same transaction as whatever the request writes (recmem_site/idempotency.py wraps the
request in it): the key and the write commit together or not at all, so a retry after a crash, a timeout or a lost
reply never writes twice, and a concurrent request with the same key waits on the key's unique index until the
first one has committed, then replays its response.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from agents.models import Agent
from core.config import config
from core.errors import ApplicationError, Conflict
from governance.models import IdempotencyKey

KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
KEY_RULE = "1 to 128 characters from A-Z a-z 0-9 _ . : -"


def idempotency_key_check(key: str) -> str:
    if not KEY_PATTERN.fullmatch(key):
        raise ApplicationError(f"Idempotency-Key must be {KEY_RULE}", code="invalid_idempotency_key")
    return key


def idempotency_fingerprint(*, method: str, path: str, body: bytes) -> str:
    """Method, path and body; a JSON body is compared by value (key order and spacing do not matter)."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, UnicodeDecodeError):
        canonical = body
    data = b"".join(len(part).to_bytes(8, "big") + part for part in (method.upper().encode(), path.encode(), canonical))
    return salted_hmac("recmem.idempotency.fingerprint", data, algorithm="sha256").hexdigest()


def _stored(key: str, agent: Agent | None = None) -> str:
    """What is kept of a key: an HMAC under the deployment's secret (DJANGO_SECRET_KEY, held outside the database),
    salted with the agent. A key is agent input like any other field (a prompt-injected agent could park a
    credential in it) and is only ever compared, so the clear value is never stored, and a dump alone cannot test
    guesses against the digests (a plain SHA-256 of a short value can be brute-forced)."""
    salt = str(agent.pk) if agent is not None else ""
    return salted_hmac("recmem.idempotency.key", f"{salt}\x1f{key}", algorithm="sha256").hexdigest()


def _expired_before():
    return timezone.now() - timedelta(hours=config().limits.idempotency_hours)


def idempotency_claim(*, agent: Agent, key: str, fingerprint: str, method: str, path: str) -> IdempotencyKey:
    """Claim ``key`` for this request, inside the caller's transaction.

    Returns the key's row: new (``status_code == 0``: run the request, then :func:`idempotency_complete`), or the
    completed first request's (replay it). A concurrent request with the same key blocks here until the first
    commits (then its response is returned) or rolls back (then this one runs). The same key with another method,
    path or body raises Conflict. An expired key is forgotten and claimed anew.
    """
    assert transaction.get_connection().in_atomic_block, "claim a key inside the request's transaction"
    idempotency_key_check(key)
    for _ in range(3):
        try:
            with transaction.atomic():
                return IdempotencyKey.objects.create(agent=agent, key=_stored(key, agent), fingerprint=fingerprint,
                                                     method=method, path=path[:500])
        except IntegrityError:
            pass
        existing = IdempotencyKey.objects.filter(agent=agent, key=_stored(key, agent)).first()
        if existing is None:  # the first request rolled back meanwhile: claim it again
            continue
        if existing.created_at < _expired_before():
            existing.delete()
            continue
        if existing.fingerprint != fingerprint:
            raise Conflict("this Idempotency-Key was used with another request (method, path or body); use a new "
                           "key for a new request", code="idempotency_key_reused")
        return existing
    raise Conflict("this Idempotency-Key is being claimed by concurrent requests; retry", code="idempotency_busy")


def idempotency_complete(*, record: IdempotencyKey, status_code: int, content_type: str, body: bytes) -> None:
    """Store the first response (same transaction as the request's writes)."""
    record.status_code = status_code
    record.content_type = content_type[:100]
    record.response_body = body.decode("utf-8", errors="replace")
    record.save(update_fields=["status_code", "content_type", "response_body"])


def idempotency_keys_purge() -> int:
    """Forget keys older than RECMEM_IDEMPOTENCY_HOURS (the reaper tick calls this)."""
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=_expired_before()).delete()
    return deleted
