"""Memory validity (governance metric): items sampled for a person to judge — accurate, stale or wrong.

Every week RECMEM_VALIDITY_SAMPLE_SIZE active experiences per project are drawn at random into the queue (admin:
Memory → Validity samples). Other checks put items into the same queue through :func:`validity_sample_enqueue`
(e.g. items flagged ``needs_revalidation``). A stale or wrong verdict sends the item to revalidation; the validity
rate and its confidence interval are computed from the verdicts (:mod:`memory.services.metrics`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from agents.models import Project
from core.config import config
from core.errors import ApplicationError, Conflict
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record
from memory.models import Experience, MemoryStatus, ValiditySample


def week_of(when: datetime | date) -> date:
    day = timezone.localdate(when) if isinstance(when, datetime) else when
    return day - timedelta(days=day.weekday())


@transaction.atomic
def validity_sample_enqueue(*, items: Iterable[Experience], reason: str,
                            now: datetime | None = None) -> list[ValiditySample]:
    """Queue ``items`` for a person's judgement this week (an item already queued this week is not queued twice).
    The entry point for any check that wants an item looked at (weekly draw, staleness checks)."""
    week = week_of(now or timezone.now())
    items = list(items)
    existing = set(ValiditySample.objects.filter(experience__in=items, week=week).values_list("experience_id",
                                                                                              flat=True))
    samples = [ValiditySample(project_id=x.project_id, experience=x, week=week, reason=reason[:64])
               for x in items if x.pk not in existing]
    return ValiditySample.objects.bulk_create(samples, ignore_conflicts=True)


def validity_sample_draw(*, project: Project, now: datetime | None = None, size: int | None = None,
                         rng: random.Random | None = None) -> list[ValiditySample]:
    """This week's random sample of ``project``'s active experiences (drawn once a week; a second call in the same
    week tops it up to ``size`` at most)."""
    now = now or timezone.now()
    size = config().governance.validity_sample_size if size is None else size
    week = week_of(now)
    have = ValiditySample.objects.filter(project=project, week=week, reason="weekly sample").count()
    if have >= size:
        return []
    ids = list(Experience.objects.all_scopes_unscoped(why="a project's validity sample spans all its scopes")
               .filter(project=project, status=MemoryStatus.ACTIVE)
               .exclude(validity_samples__week=week).values_list("pk", flat=True))
    chosen = (rng or random.SystemRandom()).sample(ids, min(size - have, len(ids)))
    return validity_sample_enqueue(items=Experience.objects.filter(pk__in=chosen), reason="weekly sample", now=now)


def validity_samples_weekly(*, now: datetime | None = None) -> int:
    """The periodic task's part: make sure every project has this week's sample."""
    return sum(len(validity_sample_draw(project=p, now=now)) for p in Project.objects.all())


@transaction.atomic
def validity_judge(*, sample: ValiditySample, verdict: str, user, note: str = "") -> ValiditySample:
    """A person's verdict on one sampled item; stale or wrong flags the item for revalidation."""
    if verdict not in (ValiditySample.Verdict.ACCURATE, ValiditySample.Verdict.STALE, ValiditySample.Verdict.WRONG):
        raise ApplicationError(f"verdict must be accurate, stale or wrong (got {verdict!r})", code="invalid")
    sample = ValiditySample.objects.select_for_update().select_related("experience").get(pk=sample.pk)
    if sample.verdict != ValiditySample.Verdict.PENDING:
        raise Conflict(f"already judged {sample.verdict}", code="already_decided")
    sample.verdict, sample.note, sample.decided_by, sample.decided_at = verdict, note, user, timezone.now()
    sample.save(update_fields=["verdict", "note", "decided_by", "decided_at"])
    if verdict != ValiditySample.Verdict.ACCURATE:
        Experience.objects.filter(pk=sample.experience_id).update(needs_revalidation=True)
    audit_record(action=AuditEvent.Action.REVIEW, object_type=AuditObject.VALIDITY_SAMPLE, object_id=sample.pk,
                 project_id=sample.project_id, actor_user=user, scope=sample.experience.scope,
                 reason=note or verdict, source_ids=[sample.experience_id], data={"verdict": verdict})
    return sample
