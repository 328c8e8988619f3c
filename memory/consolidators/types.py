"""Plain data exchanged with the consolidation "brains" (no Django models, no database access).

The service layer loads exchanges, episodes and experiences from the database, turns them into these
dataclasses, asks a :class:`Consolidator` for drafts and writes the drafts back inside a ConsolidationBatch.
Texts are already PII-masked; placeholders such as ``<PERSON_3f2a>`` are kept verbatim everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from memory.gateways.llm import LLMCallRecord

__all__ = [
    "EXPERIENCE_TYPES",
    "SESSION_PASS_TYPES",
    "BaseConsolidator",
    "CallSink",
    "ConsolidationError",
    "Consolidator",
    "EpisodeDraft",
    "ExistingEpisode",
    "ExistingExperience",
    "ExperienceDraft",
    "TopicDraft",
    "Unit",
    "episode_bounds",
    "normalise_tags",
    "order_units",
    "session_pass_cue",
    "unit_time",
]

EXPERIENCE_TYPES: tuple[str, ...] = ("fact", "event", "preference", "constraint", "lesson", "pattern", "procedure")

# What the session-level pass of an idle run keeps: knowledge worth having though it was stated once.
SESSION_PASS_TYPES: tuple[str, ...] = ("lesson", "procedure", "preference")

# Words that announce what the session pass keeps (a lesson, a how-to, a preference, a rule): with an LLM only the
# units that hold one are sent, so a session of chatter costs nothing and the pass stays within the online cost.
_SESSION_CUE_RE = re.compile(
    r"\b(lessons?|learn(ed|t) (that|to|the)|takeaway|next time|should have|mistake|prefer(s|red|ence)?|"
    r"favou?rite|rule|step \d|procedure)\b|^\s*\d+[.)]\s", re.I | re.M)


def session_pass_cue(unit: Unit) -> bool:
    """Does the unit announce something the session pass keeps?"""
    return bool(_SESSION_CUE_RE.search(f"{unit.user or ''}\n{unit.assistant or ''}"))


CallSink = Callable[[LLMCallRecord], None]
"""Receives every LLM call record as soon as it is made (so costs are recorded even when a step fails)."""


@dataclass
class Unit:
    """One exchange (a user turn and the assistant's reply), the smallest thing that is remembered."""

    id: str
    session_id: str
    turn_index: int
    occurred_at: datetime | None
    user: str
    assistant: str
    session_started_at: datetime | None = None

    @property
    def time(self) -> datetime | None:
        """When the exchange happened: ``occurred_at``, else the session start."""
        return self.occurred_at or self.session_started_at


@dataclass
class ExistingEpisode:
    """The most similar stored episode in scope (a merge candidate); ``similarity`` is cosine to the units."""

    id: str
    title: str
    narrative: str
    similarity: float


@dataclass
class ExistingExperience:
    """A stored, active experience related to the units being consolidated."""

    id: str
    type: str
    subject: str
    statement: str
    confidence: float
    valid_from: datetime | None
    created_at: datetime | None
    similarity: float


@dataclass
class EpisodeDraft:
    """An episode to write (or the rewritten narrative of a merged one). ``unit_ids``: the units it covers
    (for a merge: the *new* units only; the stored episode keeps its earlier links)."""

    title: str
    narrative: str
    unit_ids: list[str]
    started_at: datetime | None = None
    ended_at: datetime | None = None


@dataclass
class ExperienceDraft:
    """A typed semantic item. ``evidence``: ids of units it came from; ``contradicts``: ids of
    ExistingExperience items it contradicts or replaces (conflict resolution decides the winner)."""

    type: str
    subject: str
    statement: str
    evidence: list[str]
    valid_from: datetime | None = None
    confidence: float = 0.6
    contradicts: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    # An explicit end the statement gives ("the freeze lasts until Friday"); None: holds until something changes.
    valid_to: datetime | None = None


@dataclass
class TopicDraft:
    """What one topic consolidates into: its episodes (``merged``: the single episode rewrites the existing one
    it was compared with) and its typed items."""

    episodes: list[EpisodeDraft]
    items: list[ExperienceDraft]
    merged: bool = False


class ConsolidationError(Exception):
    """A consolidation step failed; ``calls`` holds the LLM call records already made (and paid for).

    The caller records the tokens and leaves the candidates pending for a retry.
    """

    def __init__(self, message: str, calls: Iterable[LLMCallRecord] | None = None) -> None:
        super().__init__(message)
        self.calls: list[LLMCallRecord] = list(calls or [])


_TAG_RE = re.compile(r"[^a-z0-9+#._ -]")
MAX_TAGS, MAX_TAG_CHARS = 5, 40


def normalise_tags(raw: Any) -> list[str]:
    """At most five short lowercase labels, no duplicates, no placeholders (``<PERSON_3f2a>``)."""
    tags: list[str] = []
    for value in raw if isinstance(raw, list | tuple) else []:
        if not isinstance(value, str) or "<" in value:
            continue
        tag = " ".join(_TAG_RE.sub(" ", value.lower()).split())[:MAX_TAG_CHARS].strip()
        if tag and tag not in tags:
            tags.append(tag)
    return tags[:MAX_TAGS]


def unit_time(unit: Unit) -> datetime | None:
    return unit.occurred_at or unit.session_started_at


def _timestamp(value: datetime | None) -> float:
    if value is None:
        return float("-inf")
    try:
        return value.timestamp()
    except (OverflowError, OSError, ValueError):  # pragma: no cover - absurd dates
        return float("-inf")


def order_units(units: Iterable[Unit]) -> list[Unit]:
    """Chronological order: by (session start or occurred_at, session id, turn index); undated units first."""
    return sorted(
        units,
        key=lambda u: (
            _timestamp(u.session_started_at or u.occurred_at),
            str(u.session_id),
            u.turn_index,
            _timestamp(u.occurred_at),
            str(u.id),
        ),
    )


def episode_bounds(units: Iterable[Unit]) -> tuple[datetime | None, datetime | None]:
    """(earliest, latest) time of ``units``; (None, None) when none is dated."""
    times = [t for t in (unit_time(u) for u in units) if t is not None]
    if not times:
        return None, None
    times.sort(key=_timestamp)
    return times[0], times[-1]


@runtime_checkable
class Consolidator(Protocol):
    """The one interface behind which the LLM and the extractive consolidators live.

    ``kind`` is "llm" or "extractive"; ``model`` names what produced the drafts (the chat model, or the
    spaCy pipeline for the extractive one). Every method takes ``on_call`` (a :data:`CallSink`) that
    receives each LLM call record; failures raise :class:`ConsolidationError`.
    """

    kind: str
    model: str

    def order_units(self, units: Iterable[Unit]) -> list[Unit]: ...

    def merge_episode(
        self, *, existing: ExistingEpisode, units: list[Unit], on_call: CallSink | None = None
    ) -> EpisodeDraft | None: ...

    def write_episodes(self, *, units: list[Unit], on_call: CallSink | None = None) -> list[EpisodeDraft]: ...

    def refine(
        self,
        *,
        episodes: list[EpisodeDraft],
        units: list[Unit],
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[ExperienceDraft]: ...

    def consolidate_topic(
        self,
        *,
        units: list[Unit],
        existing: ExistingEpisode | None,
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> TopicDraft: ...


class BaseConsolidator:
    """Shared helpers of both implementations."""

    kind: str = ""
    model: str = ""

    def order_units(self, units: Iterable[Unit]) -> list[Unit]:
        return order_units(units)

    def consolidate_topic(
        self,
        *,
        units: list[Unit],
        existing: ExistingEpisode | None,
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> TopicDraft:
        """Episodes (:meth:`episodes_for`) then typed items, as separate steps; the LLM consolidator overrides this
        with a single call."""
        episodes, merged = self.episodes_for(units=units, existing=existing, on_call=on_call)
        items = self.refine(episodes=episodes, units=units, related=related, on_call=on_call)  # type: ignore[attr-defined]
        return TopicDraft(episodes=episodes, items=items, merged=merged)

    def topic_sentences(self, units: list[Unit]) -> list[ExperienceDraft]:
        """Statements a shared topic's point may be chosen from when the consolidator itself wrote none (the
        extractive one: its units' declarative sentences; an LLM writes its own, so none here)."""
        return []

    def episodes_for(
        self, *, units: list[Unit], existing: ExistingEpisode | None, on_call: CallSink | None = None
    ) -> tuple[list[EpisodeDraft], bool]:
        """``([merged], True)`` when the units continue ``existing``, else ``(new episodes, False)``."""
        if existing is not None:
            merged = self.merge_episode(existing=existing, units=units, on_call=on_call)  # type: ignore[attr-defined]
            if merged is not None:
                return [merged], True
        return self.write_episodes(units=units, on_call=on_call), False  # type: ignore[attr-defined]
