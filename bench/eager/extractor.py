"""The eager (Mem0-style) baseline of the benchmarks (``bench_locomo --mode eager``): memory is built on EVERY
exchange.

As Mem0 does it (``mem0/memory/main.py``, ``_add_to_vector_store``): one call extracts the facts of the exchange
(``EAGER_EXTRACT``, purpose ``eager_extract``); when there are none, that is all. Otherwise the caller looks up the
5 most similar stored memories of each fact, and ONE more call (``EAGER_UPDATE``, purpose ``eager_update``) gets all
the facts and the union of those memories, renumbered ``"0"``, ``"1"``, ... (models mangle UUIDs), and returns the
whole new memory list: every old memory with ADD/UPDATE/DELETE/NONE, new entries with ADD. The call is made even
when no memory is stored yet. So an exchange costs two calls (one without facts), and :meth:`decide_all` maps the
reply back to operations on the real ids. RecMem's point is that this costs far more tokens than
recurrence-triggered consolidation; this module provides the baseline to measure that.
:class:`ExtractiveEagerExtractor` does the same with the extractive rules (zero tokens) when no endpoint is
configured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from bench.eager import prompts
from core.text import tokens
from memory.consolidators.llm import ask_json, clean_id
from memory.consolidators.prompts import format_date
from memory.consolidators.types import CallSink, ExistingExperience, Unit, unit_time
from memory.gateways.llm import LLMGateway

__all__ = ["EAGER_EVENTS", "EagerExtractor", "ExtractiveEagerExtractor", "get_eager_extractor", "render_facts",
           "render_old_memory", "similar_union"]

EAGER_EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")
MAX_FACTS = 20
SAME_WORDS = 0.8  # word overlap (Jaccard) from which two statements say the same thing
_WS_RE = re.compile(r"\s+")


def _clean(text: Any) -> str:
    return _WS_RE.sub(" ", str(text or "")).strip()


def _normalised(text: str) -> str:
    return " ".join(tokens(text))


def _overlap(a: str, b: str) -> float:
    words_a, words_b = set(_normalised(a).split()), set(_normalised(b).split())
    if not words_a or not words_b:
        return 0.0
    return len(words_a & words_b) / len(words_a | words_b)


def _dedupe(facts: list[str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for fact in facts:
        key = _normalised(fact)
        if fact and key and key not in seen:
            seen.add(key)
            result.append(fact)
    return result[:MAX_FACTS]


def _per_fact(facts: list[str], similar: Sequence[Any]) -> tuple[list[str], list[list[ExistingExperience]]]:
    """The cleaned, non-empty facts and each one's similar memories; ``similar`` is either one list per fact (in
    the order of ``facts``) or one list shared by all facts. Paired before empty facts are dropped, so the lists
    stay with their facts."""
    if similar and all(isinstance(m, ExistingExperience) for m in similar):
        lists = [list(similar) for _ in facts]
    else:
        lists = [list(s) for s in similar]
        lists += [[] for _ in range(len(facts) - len(lists))]
    pairs = [(_clean(f), memories) for f, memories in zip(facts, lists, strict=False)]
    pairs = [(f, memories) for f, memories in pairs if f]
    return [f for f, _ in pairs], [memories for _, memories in pairs]


def similar_union(similar_by_fact: Sequence[Sequence[ExistingExperience]]) -> list[ExistingExperience]:
    """The memories shown to the update call: each fact's neighbours, first occurrence kept (Mem0 dedupes by id)."""
    seen: set[str] = set()
    union = []
    for memories in similar_by_fact:
        for memory in memories:
            if memory.id not in seen:
                seen.add(memory.id)
                union.append(memory)
    return union


def render_old_memory(memories: Sequence[ExistingExperience]) -> str:
    """The old memory list with small integer ids in list order ("0", "1", ...), ``[]`` when empty."""
    if not memories:
        return "[]"
    rows = [json.dumps({"id": str(i), "text": _clean(m.statement)}, ensure_ascii=False) for i, m in enumerate(memories)]
    return "[\n" + ",\n".join(f"  {row}" for row in rows) + "\n]"


def render_facts(facts: Sequence[str]) -> str:
    return json.dumps([_clean(f) for f in facts], ensure_ascii=False)


def _source_fact(text: str, facts: list[str]) -> str:
    """The new fact an entry's text comes from (most words in common; the first fact on a tie)."""
    return max(facts, key=lambda f: _overlap(text, f)) if facts else text


