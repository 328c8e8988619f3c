"""A plausible, schema-valid "LLM" for :class:`testing.fake_openai.FakeOpenAIServer`.

    with FakeOpenAIServer(responder=consolidation_responder) as srv: ...

It recognises which RecMem prompt a request carries (by the ``Prompt version: <name>@<n>`` marker of the system
message), reads the rendered inputs back out of the user message and answers the way a cautious model would:
episodes are the units grouped (a new group after a month's pause, at most 3) with a narrative of their first
sentences (``topic_consolidate`` answers as the episode and refine prompts would, in one reply); refinement
returns one fact per unit quoting it (a preference/constraint when the wording says so), and
marks a related experience as contradicted when the unit says "now prefer" / "no longer" / "anymore" about an
overlapping subject; a merge always continues the episode; eager extraction returns the user's declarative
sentences; an eager update lists every old memory (NONE unless a fact extends or changes it: UPDATE) and ADDs
the facts not already held (equal words or ≥ 0.8 overlap); an answer is the first
line of the memory context; the judge says CORRECT when the answer shares a content word with the gold answer.

This lets end-to-end tests and benchmarks run the real HTTP path with realistic prompt sizes and zero cost.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from typing import Any

from core.text import STOPWORDS
from core.text import words as text_words
from memory.consolidators.prompts import VERSION_MARKER_RE
from memory.gateways.tokens import message_text

__all__ = ["consolidation_responder", "parse_related", "parse_units"]

_UNIT_RE = re.compile(
    r"^\[unit (?P<id>[^\]]+)\] (?P<time>\S+) \| user: (?P<user>.*?) \| assistant: (?P<assistant>.*)$", re.M
)
_RELATED_RE = re.compile(
    r"^\[experience (?P<id>[^\]]+)\] (?P<type>\w+) \| subject: (?P<subject>.*?) \| (?P<statement>.*) "
    r"\(confidence [0-9.]+, valid from [^)]*\)$",
    re.M,
)
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+")
# The fake's own list: the shared stopwords with the pronouns it keeps as content, plus the words of liking and
# changing it reads as cues, not subjects. Kept exactly as it was, so the fake's answers (and every number
# measured with the fake) do not move.
_STOP = (STOPWORDS - {"its", "his", "her", "s", "t"}) | frozenset(
    "really now further user users prefer prefers preferred like likes liked love loves longer anymore said says "
    "say".split()
)
CHANGE_CUES = ("now prefer", "no longer", "anymore", "any more", "switched to", "instead of")


def _section(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}(?:\s[^>]*)?>\n?(.*?)\n?</{tag}>", text, re.S)
    return match.group(1).strip() if match else ""


def _attribute(text: str, tag: str, name: str) -> str:
    match = re.search(rf'<{tag}\s[^>]*{name}="([^"]*)"', text)
    return match.group(1) if match else ""


def _words(text: str) -> set[str]:
    return {w for w in text_words(text) if w not in _STOP and len(w) > 2}


def parse_units(text: str) -> list[dict[str, str]]:
    """Units rendered by ``prompts.render_units``: dicts with id, time, user, assistant."""
    return [m.groupdict() for m in _UNIT_RE.finditer(_section(text, "units") or text)]


def parse_related(text: str) -> list[dict[str, str]]:
    return [m.groupdict() for m in _RELATED_RE.finditer(_section(text, "related_experiences"))]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT_RE.split(text or "") if s.strip()]


def _key_sentence(text: str) -> str:
    sentences = _sentences(text)
    for sentence in sentences:
        if not sentence.endswith("?") and len(sentence.split()) >= 3:
            return sentence
    return sentences[0] if sentences else ""


def _date(value: str) -> date | None:
    try:
        return datetime.fromisoformat(value).date()
    except ValueError:
        return None


def _day(value: str) -> str:
    parsed = _date(value)
    return parsed.isoformat() if parsed else "an unknown date"


def _narrative(units: list[dict[str, str]]) -> str:
    parts = []
    for unit in units:
        sentence = _key_sentence(unit["user"]) or unit["user"]
        parts.append(f'On {_day(unit["time"])}, the user said: "{sentence}"')
    return " ".join(parts) or "Nothing notable happened."


def _title(units: list[dict[str, str]]) -> str:
    for unit in units:
        words = (_key_sentence(unit["user"]) or unit["user"]).split()
        if words:
            return " ".join(words[:6]).rstrip(".,;:!?") or "Conversation"
    return "Conversation"


def _episode_write(user: str) -> dict[str, Any]:
    units = parse_units(user)
    groups: list[list[dict[str, str]]] = []
    previous: date | None = None
    for unit in units:
        current = _date(unit["time"])
        pause = previous is not None and current is not None and current - previous > timedelta(days=30)
        if not groups or (pause and len(groups) < 3):
            groups.append([])
        groups[-1].append(unit)
        previous = current or previous
    if not groups:
        return {"episodes": [{"title": "Conversation", "narrative": "Nothing notable happened.", "unit_ids": ["?"]}]}
    return {
        "episodes": [
            {"title": _title(group), "narrative": _narrative(group), "unit_ids": [u["id"] for u in group]}
            for group in groups
        ]
    }


def _episode_merge(user: str) -> dict[str, Any]:
    existing = _section(user, "existing_episode")
    title_match = re.search(r"^Title: (.*)$", existing, re.M)
    narrative_match = re.search(r"^Narrative: (.*)", existing, re.S | re.M)
    title = title_match.group(1).strip() if title_match else ""
    old = narrative_match.group(1).strip() if narrative_match else ""
    units = parse_units(user)
    narrative = " ".join(part for part in (old, _narrative(units)) if part)
    return {"same_situation": True, "title": title or _title(units), "narrative": narrative}


_LESSON_RE = re.compile(r"\b(learned|lesson|next time|turned out|the fix was|fixed it by|root cause|the cause was)\b")
_PROCEDURE_RE = re.compile(r"\b(steps?|first\b.*\bthen|step 1|1\.)")
_PATTERN_RE = re.compile(r"\b(usually|whenever|each time|every (day|morning|evening|week|time|monday|friday))\b")


def _item_type(text: str) -> str:
    lowered = text.lower()
    if _LESSON_RE.search(lowered):
        return "lesson"
    if _PROCEDURE_RE.search(lowered):
        return "procedure"
    if re.search(r"\b(prefer|prefers|love|loves|like|likes|hate|hates|favou?rite)\b", lowered):
        return "preference"
    if re.search(r"\b(never|always|must|allergic|deadline|not allowed|can't|cannot)\b", lowered):
        return "constraint"
    if _PATTERN_RE.search(lowered):
        return "pattern"
    return "fact"


def _semantic_refine(user: str) -> dict[str, Any]:
    related = parse_related(user)
    items = []
    for unit in parse_units(user):
        sentence = _key_sentence(unit["user"]) or unit["user"]
        if not sentence:
            continue
        kind = _item_type(sentence)
        words = _words(unit["user"])
        subject = next((w for w in text_words(sentence) if w in words and len(w) > 3), "general")
        contradicts: list[str] = []
        if any(cue in unit["user"].lower() for cue in CHANGE_CUES):
            for exp in related:
                overlap = _words(exp["subject"]) & words or _words(exp["statement"]) & words
                if overlap:
                    contradicts.append(exp["id"])
                    kind, subject = exp["type"], exp["subject"]
        parsed = _date(unit["time"])
        items.append(
            {
                "type": kind,
                "subject": subject,
                "statement": f'The user said: "{sentence}"',
                "evidence": [unit["id"]],
                "valid_from": parsed.isoformat() if parsed else None,
                "confidence": 0.7,
                "contradicts": contradicts,
            }
        )
    return {"items": items}




def _session_distill(user: str) -> dict[str, Any]:
    """The session pass: the units' lessons, procedures and preferences (as ``semantic_refine`` types them), each
    tagged with its longest word; nothing else."""
    items = []
    for item in _semantic_refine(user)["items"]:
        if item["type"] in ("lesson", "procedure", "preference"):
            words = sorted(text_words(item["statement"]), key=len, reverse=True)
            items.append({**item, "tags": words[:1]})
    return {"items": items}


def _topic_consolidate(user: str) -> dict[str, Any]:
    """Merge when an existing episode is shown (like ``episode_merge``), else write; items as ``semantic_refine``."""
    if _section(user, "existing_episode"):
        merged = _episode_merge(user)
        episodes = [{"title": merged["title"], "narrative": merged["narrative"],
                     "unit_ids": [u["id"] for u in parse_units(user)]}]
        same = True
    else:
        episodes, same = _episode_write(user)["episodes"], False
    return {"same_situation": same, "episodes": episodes, "items": _semantic_refine(user)["items"]}


def _eager_extract(user: str) -> dict[str, Any]:
    conversation = _section(user, "conversation")
    user_line = re.search(r"^user: (.*)$", conversation, re.M)
    text = user_line.group(1) if user_line else ""
    facts = [s for s in _sentences(text) if not s.endswith("?") and len(s.split()) >= 3]
    return {"facts": facts}


def _normal(text: str) -> str:
    return " ".join(text_words(text))


def _json_section(user: str, tag: str) -> list[Any]:
    try:
        value = json.loads(_section(user, tag) or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def _same(a: str, b: str) -> bool:
    """Equal normalised words, or a word overlap (Jaccard) of at least 0.8."""
    words_a, words_b = set(_normal(a).split()), set(_normal(b).split())
    return _normal(a) == _normal(b) or bool(
        words_a and words_b and len(words_a & words_b) / len(words_a | words_b) >= 0.8)


def _eager_update(user: str) -> dict[str, Any]:
    """The whole new memory list: a fact already held leaves its memory at NONE; a fact that adds to a memory's
    content words, or changes one ("now prefer", "no longer"...) while sharing a word with it, UPDATEs it; any other
    fact is an ADD with the next free id. Old memories untouched stay NONE."""
    old = [m for m in _json_section(user, "old_memory") if isinstance(m, dict) and "id" in m]
    entries = [{"id": str(m["id"]), "text": str(m.get("text", "")), "event": "NONE"} for m in old]
    next_id = max((int(e["id"]) for e in entries if e["id"].isdigit()), default=-1) + 1
    for fact in (str(f) for f in _json_section(user, "new_facts") if str(f).strip()):
        if any(_same(fact, e.get("old_memory", e["text"])) or _same(fact, e["text"]) for e in entries):
            continue
        words = _words(fact)
        changed = any(cue in fact.lower() for cue in CHANGE_CUES)
        target = next((e for e in entries if e["event"] == "NONE" and _words(e["text"])
                       and (_words(e["text"]) < words or (changed and _words(e["text"]) & words))), None)
        if target is not None:
            target.update(event="UPDATE", old_memory=target["text"], text=fact)
            continue
        entries.append({"id": str(next_id), "text": fact, "event": "ADD"})
        next_id += 1
    return {"memory": entries}


def _answer(user: str) -> dict[str, Any]:
    for line in _section(user, "memories").splitlines():
        if line.strip():
            return {"answer": line.strip()}
    return {"answer": "Not mentioned"}


def _judge(user: str) -> dict[str, Any]:
    gold = _words(_section(user, "gold_answer"))
    answer = _words(_section(user, "generated_answer"))
    label = "CORRECT" if gold & answer else "WRONG"
    return {"reasoning": "Compared the content words of both answers.", "label": label}


_HANDLERS = {
    "topic_consolidate": _topic_consolidate,
    "episode_write": _episode_write,
    "episode_merge": _episode_merge,
    "semantic_refine": _semantic_refine,
    "session_distill": _session_distill,
    "eager_extract": _eager_extract,
    "eager_update": _eager_update,
    "answer": _answer,
    "judge": _judge,
}


def consolidation_responder(request_json: dict[str, Any]) -> dict[str, Any]:
    """Reply to a chat-completions request body built from a RecMem prompt; ``{}`` for anything else."""
    messages = request_json.get("messages") or []
    system = next((message_text(m) for m in messages
                   if m.get("role") == "system" and "Prompt version" in message_text(m)), "")
    user = next((message_text(m) for m in messages if m.get("role") == "user"), "")
    # By the prompt's name, not the product's templates: the benchmarks' prompts (bench/) are answered too.
    match = VERSION_MARKER_RE.search(system)
    handler = _HANDLERS.get(match.group(1)) if match else None
    return handler(user) if handler is not None else {}


