"""Consolidation (DESIGN §3): candidates → episodes (merge-first) → typed experiences → dedup/conflict → patterns.

One run per agent at a time (a PostgreSQL advisory lock, so workers on several machines never duplicate work).
All LLM work happens before the write transaction; the write is one transaction in which every row carries the
batch id, under an advisory lock per scope written, where the merge decisions are checked again (a topic planned
against episodes another batch changed meanwhile is planned again). Every LLM call is recorded as it happens. A
failure — of the LLM, the plan or the write — records the calls, leaves the candidates pending (bounded attempts,
a delayed retry) and writes nothing. A running batch holds a lease its process renews; if the process dies, the
reaper (memory/services/recovery.py) re-queues the batch.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import logging
import math
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from django.db import connection, transaction
from django.db.models import Avg, Q
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.models import Agent
from agents.visibility import Scope, ScopeKey, agent_visibility, scope_chain, scope_narrowest
from core.config import config
from core.errors import Conflict, Limited
from core.tracing import traced
from governance.models import AuditEvent, AuditObject, ConsolidationBatch
from governance.services.audit import audit_record_many
from governance.services.batches import (
    batch_call_sent,
    batch_fail,
    batch_lease,
    batch_owned,
    batch_record_calls,
    batch_start,
    batch_succeed,
)
from governance.services.privacy import drafts_remask
from memory.consolidators.types import (
    ConsolidationError,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    ExperienceDraft,
    Unit,
    session_pass_cue,
)
from memory.distinctive import scope_rarity, share_a_distinctive_term
from memory.gateways.embeddings import get_embedder
from memory.gateways.llm import llm_calls_watched
from memory.gateways.tokens import count_tokens
from memory.informativeness import informativeness
from memory.models import (
    Candidate,
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryStatus,
    ReviewItem,
    Session,
)
from memory.quarantine import quarantine_reason
from memory.quotas import token_quota_check
from memory.review.services import (
    review_conflict_create,
    review_item_create,
    review_promotion_due,
    review_quarantine_create,
    review_reopen_with_evidence,
)
from memory.review.versions import memory_version_save
from memory.search.vector import nearest_scan
from memory.services.scheduling import (
    RUN_IDLE,
    RUN_MANUAL,
    RUN_ONLINE,
    RUN_UPDATES,
    candidate_create,
    consolidation_enqueue,
    consolidation_retry_schedule,
    replay_backlog,
)
from memory.temporal import experience_current_q, supersede_end
from memory.thresholds import Thresholds, thresholds_for
from memory.trust import episode_trust, exchange_trust, item_trust, may_corroborate

logger = logging.getLogger(__name__)

PROMOTION_MIN_SESSIONS = 3


# --- the consolidator in use ----------------------------------------------------------------------

def get_consolidator(*, embedder=None):
    """The LLM consolidator when an endpoint is configured (RECMEM_CONSOLIDATOR=auto|llm), else the extractive one
    (zero tokens, lower quality; /healthz and the batch record say which ran)."""
    from memory.consolidators import get_consolidator as build

    embedder = embedder or get_embedder()
    choice = config().consolidation.consolidator
    if choice == "extractive":
        return build(llm=None, embedder=embedder)
    consolidator = build(embedder=embedder, single_call=config().consolidation.prompt != "split")
    if choice == "llm" and consolidator.kind != "llm":
        raise RuntimeError("RECMEM_CONSOLIDATOR=llm but no RECMEM_LLM_BASE_URL is configured")
    return consolidator


# --- one run per agent ----------------------------------------------------------------------

def _lock_key(agent_id: uuid.UUID) -> int:
    return int.from_bytes(hashlib.sha256(f"recmem-consolidation:{agent_id}".encode()).digest()[:8], "big",
                          signed=True)


@contextlib.contextmanager
def agent_run_lock(agent_id: uuid.UUID) -> Iterator[bool]:
    """Session-level advisory lock: released explicitly, or by PostgreSQL if the worker dies."""
    key = _lock_key(agent_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def _scope_lock_key(key: ScopeKey) -> int:
    owner = key.owner_agent_id if key.scope == Scope.PERSONAL else key.module_id if key.scope == Scope.MODULE else ""
    text = f"recmem-scope:{key.project_id}:{Scope(key.scope).value}:{owner}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big", signed=True)


def scope_write_lock(scopes) -> None:
    """Serialise the writes to each of ``scopes`` (transaction-level advisory locks, taken in one order so two
    batches never wait on each other crosswise): two batches writing to one scope — two agents of one module,
    two workers — see each other's rows and re-check their merge decisions under it."""
    keys = sorted({_scope_lock_key(s) for s in scopes})
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


# --- the planner: the product's, or a caller's (the benchmarks' baselines and ablations) --------------------------

@dataclass(frozen=True)
class Planner:
    """How a batch plans and writes its topics. The default is the product's own consolidation with every layer;
    callers outside the product (the benchmarks) pass another, as ``consolidation_run(planner=...)`` or around the
    queued runs of a block with :func:`consolidation_planner`:

    - with ``episodes`` / ``semantic`` / ``merge`` off, the product's consolidation without that layer (the
      episodes, the typed items, the merge into an existing episode): an ablation;
    - a subclass with a ``kind`` replaces the planning altogether (a baseline): :meth:`plan` reads and calls the
      LLM outside the write (no writes), storing what to write in ``topic.planned``; :meth:`apply` writes it inside
      the batch's transaction. ``kind`` is recorded as the batch's consolidator and mode; no consolidator is built.
    """

    kind: str = ""
    episodes: bool = True
    semantic: bool = True
    merge: bool = True

    def plan(self, *, agent, embedder, thresholds, topic: TopicPlan, calls: list) -> None:
        raise NotImplementedError("a baseline planner (with a kind) plans its topics itself")

    def apply(self, *, agent, batch, topic: TopicPlan, embedder_model: str, summary: dict, audit: list,
              scope_fields: dict) -> None:
        """Write what :meth:`plan` put in ``topic.planned`` (nothing for the product's planner)."""


DEFAULT_PLANNER = Planner()
_PLANNER: contextvars.ContextVar[Planner] = contextvars.ContextVar("recmem_consolidation_planner",
                                                                    default=DEFAULT_PLANNER)


@contextlib.contextmanager
def consolidation_planner(planner: Planner) -> Iterator[Planner]:
    """The planner of every consolidation run started in this block (in this thread or task context) without one
    of its own: with the queue in sync mode, the runs its writes enqueue."""
    token = _PLANNER.set(planner)
    try:
        yield planner
    finally:
        _PLANNER.reset(token)


# --- planning (reads + LLM, no writes) -------------------------------------------------------------------------------

@dataclass
class ExperiencePlan:
    draft: ExperienceDraft
    embedding: list[float]


@dataclass
class TopicPlan:
    candidates: list[Candidate]
    units: list[Exchange]
    scope: ScopeKey  # where the topic's output lives (the narrowest scope of its units), merge/dedup look-ups too
    episodic: bool = True  # salient one-offs of a run are refined together, without an episode
    dropped: list[Exchange] = field(default_factory=list)  # members that may not be merged with the trigger
    merge_into: Episode | None = None
    compared_with: tuple | None = None  # (id, version) of the episode the plan was offered to merge into
    episodes: list[EpisodeDraft] = field(default_factory=list)
    episode_embeddings: list[list[float]] = field(default_factory=list)
    experiences: list[ExperiencePlan] = field(default_factory=list)
    planned: list = field(default_factory=list)  # what a baseline planner (not the product's) will write
    # The session-level pass of an idle run: one session's raw units after its replay cursor; its exchanges stay
    # raw (they may still recur), the cursor moves to ``cursor`` when the batch is written.
    session: Session | None = None
    cursor: int | None = None
    # The session pass: exchanges already taken as witnesses of a point planned earlier in the same run (shared
    # between the run's session topics, so a fact restated in four sessions is planned once, not four times).
    claimed: set = field(default_factory=set)


def exchange_unit(e: Exchange) -> Unit:
    """An exchange as the consolidators see it (its session must be loaded or loadable)."""
    return Unit(id=str(e.pk), session_id=str(e.session_id), turn_index=e.turn_index, occurred_at=e.occurred_at,
                user=e.user_text, assistant=e.assistant_text, session_started_at=e.session.started_at)


def _centroid(vectors: list) -> list[float]:
    arr = np.asarray([np.asarray(v, dtype=np.float32) for v in vectors])
    mean = arr.mean(axis=0)
    norm = float(np.linalg.norm(mean)) or 1.0
    return (mean / norm).tolist()


def _nearest_episode(*, scope: ScopeKey, vector) -> tuple[Episode, float] | None:
    with transaction.atomic(), nearest_scan(Episode):
        row = (Episode.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE)
               .annotate(distance=CosineDistance("embedding", vector)).order_by("distance").first())
    return (row, 1.0 - float(row.distance)) if row is not None else None


def _merge_target(*, scope: ScopeKey, vector, thresholds: Thresholds,
                  merge: bool = True) -> tuple[Episode, float] | None:
    """The episode of ``scope`` a topic centred on ``vector`` is offered to merge into, with its similarity (none
    when the planner does not merge)."""
    if not merge:
        return None
    nearest = _nearest_episode(scope=scope, vector=vector)
    # A long-running situation is continued in a new episode (a chapter) instead of being rewritten again:
    # the merge prompt carries the whole narrative, so unbounded episodes make every merge dearer.
    if nearest is None or count_tokens(nearest[0].narrative) > config().consolidation.episode_max_tokens:
        return None
    if nearest[1] < thresholds.merge or not _coherent(episode=nearest[0], vector=vector, thresholds=thresholds):
        return None
    return nearest


def _coherent(*, episode: Episode, vector, thresholds: Thresholds) -> bool:
    """Would the episode stay one situation with this topic? Its sources are bounded (RECMEM_EPISODE_MAX_SOURCES)
    and the centroid of their vectors must be as close to the topic's centroid as a merge requires: the episode's
    own text drifts towards whatever it absorbed (LoCoMo: 9 of 49 episodes held half of all source links, up to
    54 each, their narratives a mix of situations)."""
    sources = list(EpisodeSource.objects.filter(episode=episode).values_list("exchange__embedding", flat=True)
                   [: config().consolidation.episode_max_sources + 1])
    if len(sources) >= config().consolidation.episode_max_sources:
        return False
    if not sources:
        return True
    return float(np.dot(_centroid(sources), _centroid([vector]))) >= thresholds.merge


def _nearest_experiences(*, scope: ScopeKey, vectors: list, limit: int) -> list[list[tuple[Experience, float]]]:
    """The ``limit`` active experiences nearest to each vector, with their similarity, among those every reader of
    ``scope`` may see: the consolidator may copy what it is shown into an output in ``scope`` (a module item never
    gets to see, and so to quote, its writer's personal items)."""
    found = []
    with transaction.atomic(), nearest_scan(Experience):
        for vector in vectors:
            rows = (Experience.objects.visible_throughout(scope).filter(status=MemoryStatus.ACTIVE)
                    .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[:limit])
            found.append([(r, 1.0 - float(r.distance)) for r in rows])
    return found


def _related_experiences(*, scope: ScopeKey, vector, thresholds: Thresholds,
                         limit: int = 6) -> list[tuple[Experience, float]]:
    [rows] = _nearest_experiences(scope=scope, vectors=[vector], limit=limit)
    return [(r, sim) for r, sim in rows if sim >= thresholds.related]


def _existing_experience(e: Experience, sim: float) -> ExistingExperience:
    return ExistingExperience(id=str(e.pk), type=e.type, subject=e.subject, statement=e.statement,
                              confidence=e.confidence, valid_from=e.valid_from, created_at=e.created_at,
                              similarity=sim)


@traced("recmem.consolidation.plan", attributes=lambda kw: {"recmem.units": len(kw["topic"].units)})
def _plan_topic(*, agent, consolidator, embedder, thresholds, topic: TopicPlan, calls: list,
                planner: Planner = DEFAULT_PLANNER) -> None:
    if not topic.units:  # its updates were consolidated with their topic: nothing left to do but close them
        return
    units = [exchange_unit(e) for e in topic.units]
    units = consolidator.order_units(units)
    vectors = [e.embedding for e in topic.units]
    centroid = _centroid(vectors)

    episodic = topic.episodic and planner.episodes
    semantic = planner.semantic
    episode = None
    existing = None
    if episodic:
        found = _merge_target(scope=topic.scope, vector=centroid, thresholds=thresholds, merge=planner.merge)
        if found is not None:
            episode, sim = found
            existing = ExistingEpisode(id=str(episode.pk), title=episode.title, narrative=episode.narrative,
                                       similarity=sim)
        topic.compared_with = (episode.pk, episode.version) if episode is not None else None
    related = []
    if semantic:
        related = [_existing_experience(e, s)
                   for e, s in _related_experiences(scope=topic.scope, vector=centroid, thresholds=thresholds)]

    drafts = []
    if topic.session is not None:  # the idle run's session-level pass
        drafts = consolidator.distil_session(units=units, related=related, on_call=calls.append)
    elif episodic and semantic:  # the usual case: one consolidator step (one LLM call) for the whole topic
        draft = consolidator.consolidate_topic(units=units, existing=existing, related=related, on_call=calls.append)
        topic.merge_into = episode if draft.merged else None
        topic.episodes, drafts = draft.episodes, draft.items
    elif episodic:  # the semantic ablation
        topic.episodes, merged = consolidator.episodes_for(units=units, existing=existing, on_call=calls.append)
        topic.merge_into = episode if merged else None
    elif semantic:  # salient one-offs, or the episodes ablation
        drafts = consolidator.refine(episodes=[], units=units, related=related, on_call=calls.append)
    drafts_remask(project=agent.project, episodes=topic.episodes, items=drafts)  # before embedding and storing
    if topic.episodes:
        topic.episode_embeddings = embedder.embed([f"{d.title}\n{d.narrative}" for d in topic.episodes])

    if drafts:
        topic.experiences = _plans(drafts, embedder)
    if topic.session is not None and semantic and topic.scope.scope != Scope.PERSONAL:
        topic.experiences += _restated_points(project=agent.project, consolidator=consolidator, embedder=embedder,
                                              units=units, topic=topic, thresholds=thresholds,
                                              planned=topic.experiences)
    if _shared_topic(topic) and semantic:
        if all(p.draft.type == "event" for p in topic.experiences):
            point = _central_statement(project=agent.project, consolidator=consolidator, embedder=embedder,
                                       units=units, exchanges=topic.units, thresholds=thresholds)
            if point is not None:
                topic.experiences.append(point)
        topic.experiences = _one_memory_per_point(topic.experiences, units=topic.units, thresholds=thresholds)


def _plans(drafts: list[ExperienceDraft], embedder) -> list[ExperiencePlan]:
    """Drafts with their embeddings, in the form items are stored with ("subject: statement")."""
    vectors = embedder.embed([f"{d.subject}: {d.statement}" for d in drafts]) if drafts else []
    return [ExperiencePlan(draft=d, embedding=v) for d, v in zip(drafts, vectors, strict=True)]


