"""When consolidation runs: the one place that queues it (online, retries, idle-time REM windows).

django-q2 finds tasks by dotted path; the paths are spelled here and nowhere else (tests check they resolve).

``idle`` mode: an agent counts as idle after RECMEM_IDLE_MINUTES without writes. A run starts when it has pending
candidates and ≥ RECMEM_IDLE_MIN_CLOSED_SESSIONS sessions closed since its last run, or ≥ RECMEM_IDLE_MAX_HOURS
passed, or an operator/agent asked. Cooldown between runs, a daily cap, and a random delay spread the load; the
advisory lock in consolidation_run keeps it to one run per agent across workers and machines.
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django_q.models import Schedule
from django_q.tasks import async_task

from agents.models import Agent
from core.config import config
from governance.models import ConsolidationBatch
from memory.models import Candidate, Session
from memory.quotas import token_quota_check

CONSOLIDATION_RUN_TASK = "memory.tasks.consolidation_run_task"
IDLE_TICK_TASK = "memory.tasks.idle_consolidation_tick_task"
IDLE_SCHEDULE = "recmem:idle-consolidation-tick"  # every minute (memory migration 0003)
# Every minute (governance migration 0006 creates the schedule): re-queue batches whose lease passed.
REAPER_TICK_TASK = "memory.tasks.batch_reaper_tick_task"
REAPER_SCHEDULE = "recmem:batch-reaper"


def maintenance_schedules_ensure() -> list[str]:
    """The every-minute ticks (idle scheduler, reaper) exist: migrations create them; `recmem run` puts back one that
    was deleted (e.g. in the admin) at its next start. Returns the names it had to create."""
    created = []
    for name, func in ((IDLE_SCHEDULE, IDLE_TICK_TASK), (REAPER_SCHEDULE, REAPER_TICK_TASK)):
        _, new = Schedule.objects.get_or_create(name=name, defaults={
            "func": func, "schedule_type": Schedule.MINUTES, "minutes": 1, "repeats": -1})
        if new:
            created.append(name)
    return created


def consolidation_enqueue(*, agent_id: uuid.UUID, batch_id: uuid.UUID | None = None) -> None:
    """Queue a consolidation run for the agent's pending candidates (those of ``batch_id`` only, when given) now;
    call it on commit of the write that made them pending."""
    args = (str(agent_id),) if batch_id is None else (str(agent_id), str(batch_id))
    async_task(CONSOLIDATION_RUN_TASK, *args, task_name=f"consolidate:{agent_id}", group="consolidation")


def consolidation_retry_schedule(*, agent_id: uuid.UUID, batch: ConsolidationBatch) -> None:
    """A delayed re-run of ``batch`` (delay × attempt) for its still-pending candidates; the schedule row is
    deleted once it has run (repeats=-1)."""
    delay = config().consolidation_retry_delay * max(1, batch.attempts)
    Schedule.objects.create(func=CONSOLIDATION_RUN_TASK, args=repr((str(agent_id), str(batch.pk))),
                            schedule_type=Schedule.ONCE, repeats=-1,
                            next_run=timezone.now() + timedelta(seconds=delay),
                            name=f"retry:{batch.pk}:{batch.attempts}")


def _pending(agent: Agent) -> int:
    return Candidate.objects.filter(agent=agent, status=Candidate.Status.PENDING).count()


def idle_run_request(*, agent: Agent) -> int:
    """An explicit request: queue a run now (no idle wait, no jitter). Returns the pending candidate count; the
    project's daily token quota used up is 429 with Retry-After."""
    token_quota_check(project=agent.project)
    pending = _pending(agent)
    if pending:
        transaction.on_commit(lambda: consolidation_enqueue(agent_id=agent.pk))
    return pending


def idle_due(*, agent: Agent, now=None) -> bool:
    """Whether the idle-time trigger conditions hold for ``agent`` now."""
    now = now or timezone.now()
    if agent.last_write_at and now - agent.last_write_at < timedelta(minutes=config().idle_minutes):
        return False
    if not _pending(agent):
        return False
    runs = ConsolidationBatch.objects.filter(agent=agent, mode="idle")
    last = runs.aggregate(last=Max("started_at"))["last"]
    if last and now - last < timedelta(minutes=config().idle_cooldown_minutes):
        return False
    if runs.filter(started_at__gte=now - timedelta(days=1)).count() >= config().idle_daily_cap:
        return False
    if last is None or now - last >= timedelta(hours=config().idle_max_hours):
        return True
    closed = Session.objects.filter(owner_agent=agent, status=Session.Status.CLOSED, closed_at__gt=last).count()
    return closed >= config().idle_min_closed_sessions


def idle_runs_start(*, now=None) -> int:
    """Scheduled tick: queue a delayed run for every agent whose idle trigger holds. Returns how many."""
    now = now or timezone.now()
    agent_ids = Candidate.objects.filter(status=Candidate.Status.PENDING).values_list("agent_id", flat=True)
    started = 0
    low, high = (int(x) for x in config().idle_jitter_seconds)
    for agent in Agent.objects.filter(pk__in=set(agent_ids), is_active=True):
        if not idle_due(agent=agent, now=now):
            continue
        name = f"idle:{agent.pk}"
        if Schedule.objects.filter(Q(name=name), Q(next_run__gte=now - timedelta(hours=1))).exists():
            continue  # one already waiting for its delay
        Schedule.objects.update_or_create(
            name=name,
            defaults={"func": CONSOLIDATION_RUN_TASK, "args": repr((str(agent.pk),)),
                      "schedule_type": Schedule.ONCE, "repeats": 1,
                      "next_run": now + timedelta(seconds=random.randint(low, high))})
        started += 1
    return started
