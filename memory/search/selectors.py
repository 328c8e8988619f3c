"""Search reads: per layer the nearest rows the agent may see (vector and full-text halves), ranked by the blend,
the items returned read whole with their provenance, and the context block."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.models import Agent
from agents.visibility import Visibility, agent_visibility
from core.config import config
from memory.entities import entity_q
from memory.gateways.embeddings import get_embedder
from memory.models import (
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryStatus,
    ReviewItem,
)
from memory.search.context import context_block
from memory.search.lexical import LexicalQuery, lexical_query, query_lexemes
from memory.search.query import Hit, Nearest, SearchQuery, SearchResult
from memory.search.ranking import blended_score, relevance
from memory.search.side_by_side import run_side_by_side
from memory.search.snippets import episode_snippets
from memory.search.vector import nearest_scan, search_ef
from memory.selectors import episode_prefetches, experience_prefetches
from memory.temporal import episode_as_of_q, exchange_as_of_q, experience_as_of_q, experience_current_q
from memory.trust import PEER_RAW_TRUST, peer_item_reach_q

# Items that search never returns, whatever the filters.
HIDDEN_STATUSES = (MemoryStatus.SUPERSEDED, MemoryStatus.DELETED, MemoryStatus.ROLLED_BACK, MemoryStatus.ARCHIVED)

# The columns memory_search ranks a candidate by (its blend); the items returned are then read whole (_full_rows).
RANK_FIELDS: dict[type, tuple[str, ...]] = {
    Exchange: ("occurred_at", "hit_count", "session_id", "turn_index"),  # where its session neighbours are
    Episode: ("ended_at", "updated_at", "hit_count"),
    Experience: ("last_corroborated_at", "valid_from", "updated_at", "confidence", "informativeness", "hit_count"),
}


def _overruled_exchanges(project_id: Any) -> QuerySet:
    """The exchanges an item a reviewer overruled was drawn from (a conflict decided for the other side): the item
    is superseded and hidden, and its words must not come back to its author through the raw layer either. A few
    rows per decided conflict: read once per statement (a hashed subplan)."""
    return ExperienceEvidence.objects.filter(
        experience__project_id=project_id, experience__status=MemoryStatus.SUPERSEDED,
        experience__review_items__kind=ReviewItem.Kind.CONFLICT,
        experience__review_items__status=ReviewItem.Status.REJECTED).values("exchange_id")


def _vouched_exchanges(visibility: Visibility) -> list:
    """Ids of the project's exchanges a person vouched for: evidence of an active reviewed item, or released from
    quarantine by a reviewer (memory/trust.py ``PEER_RAW_TRUST``). Read first and passed on as a list: as hashed
    subplans beside the vector and full-text scans they made the exchange layer's retrieval 4× slower (bench_scale
    store, 50,000 exchanges: 16 → 63 ms; as a list 21 ms)."""
    backed = ExperienceEvidence.objects.filter(
        experience__project_id=visibility.project_id, experience__status=MemoryStatus.ACTIVE,
        experience__trust__in=PEER_RAW_TRUST).values_list("exchange_id", flat=True)
    released = ReviewItem.objects.filter(
        project_id=visibility.project_id, kind=ReviewItem.Kind.QUARANTINE, status=ReviewItem.Status.APPROVED,
        exchange__isnull=False).values_list("exchange_id", flat=True)
    return sorted(set(backed.union(released)))  # one round trip for both


def peer_exchanges_q(visibility: Visibility, vouched: list) -> Q:
    """The exchanges a search may return to ``visibility`` beyond what its scopes show (the poisoning defence's
    structural half, memory/trust.py ``PEER_RAW_TRUST``): its own, and another agent's only where a person vouched
    for them (``vouched``: :func:`_vouched_exchanges`). ``RECMEM_SEARCH_PEER_EXCHANGES=all``: every visible
    exchange."""
    if config().search.peer_exchanges == "all":
        return Q()
    own = Q(owner_agent_id=visibility.agent_id)
    return own | Q(pk__in=vouched) if vouched else own


def _items_of_vouched_words(link: type[EpisodeSource] | type[ExperienceEvidence], item: str, agent_id: Any,
                            vouched: list) -> list:
    """Ids of the items (``item``: the link's column) drawn from a vouched-for exchange and otherwise only from the
    reader's own: two reads of the link table per search (the vouched-for ids are few: evidence of reviewed items and
    released exchanges)."""
    touched = set(link.objects.filter(exchange_id__in=vouched).values_list(item, flat=True))
    if not touched:
        return []
    foreign = set(link.objects.filter(**{f"{item}__in": touched}).exclude(exchange__owner_agent_id=agent_id)
                  .exclude(exchange_id__in=vouched).values_list(item, flat=True))
    return sorted(touched - foreign)


def peer_items_q(visibility: Visibility, vouched: list) -> tuple[Q, Q]:
    """What a search may return of another agent's episodes and experiences (``RECMEM_SEARCH_PEER_ITEMS``): an
    experience that reaches the scope under the setting (memory/trust.py ``peer_item_reach_q``: with ``guarded``, the
    default, reviewed, or corroborated and about nothing two agents' word does not share; with ``trusted`` reviewed or
    corroborated; with ``reviewed`` reviewed) or drawn only from the reader's own or vouched-for exchanges, and an
    episode drawn only from those — an episode's narrative is its sources' sentences, and two agents in its sources
    vouch for none of them; with ``all`` every visible one (labelled with its trust). An item without sources is its
    owner's. The rule reads ``source_agent`` (kept by triggers, memory/models.py): the one agent whose exchanges an
    item was drawn from."""
    reach = peer_item_reach_q(config().search.peer_items)
    if reach is None:
        return Q(), Q()
    agent_id = visibility.agent_id
    own = Q(source_agent=agent_id) | Q(source_agent__isnull=True, owner_agent_id=agent_id)
    ep_q, xp_q = own, reach | own
    if vouched:
        if episodes := _items_of_vouched_words(EpisodeSource, "episode_id", agent_id, vouched):
            ep_q |= Q(pk__in=episodes)
        if experiences := _items_of_vouched_words(ExperienceEvidence, "experience_id", agent_id, vouched):
            xp_q |= Q(pk__in=experiences)
    return ep_q, xp_q


@dataclass(frozen=True)
class PeerRules:
    """Which of other agents' rows a reader's search may return, per layer (:func:`peer_exchanges_q`,
    :func:`peer_items_q`): built once per search, so the vouched-for ids are read once."""

    exchanges: Q
    episodes: Q
    experiences: Q


def peer_rules(visibility: Visibility) -> PeerRules:
    """The reader's :class:`PeerRules` under the settings in force."""
    settings = config().search
    vouched = (_vouched_exchanges(visibility) if settings.peer_exchanges == "trusted" or settings.peer_items != "all"
               else [])
    episodes, experiences = peer_items_q(visibility, vouched)
    return PeerRules(peer_exchanges_q(visibility, vouched), episodes, experiences)


