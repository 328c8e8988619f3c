"""Versions of episodes and experiences: the snapshot written before a change and the restore that reads it.

Both sides of the format live here, so a field added to the snapshot is restored by the same hand.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory.models import Episode, Experience, MemoryVersion

# Fields kept as ISO strings in a snapshot; foreign keys kept as "<name>" -> "<name>_id".
_DATETIME_FIELDS = ("valid_from", "valid_to", "started_at", "ended_at")
_FK_FIELDS = ("superseded_by", "module")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def memory_snapshot(obj: Episode | Experience) -> dict[str, Any]:
    """The restorable state of an episode or experience."""
    if isinstance(obj, Episode):
        return {"title": obj.title, "narrative": obj.narrative, "status": obj.status, "version": obj.version,
                "embedding": [float(x) for x in obj.embedding], "started_at": _iso(obj.started_at),
                "ended_at": _iso(obj.ended_at)}
    return {"type": obj.type, "subject": obj.subject, "statement": obj.statement, "status": obj.status,
            "confidence": obj.confidence, "version": obj.version, "superseded_by": str(obj.superseded_by_id or ""),
            "embedding": [float(x) for x in obj.embedding], "scope": obj.scope, "module": str(obj.module_id or ""),
            "valid_from": _iso(obj.valid_from), "valid_to": _iso(obj.valid_to),
            "informativeness": obj.informativeness}


def memory_restore(obj: Episode | Experience, snapshot: dict[str, Any]) -> None:
    """Set ``obj``'s fields back to ``snapshot`` (not saved; the version number moves on, never back)."""
    if isinstance(obj, Experience) and "valid_to" not in snapshot:
        obj.valid_to = None  # a snapshot older than the field: the item had no end then
    for key, value in snapshot.items():
        if key in _FK_FIELDS:
            setattr(obj, f"{key}_id", value or None)
        elif key in _DATETIME_FIELDS:
            setattr(obj, key, datetime.fromisoformat(value) if value else None)
        elif key != "version":
            setattr(obj, key, value)


def memory_version_save(*, obj: Episode | Experience, batch, reason: str) -> MemoryVersion:
    """Keep the state of an episode/experience before it changes (rollback and edit history use it)."""
    kwargs = {"episode": obj} if isinstance(obj, Episode) else {"experience": obj}
    return MemoryVersion.objects.create(version=obj.version, snapshot=memory_snapshot(obj), batch=batch,
                                        reason=reason, **kwargs)
