"""The audit trail: append-only events for every write and read (actor, scope, reason, source ids)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from agents.models import Agent, Project
from governance.models import AuditEvent


def _audit_row(*, action: str, object_type: str, object_id: Any = "", project: Project | None = None,
               project_id: Any = None, actor_agent: Agent | None = None, actor_user=None, actor_label: str = "",
               scope: str = "", reason: str = "", source_ids: Iterable[Any] = (), batch=None,
               data: dict | None = None) -> AuditEvent:
    return AuditEvent(
        action=action, object_type=object_type, object_id=str(object_id or ""),
        project_id=project.pk if project is not None else project_id,
        actor_agent=actor_agent, actor_user=actor_user, actor_label=actor_label, scope=scope, reason=reason[:300],
        source_ids=[str(s) for s in source_ids], batch=batch, data=data or {},
    )


def audit_record(**fields: Any) -> AuditEvent:
    """Append one audit event (see AuditEvent for the fields). Audit rows are never updated or deleted."""
    event = _audit_row(**fields)
    event.save()
    return event


def audit_record_many(events: Sequence[dict[str, Any]]) -> list[AuditEvent]:
    """Append many audit events in one statement (bulk ingest and search)."""
    return AuditEvent.objects.bulk_create([_audit_row(**e) for e in events])
