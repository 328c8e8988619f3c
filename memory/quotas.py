"""Per-project quotas: stored exchanges, and consolidation LLM tokens per UTC day (README: limits).

A project's own value (admin) wins over the RECMEM_QUOTA_* default; 0 is unlimited. The exchange quota is checked
before an ingest is masked (a refused request costs nothing), and again at the end of the write's transaction under a
lock on the project's quota (:func:`exchange_quota_hold`), so concurrent ingests cannot pass it together: a quota of
N lets exactly N in. The token quota is checked before each consolidation run (a run in progress finishes).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from agents.models import Project
from core.config import config
from core.errors import Limited
from governance.models import LLMCall
from memory.models import ExchangeCount


@dataclass(frozen=True)
class ProjectUsage:
    exchanges: int
    exchange_quota: int  # 0: unlimited
    tokens_today: int
    daily_token_quota: int  # 0: unlimited


def exchange_quota(project: Project) -> int:
    return config().limits.quota_exchanges if project.exchange_quota is None else project.exchange_quota


def daily_token_quota(project: Project) -> int:
    return config().limits.quota_daily_tokens if project.daily_token_quota is None else project.daily_token_quota


def _day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def tokens_today(project: Project, now: datetime | None = None) -> int:
    totals = LLMCall.objects.filter(project_id=project.pk, created_at__gte=_day_start(now or timezone.now())) \
        .aggregate(p=Sum("prompt_tokens"), c=Sum("completion_tokens"))
    return (totals["p"] or 0) + (totals["c"] or 0)


def stored_exchanges(project: Project) -> int:
    """The exchanges ``project`` stores, from the counts PostgreSQL keeps (``ExchangeCount``): a few rows read, at
    any size."""
    return ExchangeCount.objects.filter(project_id=project.pk).aggregate(n=Sum("exchanges"))["n"] or 0


def project_usage(project: Project) -> ProjectUsage:
    return ProjectUsage(exchanges=stored_exchanges(project),
                        exchange_quota=exchange_quota(project), tokens_today=tokens_today(project),
                        daily_token_quota=daily_token_quota(project))


def exchange_quota_check(*, project: Project, adding: int) -> None:
    quota = exchange_quota(project)
    if not quota:
        return
    stored = stored_exchanges(project)
    if stored + adding > quota:
        raise Limited(f"the project's quota of {quota} stored exchanges is reached", code="exchange_quota_exceeded",
                      details={"quota": quota, "stored": stored})


def exchange_quota_hold(*, project: Project, added: int) -> None:
    """The exchange quota again, in the transaction that just inserted ``added`` exchanges (the counts it reads
    include them): a transaction lock on the project's quota makes the ingests of a project with a quota pass this
    one at a time, each seeing the ones committed before it, so concurrent ingests cannot pass the quota together.
    Over it: Limited, and the caller's transaction rolls the exchanges back."""
    quota = exchange_quota(project)
    if not quota:
        return
    assert transaction.get_connection().in_atomic_block, "hold the quota in the transaction that writes"
    digest = hashlib.sha256(f"recmem-exchange-quota:{project.pk}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)])
    stored = stored_exchanges(project)
    if stored > quota:
        raise Limited(f"the project's quota of {quota} stored exchanges is reached", code="exchange_quota_exceeded",
                      details={"quota": quota, "stored": stored - added})


def token_quota_check(*, project: Project, now: datetime | None = None) -> None:
    quota = daily_token_quota(project)
    if not quota:
        return
    now = now or timezone.now()
    used = tokens_today(project, now)
    if used >= quota:
        retry = int((_day_start(now) + timedelta(days=1) - now).total_seconds()) + 1
        raise Limited(f"the project's quota of {quota} consolidation tokens today is used up",
                      code="token_quota_exceeded", details={"quota": quota, "used": used}, retry_after=retry)