def _layer_querysets(visibility: Visibility, query: SearchQuery | None = None, now: datetime | None = None, *,
                     rules: PeerRules | None = None, items: bool = True) -> tuple[QuerySet, QuerySet, QuerySet]:
    """What a search may return of each layer (exchanges, episodes, experiences): what holds now (an expired item
    is left out like a superseded one), or with ``as_of`` what was current then; with ``entity`` only rows about
    it. ``rules``: the reader's :class:`PeerRules` (built here when not given); ``items`` False: without their rule
    on another agent's items (the caller applies it)."""
    rules = rules or peer_rules(visibility)
    as_of = query.as_of if query is not None else None
    ex_qs = (Exchange.objects.visible_to(visibility).filter(rules.exchanges)
             .exclude(pk__in=_overruled_exchanges(visibility.project_id)))
    ep_qs = Episode.objects.visible_to(visibility).filter(rules.episodes if items else Q())
    xp_qs = Experience.objects.visible_to(visibility).filter(rules.experiences if items else Q())
    if as_of is None:
        ep_qs = ep_qs.exclude(status__in=HIDDEN_STATUSES)
        xp_qs = xp_qs.exclude(status__in=HIDDEN_STATUSES).filter(experience_current_q(now or timezone.now()))
    else:
        ex_qs = ex_qs.filter(exchange_as_of_q(as_of))
        ep_qs = ep_qs.filter(episode_as_of_q(as_of))
        xp_qs = xp_qs.filter(experience_as_of_q(as_of))
    entity = query.entity if query is not None else None
    if entity is not None:
        ex_qs = ex_qs.filter(entity_q(Exchange, entity, visibility))
        ep_qs = ep_qs.filter(entity_q(Episode, entity, visibility))
        xp_qs = xp_qs.filter(entity_q(Experience, entity, visibility))
    return ex_qs, ep_qs, xp_qs