def _sentence_plans(*, project, consolidator, embedder, units: list,
                    types: tuple[str, ...] | None = None, limit: int | None = None) -> list[ExperiencePlan]:
    """The consolidator's sentence drafts of ``units`` (:meth:`topic_sentences`), of ``types``, the surest ``limit``
    first, masked again and embedded."""
    drafts = [d for d in consolidator.topic_sentences(units) if types is None or d.type in types]
    if limit is not None:
        drafts = sorted(drafts, key=lambda d: -d.confidence)[:limit]
    drafts_remask(project=project, episodes=[], items=drafts)
    return _plans(drafts, embedder)


#: the kinds the session pass takes from a shared session when other sessions restate them (the pass itself keeps
#: lessons, procedures and preferences from any session)
RESTATED_TYPES = ("fact", "constraint")
RESTATED_MAX_SENTENCES = 40  # per session and run


def _restated_points(*, project, consolidator, embedder, units: list, topic: TopicPlan, thresholds: Thresholds,
                     planned: list[ExperiencePlan]) -> list[ExperiencePlan]:
    """The session pass in a shared scope: a fact or rule said in this session that exchanges of at least θ_sessions
    sessions, from at least two agents, restate (at least θ_corroborate_unit similar to the sentence) recurs — at the
    statement's level, where the exchanges themselves are too unalike to ripen as a topic ("Storybook is where our
    components are documented" / "where do I look up the props of the date picker?" — "in Storybook …"). Not a
    sentence whose words already witness an item of the scope, or a point planned earlier in this run."""
    # Bounded: each is embedded and looked up; a long session offers its surest statements first.
    sentences = _sentence_plans(project=project, consolidator=consolidator, embedder=embedder, units=units,
                                types=RESTATED_TYPES, limit=RESTATED_MAX_SENTENCES)
    by_id = {str(u.pk): u for u in topic.units}
    points: list[ExperiencePlan] = []
    for plan in sentences:
        draft, vector = plan.draft, plan.embedding
        source = by_id.get(draft.evidence[0]) if draft.evidence else None
        if source is None or source.pk in topic.claimed or any(
                float(np.dot(np.asarray(vector), np.asarray(p.embedding))) >= thresholds.corroborate
                for p in [*planned, *points]):
            continue
        with nearest_scan(Exchange):
            near = list(Exchange.objects.in_scope(topic.scope).exclude(state=Exchange.State.HELD)
                        .exclude(quarantined=True)
                        .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
                        [:2 * CORROBORATION_K])
        witnesses = [e for e in near if 1.0 - float(e.distance) >= thresholds.corroborate_unit
                     and not _states_otherwise(draft.statement, e)]
        if source.pk not in {e.pk for e in witnesses}:
            witnesses.append(source)
        if len({e.session_id for e in witnesses}) < thresholds.theta_sessions \
                or len({e.owner_agent_id for e in witnesses}) < 2:
            continue
        if any(e.pk in topic.claimed for e in witnesses):
            continue
        # remembered already: the sentence's words witness an item of the scope, or the sentence restates one
        said = _nearest_active_item(scope=topic.scope, vector=source.embedding)
        restated = _nearest_active_item(scope=topic.scope, vector=vector)
        if (said and said[1] >= thresholds.corroborate_unit) or (restated and restated[1] >= thresholds.corroborate):
            continue
        topic.claimed.update(e.pk for e in witnesses)
        points.append(plan)
    return points


def _nearest_active_item(*, scope: ScopeKey, vector) -> tuple[Experience, float] | None:
    """The active, current item of the scope (any type) nearest ``vector``, with its similarity."""
    with nearest_scan(Experience):
        nearest = (Experience.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE)
                   .filter(experience_current_q(timezone.now()))
                   .annotate(distance=CosineDistance("embedding", vector)).order_by("distance").first())
    return (nearest, 1.0 - float(nearest.distance)) if nearest is not None else None


def _central_statement(*, project, consolidator, embedder, units: list, exchanges: list[Exchange],
                       thresholds: Thresholds) -> ExperiencePlan | None:
    """A shared topic the consolidator drew no statement from (or only stories): its point is the sentence the
    topic's exchanges restate most (the highest mean similarity to them), if at least two sessions' exchanges
    restate it (θ_corroborate_unit) — four agents' answers to "can I refund 350 euros myself?" / "what's my refund
    limit?" recur as a topic, and none of them is in a rule form."""
    sentences = _sentence_plans(project=project, consolidator=consolidator, embedder=embedder, units=units)
    if not sentences:
        return None
    vectors = np.asarray([p.embedding for p in sentences], dtype=np.float32)
    matrix = np.asarray([np.asarray(u.embedding, dtype=np.float32) for u in exchanges])
    sims = vectors @ matrix.T
    best = int(np.argmax(sims.mean(axis=1)))
    sessions = {u.session_id for u, sim in zip(exchanges, sims[best], strict=True)
                if sim >= thresholds.corroborate_unit}
    return sentences[best] if len(sessions) >= 2 else None


def _shared_topic(topic: TopicPlan) -> bool:
    """A topic that recurred in the words of more than one agent."""
    return topic.episodic and len({u.owner_agent_id for u in topic.units}) > 1


# A statement the extraction is at least this sure of is a point of its own (the rule forms: "must", "never",
# "we prefer", "Lesson: …"); below it, the general forms (a present-tense statement, a story with a date).
POINT_CONFIDENCE = 0.7


def _one_memory_per_point(plans: list[ExperiencePlan], *, units: list[Exchange],
                          thresholds: Thresholds) -> list[ExperiencePlan]:
    """A shared topic's items: its point(s), with the asides folded in as their evidence. Agents restating one team
    fact each tell it around their own story ("a customer asks if they can call us on Saturday" — "not by phone,
    the line is closed at weekends"); the extraction made an item of the story beside the fact, and the topic
    became three memories, each with one agent's words. Kept: the best statement (a rule or fact before a story,
    then the surest) and every other statement said in a rule form; a change always (it is said once: "instead",
    "no longer", or another value than the best's, unless it is a story's). The rest corroborates the best: its
    words are the topic's, said again — when the words it came from restate the best (at least θ_corroborate_unit,
    the evidence sweep's test): a topic ripe at θ_sim_agents may hold two neighbouring facts, neither an aside."""
    if len(plans) < 2:
        return plans
    best = max(plans, key=lambda p: (p.draft.type != "event", p.draft.confidence))
    vectors = {str(u.pk): np.asarray(u.embedding, dtype=np.float32) for u in units}
    statement = np.asarray(best.embedding, dtype=np.float32)

    def witnesses_best(plan: ExperiencePlan) -> bool:
        sources = [vectors[e] for e in plan.draft.evidence if e in vectors]
        return bool(sources) and all(float(np.dot(v, statement)) >= thresholds.corroborate_unit for v in sources)

    def own_point(p: ExperiencePlan) -> bool:
        return (p is best or bool(p.draft.contradicts) or p.draft.confidence >= POINT_CONFIDENCE
                # how the team wants things done is no aside of a fact ("we like every alert to include a link to
                # its runbook" beside "going forward, all alerts page the on-call via Opsgenie")
                or (p.draft.type in RULE_TYPES and best.draft.type not in RULE_TYPES)
                or _says_a_change(p.draft)
                or (p.draft.type != "event" and _other_values(p.draft.statement, best.draft.statement))
                or not witnesses_best(p))

    kept = []
    for plan in plans:
        if own_point(plan):
            kept.append(plan)
        else:
            best.draft.evidence.extend(e for e in plan.draft.evidence if e not in best.draft.evidence)
    return kept


# --- writing (one transaction) -------------------------------------------------------------------------------------

def resolution_score(exp: Experience | None, *, verified: bool, statement: str, when: datetime | None,
                     newer: bool) -> float:
    """Who wins a contradiction: verified, specific, fresh, newer (DESIGN §3.3)."""
    specificity = min(1.0, len(statement.split()) / 25)
    age_days = (timezone.now() - when).total_seconds() / 86400 if when else 365
    freshness = math.exp(-max(age_days, 0) / 90)
    return 0.4 * verified + 0.2 * specificity + 0.2 * freshness + 0.2 * newer


def contradiction_winner(*, new: Experience, old: Experience) -> tuple[Experience, Experience]:
    """(winner, loser) of a new item and the older item it contradicts, by resolution score. "Newer" is said later,
    not written later: a pass replaying old sessions writes what was said before a change after the change's item,
    and must not bring the old value back over it."""
    new_when, old_when = new.valid_from, old.valid_from or old.created_at
    newer = new_when is None or old_when is None or new_when >= old_when
    new_score = resolution_score(new, verified=False, statement=new.statement, when=new_when, newer=newer)
    old_score = resolution_score(old, verified=old.verified, statement=old.statement, when=old_when,
                                 newer=not newer)
    return (new, old) if new_score >= old_score else (old, new)


def _apply_topic(*, agent, batch, topic: TopicPlan, thresholds: Thresholds, embedder_model: str,
                 summary: dict, audit: list, planner: Planner = DEFAULT_PLANNER) -> None:
    now = timezone.now()
    if topic.dropped:  # back to raw: they may ripen with units of their own scope later
        Exchange.objects.filter(pk__in=[u.pk for u in topic.dropped], state=Exchange.State.CANDIDATE).update(
            state=Exchange.State.RAW)
    unit_ids = {str(u.pk): u for u in topic.units}
    # A personal output belongs to the owner of that personal scope (always the agent: its units are its own).
    scope_fields = {"project_id": agent.project_id, "owner_agent_id": topic.scope.owner_agent_id or agent.pk,
                    "module_id": topic.scope.module_id, "scope": topic.scope.scope}
    episodes: list[Episode] = []
    for draft, vector in zip(topic.episodes, topic.episode_embeddings, strict=True):
        sources = [unit_ids[i] for i in draft.unit_ids if i in unit_ids] or list(topic.units)
        times = [s.occurred_at for s in sources]
        if topic.merge_into is not None:
            episode = Episode.objects.select_for_update().get(pk=topic.merge_into.pk)
            memory_version_save(obj=episode, batch=batch, reason="merge")
            episode.title, episode.narrative, episode.embedding = draft.title, draft.narrative, vector
            episode.version += 1
            episode.started_at = min([t for t in [episode.started_at, *times] if t], default=None)
            episode.ended_at = max([t for t in [episode.ended_at, *times] if t], default=None)
            episode.updated_at = now
            episode.save()
            summary["episodes_merged"].append(str(episode.pk))
            audit.append({"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EPISODE,
                          "object_id": episode.pk, "reason": "merge", "source_ids": [s.pk for s in sources]})
        else:
            episode = Episode.objects.create(title=draft.title[:300], narrative=draft.narrative, embedding=vector,
                                             embedding_model=embedder_model, batch=batch, started_at=min(times),
                                             ended_at=max(times), **scope_fields)
            summary["episodes_created"].append(str(episode.pk))
            audit.append({"action": AuditEvent.Action.CREATE, "object_type": AuditObject.EPISODE,
                          "object_id": episode.pk, "source_ids": [s.pk for s in sources]})
        EpisodeSource.objects.bulk_create([EpisodeSource(episode=episode, exchange=s, batch=batch) for s in sources],
                                          ignore_conflicts=True)
        episode_trust_update(episode=episode)
        reason = held_reason(texts=[draft.title, draft.narrative], sources=sources,
                             shared=episode.scope != Scope.PERSONAL)
        if reason:  # merged into a released episode too: it now holds the flagged text
            output_hold(obj=episode, reason=reason, batch=batch, summary=summary, audit=audit)
        episodes.append(episode)

    for plan in topic.experiences:
        _apply_experience(agent=agent, batch=batch, plan=plan, units=unit_ids, topic=topic, thresholds=thresholds,
                          embedder_model=embedder_model, episode=episodes[0] if episodes else None, summary=summary,
                          audit=audit, scope_fields=scope_fields)

    if planner.semantic and not planner.kind:  # the product's own items (a baseline writes its own way)
        _unclaimed_units_attach(agent=agent, batch=batch, topic=topic, thresholds=thresholds, summary=summary,
                                audit=audit)
        _same_point_fold(batch=batch, topic=topic, thresholds=thresholds, summary=summary, audit=audit)

    if topic.planned:
        planner.apply(agent=agent, batch=batch, topic=topic, embedder_model=embedder_model, summary=summary,
                      audit=audit, scope_fields=scope_fields)


def _same_point_fold(*, batch, topic: TopicPlan, thresholds: Thresholds, summary: dict, audit: list) -> None:
    """Two active items of the topic's scope that the same exchanges witness are one point said twice: the
    extraction typed "we like every bug report to include a recording" a preference and "a quick recording in the
    ticket saves so much time, always add one" a constraint, and the evidence sweep gave both the same paraphrases.

    Folded when: they are of one type, or both rules (a preference, constraint, pattern or lesson: which kind a
    rule is, is the extraction's guess), or a fact and a rule other than a lesson ("chat transcripts must be
    deleted after 90 days" a constraint, "the privacy policy says we keep chats no longer than ninety days" a fact)
    — a fact, a lesson and a procedure on one topic stay three items ("the deploy failed: no migrations", "always
    migrate first", "1. migrate 2. test 3. deploy"); they share at least two witnesses, or half of the smaller
    item's; their statements are related (θ_related) and neither changes the other; and they were written apart
    (two items this batch wrote are the points the consolidator made of its topics, each with the topic's
    exchanges as evidence). The younger is folded into the elder: its evidence moves over, it is superseded by it
    (kept, with its wording, as the audit's and rollback's version), never a second row for one point. A reviewed
    item is kept over an unreviewed one; two reviewed items, or an item held in quarantine, are left."""
    units = [u.pk for u in topic.units]
    touched = list(Experience.objects.in_scope(topic.scope).filter(status=MemoryStatus.ACTIVE, quarantined=False,
                                                                   evidence__in=units).distinct())
    folded: set = set()
    for item in touched:
        if item.pk in folded:
            continue
        mine = set(ExperienceEvidence.objects.filter(experience=item).values_list("exchange_id", flat=True))
        others = (Experience.objects.in_scope(topic.scope).filter(status=MemoryStatus.ACTIVE, quarantined=False,
                                                                  evidence__in=mine)
                  .exclude(pk=item.pk).exclude(pk__in=folded).distinct()
                  .annotate(distance=CosineDistance("embedding", item.embedding)))
        for other in others:
            theirs = set(ExperienceEvidence.objects.filter(experience=other).values_list("exchange_id", flat=True))
            shared = len(mine & theirs)
            if item.batch_id == other.batch_id == batch.pk \
                    and not _one_point_twice(item, other, 1.0 - float(other.distance), thresholds):
                continue  # two points the consolidator made of one topic
            if not _foldable_types(item, other) \
                    or not (shared >= 2 or 2 * shared >= min(len(mine), len(theirs))) \
                    or 1.0 - float(other.distance) < thresholds.related or (item.verified and other.verified) \
                    or _changes(item.statement, other.statement) or _changes(other.statement, item.statement):
                continue
            keep, fold = sorted((item, other), key=lambda x: (not x.verified, x.created_at))
            _fold_into(keep=keep, fold=fold, batch=batch, summary=summary, audit=audit)
            folded.add(fold.pk)
            if fold.pk == item.pk:
                break
            mine |= theirs


