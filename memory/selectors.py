"""Memory reads. Every read of a scoped row goes through ``.visible_to(agent)``: one place decides visibility."""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.models import Agent
from agents.visibility import Visibility, agent_visibility
from core.config import config
from core.errors import NotFound
from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.gateways.tokens import count_tokens
from memory.lexical import LexicalQuery, lexical_query, query_lexemes
from memory.models import Episode, Exchange, Experience, MemoryStatus, Session
from memory.side_by_side import run_side_by_side
from memory.vector_scan import exact_scan_set, search_ef, vector_search_params

# Items that search never returns, whatever the filters.
HIDDEN_STATUSES = (MemoryStatus.SUPERSEDED, MemoryStatus.DELETED, MemoryStatus.ROLLED_BACK, MemoryStatus.ARCHIVED)


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


def _episode_prefetches(visibility: Visibility) -> list[Prefetch]:
    return [Prefetch("sources", queryset=_provenance_exchanges(visibility), to_attr="visible_sources")]


def _experience_prefetches(visibility: Visibility) -> list[Prefetch]:
    return [Prefetch("evidence", queryset=_provenance_exchanges(visibility), to_attr="visible_evidence"),
            Prefetch("superseded_by", queryset=Experience.objects.visible_to(visibility).only("id"),
                     to_attr="visible_superseded_by"),
            Prefetch("episode", queryset=Episode.objects.visible_to(visibility).only("id"), to_attr="visible_episode")]


def episodes_with_provenance(qs: QuerySet[Episode], visibility: Visibility) -> QuerySet[Episode]:
    return qs.prefetch_related(*_episode_prefetches(visibility))


def experiences_with_provenance(qs: QuerySet[Experience], visibility: Visibility) -> QuerySet[Experience]:
    return qs.prefetch_related(*_experience_prefetches(visibility))


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


# --- three-layer search ------------------------------------------------------------------------------------------

@dataclass
class SearchQuery:
    query: str
    k_sub: int = 10
    k_epi: int = 5
    k_sem: int = 10
    token_budget: int | None = None
    types: list[str] | None = None
    tags: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass
class Hit:
    obj: Any
    similarity: float  # cosine of the query and the item's vector
    score: float  # the ranking blend (relevance, freshness, confidence, hits)
    # cosine + RECMEM_SEARCH_LEXICAL_WEIGHT × the lexical match (hybrid search); what the context block orders by
    relevance: float | None = None
    expanded_from: Any = None  # a session neighbour brought in by this exchange hit (context expansion)

    def __post_init__(self) -> None:
        if self.relevance is None:
            self.relevance = self.similarity


@dataclass
class SearchResult:
    exchanges: list[Hit] = field(default_factory=list)
    episodes: list[Hit] = field(default_factory=list)
    experiences: list[Hit] = field(default_factory=list)
    # Context expansion: session neighbours of the best exchange hits, offered to the context block only (the
    # exchange list keeps its k); each ranked just below the hit that brought it.
    neighbours: list[Hit] = field(default_factory=list)
    context: str = ""
    context_tokens: int = 0


def _freshness(when: datetime | None, now: datetime) -> float:
    if when is None:
        return 0.0
    age_days = max((now - when).total_seconds() / 86400, 0.0)
    return 0.5 ** (age_days / config().freshness_half_life_days)


def blended_score(*, similarity: float, when: datetime | None, confidence: float, hits: int, now: datetime) -> float:
    """Relevance (``similarity``: the cosine, plus the lexical match in hybrid search) blended with freshness,
    confidence and hit count (weights: RECMEM_SEARCH_WEIGHTS)."""
    w = config().search_weights
    hit_term = min(1.0, math.log1p(hits) / math.log1p(100))
    return (w["similarity"] * similarity + w["freshness"] * _freshness(when, now)
            + w["confidence"] * confidence + w["hits"] * hit_term)


@dataclass
class Nearest:
    obj: Any
    similarity: float
    lexical: float = 0.0  # share of the query's IDF the row's words match (0 in vector-only search)


# The columns memory_search ranks a candidate by (its blend); the items returned are then read whole (_full_rows).
RANK_FIELDS: dict[type, tuple[str, ...]] = {
    Exchange: ("occurred_at", "hit_count", "session_id", "turn_index"),  # where its session neighbours are
    Episode: ("ended_at", "updated_at", "hit_count"),
    Experience: ("valid_from", "updated_at", "confidence", "informativeness", "hit_count"),
}