def _query_filtered(ex_qs: QuerySet, ep_qs: QuerySet, xp_qs: QuerySet,
                    query: SearchQuery) -> tuple[QuerySet, QuerySet, QuerySet]:
    """The layers narrowed by the query's own filters (its time window, an experience's types and tags)."""
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
    return ex_qs, ep_qs, xp_qs


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
                   visibility: Visibility | None = None, lexical: bool | None = None,
                   lexemes: list[str] | None = None, rules: PeerRules | None = None) -> tuple[list, list, list]:
    """The retrieval part of a search (what ``bench_scale`` times as "pure SQL"): per layer, the over-fetched
    nearest rows the agent may see with their similarity and, in hybrid search (``RECMEM_SEARCH_LEXICAL_WEIGHT``
    > 0), the rows that match the query's words best. A row carries its ``RANK_FIELDS`` only (other columns are
    deferred). The statements run side by side, each in its own transaction (``RECMEM_SEARCH_THREADS``).
    ``lexemes``: the query's, when the caller has them already; ``rules``: the reader's :class:`PeerRules`, likewise."""
    query = query.resolved()
    visibility = visibility or agent_visibility(agent=agent)
    if lexical is None:
        lexical = config().search.lexical_weight > 0
    if not lexical:
        lexemes = None
    elif lexemes is None:
        lexemes = query_lexemes(query.query)
    ef_search = search_ef(query.k_sub)
    # The rule on another agent's items is applied to the layer's statements, not to the term weights below: the
    # IDF is counted over the rows the agent's scopes show (which it may list anyway), since counting under the
    # rule's correlated subqueries made retrieval 3× slower with RECMEM_SEARCH_PEER_ITEMS=trusted.
    rules = rules or peer_rules(visibility)
    ex_qs, ep_qs, xp_qs = _query_filtered(*_layer_querysets(visibility, query, rules=rules, items=False), query)

    def fetch(statement: QuerySet):
        def rows() -> list:
            # The scan settings are SET LOCAL: one transaction per statement, on the connection that runs it.
            with transaction.atomic(), nearest_scan(statement.model, ef_search=ef_search):
                return list(statement)
        return rows

    layers: list[list[QuerySet]] = []
    for qs, peer, k in ((ex_qs, Q(), query.k_sub), (ep_qs, rules.episodes, query.k_epi),
                        (xp_qs, rules.experiences, query.k_sem)):
        if k <= 0:
            layers.append([])
            continue
        # The term weights are in both of the layer's statements: found first (at scale from cached statistics).
        lexical_terms = lexical_query(qs, lexemes) if lexemes else None
        # Candidates carry the columns they are ranked by, nothing else: the over-fetch is ~8 rows per item returned,
        # and reading whole rows (texts, JSON, the session) for all of them was most of a search's Python time.
        layers.append(_layer_statements(qs.filter(peer).only(*RANK_FIELDS[qs.model]), vector, k, lexical_terms))
    # Side by side on their own connections (memory.search.side_by_side), the exchange layer's nearest rows (the
    # longest statement) in the caller's thread.
    fetched = iter(run_side_by_side([fetch(statement) for statements in layers for statement in statements]))
    exchanges, episodes, experiences = (_merged([next(fetched) for _ in statements]) for statements in layers)
    return exchanges, episodes, experiences


def _exchanges_with_neighbours(hits: list[Hit], qs: QuerySet, n: int) -> tuple[list[Hit], list[Hit]]:
    """The exchange hits read whole (as :func:`_full_rows`) and their context expansion, in one statement.

    Context expansion serves multi-hop questions: the session neighbours (±1 exchange) of the ``n`` best hits that
    are not hits themselves, each ranked just below the hit that brought it. The context block takes them only where
    its budget allows (LoCoMo: a multi-hop question's evidence is 3.9 turns on average, often side by side in one
    session). ``qs`` holds what the caller may see, so a neighbour is read under the same filter as the hits; read
    together they cost one statement where they cost two in turn (one round trip less per search)."""
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


# How far a chain of replacements is followed (an item superseded by one that was superseded in turn …).
UPDATE_CHAIN_MAX = 5


