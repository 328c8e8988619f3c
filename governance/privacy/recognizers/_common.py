"""Helpers shared by the PII recognizers of :mod:`.numbers` and :mod:`.names` (context windows, results)."""

from __future__ import annotations

import unicodedata
from datetime import date

from presidio_analyzer import EntityRecognizer, RecognizerResult

# --------------------------------------------------------------------------------------------------
# PII helpers: context windows
# --------------------------------------------------------------------------------------------------


def _window(text: str, start: int, end: int, before: int, after: int) -> tuple[str, str]:
    return text[max(0, start - before) : start].lower(), text[end : end + after].lower()


def _result(
    recognizer: EntityRecognizer, entity: str, start: int, end: int, score: float
) -> RecognizerResult:
    return RecognizerResult(
        entity,
        start,
        end,
        min(score, 1.0),
        analysis_explanation=None,
        recognition_metadata={
            RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
        },
    )


def valid_date(year: int, month: int, day: int) -> bool:
    """A calendar date (the date inside an identifier's digits: birth dates of national ids)."""
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def foreign_script(span: str) -> bool:
    """Does ``span`` hold a letter of a script other than Latin (Han, kana, Hangul, Thai, Arabic, Hebrew, Cyrillic,
    Greek, Devanagari...)? The English NER was trained on Latin text only: on another script its PERSON, LOCATION and
    NRP guesses are noise ("谢谢", thanks, read as a person), so such spans need evidence of their own."""
    if all(c < "\u0250" for c in span):  # Latin and Latin-extended: the common case, kept cheap
        return False
    for c in span:
        if c >= "\u0250" and c.isalpha() and not unicodedata.name(c, "").startswith("LATIN"):
            return True
    return False
