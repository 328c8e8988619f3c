"""Every LLM prompt of the product, versioned, in one place (the benchmarks' own prompts are in ``bench``).

A :class:`PromptTemplate` holds a static system prompt, a user template with ``${name}`` variables
(``string.Template`` syntax, so the JSON examples in the prompts need no escaping) and the JSON schema the reply
must satisfy. :func:`render` fills the variables (all of them, no more) and returns chat messages; the system
message ends with ``Prompt version: <name>@<n>`` so that logs, tests and the fake responder can tell which
prompt produced a call. Bump the version whenever a prompt's wording or schema changes.

Units are rendered one per line as ``[unit <id>] <ISO time> | user: ... | assistant: ...`` (newlines folded,
placeholders such as ``<PERSON_3f2a>`` kept verbatim).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory.consolidators.types import (
    EXPERIENCE_TYPES,
    SESSION_PASS_TYPES,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    Unit,
    unit_time,
)

__all__ = [
    "ALL_TEMPLATES",
    "EPISODE_MERGE",
    "EPISODE_WRITE",
    "SEMANTIC_REFINE",
    "SESSION_DISTILL",
    "SESSION_DISTILL_TYPES",
    "TOPIC_CONSOLIDATE",
    "TYPE_DEFINITIONS",
    "VERSION_MARKER_RE",
    "PromptTemplate",
    "format_date",
    "format_time",
    "render",
    "render_episode_drafts",
    "render_existing_episode",
    "render_existing_episode_values",
    "render_existing_memories",
    "render_related",
    "render_unit_line",
    "render_units",
    "template_for_version",
]

VERSION_MARKER = "Prompt version: "
VERSION_MARKER_RE = re.compile(r"Prompt version: ([a-z_]+)@(\d+)")


@dataclass(frozen=True)
class PromptTemplate:
    """A versioned prompt: static ``system`` text, a ``user_template`` with ``${var}`` slots, the reply schema."""

    name: str
    version: str
    system: str
    user_template: str
    schema: dict[str, Any]

    @property
    def variables(self) -> list[str]:
        """Names of the ``${var}`` slots of the user template, in order of first appearance."""
        seen: list[str] = []
        for name in string.Template(self.user_template).get_identifiers():
            if name not in seen:
                seen.append(name)
        return seen


def render(template: PromptTemplate, **values: Any) -> list[dict[str, str]]:
    """Chat messages for ``template``: every variable must be given (KeyError otherwise), no unknown ones."""
    expected = set(template.variables)
    missing = sorted(expected - set(values))
    if missing:
        raise KeyError(f"{template.version}: missing prompt variables {missing}")
    unknown = sorted(set(values) - expected)
    if unknown:
        raise TypeError(f"{template.version}: unknown prompt variables {unknown}")
    user = string.Template(template.user_template).substitute({k: str(v) for k, v in values.items()})
    system = f"{template.system.rstrip()}\n\n{VERSION_MARKER}{template.version}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


# --------------------------------------------------------------------------------------------------------
# Rendering of the inputs (shared by the prompts, the extractive consolidator and the fake responder).

_WS_RE = re.compile(r"\s+")


def _one_line(text: str) -> str:
    return _WS_RE.sub(" ", text or "").strip()


def format_time(value: datetime | None) -> str:
    """ISO 8601 to the minute (``2023-05-08T13:56+00:00``), or ``unknown-time``."""
    if value is None:
        return "unknown-time"
    return value.isoformat(timespec="minutes")


def format_date(value: datetime | None) -> str:
    return value.date().isoformat() if value is not None else "unknown date"


def render_unit_line(unit: Unit) -> str:
    return (
        f"[unit {unit.id}] {format_time(unit_time(unit))} | user: {_one_line(unit.user)} | "
        f"assistant: {_one_line(unit.assistant)}"
    )


def render_units(units: Iterable[Unit]) -> str:
    lines = [render_unit_line(u) for u in units]
    return "\n".join(lines) if lines else "(none)"


def render_related(related: Iterable[ExistingExperience]) -> str:
    lines = []
    for exp in related:
        valid = format_date(exp.valid_from) if exp.valid_from else "unknown"
        lines.append(
            f"[experience {exp.id}] {exp.type} | subject: {_one_line(exp.subject)} | {_one_line(exp.statement)} "
            f"(confidence {exp.confidence:.2f}, valid from {valid})"
        )
    return "\n".join(lines) if lines else "(none)"


def render_episode_drafts(episodes: Iterable[EpisodeDraft]) -> str:
    blocks = []
    for number, episode in enumerate(episodes, start=1):
        blocks.append(
            f"Episode {number}: {_one_line(episode.title)} (units: {', '.join(episode.unit_ids)})\n"
            f"{episode.narrative.strip()}"
        )
    return "\n\n".join(blocks) if blocks else "(none)"


def render_existing_memories(memories: Iterable[ExistingExperience]) -> str:
    lines = [f"[{m.id}] {_one_line(m.statement)}" for m in memories]
    return "\n".join(lines) if lines else "(none)"


def render_existing_episode_values(existing: ExistingEpisode) -> dict[str, str]:
    return {
        "episode_id": existing.id,
        "episode_title": _one_line(existing.title),
        "episode_narrative": existing.narrative.strip(),
    }


# --------------------------------------------------------------------------------------------------------
# Shared instructions.

TYPE_DEFINITIONS: Mapping[str, str] = {
    "fact": "a stable truth about the user, another person, the world or the project: identity, relationships, "
    "possessions, jobs, places, names, configuration, versions.",
    "event": "something that happened, or is scheduled to happen, at a specific time: trips, races, meetings, "
    "purchases, incidents, releases. Always include the absolute date.",
    "preference": "what the user likes, dislikes, prefers or chooses: tastes, styles, tools, foods, times, formats, "
    "ways of working.",
    "constraint": "a rule, limit or requirement that must be respected: never/always/must rules, allergies and "
    "medical conditions, deadlines, budgets, legal or organisational policies, things not allowed.",
    "lesson": "something learned from an outcome, mistake or success that should change what is done next time.",
    "pattern": "a recurring behaviour or regularity: habits, routines, schedules, what usually happens and when.",
    "procedure": "an ordered how-to: the concrete steps, in order, that achieve a goal (commands, settings, "
    "quantities included).",
}
assert tuple(TYPE_DEFINITIONS) == EXPERIENCE_TYPES

_TYPE_LIST = "\n".join(f"- {name}: {text}" for name, text in TYPE_DEFINITIONS.items())

_NARRATIVE_RULES = """\
- Chronology: tell what happened in the order it happened and anchor it with absolute dates taken from the unit
  timestamps ("On 2023-05-08, ..."). Turn relative expressions ("yesterday", "last week", "next Friday") into
  absolute dates using the timestamp of the unit that contains them; when unsure, keep the expression and add the
  date it was said ("last week (said on 2023-05-08)").