def _validated_ops(data: dict[str, Any], facts: list[str], old: list[ExistingExperience]) -> list[dict[str, Any]]:
    """The reply's entries as operations on real ids, kept consistent: UPDATE/DELETE must name a listed memory
    (an UPDATE of an unknown id is an addition, a DELETE of one is dropped), one operation per memory, no empty
    text, no duplicate additions. NONE needs no operation."""
    by_number = {str(i): m for i, m in enumerate(old)}
    ops: list[dict[str, Any]] = []
    touched: set[str] = set()
    added = {_normalised(m.statement) for m in old}  # an "addition" of a listed memory adds nothing
    unused = list(facts)  # an ADD without text takes the next fact no entry has used yet
    entries = data.get("memory")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        event = str(entry.get("event") or "ADD").strip().upper()
        if event not in EAGER_EVENTS:
            event = "ADD"
        raw_id = str(entry.get("id") if entry.get("id") is not None else "").strip()
        target = (by_number.get(raw_id) or by_number.get(clean_id(raw_id))) if raw_id else None
        text = _clean(entry.get("text"))
        if event == "NONE":
            continue
        if event == "DELETE":
            if target is None or target.id in touched:
                continue
            touched.add(target.id)
            ops.append({"event": "DELETE", "target_id": target.id, "text": target.statement,
                        "fact": _source_fact(target.statement, facts)})
            continue
        if event == "UPDATE" and target is not None:
            if target.id in touched:
                continue
            text = text or _source_fact(target.statement, facts)
            touched.add(target.id)
            if _normalised(text) == _normalised(target.statement):
                continue  # the "update" changes nothing
            fact = _source_fact(text, facts)
            ops.append({"event": "UPDATE", "target_id": target.id, "text": text, "fact": fact})
            if fact in unused:
                unused.remove(fact)
            continue
        # ADD, or an UPDATE of nothing (an update of nothing is an addition)
        if not text:
            if not unused:
                continue
            text = unused[0]
        fact = _source_fact(text, facts)
        if _normalised(text) in added:
            continue
        added.add(_normalised(text))
        if fact in unused:
            unused.remove(fact)
        ops.append({"event": "ADD", "target_id": None, "text": text, "fact": fact})
    return ops


class EagerExtractor:
    """Mem0-style per-exchange extraction and one update decision by a chat model."""

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
            today=format_date(unit_time(unit)),
            conversation=prompts.render_conversation(unit),
        )
        return _dedupe([_clean(f) for f in data.get("facts") or [] if isinstance(f, str)])

    def decide_all(
        self,
        facts: list[str],
        similar: Sequence[Sequence[ExistingExperience]] | Sequence[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[dict[str, Any]]:
        """One update call for all ``facts`` against the union of their similar memories (one list per fact, or
        one shared list). Operations ``{"event": ADD|UPDATE|DELETE, "target_id": real id|None, "text": str,
        "fact": str}``; nothing for NONE. No facts, no call. Raises ConsolidationError."""
        facts, similar_by_fact = _per_fact(facts, similar)
        if not facts:
            return []
        old = similar_union(similar_by_fact)
        data = ask_json(
            self.llm,
            prompts.EAGER_UPDATE,
            on_call=on_call,
            max_tokens=self.max_tokens,
            existing=render_old_memory(old),
            facts=render_facts(facts),
        )
        return _validated_ops(data, facts, old)


class ExtractiveEagerExtractor:
    """The eager baseline without an LLM: the extractive rules on every exchange (zero tokens)."""

    kind = "extractive"

    def __init__(self, consolidator: Any | None = None, *, max_facts: int = 3) -> None:
        if consolidator is None:
            from memory.consolidators.extractive import ExtractiveConsolidator

            consolidator = ExtractiveConsolidator()
        self.consolidator = consolidator
        self.model = consolidator.model
        self.max_facts = max_facts

    def extract(self, unit: Unit, on_call: CallSink | None = None) -> list[str]:
        return _dedupe(self.consolidator.statements(unit, limit=self.max_facts))

    def decide_all(
        self,
        facts: list[str],
        similar: Sequence[Sequence[ExistingExperience]] | Sequence[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[dict[str, Any]]:
        """The rules per fact against its own similar memories (a repeat is NONE, a contradiction an UPDATE,
        anything else an ADD); one operation per memory, zero calls."""
        facts, similar_by_fact = _per_fact(facts, similar)
        ops: list[dict[str, Any]] = []
        touched: set[str] = set()
        for fact, memories in zip(facts, similar_by_fact, strict=True):
            if any(_normalised(m.statement) == _normalised(fact) or _overlap(fact, m.statement) >= SAME_WORDS
                   for m in memories):
                continue
            contradicted = [i for i in self.consolidator.contradicted(fact, memories) if i not in touched]
            if contradicted:
                touched.add(contradicted[0])
                ops.append({"event": "UPDATE", "target_id": contradicted[0], "text": fact, "fact": fact})
            else:
                ops.append({"event": "ADD", "target_id": None, "text": fact, "fact": fact})
        return ops


_DEFAULT: Any = object()


def get_eager_extractor(*, llm: Any = _DEFAULT) -> EagerExtractor | ExtractiveEagerExtractor:
    """The eager (Mem0-style) baseline: LLM-backed when an endpoint is configured, else extractive."""
    if llm is _DEFAULT:
        from memory.gateways.llm import get_llm

        llm = get_llm()
    if llm is None:
        return ExtractiveEagerExtractor()
    return EagerExtractor(llm)
