"""The online write path: mask → embed → store → recurrence check (→ candidate) → enqueue consolidation."""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.postgres.search import SearchQuery
from django.db import OperationalError, connection, transaction
from django.db.models import BooleanField, FloatField, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone
from pgvector.django import CosineDistance

from agents.models import Agent, Module
from agents.selectors import agent_module_get
from agents.visibility import Scope, ScopeKey, Visibility, agent_visibility, scope_chain
from core.config import config
from core.errors import Conflict
from core.tracing import traced
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record, audit_record_many
from governance.services.privacy import Masker, json_mask, texts_mask
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Episode, Exchange, Experience, ReviewItem, Session
from memory.quarantine import quarantine_reason
from memory.quarantine.binding import binding_tokens, tokens_in
from memory.quotas import exchange_quota_check, exchange_quota_hold
from memory.review.services import review_quarantine_create
from memory.salience import salience_reason
from memory.search.lexical import TEXT_SEARCH_CONFIG
from memory.search.vector import nearest_scan
from memory.services.scheduling import candidate_create, consolidation_enqueue
from memory.textform import unit_text_form
from memory.thresholds import Thresholds, thresholds_for
from memory.trust import NON_CORROBORATING, Source

logger = logging.getLogger(__name__)

# Candidates that wait for the agent's next run instead of starting one.
WAITING = (Candidate.Reason.SALIENCE, Candidate.Reason.UPDATE)
RECENT_NAMES_WINDOW = 20  # exchanges of the session whose names a technology word there may be (registered_spans)


@dataclass(frozen=True)
class ExchangeIn:
    user: str
    assistant: str
    occurred_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    # What the texts are (memory/trust.py): a conversation by default, a tool's output (with its name), the agent's
    # own note, an import.
    source: str = Source.CONVERSATION
    tool: str = ""


@dataclass
class IngestResult:
    exchanges: list[Exchange]
    candidate_exchange_ids: set[Any]
    candidates: list[Candidate]


@transaction.atomic
def session_create(*, agent: Agent, external_id: str = "", started_at: datetime | None = None,
                   module: Module | str | None = None, metadata: dict | None = None) -> Session:
    """Open a session for ``agent``; with ``module`` (one of the agent's, or its name or id) what it produces is
    module-scoped."""
    if module is not None:
        module = agent_module_get(agent=agent, name_or_id=module if isinstance(module, str) else str(module.pk))
    # The external id is agent input like any text: stored masked (the same value masks to the same text, so a
    # duplicate is still a duplicate), and the error does not repeat it.
    if external_id:
        external_id = texts_mask(project=agent.project, texts=[external_id])[0]
    if external_id and Session.objects.filter(owner_agent=agent, external_id=external_id).exists():
        raise Conflict("a session with this external_id already exists", code="duplicate_session")
    metadata = json_mask(project=agent.project, values=[metadata or {}])[0]
    session = Session.objects.create(
        project_id=agent.project_id, owner_agent=agent, module=module,
        scope=Scope.MODULE if module is not None else Scope.PERSONAL,
        external_id=external_id, started_at=started_at or timezone.now(), metadata=metadata,
    )
    audit_record(action=AuditEvent.Action.CREATE, object_type=AuditObject.SESSION, object_id=session.pk,
                 project_id=agent.project_id, actor_agent=agent, scope=session.scope)
    return session