- Specifics: keep names, places, numbers, quantities, prices, times, durations, titles of books, songs or films,
  decisions and their reasons, outcomes, plans and open questions. Prefer a concrete detail to a generality.
- Placeholders: the texts were masked for privacy. Tokens such as <PERSON_3f2a>, <EMAIL_ADDRESS_91bc> or
  <LOCATION_0d1e> stand for real values. Copy them exactly, character for character; never guess what they hide,
  never expand, translate, merge or drop them.
- Faithfulness: use only what the units say. Do not invent motives, feelings, outcomes or dates, do not give advice
  of your own, do not add outside knowledge. Say who said what: what the user stated versus what the assistant
  suggested, and whether the user accepted it.
- Style: third person ("the user", "the assistant", or the names used in the conversation), past tense, plain
  prose without bullet points or markdown, 60 to 250 words per episode (longer only when many details matter)."""

# --------------------------------------------------------------------------------------------------------
# Episodic memory.

_EPISODE_ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "narrative": {"type": "string", "minLength": 1},
        "unit_ids": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
    "required": ["title", "narrative", "unit_ids"],
}

EPISODE_WRITE = PromptTemplate(
    name="episode_write",
    version="episode_write@1",
    system=f"""\
You are the episodic memory writer of RecMem, a long-term memory shared by a team of LLM agents.

