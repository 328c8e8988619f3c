"""The admin's landing page: what waits for a person, what failed, the backlog, and the four governance metrics
of one project over the last 30 days (server-rendered SVG, memory/charts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
from django.utils import timezone

from core.config import config
from governance.models import ConsolidationBatch, MetricDay
from memory.charts import Chart, Series, render
from memory.figures import governance_figures
from memory.models import Exchange, ReviewItem
from memory.thresholds import thresholds_for

DAYS = 30


def _charts(project, *, days: int = DAYS) -> list[Chart]:
    today = timezone.localdate()
    first = (MetricDay.objects.filter(project=project, day__gte=today - timedelta(days=days - 1))
             .order_by("day").values_list("day", flat=True).first())
    # From the first stored day (at most `days` back, at least a week shown), so a young project fills the chart.
    length = max(7, (today - first).days + 1) if first else 7
    span = [today - timedelta(days=length - 1 - i) for i in range(length)]
    rows = {(r.day, r.scope): r for r in MetricDay.objects.filter(project=project, day__gte=span[0])}

    def column(field: str, scope: str = MetricDay.ALL, scale: float = 1.0) -> list[float | None]:
        out = []
        for d in span:
            row = rows.get((d, scope))
            value = getattr(row, field) if row is not None else None
            out.append(value * scale if value is not None else None)
        return out

    charts = [
        Chart(title="Hit rate", days=span, unit="%", y_max=1.0,
              series=[Series("all", column("hit_rate")), Series("personal", column("hit_rate", "personal")),
                      Series("module", column("hit_rate", "module")), Series("project", column("hit_rate", "project"))],
              formula="(used by feedback + cited in the session) / returned items"),
        Chart(title="Repetition rate (per 100 exchanges)", days=span,
              series=[Series("all", column("repetition_rate"))],
              formula="100 × exchanges restating an active preference/constraint / exchanges"),
        Chart(title="Memory validity (28-day window, 95% CI)", days=span, unit="%", y_max=1.0,
              series=[Series("accurate share", column("validity_rate"))],
              band=(column("validity_low"), column("validity_high")),
              formula="accurate / judged samples; band: Wilson interval"),
        Chart(title="Consolidation cost per day", days=span,
              series=[Series("tokens", [None if p is None else p + (c or 0) for p, c in
                                        zip(column("prompt_tokens"), column("completion_tokens"), strict=True)]),
                      Series("batch seconds", column("batch_seconds"))],
              formula="prompt + completion tokens; seconds from start to finish of each batch"),
        Chart(title="Store growth", days=span,
              series=[Series("exchanges", column("exchanges_total")), Series("episodes", column("episodes_active")),
                      Series("experiences", column("experiences_active"))],
              formula="stored exchanges; active episodes and experiences"),
        Chart(title="Backlog and batches", days=span,
              series=[Series("pending candidates", column("backlog")), Series("batches", column("batches")),
                      Series("failed", column("batches_failed"))],
              formula="candidates waiting when computed; batches finished that day"),
    ]
    for chart in charts:
        chart.svg = render(chart)
    return charts


@dataclass(frozen=True)
class Spike:
    """One agent that stored many similar items in a short time: paraphrase flooding looks like this (it counts once
    toward corroboration and promotion, and a person should look at it)."""

    agent: str
    items: int
    first_at: datetime
    last_at: datetime
    sample: str  # one of them, as stored (masked)


#: how far back the dashboard looks for spikes, and how many of one agent's newest exchanges it compares
SPIKE_LOOKBACK = timedelta(days=1)
SPIKE_MAX_ROWS = 400


def agent_spikes(*, project, now: datetime | None = None) -> list[Spike]:
    """Per agent of ``project``, the largest group of its exchanges stored within one RECMEM_BURST_WINDOW_SECONDS of
    the last day that are at least θ_sim similar to the group's first one; those of RECMEM_SPIKE_MIN_ITEMS or more,
    largest first. Stored time, not the time the agent declares."""
    now = now or timezone.now()
    settings = config().governance
    window = timedelta(seconds=max(settings.burst_window_seconds, 1))
    rows = (Exchange.objects.all_scopes_unscoped(why="dashboard: one project's write pattern across its agents")
            .filter(project=project, created_at__gte=now - SPIKE_LOOKBACK)
            .values_list("owner_agent_id", "owner_agent__name", "created_at", "embedding", "embedding_model",
                         "user_text", "assistant_text").order_by("owner_agent_id", "-created_at"))
    by_agent: dict = {}
    for agent_id, name, created, vector, model, user, assistant in rows:
        group = by_agent.setdefault(agent_id, [])
        if len(group) < SPIKE_MAX_ROWS:
            group.append((name, created, vector, model, user or assistant))
    spikes = []
    for group in by_agent.values():
        if len(group) < settings.spike_min_items:
            continue
        group.sort(key=lambda r: r[1])
        vectors = np.asarray([r[2] for r in group], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        sims = (vectors / np.where(norms == 0, 1, norms)) @ (vectors / np.where(norms == 0, 1, norms)).T
        floor = thresholds_for(group[0][3]).theta_sim
        best, at = 0, 0
        for i, (_, start, *_rest) in enumerate(group):
            members = [j for j in range(i, len(group)) if group[j][1] - start <= window and sims[i, j] >= floor]
            if len(members) > best:
                best, at = len(members), i
        if best >= settings.spike_min_items:
            members = [j for j in range(at, len(group)) if group[j][1] - group[at][1] <= window
                       and sims[at, j] >= floor]
            spikes.append(Spike(agent=group[at][0], items=best, first_at=group[members[0]][1],
                                last_at=group[members[-1]][1], sample=group[at][4][:160]))
    return sorted(spikes, key=lambda s: -s.items)


def dashboard_context(*, project_name: str | None = None) -> dict:
    figures = governance_figures()
    projects = figures["projects"]
    selected = next((p for p in projects if p["name"] == project_name), None)
    if selected is None and projects:  # the project that needs attention first, else the first one
        selected = max(projects, key=lambda p: (p["pending_promotions"] + p["pending_conflicts"]
                                                + p["failed_batches"], p["latest"] != {}))
    totals = {k: sum(p[k] for p in projects) for k in ("pending_promotions", "pending_conflicts", "failed_batches",
                                                          "backlog", "validity_pending", "held",
                                                          "pending_quarantine", "one_agents_word")}
    context = {"figures": figures, "projects": projects, "selected": selected, "totals": totals,
               "queued_tasks": figures["queued_tasks"], "charts": [], "recent_failed": [], "waiting": [],
               "spikes": []}
    if selected is not None:
        project = selected["project"]
        context["charts"] = _charts(project)
        context["spikes"] = agent_spikes(project=project)
        context["recent_failed"] = list(ConsolidationBatch.objects.filter(
            project=project, status=ConsolidationBatch.Status.FAILED).select_related("agent")[:5])
        context["waiting"] = list(ReviewItem.objects.filter(project=project, status=ReviewItem.Status.PENDING)
                                  .select_related("experience").order_by("created_at")[:8])
    return context