def _layer_querysets(visibility: Visibility) -> tuple[QuerySet, QuerySet, QuerySet]:
    """What a search may return of each layer (exchanges, episodes, experiences)."""
    return (Exchange.objects.visible_to(visibility),
            Episode.objects.visible_to(visibility).exclude(status__in=HIDDEN_STATUSES),
            Experience.objects.visible_to(visibility).exclude(status__in=HIDDEN_STATUSES))


def _whole(qs: QuerySet) -> QuerySet:
    """Items as a search returns them: every column but the vector and the tsvector (an exchange with its session)."""
    if qs.model is Exchange:
        qs = qs.select_related("session")
    return qs.defer("embedding", "search_vector")


def _kept(hits: list[Hit], rows: dict[Any, Any]) -> list[Hit]:
    """The hits with their items replaced by the ``rows`` read whole (by pk); an item deleted since it was ranked is
    left out."""
    kept = []
    for hit in hits:
        if hit.obj.pk in rows:
            hit.obj = rows[hit.obj.pk]
            kept.append(hit)
    return kept


def _full_rows(hits: list[Hit], qs: QuerySet) -> list[Hit]:
    """The hits with their items read whole (one statement per layer)."""
    return _kept(hits, _whole(qs).in_bulk([h.obj.pk for h in hits])) if hits else hits


def _layer_statements(qs: QuerySet, vector: list[float], k: int, lexical: LexicalQuery | None) -> list[QuerySet]:
    """One layer's retrieval statements: the over-fetched nearest rows of ``qs`` by cosine and, with ``lexical``,
    the best lexical matches beside them (both under the same filter: ``qs`` is already the visible rows)."""
    fetch = max(k * 3, 30)
    # Over-fetch so the blend can reorder near-ties; the iterative scan guarantees full k under filters.
    annotated = qs.annotate(distance=CosineDistance("embedding", vector))
    if lexical is None:
        return [annotated.order_by("distance")[:fetch]]
    annotated = annotated.annotate(lexical=lexical.score_expression())
    # Rows whose words match the query but whose vectors lie farther (an illness, a country named in the question
    # lose to close chit-chat by cosine alone): the full-text half, GIN-indexed.
    return [annotated.order_by("distance")[:fetch],
            lexical.matching(annotated).order_by("-lexical", "distance")[:fetch]]


def _merged(parts: list[list]) -> list[Nearest]:
    rows: dict[Any, Any] = {}
    for part in parts:
        for row in part:
            rows.setdefault(row.pk, row)
    return [Nearest(r, 1.0 - float(r.distance), float(getattr(r, "lexical", 0.0))) for r in rows.values()]


def layers_nearest(*, agent: Agent, query: SearchQuery, vector: list[float],
                   visibility: Visibility | None = None, lexical: bool | None = None) -> tuple[list, list, list]:
    """The retrieval part of a search (what ``bench_scale`` times as "pure SQL"): per layer, the over-fetched
    nearest rows the agent may see with their similarity and, in hybrid search (``RECMEM_SEARCH_LEXICAL_WEIGHT``
    > 0), the rows that match the query's words best. A row carries its ``RANK_FIELDS`` only (other columns are
    deferred). The statements run side by side, each in its own transaction (``RECMEM_SEARCH_THREADS``)."""
    visibility = visibility or agent_visibility(agent=agent)
    if lexical is None:
        lexical = config().search_lexical_weight > 0
    lexemes = query_lexemes(query.query) if lexical else None
    ef_search = search_ef(query.k_sub)
    ex_qs, ep_qs, xp_qs = _layer_querysets(visibility)
    if query.since:
        ex_qs = ex_qs.filter(occurred_at__gte=query.since)
        ep_qs = ep_qs.filter(ended_at__gte=query.since)
        xp_qs = xp_qs.filter(Q(valid_from__gte=query.since) | Q(valid_from__isnull=True))
    if query.until:
        ex_qs = ex_qs.filter(occurred_at__lt=query.until)
        ep_qs = ep_qs.filter(started_at__lt=query.until)
        xp_qs = xp_qs.filter(Q(valid_from__lt=query.until) | Q(valid_from__isnull=True))
    if query.types:
        xp_qs = xp_qs.filter(type__in=query.types)
    if query.tags:
        xp_qs = xp_qs.filter(tags__overlap=[t.lower() for t in query.tags])

    def fetch(statement: QuerySet):
        def rows() -> list:
            # The scan settings are SET LOCAL: one transaction per statement, on the connection that runs it.
            with transaction.atomic():
                vector_search_params(ef_search=ef_search)
                exact_scan_set(statement.model)
                return list(statement)
        return rows

    layers: list[list[QuerySet]] = []
    for qs, k in ((ex_qs, query.k_sub), (ep_qs, query.k_epi), (xp_qs, query.k_sem)):
        if k <= 0:
            layers.append([])
            continue
        # The term weights are in both of the layer's statements: found first (at scale from cached statistics).
        lexical_terms = lexical_query(qs, lexemes) if lexemes else None
        # Candidates carry the columns they are ranked by, nothing else: the over-fetch is ~8 rows per item returned,
        # and reading whole rows (texts, JSON, the session) for all of them was most of a search's Python time.
        layers.append(_layer_statements(qs.only(*RANK_FIELDS[qs.model]), vector, k, lexical_terms))
    # Side by side on their own connections (memory.side_by_side), the exchange layer's nearest rows (the longest
    # statement) in the caller's thread.
    fetched = iter(run_side_by_side([fetch(statement) for statements in layers for statement in statements]))
    exchanges, episodes, experiences = (_merged([next(fetched) for _ in statements]) for statements in layers)
    return exchanges, episodes, experiences