You receive conversation units that belong to one recurring topic: the topic came up again and again, so it is
now worth remembering. Each unit is one exchange, what the user said and what the assistant replied, with the
time it happened and its id. Turn the units into 1 to 3 episodes.

An episode is a self-contained, chronological narrative of one situation (a project, a trip, a training plan, a
problem being debugged, a relationship, a purchase...), written so that someone who reads only the episode,
months later, understands what happened, when, who was involved, what was decided and what is still open.

Grouping:
- Put all units about the same ongoing situation into one episode, even when they come from different sessions
  or days apart. Start another episode only for a clearly different situation, or for the same subject after a
  long break with no continuity. Never write more than 3 episodes; one is the usual case.
- Every unit id must appear in exactly one episode's "unit_ids". Use the ids exactly as written after "unit".

Writing:
{_NARRATIVE_RULES}
- Title: 3 to 10 words naming the situation (e.g. "Training plan for the Berlin marathon"); no dates, no quotes.

Reply with one JSON object and nothing else, in this shape:
{{"episodes": [{{"title": "...", "narrative": "...", "unit_ids": ["<unit id>", "..."]}}]}}""",
    user_template="""\
Conversation units of one recurring topic, in chronological order (${unit_count} units):
<units>
${units}
</units>

Write the episodes now. Every unit id listed above must appear in exactly one episode. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "episodes": {"type": "array", "items": _EPISODE_ITEM_SCHEMA, "minItems": 1, "maxItems": 3},
        },
        "required": ["episodes"],
    },
)

