"""The four governance metrics, computed per project, scope and day and stored as MetricDay rows.

Definitions and formulas (the README's "Governance" section says the same for people):

- **hit rate** = (used + cited) / returned. Of the memories the searches of the day returned (every layer), *used*
  counts those the agent reported as used (``POST /api/v1/feedback``); for a search without feedback, *cited*
  counts the returned items that a later exchange of the same session restates — its vector at least θ_sim (the
  recurrence threshold) similar to the item's. Without a session on the search, the agent's exchanges in the
  RECMEM_HIT_PROXY_MINUTES after it stand in for the session.
- **repetition rate** = 100 × repetitions / exchanges: new exchanges whose user text restates an active preference
  or constraint its readers already had (the scope of the exchange or a containing one; item older than the
  exchange; similarity at or above the dedup threshold).
- **validity** = accurate / judged over the validity samples judged in the 28 days up to the day, with the 95 %
  Wilson score interval.
- **cost and growth**: batches finished that day, failed ones, prompt and completion tokens, batch seconds (start to
  finish), the backlog of pending candidates (read while the day is today), and the stored exchanges and active
  episodes and experiences.
"""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from datetime import date, datetime, time, timedelta

import numpy as np
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from agents.models import Project
from agents.visibility import Scope, ScopeKey
from core.config import config
from governance.models import ConsolidationBatch, MetricDay
from memory.gateways.embeddings import get_embedder
from memory.models import (
    Candidate,
    Episode,
    Exchange,
    Experience,
    ExperienceType,
    MemoryStatus,
    RepetitionCheck,
    SearchLog,
    ValiditySample,
)
from memory.thresholds import thresholds_for

logger = logging.getLogger(__name__)

SCOPES = (Scope.PERSONAL, Scope.MODULE, Scope.PROJECT)
VALIDITY_WINDOW_DAYS = 28
_WHY = "governance metrics count every scope of a project, and show no content"
_LAYERS = {"exchange": Exchange, "episode": Episode, "experience": Experience}


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float] | tuple[None, None]:
    """The 95 % Wilson score interval of a proportion (sound for small samples and rates near 0 or 1)."""
    if n <= 0:
        return None, None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _bounds(day: date) -> tuple[datetime, datetime]:
    start = timezone.make_aware(datetime.combine(day, time.min))
    return start, start + timedelta(days=1)


def _unit(vectors) -> np.ndarray:
    arr = np.asarray([np.asarray(v, dtype=np.float32) for v in vectors], dtype=np.float32)
    if arr.size == 0:
        return arr.reshape(0, 0)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return arr / norms


def search_cited(*, log: SearchLog, now: datetime | None = None) -> list[str]:
    """The hit-rate proxy for a search without feedback: the returned ids that a later exchange of the same session
    (or, without a session, the agent's next RECMEM_HIT_PROXY_MINUTES) restates. Stored on the log."""
    now = now or timezone.now()
    later = Exchange.objects.all_scopes_unscoped(why=_WHY).filter(created_at__gt=log.created_at)
    if log.session_id:
        later = later.filter(session_id=log.session_id)
    else:
        later = later.filter(owner_agent_id=log.agent_id,
                             created_at__lte=log.created_at + timedelta(minutes=config().governance.hit_proxy_minutes))
    later = list(later.values_list("embedding", "embedding_model"))
    cited: list[str] = []
    if later and log.returned:
        theta = thresholds_for(later[0][1]).theta_sim
        later_vectors = _unit([v for v, _ in later])
        for layer, model in _LAYERS.items():
            ids = [r["id"] for r in log.returned if r["layer"] == layer]
            if not ids:
                continue
            rows = list(model.objects.all_scopes_unscoped(why=_WHY).filter(pk__in=ids).values_list("pk", "embedding"))
            if not rows:
                continue
            sims = _unit([v for _, v in rows]) @ later_vectors.T
            cited.extend(str(pk) for (pk, _), best in zip(rows, sims.max(axis=1), strict=True) if best >= theta)
    log.cited, log.cited_checked_at = cited, now
    log.save(update_fields=["cited", "cited_checked_at"])
    return cited


def repetitions_check(*, exchanges: list[Exchange], embedder=None) -> None:
    """Decide for each exchange (not yet checked) whether its user text restates an active preference or constraint
    older than it that every reader of its scope had (dedup threshold); one RepetitionCheck row each."""
    todo = [e for e in exchanges if e.user_text.strip()]
    checked = set(RepetitionCheck.objects.filter(exchange__in=todo).values_list("exchange_id", flat=True))
    todo = [e for e in todo if e.pk not in checked]
    if not todo:
        return
    embedder = embedder or get_embedder()
    dedup = thresholds_for(embedder.model_id).dedup
    vectors = _unit(embedder.embed([e.user_text for e in todo]))
    by_scope: dict[ScopeKey, list[int]] = defaultdict(list)
    for i, e in enumerate(todo):
        by_scope[ScopeKey.of(e)].append(i)
    rows = []
    for key, indexes in by_scope.items():
        items = list(Experience.objects.visible_throughout(key).filter(
            status=MemoryStatus.ACTIVE, type__in=[ExperienceType.PREFERENCE, ExperienceType.CONSTRAINT])
            .values_list("pk", "embedding", "created_at"))
        item_vectors = _unit([v for _, v, _ in items]) if items else None
        for i in indexes:
            e, best, best_sim = todo[i], None, 0.0
            if items:
                sims = item_vectors @ vectors[i]
                for (pk, _, created), sim in sorted(zip(items, sims, strict=True), key=lambda t: -t[1]):
                    if created < e.created_at:
                        best, best_sim = pk, float(sim)
                        break
            rows.append(RepetitionCheck(exchange=e, similarity=round(best_sim, 4),
                                        experience_id=best if best is not None and best_sim >= dedup else None))
    RepetitionCheck.objects.bulk_create(rows, ignore_conflicts=True)


