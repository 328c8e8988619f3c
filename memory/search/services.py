"""The write side of a search: hit counts, the search log behind the hit rate (with the agent's feedback) and the
read audit; and a whole search (mask → select → record), what ``POST /search`` runs."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from agents.models import Agent
from core.errors import ApplicationError, NotFound
from governance.models import AuditEvent, AuditObject, PseudonymEntry
from governance.selectors import pseudonym_lookup
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.entities import PLACEHOLDER_RE, Entity
from memory.models import Episode, Exchange, Experience, SearchLog, Session
from memory.search.query import SearchQuery, SearchResult
from memory.search.selectors import memory_search
from memory.selectors import session_get_owned


def search_query_mask(*, agent: Agent, query: str) -> str:
    """The query is agent input like any other: masked before it is embedded or audited (the same pseudonyms as
    stored memories, so a name in a query still finds the memories about that person)."""
    return texts_mask(project=agent.project, texts=[query])[0]


def entity_resolve(*, agent: Agent, value: str) -> Entity:
    """What an ``entity`` parameter names: a placeholder as given; a clear value masked like ingest masks it (so a
    name maps to the placeholder its mentions carry, also where the registry alone knows it) and taken as a subject
    too, in its masked form. Never fails on an unknown value: it then matches nothing (an empty result)."""
    text = value.strip()
    if PLACEHOLDER_RE.fullmatch(text):
        return Entity(placeholders=(text,))
    masked = search_query_mask(agent=agent, query=text).strip()
    found = dict.fromkeys(PLACEHOLDER_RE.findall(masked))
    # not a secret's row: its placeholder stands for every secret of its kind, and the answer would confirm a guess
    for entity_type in (PseudonymEntry.objects.filter(project_id=agent.project_id)
                        .exclude(entity_type=PseudonymEntry.SECRET).values_list("entity_type", flat=True).distinct()):
        placeholder = pseudonym_lookup(project=agent.project, entity_type=entity_type, value=text)
        if placeholder:
            found.setdefault(placeholder)
    return Entity(placeholders=tuple(found), subject=masked or None)


@transaction.atomic
def search_record(*, agent: Agent, query: str, result: SearchResult, session: Session | None = None) -> SearchLog:
    """Count a hit on every returned item, keep the search log (its id is the ``search_id`` an agent gives back
    with its feedback) and audit the read with the ids it returned."""
    now = timezone.now()
    log = SearchLog.objects.create(
        project_id=agent.project_id, agent=agent, session=session,
        returned=[{"id": str(h.obj.pk), "layer": layer, "scope": h.obj.scope}
                  for layer, hits in (("exchange", result.exchanges), ("episode", result.episodes),
                                      ("experience", result.experiences)) for h in hits])
    for model, hits in ((Exchange, result.exchanges), (Episode, result.episodes), (Experience, result.experiences)):
        ids = [h.obj.pk for h in hits]
        if ids:
            model.objects.filter(pk__in=ids).update(hit_count=F("hit_count") + 1, last_hit_at=now)
    audit_record(action=AuditEvent.Action.READ, object_type=AuditObject.SEARCH, project_id=agent.project_id,
                 actor_agent=agent, reason=query[:300],
                 source_ids=[h.obj.pk for hits in (result.exchanges, result.episodes, result.experiences)
                             for h in hits],
                 data={"exchanges": len(result.exchanges), "episodes": len(result.episodes),
                       "experiences": len(result.experiences), "context_tokens": result.context_tokens,
                       "search_id": str(log.pk)})
    return log


@transaction.atomic
def search_feedback(*, agent: Agent, search_id, used_ids: list[str], helpful: bool | None) -> SearchLog:
    """The agent says which returned memories it used and whether they helped (hit rate). Only its own searches;
    every used id must be one the search returned. Given again, the later feedback replaces the earlier one."""
    log = SearchLog.objects.select_for_update().filter(pk=search_id, agent=agent).first()
    if log is None:
        raise NotFound("no such search", code="not_found")
    returned = {r["id"] for r in log.returned}
    used = list(dict.fromkeys(str(i) for i in used_ids))
    unknown = [i for i in used if i not in returned]
    if unknown:
        raise ApplicationError("used_ids must be ids this search returned", code="invalid",
                               details={"unknown_ids": unknown[:20]})
    log.used, log.helpful, log.feedback_at = used, helpful, timezone.now()
    log.save(update_fields=["used", "helpful", "feedback_at"])
    audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.SEARCH, object_id=log.pk,
                 project_id=agent.project_id, actor_agent=agent, reason="feedback",
                 source_ids=used, data={"helpful": helpful, "returned": len(returned)})
    return log


def read_record(*, agent: Agent, object_type: AuditObject, object_id, scope: str = "") -> None:
    """Audit a detail read."""
    audit_record(action=AuditEvent.Action.READ, object_type=object_type, object_id=object_id,
                 project_id=agent.project_id, actor_agent=agent, scope=scope)


def list_record(*, agent: Agent, object_type: AuditObject, object_ids, filters: dict[str, str]) -> None:
    """Audit a list read with the ids of the page it returned and the filters asked for."""
    audit_record(action=AuditEvent.Action.READ, object_type=object_type, project_id=agent.project_id,
                 actor_agent=agent, source_ids=list(object_ids), data={"filters": filters})


@dataclass
class SearchRun:
    result: SearchResult
    log: SearchLog  # its id is the ``search_id`` given back with the feedback


def search_run(*, agent: Agent, query: SearchQuery, session_id: Any = None) -> SearchRun:
    """A whole search: the query masked, the three layers searched (the sizes the query leaves out taken from the
    settings, RECMEM_SEARCH_K_SUB / _K_EPI / _K_SEM / _TOKEN_BUDGET), then recorded (hits, log, audit).
    ``session_id``: the agent's own session this search serves, else 404.

    Not one transaction: the reads run side by side on their own connections, which an open transaction would
    serialise (memory.search.side_by_side); the record is atomic on its own."""
    session = session_get_owned(agent=agent, session_id=session_id) if session_id else None
    masked, result = search_unrecorded(agent=agent, query=query)
    log = search_record(agent=agent, query=masked.query, result=result, session=session)
    return SearchRun(result=result, log=log)


def search_unrecorded(*, agent: Agent, query: SearchQuery) -> tuple[SearchQuery, SearchResult]:
    """The search itself, as ``agent`` would get it: the query masked and resolved, then ``memory_search`` under the
    agent's visibility. Records nothing of the search (no hit counts, no search log, no audit): ``search_run`` adds
    the agent's record, the admin's *recall as agent* page a reviewer's read instead. Masking may register
    pseudonyms, as it does for any text that reaches memory."""
    masked = replace(query, query=search_query_mask(agent=agent, query=query.query)).resolved()
    return masked, memory_search(agent=agent, query=masked)


@dataclass
class RecallAs:
    query: SearchQuery  # as searched: masked, every size resolved
    result: SearchResult


@transaction.atomic
def recall_as_record(*, reviewer, agent: Agent, query: str, result: SearchResult) -> AuditEvent:
    """Audit a reviewer's *recall as agent* read: the reviewer is the actor (never the agent: the agent did not
    search), the agent is the object; the masked query is the reason, as for an agent's search (the chain hashes
    its digest, so a purge can redact it), with the ids shown."""
    return audit_record(
        action=AuditEvent.Action.READ, object_type=AuditObject.SEARCH, object_id=agent.pk,
        project_id=agent.project_id, actor_user=reviewer, reason=query[:300],
        source_ids=[h.obj.pk for hits in (result.exchanges, result.episodes, result.experiences) for h in hits],
        data={"recall_as": {"agent": str(agent.pk), "name": agent.name},
              "exchanges": len(result.exchanges), "episodes": len(result.episodes),
              "experiences": len(result.experiences), "context_tokens": result.context_tokens})


def recall_as_run(*, reviewer, agent: Agent, query: SearchQuery) -> RecallAs:
    """What ``agent`` would recall for ``query`` — the same search as ``POST /search`` under its key, minus the
    agent's record (its hit counts and search log stay as they are: a reviewer's look is not the agent's use) —
    audited as the reviewer's read."""
    masked, result = search_unrecorded(agent=agent, query=query)
    recall_as_record(reviewer=reviewer, agent=agent, query=masked.query, result=result)
    return RecallAs(query=masked, result=result)