def _foldable_types(a: Experience, b: Experience) -> bool:
    """Types one point may have been given twice (see :func:`_same_point_fold`)."""
    types = {a.type, b.type}
    return len(types) == 1 or types <= RULE_TYPES or types <= (RULE_TYPES | {"fact"}) - {"lesson"}


def _one_point_twice(a: Experience, b: Experience, sim: float, thresholds: Thresholds) -> bool:
    """Two items one batch wrote that are still one point: paraphrases of each other (halfway from θ_corroborate to
    θ_dedup, where two points of one topic — "deploys go out on Fridays", "a deploy needs the lead's approval" — do
    not reach) naming the same products and values. Seen in a pass over a whole backlog: four sessions' "all card
    charges go through Stripe" became a constraint and a fact of the same words."""
    if not {a.type, b.type} <= RULE_TYPES | {"fact"}:  # two events of one story are two happenings
        return False
    return (sim >= (thresholds.corroborate + thresholds.dedup) / 2
            and _names(a.statement) == _names(b.statement) and _values(a.statement) == _values(b.statement))


def _supersede(*, loser: Experience, winner: Experience, batch, now) -> None:
    """``loser`` no longer holds: ``winner`` replaces it (its state before is kept as the batch's version, for the
    audit trail and a rollback)."""
    memory_version_save(obj=loser, batch=batch, reason="supersede")
    loser.status = MemoryStatus.SUPERSEDED
    loser.superseded_by = winner
    loser.valid_to = supersede_end(loser=loser, winner=winner, now=now)
    loser.version += 1
    loser.updated_at = now
    loser.save()


#: How much nearer its witnesses, on average, the folded item's wording must be before the kept row takes it.
FOLD_REWORD_MARGIN = 0.05


def _nearness(vector, exchange_ids: list) -> float:
    """The mean cosine similarity of ``vector`` to the exchanges ``exchange_ids`` (those with an embedding)."""
    distance = (Exchange.objects.filter(pk__in=exchange_ids, embedding__isnull=False)
                .aggregate(d=Avg(CosineDistance("embedding", vector)))["d"])
    return -1.0 if distance is None else 1.0 - float(distance)


def _better_wording(*, keep: Experience, fold: Experience, witnesses: list) -> bool:
    """Whether the folded item's wording says the point ``witnesses`` make better than the kept one's: the elder of
    two items is kept (its id, versions, review), but the elder may be an aside the first exchange drew ("tbh the
    queue is slow some days") and the younger the rule every paraphrase restates ("every PR reaches main through
    the merge queue"). A reviewed wording is a person's and stays."""
    if keep.verified or fold.embedding is None or keep.embedding is None or fold.statement == keep.statement:
        return False
    return _nearness(fold.embedding, witnesses) >= _nearness(keep.embedding, witnesses) + FOLD_REWORD_MARGIN


def _fold_into(*, keep: Experience, fold: Experience, batch, summary: dict, audit: list) -> None:
    fold = Experience.objects.select_for_update().get(pk=fold.pk)
    moved = list(ExperienceEvidence.objects.filter(experience=fold).values_list("exchange_id", flat=True))
    # Judged on the kept item's own witnesses: a wording an agent floods with its own exchanges does not win by them.
    reword = _better_wording(keep=keep, fold=fold, witnesses=list(
        ExperienceEvidence.objects.filter(experience=keep).values_list("exchange_id", flat=True)))
    keep = _corroborate(item=keep, exchange_ids=moved, batch=batch, tags=fold.tags)
    if reword:  # the kept row's old wording stays as the version _corroborate saved
        for field in ("type", "subject", "statement", "embedding", "embedding_model", "informativeness"):
            setattr(keep, field, getattr(fold, field))
    keep.valid_from = min((x for x in (keep.valid_from, fold.valid_from) if x), default=None)
    experience_support_update(experience=keep)
    _supersede(loser=fold, winner=keep, batch=batch, now=keep.updated_at)
    summary["experiences_superseded"].append(str(fold.pk))
    summary["experiences_merged"].append(str(keep.pk))
    audit.append({"action": AuditEvent.Action.SUPERSEDE, "object_type": AuditObject.EXPERIENCE, "object_id": fold.pk,
                  "reason": f"same point as {keep.pk}: folded into it" + (", which took its wording" if reword else ""),
                  "source_ids": moved})


def _corroborate(*, item: Experience, exchange_ids: list, batch, reason: str = "corroborate",
                 tags: list[str] = ()) -> Experience:
    """``item``, locked, with ``exchange_ids`` linked as evidence of this batch: its state before kept as a version,
    its version, tags and corroboration time moved on. Unsaved: the caller finishes with
    :func:`experience_support_update`, which recounts the support and saves it."""
    item = Experience.objects.select_for_update().get(pk=item.pk)
    memory_version_save(obj=item, batch=batch, reason=reason)
    item.version += 1
    item.tags = [*item.tags, *(t for t in tags if t not in item.tags)][:5]
    item.last_corroborated_at = item.updated_at = timezone.now()
    ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=item, exchange_id=e, batch=batch)
                                            for e in exchange_ids], ignore_conflicts=True)
    return item


def _unclaimed_units_attach(*, agent, batch, topic: TopicPlan, thresholds: Thresholds, summary: dict,
                            audit: list) -> None:
    """A unit of the topic that no item holds as evidence after the topic is written witnesses the active item of
    its scope nearest to it, when that item restates it (at least θ_corroborate_unit, the evidence sweep's test)
    and it names no other value. The sweep runs from an item when it is written; a paraphrase consolidated later,
    in a topic that drew no statement of its own ("what's the most GPUs I can grab without asking anyone?" —
    "16, anything bigger has to be approved"), was never looked at again and stood apart from the item it restates."""
    if thresholds.corroborate_unit >= 1.0:
        return
    units = [u for u in topic.units if u.embedding is not None and not u.quarantined]
    held = set(ExperienceEvidence.objects.filter(exchange__in=units).values_list("exchange_id", flat=True))
    witnessed: dict = {}
    said_by: dict = {}  # item → the words it was drawn from
    for u in units:
        if u.pk in held:
            continue
        found = _nearest_active_item(scope=topic.scope, vector=u.embedding)
        if found is None or found[1] < thresholds.corroborate_unit or found[0].quarantined \
                or _states_otherwise(found[0].statement, u):
            continue
        if found[0].pk not in said_by:
            said_by[found[0].pk] = _evidence_text(found[0])
        if not _close_or_naming(found[0].statement, u, found[1], thresholds, scope=topic.scope,
                                said=said_by[found[0].pk]):
            continue
        if _names_the_old(u, said_by[found[0].pk]):
            # It witnesses the old value: the item the change replaced, when it restates that one.
            replaced = _replaced_by(found[0], vector=u.embedding)
            if replaced is not None and replaced[1] >= thresholds.corroborate_unit:
                witnessed.setdefault(replaced[0].pk, (replaced[0], []))[1].append(u)
            continue
        witnessed.setdefault(found[0].pk, (found[0], []))[1].append(u)
    for item, found in witnessed.values():
        item = _corroborate(item=item, exchange_ids=[e.pk for e in found], batch=batch)
        experience_support_update(experience=item)
        summary["experiences_merged"].append(str(item.pk))
        active = item.status == MemoryStatus.ACTIVE
        audit.append({"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EXPERIENCE, "object_id": item.pk,
                      "reason": "paraphrase: corroborated" if active
                      else "said before its change: corroborates the replaced item",
                      "source_ids": [e.pk for e in found]})
        if active:
            _propose_promotion(agent=agent, batch=batch, experience=item, summary=summary, audit=audit)


def _replaced_by(item: Experience, *, vector) -> tuple[Experience, float] | None:
    """Of the items ``item`` superseded, the one nearest ``vector``, with its similarity."""
    nearest = (Experience.objects.filter(superseded_by=item, status=MemoryStatus.SUPERSEDED)
               .annotate(distance=CosineDistance("embedding", vector)).order_by("distance").first())
    return (nearest, 1.0 - float(nearest.distance)) if nearest is not None else None


def _apply_experience(*, agent, batch, plan: ExperiencePlan, units, topic, thresholds, embedder_model, episode,
                      summary, audit, scope_fields) -> None:
    draft = plan.draft
    evidence = [units[i] for i in draft.evidence if i in units] or list(topic.units)
    # Flagged text, or drawn from held evidence: a new item held in quarantine, never merged into a clean one.
    reason = held_reason(texts=[draft.subject, draft.statement], sources=evidence,
                         shared=topic.scope.scope != Scope.PERSONAL)
    # The topic's other units that restate the item are its evidence too (a paraphrase is corroboration): those
    # at least θ_corroborate_unit similar to it and nearer to it than to the topic's other items.
    # A unit no statement of the topic was drawn from recurred with the others (that is how the topic formed) and
    # says nothing of its own: the item it is nearest restates it at θ_related already ("pls no time.sleep in the
    # suite" under "no hard sleep in tests", 0.41).
    vector = np.asarray(plan.embedding, dtype=np.float32)
    others = [np.asarray(p.embedding, dtype=np.float32) for p in topic.experiences if p is not plan]
    drawn = {i for p in topic.experiences for i in p.draft.evidence}
    said = " ".join(f"{u.user_text} {u.assistant_text}" for u in evidence)
    for u in topic.units:
        if u in evidence or u.embedding is None or u.quarantined or _names_the_old(u, said):
            continue
        v = np.asarray(u.embedding, dtype=np.float32)
        sim = float(np.dot(v, vector))
        loose = str(u.pk) not in drawn and sim < thresholds.corroborate_unit
        if sim >= (thresholds.related if loose else thresholds.corroborate_unit) \
                and all(sim >= float(np.dot(v, o)) for o in others) \
                and not _states_otherwise(draft.statement, u) \
                and not (loose and _restates_another(u, scope=topic.scope, sim=sim)):
            evidence.append(u)
    sources = [units[i] for i in draft.evidence if i in units]
    duplicate = None if reason else _corroborated_item(
        scope=topic.scope, draft=draft, vector=plan.embedding, thresholds=thresholds, sources=sources,
        said_in=evidence)
    if duplicate is not None and duplicate.status == MemoryStatus.SUPERSEDED:  # the old value, said again
        duplicate = _corroborate(item=duplicate, exchange_ids=[e.pk for e in sources], batch=batch, reason="dedup")
        experience_support_update(experience=duplicate)
        summary["experiences_merged"].append(str(duplicate.pk))
        audit.append({"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EXPERIENCE,
                      "object_id": duplicate.pk, "reason": "said before its change: corroborates the replaced item",
                      "source_ids": [e.pk for e in sources]})
        return
    if duplicate is not None:
        duplicate = _corroborate(item=duplicate, exchange_ids=[e.pk for e in evidence], batch=batch, reason="dedup",
                                 tags=draft.tags)
        duplicate.needs_revalidation = False  # corroborated again
        # Swept with the item's own statement: the paraphrase's wording ("shipping at the end of the week is off
        # limits") drew in what is near that wording and not the item ("test each migration before it goes out").
        _evidence_sweep(experience=duplicate, vector=duplicate.embedding, scope=topic.scope, thresholds=thresholds,
                        batch=batch)
        _old_witnesses_drop(item=duplicate, batch=batch)
        _farther_witnesses_drop(item=duplicate, scope=topic.scope, thresholds=thresholds, batch=batch)
        experience_support_update(experience=duplicate)
        summary["experiences_merged"].append(str(duplicate.pk))
        audit.append({"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EXPERIENCE,
                      "object_id": duplicate.pk,
                      "reason": "paraphrase: corroborated", "source_ids": [e.pk for e in evidence]})
        _moved_supersede(item=duplicate, scope=topic.scope, skip=(), batch=batch, summary=summary, audit=audit)
        _propose_promotion(agent=agent, batch=batch, experience=duplicate, summary=summary, audit=audit)
        return

    experience = Experience.objects.create(
        type=draft.type, subject=draft.subject[:300], statement=draft.statement, embedding=plan.embedding,
        embedding_model=embedder_model, confidence=max(0.05, min(0.99, draft.confidence)),
        informativeness=informativeness(draft.statement),
        valid_from=draft.valid_from or max(e.occurred_at for e in evidence), valid_to=draft.valid_to,
        episode=episode, batch=batch, tags=draft.tags, **scope_fields)
    ExperienceEvidence.objects.bulk_create(
        [ExperienceEvidence(experience=experience, exchange=e, batch=batch) for e in evidence],
        ignore_conflicts=True)
    _evidence_sweep(experience=experience, vector=plan.embedding, scope=topic.scope, thresholds=thresholds,
                    batch=batch)
    _old_witnesses_drop(item=experience, batch=batch)
    _farther_witnesses_drop(item=experience, scope=topic.scope, thresholds=thresholds, batch=batch)
    experience_support_update(experience=experience, base=experience.confidence)
    summary["experiences_created"].append(str(experience.pk))
    audit.append({"action": AuditEvent.Action.CREATE, "object_type": AuditObject.EXPERIENCE, "object_id": experience.pk,
                  "source_ids": [e.pk for e in evidence], "data": {"type": draft.type}})
    if reason:
        output_hold(obj=experience, reason=reason, batch=batch, summary=summary, audit=audit)

    # Contradictions within the output's scope: the winner by resolution score stays active, the loser is
    # superseded (kept, linked). With an item of a wider scope (all the consolidator was shown besides its own
    # scope): a conflict for a person to decide, both stay active — one agent never removes what others share.
    for old in Experience.objects.select_for_update().visible_throughout(topic.scope).filter(
            pk__in=[c for c in draft.contradicts if _is_uuid(c)], status=MemoryStatus.ACTIVE).order_by("created_at"):
        if ScopeKey.of(old) != topic.scope:
            if experience.status != MemoryStatus.ACTIVE:  # lost within its own scope: nothing left to decide
                continue
            item = review_conflict_create(experience=experience, other=old, batch=batch)
            if item is not None:
                summary["review_items"].append(str(item.pk))
                audit.append({"action": AuditEvent.Action.CREATE, "object_type": AuditObject.REVIEW_ITEM,
                              "object_id": item.pk, "reason": f"conflict with {old.scope} item {old.pk}",
                              "source_ids": [experience.pk, old.pk]})
            continue
        winner, loser = contradiction_winner(new=experience, old=old)
        _supersede(loser=loser, winner=winner, batch=batch, now=timezone.now())
        summary["experiences_superseded"].append(str(loser.pk))
        audit.append({"action": AuditEvent.Action.SUPERSEDE, "object_type": AuditObject.EXPERIENCE,
                      "object_id": loser.pk, "reason": f"contradicted; winner {winner.pk}",
                      "source_ids": [e.pk for e in evidence]})
    if experience.status == MemoryStatus.ACTIVE:
        _moved_supersede(item=experience, scope=topic.scope, skip=draft.contradicts, batch=batch, summary=summary,
                         audit=audit)
    _propose_promotion(agent=agent, batch=batch, experience=experience, summary=summary, audit=audit)