EPISODE_MERGE = PromptTemplate(
    name="episode_merge",
    version="episode_merge@1",
    system=f"""\
You maintain the episodic memory of RecMem, a long-term memory shared by a team of LLM agents.

You receive an existing episode (its title and chronological narrative) and new conversation units whose topic
was found similar to it. Each unit is one exchange, what the user said and what the assistant replied, with the
time it happened and its id.

First decide whether the new units continue the SAME ongoing situation as the episode: the same project, trip,
plan, problem, relationship or activity, possibly days or weeks later. Units that merely share words or a broad
theme with the episode (another trip, another bug, another person) are NOT the same situation.

If it is the same situation, set "same_situation" to true and rewrite the episode as ONE chronological narrative
that integrates the old narrative and the new units:
- keep every detail of the old narrative that is still part of the story (names, dates, numbers, decisions);
- add the new details at the point in time where they belong, usually at the end;
- when a new unit updates or corrects something said earlier, keep both in order ("first planned X; on
  2023-06-02 switched to Y") instead of silently overwriting the old version;
- update the title if the situation has evolved, otherwise keep it.
If it is not the same situation, set "same_situation" to false and return empty strings for "title" and
"narrative": the units will become a new episode instead.

Writing rules for the narrative:
{_NARRATIVE_RULES}

Reply with one JSON object and nothing else, in this shape:
{{"same_situation": true, "title": "...", "narrative": "..."}}""",
    user_template="""\
Existing episode:
<existing_episode id="${episode_id}">
Title: ${episode_title}
Narrative: ${episode_narrative}
</existing_episode>

New conversation units, in chronological order:
<units>
${units}
</units>

Is this the same ongoing situation? If so, write the merged chronological narrative. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "same_situation": {"type": "boolean"},
            "title": {"type": "string"},
            "narrative": {"type": "string"},
        },
        "required": ["same_situation", "title", "narrative"],
    },
)

# --------------------------------------------------------------------------------------------------------
# Semantic memory.

_ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "type": {"enum": list(EXPERIENCE_TYPES)},
        "subject": {"type": "string"},
        "statement": {"type": "string", "minLength": 1},
        "evidence": {"type": "array", "items": {"type": "string"}},
        "valid_from": {"type": ["string", "null"]},
        "valid_to": {"type": ["string", "null"]},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "contradicts": {"type": "array", "items": {"type": "string"}},
        "tags": {"type": "array", "maxItems": 5, "items": {"type": "string"}},
    },
    "required": ["type", "subject", "statement", "evidence"],
}

_ITEM_RULES = """\
Fields of each item:
- "type": one of the seven types above.
- "subject": what the item is about, 1 to 4 lowercase words forming a noun phrase ("morning drink", "marathon
  training", "<PERSON_3f2a>'s birthday", "deployment pipeline"). When the item is about the same thing as a related
  experience, reuse that experience's subject exactly, so that versions of one item can be matched.
- "statement": one self-contained sentence in the third person ("The user prefers ...", "<PERSON_3f2a> works at
  ..."), with absolute dates and exact values, understandable without the conversation.
- "evidence": the ids of the units that support the item: at least one, and only ids listed in <units>.
- "valid_from": the date (YYYY-MM-DD) from which the item holds: the date of the event itself for events,
  otherwise the date of the first supporting unit; null if unknown.
- "valid_to": only when the units state an end ("the freeze lasts until Friday", "for the next two weeks"): the
  last date (YYYY-MM-DD) on which it holds, computed from the unit times; otherwise null or omitted.
- "confidence": from 0.0 to 1.0. 0.9 or more when stated explicitly and unambiguously, 0.6 to 0.8 when clearly
  implied, lower when uncertain (prefer omitting speculative items).
- "contradicts": the ids of related experiences (only ids listed in <related_experiences>) that this item
  contradicts or replaces because something changed: the user used to prefer tea and now prefers coffee, a
  deadline moved, a rule was lifted, a fact is no longer true. Leave it empty when the item agrees with, repeats
  or merely refines a related experience.
- "tags": up to 5 short lowercase labels an agent could filter by (the domain, tool or project named: "deployment",
  "python", "health"); no placeholders.

Rules:
- Keep what will be useful in later conversations: facts about people and things, preferences, constraints,
  commitments, dated events, lessons, habits and procedures. Skip greetings, small talk, questions that got no
  answer, and the assistant's generic advice unless the user adopted it or it is a concrete procedure.
- One idea per item, no duplicates. Do not restate a related experience unless the units change it; then state
  the current version and list the old one in "contradicts".
- Placeholders such as <PERSON_3f2a> or <EMAIL_ADDRESS_91bc> stand for masked values: copy them exactly and never
  guess what they hide.
- Be faithful: nothing the units do not support; resolve relative dates ("last week") with the unit timestamps.
- Usually one or two items per unit at most; fewer is fine. Reply {"items": []} if nothing is worth keeping."""

# The units and the related experiences, as topic consolidation, the refinement and the session pass show them.
_UNITS_AND_RELATED = """\
<units>
${units}
</units>

Related experiences already in memory:
<related_experiences>
${related}
</related_experiences>"""

SEMANTIC_REFINE = PromptTemplate(
    name="semantic_refine",
    version="semantic_refine@2",
    system=f"""\
You are the semantic memory curator of RecMem, a long-term memory shared by a team of LLM agents.

You receive (1) the episodes just written from a set of conversation units, (2) the units themselves, each one
exchange with its id and time, and (3) related experiences that are already stored. Extract the durable, reusable
knowledge in the units as typed items. Episodes summarise; your job is to recover the precise details that a
summary loses (exact numbers, dates, names, quantities, titles, settings, steps) and to state each as a
self-contained item that an agent can use later without reading the conversation.

Item types (use exactly these names):
{_TYPE_LIST}

{_ITEM_RULES}

Reply with one JSON object and nothing else, in this shape:
{{"items": [{{"type": "preference", "subject": "morning drink", "statement": "The user prefers coffee over tea in \
the morning.", "evidence": ["<unit id>"], "valid_from": "2023-05-08", "confidence": 0.9, "contradicts": []}}]}}""",
    user_template="""\
Episodes written from these units:
<episodes>
${episodes}
</episodes>

Conversation units, in chronological order:
""" + _UNITS_AND_RELATED + """

Extract the typed items now. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "maxItems": 100,
                "items": _ITEM_SCHEMA,
            }
        },
        "required": ["items"],
    },
)