@transaction.atomic
def session_close(*, agent: Agent, session: Session) -> Session:
    """Close a session (idempotent); closed sessions accept no more exchanges and count toward idle runs."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != Session.Status.CLOSED:
        session.status = Session.Status.CLOSED
        session.closed_at = timezone.now()
        session.save(update_fields=["status", "closed_at"])
        audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.SESSION, object_id=session.pk,
                     project_id=session.project_id, actor_agent=agent, scope=session.scope, reason="closed")
    return session


def recurrence_neighbours(*, exchanges: list[Exchange], visibility: Visibility,
                          thresholds: Thresholds) -> dict[Any, list[tuple[Exchange, float]]]:
    """For each stored exchange (by pk): its top ``k = 2·θ_count`` neighbours that may be merged with it (visible,
    and in scopes comparable with its scope: never another module's units for a module unit), nearest first, with
    their cosine similarity. The neighbours' ``state`` is as stored when the query ran.

    One statement per scope (a request's exchanges share their session's scope) where there was one per exchange:
    the same top-k query, run for every exchange through a ``LATERAL`` join (measured: at 20 exchanges per request
    the trigger was 20 statements and ~4 ms of ORM CPU per exchange)."""
    table = connection.ops.quote_name(Exchange._meta.db_table)
    # In the model's column order, as Model.from_db expects the values.
    fields = [f.attname for f in Exchange._meta.concrete_fields
              if f.attname in {"id", "state", "project_id", "scope", "owner_agent_id", "module_id", "session_id",
                                "quarantined"}]
    found: dict[Any, list[tuple[Exchange, float]]] = {e.pk: [] for e in exchanges}
    by_scope: dict[ScopeKey, list[Any]] = {}
    for e in exchanges:
        by_scope.setdefault(ScopeKey.of(e), []).append(e.pk)
    for key, pks in by_scope.items():
        # The inner query is the per-exchange query with the exchange as the outer row ``src``: compiled once.
        inner, params = (
            Exchange.objects.mergeable_with(key, visibility)
            .filter(RawSQL(f"{table}.id <> src.id", [], output_field=BooleanField()))
            .annotate(distance=RawSQL(f"{table}.embedding <=> src.embedding", [], output_field=FloatField()))
            .order_by("distance").values_list(*fields, "distance")[: thresholds.k]
        ).query.sql_with_params()
        with nearest_scan(Exchange), connection.cursor() as cursor:
            cursor.execute(f"SELECT src.id, n.* FROM {table} AS src CROSS JOIN LATERAL ({inner}) AS n "
                           "WHERE src.id = ANY(%s) ORDER BY src.id, n.distance", [*params, pks])
            for src, *values, distance in cursor.fetchall():
                found[src].append((Exchange.from_db(connection.alias, fields, values), 1.0 - float(distance)))
    return found


def _mode() -> str:
    return config().consolidation.mode


def session_check_open(session: Session) -> None:
    """Closed sessions accept no more exchanges."""
    if session.status == Session.Status.CLOSED:
        raise Conflict("session is closed", code="session_closed")


@traced("recmem.ingest",
        attributes=lambda kw: {"recmem.exchanges": len(kw["items"]), "recmem.session_id": kw["session"].pk})
def exchanges_ingest(*, agent: Agent, session: Session, items: list[ExchangeIn], embedder=None,
                     masker: Masker | None = None) -> IngestResult:
    """Store exchanges (masked, embedded) in ``session`` and run the recurrence trigger on each.

    Masking and embedding happen before the transaction (they are the slow part); the write, the turn indexes
    and the trigger are one transaction, so a failure stores nothing. ``embedder`` and ``masker`` default to the
    configured gateways.
    """
    session_check_open(session)
    exchange_quota_check(project=agent.project, adding=len(items))
    now = timezone.now()
    # The session's last exchange (as stored, masked) is the window in which a secret split across exchanges is
    # caught: the tail of a key whose head ended the previous exchange is masked too.
    # The session's recent exchanges are where a name masked once stays that name (also when it is a technology word).
    recent = list(Exchange.objects.filter(session=session).order_by("-turn_index")
                  .values_list("user_text", "assistant_text")[:RECENT_NAMES_WINDOW])
    last = recent[0] if recent else ()
    texts = texts_mask(project=agent.project, texts=[t for item in items for t in (item.user, item.assistant)],
                       masker=masker, conversation_before=list(last),
                       conversation=[t for pair in recent for t in pair])
    masked = [(texts[2 * i], texts[2 * i + 1]) for i in range(len(items))]
    # metadata continues the texts it came with: a key whose head ends a text may go on in a metadata value
    metadata = json_mask(project=agent.project, values=[item.metadata or {} for item in items], masker=masker,
                         conversation_before=texts, conversation=[*texts, *(t for pair in recent for t in pair)])
    # A tool's name is agent input like any text: stored masked.
    named = [i for i, item in enumerate(items) if item.tool]
    tools = [""] * len(items)
    for i, masked_name in zip(named, texts_mask(project=agent.project, texts=[items[i].tool for i in named],
                                                masker=masker) if named else [], strict=True):
        tools[i] = masked_name[:100]
    occurred = [item.occurred_at or now for item in items]
    forms = [unit_text_form(occurred_at=occurred[i], user=u, assistant=a) for i, (u, a) in enumerate(masked)]
    embedder = embedder or get_embedder()
    vectors = embedder.embed(forms)
    held = exchanges_screen(items=items, shared=session.scope != Scope.PERSONAL)
    held = _restatements_held(agent=agent, vectors=vectors, held=held, model_id=embedder.model_id)
    held = _bound_held(agent=agent, masked=masked, held=held)
    return _store(agent=agent, session=session, masked=masked, metadata=metadata, occurred=occurred, forms=forms,
                  vectors=vectors, model_id=embedder.model_id, items=items, tools=tools, held=held)


def _restatements_held(*, agent, vectors, held: list[str], model_id: str) -> list[str]:
    """An exchange that restates one of the same agent's held exchanges is held too: paraphrase flooding repeats a
    flagged claim in words the detector may not catch each time, and one flagged statement must not come back
    through its rewordings. Only the agent's own held exchanges count (one agent's flag never spreads to others)."""
    if not config().governance.quarantine_enabled or all(held):
        return held
    prior = Exchange.objects.filter(project_id=agent.project_id, owner_agent=agent, quarantined=True)
    if not prior.exists():
        return held
    cut = thresholds_for(model_id).merge  # a paraphrase of the same claim, as consolidation merges them
    out = list(held)
    # Exact: an agent's held exchanges are few, and under HNSW the held one was missed as soon as other agents'
    # exchanges came first.
    with transaction.atomic(), nearest_scan(Exchange, exact=True):
        for i, vector in enumerate(vectors):
            if out[i]:
                continue
            row = (prior.annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
                   .values_list("distance", flat=True).first())
            if row is not None and 1.0 - float(row) >= cut:
                out[i] = f"restates an exchange of the same agent held for review (similarity {1.0 - float(row):.2f})"
    return out


# A word in more of the agent's own exchanges is their vocabulary, not an attack's reference; one that two other agents
# of the project also use is the project's.
_BINDING_OWN_MAX = 25
_BINDING_OTHERS_MAX = 1
_BINDING_HOLD_MAX = 200  # earlier exchanges held at once: a bound, not a budget (an attack spans a few)


def _asks(user: str, assistant: str) -> bool:
    """An exchange that asks rather than states (a question mark on either side)."""
    return "?" in (user or "") or "?" in (assistant or "")


def _binding_refs(*, agent, tokens: set[str], exclude: list | tuple = ()) -> set[str]:
    """Of ``tokens`` (memory/quarantine/binding.py), those that tie the agent's texts to one another."""
    refs = set()
    for token in tokens:
        # through the full-text index (a word or a host is one lexeme): a scan of the project's texts per word
        # would cost seconds in a large store
        query = SearchQuery(token, search_type="plain", config=TEXT_SEARCH_CONFIG)
        rows = Exchange.objects.filter(project_id=agent.project_id, search_vector=query).exclude(pk__in=exclude)
        # held rows are not vocabulary: a colluding agent's own use of the reference does not make it the project's
        others = (rows.exclude(owner_agent=agent).filter(quarantined=False).values("owner_agent_id").distinct()
                  [:_BINDING_OTHERS_MAX + 1])
        if len(others) > _BINDING_OTHERS_MAX:
            continue
        if rows.filter(owner_agent=agent).values("pk")[:_BINDING_OWN_MAX + 1].count() > _BINDING_OWN_MAX:
            continue
        refs.add(token)
    return refs