def _old_witnesses_drop(*, item: Experience, batch) -> None:
    """This batch's evidence of ``item`` that names what the item's own words moved away from is no evidence of it:
    the topic or the sweep may attach "every training run gets logged to MLflow" before "we've migrated experiment
    tracking from MLflow to wandb" joins the item, and then the old value counted as corroboration of the new."""
    said = _evidence_text(item)
    if not (_moves(said) or _REPLACED_RE.search(said)):
        return
    old = [e.pk for e in Exchange.objects.filter(experienceevidence__experience=item,
                                                 experienceevidence__batch=batch) if _names_the_old(e, said)]
    if old:
        ExperienceEvidence.objects.filter(experience=item, batch=batch, exchange_id__in=old).delete()


#: how much nearer another item must be for an exchange to witness that item only: one that says two things
#: ("broken layouts on small phones" / "each screen needs snapshot tests") is about as near both and stays with both
WITNESS_MARGIN = 0.1


def _farther_witnesses_drop(*, item: Experience, scope: ScopeKey, thresholds: Thresholds, batch) -> None:
    """An exchange this batch attached to ``item`` and to another item of its scope witnesses the one it restates:
    where one of the two is clearly nearer it (:data:`WITNESS_MARGIN`), this batch's row on the farther one goes.
    Items are written one after another, so an exchange is attached to the best item *so far*: "the old UIKit screens
    are painful, let's not add more" witnessed "we dropped iOS 16" (0.45) before the batch wrote "we prefer SwiftUI for
    new iOS screens" (0.81), and the change "crash reports land in Sentry, not Crashlytics" the old Crashlytics item
    (0.49) before the Sentry item (0.80). Only this batch's rows: earlier ones were read, reviewed or proposed, and a
    rollback removes exactly what its batch wrote. An item keeps at least one witness. Two items that may be one
    point said twice (types the fold joins, θ_related similar, neither changing the other) keep their shared
    witnesses: :func:`_same_point_fold` reads them. Whatever the margin, an exchange that leaves out what a change
    moved to witnesses the other item (:func:`_unnamed_change`)."""
    if item.embedding is None:
        return
    mine = {e.exchange_id: e for e in ExperienceEvidence.objects.filter(experience=item, batch=batch)
            .select_related("exchange")}
    if not mine:
        return
    rows = [r for r in ExperienceEvidence.objects.filter(exchange_id__in=mine).exclude(experience=item)
            .select_related("experience") if ScopeKey.of(r.experience) == scope and r.experience.embedding is not None
            and r.experience.embedding_model == item.embedding_model]
    if not rows:
        return
    here = np.asarray(item.embedding, dtype=np.float32)
    drop: list[ExperienceEvidence] = []
    for row in rows:
        other = row.experience
        there = np.asarray(other.embedding, dtype=np.float32)
        exchange = mine[row.exchange_id].exchange
        text = f"{exchange.user_text} {exchange.assistant_text}"
        # A change names what the team moved to: an exchange that leaves that out witnesses the other item, however
        # near both ("what do on-call folks want in an alert? — a link to the runbook" is no witness of "going
        # forward, all alerts page the on-call via Opsgenie", 0.63, beside "alerts without a runbook are noise", 0.57)
        if _unnamed_change(item.statement, text) and not _unnamed_change(other.statement, text):
            drop.append(mine[row.exchange_id])
            continue
        if row.batch_id == batch.pk and _unnamed_change(other.statement, text) \
                and not _unnamed_change(item.statement, text):
            drop.append(row)
            continue
        if _foldable_types(item, other) and float(np.dot(here, there)) >= thresholds.related \
                and not _changes(item.statement, other.statement) and not _changes(other.statement, item.statement):
            continue  # maybe one point said twice: the fold reads their shared witnesses
        unit = np.asarray(exchange.embedding, dtype=np.float32)
        ours, theirs = float(np.dot(unit, here)), float(np.dot(unit, there))
        if theirs + WITNESS_MARGIN <= ours and row.batch_id == batch.pk and not _still_names(other.statement, text):
            drop.append(row)
        elif ours + WITNESS_MARGIN <= theirs and not _still_names(item.statement, text):
            drop.append(mine[row.exchange_id])
    touched = set()
    for row in {r.pk: r for r in drop}.values():
        if ExperienceEvidence.objects.filter(experience_id=row.experience_id).count() > 1:
            row.delete()
            touched.add(row.experience_id)
    for other in Experience.objects.select_for_update().filter(pk__in=touched - {item.pk}):
        experience_support_update(experience=other)


def _still_names(statement: str, text: str) -> bool:
    """``text`` names what ``statement`` is about — a product or a value of it, or two of its content words — and
    so witnesses it however much nearer another item is: it says two things ("I'm writing the onboarding doc for
    payments" / "mention that cards are processed by Stripe"). Sharing one word ("iOS") is no witness."""
    return bool(_names(statement) & _names(text) or _values(statement) & _values(text)
                or len(canonical_form("", statement) & canonical_form("", text)) >= 2)


def _misses_its_product(statement: str, text: str) -> bool:
    """``statement`` names a product or tool (:func:`_names`: "Opsgenie") and ``text`` names none of those, in any
    case ("we page through opsgenie" names it)."""
    names = _names(statement)
    return bool(names) and not names & set(re.findall(r"[\w+#]+(?:[.-][\w+#]+)*", text.lower()))


def _unnamed_change(statement: str, text: str) -> bool:
    """``statement`` says a change or a rule from now on ("going forward, all alerts page the on-call via Opsgenie")
    and ``text`` names none of its products: it cannot witness that change."""
    return bool(_CHANGE_RE.search(statement) or _FROM_NOW_RE.search(statement)) and _misses_its_product(statement, text)


def _close_or_naming(statement: str, unit: Exchange, sim: float, thresholds: Thresholds, *,
                     scope: ScopeKey | None = None, said: str = "") -> bool:
    """Similarity alone makes a unit of another topic an item's witness (the evidence sweep, the unclaimed units)
    only when it is close (θ_corroborate); below that the unit must name what the item is about
    (:func:`_still_names`). At 0.45 "where would I look to debug a ledger balance mismatch? — query the ledger tables
    …" shared one word with "we once stored amounts as floats, and the ledger drifted by a few cents every night"
    and counted as its corroboration. Within the item's own topic the recurrence is the evidence: "can I merge with
    just one review? — the repository requires two approvals" restates "a change must never land on main without a
    second reviewer signing off" without a word of it."""
    text = f"{unit.user_text} {unit.assistant_text}"
    # In a shared scope (several agents, one vocabulary) an exchange must also say one of the scope's rare terms
    # that the item says (memory.distinctive): "can you write the commit message … (conventional commit format)" is
    # no witness of "merge the fix to main first, then cherry-pick it". Not in a personal scope: the neighbours were
    # seen in a module's vocabulary, and on LoCoMo's personal scopes the rule gained nothing (round 42: evidence
    # recall -0.010, answer recall +0.013 at 600 tokens, inside one run's spread).
    if scope is not None and scope.scope != Scope.PERSONAL and not share_a_distinctive_term(
            f"{statement} {said}", text, rarity=scope_rarity(scope, form=_form), form=_form):
        return False
    return sim >= thresholds.corroborate or _still_names(statement, text)


def _moved_supersede(*, item: Experience, scope: ScopeKey, skip, batch, summary: dict, audit: list) -> None:
    """Items of ``item``'s scope that its evidence, as it stands after the sweep, says the team moved away from:
    superseded, the winner by date (:func:`contradiction_winner`). The draft's own look-up saw only the words it
    was drawn from; the sentence saying the change ("we've migrated … from MLflow to wandb") may join the item only
    in the sweep, and the old item stayed active beside it."""
    said = _evidence_text(item)
    if not _moves(said):
        return
    now = timezone.now()
    for old in moved_items(scope=scope, said=said):
        if old.pk == item.pk or str(old.pk) in skip:
            continue
        old = Experience.objects.select_for_update().get(pk=old.pk)
        if old.status != MemoryStatus.ACTIVE:
            continue
        winner, loser = contradiction_winner(new=item, old=old)
        _supersede(loser=loser, winner=winner, batch=batch, now=now)
        summary["experiences_superseded"].append(str(loser.pk))
        audit.append({"action": AuditEvent.Action.SUPERSEDE, "object_type": AuditObject.EXPERIENCE,
                      "object_id": loser.pk, "reason": f"moved away from; winner {winner.pk}",
                      "source_ids": [item.pk]})
        if loser.pk == item.pk:
            return


CORROBORATION_K = 5  # the REM design's dedup: the best of the k nearest, not the single nearest
#: how much closer than θ_corroborate a paraphrase of another type must be (tuned on bench/scenarios/platform_team)
CROSS_TYPE_MARGIN = 0.1
#: the kinds of "how we do things" a rule may be typed as (see _corroborated_item)
RULE_TYPES = frozenset({"preference", "constraint", "pattern", "lesson"})
HOP_SOURCES = 2 * CORROBORATION_K


def _evidence_sweep(*, experience: Experience, vector, scope: ScopeKey, thresholds: Thresholds, batch) -> None:
    """Exchanges of the item's scope that restate it (at least θ_corroborate_unit similar to the statement) are its
    evidence too, wherever they were consolidated, or still raw: a paraphrase said in another session, or taken into
    another topic, corroborates the item it restates instead of standing apart."""
    if thresholds.corroborate_unit >= 1.0:
        return
    with nearest_scan(Exchange):
        near = list(Exchange.objects.in_scope(scope).exclude(state=Exchange.State.HELD)
                    .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[:2 * CORROBORATION_K])
    found = []
    said = _evidence_text(experience)
    for e in near:
        if 1.0 - float(e.distance) < thresholds.corroborate_unit or _states_otherwise(experience.statement, e) \
                or _names_the_old(e, said) \
                or not _close_or_naming(experience.statement, e, 1.0 - float(e.distance), thresholds, scope=scope,
                                        said=said):
            continue
        if _nearest_item(e, scope) == experience.pk:
            found.append(e)
    # One hop further: an exchange that recurs with one of the item's witnesses (at least θ_sim_sessions similar,
    # the similarity the session rule counts one topic at) and restates no other item is a witness too — "what
    # should I install for payments?" / "the Go toolchain" says the fact without the statement's words.
    # The hop starts only from this batch's witnesses (the earlier ones were hopped from when they were attached),
    # at most HOP_SOURCES of them: from every witness, an item corroborated hundreds of times made each write
    # phase thousands of queries long, growing with the item's history.
    statement = np.asarray(vector)
    batch_witnesses = {e.pk: e for e in [*Exchange.objects.filter(experienceevidence__experience=experience,
                                                                  experienceevidence__batch=batch), *found]}
    sources = sorted(batch_witnesses.values(),
                     key=lambda w: -float(np.dot(np.asarray(w.embedding), statement)))[:HOP_SOURCES]
    known = set(Exchange.objects.filter(experiences=experience).values_list("pk", flat=True)) | set(batch_witnesses)
    nearest: dict = {}
    with nearest_scan(Exchange):
        for w in sources:
            for e in (Exchange.objects.in_scope(scope).exclude(state=Exchange.State.HELD)
                      .annotate(distance=CosineDistance("embedding", w.embedding))
                      .order_by("distance")[:2 * CORROBORATION_K]):  # known witnesses filtered out here
                if e.pk in known:
                    continue
                if 1.0 - float(e.distance) < thresholds.theta_sim_sessions \
                        or _states_otherwise(experience.statement, e) or _names_the_old(e, said) \
                        or float(np.dot(np.asarray(e.embedding), statement)) < thresholds.related:
                    continue
                if e.pk not in nearest:
                    nearest[e.pk] = _nearest_item(e, scope)
                if nearest[e.pk] == experience.pk:
                    found.append(e)
                    known.add(e.pk)
    ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=experience, exchange=e, batch=batch)
                                            for e in found], ignore_conflicts=True)


def _names_the_old(unit: Exchange, said: str) -> bool:
    """``unit`` names what an item's own words (``said``) moved away from ("every training run gets logged to MLflow"
    under an item drawn from "we've migrated experiment tracking from MLflow to wandb"): it witnesses the old value,
    however close its wording is to the item. Or it names a value those words replaced and none of that kind they
    replaced it with ("our team standup is at 9:30" under "the standup moved: it is at 10:00 now instead of 9:30")."""
    text = f"{unit.user_text} {unit.assistant_text}"
    if moved_away(text, said):
        return True
    replaced = {_value_key(m.group(1)) for m in _REPLACED_RE.finditer(said)}
    named = _values(text)
    kinds = {_value_kind(v) for v in replaced}  # "Friday 15:00" under "16:00 instead of 15:00" on Fridays: old
    return bool(named & replaced) and not any(_value_kind(v) in kinds for v in named & (_values(said) - replaced))


def _restates_another(e: Exchange, *, scope: ScopeKey, sim: float) -> bool:
    """An item of the scope is nearer ``e`` than ``sim``: its words are that item's, not a loose aside of the topic."""
    found = _nearest_active_item(scope=scope, vector=e.embedding)
    return found is not None and found[1] > sim


def _nearest_item(e: Exchange, scope: ScopeKey):
    """The item an exchange restates: the nearest active or superseded one of the scope (an exchange nearest to a
    superseded item witnesses the old value, not whatever active item comes next)."""
    return (Experience.objects.in_scope(scope).filter(status__in=(MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED))
            .annotate(distance=CosineDistance("embedding", e.embedding)).order_by("distance")
            .values_list("pk", flat=True).first())