def _exchanges_with_neighbours(hits: list[Hit], qs: QuerySet, n: int) -> tuple[list[Hit], list[Hit]]:
    """The exchange hits read whole (as :func:`_full_rows`) and their context expansion, in one statement.

    Context expansion serves multi-hop questions: the session neighbours (±1 exchange) of the ``n`` best hits that
    are not hits themselves, each ranked just below the hit that brought it. The context block takes them only where
    its budget allows (LoCoMo: a multi-hop question's evidence is 3.9 turns on average, often side by side in one
    session). ``qs`` holds what the caller may see, so a neighbour is read under the same filter as the hits; read
    together they cost one statement where they cost two in turn (issue 19)."""
    if not hits:
        return hits, []
    wanted: dict[tuple[Any, int], Hit] = {}
    for hit in hits[:max(n, 0)]:
        for turn in (hit.obj.turn_index - 1, hit.obj.turn_index + 1):
            wanted.setdefault((hit.obj.session_id, turn), hit)
    condition = Q(pk__in=[h.obj.pk for h in hits])
    for session_id, turn in wanted:
        condition |= Q(session_id=session_id, turn_index=turn)
    rows = {row.pk: row for row in _whole(qs.filter(condition))}
    kept = _kept(hits, rows)  # an exchange deleted since it was ranked is left out, with its neighbours
    have = {h.obj.pk for h in kept}
    out = []
    for row in rows.values():
        parent = wanted.get((row.session_id, row.turn_index))
        if parent is None or row.pk in have or parent.obj.pk not in have:
            continue
        have.add(row.pk)
        out.append(Hit(obj=row, similarity=parent.similarity, score=parent.score - 1e-3,
                       relevance=parent.relevance - NEIGHBOUR_MARGIN, expanded_from=parent.obj.pk))
    return kept, sorted(out, key=lambda h: -h.relevance)


# A neighbour goes into the context after hits clearly more relevant than its parent (tuned on the dev split).
NEIGHBOUR_MARGIN = 0.05


def memory_search(*, agent: Agent, query: SearchQuery) -> SearchResult:
    """Three layers (exchanges, episodes, experiences) of what ``agent`` may see, ranked, with a context block."""
    vector = get_embedder().embed_one(query.query)
    visibility = agent_visibility(agent=agent)
    now = timezone.now()
    exchanges, episodes, experiences = layers_nearest(agent=agent, query=query, vector=vector, visibility=visibility)
    weight = config().search_lexical_weight

    def rank(rows: list[Nearest], when, conf, k, *, worth=lambda o: 1.0, floor: float | None = None) -> list[Hit]:
        hits = []
        for n in rows:
            relevance = (n.similarity + weight * n.lexical) * worth(n.obj)
            if floor is not None and relevance < floor:
                continue
            hits.append(Hit(obj=n.obj, similarity=n.similarity, relevance=relevance,
                            score=blended_score(similarity=relevance, when=when(n.obj), confidence=conf(n.obj),
                                                hits=n.obj.hit_count, now=now)))
        return sorted(hits, key=lambda h: -h.score)[:k]

    ex_qs, ep_qs, xp_qs = _layer_querysets(visibility)
    result = SearchResult(
        exchanges=rank(exchanges, lambda o: o.occurred_at, lambda o: 0.5, query.k_sub),
        episodes=rank(episodes, lambda o: o.ended_at or o.updated_at, lambda o: 0.7, query.k_epi),
        # An experience's relevance is scaled by how much it says (greetings and reassurance say little), and
        # those below the floor are left out: fewer than k, the budget goes to the other layers.
        experiences=rank(experiences, lambda o: o.valid_from or o.updated_at, lambda o: o.confidence, query.k_sem,
                         worth=lambda o: 0.5 + 0.5 * o.informativeness, floor=config().experience_floor or None),
    )

    def exchanges_whole() -> tuple[list[Hit], list[Hit]]:
        return _exchanges_with_neighbours(result.exchanges, ex_qs, config().search_expand)

    def with_provenance(hits: list[Hit], qs: QuerySet, prefetches: list[Prefetch]):
        def whole() -> list[Hit]:
            # Provenance (id, session, time) only for the items returned, not for the whole over-fetch (bench:
            # issue 5), and only the sources the caller may see.
            kept = _full_rows(hits, qs)
            prefetch_related_objects([h.obj for h in kept], *prefetches)
            return kept
        return whole

    # The returned items read whole, per layer side by side (memory.side_by_side) like the candidates.
    (result.exchanges, result.neighbours), result.episodes, result.experiences = run_side_by_side([
        exchanges_whole, with_provenance(result.episodes, ep_qs, _episode_prefetches(visibility)),
        with_provenance(result.experiences, xp_qs, _experience_prefetches(visibility))])
    budget = query.token_budget or config().search_token_budget
    result.context, result.context_tokens = context_block(result, budget)
    return result


