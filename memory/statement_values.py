"""The values a statement names — weekdays, months, numbers and durations — normalised, so that one value written
two ways is one value: "16" / "16.0" / "sixteen", "1,200", "two hundred" / "200", "half an hour" / "30 minutes",
"every two weeks" / "a two-week sprint" / "14 days" / "a fortnight".

Consolidation compares them to tell a change from a paraphrase ("on-call now starts on Wednesdays" changes "on-call
starts on Mondays"; "P1 tickets: a first reply within half an hour" restates "… within 30 minutes") and to keep an
exchange that names another value from being evidence of an item. Values are compared within their kind only (a
day is no other value than a number), and durations only within one unit family (minutes and hours, days and weeks,
months and years): "90 days" and "three months" are not told apart, nor taken for two values.
Pure functions over text.
"""

from __future__ import annotations

import re

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")

_SMALL = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i > 1}
_SCALES = {"hundred": 100, "thousand": 1000}
# A run of number words ("four hundred", "twenty-five", "one hundred and fifty"). "One" and "a" alone are not
# numbers ("the one in the ticket", "one JSON object per line"), only before a scale or a unit (see _ONE_UNIT_RE).
_FIRST = "|".join([*(w for w in _SMALL if w != "one"), *_TENS, r"(?:one|a)(?=[\s-]+(?:hundred|thousand)\b)"])
_NEXT = "|".join([*_SMALL, *_TENS, *_SCALES])
_WORDS_RE = re.compile(rf"(?<![\w-])(?:{_FIRST})(?:(?:[\s-]+and)?[\s-]+(?:{_NEXT})(?!\w))*(?!\w)", re.I)
_DIGITS_RE = re.compile(r"(?<![\w.,:])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:st|nd|rd|th|s)?(?![\w])")
_TIME_RE = re.compile(r"(?<![\w:])(\d{1,2}):(\d{2})(?![\w:])")
_UNITS = {"minute": ("min", 1), "min": ("min", 1), "hour": ("min", 60), "hr": ("min", 60),
          "day": ("d", 1), "week": ("d", 7), "fortnight": ("d", 14), "month": ("mo", 1), "year": ("mo", 12)}
_UNIT_RE = re.compile(r"^[\s-]*(minute|min|hour|hr|day|week|fortnight|month|year)s?\b", re.I)
# A single unit said without a number: "half an hour", "within an hour", "every fortnight", "a week".
_ONE_UNIT_RE = re.compile(r"\b(half an? |an? |one |every |each |per )(minute|hour|day|week|fortnight|month|year)\b"
                          r"|\b(fortnight)\b", re.I)
_WEEKDAY_RE = re.compile(rf"\b({'|'.join(WEEKDAYS)})s?\b", re.I)
# "May" is a month only as a date ("May 3", "3 May", "in May"): the modal verb is everywhere.
_MONTH_RE = re.compile(rf"\b({'|'.join(m for m in MONTHS if m != 'may')})\b"
                       r"|(?:\b(?:in|of|since|until|from|by|early|late|mid)\s+|\d\s*)(may)\b|\b(may)(?=\s+\d)", re.I)


def _words_value(text: str) -> int | None:
    """The integer a run of number words says ("four hundred" → 400, "twenty-five" → 25), or None."""
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", text.lower()):
        if word in ("and", ""):
            continue
        if word == "a":
            current = max(current, 1)
        elif word in _SMALL:
            current += _SMALL[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _number(text: str) -> str:
    """A number's canonical digits: separators dropped, a zero fraction dropped ("16.0" → "16")."""
    whole, _, fraction = text.replace(",", "").partition(".")
    fraction = fraction.rstrip("0")
    whole = whole.lstrip("0") or "0"
    return f"{whole}.{fraction}" if fraction else whole


def _quantities(text: str) -> list[tuple[str, int, int]]:
    """(number, start, end) of each number in ``text``, digits and words alike."""
    found = []
    for m in _DIGITS_RE.finditer(text):
        found.append((_number(m.group(1) + (f".{m.group(2)}" if m.group(2) else "")), m.start(), m.end()))
    for m in _WORDS_RE.finditer(text):
        value = _words_value(m.group(0))
        if value is not None:
            found.append((str(value), m.start(), m.end()))
    return found


def statement_values(text: str) -> dict[str, set[str]]:
    """The values ``text`` names, by kind: ``weekday``, ``month``, ``time``, ``number`` and ``duration:<unit>``
    (minutes, days or months: a number followed by a unit, "half an hour" = 30 minutes, "a fortnight" = 14 days).
    A number that is a duration counts as that duration only."""
    out: dict[str, set[str]] = {}

    def add(kind: str, value: str) -> None:
        out.setdefault(kind, set()).add(value)

    for m in _WEEKDAY_RE.finditer(text):
        add("weekday", m.group(1).lower())
    for m in _MONTH_RE.finditer(text):
        add("month", next(g for g in m.groups() if g).lower())
    taken: list[tuple[int, int]] = []
    for m in _TIME_RE.finditer(text):
        add("time", f"{int(m.group(1))}:{m.group(2)}")
        taken.append((m.start(), m.end()))
    for number, start, end in _quantities(text):
        if any(a <= start < b for a, b in taken):
            continue
        unit = _UNIT_RE.match(text[end:])
        if unit:
            family, factor = _UNITS[unit.group(1).lower()]
            amount = float(number) * factor
            add(f"duration:{family}", _number(f"{amount:g}"))
        else:
            add("number", number)
    for m in _ONE_UNIT_RE.finditer(text):
        lead = (m.group(1) or "").lower()
        family, factor = _UNITS[(m.group(2) or m.group(3)).lower()]
        add(f"duration:{family}", _number(f"{factor * (0.5 if lead.startswith('half') else 1):g}"))
    return out


def names_other_values(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name values of one kind, and no value in common? ("starts on Wednesdays" / "on Mondays";
    "within 15 minutes" / "within half an hour"). A value named in both, of any kind, means they speak of one
    thing ("this PR has 1,200 lines" / "at most 400 lines" under "PRs of at most four hundred lines")."""
    va, vb = statement_values(a), statement_values(b)
    if any(va[k] & vb[k] for k in va.keys() & vb.keys()):
        return False
    return any(va[k] and vb[k] for k in va.keys() & vb.keys())


def numbers_as_digits(text: str) -> str:
    """``text`` with its number words written as digits ("two approvals" → "2 approvals"), for comparing wordings."""
    return _WORDS_RE.sub(lambda m: str(v) if (v := _words_value(m.group(0))) is not None else m.group(0), text)