def _updates_of(result: SearchResult, vector: list[float], xp_qs: QuerySet, prefetches: list[Prefetch]) -> list[Hit]:
    """The active items that replaced what a hit still says. An update is written beside what it updates, but its
    words may be far from the question: asked "how do we explain a complex how-to?", the block gave the episode of
    "we prefer a short screen recording", never "the team now prefers annotated screenshots".

    So an episode whose sources, or an exchange that, were evidence of an item since superseded brings the item
    that superseded it — down its chain to what holds now — ranked where the old item would have been, when the
    old item's line would have made the block (its relevance with the experience prior reaches the experience
    floor and the block's cut, ``RECMEM_SEARCH_CONTEXT_FLOOR`` × the best hit's): an old item about something
    else that the hit also said brings nothing. Nor does a fold (two items that said the same point merged): the
    item it was folded into holds the old one's evidence, and is found on its own. ``xp_qs`` holds what the reader
    may see of the experience layer under the query's filters: an update it may not see is not brought. Items
    already among the hits keep their place, raised to the old item's relevance."""
    episodes = {h.obj.pk for h in result.episodes}
    exchanges = {h.obj.pk for h in [*result.exchanges, *result.neighbours]}
    if not episodes and not exchanges:
        return []
    old = (Experience.objects
           .filter(Exists(ExperienceEvidence.objects.filter(
               Q(exchange_id__in=list(exchanges)) | Q(exchange__episodes__in=list(episodes)),
               experience_id=OuterRef("pk"))),
               status=MemoryStatus.SUPERSEDED, superseded_by__isnull=False)
           .annotate(distance=CosineDistance("embedding", vector))
           .values_list("pk", "superseded_by_id", "distance", "informativeness"))
    # The old item's line would have made the block: its relevance (cosine, scaled by what it says) with the
    # experience prior reaches the experience floor and the block's cut under the best hit.
    search = config().search
    prior = search.experience_prior
    best = max([h.relevance for h in [*result.exchanges, *result.neighbours, *result.episodes]]
               + [h.relevance + prior for h in result.experiences])
    bar = max(search.experience_floor, search.context_floor * best)
    now_of: dict[Any, Any] = {}  # old item → the item that holds now in its place
    stands_for: dict[Any, float] = {}  # old item → its relevance
    for pk, successor, distance, worth in old:
        rel = relevance(similarity=1.0 - float(distance), lexical=0.0, lexical_weight=search.lexical_weight,
                        worth=0.5 + 0.5 * worth)
        if rel + prior >= bar:
            now_of[pk], stands_for[pk] = successor, rel
    # Down the chain to what holds now: a replacement may have been replaced in turn.
    for _ in range(UPDATE_CHAIN_MAX):
        onward = dict(Experience.objects.filter(pk__in=set(now_of.values()), superseded_by__isnull=False)
                      .values_list("pk", "superseded_by_id"))
        if not onward:
            break
        now_of = {pk: onward.get(successor, successor) for pk, successor in now_of.items()}
    # A fold is no update: the item an old one was folded into holds the old one's evidence, and says the same.
    evidence: dict[Any, set] = {}
    for item, exchange in ExperienceEvidence.objects.filter(
            experience_id__in={*now_of, *now_of.values()}).values_list("experience_id", "exchange_id"):
        evidence.setdefault(item, set()).add(exchange)
    brought: dict[Any, float] = {}  # replacing item → the relevance of the most relevant item it replaced
    for pk, successor in now_of.items():
        if not evidence.get(pk, set()) & evidence.get(successor, set()):
            brought[successor] = max(stands_for[pk], brought.get(successor, float("-inf")))
    have = {h.obj.pk: h for h in result.experiences}
    out = []
    for pk, rel in brought.items():
        if pk in have:
            have[pk].relevance = max(have[pk].relevance, rel)
            continue
        out.append(Hit(obj=Experience(pk=pk), similarity=rel, score=rel, relevance=rel))
    # Only what the reader may see, read whole; its similarity is its own cosine (ranked at the old item's relevance).
    out = _full_rows(out, xp_qs.annotate(distance=CosineDistance("embedding", vector)))
    for hit in out:
        hit.similarity = 1.0 - float(hit.obj.distance)
    prefetch_related_objects([h.obj for h in out], *prefetches)
    return out


