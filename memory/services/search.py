"""The write side of a search: hit counts (retrieval hit rate) and the read audit."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from agents.models import Agent
from governance.models import AuditEvent
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.models import Episode, Exchange, Experience
from memory.selectors import SearchResult


def search_query_mask(*, agent: Agent, query: str) -> str:
    """The query is agent input like any other: masked before it is embedded or audited (the same pseudonyms as
    stored memories, so a name in a query still finds the memories about that person)."""
    return texts_mask(project=agent.project, texts=[query])[0]


@transaction.atomic
def search_record(*, agent: Agent, query: str, result: SearchResult) -> None:
    """Count a hit on every returned item and audit the read with the ids it returned."""
    now = timezone.now()
    for model, hits in ((Exchange, result.exchanges), (Episode, result.episodes), (Experience, result.experiences)):
        ids = [h.obj.pk for h in hits]
        if ids:
            model.objects.filter(pk__in=ids).update(hit_count=F("hit_count") + 1, last_hit_at=now)
    audit_record(action=AuditEvent.Action.READ, object_type="search", project_id=agent.project_id,
                 actor_agent=agent, reason=query[:300],
                 source_ids=[h.obj.pk for hits in (result.exchanges, result.episodes, result.experiences)
                             for h in hits],
                 data={"exchanges": len(result.exchanges), "episodes": len(result.episodes),
                       "experiences": len(result.experiences), "context_tokens": result.context_tokens})


def read_record(*, agent: Agent, object_type: str, object_id, scope: str = "") -> None:
    """Audit a detail read."""
    audit_record(action=AuditEvent.Action.READ, object_type=object_type, object_id=object_id,
                 project_id=agent.project_id, actor_agent=agent, scope=scope)


def list_record(*, agent: Agent, object_type: str, object_ids, filters: dict[str, str]) -> None:
    """Audit a list read with the ids of the page it returned and the filters asked for."""
    audit_record(action=AuditEvent.Action.READ, object_type=object_type, project_id=agent.project_id,
                 actor_agent=agent, source_ids=list(object_ids), data={"filters": filters})
