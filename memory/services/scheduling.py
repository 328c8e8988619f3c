"""When consolidation runs: the one place that queues it (online, retries, idle-time REM windows).

django-q2 finds tasks by dotted path; the paths are spelled here and nowhere else (tests check they resolve).

``idle`` mode: an agent counts as idle after RECMEM_IDLE_MINUTES without writes. A run starts when it has work
(pending candidates, or sessions its replay cursor has not passed) and ≥ RECMEM_IDLE_MIN_CLOSED_SESSIONS sessions
closed since its last idle run, or ≥ RECMEM_IDLE_MAX_HOURS passed. Cooldown between idle runs (exact to the
minute), a daily cap and a random delay spread the load; an explicit request (``idle_run_request``) is a *manual*
run, outside cooldown and cap. Idle runs are queued for the low-priority cluster RECMEM_IDLE_QUEUE. The advisory
lock in consolidation_run keeps it to one run per agent across workers and machines.
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone
from django_q.models import Schedule
from django_q.tasks import async_task

from agents.models import Agent
from core.config import config
from governance.models import ConsolidationBatch
from memory.models import Candidate, Exchange, Session
from memory.quotas import token_quota_check

CONSOLIDATION_RUN_TASK = "memory.tasks.consolidation_run_task"
IDLE_TICK_TASK = "memory.tasks.idle_consolidation_tick_task"
IDLE_SCHEDULE = "recmem:idle-consolidation-tick"  # every minute (memory migration 0003)
# Every minute (governance migration 0006 creates the schedule): re-queue batches whose lease passed.
REAPER_TICK_TASK = "memory.tasks.batch_reaper_tick_task"
REAPER_SCHEDULE = "recmem:batch-reaper"
METRICS_TASK = "memory.tasks.governance_metrics_task"
FORGET_VACUUM_TASK = "memory.tasks.forget_vacuum_task"
METRICS_SCHEDULE = "recmem:governance-metrics"  # every hour (memory migration 0009)
# Schedules that run every minute or hour keep no result when they succeed (the admin's task list would be nothing
# but ticks); a failure is still kept. django-q2 reads this from the schedule's kwargs.
QUIET_SCHEDULE_KWARGS = "q_options={'save': False}"


def maintenance_schedules_ensure() -> list[str]:
    """The maintenance schedules (idle scheduler and reaper every minute, governance metrics every hour) exist:
    migrations create them; `recmem run` puts back one that was deleted (e.g. in the admin) at its next start.
    Returns the names it had to create."""
    created = []
    for name, func, kind in ((IDLE_SCHEDULE, IDLE_TICK_TASK, Schedule.MINUTES),
                             (REAPER_SCHEDULE, REAPER_TICK_TASK, Schedule.MINUTES),
                             (METRICS_SCHEDULE, METRICS_TASK, Schedule.HOURLY)):
        _, new = Schedule.objects.get_or_create(name=name, defaults={
            "func": func, "schedule_type": kind, "minutes": 1 if kind == Schedule.MINUTES else None, "repeats": -1,
            "kwargs": QUIET_SCHEDULE_KWARGS})
        if new:
            created.append(name)
    return created


RUN_ONLINE, RUN_IDLE, RUN_MANUAL = "online", "idle", "manual"
# The agent's waiting updates only, now (a manual run without the session pass): queued when another agent's pass
# wrote an item that one of this agent's raw units had already changed.
RUN_UPDATES = "updates"


def candidate_create(*, agent: Agent, trigger: Exchange, members: list[Exchange], reason: str) -> Candidate:
    """A topic (or one unit) waiting for ``agent``'s consolidation: its members move to the candidate state, but for
    an update, whose units stay raw."""
    candidate = Candidate.objects.create(project_id=trigger.project_id, agent=agent, trigger=trigger, reason=reason)
    candidate.exchanges.set(members)
    if reason == Candidate.Reason.UPDATE:
        return candidate  # its units stay raw: they may still ripen with their topic (and be consolidated there)
    ids = [m.pk for m in members]
    Exchange.objects.filter(pk__in=ids).update(state=Exchange.State.CANDIDATE, held_batch=None)
    for m in members:
        m.state = Exchange.State.CANDIDATE
    return candidate


def idle_queue() -> str | None:
    """The django-q cluster idle runs are queued for (None: the main one)."""
    name = config().idle.queue
    return name if name and name != config().queue.name else None


def consolidation_enqueue(*, agent_id: uuid.UUID, batch_id: uuid.UUID | None = None, run: str = RUN_ONLINE) -> None:
    """Queue a consolidation run for the agent's pending candidates (those of ``batch_id`` only, when given) now;
    call it on commit of the write that made them pending. ``run``: online (the default), or manual (an explicit
    request: a replay like an idle run, on the main queue, outside the idle cooldown and cap)."""
    args = (str(agent_id),) if batch_id is None else (str(agent_id), str(batch_id))
    kwargs = {"run": run} if run != RUN_ONLINE else {}
    async_task(CONSOLIDATION_RUN_TASK, *args, **kwargs, task_name=f"consolidate:{agent_id}", group="consolidation")


def forget_vacuum_enqueue() -> None:
    """Vacuum the tables a forget wrote, soon after it committed (memory.services.forget.forget_tables_vacuum)."""
    async_task(FORGET_VACUUM_TASK, task_name="forget-vacuum", group="maintenance")


def consolidation_retry_schedule(*, agent_id: uuid.UUID, batch: ConsolidationBatch) -> None:
    """A delayed re-run of ``batch`` (delay × attempt) for its still-pending candidates; the schedule row is
    deleted once it has run (repeats=-1)."""
    delay = config().consolidation.retry_delay * max(1, batch.attempts)
    Schedule.objects.create(func=CONSOLIDATION_RUN_TASK, args=repr((str(agent_id), str(batch.pk))),
                            schedule_type=Schedule.ONCE, repeats=-1,
                            next_run=timezone.now() + timedelta(seconds=delay),
                            name=f"retry:{batch.pk}:{batch.attempts}")


def _pending(agent: Agent) -> int:
    return Candidate.objects.filter(agent=agent, status=Candidate.Status.PENDING).count()


def replay_backlog(*, agent: Agent) -> QuerySet[Session]:
    """The agent's sessions after its replay cursor (turns not yet replayed by an idle run), oldest first."""
    return (Session.objects.owned_by(agent).filter(replay_cursor__lt=F("next_turn_index"))
            .order_by("started_at", "id"))


