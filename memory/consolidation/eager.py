"""The eager (Mem0-style) baseline of the benchmarks (``mode=eager``): memory is built on EVERY exchange.

For each exchange the LLM extracts facts (``EAGER_EXTRACT``, purpose ``eager_extract``); for each fact it decides,
against the most similar stored memories, whether to ADD, UPDATE, DELETE or do NONE (``EAGER_UPDATE``, purpose
``eager_update``). RecMem's point is that this costs far more tokens than recurrence-triggered consolidation;
this module provides the baseline to measure that. :class:`ExtractiveEagerExtractor` does the same with the
extractive rules (zero tokens) when no endpoint is configured.
"""

from __future__ import annotations

import re
from typing import Any

from memory.consolidation import prompts
from memory.consolidation.llm import ask_json, clean_id
from memory.consolidation.types import CallSink, ExistingExperience, Unit, unit_time
from memory.gateways.llm import LLMGateway

__all__ = ["EAGER_EVENTS", "EagerExtractor", "ExtractiveEagerExtractor"]

EAGER_EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")
MAX_FACTS = 20
_WS_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"[\w<>']+")


def _clean(text: Any) -> str:
    return _WS_RE.sub(" ", str(text or "")).strip()


def _normalised(text: str) -> str:
    return " ".join(_WORD_RE.findall(text.lower()))


def _dedupe(facts: list[str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for fact in facts:
        key = _normalised(fact)
        if fact and key and key not in seen:
            seen.add(key)
            result.append(fact)
    return result[:MAX_FACTS]


def _validated_decision(data: dict[str, Any], fact: str, similar: list[ExistingExperience]) -> dict[str, Any]:
    """Keep the decision consistent: target ids must be among ``similar``; text is never empty."""
    by_id = {m.id: m for m in similar}
    event = str(data.get("event") or "ADD").upper()
    if event not in EAGER_EVENTS:
        event = "ADD"
    raw_target = data.get("target_id")
    target = None
    if raw_target is not None:
        target = str(raw_target).strip()
        if target not in by_id:
            target = clean_id(target)
        if target not in by_id:
            target = None
    text = _clean(data.get("text"))
    if event in ("UPDATE", "DELETE") and target is None:
        event = "ADD" if event == "UPDATE" else "NONE"  # an update of nothing is an addition
    if event == "ADD":
        target = None
        text = text or fact
    elif event == "UPDATE":
        text = text or fact
    elif target is not None:  # DELETE / NONE: the text of the memory concerned
        text = text or by_id[target].statement
    else:
        text = text or fact
    return {"event": event, "target_id": target, "text": text}


class EagerExtractor:
    """Mem0-style per-exchange extraction and update decisions by a chat model."""

    kind = "llm"

    def __init__(self, llm: LLMGateway, *, max_tokens: int | None = None) -> None:
        self.llm = llm
        self.model = str(getattr(llm, "model", "") or "")
        self.max_tokens = max_tokens

    def extract(self, unit: Unit, on_call: CallSink | None = None) -> list[str]:
        """Facts worth remembering in one exchange (may be empty). Raises ConsolidationError."""
        data = ask_json(
            self.llm,
            prompts.EAGER_EXTRACT,
            on_call=on_call,
            max_tokens=self.max_tokens,
            today=prompts.format_date(unit_time(unit)),
            conversation=prompts.render_conversation(unit),
        )
        return _dedupe([_clean(f) for f in data.get("facts") or [] if isinstance(f, str)])

    def decide(self, fact: str, similar: list[ExistingExperience], on_call: CallSink | None = None) -> dict[str, Any]:
        """``{"event": ADD|UPDATE|DELETE|NONE, "target_id": id|None, "text": str}`` for one new fact."""
        if not similar:  # nothing to compare with: Mem0 adds without asking
            return {"event": "ADD", "target_id": None, "text": _clean(fact)}
        data = ask_json(
            self.llm,
            prompts.EAGER_UPDATE,
            on_call=on_call,
            max_tokens=self.max_tokens,
            existing=prompts.render_existing_memories(similar),
            fact=_clean(fact),
        )
        return _validated_decision(data, _clean(fact), similar)


class ExtractiveEagerExtractor:
    """The eager baseline without an LLM: the extractive rules on every exchange (zero tokens)."""

    kind = "extractive"

    def __init__(self, consolidator: Any | None = None, *, max_facts: int = 3) -> None:
        if consolidator is None:
            from memory.consolidation.extractive import ExtractiveConsolidator

            consolidator = ExtractiveConsolidator()
        self.consolidator = consolidator
        self.model = consolidator.model
        self.max_facts = max_facts

    def extract(self, unit: Unit, on_call: CallSink | None = None) -> list[str]:
        return _dedupe(self.consolidator.statements(unit, limit=self.max_facts))

    def decide(self, fact: str, similar: list[ExistingExperience], on_call: CallSink | None = None) -> dict[str, Any]:
        fact = _clean(fact)
        key = _normalised(fact)
        words = set(key.split())
        for memory in similar:
            other = _normalised(memory.statement)
            other_words = set(other.split())
            if other == key or (words and other_words and len(words & other_words) / len(words | other_words) >= 0.8):
                return {"event": "NONE", "target_id": memory.id, "text": memory.statement}
        contradicted = self.consolidator.contradicted(fact, similar)
        if contradicted:
            return {"event": "UPDATE", "target_id": contradicted[0], "text": fact}
        return {"event": "ADD", "target_id": None, "text": fact}