def _day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d") if value else "undated"


def _revalidate(experience) -> str:
    # Not corroborated for long (or judged stale/wrong): shown as such rather than used as a plain fact.
    return "; needs revalidation" if getattr(experience, "needs_revalidation", False) else ""


def context_block(result: SearchResult, budget: int) -> tuple[str, int]:
    """A ready-to-inject text: experiences, then episodes, then raw exchanges, within ``budget`` tokens.

    Which hits get in is decided across layers by relevance to the query (cosine, plus the lexical match in hybrid
    search), greedily (a hit that does not fit is skipped for a shorter later one): filling layer by layer let a few
    long episodes crowd out the exchanges that held the answer (LoCoMo: evidence in the context 0.59 against 0.76 in
    the results, issue 5). A session neighbour (context expansion) gets in only after the hit that brought it.
    """
    sections: list[tuple[str, list[tuple[float, str]]]] = [
        ("Known facts, preferences and rules:",
         [(h.relevance, f"- [{h.obj.type}] {h.obj.statement} (since {_day(h.obj.valid_from)}; confidence "
                         f"{h.obj.confidence:.2f}{_revalidate(h.obj)})") for h in result.experiences]),
        ("Episodes:",
         [(h.relevance, f"- {h.obj.title} ({_day(h.obj.started_at)} to {_day(h.obj.ended_at)}): {h.obj.narrative}")
          for h in result.episodes]),
        ("Related past exchanges:",
         [(h.relevance, f"- [{h.obj.occurred_at.strftime('%Y-%m-%d %H:%M')}] user: {h.obj.user_text} | assistant: "
                         f"{h.obj.assistant_text}") for h in [*result.exchanges, *result.neighbours]]),
    ]
    order = sorted(((sim, s_i, i_i) for s_i, (_, items) in enumerate(sections) for i_i, (sim, _) in enumerate(items)),
                   key=lambda t: (-t[0], t[1], t[2]))
    exchange_section = len(sections) - 1
    position = {h.obj.pk: i for i, h in enumerate(result.exchanges)} if result.neighbours else {}
    # item index in the exchange section → index of the hit that brought it (a neighbour's line needs its parent's)
    parent_of = {len(result.exchanges) + i: position.get(h.expanded_from) for i, h in enumerate(result.neighbours)}
    taken: set[tuple[int, int]] = set()
    opened: set[int] = set()
    used = 0
    for _, s_i, i_i in order:
        if s_i == exchange_section and i_i in parent_of and (s_i, parent_of[i_i]) not in taken:
            continue
        header_cost = 0 if s_i in opened else count_tokens(sections[s_i][0]) + 1
        cost = count_tokens(sections[s_i][1][i_i][1]) + 1
        if used + header_cost + cost > budget:
            continue
        taken.add((s_i, i_i))
        opened.add(s_i)
        used += header_cost + cost
    lines: list[str] = []
    for s_i, (header, items) in enumerate(sections):
        chosen = [line for i_i, (_, line) in enumerate(items) if (s_i, i_i) in taken]
        if chosen:
            lines.extend([header, *chosen, ""])
    text = "\n".join(lines).strip()
    return text, used