# --------------------------------------------------------------------------------------------------------
# The session-level pass of an idle run: what one session taught that is worth keeping though it was said once.

SESSION_DISTILL_TYPES = SESSION_PASS_TYPES

SESSION_DISTILL = PromptTemplate(
    name="session_distill",
    version="session_distill@1",
    system=f"""\
You are the semantic memory curator of RecMem, a long-term memory shared by a team of LLM agents.

You receive the units of one conversation session that did not recur often enough to be consolidated on their own,
each one exchange with its id and time, and related experiences that are already stored. Keep only what the
session taught that will matter again though it was said once:
- lesson: something learned from an outcome (a failure and its fix, what worked, what to avoid next time);
- procedure: an ordered how-to, with its concrete steps, commands, settings and quantities;
- preference: a stated like, dislike or choice of the user.
Use only these three types. Skip facts, events, small talk and generic advice the user did not adopt.

{_ITEM_RULES}

Reply with one JSON object and nothing else, in this shape:
{{"items": [{{"type": "lesson", "subject": "database migrations", "statement": "Running the migrations before \
the tests avoids the missing-table failures the user hit on 2023-05-08.", "evidence": ["<unit id>"], \
"valid_from": "2023-05-08", "confidence": 0.8, "contradicts": [], "tags": ["testing"]}}]}}""",
    user_template="""\
Conversation units of one session, in chronological order:
""" + _UNITS_AND_RELATED + """

Extract the lessons, procedures and preferences now. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"items": {"type": "array", "maxItems": 50, "items": _ITEM_SCHEMA}},
        "required": ["items"],
    },
)

# --------------------------------------------------------------------------------------------------------
# One call per topic: the episode (written, or merged into the nearest one) and the typed items together. Writing
# and refining separately sent the units twice and two system prompts per topic (about 40 % of construction
# tokens); one reply does both while the model has the units in view.

TOPIC_CONSOLIDATE = PromptTemplate(
    name="topic_consolidate",
    version="topic_consolidate@2",
    system="""\
You are the memory consolidator of RecMem, a long-term memory shared by a team of LLM agents.

Input: conversation units of one recurring topic (each unit = one exchange, user and assistant, with its time and
id), possibly the most similar episode already in memory, and related experiences already stored. Reply with
episodes and typed items together.

Episodes: chronological narratives of one situation each (a project, trip, plan, problem, relationship,
purchase), readable months later without the conversation: what happened, when, who, what was decided, what is
open.
- Existing episode given and the units continue the SAME situation (same project, trip, plan, problem or
  activity, maybe weeks later; a shared word or theme is not enough): "same_situation": true and exactly one
  episode, the existing one rewritten with the new units merged in time order, every old detail kept; when
  something changed keep both versions ("first planned X; on 2023-06-02 switched to Y").
- Otherwise "same_situation": false and 1 to 3 new episodes (one is usual; another only for a clearly different
  situation). Every unit id in exactly one episode's "unit_ids", copied exactly.
- Anchor events with absolute dates from the unit times; turn "yesterday", "next Friday" into dates. Keep names,
  places, numbers, prices, times, titles, decisions, reasons, outcomes, plans. Only what the units say; who said
  what (the user's statements vs the assistant's suggestions). Third person, past tense, plain prose, 60 to 250
  words; title of 3 to 10 words without dates.

Items: the durable knowledge an agent will need later, with the exact details a summary loses. Types:
- fact: a stable truth about a person, thing, place, job, relationship, configuration or version;
- event: something that happened or is scheduled at a specific time (always with the absolute date);
- preference: what the user likes, dislikes, prefers or chooses;
- constraint: a rule, limit or requirement (never/always/must, allergies, deadlines, budgets, policies);
- lesson: something learned from an outcome that should change what is done next time;
- pattern: a recurring behaviour, habit, routine or schedule;
- procedure: ordered concrete steps that achieve a goal.
Fields: "type"; "subject" (1 to 4 lowercase words; reuse a related experience's subject when it is about the same
thing); "statement" (one self-contained third-person sentence with absolute dates and exact values); "evidence"
(ids of supporting units, at least one); "valid_from" (YYYY-MM-DD: the event's date, else the first supporting
unit's; null if unknown); "valid_to" (YYYY-MM-DD, the last day it holds, only when the units state an end:
"until Friday", "for the next two weeks"; else null); "confidence" (0.9+ explicit, 0.6 to 0.8 implied; omit
speculation); "contradicts" (ids of related experiences this item replaces because something changed; empty when it
agrees or only refines).
Skip greetings, small talk, unanswered questions and generic advice the user did not adopt. One idea per item, no
duplicates, do not restate a related experience unless it changed; usually at most one or two items per unit.

Both: placeholders such as <PERSON_3f2a> stand for masked values; copy them exactly, never guess or expand them.
Invent nothing: no motives, outcomes, dates or knowledge the units do not give.

Reply with one JSON object and nothing else:
{"same_situation": false, "episodes": [{"title": "...", "narrative": "...", "unit_ids": ["<unit id>"]}],
"items": [{"type": "preference", "subject": "morning drink", "statement": "The user prefers coffee over tea in the \
morning.", "evidence": ["<unit id>"], "valid_from": "2023-05-08", "confidence": 0.9, "contradicts": []}]}""",
    user_template="""\
Most similar episode already in memory:
${existing_episode}

Conversation units of one recurring topic, in chronological order (${unit_count} units):
""" + _UNITS_AND_RELATED + """

Write the episodes and extract the typed items now. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "same_situation": {"type": "boolean"},
            "episodes": {"type": "array", "items": _EPISODE_ITEM_SCHEMA, "minItems": 1, "maxItems": 3},
            "items": {"type": "array", "maxItems": 100, "items": _ITEM_SCHEMA},
        },
        "required": ["same_situation", "episodes", "items"],
    },
)


def render_existing_episode(existing: ExistingEpisode | None) -> str:
    """The ``existing_episode`` slot of ``TOPIC_CONSOLIDATE``: the episode in tags, or ``(none)``."""
    if existing is None:
        return "(none)"
    values = render_existing_episode_values(existing)
    return (f'<existing_episode id="{values["episode_id"]}">\nTitle: {values["episode_title"]}\n'
            f'Narrative: {values["episode_narrative"]}\n</existing_episode>')


ALL_TEMPLATES: tuple[PromptTemplate, ...] = (
    TOPIC_CONSOLIDATE,
    EPISODE_WRITE,
    EPISODE_MERGE,
    SEMANTIC_REFINE,
    SESSION_DISTILL,
)


def template_for_version(text: str) -> PromptTemplate | None:
    """The template whose version marker appears in ``text`` (a system prompt), if any."""
    match = VERSION_MARKER_RE.search(text or "")
    if not match:
        return None
    version = f"{match.group(1)}@{match.group(2)}"
    for template in ALL_TEMPLATES:
        if template.version == version:
            return template
    for template in ALL_TEMPLATES:  # an older or newer version of a known prompt
        if template.name == match.group(1):
            return template
    return None
