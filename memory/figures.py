"""The governance figures, read: the stored daily metric rows (the metrics API, the ``governance_metrics``
command) and the live counts of what waits for a person (the dashboard's tiles, Prometheus on /metrics)."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, QuerySet

from agents.models import Project
from agents.visibility import Scope
from core.config import config
from governance.models import ConsolidationBatch, MetricDay
from memory.models import Candidate, Exchange, Experience, MemoryStatus, ReviewItem, ValiditySample
from memory.trust import peer_item_reach_q


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


def governance_figures() -> dict:
    """The figures of the dashboard's tiles and of /metrics, per project: pending reviews by kind, failed batches,
    the backlog, the validity queue, held exchanges and the newest metric rows; and the queued tasks."""

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
    one_agents = per_project(one_agents_word_q())
    projects = []
    for p in Project.objects.order_by("name"):
        projects.append({
            "project": p, "name": p.name,
            "pending_promotions": pending.get((p.pk, ReviewItem.Kind.PROMOTION), 0),
            "pending_conflicts": pending.get((p.pk, ReviewItem.Kind.CONFLICT), 0),
            "pending_quarantine": pending.get((p.pk, ReviewItem.Kind.QUARANTINE), 0),
            "failed_batches": failed.get((p.pk,), 0), "backlog": backlog.get((p.pk,), 0),
            "validity_pending": validity.get((p.pk,), 0), "held": held.get((p.pk,), 0),
            "one_agents_word": one_agents.get((p.pk,), 0),
            "latest": metrics_latest(project=p),
        })
    return {"projects": projects, "queued_tasks": _queued_tasks()}


def peer_reach_q() -> Q:
    """The shared items that reach every agent of their scope under the setting in force (``RECMEM_SEARCH_PEER_ITEMS``;
    with ``all``, where every item does, the dashboard still tells one agent's word from a confirmed item)."""
    return peer_item_reach_q(config().search.peer_items) or peer_item_reach_q("trusted")


def one_agents_word_q() -> QuerySet[Experience]:
    """Shared (module or project) items that wait for confirmation — with RECMEM_SEARCH_PEER_ITEMS=guarded (the
    default) neither vouched for by a person nor corroborated by a second agent on a matter two agents' word does not
    share, with ``trusted`` neither corroborated nor vouched for, with ``reviewed`` not vouched for or approved by a
    person: only their author retrieves them (memory/trust.py ``peer_item_reach_q``); a reviewer may vouch for them in
    the Experience admin."""
    return (Experience.objects.all_scopes_unscoped(why="dashboard counts across scopes")
            .filter(status=MemoryStatus.ACTIVE, quarantined=False, scope__in=[Scope.MODULE, Scope.PROJECT])
            .exclude(peer_reach_q()))


def _queued_tasks() -> int:
    from django_q.brokers import get_broker

    try:
        return int(get_broker().queue_size() or 0)
    except Exception:  # a broker that cannot say (or is down): the dashboard still renders
        return 0
