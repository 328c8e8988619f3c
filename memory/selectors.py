"""Memory reads. Every read of a scoped row goes through ``.visible_to(agent)``: one place decides visibility."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from agents.models import Agent
from agents.visibility import Visibility, agent_visibility
from core.errors import NotFound
from governance.models import ConsolidationBatch
from memory.entities import Entity, EntityCount, entity_counts, entity_q
from memory.models import Episode, Exchange, Experience, MemoryStatus, Session
from memory.temporal import episode_as_of_q, exchange_as_of_q, experience_as_of_q, experience_current_q

# --- visible querysets ----------------------------------------------------------------------

def batches_visible(*, agent: Agent) -> QuerySet[ConsolidationBatch]:
    """An agent sees the consolidation batches that ran for it."""
    return ConsolidationBatch.objects.filter(project_id=agent.project_id, agent_id=agent.pk)


def _get_or_404(qs: QuerySet, pk: Any):
    try:
        uuid.UUID(str(pk))
    except ValueError:
        raise NotFound("not found") from None
    obj = qs.filter(pk=pk).first()
    if obj is None:
        raise NotFound("not found")
    return obj


def session_get(*, agent: Agent, session_id: Any) -> Session:
    """A session the agent may see, else 404 (also for another project's or another agent's personal one)."""
    return _get_or_404(Session.objects.visible_to(agent), session_id)


def session_get_owned(*, agent: Agent, session_id: Any) -> Session:
    """Only the owner writes to a session; others get 404 even when they may read it."""
    return _get_or_404(Session.objects.owned_by(agent), session_id)


def exchange_get(*, agent: Agent, exchange_id: Any) -> Exchange:
    return _get_or_404(Exchange.objects.visible_to(agent).select_related("session"), exchange_id)


# --- provenance: only the source ids the caller may see ------------------------------------------------------------
# An item's sources can be narrower than the item (a module rule approved from a personal item, data written before
# the scope rule). The serializers read only what these prefetches attach (``visible_sources``, ``visible_evidence``,
# ``visible_superseded_by``, ``visible_episode``), so an item fetched without them fails instead of leaking. They
# run on the rows returned only (a page, the search hits), never on the whole filtered table.

def _provenance_exchanges(visibility: Visibility) -> QuerySet[Exchange]:
    return (Exchange.objects.visible_to(visibility).only("id", "session_id", "occurred_at")
            .order_by("occurred_at", "turn_index"))


def episode_prefetches(visibility: Visibility) -> list[Prefetch]:
    return [Prefetch("sources", queryset=_provenance_exchanges(visibility), to_attr="visible_sources")]


def experience_prefetches(visibility: Visibility) -> list[Prefetch]:
    return [Prefetch("evidence", queryset=_provenance_exchanges(visibility), to_attr="visible_evidence"),
            Prefetch("superseded_by", queryset=Experience.objects.visible_to(visibility).only("id"),
                     to_attr="visible_superseded_by"),
            Prefetch("episode", queryset=Episode.objects.visible_to(visibility).only("id"), to_attr="visible_episode")]


def episodes_with_provenance(qs: QuerySet[Episode], visibility: Visibility) -> QuerySet[Episode]:
    return qs.prefetch_related(*episode_prefetches(visibility))


def experiences_with_provenance(qs: QuerySet[Experience], visibility: Visibility) -> QuerySet[Experience]:
    return qs.prefetch_related(*experience_prefetches(visibility))


def episode_get(*, agent: Agent, episode_id: Any) -> Episode:
    visibility = agent_visibility(agent=agent)
    return _get_or_404(episodes_with_provenance(Episode.objects.visible_to(visibility), visibility), episode_id)


def experience_get(*, agent: Agent, experience_id: Any) -> Experience:
    visibility = agent_visibility(agent=agent)
    return _get_or_404(experiences_with_provenance(Experience.objects.visible_to(visibility), visibility),
                       experience_id)


# What a batch summary lists, by the model its ids belong to (candidates are the agent's own).
_SUMMARY_MODELS = {"exchanges": Exchange, "episodes_created": Episode, "episodes_merged": Episode,
                   "experiences_created": Experience, "experiences_merged": Experience,
                   "experiences_superseded": Experience, "experiences_promoted": Experience}


def batch_get(*, agent: Agent, batch_id: Any) -> ConsolidationBatch:
    """A batch that ran for the agent, its summary (``visible_summary``) restricted to the ids the agent may see
    now (it may have left a module since, or the batch predates the scope rule)."""
    batch = _get_or_404(batches_visible(agent=agent).prefetch_related("calls"), batch_id)
    visibility = agent_visibility(agent=agent)
    summary = dict(batch.summary or {})
    for key, model in _SUMMARY_MODELS.items():
        ids = summary.get(key) or []  # written by consolidation itself: ids only
        if key in summary:
            visible = {str(pk) for pk in model.objects.visible_to(visibility).filter(pk__in=ids)
                       .values_list("pk", flat=True)} if ids else set()
            summary[key] = [i for i in ids if i in visible]
    batch.visible_summary = summary
    return batch


@dataclass
class ListFilters:
    status: str | None = None
    scope: str | None = None
    type: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    session: uuid.UUID | None = None
    state: str | None = None
    tag: str | None = None
    as_of: datetime | None = None  # what was current then (memory.temporal)
    entity: Entity | None = None  # only rows about it (memory.entities), already resolved


def _apply(qs: QuerySet, filters: ListFilters, *, exact: dict[str, str], since: str, until: str) -> QuerySet:
    """Equality filters (filter attribute → field) and a time window (``since`` on one field, ``until`` on another,
    so an episode overlapping the window matches)."""
    for attr, field_name in exact.items():
        value = getattr(filters, attr)
        if value:
            qs = qs.filter(**{field_name: value})
    if filters.since:
        qs = qs.filter(**{f"{since}__gte": filters.since})
    if filters.until:
        qs = qs.filter(**{f"{until}__lt": filters.until})
    return qs


def session_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Session]:
    qs = _apply(Session.objects.visible_to(agent), filters, exact={"status": "status", "scope": "scope"},
                since="started_at", until="started_at")
    return qs.order_by("-started_at", "id")


def _about(qs: QuerySet, filters: ListFilters, visibility: Visibility) -> QuerySet:
    return qs.filter(entity_q(qs.model, filters.entity, visibility)) if filters.entity is not None else qs


def exchange_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Exchange]:
    visibility = agent_visibility(agent=agent)
    qs = _apply(Exchange.objects.visible_to(visibility), filters,
                exact={"session": "session_id", "state": "state", "scope": "scope"},
                since="occurred_at", until="occurred_at")
    if filters.as_of:
        qs = qs.filter(exchange_as_of_q(filters.as_of))
    return _about(qs, filters, visibility).order_by("occurred_at", "session_id", "turn_index")


def episode_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Episode]:
    visibility = agent_visibility(agent=agent)
    qs = Episode.objects.visible_to(visibility)
    if filters.as_of:
        qs = qs.filter(episode_as_of_q(filters.as_of))
        if filters.status:
            qs = qs.filter(status=filters.status)
    else:
        qs = qs.filter(status=filters.status or MemoryStatus.ACTIVE)
    qs = _apply(qs, filters, exact={"scope": "scope"}, since="ended_at", until="started_at")
    return episodes_with_provenance(_about(qs, filters, visibility), visibility).order_by("-updated_at", "id")


def experience_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Experience]:
    """Active items that have not expired by default; ``as_of``: those current then (superseded or expired since
    included); another ``status``: those of that status."""
    visibility = agent_visibility(agent=agent)
    qs = _about(experiences_with_provenance(Experience.objects.visible_to(visibility), visibility), filters,
                visibility)
    if filters.as_of:
        qs = qs.filter(experience_as_of_q(filters.as_of))
        if filters.status:
            qs = qs.filter(status=filters.status)
    else:
        status = filters.status or MemoryStatus.ACTIVE
        qs = qs.filter(status=status)
        if status == MemoryStatus.ACTIVE:
            qs = qs.filter(experience_current_q(timezone.now()))
    if filters.type:
        qs = qs.filter(type=filters.type)
    if filters.tag:
        qs = qs.filter(tags__contains=[filters.tag.lower()])
    if filters.scope:
        qs = qs.filter(scope=filters.scope)
    if filters.since:
        qs = qs.filter(Q(valid_from__gte=filters.since) | Q(valid_from__isnull=True, created_at__gte=filters.since))
    if filters.until:
        qs = qs.filter(Q(valid_from__lt=filters.until) | Q(valid_from__isnull=True, created_at__lt=filters.until))
    return qs.order_by("-updated_at", "id")


def entity_list(*, agent: Agent, kind: str | None = None) -> list[EntityCount]:
    """The entities the agent's visible memory mentions, with counts over visible rows (memory.entities)."""
    return entity_counts(visibility=agent_visibility(agent=agent), now=timezone.now(), kind=kind)


def batch_list(*, agent: Agent, status: str | None = None) -> QuerySet[ConsolidationBatch]:
    qs = batches_visible(agent=agent)
    return qs.filter(status=status) if status else qs
