"""The admin's landing page: what waits for a person, what failed, the backlog, and the four governance metrics
of one project over the last 30 days (server-rendered SVG, memory/charts.py)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from governance.models import ConsolidationBatch, MetricDay
from memory.charts import Chart, Series, render
from memory.figures import governance_figures
from memory.models import ReviewItem

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


def dashboard_context(*, project_name: str | None = None) -> dict:
    figures = governance_figures()
    projects = figures["projects"]
    selected = next((p for p in projects if p["name"] == project_name), None)
    if selected is None and projects:  # the project that needs attention first, else the first one
        selected = max(projects, key=lambda p: (p["pending_promotions"] + p["pending_conflicts"]
                                                + p["failed_batches"], p["latest"] != {}))
    totals = {k: sum(p[k] for p in projects) for k in ("pending_promotions", "pending_conflicts", "failed_batches",
                                                          "backlog", "validity_pending", "held")}
    context = {"figures": figures, "projects": projects, "selected": selected, "totals": totals,
               "queued_tasks": figures["queued_tasks"], "charts": [], "recent_failed": [], "waiting": []}
    if selected is not None:
        project = selected["project"]
        context["charts"] = _charts(project)
        context["recent_failed"] = list(ConsolidationBatch.objects.filter(
            project=project, status=ConsolidationBatch.Status.FAILED).select_related("agent")[:5])
        context["waiting"] = list(ReviewItem.objects.filter(project=project, status=ReviewItem.Status.PENDING)
                                  .select_related("experience").order_by("created_at")[:8])
    return context