def _corroborated_item(*, scope: ScopeKey, draft: ExperienceDraft, vector, thresholds: Thresholds,
                       sources: list[Exchange] = (), said_in: list[Exchange] = ()) -> Experience | None:
    """The active item of the same scope and type that ``draft`` restates, if any: among the k nearest, those at
    least θ_corroborate similar (or θ_dedup, when that is lower) or with the same canonical form, and the items
    whose evidence already holds the words the draft came from (``sources``) or words it restates (at least
    θ_corroborate_unit similar); of those the most confident (then the nearest). A contradiction is never a
    paraphrase, however close the wording ("prefers morning" / "now prefers evening"); nor is an item that the
    draft, or the words it came from (``said_in``), say the team moved away from."""
    with nearest_scan(Experience):
        # An expired item is not restated by a new statement: it is said again, for a new window.
        nearest = list(Experience.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE, type=draft.type)
                       .filter(experience_current_q(timezone.now()))
                       .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[:CORROBORATION_K])
    floor = min(thresholds.corroborate, thresholds.dedup)
    key = canonical_form(draft.subject, draft.statement)
    matches = [(x, 1.0 - float(x.distance)) for x in nearest if str(x.pk) not in draft.contradicts]
    matches = [(x, sim) for x, sim in matches
               if sim >= floor or (sim >= thresholds.related and canonical_match(key, canonical_form(x.subject,
                                                                                                  x.statement)))]
    # The same rule typed otherwise ("we prefer squash merges" a preference, "always squash and merge" a pattern):
    # a paraphrase still, on the embedding alone and with a margin, since which of the three kinds of "how we do
    # things" a sentence is, is the extraction's guess. A fact, a lesson and a procedure on one topic stay three
    # items ("the deploy failed: no migrations", "always migrate first", "1. migrate 2. test 3. deploy").
    kin = RULE_TYPES - {draft.type} if draft.type in RULE_TYPES else set()
    with nearest_scan(Experience):  # the k nearest of the other types: kin paraphrases here, changes below
        other_types = [(x, 1.0 - float(x.distance)) for x in (
            Experience.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE).exclude(type=draft.type)
            .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[:CORROBORATION_K])]
    matches += [(x, sim) for x, sim in other_types
                if x.type in kin and sim >= floor + CROSS_TYPE_MARGIN and str(x.pk) not in draft.contradicts]
    seen = {x.pk for x, _ in matches}
    direct = set(seen)  # matched by the statement itself (``seen`` grows with the evidence-based matches below)
    if sources:  # an item already holding the draft's own words as evidence: the same thing said again
        for x in (Experience.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE, type=draft.type,
                                                            evidence__in=[u.pk for u in sources]).distinct()
                  .annotate(distance=CosineDistance("embedding", vector))):
            if x.pk not in seen and str(x.pk) not in draft.contradicts:
                matches.append((x, 1.0 - float(x.distance)))
                seen.add(x.pk)
    if thresholds.corroborate_unit < 1.0:  # the items whose own evidence the new statement restates
        near_units = (Exchange.objects.in_scope(scope).filter(state=Exchange.State.CONSOLIDATED)
                      .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
                      [:2 * CORROBORATION_K])
        close = {u.pk: 1.0 - float(u.distance) for u in near_units
                 if 1.0 - float(u.distance) >= thresholds.corroborate_unit}
        if close:
            for x in (Experience.objects.in_scope(scope).filter(status=MemoryStatus.ACTIVE, type=draft.type,
                                                                evidence__in=list(close)).distinct()):
                if x.pk not in seen and str(x.pk) not in draft.contradicts:
                    matches.append((x, max(close[e] for e in x.evidence.filter(pk__in=list(close))
                                           .values_list("pk", flat=True))))
                    seen.add(x.pk)
    now = timezone.now()
    matches = [(x, sim) for x, sim in matches if x.valid_to is None or x.valid_to > now]  # expired: said anew
    # A close item that this statement changes (another day, number or time; "instead of …") is not
    # corroborated: it is contradicted, and superseded within the scope rule below.
    # The words the draft came from may name the change its statement leaves out: "card processing switched from
    # Stripe to Adyen" drafted as "going forward, all card authorizations go through Adyen".
    said = " ".join([draft.statement, *(f"{u.user_text} {u.assistant_text}" for u in [*sources, *said_in])])
    changed = [x for x, _ in matches if _changes(draft.statement, x.statement) or moved_away(x.statement, said)]
    # Of any type: a change may be typed otherwise than what it changes ("the team now prefers rebase merges"
    # against the pattern "always squash and merge"). Naming what it moved away from, a related item suffices.
    changed += [x for x, sim in other_types if x not in changed and sim >= floor
                and _changes(draft.statement, x.statement)]
    changed += [x for x in moved_items(scope=scope, said=said) if x not in changed]
    # The mirror, for a pass that writes what was said before a change after the change's item (a backlog: "log
    # every run to MLflow" of the 8th written after "from now on, log all runs to wandb" of the 16th): an item
    # said later that changes this statement contradicts it, and wins by its date (contradiction_winner), as it
    # would have, written in the order said.
    said_at = max((u.occurred_at for u in sources), default=draft.valid_from)  # its own words, not the topic's
    if said_at is not None:
        changed += [x for x, sim in [*matches, *other_types] if x not in changed and sim >= floor
                    and x.valid_from is not None and x.valid_from > said_at
                    and (_changes(x.statement, draft.statement) or moved_away(draft.statement, _evidence_text(x)))]
    draft.contradicts.extend(str(x.pk) for x in changed if str(x.pk) not in draft.contradicts)
    matches = [(x, sim) for x, sim in matches if x not in changed]
    if changed:  # a change corroborates only an item that already says the new (its statement, not its evidence)
        matches = [(x, sim) for x, sim in matches if x.pk in direct]
    if not matches:
        return _point_of_aside(scope=scope, draft=draft, sources=sources, thresholds=thresholds) \
            or _replaced_item(scope=scope, draft=draft, sources=sources)
    return max(matches, key=lambda m: (m[0].confidence, m[1]))[0]


def _replaced_item(*, scope: ScopeKey, draft: ExperienceDraft, sources: list[Exchange]) -> Experience | None:
    """A superseded item of the scope that already holds the draft's own words as evidence, replaced by an active
    item said after them that changes the draft too: the draft is that old value said again (a pass over a backlog
    took "every training run gets logged to MLflow" once more after the change had replaced the item it
    witnesses). It joins that item instead of standing as a second old item for the change to supersede. Of any
    type: the change would supersede the draft whatever the extraction typed it."""
    if not sources:
        return None
    said_at = max(u.occurred_at for u in sources)
    for x in (Experience.objects.in_scope(scope).filter(status=MemoryStatus.SUPERSEDED,
                                                        evidence__in=[u.pk for u in sources])
              .select_related("superseded_by").distinct().order_by("-updated_at")):
        winner = x.superseded_by
        if winner is not None and winner.status == MemoryStatus.ACTIVE and winner.valid_from is not None \
                and winner.valid_from > said_at and str(winner.pk) in draft.contradicts:
            return x
    return None


def _evidence_text(item: Experience) -> str:
    """The words an item was drawn from ("we've migrated experiment tracking from MLflow to wandb" behind "from now
    on, log all training runs to wandb")."""
    return " ".join(f"{u} {a}" for u, a in Exchange.objects.filter(experienceevidence__experience=item)
                    .values_list("user_text", "assistant_text"))


def _point_of_aside(*, scope: ScopeKey, draft: ExperienceDraft, sources: list[Exchange],
                    thresholds: Thresholds) -> Experience | None:
    """In a shared scope, the item a weak statement is an aside of: the words it came from witness an active item
    (they restate it, at least θ_corroborate_unit, and it is the item nearest them), of any type — "Zendesk was
    down for ten minutes" from an exchange that restates "all customer tickets are handled in Zendesk". Those
    words corroborate the point; the aside stays in its exchange (searchable), not a memory beside it. Not for a
    statement in a rule form, a change, or a personal scope (one agent's own notes keep every statement)."""
    if scope.scope == Scope.PERSONAL or not sources or draft.contradicts or draft.confidence >= POINT_CONFIDENCE \
            or _says_a_change(draft):
        return None
    points = set()
    for unit in sources:
        found = _nearest_active_item(scope=scope, vector=unit.embedding)
        if found is None or found[1] < thresholds.corroborate_unit or found[0].confidence < draft.confidence \
                or (draft.type != "event" and _changes(draft.statement, found[0].statement)):
            return None
        points.add(found[0])
    return points.pop() if len(points) == 1 else None


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")
_VALUE = rf"({'|'.join(_DAYS + _MONTH_NAMES)}|\d+(?:[:.]\d+)?)s?\b"
_VALUE_RE = re.compile(r"\b" + _VALUE, re.I)
# Verbs of ending: what they name no longer holds ("retired the release GPG key", "Jenkins was decommissioned").
_ENDED = r"(?:retired|deprecated|decommissioned|phased out|sunset(?:ted)?)"
# Words that say a thing changed. "moved", "switched", "changed" only with a direction: "a flaky test is moved to
# quarantine" and "switched off without a deploy" describe a procedure, and took paraphrases for contradictions.
_CHANGE_RE = re.compile(r"\b(instead|no longer(?! than)|any ?more|stopped|dropped|replaced|no more(?! than)|"
                        + _ENDED + r"|(?:is|are) gone|"
                        r"(?:switched|moved|migrated|changed) (?:from|away|over|back)|changed (?:to|our|the))\b", re.I)


# What says a change in a story as well: with a direction. "Stopped", "dropped" narrate ("Zendesk was down and the
# whole team stopped working") as often as they change a rule.
_DIRECTED_CHANGE_RE = re.compile(r"\b(instead|no longer(?! than)|any ?more|replaced|"
                                 r"(?:switched|moved|migrated|changed) (?:from|away|over|back|to))\b", re.I)


def _says_a_change(draft: ExperienceDraft) -> bool:
    return bool((_DIRECTED_CHANGE_RE if draft.type == "event" else _CHANGE_RE).search(draft.statement))


def _value_key(value: str) -> str:
    # On the hour, a time is its hour: "standup now starts at 10" says the "10:00" of "it is at 10:00 now".
    return re.sub(r"[:.]00$", "", value.lower().rstrip("s"))


def _value_kind(value: str) -> str:
    return "day" if value in _DAYS else "month" if value in _MONTH_NAMES else "number"


# "may" is the month only written as one: "May", not opening a sentence, or beside a number ("3 may", "may 3rd").
# The verb in "large backfills may only run on weekends" made that rule name another value than "Saturdays and
# Sundays", and it never witnessed the item.
_MONTH_MAY_RE = re.compile(r"(?<![.!?]\s)(?<!^)\bMay\b|(?i:\d[ \t]+may\b|\bmay[ \t]+\d)")


def _values(text: str) -> set[str]:
    found = {_value_key(m.group(1)) for m in _VALUE_RE.finditer(text)}
    if "may" in found and not _MONTH_MAY_RE.search(text):
        found.discard("may")
    return found


def _other_values(new: str, old: str) -> bool:
    """Both name values of one kind (days, months, numbers), and none in common: a month is no other day."""
    a, b = _values(new), _values(old)
    return bool(a and b and not a & b and {_value_kind(v) for v in a} & {_value_kind(v) for v in b})


def _states_otherwise(statement: str, unit: Exchange) -> bool:
    """An exchange that names other values of the statement's kind ("on-call starts Mondays" under "on-call starts
    Wednesdays") is close to it but witnesses another value: it is no evidence of the item. (A change said in words,
    "we stopped squashing", needs no rule here: the exchanges of the old rule are nearer to the item it superseded,
    see :func:`_nearest_item`.)"""
    text = f"{unit.user_text} {unit.assistant_text}"
    return _other_values(statement, text) or _replaces_value(statement, text) or moved_away(statement, text) \
        or _no_longer_does(statement, text) or _said_not(statement, text)


# What a sentence says is no longer done: the words after "no longer" or "now, not", or before "any more" /
# "anymore", within their clause.
_CLAUSE = r"((?:[\w'-]+\s+){0,3}[\w'-]+)"  # up to four words, captured
_NO_LONGER_RE = re.compile(r"\b(?:no longer(?! than)|now,?\s+(?:not|no))\s+" + _CLAUSE + "|"
                           + _CLAUSE + r"\s+any ?more\b|"
                           # what was ended ("security retired the release GPG key", "no more GPG") ...
                           r"\b(?:" + _ENDED + r"|no more(?! than))\s+" + _CLAUSE + "|"
                           # ... or is gone ("the GPG key is gone", "Jenkins was decommissioned")
                           + _CLAUSE + r"\s+(?:is|are|was|were|has been|have been)\s+(?:gone|" + _ENDED + r")\b",
                           re.I)


def _says_change(statement: str) -> bool:
    """The statement says a change itself, and so names what it left ("we stopped squashing"); a contrast inside a
    rule ("record a quick video instead") is no change."""
    return bool(_CHANGE_RE.search(_CONTRAST_RE.sub("", statement)))


def _no_longer_does(statement: str, text: str) -> bool:
    """``text`` says that what ``statement`` says is no longer done ("we no longer send screen recordings" under
    "record a quick screen video instead; the team likes videos"), where ``statement`` says no such thing itself: it
    witnesses the change, not the item. What is no longer done must be what the statement names ("we don't run
    OpenVPN anymore — access goes through WireGuard" still witnesses "we reach staging through WireGuard")."""
    if _NO_LONGER_RE.search(statement) or _says_change(statement):
        return False
    said = canonical_form("", statement)
    return any(canonical_form("", next(g for g in m.groups() if g)) & said for m in _NO_LONGER_RE.finditer(text))


# "X, not Y": Y is denied. Not "not just / only Y", which adds Y.
_NOT_RE = re.compile(r"((?:[\w'-]+\s+){0,5}[\w'-]+),\s+not\s+(?!(?:just|only|merely|necessarily|always|all|yet|"
                     r"sure|really)\b)((?:[\w'-]+\s+){0,2}[\w'-]+)", re.I)


def _said_not(statement: str, text: str) -> bool:
    """``text`` denies what ``statement`` names, in the form "X, not Y" ("since the migration all crash reports
    land in Sentry, not Crashlytics" under "crash reports go to Crashlytics"): it witnesses the change. What is
    denied counts without the words the sentence affirms ("snapshot tests catch it, not unit tests" still
    witnesses "every screen gets snapshot tests"); a statement in that form, or saying a change itself ("we stopped
    squashing: the team now prefers rebase merges"), is restated by it."""
    if _NOT_RE.search(statement) or _says_change(statement):
        return False
    said = canonical_form("", statement)
    return any((canonical_form("", m.group(2)) - canonical_form("", m.group(1))) & said
               for m in _NOT_RE.finditer(text))


_REPLACED_RE = re.compile(r"\b(?:instead of|rather than|no longer(?! than)|replaced|(?:switched|moved|changed) from)\s+"
                          r"(?:[\w-]+\s+){0,3}?" + _VALUE, re.I)


def _replaces_value(statement: str, text: str) -> bool:
    """``text`` says one of the statement's values was replaced by another ("the target is now 15 minutes instead
    of 30" under "… within 30 minutes"): it names the old value, but as the one that changed."""
    old = _values(statement)
    if not old:
        return False
    replaced = {_value_key(m.group(1)) for m in _REPLACED_RE.finditer(text)}
    return bool(replaced & old) and bool(_values(text) - old)


