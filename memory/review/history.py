"""An item's history as an auditor reads it: one step per change — who (reviewer, agent, consolidation batch or the
system), when, why, a word diff of the text and the fields that moved (scope, confidence, status, type) — built from
the version snapshots (memory/review/versions.py) and the audit events of the item. Vectors are never shown."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from agents.models import Module
from governance.models import AuditEvent, AuditObject
from memory.models import Episode, Experience, MemoryVersion
from memory.review.selectors import word_diff
from memory.review.versions import memory_snapshot

# A version and the audit event of the same change are written in one transaction; their clocks differ by the time
# between the two inserts, never by seconds.
_SAME_CHANGE = timedelta(seconds=5)
_TRACKED = ("scope", "module", "type", "status", "confidence", "superseded_by", "valid_from", "valid_to",
            "subject")
_TEXT = {"experience": "statement", "episode": "narrative"}


@dataclass
class HistoryStep:
    version: int  # the version this step leaves behind
    at: datetime
    who: str
    why: str
    diff: list[tuple[str, str]] = field(default_factory=list)  # word diff of the statement / narrative
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # (field, before, after)


def _who(event: AuditEvent | None, version: MemoryVersion) -> str:
    if event is not None:
        if event.actor_user_id:
            return f"reviewer {event.actor_user}"
        if event.actor_agent_id:
            return f"agent {event.actor_agent}"
        if event.actor_label:
            return event.actor_label
    if version.batch_id:
        return f"consolidation batch {str(version.batch_id)[:8]}"
    return "system"


def _why(event: AuditEvent | None, version: MemoryVersion) -> str:
    # The audit reason is what a person typed ("duplicate of the deploy rule"); the version's own reason is the kind
    # of change ("edit"). A purged reason stays purged here too.
    if event is not None and event.reason and not event.reason_purged:
        return f"{version.reason}: {event.reason}" if event.reason != version.reason else event.reason
    return version.reason


def _shown(value: Any) -> str:
    if value in (None, ""):
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _event_for(version: MemoryVersion, events: list[AuditEvent]) -> AuditEvent | None:
    """The audit event of the change that wrote ``version``: same batch if it has one; else the first one written
    at or after it (a change saves the version, then audits), the nearest in time failing that. (The nearest alone
    gave two changes a millisecond apart each other's event on a loaded machine: an edit then a delete showed the
    edit's author and reason twice.)"""
    near = [e for e in events if abs(e.created_at - version.created_at) <= _SAME_CHANGE]
    if version.batch_id:
        near = [e for e in near if e.batch_id == version.batch_id] or near
    after = [e for e in near if e.created_at >= version.created_at]
    if after:
        return min(after, key=lambda e: e.created_at)
    return min(near, key=lambda e: abs(e.created_at - version.created_at), default=None)


def item_history(*, obj: Episode | Experience, limit: int = 50) -> list[HistoryStep]:
    """The newest ``limit`` changes of ``obj``, newest first."""
    kind = "experience" if isinstance(obj, Experience) else "episode"
    versions = list(MemoryVersion.objects.filter(**{kind: obj}).select_related("batch")
                    .order_by("-version", "-created_at")[:limit])
    if not versions:
        return []
    oldest = min(v.created_at for v in versions)
    object_type = AuditObject.EXPERIENCE if kind == "experience" else AuditObject.EPISODE
    events = list(AuditEvent.objects.filter(object_type=object_type, object_id=str(obj.pk),
                                            created_at__gte=oldest - _SAME_CHANGE)
                  .exclude(action=AuditEvent.Action.READ).select_related("actor_user", "actor_agent"))
    module_ids = {v.snapshot.get("module") for v in versions if (v.snapshot or {}).get("module")}
    module_names = {str(pk): name for pk, name in Module.objects.filter(pk__in=module_ids).values_list("pk", "name")}
    # Each version is the state *before* a change; the state after it is the next version's snapshot, or the item
    # as it is now for the newest one.
    after = memory_snapshot(obj)
    steps: list[HistoryStep] = []
    for version in versions:
        before = version.snapshot or {}
        event = _event_for(version, events)
        text = _TEXT[kind]
        step = HistoryStep(version=version.version, at=version.created_at, who=_who(event, version),
                           why=_why(event, version))
        if before.get(text, "") != after.get(text, ""):
            step.diff = word_diff(before.get(text, "") or "", after.get(text, "") or "")
        if kind == "episode" and before.get("title") != after.get("title"):
            step.changes.append(("title", _shown(before.get("title")), _shown(after.get("title"))))
        for name in _TRACKED:
            old, new = before.get(name), after.get(name)
            if name in before and name in after and _shown(old) != _shown(new):
                if name == "module":
                    old, new = module_names.get(old, old), module_names.get(new, new)
                step.changes.append((name, _shown(old), _shown(new)))
        steps.append(step)
        after = before
    return steps
