"""The eager baseline's runs: every exchange is a candidate of its own, consolidated at once by :class:`EagerPlanner`.

The product has no eager mode: the bench ingests with consolidation off (nothing is triggered or queued), then, for
each exchange, :func:`eager_consolidate` makes it a candidate (reason ``eager``) and runs one batch through the
product's run (``consolidation_run``: lock, batch record, lease, call log, write transaction, failure handling)
with this planner in place of the product's:

- plan (outside the write): one extraction call; when it found facts, the 5 most similar memories of each fact and
  ONE update call for all of them; the texts to store are embedded here;
- apply (in the write): UPDATE edits the memory in place, DELETE retires it (both versioned), ADD creates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from agents.visibility import ScopeKey
from bench.eager.extractor import get_eager_extractor
from governance.models import AuditEvent, AuditObject, ConsolidationBatch
from memory.informativeness import informativeness
from memory.models import Candidate, Exchange, Experience, ExperienceEvidence, MemoryStatus
from memory.review.versions import memory_version_save
from memory.services.consolidation import (
    Planner,
    TopicPlan,
    _existing_experience,
    _is_uuid,
    _nearest_experiences,
    consolidation_run,
    exchange_unit,
)

__all__ = ["EAGER", "EagerPlanner", "eager_candidates_create", "eager_consolidate"]

EAGER = "eager"
SIMILAR_PER_FACT = 5  # Mem0's search limit for each fact


@dataclass(frozen=True)
class EagerPlanner(Planner):
    """The Mem0-style baseline as a consolidation planner (``kind`` ``eager``: the batch's consolidator and mode)."""

    kind: str = EAGER

    def plan(self, *, agent, embedder, thresholds, topic: TopicPlan, calls: list) -> None:
        extractor = get_eager_extractor()
        unit = exchange_unit(topic.units[0])
        facts = extractor.extract(unit, on_call=calls.append)
        if not facts:  # Mem0 stops here: no update call
            return
        vectors = embedder.embed(facts)
        similar_by_fact = [[_existing_experience(e, sim) for e, sim in rows]
                           for rows in _nearest_experiences(scope=topic.scope, vectors=vectors,
                                                            limit=SIMILAR_PER_FACT)]
        ops = extractor.decide_all(facts, similar_by_fact, on_call=calls.append)
        # The stored text may differ from the fact (a merged UPDATE): embed what is stored, reusing the facts' vectors.
        known = dict(zip(facts, vectors, strict=True))
        missing = sorted({op["text"] for op in ops if op["event"] != "DELETE" and op["text"] not in known})
        known.update(zip(missing, embedder.embed(missing) if missing else [], strict=True))
        topic.planned = [{**op, "embedding": known[op["text"]] if op["event"] != "DELETE" else None} for op in ops]

    def apply(self, *, agent, batch, topic: TopicPlan, embedder_model: str, summary: dict, audit: list,
              scope_fields: dict) -> None:
        for op in topic.planned:
            _apply_op(batch=batch, op=op, unit=topic.units[0], embedder_model=embedder_model, summary=summary,
                      audit=audit, scope_fields=scope_fields)


def _apply_op(*, batch, op, unit, embedder_model, summary, audit, scope_fields) -> None:
    """One operation of the update call: UPDATE edits the memory in place, DELETE retires it (both versioned),
    ADD creates it; an UPDATE whose memory has gone meanwhile is an addition, such a DELETE nothing."""
    event, text = op["event"], op["text"]
    target = None
    if op.get("target_id") and _is_uuid(op["target_id"]):
        # Only items of the unit's own scope are changed: never a wider scope's (an UPDATE of one adds instead).
        target = Experience.objects.select_for_update().in_scope(ScopeKey.for_scope(**scope_fields)).filter(
            pk=op["target_id"], status=MemoryStatus.ACTIVE).first()
    if event == "DELETE" and target is None:
        return
    if event in ("UPDATE", "DELETE") and target is not None:
        memory_version_save(obj=target, batch=batch, reason=f"eager_{event.lower()}")
        if event == "UPDATE":
            target.statement, target.embedding = text, op["embedding"]
        else:
            target.status = MemoryStatus.DELETED
        target.version += 1
        target.updated_at = timezone.now()
        target.save()
        ExperienceEvidence.objects.get_or_create(experience=target, exchange=unit, defaults={"batch": batch})
        summary["experiences_merged" if event == "UPDATE" else "experiences_superseded"].append(str(target.pk))
        audit.append({"action": AuditEvent.Action.UPDATE if event == "UPDATE" else AuditEvent.Action.DELETE,
                      "object_type": AuditObject.EXPERIENCE, "object_id": target.pk, "reason": f"eager {event}",
                      "source_ids": [unit.pk], "data": {"fact": op.get("fact", "")}})
        return
    experience = Experience.objects.create(type="fact", subject=text[:80], statement=text,
                                           embedding=op["embedding"], embedding_model=embedder_model,
                                           confidence=0.6, informativeness=informativeness(text),
                                           valid_from=unit.occurred_at, batch=batch, **scope_fields)
    ExperienceEvidence.objects.create(experience=experience, exchange=unit, batch=batch)
    summary["experiences_created"].append(str(experience.pk))
    audit.append({"action": AuditEvent.Action.CREATE, "object_type": AuditObject.EXPERIENCE, "object_id": experience.pk,
                  "reason": "eager ADD", "source_ids": [unit.pk], "data": {"fact": op.get("fact", "")}})


@transaction.atomic
def eager_candidates_create(*, agent: Any, exchanges: list[Exchange]) -> list[Candidate]:
    """Each exchange a candidate of its own (reason ``eager``): the baseline sends every exchange to the LLM."""
    candidates = []
    for e in exchanges:
        candidate = Candidate.objects.create(project_id=e.project_id, agent=agent, trigger=e,
                                             reason=Candidate.Reason.EAGER)
        candidate.exchanges.set([e])
        candidates.append(candidate)
    Exchange.objects.filter(pk__in=[e.pk for e in exchanges]).update(state=Exchange.State.CANDIDATE, held_batch=None)
    return candidates


def eager_consolidate(*, agent: Any, exchanges: list[Exchange], embedder: Any = None) -> ConsolidationBatch | None:
    """The baseline's step after an exchange was stored: its candidate, then one batch (the exchange's)."""
    eager_candidates_create(agent=agent, exchanges=exchanges)
    return consolidation_run(agent_id=agent.pk, embedder=embedder, planner=EagerPlanner())
