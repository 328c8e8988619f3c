"""The LLM consolidator: episodes and typed experiences written by a chat model through :class:`LLMGateway`.

JSON schema validation (and one repair round) happens in the gateway; this module adds the *semantic* checks a
schema cannot express: unit ids must exist and every unit must end up in exactly one episode, evidence must point
at the units being consolidated, ``contradicts`` only at the related experiences shown, confidences in [0, 1].
Any LLM failure becomes a :class:`ConsolidationError` carrying the call records, so the caller can record the
tokens spent and leave the candidates pending for a retry.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from core.text import tokens
from memory.consolidators import prompts
from memory.consolidators.types import (
    EXPERIENCE_TYPES,
    BaseConsolidator,
    CallSink,
    ConsolidationError,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    ExperienceDraft,
    TopicDraft,
    Unit,
    episode_bounds,
    normalise_tags,
    session_pass_cue,
    unit_time,
)
from memory.gateways.llm import LLMCallRecord, LLMError, LLMGateway

__all__ = ["LLMConsolidator", "ask_json", "assemble_episodes", "assemble_items", "clean_id", "parse_valid_from"]

DEFAULT_CONFIDENCE = 0.7
_ID_PREFIX_RE = re.compile(r"^(?:unit|experience|exp|episode|id)[\s:#]+", re.IGNORECASE)
_WS_RE = re.compile(r"\s+")


def clean_id(value: Any) -> str:
    """Tolerate ``"[unit 12]"``, ``"unit 12"`` or ``" 12 "`` for the id ``"12"``."""
    text = str(value).strip().strip("[]").strip()
    return _ID_PREFIX_RE.sub("", text, count=1).strip()


def _resolve_id(value: Any, known: dict[str, str]) -> str | None:
    """The known id ``value`` refers to (exactly, or after stripping decorations), else None."""
    raw = str(value).strip()
    if raw in known:
        return known[raw]
    cleaned = clean_id(raw)
    return known.get(cleaned)


def _after(later: datetime, earlier: datetime) -> bool:
    """``later > earlier``; False when one is naive and the other aware (they cannot be compared)."""
    try:
        return later > earlier
    except TypeError:
        return False


def _end_of(value: Any, tz_hint: datetime | None) -> datetime | None:
    """An item's stated end: a bare date is the last day it holds, so it ends at the next midnight."""
    parsed = parse_valid_from(value, tz_hint)
    if parsed is not None and len(str(value).strip()) == 10:
        parsed += timedelta(days=1)
    return parsed