def _rate(numerator: int, denominator: int, scale: float = 1.0) -> float | None:
    return round(scale * numerator / denominator, 4) if denominator else None


@transaction.atomic
def metrics_compute_day(*, project: Project, day: date, now: datetime | None = None,
                        embedder=None) -> list[MetricDay]:
    """Compute and store (replace) the rows of ``project`` for ``day``: one per scope and one for ``all``."""
    now = now or timezone.now()
    start, end = _bounds(day)
    keys = [*SCOPES, MetricDay.ALL]
    rows = {k: MetricDay(project=project, day=day, scope=k, computed_at=now) for k in keys}

    for log in SearchLog.objects.filter(project=project, created_at__gte=start, created_at__lt=end):
        feedback = log.feedback_at is not None
        cited = set() if feedback else set(search_cited(log=log, now=now))
        used = set(log.used)
        touched = {MetricDay.ALL}
        for r in log.returned:
            for k in (r["scope"], MetricDay.ALL):
                row = rows[k]
                row.returned += 1
                if feedback:
                    row.returned_with_feedback += 1
                    row.used += r["id"] in used
                else:
                    row.cited += r["id"] in cited
            touched.add(r["scope"])
        for k in touched:
            rows[k].searches += 1
            if feedback and log.helpful is not None:
                rows[k].helpful_yes += log.helpful is True
                rows[k].helpful_no += log.helpful is False

    day_exchanges = list(Exchange.objects.all_scopes_unscoped(why=_WHY).filter(
        project=project, created_at__gte=start, created_at__lt=end))
    repetitions_check(exchanges=day_exchanges, embedder=embedder)
    repeated = set(RepetitionCheck.objects.filter(exchange__in=day_exchanges, experience__isnull=False)
                   .values_list("exchange_id", flat=True))
    for e in day_exchanges:
        for k in (e.scope, MetricDay.ALL):
            rows[k].exchanges += 1
            rows[k].repetitions += e.pk in repeated

    judged = (ValiditySample.objects.filter(project=project, decided_at__gte=end - timedelta(days=VALIDITY_WINDOW_DAYS),
                                            decided_at__lt=end)
              .exclude(verdict=ValiditySample.Verdict.PENDING).values_list("verdict", "experience__scope"))
    for verdict, scope in judged:
        for k in (scope, MetricDay.ALL):
            rows[k].validity_judged += 1
            rows[k].validity_accurate += verdict == ValiditySample.Verdict.ACCURATE

    everything = rows[MetricDay.ALL]
    batches = ConsolidationBatch.objects.filter(project=project, finished_at__gte=start, finished_at__lt=end)
    for b in batches:
        everything.batches += 1
        everything.batches_failed += b.status == ConsolidationBatch.Status.FAILED
        everything.prompt_tokens += b.prompt_tokens
        everything.completion_tokens += b.completion_tokens
        if b.started_at and b.finished_at:
            everything.batch_seconds += max(0.0, (b.finished_at - b.started_at).total_seconds())
    everything.batch_seconds = round(everything.batch_seconds, 3)
    # The backlog is a reading of "now": a past day keeps the reading taken while it was today.
    if day >= timezone.localdate(now):
        everything.backlog = Candidate.objects.filter(project=project, status=Candidate.Status.PENDING).count()
    else:
        everything.backlog = (MetricDay.objects.filter(project=project, day=day, scope=MetricDay.ALL)
                              .values_list("backlog", flat=True).first() or 0)

    for model, field in ((Exchange, "exchanges_total"), (Episode, "episodes_active"),
                         (Experience, "experiences_active")):
        qs = model.objects.all_scopes_unscoped(why=_WHY).filter(project=project, created_at__lt=end)
        if model is not Exchange:
            qs = qs.filter(status=MemoryStatus.ACTIVE)
        for scope, count in qs.values("scope").annotate(n=Count("pk")).values_list("scope", "n"):
            setattr(rows[scope], field, count)
            setattr(everything, field, getattr(everything, field) + count)

    for row in rows.values():
        row.hit_rate = _rate(row.used + row.cited, row.returned)
        row.repetition_rate = _rate(row.repetitions, row.exchanges, 100.0)
        row.validity_rate = _rate(row.validity_accurate, row.validity_judged)
        row.validity_low, row.validity_high = wilson_interval(row.validity_accurate, row.validity_judged)
        if row.validity_low is not None:
            row.validity_low, row.validity_high = round(row.validity_low, 4), round(row.validity_high, 4)
    MetricDay.objects.filter(project=project, day=day).delete()
    return MetricDay.objects.bulk_create(rows.values())


def metrics_compute(*, days: int = 2, now: datetime | None = None, projects=None, embedder=None) -> int:
    """The periodic task's work: today's and the previous ``days - 1`` days' rows of every project (today's row is
    rewritten until the day is over). Returns the number of rows written."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    written = 0
    for project in projects if projects is not None else Project.objects.all():
        for offset in range(days):
            written += len(metrics_compute_day(project=project, day=today - timedelta(days=offset), now=now,
                                               embedder=embedder))
    return written