def _bound_held(*, agent, masked: list[tuple[str, str]], held: list[str]) -> list[str]:
    """An exchange that names what a held exchange of the project names — a coined reference, a host — is held too:
    slow poisoning and flooding spread one attack over many texts the detector cannot flag each time, bound by the
    attacker's own reference, and two colluding agents share it. A reference is vocabulary, not a binding, once two
    agents besides this one use it, or this one in many exchanges (:func:`_binding_refs`)."""
    if not config().governance.quarantine_enabled or all(held):
        return held
    rows = list(Exchange.objects.filter(project_id=agent.project_id, quarantined=True)
                .order_by("-created_at").values_list("user_text", "assistant_text", "owner_agent_id")[:200])
    own = [(u, a) for u, a, owner in rows if owner == agent.pk] + [masked[i] for i, r in enumerate(held) if r]
    tokens = set().union(*(binding_tokens(f"{u}\n{a}") for u, a in own)) if own else set()
    theirs = set().union(*(binding_tokens(f"{u}\n{a}") for u, a, owner in rows if owner != agent.pk))
    if not tokens and not theirs:
        return held
    # another agent's held reference binds this agent's statements only: a question about it ("is that mirror
    # ours?") is a bystander's, a restatement is a colluding agent's
    named = {i: tokens_in(f"{u}\n{a}", tokens | (set() if _asks(u, a) else theirs))
             for i, (u, a) in enumerate(masked) if not held[i]}
    # each word's look-ups once for the whole request
    refs = _binding_refs(agent=agent, tokens=set().union(*named.values())) if any(named.values()) else set()
    out = list(held)
    for i, words in named.items():
        if words & refs:
            out[i] = f"names {sorted(words & refs)[0]}, as an exchange held for review does"[:300]
    return out