def parse_valid_from(value: Any, tz_hint: datetime | None = None) -> datetime | None:
    """Parse an ISO date or datetime; a bare date becomes midnight in ``tz_hint``'s zone (UTC if naive/absent)."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        try:
            parsed_date = date.fromisoformat(text[:10])
        except ValueError:
            return None
        parsed = datetime.combine(parsed_date, time())
    if parsed.tzinfo is None:
        if tz_hint is None:
            parsed = parsed.replace(tzinfo=UTC)
        elif tz_hint.tzinfo is not None:
            parsed = parsed.replace(tzinfo=tz_hint.tzinfo)
        # naive unit times: keep it naive, comparable with them
    return parsed


def _clamp(value: Any, default: float = DEFAULT_CONFIDENCE) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if number != number:  # NaN
        return default
    return min(1.0, max(0.0, number))


def _text(value: Any) -> str:
    return _WS_RE.sub(" ", str(value or "")).strip()


def ask_json(
    llm: LLMGateway,
    template: prompts.PromptTemplate,
    *,
    on_call: CallSink | None = None,
    max_tokens: int | None = None,
    **values: Any,
) -> dict[str, Any]:
    """Render ``template`` with ``values``, ask ``llm`` (purpose = the template name) and return the reply.

    Raises :class:`ConsolidationError` with the call records when the LLM fails.
    """
    messages = prompts.render(template, **values)
    try:
        result = llm.complete_json(
            purpose=template.name,
            messages=messages,
            schema=template.schema,
            max_tokens=max_tokens,
            on_call=on_call,
        )
    except LLMError as exc:
        raise ConsolidationError(f"{template.name} failed: {exc}", exc.calls) from exc
    return result.data


class LLMConsolidator(BaseConsolidator):
    """Consolidation by a chat model: one ``topic_consolidate`` call per topic (episode written or merged, and
    the typed items), or with ``single_call=False`` the separate ``episode_merge`` / ``episode_write`` and
    ``semantic_refine`` calls (kept for comparison and for models that handle one long reply badly)."""

    kind = "llm"
    notice = ""

    def __init__(self, llm: LLMGateway, *, max_tokens: int | None = None, single_call: bool = True) -> None:
        self.llm = llm
        self.model = str(getattr(llm, "model", "") or "")
        self.max_tokens = max_tokens
        self.single_call = single_call

    def __repr__(self) -> str:
        return f"<LLMConsolidator {self.model}>"

    # -- plumbing ---------------------------------------------------------------------------------------

    def _ask(self, template: prompts.PromptTemplate, on_call: CallSink | None, **values: Any) -> dict[str, Any]:
        return ask_json(self.llm, template, on_call=on_call, max_tokens=self.max_tokens, **values)

    # -- episodes ---------------------------------------------------------------------------------------

    def merge_episode(
        self, *, existing: ExistingEpisode, units: list[Unit], on_call: CallSink | None = None
    ) -> EpisodeDraft | None:
        ordered = self.order_units(units)
        if not ordered:
            return None
        data = self._ask(
            prompts.EPISODE_MERGE,
            on_call,
            units=prompts.render_units(ordered),
            **prompts.render_existing_episode_values(existing),
        )
        narrative = str(data.get("narrative") or "").strip()
        if not data.get("same_situation") or not narrative:
            return None
        title = _text(data.get("title")) or _text(existing.title) or _fallback_title(narrative)
        started, ended = episode_bounds(ordered)
        return EpisodeDraft(
            title=title, narrative=narrative, unit_ids=[u.id for u in ordered], started_at=started, ended_at=ended
        )

    def write_episodes(self, *, units: list[Unit], on_call: CallSink | None = None) -> list[EpisodeDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        calls: list[LLMCallRecord] = []
        data = self._ask(prompts.EPISODE_WRITE, _recorder(calls, on_call), units=prompts.render_units(ordered),
                         unit_count=len(ordered))
        return _episodes_or_raise(data.get("episodes") or [], ordered, calls)

    # -- one call per topic -----------------------------------------------------------------------------

    def consolidate_topic(
        self,
        *,
        units: list[Unit],
        existing: ExistingEpisode | None,
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> TopicDraft:
        """Episodes and typed items of one topic from a single ``topic_consolidate`` reply."""
        if not self.single_call:
            return super().consolidate_topic(units=units, existing=existing, related=related, on_call=on_call)
        ordered = self.order_units(units)
        if not ordered:
            return TopicDraft(episodes=[], items=[])
        calls: list[LLMCallRecord] = []
        data = self._ask(
            prompts.TOPIC_CONSOLIDATE,
            _recorder(calls, on_call),
            existing_episode=prompts.render_existing_episode(existing),
            unit_count=len(ordered),
            units=prompts.render_units(ordered),
            related=prompts.render_related(related),
        )
        raw_episodes = [e for e in data.get("episodes") or [] if isinstance(e, dict)]
        first = raw_episodes[0] if raw_episodes else {}
        narrative = str(first.get("narrative") or "").strip()
        items = assemble_items(data.get("items") or [], ordered, related)
        if existing is not None and data.get("same_situation") and narrative:
            # The merged episode carries every new unit, whatever ids the reply listed.
            title = _text(first.get("title")) or _text(existing.title) or _fallback_title(narrative)
            started, ended = episode_bounds(ordered)
            merged = EpisodeDraft(title=title, narrative=narrative, unit_ids=[u.id for u in ordered],
                                  started_at=started, ended_at=ended)
            return TopicDraft(episodes=[merged], items=items, merged=True)
        return TopicDraft(episodes=_episodes_or_raise(raw_episodes, ordered, calls), items=items)

    # -- semantic refinement ----------------------------------------------------------------------------

    def refine(
        self,
        *,
        episodes: list[EpisodeDraft],
        units: list[Unit],
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[ExperienceDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        data = self._ask(
            prompts.SEMANTIC_REFINE,
            on_call,
            episodes=prompts.render_episode_drafts(episodes),
            units=prompts.render_units(ordered),
            related=prompts.render_related(related),
        )
        return assemble_items(data.get("items") or [], ordered, related)

    def distil_session(
        self, *, units: list[Unit], related: list[ExistingExperience], on_call: CallSink | None = None
    ) -> list[ExperienceDraft]:
        """The session-level pass of an idle run: lessons, procedures and preferences of one session; only the
        units that announce one (:func:`session_pass_cue`) are sent."""
        ordered = [u for u in self.order_units(units) if session_pass_cue(u)]
        if not ordered:
            return []
        data = self._ask(prompts.SESSION_DISTILL, on_call, units=prompts.render_units(ordered),
                         related=prompts.render_related(related))
        return [d for d in assemble_items(data.get("items") or [], ordered, related)
                if d.type in prompts.SESSION_DISTILL_TYPES]


def _recorder(calls: list[LLMCallRecord], on_call: CallSink | None) -> CallSink:
    """A call sink that also keeps the records, to attach them to an error raised after the call."""

    def record(call: LLMCallRecord) -> None:
        calls.append(call)
        if on_call is not None:
            on_call(call)

    return record


def _episodes_or_raise(raw: list[Any], ordered: list[Unit], calls: list[LLMCallRecord]) -> list[EpisodeDraft]:
    try:
        return assemble_episodes(raw, ordered)
    except ConsolidationError as exc:  # a schema-valid but unusable reply: still paid for
        raise ConsolidationError(str(exc), calls) from exc


# --------------------------------------------------------------------------------------------------------
# Semantic validation of replies (also used by tests and by other callers of the prompts).


def _fallback_title(narrative: str) -> str:
    words = narrative.split()
    return " ".join(words[:8]).rstrip(".,;:") or "Untitled episode"


def assemble_episodes(raw_episodes: list[Any], ordered: list[Unit]) -> list[EpisodeDraft]:
    """Episode drafts from a reply: unknown ids dropped, each unit in exactly one episode (first mention wins),
    units the reply forgot appended to the last episode, episodes ordered by their first unit."""
    position = {u.id: i for i, u in enumerate(ordered)}
    known = {u.id: u.id for u in ordered}
    by_id = {u.id: u for u in ordered}
    assigned: set[str] = set()
    drafts: list[tuple[str, str, list[str]]] = []
    for raw in raw_episodes[:3]:
        if not isinstance(raw, dict):
            continue
        narrative = str(raw.get("narrative") or "").strip()
        title = _text(raw.get("title"))
        if not narrative:  # skipped before claiming its units, so they still land in another episode
            continue
        ids: list[str] = []
        for value in raw.get("unit_ids") or []:
            unit_id = _resolve_id(value, known)
            if unit_id is not None and unit_id not in assigned:
                assigned.add(unit_id)
                ids.append(unit_id)
        drafts.append((title or _fallback_title(narrative), narrative, ids))
    if not drafts:
        raise ConsolidationError("episode_write: the reply contained no usable episode")
    # An episode left without units keeps its text only if it is the sole one; otherwise drop it.
    with_units = [d for d in drafts if d[2]]
    drafts = with_units or [drafts[0]]
    missing = [u.id for u in ordered if u.id not in assigned]
    if missing:
        drafts[-1][2].extend(missing)
    episodes: list[EpisodeDraft] = []
    for title, narrative, ids in drafts:
        ids.sort(key=position.__getitem__)
        started, ended = episode_bounds(by_id[i] for i in ids)
        episodes.append(
            EpisodeDraft(title=title, narrative=narrative, unit_ids=ids, started_at=started, ended_at=ended)
        )
    episodes.sort(key=lambda e: position[e.unit_ids[0]])
    return episodes


def assemble_items(
    raw_items: list[Any], ordered: list[Unit], related: list[ExistingExperience]
) -> list[ExperienceDraft]:
    """Experience drafts from a reply: evidence restricted to known units (all units if none is left),
    ``contradicts`` restricted to ``related``, confidence clamped, identical statements merged."""
    known_units = {u.id: u.id for u in ordered}
    by_id = {u.id: u for u in ordered}
    position = {u.id: i for i, u in enumerate(ordered)}
    known_related = {e.id: e.id for e in related}
    all_ids = [u.id for u in ordered]
    drafts: list[ExperienceDraft] = []
    index: dict[tuple[str, str], ExperienceDraft] = {}
    for raw in raw_items:
        if not isinstance(raw, dict):
            continue
        kind = _text(raw.get("type")).lower()
        statement = _text(raw.get("statement"))
        if kind not in EXPERIENCE_TYPES or not statement:
            continue
        evidence: list[str] = []
        for value in raw.get("evidence") or []:
            unit_id = _resolve_id(value, known_units)
            if unit_id is not None and unit_id not in evidence:
                evidence.append(unit_id)
        if not evidence:
            evidence = list(all_ids)
        evidence.sort(key=position.__getitem__)
        contradicts: list[str] = []
        for value in raw.get("contradicts") or []:
            exp_id = _resolve_id(value, known_related)
            if exp_id is not None and exp_id not in contradicts:
                contradicts.append(exp_id)
        first_time = unit_time(by_id[evidence[0]])
        valid_from = parse_valid_from(raw.get("valid_from"), first_time) or first_time
        valid_to = _end_of(raw.get("valid_to"), first_time)
        if valid_to is not None and valid_from is not None and not _after(valid_to, valid_from):
            valid_to = None  # an end before the start is a misread, not an item that never held
        subject = _text(raw.get("subject")).lower() or _subject_from_statement(statement)
        key = (kind, statement.lower().rstrip("."))
        previous = index.get(key)
        if previous is not None:  # the same item twice: one item, union of evidence and contradictions
            previous.evidence.extend(e for e in evidence if e not in previous.evidence)
            previous.evidence.sort(key=position.__getitem__)
            previous.contradicts.extend(c for c in contradicts if c not in previous.contradicts)
            previous.confidence = max(previous.confidence, _clamp(raw.get("confidence")))
            continue
        draft = ExperienceDraft(
            type=kind,
            subject=subject,
            statement=statement,
            evidence=evidence,
            valid_from=valid_from,
            valid_to=valid_to,
            confidence=_clamp(raw.get("confidence")),
            contradicts=contradicts,
            tags=normalise_tags(raw.get("tags")),
        )
        index[key] = draft
        drafts.append(draft)
    return drafts


# Not core.text.STOPWORDS: only what never names a subject ("user's", no pronouns or negations dropped), so the
# subjects already stored stay the ones this derivation gives.
_STOP = frozenset("the a an user user's is are was were has have had to of and in on at for with".split())


def _subject_from_statement(statement: str) -> str:
    words = [w for w in tokens(statement) if w not in _STOP]
    return " ".join(words[:3]) or "general"
