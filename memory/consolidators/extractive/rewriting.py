"""Rewriting sentences for statements and narratives: first person to third person ("I prefer tea" ->
"User prefers tea."), and relative time expressions resolved against the unit's time ("yesterday" -> a date)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from memory.consolidators.extractive.lexicons import (
    _AGO_RE,
    _LAST_RE,
    _NEXT_RE,
    _THIRD_PERSON_IRREGULAR,
    NUMBER_WORDS,
    RELATIVE_DAYS,
    WEEKDAYS,
)
from memory.consolidators.extractive.parsing import _clip, _has_i_subject, _is_placeholder, _one_line


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _THIRD_PERSON_IRREGULAR:
        return _THIRD_PERSON_IRREGULAR[low]
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb + "s"


def _third_person(span: Any) -> str:
    """Rewrite a first-person sentence about the user in the third person ("I prefer tea" -> "User prefers
    tea."); placeholders and everything else are kept verbatim."""
    tokens = list(span)
    # Drop leading interjections and discourse markers ("Oh,", "Well,", "So", "Also,", "And").
    while (
        tokens
        and (
            tokens[0].pos_ == "INTJ"
            or tokens[0].lower_ in ("so", "well", "also", "and", "but", "anyway", "btw", "ok", "okay", "oh")
            or tokens[0].is_punct
        )
        and len(tokens) > 3
    ):
        tokens = tokens[1:]
    if not tokens:
        return ""
    out: list[str] = []
    mentioned = False  # once "the user" is said, later references become "them" / "their"
    for tok in tokens:
        low = tok.lower_
        text = tok.text
        start = not out
        if _is_placeholder(tok):
            replacement = text
        elif low == "i" and tok.pos_ == "PRON":
            replacement = "User" if start else "the user"
            mentioned = True
        elif low == "me" and tok.pos_ == "PRON":
            replacement = "them" if mentioned else "the user"
            mentioned = True
        elif low == "my" and tok.pos_ == "PRON":
            replacement = "their" if mentioned else ("User's" if start else "the user's")
            mentioned = True
        elif low == "mine" and tok.pos_ == "PRON":
            replacement = "theirs" if mentioned else "the user's"
            mentioned = True
        elif low == "myself":
            replacement = "themself"
        elif low in ("am", "'m") and _has_i_subject(tok):
            replacement = "is"
        elif low == "'ve" and _has_i_subject(tok):
            replacement = "has"
        elif low == "'d" and _has_i_subject(tok):
            replacement = "would"
        elif low == "'ll" and _has_i_subject(tok):
            replacement = "will"
        elif tok.tag_ == "VBP" and _has_i_subject(tok):
            replacement = _conjugate(text)
        else:
            replacement = text
        if replacement != text and text.startswith("'") and out and not out[-1].endswith(" "):
            out[-1] += " "  # "I'm" -> "the user is": the contraction becomes a word
        out.append(replacement + tok.whitespace_)
    sentence = "".join(out).strip()
    sentence = sentence[:1].upper() + sentence[1:]
    if sentence and sentence[-1] not in ".!?":
        sentence += "."
    return _clip(_one_line(sentence))


def _relative_date(text: str, ref: datetime | None) -> tuple[datetime | None, str]:
    """Resolve a relative time expression against ``ref``: (date or None, note to append to a statement)."""
    if ref is None:
        return None, ""
    lowered = text.lower()
    for phrase, days in RELATIVE_DAYS.items():
        if re.search(rf"\b{phrase}\b", lowered):
            when = ref + timedelta(days=days)
            return when, f" (on {when.date().isoformat()})"
    match = _AGO_RE.search(lowered)
    if match:
        count = int(match.group(1)) if match.group(1).isdigit() else NUMBER_WORDS.get(match.group(1), 1)
        days = count * (7 if match.group(2) == "week" else 1)
        when = ref - timedelta(days=days)
        return when, f" (around {when.date().isoformat()})"
    match = _LAST_RE.search(lowered)
    if match:
        unit = match.group(1)
        if unit in WEEKDAYS:
            delta = (ref.weekday() - WEEKDAYS.index(unit)) % 7 or 7
            when = ref - timedelta(days=delta)
            return when, f" (on {when.date().isoformat()})"
        span_days = {"week": 7, "weekend": 7, "month": 30, "year": 365}[unit]
        when = ref - timedelta(days=span_days)
        return when, f" (the {unit} before {ref.date().isoformat()})"
    match = _NEXT_RE.search(lowered)
    if match:
        unit = match.group(1)
        if unit in WEEKDAYS:
            delta = (WEEKDAYS.index(unit) - ref.weekday()) % 7 or 7
            when = ref + timedelta(days=delta)
            return when, f" (on {when.date().isoformat()})"
        return None, f" (said on {ref.date().isoformat()})"
    return None, ""


def _has_time_expression(span: Any) -> bool:
    if any(ent.label_ in ("DATE", "TIME") for ent in span.ents):
        return True
    lowered = span.text.lower()
    return bool(
        _AGO_RE.search(lowered)
        or _LAST_RE.search(lowered)
        or _NEXT_RE.search(lowered)
        or any(re.search(rf"\b{p}\b", lowered) for p in RELATIVE_DAYS)
    )