def _earlier_bound_hold(*, agent, exchanges: list[Exchange]) -> None:
    """The other direction: an exchange held now holds the *earlier* exchanges that name its coined reference (the
    innocuous first steps of a slow poisoning, a colluding agent's restatements), and what consolidation drew from
    them. An exchange a reviewer released (not held, a reason kept) stays released."""
    held_now = [e for e in exchanges if e.quarantined]
    if not held_now or not config().governance.quarantine_enabled:
        return
    batch = [e.pk for e in exchanges]
    tokens = set().union(*(binding_tokens(f"{e.user_text}\n{e.assistant_text}") for e in held_now))
    refs = _binding_refs(agent=agent, tokens=tokens, exclude=batch) if tokens else set()
    if not refs:
        return
    match = Q()
    for ref in refs:  # a substring match: a word is found inside a host, which the full-text index keeps whole
        match |= Q(user_text__icontains=ref) | Q(assistant_text__icontains=ref)
    # the project's rows naming a reference at most one other agent uses (_binding_refs), confirmed word by word
    rows = (Exchange.objects.filter(project_id=agent.project_id, quarantined=False,
                                    quarantine_reason="").filter(match).exclude(pk__in=batch)
            .order_by("-created_at")[:_BINDING_HOLD_MAX])
    earlier = [(e, named) for e in rows if (e.owner_agent_id == agent.pk or not _asks(e.user_text, e.assistant_text))
               and (named := tokens_in(f"{e.user_text}\n{e.assistant_text}", refs))]
    if not earlier:
        return
    for attempt in range(3):
        try:
            with transaction.atomic():  # a savepoint: a deadlock with a consolidation run retries this part alone
                _bound_rows_hold(agent=agent, earlier=earlier)
            return
        except OperationalError:
            if attempt == 2:
                raise
            logger.warning("holding the exchanges bound to a held one met a lock conflict; retrying")


def _bound_rows_hold(*, agent, earlier: list[tuple[Exchange, set[str]]]) -> None:
    """Hold ``earlier`` (each exchange with the references it names) and what consolidation drew from them, each
    with a review item and an audit event. Items first, then exchanges, each in key order: the order a consolidation
    run locks them in."""
    events = []
    drawn = "drawn from evidence held in quarantine"
    ids = [e.pk for e, _ in earlier]
    for model, object_type, link in ((Experience, AuditObject.EXPERIENCE, "evidence__in"),
                                     (Episode, AuditObject.EPISODE, "sources__in")):
        for obj in model.objects.filter(**{link: ids}, quarantined=False).distinct().order_by("pk"):
            if not model.objects.filter(pk=obj.pk, quarantined=False).update(quarantined=True,
                                                                              quarantine_reason=drawn):
                continue
            obj.quarantined, obj.quarantine_reason = True, drawn
            item = (review_quarantine_create(**{model.__name__.lower(): obj}, reason=drawn)
                    if obj.scope != Scope.PERSONAL else None)
            events.append({"action": AuditEvent.Action.UPDATE, "object_type": object_type, "object_id": obj.pk,
                           "project_id": obj.project_id, "actor_agent": agent, "scope": obj.scope,
                           "reason": f"quarantined: {drawn}", "source_ids": [item.pk] if item else [],
                           "data": {"quarantine": {"reason": drawn, "review_item": str(item.pk) if item else None}}})
    for e, named in sorted(earlier, key=lambda pair: str(pair[0].pk)):
        reason = f"names {sorted(named)[0]}, as a later exchange held for review does"[:300]
        if not Exchange.objects.filter(pk=e.pk, quarantined=False).update(quarantined=True, quarantine_reason=reason):
            continue  # held meanwhile
        e.quarantined, e.quarantine_reason = True, reason
        item = review_quarantine_create(exchange=e, reason=reason) if e.scope != Scope.PERSONAL else None
        events.append({"action": AuditEvent.Action.UPDATE, "object_type": AuditObject.EXCHANGE, "object_id": e.pk,
                       "project_id": e.project_id, "actor_agent": agent, "scope": e.scope, "reason": reason,
                       "source_ids": [item.pk] if item else [],
                       "data": {"quarantine": {"reason": reason, "review_item": str(item.pk) if item else None}}})
    if events:
        audit_record_many(events)


