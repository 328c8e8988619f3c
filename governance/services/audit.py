"""The audit trail: append-only events for every write and read (actor, scope, reason, source ids), chained.

Each project's events form a hash chain (events without a project form one more): appending takes a transaction
advisory lock on the chain, numbers the events after the chain's head and sets ``hash = HMAC(RECMEM_AUDIT_KEY,
content + seq + previous hash)``. The lock is held until the caller's transaction commits, so appends to one
project's chain are serialised (appends to different projects are not). ``governance.selectors.audit_chain_verify``
walks a chain back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
from collections.abc import Iterable, Sequence
from datetime import UTC
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import Agent, Project
from core.config import config
from governance.models import AuditCheckpoint, AuditEvent, AuditObject


def _audit_row(*, action: str, object_type: AuditObject | str, object_id: Any = "", project: Project | None = None,
               project_id: Any = None, actor_agent: Agent | None = None, actor_user=None, actor_label: str = "",
               scope: str = "", reason: str = "", source_ids: Iterable[Any] = (), batch=None,
               data: dict | None = None) -> AuditEvent:
    if object_type not in AuditObject.values:
        raise ValueError(f"audit: unknown object type {object_type!r} (add it to AuditObject)")
    return AuditEvent(
        action=action, object_type=object_type, object_id=str(object_id or ""),
        project_id=project.pk if project is not None else project_id,
        actor_agent=actor_agent, actor_user=actor_user, actor_label=actor_label, scope=scope, reason=reason[:300],
        reason_digest=reason_digest(reason[:300]), source_ids=[str(s) for s in source_ids], batch=batch,
        data=data or {},
    )


def reason_digest(reason: str, key: str | None = None) -> str:
    """What the chain's hash covers of a reason: its HMAC under the audit key ("" for no reason). The clear reason
    (agent input: an edit reason, a search query) can then be redacted by a purge and the chain still verifies."""
    if not reason:
        return ""
    message = b"reason\x1f" + reason.encode("utf-8", "surrogatepass")
    return hmac.new((key or config().governance.audit_key).encode(), message, hashlib.sha256).hexdigest()


# --- the chain -----------------------------------------------------------------------------------------------

def _number(value: int | float) -> dict[str, str]:
    if isinstance(value, float) and not math.isfinite(value):
        # jsonb has no NaN or Infinity: such a value cannot be stored, so it must never reach the chain
        raise ValueError("audit data: NaN and Infinity are not JSON numbers")
    if value == 0:
        return {"#": "0"}  # -0 and -0.0: jsonb stores 0
    return {"#": format(Decimal(repr(value) if isinstance(value, float) else value).normalize(), "f")}


def _key(key: Any) -> str:
    """A key as json.dumps writes it (True → "true", None → "null")."""
    return key if isinstance(key, str) else json.dumps(key) if isinstance(key, bool | int | float | None) else str(key)


def _canonical(value: Any) -> Any:
    """JSON as PostgreSQL's jsonb gives it back: numbers as normalised decimals (jsonb turns 1e16 into
    10000000000000000, 1.0 stays 1.0 and -0.0 becomes 0), tagged so that the number 1 and the string "1" differ.
    The same value in, the same form out, before and after the database round trip."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, dict):
        return {_key(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return str(value)


def event_content(event: AuditEvent) -> dict[str, Any]:
    """What the hash covers: every field but the id and the hash itself."""
    return {
        "project": str(event.project_id or ""), "seq": event.seq, "prev": event.prev_hash,
        "actor_agent": str(event.actor_agent_id or ""), "actor_user": str(event.actor_user_id or ""),
        "actor_label": event.actor_label, "action": event.action, "object_type": event.object_type,
        "object_id": event.object_id, "scope": event.scope,
        # events written before reasons were digested hash their clear reason
        # (and the historical model of an older migration has no digest at all)
        "reason": f"#{digest}" if (digest := getattr(event, "reason_digest", "")) else event.reason,
        "source_ids": _canonical(event.source_ids), "batch": str(event.batch_id or ""),
        "data": _canonical(event.data), "created_at": event.created_at.astimezone(UTC).isoformat(),
    }


def event_hash(event: AuditEvent, key: str | None = None) -> str:
    payload = json.dumps(event_content(event), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new((key or config().governance.audit_key).encode(), payload.encode("utf-8", "surrogatepass"),
                    hashlib.sha256).hexdigest()


def chain_of(project_id: Any, model=AuditEvent):
    """One chain's events (``project_id`` None: the events without a project)."""
    qs = model.objects.all()
    return qs.filter(project__isnull=True) if project_id is None else qs.filter(project_id=project_id)


def _lock_chain(project_id: Any) -> None:
    digest = hashlib.sha256(f"recmem-audit:{project_id or ''}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)])


def chain_key(project_id: Any) -> str:
    return str(project_id or "")


def checkpoint_signature(*, chain: str, length: int, head_hash: str, key: str | None = None) -> str:
    message = f"recmem-audit-checkpoint\n{chain}\n{length}\n{head_hash}".encode()
    return hmac.new((key or config().governance.audit_key).encode(), message, hashlib.sha256).hexdigest()


def _head(project_id: Any) -> tuple[int, str]:
    """The chain's head: its checkpoint's (the anchor wins over the events, so appends after a deleted tail leave
    the gap visible instead of renumbering over it), else the newest event's, else empty."""
    checkpoint = AuditCheckpoint.objects.filter(chain=chain_key(project_id)).values_list("length", "head_hash")
    return (checkpoint.first() or chain_of(project_id).order_by("-seq").values_list("seq", "hash").first()
            or (0, ""))


def _checkpoint(project_id: Any, length: int, head_hash: str, key: str) -> None:
    chain = chain_key(project_id)
    AuditCheckpoint.objects.update_or_create(chain=chain, defaults={
        "length": length, "head_hash": head_hash, "updated_at": timezone.now(),
        "signature": checkpoint_signature(chain=chain, length=length, head_hash=head_hash, key=key)})


def _chain(rows: list[AuditEvent]) -> None:
    """Number and hash ``rows`` after their chains' heads and move the chains' checkpoints (caller holds a
    transaction: the checkpoint commits with the events)."""
    key = config().governance.audit_key
    by_chain: dict[Any, list[AuditEvent]] = {}
    for row in rows:
        by_chain.setdefault(row.project_id, []).append(row)
    for project_id in sorted(by_chain, key=lambda p: str(p or "")):  # one lock order: no deadlock
        _lock_chain(project_id)
        seq, prev = _head(project_id)
        for row in by_chain[project_id]:
            seq += 1
            row.seq, row.prev_hash = seq, prev
            row.hash = prev = event_hash(row, key)
        _checkpoint(project_id, seq, prev, key)


@transaction.atomic
def audit_record(**fields: Any) -> AuditEvent:
    """Append one audit event (see AuditEvent for the fields). Audit rows are never updated or deleted."""
    event = _audit_row(**fields)
    _chain([event])
    event.save()
    return event


@transaction.atomic
def audit_record_many(events: Sequence[dict[str, Any]]) -> list[AuditEvent]:
    """Append many audit events in one statement (bulk ingest and search)."""
    rows = [_audit_row(**e) for e in events]
    _chain(rows)
    return AuditEvent.objects.bulk_create(rows)


@transaction.atomic
def audit_reasons_redact(*, project: Project, terms: Sequence[str], replacement: str = "[purged]") -> int:
    """A subject purge's part in the audit trail: every reason (an edit reason, a stored search query) of the
    project's events that mentions one of ``terms`` has them replaced by ``replacement`` and is marked purged. The
    chain's hash covers the reason's digest, not the reason, so the chain still verifies; the event itself, its
    actor, time and action stay. (Events written before reasons were digested keep their reason: redacting it would
    break their hash.)"""
    terms = [t for t in terms if t]
    if not terms:
        return 0
    match = Q()
    for term in terms:
        match |= Q(reason__icontains=term)
    rows = list(AuditEvent.objects.filter(project=project).exclude(reason_digest="").filter(match))
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    for row in rows:
        row.reason = pattern.sub(replacement, row.reason)[:300]
        row.reason_purged = True
    AuditEvent.objects.bulk_update(rows, ["reason", "reason_purged"])
    return len(rows)


def audit_chain_rebuild(*, project_id: Any, model=AuditEvent) -> int:
    """(Re)number and hash a whole chain in (created_at, id) order — only for the migration that introduced the
    chain (``model``: its historical model): on a live chain it would launder tampering."""
    rows = list(chain_of(project_id, model).order_by("created_at", "id"))
    seq, prev = 0, ""
    key = config().governance.audit_key
    for row in rows:
        seq += 1
        row.seq, row.prev_hash = seq, prev
        row.hash = prev = event_hash(row, key)
    model.objects.bulk_update(rows, ["seq", "prev_hash", "hash"], batch_size=1000)
    return len(rows)


def audit_checkpoints_create(*, checkpoint_model=AuditCheckpoint, event_model=AuditEvent) -> int:
    """Anchor every chain at its current head — only for the migration that introduced the checkpoints (on a live
    database it would accept a truncated chain as it is)."""
    key = config().governance.audit_key
    heads = {}
    for project_id, seq, hash_ in event_model.objects.order_by("project_id", "seq").values_list(
            "project_id", "seq", "hash"):
        heads[chain_key(project_id)] = (seq, hash_)
    checkpoint_model.objects.bulk_create([
        checkpoint_model(chain=chain, length=seq, head_hash=hash_,
                         signature=checkpoint_signature(chain=chain, length=seq, head_hash=hash_, key=key))
        for chain, (seq, hash_) in heads.items()])
    return len(heads)