def experience_fresh_from(item: Experience, at: datetime) -> datetime | None:
    """When an experience was last said as of ``at``: its last corroboration (a re-corroborated item is as fresh as
    the words that restated it), else its start; a corroboration after ``at`` was not known then."""
    last = item.last_corroborated_at
    if last is not None and last <= at:
        return last
    return item.valid_from or item.updated_at


def memory_search(*, agent: Agent, query: SearchQuery) -> SearchResult:
    """Three layers (exchanges, episodes, experiences) of what ``agent`` may see, ranked, with a context block."""
    query = query.resolved()
    vector = get_embedder().embed_one(query.query)
    visibility = agent_visibility(agent=agent)
    now = timezone.now()
    ranked_at = query.as_of or now  # as of a past instant, freshness is counted back from it
    lexemes = query_lexemes(query.query)  # the full-text half's terms, and what an episode's snippet is chosen by
    rules = peer_rules(visibility)
    exchanges, episodes, experiences = layers_nearest(agent=agent, query=query, vector=vector, visibility=visibility,
                                                      lexemes=lexemes, rules=rules)
    weight = config().search.lexical_weight

    def rank(rows: list[Nearest], when, conf, k, *, worth=lambda o: 1.0, floor: float | None = None) -> list[Hit]:
        hits = []
        for n in rows:
            rel = relevance(similarity=n.similarity, lexical=n.lexical, lexical_weight=weight, worth=worth(n.obj))
            if floor is not None and rel < floor:
                continue
            hits.append(Hit(obj=n.obj, similarity=n.similarity, relevance=rel,
                            score=blended_score(similarity=rel, when=when(n.obj), confidence=conf(n.obj),
                                                hits=n.obj.hit_count, now=ranked_at)))
        return sorted(hits, key=lambda h: -h.score)[:k]

    ex_qs, ep_qs, xp_qs = _layer_querysets(visibility, query, now, rules=rules)
    result = SearchResult(
        exchanges=rank(exchanges, lambda o: o.occurred_at, lambda o: 0.5, query.k_sub),
        episodes=rank(episodes, lambda o: o.ended_at or o.updated_at, lambda o: 0.7, query.k_epi),
        # An experience's relevance is scaled by how much it says (greetings and reassurance say little), and
        # those below the floor are left out: fewer than k, the budget goes to the other layers.
        # Fresh is what was last said: a re-corroborated item counts from its last corroboration, not its start.
        experiences=rank(experiences, lambda o: experience_fresh_from(o, ranked_at), lambda o: o.confidence,
                         query.k_sem,
                         worth=lambda o: 0.5 + 0.5 * o.informativeness, floor=config().search.experience_floor or None),
    )

    def exchanges_whole() -> tuple[list[Hit], list[Hit]]:
        return _exchanges_with_neighbours(result.exchanges, ex_qs, config().search.expand)

    def with_provenance(hits: list[Hit], qs: QuerySet, prefetches: list[Prefetch]):
        def whole() -> list[Hit]:
            # Provenance (id, session, time) only for the items returned, not for the whole over-fetch (a finding of the
            # benchmarks: the over-fetch is several times the results), and only the sources the caller may see.
            kept = _full_rows(hits, qs)
            prefetch_related_objects([h.obj for h in kept], *prefetches)
            return kept
        return whole

    # The returned items read whole, per layer side by side (memory.search.side_by_side) like the candidates.
    (result.exchanges, result.neighbours), result.episodes, result.experiences = run_side_by_side([
        exchanges_whole, with_provenance(result.episodes, ep_qs, episode_prefetches(visibility)),
        with_provenance(result.experiences, xp_qs, experience_prefetches(visibility))])
    snippets = episode_snippets([h.obj.narrative for h in result.episodes], lexemes,
                                config().search.episode_sentences)
    for hit, shown in zip(result.episodes, snippets, strict=True):
        hit.shown = shown
    # Not as of a past instant (what a hit said held then), nor without the experience layer (k_sem 0).
    if config().search.updates and query.as_of is None and query.k_sem > 0:
        result.experiences += _updates_of(result, vector, _query_filtered(ex_qs, ep_qs, xp_qs, query)[2],
                                          experience_prefetches(visibility))
    result.context, result.context_tokens = context_block(result, query.token_budget)
    result.context_budget = query.token_budget
    return result