def _strings_of(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings_of(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings_of(v)]
    return []


def exchanges_screen(*, items: list[ExchangeIn], shared: bool = True) -> list[str]:
    """Per exchange, why it is held in quarantine ("" when it is not): the detector reads the texts as the agent sent
    them (before masking: an address the masker replaces is still where data would be sent) and the metadata's
    strings, whatever the declared source; a tool's output or an import is read with the wider net. ``shared``
    False (a personal session): a rule that switches off a safeguard is the author's own business."""
    if not config().governance.quarantine_enabled:
        return [""] * len(items)
    return [quarantine_reason(item.user, item.assistant, *_strings_of(item.metadata),
                              tool=item.source in NON_CORROBORATING, shared=shared) for item in items]


@traced("recmem.store")
@transaction.atomic
def _store(*, agent, session, masked, metadata, occurred, forms, vectors, model_id, items, tools,
           held) -> IngestResult:
    session, start = _turns_reserve(agent=agent, session=session, count=len(masked))
    exchanges = Exchange.objects.bulk_create([
        Exchange(project_id=session.project_id, owner_agent=agent, module_id=session.module_id, scope=session.scope,
                 session=session, turn_index=start + i, user_text=u, assistant_text=a, text_form=forms[i],
                 occurred_at=occurred[i], metadata=metadata[i], embedding=vectors[i],
                 embedding_model=model_id, source=items[i].source, tool=tools[i],
                 quarantined=bool(held[i]), quarantine_reason=held[i])
        for i, (u, a) in enumerate(masked)
    ])
    # A shared exchange held in quarantine waits for a reviewer (personal ones are their author's alone anyway).
    quarantine = {e.pk: review_quarantine_create(exchange=e, reason=e.quarantine_reason)
                  for e in exchanges if e.quarantined and e.scope != Scope.PERSONAL}
    _earlier_bound_hold(agent=agent, exchanges=exchanges)

    candidates = _trigger(agent=agent, exchanges=exchanges, model_id=model_id)
    # Last, next to the audit chain's lock (the same project): concurrent ingests queue only for the short end.
    exchange_quota_hold(project=agent.project, added=len(exchanges))
    # The trigger also moves earlier exchanges into a candidate (raw → candidate): the triggering exchange's event
    # names the candidate and its members, so no row changes unnamed by the trail.
    members: dict[Any, list[str]] = {}
    for candidate_id, exchange_id in Candidate.exchanges.through.objects.filter(
            candidate__in=candidates).values_list("candidate_id", "exchange_id"):
        members.setdefault(candidate_id, []).append(str(exchange_id))
    triggered = {c.trigger_id: {"candidate": {"id": str(c.pk), "reason": c.reason,
                                              "members": sorted(members.get(c.pk, []))}} for c in candidates}
    audit_record_many([
        {"action": AuditEvent.Action.CREATE, "object_type": AuditObject.EXCHANGE, "object_id": e.pk,
         "project_id": e.project_id, "actor_agent": agent, "scope": e.scope, "source_ids": [session.pk],
         "data": _event_data(e, triggered.get(e.pk), quarantine.get(e.pk))}
        for e in exchanges
    ])
    candidate_ids = {e.pk for e in exchanges if e.state == Exchange.State.CANDIDATE}
    # A salient one-off or an update alone does not start a run: it waits for the agent's next run (a ripe topic,
    # the idle tick or an explicit request), where they are refined together in one call per scope.
    if any(c.reason not in WAITING for c in candidates) and _mode() == "online":
        transaction.on_commit(lambda: consolidation_enqueue(agent_id=agent.pk))
    return IngestResult(exchanges=exchanges, candidate_exchange_ids=candidate_ids, candidates=candidates)


def _event_data(e: Exchange, triggered: dict | None, item: ReviewItem | None) -> dict | None:
    data = dict(triggered or {})
    if e.source != Source.CONVERSATION:
        data["source"] = e.source
    if e.quarantined:
        data["quarantine"] = {"reason": e.quarantine_reason, "review_item": str(item.pk) if item else None}
    return data or None


def _turns_reserve(*, agent: Agent, session: Session, count: int) -> tuple[Session, int]:
    """Lock the session row, check it is open and reserve ``count`` turn indexes; stamp the agent's last write (idle
    detection). One statement where there were three (lock, increment, stamp): the ingest path pays per round trip, and
    at 20 exchanges per request the round trips were a measurable share of it. Returns the session as locked and the
    first reserved index."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH stamped AS (UPDATE {qn(Agent._meta.db_table)} SET last_write_at = %s WHERE id = %s) "
            f"UPDATE {qn(Session._meta.db_table)} SET next_turn_index = next_turn_index + %s WHERE id = %s "
            "RETURNING status, next_turn_index, project_id, module_id, scope",
            [timezone.now(), agent.pk, count, session.pk])
        row = cursor.fetchone()
    if row is None:
        raise Session.DoesNotExist(f"session {session.pk} does not exist")
    status, after, project_id, module_id, scope = row
    session = copy.copy(session)  # the caller's instance is left as it was
    session.status, session.next_turn_index = status, after
    session.project_id, session.module_id, session.scope = project_id, module_id, scope
    session_check_open(session)  # closed: the transaction rolls back, the increment and the stamp with it
    return session, after - count


@traced("recmem.trigger", on_result=lambda candidates: {"recmem.candidates": len(candidates)})
def _trigger(*, agent: Agent, exchanges: list[Exchange], model_id: str) -> list[Candidate]:
    """Recurrence check (DESIGN §2 step 5) and salience override (step 6) for each new exchange, in order."""
    mode = _mode()
    if mode == "off":
        return []
    candidates: list[Candidate] = []

    thresholds = thresholds_for(model_id)
    visibility = agent_visibility(agent=agent)
    found = recurrence_neighbours(exchanges=exchanges, visibility=visibility, thresholds=thresholds)
    # The neighbours were read before the loop; what the loop itself queues (an earlier exchange's candidate may
    # take later ones of this request along) is carried here, so every exchange sees the states as they now are.
    queued: set[Any] = set()
    for e in exchanges:
        # Held text starts nothing: no topic ripens on it, salience never fast-tracks it.
        if e.state != Exchange.State.RAW or e.pk in queued or e.quarantined:
            continue
        neighbours = found[e.pk]
        for n, _sim in neighbours:
            if n.pk in queued:
                n.state = Exchange.State.CANDIDATE
        # Units already consolidated or already waiting in a candidate do not count again; the members stay
        # pairwise comparable (a personal unit may join module m1's or m2's units, never both).
        ripe = _recurring(e, neighbours, thresholds.theta_sim, visibility)
        ripened = len(ripe) + 1 >= thresholds.theta_count
        if not ripened:  # or recurring across sessions (counted at θ_sim_sessions), or across agents (θ_sim_agents)
            across = _recurring(e, neighbours, thresholds.theta_sim_sessions, visibility)
            if _recurs_across_sessions(e, across, thresholds):
                ripe, ripened = across, True
            elif thresholds.theta_sim_agents < thresholds.theta_sim_sessions:
                agreeing = _recurring(e, neighbours, thresholds.theta_sim_agents, visibility)
                if _recurs_across_agents(e, agreeing, thresholds):
                    ripe, ripened = agreeing, True
        if ripened:
            # Units a rollback held back never make a topic ripe (the next write would rebuild what a person
            # undid); new evidence that ripens the topic by itself takes them along, and that releases them.
            held = [n for n, sim in neighbours if sim >= thresholds.theta_sim and n.state == Exchange.State.HELD]
            members = scope_chain([e, *ripe, *held], key=ScopeKey.of, visibility=visibility)[1:] if held else ripe
            candidates.append(candidate_create(agent=agent, trigger=e, members=[*members, e],
                                                reason=Candidate.Reason.RECURRENCE))
            queued.update(m.pk for m in members)
            continue
        # An update of a topic already consolidated — close to its exchanges and to one of its active items —
        # lands in the agent's next pass, without waiting for the topic to recur θ_count times again: a changed
        # preference supersedes the old item, a paraphrase corroborates it.
        if any(sim >= thresholds.theta_sim and n.state == Exchange.State.CONSOLIDATED for n, sim in neighbours) \
                and _restates_an_item(e, visibility, thresholds):
            candidates.append(candidate_create(agent=agent, trigger=e, members=[e],
                                                reason=Candidate.Reason.UPDATE))
            continue
        # A change that names what it moved away from ("card processing switched from Stripe to Adyen") updates
        # the item naming it at once, however far apart the embeddings are (0.31 to "all our card charges go
        # through Stripe"): else a one-off change waits, raw, for a recurrence and the old rule stays active.
        if _moves_away_from_an_item(e, visibility):
            candidates.append(candidate_create(agent=agent, trigger=e, members=[e],
                                                reason=Candidate.Reason.UPDATE))
            continue
        if config().consolidation.salience:
            reason = salience_reason(e.user_text, e.assistant_text)
            if reason:
                e.salience = reason
                Exchange.objects.filter(pk=e.pk).update(salience=reason)
                candidates.append(candidate_create(agent=agent, trigger=e, members=[e],
                                                    reason=Candidate.Reason.SALIENCE))
    return candidates


def _moves_away_from_an_item(e: Exchange, visibility: Visibility) -> bool:
    """Does the unit say the team moved away from something an active item of a comparable scope names?"""
    from memory.services.consolidation import moved_items

    return bool(moved_items(scope=ScopeKey.of(e), said=f"{e.user_text} {e.assistant_text}", visibility=visibility))


def _restates_an_item(e: Exchange, visibility: Visibility, thresholds: Thresholds) -> bool:
    """Is an active experience of a scope comparable with the unit's at least θ_corroborate similar to it? (Close
    exchanges alone are not enough: in one long conversation most units are close to something consolidated.)"""
    from memory.models import Experience, MemoryStatus

    with nearest_scan(Experience):
        row = (Experience.objects.mergeable_with(ScopeKey.of(e), visibility).filter(status=MemoryStatus.ACTIVE)
               .annotate(distance=CosineDistance("embedding", e.embedding)).order_by("distance")
               .values_list("distance", flat=True).first())
    return row is not None and 1.0 - float(row) >= thresholds.corroborate


def _recurs_across_sessions(e: Exchange, units: list[Exchange], thresholds: Thresholds) -> bool:
    """θ_sessions distinct sessions: with θ_sessions units when more than one agent said it (independent
    witnesses), else with θ_count − 1 units (one agent's four sessions; its chatter recurs more easily). A person's
    own note (personal scope) has no independent witness: another agent's unit near it ("Lunch order for the team
    offsite is pizza." under "these days I always ship the backend on Fridays", 0.55 by their short texts' shared
    stamp and speaker prefix) is no second voice for what that person does."""
    members = [e, *units]
    if len({m.session_id for m in members}) < thresholds.theta_sessions:
        return False
    independent = len({m.owner_agent_id for m in members}) > 1 and all(m.scope != Scope.PERSONAL for m in members)
    return len(members) >= (thresholds.theta_sessions if independent else thresholds.theta_count - 1)


def _recurs_across_agents(e: Exchange, units: list[Exchange], thresholds: Thresholds) -> bool:
    """θ_sessions units from θ_sessions distinct sessions and at least two agents: a team fact each agent puts in
    its own words ("our Android UI is all Compose" / "Compose is the Android toolkit here") is as close as two
    different facts of one team often are, so one pair proves nothing — but two agents' paraphrases in three
    sessions, each at least θ_sim_agents similar to the new one, are not chance (paraphrase scenarios: no
    different-fact topic ripened at 0.50, one did at 0.45). Only units of shared scopes: a person's own notes
    (personal scope) that resemble the team's words are that person's, and recur by the rules above."""
    members = [e, *units]
    return (len(members) >= thresholds.theta_sessions
            and all(m.scope != Scope.PERSONAL for m in members)  # team knowledge: said where the team shares it
            and len({m.session_id for m in members}) >= thresholds.theta_sessions
            and len({m.owner_agent_id for m in members}) >= 2)


def _recurring(e: Exchange, neighbours: list[tuple[Exchange, float]], floor: float,
               visibility: Visibility) -> list[Exchange]:
    """The raw neighbours at least ``floor`` similar that may be merged with ``e`` (pairwise comparable scopes)."""
    # Held exchanges do not ripen a topic: one flagged unit would hold back everything consolidated with it.
    raw = [n for n, sim in neighbours if sim >= floor and n.state == Exchange.State.RAW and not n.quarantined]
    return scope_chain([e, *raw], key=ScopeKey.of, visibility=visibility)[1:]


