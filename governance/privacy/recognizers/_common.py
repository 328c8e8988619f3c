"""Helpers shared by the PII recognizers of :mod:`.numbers` and :mod:`.names` (context windows, results)."""

from __future__ import annotations

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
