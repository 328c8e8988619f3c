"""Memory reads. Every read of a scoped row goes through ``.visible_to(agent)``: one place decides visibility."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from pgvector.django import CosineDistance

from agents.models import Agent
from agents.visibility import Visibility, agent_visibility
from core.config import config
from core.errors import NotFound
from governance.models import ConsolidationBatch, MetricDay
from memory.models import Episode, Exchange, Experience, MemoryStatus, Session

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


def exchange_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Exchange]:
    qs = _apply(Exchange.objects.visible_to(agent), filters,
                exact={"session": "session_id", "state": "state", "scope": "scope"},
                since="occurred_at", until="occurred_at")
    return qs.order_by("occurred_at", "session_id", "turn_index")


def episode_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Episode]:
    visibility = agent_visibility(agent=agent)
    qs = Episode.objects.visible_to(visibility).filter(status=filters.status or MemoryStatus.ACTIVE)
    qs = _apply(qs, filters, exact={"scope": "scope"}, since="ended_at", until="started_at")
    return episodes_with_provenance(qs, visibility).order_by("-updated_at", "id")


def experience_list(*, agent: Agent, filters: ListFilters) -> QuerySet[Experience]:
    visibility = agent_visibility(agent=agent)
    qs = experiences_with_provenance(Experience.objects.visible_to(visibility), visibility).filter(
        status=filters.status or MemoryStatus.ACTIVE)
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


def batch_list(*, agent: Agent, status: str | None = None) -> QuerySet[ConsolidationBatch]:
    qs = batches_visible(agent=agent)
    return qs.filter(status=status) if status else qs


# --- governance metrics ------------------------------------------------------------------------------------------

def metrics_list(*, project, since: date | None = None, until: date | None = None,
                 scope: str | None = None) -> QuerySet[MetricDay]:
    """The stored daily metric rows of ``project`` (oldest first), optionally within [since, until] and one scope."""
    qs = MetricDay.objects.filter(project=project)
    if since:
        qs = qs.filter(day__gte=since)
    if until:
        qs = qs.filter(day__lte=until)
    if scope:
        qs = qs.filter(scope=scope)
    return qs.order_by("day", "scope")


def metrics_latest(*, project) -> dict[str, MetricDay]:
    """The newest stored row of each scope of ``project`` (what /metrics and the dashboard show as "now")."""
    latest: dict[str, MetricDay] = {}
    for row in MetricDay.objects.filter(project=project).order_by("-day"):
        latest.setdefault(row.scope, row)
    return latest


# --- the reviewer's view of one review item ----------------------------------------------------------------------

def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """A word-level diff as (op, words) pairs, op in equal / delete / insert."""
    import difflib

    a, b = old.split(), new.split()
    parts: list[tuple[str, str]] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            parts.append(("delete", " ".join(a[a1:a2])))
        if op in ("insert", "replace"):
            parts.append(("insert", " ".join(b[b1:b2])))
        if op == "equal":
            parts.append(("equal", " ".join(a[a1:a2])))
    return parts


@dataclass
class ReviewDetails:
    agents: list[str]
    sessions: list[str]
    first_at: str | None
    last_at: str | None
    closest: dict | None  # {"id", "statement", "similarity", "diff"} above the cut-off, else None
    similar: list[dict]
    conflicts: list[Any]  # other review items of kind conflict on the same item
    previous: Any  # the earlier rejected proposal, when this one is asked again


def review_similar(*, experience: Experience, target, limit: int = 5) -> list[dict]:
    """Active items of scope ``target`` at least RECMEM_REVIEW_SIMILAR_MIN similar to ``experience``, nearest first:
    what a reviewer compares a proposal with (below the cut-off an item is not "similar", it is noise)."""
    cutoff = config().review_similar_min
    rows = (Experience.objects.in_scope(target).filter(status=MemoryStatus.ACTIVE).exclude(pk=experience.pk)
            .annotate(distance=CosineDistance("embedding", experience.embedding)).order_by("distance")[:limit])
    return [{"id": str(r.pk), "statement": r.statement, "type": r.type, "similarity": round(1 - float(r.distance), 3)}
            for r in rows if 1 - float(r.distance) >= cutoff]


def review_item_details(*, item) -> ReviewDetails:
    """What a reviewer needs to decide one item: who proposed it and when, the closest existing rule above the
    similarity cut-off (RECMEM_REVIEW_SIMILAR_MIN) with a word diff, open conflicts on the same item, and the
    earlier rejection it follows. Read live, so the comparison is with the rules as they are now."""
    from agents.visibility import ScopeKey
    from memory.models import ReviewItem

    evidence = item.evidence or []
    agents = sorted({e.get("agent") or e.get("agent_id") or "?" for e in evidence})
    sessions = sorted({e["session"] for e in evidence if e.get("session")})
    times = sorted(e["occurred_at"] for e in evidence if e.get("occurred_at"))
    if item.kind == ReviewItem.Kind.CONFLICT and item.other_experience is not None:
        other = item.other_experience
        closest = {"id": str(other.pk), "statement": other.statement, "similarity": None,
                   "diff": word_diff(other.statement, item.proposed_statement)}
        similar = []
    else:
        target = ScopeKey.for_scope(project_id=item.project_id, scope=item.proposed_scope,
                                    module_id=item.proposed_module_id)
        similar = review_similar(experience=item.experience, target=target)
        closest = ({**similar[0], "diff": word_diff(similar[0]["statement"], item.proposed_statement)}
                   if similar else None)
    conflicts = list(ReviewItem.objects.filter(kind=ReviewItem.Kind.CONFLICT)
                     .filter(Q(experience_id=item.experience_id) | Q(other_experience_id=item.experience_id))
                     .exclude(pk=item.pk).select_related("experience", "other_experience"))
    return ReviewDetails(agents=agents, sessions=sessions, first_at=times[0] if times else None,
                         last_at=times[-1] if times else None, closest=closest, similar=similar,
                         conflicts=conflicts, previous=item.previous)


def governance_figures() -> dict:
    """The figures of the dashboard's tiles and of /metrics, per project: pending reviews by kind, failed batches,
    the backlog, the validity queue, held exchanges and the newest metric rows; and the queued tasks."""
    from django.db.models import Count

    from agents.models import Project
    from memory.models import Candidate, ReviewItem, ValiditySample

    def per_project(qs, *fields):
        out: dict = {}
        for row in qs.values("project_id", *fields).annotate(n=Count("pk")):
            out[(row["project_id"], *(row[f] for f in fields))] = row["n"]
        return out

    pending = per_project(ReviewItem.objects.filter(status=ReviewItem.Status.PENDING), "kind")
    failed = per_project(ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.FAILED))
    backlog = per_project(Candidate.objects.filter(status=Candidate.Status.PENDING))
    validity = per_project(ValiditySample.objects.filter(verdict=ValiditySample.Verdict.PENDING))
    held = per_project(Exchange.objects.all_scopes_unscoped(why="dashboard counts across scopes").filter(
        state=Exchange.State.HELD))
    projects = []
    for p in Project.objects.order_by("name"):
        projects.append({
            "project": p, "name": p.name,
            "pending_promotions": pending.get((p.pk, ReviewItem.Kind.PROMOTION), 0),
            "pending_conflicts": pending.get((p.pk, ReviewItem.Kind.CONFLICT), 0),
            "failed_batches": failed.get((p.pk,), 0), "backlog": backlog.get((p.pk,), 0),
            "validity_pending": validity.get((p.pk,), 0), "held": held.get((p.pk,), 0),
            "latest": metrics_latest(project=p),
        })
    return {"projects": projects, "queued_tasks": _queued_tasks()}


def _queued_tasks() -> int:
    from django_q.brokers import get_broker

    try:
        return int(get_broker().queue_size() or 0)
    except Exception:  # a broker that cannot say (or is down): the dashboard still renders
        return 0


# --- the health of consolidation (/healthz) ----------------------------------------------------------------------

STALLED_AFTER = timedelta(minutes=3)  # a lease this long past means no reaper is running


def consolidation_health() -> dict[str, Any]:
    """What /healthz reports about background consolidation; ``degraded`` when it needs an operator (candidates
    whose attempts are exhausted, batches nobody re-queues) or is failing right now (the latest batch failed)."""
    from django.db.models.functions import Now

    from governance.selectors import batches_lease_expired
    from memory.models import Candidate

    failed = Candidate.objects.filter(status=Candidate.Status.FAILED)
    failed_batches = list(ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.FAILED,
                                                            candidates__status=Candidate.Status.FAILED)
                          .values_list("pk", flat=True).distinct()[:20])
    stalled = batches_lease_expired().filter(lease_expires_at__lt=Now() - STALLED_AFTER).count()
    latest = (ConsolidationBatch.objects.filter(finished_at__isnull=False).order_by("-finished_at")
              .values("status", "error", "finished_at").first())
    report: dict[str, Any] = {
        "ok": True,
        "failed_candidates": failed.count(),
        "failed_batches": [str(pk) for pk in failed_batches],
        "pending_candidates": Candidate.objects.filter(status=Candidate.Status.PENDING).count(),
        "running_batches": ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.RUNNING).count(),
        "stalled_batches": stalled,
    }
    problems = []
    if report["failed_candidates"]:
        problems.append(f"{report['failed_candidates']} candidate(s) failed after "
                        f"{config().consolidation_max_attempts} attempts: admin → Consolidation batches → "
                        "Retry now")
    if stalled:
        problems.append(f"{stalled} running batch(es) lost their worker more than "
                        f"{int(STALLED_AFTER.total_seconds() // 60)} min ago and were not re-queued: is a queue "
                        "worker (manage.py qcluster) running?")
    if latest is not None and latest["status"] == ConsolidationBatch.Status.FAILED:
        report["latest_failure"] = latest["error"][:300]
        problems.append("the latest consolidation batch failed (a retry is scheduled while attempts are left)")
    if problems:
        report.update(degraded=True, problems=problems)
    return report