# A change that names what it moved away from: "switched card processing from Stripe to Adyen", "migrated paging
# off PagerDuty onto Opsgenie", "raised the gate from 80% to 85%", "replaced Jenkins with Buildkite". The verb is
# required: "alerts go from PagerDuty to Slack" describes a route, not a change.
_MOVE_VERBS = (r"(?:(?:mov|switch|migrat|chang|rais|lower|bump|increas|decreas|reduc|cut|shift|upgrad|downgrad|"
               r"transition|port|convert)\w*|went)")
_TERM = r"[\w.+#%@/-]+"
_MOVE_VERB_RE = re.compile(_MOVE_VERBS, re.I)
_MOVED_RE = re.compile(rf"\b{_MOVE_VERBS}\b(?:\s+[\w.'-]+){{0,5}}?\s+(?:from|off(?:\s+of)?)\s+(?:the\s+|our\s+)?"
                       rf"(?P<old>{_TERM}(?:\s+{_TERM})?)\s+(?:to|onto|over\s+to|in\s+favou?r\s+of)\s+"
                       rf"(?:the\s+|our\s+)?(?P<new>{_TERM})", re.I)
_SWAPPED_RE = re.compile(rf"\b(?:replac|swapp)\w*\s+(?:the\s+|our\s+)?(?P<old>{_TERM}(?:\s+{_TERM})?)\s+"
                         rf"(?:with|for|by)\s+(?:the\s+|our\s+)?(?P<new>{_TERM})", re.I)


