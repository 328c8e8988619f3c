"""Rewriting sentences for statements and narratives: first person to third person ("I prefer tea" ->
"User prefers tea."), and relative time expressions resolved against the unit's time ("yesterday" -> a date)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from memory.consolidators.extractive.anaphora import Reference
from memory.consolidators.extractive.lexicons import (
    _AGO_RE,
    _LAST_RE,
    _NEXT_RE,
    _THIRD_PERSON_IRREGULAR,
    NUMBER_WORDS,
    RELATIVE_DAYS,
    WEEKDAYS,
)
from memory.consolidators.extractive.parsing import (
    _CALLING,
    _clip,
    _has_i_subject,
    _is_placeholder,
    _one_line,
    _speaker_tag,
    _vocatives,
)


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _THIRD_PERSON_IRREGULAR:
        return _THIRD_PERSON_IRREGULAR[low]
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb + "s"


# A contraction after a pronoun replaced by its referent becomes a word ("It's" -> "The book is").
_CONTRACTIONS = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would", "’re": "are", "’ve": "have",
                 "’ll": "will", "’d": "would"}


def _third_person(span: Any, ref: Reference | None = None) -> str:
    """Rewrite a first-person sentence about the user in the third person ("I prefer tea" -> "User prefers
    tea."); a subject pronoun with a ``ref`` becomes its referent ("It's my favourite" -> "The book is the user's
    favourite"); placeholders and everything else are kept verbatim."""
    named = ref.pronoun.i if ref is not None and ref.words else None
    tokens = list(span)
    # Who is spoken to says nothing of the user ("Wow, <PERSON_…>, I adopted a puppy" read as if the listener had);
    # a speaker tag ("<PERSON_…>:") stays: it links the statement to questions about that person.
    tag = [t for t in tokens if t.i in _speaker_tag(span)]
    tokens = tokens[len(tag):]
    vocative = _vocatives(span)
    # Drop leading interjections, greetings and discourse markers ("Oh,", "Well,", "So", "Also,", "And"), also
    # after the speaker tag ("<PERSON_…>: Hey <PERSON_…>! Shadow chewed …", one sentence to the parser).
    while (
        tokens
        and (
            tokens[0].pos_ == "INTJ"
            or tokens[0].lower_ in ("so", "well", "also", "and", "but", "anyway", "btw", "ok", "okay", "oh")
            or (tokens[0].lower_ in _CALLING and (tokens[1].is_punct or tokens[1].i in vocative))
            or tokens[0].is_punct
            or tokens[0].i in vocative
        )
        and len(tokens) > 3
    ):
        tokens = tokens[1:]
    tokens = tag + tokens
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
        elif tok.i == named:
            replacement = ref.words
        elif named is not None and tok.i == named + 1 and low in ("'s", "’s"):
            replacement = "has" if tok.lemma_.lower() == "have" else "is"
        elif named is not None and tok.i == named + 1 and low in _CONTRACTIONS:
            replacement = _CONTRACTIONS[low]
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
        if replacement != text and text.startswith(("'", "’")) and out and not out[-1].endswith(" "):
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


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_UNTIL = r"\b(?:until|till|til|through|thru)\s+"
_UNTIL_WEEKDAY_RE = re.compile(_UNTIL + r"(?:this\s+|next\s+|the\s+)?(" + "|".join(WEEKDAYS) + r")\b")
_UNTIL_DAY_MONTH_RE = re.compile(_UNTIL + r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b")
_UNTIL_MONTH_DAY_RE = re.compile(_UNTIL + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b")
_UNTIL_END_RE = re.compile(_UNTIL + r"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month|year)\b")
_FOR_NEXT_RE = re.compile(r"\bfor\s+(?:the\s+)?(?:next|coming)\s+(\d{1,3}|one|two|three|four|five|six|seven|eight|"
                          r"nine|ten|a couple of|a few)?\s*(day|week|month)s?\b")
# Told in the past ("we waited until Friday", "it lasted until March 3"): a story, not an end still ahead.
_PAST_RE = re.compile(r"\b(was|were|had|did|waited|lasted|stayed|kept|used to)\b")


def _next_midnight(day, ref: datetime) -> datetime:
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=ref.tzinfo)


def _stated_end(text: str, ref: datetime | None) -> datetime | None:
    """The end a sentence states for what it says, resolved against ``ref`` (the exchange's time): "until Friday"
    (the next Friday, through its end), "until 3 March" / "until March 3" (the next such date), "till end of month",
    "for the next two weeks". None when it states none, or tells of the past. The instant returned is the first one
    at which the item no longer holds."""
    if ref is None:
        return None
    lowered = text.lower()
    candidates = []
    for regex in (_UNTIL_WEEKDAY_RE, _UNTIL_DAY_MONTH_RE, _UNTIL_MONTH_DAY_RE, _UNTIL_END_RE, _FOR_NEXT_RE):
        match = regex.search(lowered)
        if match and not _PAST_RE.search(lowered[:match.start()]):
            candidates.append((regex, match))
    if not candidates:
        return None
    regex, match = min(candidates, key=lambda c: c[1].start())
    today = ref.date()
    if regex is _UNTIL_WEEKDAY_RE:
        delta = (WEEKDAYS.index(match.group(1)) - ref.weekday()) % 7 or 7
        return _next_midnight(today + timedelta(days=delta), ref)
    if regex in (_UNTIL_DAY_MONTH_RE, _UNTIL_MONTH_DAY_RE):
        day_text, month_text = match.groups() if regex is _UNTIL_DAY_MONTH_RE else match.groups()[::-1]
        month = next(i for i, name in enumerate(_MONTHS, start=1) if name.startswith(month_text[:3]))
        for year in (today.year, today.year + 1):
            try:
                day = today.replace(year=year, month=month, day=int(day_text))
            except ValueError:
                return None
            if day >= today:
                return _next_midnight(day, ref)
        return None
    if regex is _UNTIL_END_RE:
        unit = match.group(1)
        if unit == "week":
            return _next_midnight(today + timedelta(days=6 - ref.weekday()), ref)
        if unit == "month":
            first_next = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
            return _next_midnight(first_next - timedelta(days=1), ref)
        return _next_midnight(today.replace(month=12, day=31), ref)
    count_text = match.group(1) or "one"
    count = int(count_text) if count_text.isdigit() else NUMBER_WORDS.get(count_text, 1)
    days = count * {"day": 1, "week": 7, "month": 30}[match.group(2)]
    return ref + timedelta(days=days)
