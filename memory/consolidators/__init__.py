"""The consolidation "brains": plain Python behind one interface (:class:`Consolidator`), no models, no database.

- :class:`LLMConsolidator` (``kind="llm"``) asks a chat model with the versioned prompts of :mod:`.prompts`;
- :class:`ExtractiveConsolidator` (``kind="extractive"``) uses spaCy and rules: zero tokens, lower quality, the
  default only when no LLM endpoint is configured.

The Mem0-style eager baseline of the benchmarks is ``bench.eager``, outside the product.

    consolidator = get_consolidator()          # LLM if RECMEM_LLM_BASE_URL is set, else extractive
    draft = consolidator.consolidate_topic(units=units, existing=nearest_or_none, related=related,
                                           on_call=record)  # draft.episodes, draft.items, draft.merged

The run that drives them (candidates, batches, writes) is :mod:`memory.services.consolidation`; the fake
responder that answers these prompts in tests and benchmarks lives outside production code (``testing``).
"""

from __future__ import annotations

from typing import Any

from memory.consolidators.extractive import ExtractiveConsolidator
from memory.consolidators.llm import LLMConsolidator
from memory.consolidators.types import (
    EXPERIENCE_TYPES,
    CallSink,
    ConsolidationError,
    Consolidator,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    ExperienceDraft,
    TopicDraft,
    Unit,
    order_units,
)

__all__ = [
    "EXPERIENCE_TYPES",
    "CallSink",
    "ConsolidationError",
    "Consolidator",
    "EpisodeDraft",
    "ExistingEpisode",
    "ExistingExperience",
    "ExperienceDraft",
    "ExtractiveConsolidator",
    "LLMConsolidator",
    "TopicDraft",
    "Unit",
    "get_consolidator",
    "order_units",
]

_DEFAULT: Any = object()


def get_consolidator(*, llm: Any = _DEFAULT, embedder: Any | None = None, single_call: bool = True) -> Consolidator:
    """The LLM consolidator for ``llm`` (default: ``get_llm()`` from settings), or the extractive one when there
    is no endpoint (``llm=None``). ``embedder`` only matters for the extractive consolidator, ``single_call``
    (one ``topic_consolidate`` call per topic instead of episode + refine calls) only for the LLM one."""
    if llm is _DEFAULT:
        from memory.gateways.llm import get_llm

        llm = get_llm()
    if llm is None:
        return ExtractiveConsolidator(embedder=embedder)
    return LLMConsolidator(llm, single_call=single_call)