def _moves(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The changes ``text`` names with their origin: (what it moved from, what to), as canonical words."""
    return [(canonical_form("", m.group("old")), canonical_form("", m.group("new")))
            for rx in (_MOVED_RE, _SWAPPED_RE) for m in rx.finditer(text)]


def moved_items(*, scope: ScopeKey, said: str, visibility=None) -> list[Experience]:
    """Active items of the scope (with ``visibility``: of the scopes its units may merge with) that a change in
    ``said`` moves away from, found by the words, not the embedding
    ("all our card charges go through Stripe" is 0.31 from "going forward, card authorizations go through Adyen"):
    an item naming the origin that shares another content word with the sentence saying the change ("card")."""
    found = []
    for sentence in re.split(r"(?<=[.!?;])\s+", said):
        for m in (m for rx in (_MOVED_RE, _SWAPPED_RE) for m in rx.finditer(sentence)):
            origin, target = canonical_form("", m.group("old")), canonical_form("", m.group("new"))
            context = canonical_form("", sentence) - origin - target
            words = [w for w in re.findall(r"\w(?:[\w.+#-]*\w)?", m.group("old")) if w.lower() not in _CANONICAL_STOP]
            if not words or not context:
                continue
            pattern = "|".join(re.escape(w) for w in words)
            items = Experience.objects.in_scope(scope) if visibility is None \
                else Experience.objects.mergeable_with(scope, visibility)
            for x in items.filter(status=MemoryStatus.ACTIVE, statement__iregex=rf"\m({pattern})\M"):
                names = canonical_form("", x.statement)
                # it names the origin and not the target (a move to what it already says is no change of it)
                if x in found or not (origin & names and target and not target & names):
                    continue
                # On the topic, by its statement or by the words it was drawn from: a statement picked from one
                # paraphrase ("remember to log to mlflow, comparing runs from csvs is painful") may share no word
                # with the change ("we've migrated experiment tracking from MLflow to wandb") that its other
                # paraphrases share ("where do we track our experiments?").
                topic = {w for w in context if len(w) >= 4 and not _MOVE_VERB_RE.match(w)}
                if canonical_form(x.subject, x.statement) & context \
                        or (topic and canonical_form("", _evidence_text(x)) & topic):
                    found.append(x)
    return found


# The SQL pre-filter of a unit that may say a change with its origin (what _MOVED_RE and _SWAPPED_RE then read).
_MOVE_SQL = r"\m(from|off|replac\w*|swapp\w*)\M"


def _changes_said_before(*, agent, batch, summary: dict) -> list[Candidate]:
    """Raw units that move away from an item this batch wrote ("card processing switched from Stripe to Adyen",
    stored while the Stripe rule was still an unripe topic): at ingest there was no item to update, and nothing
    recurs with a one-off change, so it stayed raw and the old rule went live. Each becomes an update candidate of
    its owner, as at ingest (the running agent's lands in this run: see :func:`consolidation_run`). Found by the
    item's names and values in the full-text index, then read as at ingest."""
    from django.contrib.postgres.search import SearchQuery

    from memory.search.lexical import TEXT_SEARCH_CONFIG

    written = {x.pk: x for x in Experience.objects.filter(pk__in=summary["experiences_created"],
                                                           status=MemoryStatus.ACTIVE)}
    words = sorted({w for x in written.values() for w in _names(x.statement) | _values(x.statement)})[:50]
    if not words:
        return []
    query = SearchQuery(words[0], search_type="plain", config=TEXT_SEARCH_CONFIG)
    for w in words[1:]:
        query |= SearchQuery(w, search_type="plain", config=TEXT_SEARCH_CONFIG)
    units = (Exchange.objects.filter(project_id=agent.project_id, state=Exchange.State.RAW, quarantined=False,
                                     search_vector=query)
             .filter(Q(user_text__iregex=_MOVE_SQL) | Q(assistant_text__iregex=_MOVE_SQL))
             .exclude(candidates__status=Candidate.Status.PENDING).select_related("owner_agent")
             .order_by("occurred_at")[:200])
    made, visibility = [], {}
    for e in units:
        said = f"{e.user_text} {e.assistant_text}"
        if not _moves(said):
            continue
        if e.owner_agent_id not in visibility:
            visibility[e.owner_agent_id] = agent_visibility(agent=e.owner_agent)
        moved = moved_items(scope=ScopeKey.of(e), said=said, visibility=visibility[e.owner_agent_id])
        if any(x.pk in written for x in moved):
            made.append(candidate_create(agent=e.owner_agent, trigger=e, members=[e], reason=Candidate.Reason.UPDATE))
    return made


def moved_away(statement: str, text: str) -> bool:
    """``text`` says the team moved from something ``statement`` names to something it does not name."""
    said = canonical_form("", statement)
    return any(origin & said and target and not target & said for origin, target in _moves(text))


# Said as the rule from now on: with another tool or product than the item names, it replaces it ("going forward,
# all alerts page the on-call via Opsgenie" against "on-call alerts are routed through PagerDuty").
_FROM_NOW_RE = re.compile(r"\b(going forward|from now on|from today|from here on|as of (?:now|today|this \w+)|"
                          r"starting (?:now|today|this \w+|next \w+)|these days|nowadays)\b", re.I)
_NAME_RE = re.compile(r"(?<![.!?:;]\s)(?<!^)\b(?:[A-Z][a-z0-9]*[A-Z][\w]*|[A-Z]{2,}[\w]*|[A-Z][a-z]+)\b")


def _names(text: str) -> set[str]:
    """Products and tools a sentence names: capitalised words not opening a sentence (days and months are values)."""
    out = set()
    for w in _NAME_RE.findall(text):
        if not _VALUE_RE.fullmatch(w) and w not in ("I", "OK"):
            out.add(w.lower())
    return out


def _other_names(new: str, old: str) -> bool:
    """``new`` states a rule from now on with other names than ``old`` (and ``old`` is not itself one)."""
    if not _FROM_NOW_RE.search(new) or _FROM_NOW_RE.search(old):
        return False
    a, b = _names(new), _names(old)
    return bool(a and b and not any(x.startswith(y) or y.startswith(x) for x in a for y in b))


def _changes(new: str, old: str) -> bool:
    """Does ``new`` change what ``old`` says? Both name values of one kind (days, months, numbers) and they differ,
    ``new`` says it moved away from something ``old`` names, or ``new`` says it changed ("instead", "no longer",
    "stopped" …) where ``old`` did not, with other content."""
    if _other_values(new, old) or moved_away(old, new) or _other_names(new, old):
        return True
    # A contrast in ``old`` is no change of its own ("record a quick screen video instead" answered "should I write
    # the steps out again?"): "we no longer send screen recordings" still changes it.
    if _CHANGE_RE.search(new) and not _CHANGE_RE.search(_CONTRAST_RE.sub("", old)) \
            and not _instead_of_other(new, old):
        return canonical_form("", new) - canonical_form("", old) != frozenset()
    return False


_INSTEAD_OF_RE = re.compile(r"\b(?:instead of|rather than)\s+((?:[\w.:+#%-]+\s*){1,4})", re.I)
_CONTRAST_RE = re.compile(r"\b(?:instead|rather than)\b", re.I)


def _instead_of_other(new: str, old: str) -> bool:
    """``new``'s only change word is "instead of X" with X something ``old`` does not name: the rule's own contrast
    ("quarantine a flaky test within a day instead of retrying the build" restates "a flaky test is moved to
    quarantine the same day"), not a replacement of what ``old`` says."""
    others = _CHANGE_RE.sub("", _INSTEAD_OF_RE.sub("", new))
    if _CHANGE_RE.search(others) or not _INSTEAD_OF_RE.search(new):
        return False
    said, values = canonical_form("", old), _values(old)
    # A time is a value, not words: "at 10:00 now instead of 9:30" replaces the 9:30 of "standup is at 9:30".
    return not any(canonical_form("", m.group(1)) & said or _values(m.group(1)) & values
                   for m in _INSTEAD_OF_RE.finditer(new))


_CANONICAL_STOP = frozenset(
    "a an the of to in on for at by with and or is are was were be been being it its this that these those we our "
    "us you your i my me user user's team team's they their them he she his her has have had do does did will "
    "would should can could must not no never always every all any each from into as so then than now just".split())


def _form(text: str) -> frozenset[str]:
    return canonical_form("", text)


def canonical_form(subject: str, statement: str) -> frozenset[str]:
    """What an item says, without its wording: the content words of subject and statement, lower-cased, crudely
    stemmed; placeholders (<PERSON_1a2b…>) kept whole, so two items about different people never match."""
    words = re.findall(r"<[A-Z_]+_[0-9a-f]+>|[A-Za-z0-9][A-Za-z0-9+#.-]*", f"{subject} {statement}")
    out = set()
    for w in words:
        if w.startswith("<"):
            out.add(w)
            continue
        w = w.lower().rstrip(".")
        if w in _CANONICAL_STOP or len(w) < 2:
            continue
        out.add(re.sub(r"(ing|ed|es|s)$", "", w) if len(w) > 4 else w)
    return frozenset(out)


def canonical_match(a: frozenset[str], b: frozenset[str]) -> bool:
    """Same canonical form: most content words shared (Jaccard ≥ 0.6, at least two words)."""
    shared = len(a & b)
    return shared >= 2 and shared / max(1, len(a | b)) >= 0.6


# Confidence from independent support (replaces a noisy-or of extraction confidences, which grew with every
# restatement in one sitting): c = 1 − (1 − c₀) · 0.6^(s − 1) · 0.75^(a − 1), at most 0.99, where c₀ is the
# extraction's own confidence of the item, s its distinct sessions and a its distinct agents. One session and one
# agent leave c₀; each further session removes 40 % of the remaining doubt, each further agent 25 % more.
SESSION_FACTOR = 0.6
AGENT_FACTOR = 0.75


def support_confidence(*, base: float, sessions: int, agents: int) -> float:
    doubt = (1 - base) * SESSION_FACTOR ** max(0, sessions - 1) * AGENT_FACTOR ** max(0, agents - 1)
    return round(min(0.99, max(0.05, 1 - doubt)), 4)


def _base_confidence(experience: Experience) -> float:
    """c₀ recovered from the stored confidence and support (the formula inverted)."""
    factor = (SESSION_FACTOR ** max(0, experience.support_sessions - 1)
              * AGENT_FACTOR ** max(0, experience.support_agents - 1))
    return min(0.95, max(0.05, 1 - (1 - experience.confidence) / factor))


def experience_support_update(*, experience: Experience, base: float | None = None) -> None:
    """Recount the item's support (:func:`pattern_evidence`), derive its confidence and its trust; saves it."""
    base = _base_confidence(experience) if base is None else base
    stats = pattern_evidence(experience=experience)
    experience.support_sessions = max(1, stats["sessions"])
    experience.support_agents = max(1, stats["agents"])
    experience.confidence = support_confidence(base=base, sessions=experience.support_sessions,
                                               agents=experience.support_agents)
    experience.trust = item_trust(reviewed=experience.verified, independent_agents=stats["independent_agents"],
                                  evidence=stats["trusts"])
    experience.save()


def episode_trust_update(*, episode: Episode) -> None:
    """An episode's trust: the weakest its sources earn (memory/trust.py ``episode_trust``)."""
    rows = EpisodeSource.objects.filter(episode=episode).values_list("exchange__source", "exchange__user_text")
    trust = episode_trust(evidence=[exchange_trust(source=source, user_text=user) for source, user in rows])
    if episode.trust != trust:
        episode.trust = trust
        Episode.objects.filter(pk=episode.pk).update(trust=trust)


def held_reason(*, texts: list[str], sources, shared: bool = True) -> str:
    """Why an output of consolidation is held in quarantine ("" when it is not): its own text flagged by the detector,
    or drawn from an exchange held in quarantine (a consolidator may restate a hidden instruction in clean words).
    ``shared`` False (personal scope): a rule switching a safeguard off is its author's own business."""
    if not config().governance.quarantine_enabled:
        return ""
    reasons = []
    held = [s for s in sources if getattr(s, "quarantined", False)]
    if held:
        reasons.append("drawn from evidence held in quarantine")
    flagged = quarantine_reason(*texts, shared=shared)
    if flagged:
        reasons.append(flagged)
    return "; ".join(reasons)[:300]


def output_hold(*, obj: Episode | Experience, reason: str, batch, summary: dict, audit: list) -> None:
    """Hold what consolidation wrote: seen by its author only; a shared one waits in the review queue."""
    type(obj).objects.filter(pk=obj.pk).update(quarantined=True, quarantine_reason=reason)
    obj.quarantined, obj.quarantine_reason = True, reason
    item = None
    if obj.scope != Scope.PERSONAL:
        item = review_quarantine_create(**{type(obj).__name__.lower(): obj}, reason=reason, batch=batch)
        summary["review_items"].append(str(item.pk))
    object_type = AuditObject.EPISODE if isinstance(obj, Episode) else AuditObject.EXPERIENCE
    audit.append({"action": AuditEvent.Action.UPDATE, "object_type": object_type, "object_id": obj.pk,
                  "reason": f"quarantined: {reason}"[:300],
                  "source_ids": [item.pk] if item is not None else [],
                  "data": {"quarantine": {"reason": reason, "review_item": str(item.pk) if item else None}}})


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
        return True
    except ValueError:
        return False


def _propose_promotion(*, agent, batch, experience: Experience, summary, audit) -> None:
    """Pattern mining: an item corroborated by ≥3 distinct sessions (or agents) is proposed one scope up — a
    personal item to its agent's module (only for an agent with exactly one module: otherwise "up" is ambiguous),
    a module item to the project. Scopes widen only through the review queue, never as a side effect: a person
    decides. An item is proposed once per target; a rejected proposal is asked again only when evidence from a new
    session arrived (the new item shows the earlier rejection)."""
    if experience.status != MemoryStatus.ACTIVE or experience.scope == Scope.PROJECT:
        return
    if experience.scope == Scope.PERSONAL and about_the_person(experience):
        return  # a person's own preference is theirs: never proposed for a team
    module = None
    if experience.scope == Scope.PERSONAL:
        modules = list(agent.modules.all()[:2])
        if len(modules) != 1:
            return
        module = modules[0]
    target = Scope.MODULE if module is not None else Scope.PROJECT
    stats = pattern_evidence(experience=experience)
    if not pattern_holds(experience=experience, stats=stats, target=ScopeKey.for_scope(
            project_id=experience.project_id, scope=target, module_id=module.pk if module else None)):
        return
    if review_reopen_with_evidence(experience=experience) is not None:
        return
    due, previous = review_promotion_due(experience=experience, proposed_scope=target, proposed_module=module)
    if not due:
        return
    item = review_item_create(experience=experience, batch=batch, sessions=stats["sessions"], proposed_scope=target,
                              proposed_module=module, previous=previous)
    summary["review_items"].append(str(item.pk))
    again = f"; asked again after rejection {previous.pk} (new evidence)" if previous else ""
    audit.append({"action": AuditEvent.Action.PROMOTE, "object_type": AuditObject.REVIEW_ITEM, "object_id": item.pk,
                  "reason": f"proposed for {target} scope; corroborated by {stats['sessions']} sessions{again}",
                  "source_ids": [experience.pk]})


PROMOTION_MIN_AGENTS = 2  # a module item goes to the project only when more than one agent found it


def agreeing_items(*, experience: Experience) -> list[Experience]:
    """Active items of comparable scopes that say the same (same type, at least θ_corroborate similar): for a module
    item and for a personal item of a module member, the personal items of the module's other members. Agreement
    across agents counts there too: two agents' personal notes of one team rule are two independent witnesses."""
    if experience.scope == Scope.PROJECT or experience.embedding is None:
        return []
    if experience.scope == Scope.MODULE:
        members = Agent.objects.filter(modules=experience.module_id)
    else:  # the other members' notes: one agent's own items are not independent of each other
        members = (Agent.objects.filter(modules__in=Agent.objects.get(pk=experience.owner_agent_id).modules.all())
                   .exclude(pk=experience.owner_agent_id))
    thresholds = thresholds_for(experience.embedding_model)
    floor = min(thresholds.corroborate, thresholds.dedup)
    rows = (Experience.objects.filter(project_id=experience.project_id, scope=Scope.PERSONAL,
                                      owner_agent__in=members.distinct(), status=MemoryStatus.ACTIVE,
                                      type=experience.type)
            .exclude(pk=experience.pk).annotate(distance=CosineDistance("embedding", experience.embedding))
            .filter(distance__lte=1.0 - floor))
    return list(rows[:50])


def pattern_evidence(*, experience: Experience) -> dict:
    """The support of an item: distinct sessions and agents among its evidence and that of the items of comparable
    scopes that agree with it (:func:`agreeing_items`), and how many of those sessions hold evidence on the item's
    topic (an exchange at least as similar to the statement as θ_related) — what its confidence follows.

    Besides, the *independent* support that corroboration (trust) and promotion count, so that one agent cannot
    outvote the others by repeating itself: only evidence that may corroborate (not tool output or imports, not held
    in quarantine), and one agent's sessions stored within RECMEM_BURST_WINDOW_SECONDS of each other are one burst,
    counted once (:func:`burst_count`; stored time, which the agent does not declare). ``trusts``: the trust of each
    of the item's own evidence exchanges."""
    thresholds = thresholds_for(experience.embedding_model)
    on_topic: set = set()
    sessions: set = set()
    agents: set = set()
    trusts: list[str] = []
    # per agent, per session: when its first corroborating evidence was stored, and whether one is on topic
    independent: dict = {}
    items = [experience, *agreeing_items(experience=experience)]
    rows = (ExperienceEvidence.objects.filter(experience__in=items)
            .annotate(distance=CosineDistance("exchange__embedding", experience.embedding))
            .values_list("experience_id", "exchange__session_id", "exchange__owner_agent_id", "distance",
                         "exchange__created_at", "exchange__source", "exchange__quarantined", "exchange__user_text"))
    for item_id, session_id, owner_id, distance, stored, source, held, user in rows:
        sessions.add(session_id)
        agents.add(owner_id)
        topical = 1.0 - float(distance) >= thresholds.related
        if topical:
            on_topic.add(session_id)
        if item_id == experience.pk:
            trusts.append(exchange_trust(source=source, user_text=user))
        if may_corroborate(source=source, quarantined=held):
            first, was_topical = independent.setdefault(owner_id, {}).get(session_id, (stored, False))
            independent[owner_id][session_id] = (min(first, stored), was_topical or topical)
    window = config().governance.burst_window_seconds
    return {"sessions": len(sessions), "agents": len(agents), "on_topic_sessions": len(on_topic),
            "independent_agents": len(independent),
            "independent_sessions": sum(burst_count(list(s.values()), window=window) for s in independent.values()),
            "independent_on_topic": sum(burst_count([v for v in s.values() if v[1]], window=window)
                                        for s in independent.values()),
            "trusts": trusts}


def burst_count(sessions: list[tuple[datetime, bool]], *, window: int) -> int:
    """How many of one agent's sessions count as independent: ordered by when their evidence was first stored, a
    session stored within ``window`` seconds of the start of the current burst joins it; a burst counts once."""
    count, start = 0, None
    for stored, _ in sorted(sessions, key=lambda s: s[0]):
        if start is None or (stored - start).total_seconds() > window:
            count, start = count + 1, stored
    return count


_PERSON_RE = re.compile(r"^(user|the user)\b|\b(the user|user's|the user's)\b", re.IGNORECASE)


def about_the_person(experience: Experience) -> bool:
    """A preference about the person (the extractive form "User prefers …", or the subject "user"): theirs alone."""
    return experience.type == "preference" and bool(
        _PERSON_RE.search(experience.statement) or experience.subject.strip().lower() in ("user", "the user"))


def pattern_conflicts(*, experience: Experience, target: ScopeKey) -> list[Experience]:
    """Active items of the target scope the item would conflict with: a pending conflict review of its own, or an
    item of the same type and subject that says something else (not a near-duplicate)."""
    if ReviewItem.objects.filter(kind=ReviewItem.Kind.CONFLICT, status=ReviewItem.Status.PENDING).filter(
            Q(experience=experience) | Q(other_experience=experience)).exists():
        return [experience]
    thresholds = thresholds_for(experience.embedding_model)
    same_subject = (Experience.objects.in_scope(target)
                    .filter(status=MemoryStatus.ACTIVE, type=experience.type, subject__iexact=experience.subject)
                    .annotate(distance=CosineDistance("embedding", experience.embedding)))
    return [x for x in same_subject if 1.0 - float(x.distance) < thresholds.dedup]


def pattern_holds(*, experience: Experience, stats: dict, target: ScopeKey) -> bool:
    """Pattern mining's three conditions before a promotion is proposed: independent support (≥3 distinct sessions
    and ≥2 distinct agents, counted with the agreeing personal items of module members), the same topic (≥3 of
    those sessions hold evidence on the item's topic), and no conflict with active items of the target scope."""
    if experience.quarantined:
        return False  # held text is never proposed: a reviewer releases it first
    if stats["independent_sessions"] < PROMOTION_MIN_SESSIONS \
            or stats["independent_on_topic"] < PROMOTION_MIN_SESSIONS:
        return False
    # Held independently: personal → module needs two agents of the module, module → project two agents as well.
    if stats["independent_agents"] < PROMOTION_MIN_AGENTS and (target.scope == Scope.MODULE
                                                               or experience.scope == Scope.MODULE):
        return False
    return not pattern_conflicts(experience=experience, target=target)


# --- the run ----------------------------------------------------------------------

class _Replay:
    """The replay part of an idle (or manual) run: pre-emption, the session-level pass within the run's budget, and
    the cursor, which moves only over what the run finished.

    Budget: the LLM consolidator's calls of this run (prompt + completion tokens, recorded as they happen) stay
    within RECMEM_IDLE_RUN_TOKEN_BUDGET; the extractive consolidator (no tokens, but CPU) parses at most
    RECMEM_IDLE_EXTRACTIVE_BUDGET tokens of session text per run. A session is distilled only if its estimate fits
    what is left; once one does not, the run stops there and the rest waits for the next run (the batch summary's
    ``replay`` says so, in the admin)."""

    def __init__(self, *, agent, batch, run, sessions, consolidator) -> None:
        self.agent, self.batch, self.run, self.sessions = agent, batch, run, sessions
        self.llm = getattr(consolidator, "kind", "") == "llm"
        self.budget = config().idle.run_token_budget if self.llm else config().idle.extractive_budget
        self.started = timezone.now()
        self.used = 0
        self.finished: dict = {}  # session id -> new cursor
        self.claimed: set = set()  # witnesses of the points the pass planned (TopicPlan.claimed)
        self.stopped = ""

    def preempted(self) -> bool:
        """An idle run yields when its agent writes again (checked at each topic and session boundary)."""
        if self.run != RUN_IDLE:
            return False
        if Agent.objects.filter(pk=self.agent.pk, last_write_at__gt=self.started).exists():
            self.stopped = "preempted"
        return self.stopped == "preempted"

    def release(self, topics: list[TopicPlan]) -> None:
        """Candidates of topics this run will not reach: back to waiting, free for the next run."""
        Candidate.objects.filter(pk__in=[c.pk for t in topics for c in t.candidates]).update(batch=None)

    def _spent(self, calls: list, since: int) -> int:
        return sum(int(getattr(c, "prompt_tokens", 0) or 0) + int(getattr(c, "completion_tokens", 0) or 0)
                   for c in calls[since:])

    def session_pass(self, plan_one, calls: list) -> list[TopicPlan]:
        topics: list[TopicPlan] = []
        for session in self.sessions:
            if self.stopped or self.preempted():
                break
            end = session.next_turn_index
            units = list(Exchange.objects.filter(session=session, turn_index__gte=session.replay_cursor,
                                                 turn_index__lt=end, state=Exchange.State.RAW)
                         .select_related("session").order_by("turn_index"))
            if not units:
                self.finished[session.pk] = end
                continue
            # The estimate: the units' text (with an LLM only those it is sent: session_pass_cue), plus the prompt
            # around it for an LLM (about 1,000 tokens; none when no unit is sent).
            sent = [u for u in units if session_pass_cue(exchange_unit(u))] if self.llm else units
            estimate = sum(count_tokens(f"{u.user_text}\n{u.assistant_text}") + 12 for u in sent)
            estimate += 1000 if self.llm and sent else 0
            if self.used + estimate > self.budget:
                self.stopped = "budget"
                break
            topic = TopicPlan(candidates=[], units=units, scope=ScopeKey.of(session), episodic=False,
                              session=session, cursor=end, claimed=self.claimed)
            before = len(calls)
            plan_one(topic)
            self.used += self._spent(calls, before) if self.llm else estimate
            self.finished[session.pk] = end
            topics.append(topic)
        return topics

    def cursor_advance(self) -> dict:
        """In the write transaction: move the cursor of every session the run finished."""
        now = timezone.now()
        for session_id, cursor in self.finished.items():
            Session.objects.filter(pk=session_id, replay_cursor__lt=cursor).update(replay_cursor=cursor,
                                                                                   replayed_at=now)
        waiting = replay_backlog(agent=self.agent).exclude(pk__in=list(self.finished)).count()
        return {"sessions_replayed": [str(pk) for pk in self.finished], "sessions_waiting": waiting,
                "budget": self.budget, "budget_unit": "llm tokens" if self.llm else "tokens of text parsed",
                "used": self.used, "stopped": self.stopped}


def _topics(candidates: list[Candidate]) -> list[TopicPlan]:
    """One topic per recurrence (or baseline) candidate; the salient one-offs and the updates of consolidated topics
    of a run share one topic per scope, refined in one call and without an episode (one-offs are unrelated to each
    other by definition; an update corroborates or supersedes the items it restates, at one call per run).

    A topic's output lives in the narrowest scope of all its units (agents.visibility: the scope rule). Members
    that may not be merged with the trigger (a candidate from before the rule, or a module the agent has left
    since) are dropped from the topic and become raw again."""
    topics: list[TopicPlan] = []
    salient: dict[tuple, TopicPlan] = {}
    visibility = agent_visibility(agent=candidates[0].agent) if candidates else None
    for c in candidates:
        units = list(c.exchanges.select_related("session").order_by("session__started_at", "session_id",
                                                                     "turn_index"))
        if not units:
            continue
        others = [u for u in units if u.pk != c.trigger_id]
        kept = {u.pk for u in scope_chain([c.trigger, *others], key=ScopeKey.of, visibility=visibility)}
        dropped = [u for u in units if u.pk not in kept]
        units = [u for u in units if u.pk in kept]
        if not units:
            continue
        scope = scope_narrowest([ScopeKey.of(u) for u in units], visibility=visibility)
        if c.reason in (Candidate.Reason.SALIENCE, Candidate.Reason.UPDATE):
            key = scope
            if key not in salient:
                salient[key] = TopicPlan(candidates=[], units=[], scope=scope, episodic=False)
                topics.append(salient[key])
            salient[key].candidates.append(c)
            salient[key].units.extend(u for u in units if u not in salient[key].units)
            salient[key].dropped.extend(dropped)
            continue
        topics.append(TopicPlan(candidates=[c], units=units, scope=scope, dropped=dropped))
    # An update's unit that ripened with its topic meanwhile, or is in a ripe topic of this run, is done there.
    ripe_units = {u.pk for t in topics if t.episodic for u in t.units}
    for topic in topics:
        if not topic.episodic:
            topic.units = [u for u in topic.units if u.pk not in ripe_units and u.state != Exchange.State.CONSOLIDATED]
    # Ripe topics first, then the salient one-offs (a run that yields or runs out of budget did the ripe ones).
    return sorted(topics, key=lambda t: not t.episodic)


def _empty_summary() -> dict:
    return {k: [] for k in ("candidates", "exchanges", "episodes_created", "episodes_merged", "experiences_created",
                            "experiences_merged", "experiences_superseded", "review_items")}


@traced("recmem.consolidation", attributes=lambda kw: {"recmem.agent_id": kw.get("agent_id")},
        on_result=lambda batch: {"recmem.batch_id": batch.pk if batch is not None else None})
def consolidation_run(*, agent_id: uuid.UUID, batch_id: uuid.UUID | None = None, max_candidates: int = 50,
                      embedder=None, consolidator=None, run: str = RUN_ONLINE,
                      planner: Planner | None = None) -> ConsolidationBatch | None:
    """Consolidate the agent's pending candidates (those of ``batch_id`` only, when given) in one batch. None when
    there is nothing to do or another run for this agent holds the lock (that run will take the candidates).
    ``embedder`` and ``consolidator`` default to the configured ones, ``planner`` to the block's
    (:func:`consolidation_planner`), else the product's.

    In online mode a topic that becomes ripe while the run holds the agent's lock is refused by the lock
    (its task returns at once); so after releasing the lock the run looks again and consolidates what is waiting
    right away, instead of leaving it to the next idle window. Looking after the release closes the race: a task
    refused while the lock was held finds its candidates seen by this look.

    ``run`` = idle (the idle scheduler) or manual (an explicit request) makes it a replay (:func:`_replay_plan`):
    after the candidates, the session-level pass over the sessions after the agent's replay cursor.
    """
    agent = Agent.objects.select_related("project").get(pk=agent_id)
    planner = planner or _PLANNER.get()
    # One task plans for RECMEM_CONSOLIDATION_TASK_SECONDS; what is left of a backlog goes to a new task at the end
    # of the queue, so a long backlog never holds a worker while other work waits behind it.
    deadline = time.monotonic() + config().consolidation.task_seconds
    first = None
    session_pass = True
    if run == RUN_UPDATES:  # a manual run of the candidates only
        run, session_pass = RUN_MANUAL, False
    for _ in range(MAX_FOLLOW_UP_RUNS):
        with agent_run_lock(agent.pk) as acquired:
            if not acquired:
                logger.info("consolidation for %s already running elsewhere", agent)
                return first
            batch = _run_pending(agent=agent, batch_id=batch_id, max_candidates=max_candidates, embedder=embedder,
                                 consolidator=consolidator, run=run, planner=planner, deadline=deadline,
                                 session_pass=session_pass)
        first = first or batch
        if batch is not None and run in (RUN_IDLE, RUN_MANUAL) and (batch.summary or {}).get("updates_queued_here") \
                and time.monotonic() < deadline:
            # A change said before the item it changes existed (queued by this batch): it lands in this pass, not
            # in the next one, or the old rule would be served as current until then. The candidates only: the
            # session pass keeps its window per pass (RECMEM_IDLE_MAX_SESSIONS).
            batch_id, session_pass = None, False
            continue
        if batch is None or config().consolidation.mode != "online" or not candidates_waiting(agent=agent):
            return first
        if time.monotonic() >= deadline:
            consolidation_enqueue(agent_id=agent.pk)
            return first
        batch_id, run = None, RUN_ONLINE
    return first


MAX_FOLLOW_UP_RUNS = 20


def candidates_waiting(*, agent: Agent) -> bool:
    """Candidates that should run now: new ripe topics (a salient one-off alone waits for the agent's next run),
    and those of a batch re-queued by the reaper. Candidates of a failed batch wait for its delayed retry."""
    new = Q(batch__isnull=True) & ~Q(reason__in=[Candidate.Reason.SALIENCE, Candidate.Reason.UPDATE])
    return Candidate.objects.filter(new | Q(batch__status=ConsolidationBatch.Status.PENDING), agent=agent,
                                    status=Candidate.Status.PENDING).exists()


def _run_pending(*, agent, batch_id, max_candidates, embedder, consolidator, run,
                 planner: Planner = DEFAULT_PLANNER, deadline: float | None = None,
                 session_pass: bool = True) -> ConsolidationBatch | None:
    pending = Candidate.objects.filter(agent=agent, status=Candidate.Status.PENDING).select_related("trigger")
    if batch_id is not None:
        pending = pending.filter(batch_id=batch_id)
    elif run not in (RUN_IDLE, RUN_MANUAL):  # updates land in the next idle or requested pass, one call per scope
        pending = pending.exclude(reason=Candidate.Reason.UPDATE)
    candidates = _replay_window(list(pending.order_by("created_at")[:max_candidates]))
    replay = run in (RUN_IDLE, RUN_MANUAL) and config().session_pass_on and batch_id is None and session_pass
    sessions = list(replay_backlog(agent=agent)[:config().idle.max_sessions]) if replay else []
    if not candidates and not sessions:
        return None
    try:
        token_quota_check(project=agent.project)
    except Limited as exc:  # the candidates wait for tomorrow's runs
        logger.warning("consolidation for %s skipped: %s", agent, exc.message)
        return None
    return _run(agent=agent, candidates=candidates, batch_id=batch_id or (candidates[0].batch_id if candidates
                                                                          else None),
                embedder=embedder or get_embedder(), consolidator=consolidator, run=run, sessions=sessions,
                planner=planner, deadline=deadline)


def _replay_window(candidates: list[Candidate]) -> list[Candidate]:
    """At most RECMEM_IDLE_MAX_SESSIONS sessions replayed per run; the rest waits for the next run."""
    limit = config().idle.max_sessions
    sessions: set = set()
    window = []
    for c in candidates:
        session_id = c.trigger.session_id
        if session_id not in sessions and len(sessions) >= limit:
            break
        sessions.add(session_id)
        window.append(c)
    return window


class _CallLog(list):
    """The run's LLM calls, each recorded in the batch as it happens, outside the write transaction: when its
    request is sent (the gateway's watcher) and again when its record arrives (``append``, the consolidators'
    ``on_call``). The tokens of a call that reached the endpoint are kept even if the process dies later."""

    def __init__(self, batch: ConsolidationBatch) -> None:
        super().__init__()
        self.batch = batch
        self._sent = None

    def call_sent(self, *, purpose: str, model: str, prompt_tokens: int) -> None:
        self._sent = batch_call_sent(batch=self.batch, purpose=purpose, model=model, prompt_tokens=prompt_tokens)

    def append(self, record) -> None:
        super().append(record)
        sent, self._sent = self._sent, None
        batch_record_calls(batch=self.batch, calls=[record], sent=sent)

    def add_unseen(self, records) -> None:
        for record in records or []:
            if not any(record is seen for seen in self):
                self.append(record)


class _StalePlan(Exception):
    """Another batch changed an episode a topic's plan relied on (or wrote one it should merge into)."""

    def __init__(self, topics: list[TopicPlan]) -> None:
        super().__init__(f"{len(topics)} topic(s) planned against episodes that changed meanwhile")
        self.topics = topics


class _LeaseLost(Exception):
    """The reaper re-queued this batch while it ran (its heartbeat stalled): the batch is someone else's now."""


MAX_WRITE_ROUNDS = 3


def _run(*, agent: Agent, candidates: list[Candidate], batch_id, embedder, consolidator, run: str = RUN_ONLINE,
         sessions: list[Session] | None = None, planner: Planner = DEFAULT_PLANNER,
         deadline: float | None = None) -> ConsolidationBatch:
    baseline = bool(planner.kind)  # a caller's baseline plans the topics itself, without a consolidator
    thresholds = thresholds_for(embedder.model_id)
    if not baseline and consolidator is None:
        consolidator = get_consolidator(embedder=embedder)
    kind = planner.kind if baseline else consolidator.kind
    mode = run if run in (RUN_IDLE, RUN_MANUAL) else planner.kind or config().consolidation.mode
    batch = batch_start(batch_id=batch_id, project=agent.project, agent=agent, mode=mode, consolidator=kind)
    Candidate.objects.filter(pk__in=[c.pk for c in candidates]).update(batch=batch)
    calls = _CallLog(batch)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    topics = _topics(candidates)
    replay = _Replay(agent=agent, batch=batch, run=run, sessions=sessions or [], consolidator=consolidator)

    def plan(topics: list[TopicPlan]) -> None:
        for topic in topics:
            if baseline:
                planner.plan(agent=agent, embedder=embedder, thresholds=thresholds, topic=topic, calls=calls)
            else:
                _plan_topic(agent=agent, consolidator=consolidator, embedder=embedder, thresholds=thresholds,
                            topic=topic, calls=calls, planner=planner)

    with batch_lease(batch), llm_calls_watched(calls):
        phase = "plan"
        try:
            # Yields at a topic boundary when an idle run's agent writes again, or, after its first topic, when an
            # online task's planning time is spent (the rest waits for the next task). Idle runs have a cluster of
            # their own, a manual run was asked for now, and a caller's baseline plans it all.
            out_of_time = False
            for i, topic in enumerate(topics):
                out_of_time = (bool(i) and run == RUN_ONLINE and not baseline and deadline is not None
                               and time.monotonic() >= deadline)
                if replay.preempted() or out_of_time:
                    replay.release(topics[i:])
                    topics = topics[:i]
                    break
                plan([topic])
            if not out_of_time:  # the session pass waits for a task with time to spare
                topics += replay.session_pass(
                    lambda topic: _plan_topic(agent=agent, consolidator=consolidator, embedder=embedder,
                                              thresholds=thresholds, topic=topic, calls=calls, planner=planner),
                    calls)
            timings["plan"] = round((time.perf_counter() - started) * 1000, 1)
            phase = "write"
            for _ in range(MAX_WRITE_ROUNDS):
                written = time.perf_counter()
                try:
                    _write(agent=agent, batch=batch, topics=topics, thresholds=thresholds,
                           embedder_model=embedder.model_id, timings=timings, written=written, replay=replay,
                           planner=planner)
                    break
                except _StalePlan as stale:  # rolled back: plan those topics again against what is there now
                    logger.info("%s: %s; planning them again", batch, stale)
                    phase = "plan"
                    replanned = time.perf_counter()
                    for topic in stale.topics:
                        _plan_reset(topic)
                    plan(stale.topics)
                    timings["replan"] = timings.get("replan", 0) + round((time.perf_counter() - replanned) * 1000, 1)
                    phase = "write"
            else:
                raise _StalePlan([])
        except _LeaseLost:
            logger.warning("%s was re-queued while it ran; leaving it to the new run", batch)
        except Exception as exc:  # the LLM, planning or the write failed: record, keep candidates pending
            timings.setdefault(phase, round((time.perf_counter() - started) * 1000, 1))
            calls.add_unseen(getattr(exc, "calls", None))
            if not isinstance(exc, ConsolidationError):
                logger.exception("consolidation %s failed for %s", phase, agent)
            consolidation_failed(agent=agent, batch=batch, candidates=candidates,
                                 error=f"{phase}: {type(exc).__name__}: {exc}", timings=timings)
    batch.refresh_from_db()
    return batch


def _plan_reset(topic: TopicPlan) -> None:
    topic.merge_into, topic.compared_with = None, None
    topic.episodes, topic.episode_embeddings, topic.experiences, topic.planned = [], [], [], []


def _stale_topics(topics: list[TopicPlan], thresholds: Thresholds,
                  planner: Planner = DEFAULT_PLANNER) -> list[TopicPlan]:
    """Topics whose merge decision no longer holds: the episode they were offered changed (another batch merged
    into it, or it was rolled back), or an episode they would now be offered appeared. Checked under the scope
    locks, before this batch writes anything."""
    stale = []
    for topic in topics:
        if not topic.episodes:
            continue
        found = _merge_target(scope=topic.scope, vector=_centroid([u.embedding for u in topic.units]),
                              thresholds=thresholds, merge=planner.merge)
        now = (found[0].pk, found[0].version) if found is not None else None
        if now != topic.compared_with:
            stale.append(topic)
    return stale


@traced("recmem.consolidation.write")
@transaction.atomic
def _write(*, agent, batch, topics, thresholds, embedder_model, timings, written, replay=None,
           planner: Planner = DEFAULT_PLANNER) -> None:
    scope_write_lock(t.scope for t in topics)
    if not batch_owned(batch=batch):
        raise _LeaseLost()
    stale = _stale_topics(topics, thresholds, planner)
    if stale:
        raise _StalePlan(stale)
    summary = _empty_summary()
    audit: list[dict] = []
    for topic in topics:
        _apply_topic(agent=agent, batch=batch, topic=topic, thresholds=thresholds, embedder_model=embedder_model,
                     summary=summary, audit=audit, planner=planner)
        if topic.session is not None:  # the session pass: its units stay raw (they may still recur)
            continue
        ids = [u.pk for u in topic.units]
        Exchange.objects.filter(pk__in=ids).update(state=Exchange.State.CONSOLIDATED, consolidated_batch=batch)
        summary["exchanges"].extend(str(i) for i in ids)
        summary["candidates"].extend(str(c.pk) for c in topic.candidates)
    Candidate.objects.filter(pk__in=[c.pk for t in topics for c in t.candidates]).update(
        status=Candidate.Status.DONE, batch=batch, last_error="")
    if planner.semantic and not planner.kind:
        updates = _changes_said_before(agent=agent, batch=batch, summary=summary)
        if updates:
            summary["updates_queued"] = [str(c.pk) for c in updates]
            summary["updates_queued_here"] = sum(c.agent_id == agent.pk for c in updates)
            for owner in {c.agent_id for c in updates} - {agent.pk}:  # the owner's pass lands its change now
                transaction.on_commit(lambda owner=owner: consolidation_enqueue(agent_id=owner, run=RUN_UPDATES))
    if replay is not None and replay.sessions:
        summary["replay"] = replay.cursor_advance()
    timings["write"] = round((time.perf_counter() - written) * 1000, 1)
    try:
        batch_succeed(batch=batch, summary=summary, timings_ms=timings)
    except Conflict as lost:  # re-queued while this wrote: roll it all back, the new run has it
        raise _LeaseLost() from lost
    audit.append({"action": AuditEvent.Action.CONSOLIDATE, "object_type": AuditObject.CONSOLIDATION_BATCH,
                  "object_id": batch.pk, "reason": "succeeded", "source_ids": summary["candidates"]})
    audit_record_many([{"project_id": agent.project_id, "actor_label": "system:consolidation", "batch": batch,
                        "scope": e.pop("scope", ""), **e} for e in audit])


def candidates_attempt_failed(*, candidates: list[Candidate], error: str) -> None:
    """One more failed attempt for each candidate; exhausted ones become ``failed`` (visible in /healthz)."""
    max_attempts = config().consolidation.max_attempts
    for c in candidates:
        c.refresh_from_db(fields=["attempts", "status"])
        c.attempts += 1
        c.last_error = error[:2000]
        c.status = Candidate.Status.FAILED if c.attempts >= max_attempts else Candidate.Status.PENDING
        c.save(update_fields=["attempts", "last_error", "status"])


@transaction.atomic
def consolidation_failed(*, agent: Agent, batch: ConsolidationBatch, candidates: list[Candidate], error: str,
                         timings: dict | None = None) -> None:
    """A run that wrote nothing: the candidates keep their exchanges and get one more attempt, the batch is failed,
    and the bounded retry is scheduled while attempts are left (else the batch stays failed for an operator)."""
    candidates_attempt_failed(candidates=candidates, error=error)
    left = any(c.status == Candidate.Status.PENDING for c in candidates)
    batch_fail(batch=batch, error=error if left else f"{error} (attempts exhausted; retry from the admin)",
               timings_ms=timings)
    if left:
        consolidation_retry_schedule(agent_id=agent.pk, batch=batch)