def _has_work(agent: Agent) -> bool:
    return bool(_pending(agent)) or (config().session_pass_on and replay_backlog(agent=agent).exists())


def idle_run_request(*, agent: Agent) -> int:
    """An explicit request: queue a manual run now (no idle wait, no jitter; outside the idle cooldown and daily
    cap). Returns the pending candidate count; the project's daily token quota used up is 429 with Retry-After."""
    token_quota_check(project=agent.project)
    pending = _pending(agent)
    if _has_work(agent):
        transaction.on_commit(lambda: consolidation_enqueue(agent_id=agent.pk, run=RUN_MANUAL))
    return pending


def idle_due(*, agent: Agent, now=None) -> bool:
    """Whether the idle-time trigger conditions hold for ``agent`` now."""
    now = now or timezone.now()
    if agent.last_write_at and now - agent.last_write_at < timedelta(minutes=config().idle.minutes):
        return False
    if not _has_work(agent):
        return False
    # Only runs the idle scheduler started count for cooldown and cap (manual, online and retried runs do not).
    runs = ConsolidationBatch.objects.filter(agent=agent, mode=RUN_IDLE)
    last = runs.aggregate(last=Max("started_at"))["last"]
    if last and now - last < timedelta(minutes=config().idle.cooldown_minutes):
        return False
    if runs.filter(started_at__gte=now - timedelta(days=1)).count() >= config().idle.daily_cap:
        return False
    if last is None or now - last >= timedelta(hours=config().idle.max_hours):
        return True
    closed = Session.objects.filter(owner_agent=agent, status=Session.Status.CLOSED, closed_at__gt=last).count()
    return closed >= config().idle.min_closed_sessions


def idle_runs_start(*, now=None) -> int:
    """Scheduled tick: queue a delayed run for every agent whose idle trigger holds. Returns how many."""
    now = now or timezone.now()
    agent_ids = set(Candidate.objects.filter(status=Candidate.Status.PENDING).values_list("agent_id", flat=True))
    if config().session_pass_on:
        agent_ids |= set(Session.objects.filter(replay_cursor__lt=F("next_turn_index"))
                         .values_list("owner_agent_id", flat=True))
    started = 0
    low, high = (int(x) for x in config().idle.jitter_seconds)
    options = {"q_options": {"cluster": idle_queue()} if idle_queue() else {}, "run": RUN_IDLE}
    for agent in Agent.objects.filter(pk__in=agent_ids, is_active=True):
        if not idle_due(agent=agent, now=now):
            continue
        name = f"idle:{agent.pk}"
        # A one-off schedule that has fired stays in the table with repeats=0 (django-q2): only one that has not
        # fired yet is waiting. (Counting fired ones for an hour made every cooldown under an hour one hour.)
        if Schedule.objects.filter(name=name).exclude(repeats=0).exists():
            continue
        Schedule.objects.update_or_create(
            name=name,
            defaults={"func": CONSOLIDATION_RUN_TASK, "args": repr((str(agent.pk),)), "kwargs": repr(options),
                      "schedule_type": Schedule.ONCE, "repeats": 1,
                      "next_run": now + timedelta(seconds=random.randint(low, high))})
        started += 1
    return started
