"""Helpers shared by the PII recognizers of :mod:`.numbers` and :mod:`.names` (context windows, results, the language
a text is written in, a word that stands for a person)."""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import date

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ..vocabulary import given_names, is_common_word, is_name_term, is_tech_word, name_shape, surnames

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


@functools.cache
def spacy_stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of ``lang`` (empty when spaCy has no list for it), read once per process."""
    import importlib

    try:
        return frozenset(importlib.import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS)
    except ImportError:
        return frozenset()


@functools.cache
def faker_calendar_names() -> frozenset[str]:
    """The weekday and month names of all of Faker's date-time locales, as written ("Τρίτη", "שני", "Montag")."""
    import importlib
    import pkgutil

    import faker.providers.date_time as locales

    words: set[str] = set()
    for info in pkgutil.iter_modules(locales.__path__):
        provider = importlib.import_module(f"{locales.__name__}.{info.name}").Provider
        for table in ("DAY_NAMES", "MONTH_NAMES"):
            words.update(w for w in getattr(provider, table, {}).values() if w)
    return frozenset(words)


def valid_date(year: int, month: int, day: int) -> bool:
    """A calendar date (the date inside an identifier's digits: birth dates of national ids)."""
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


# The person heuristics' score from which a guess carries a cue of its own; below it, a re-reading of the model's span
# is weak evidence (the engine's vocabulary and script checks may overrule it).
CUED_NAME_SCORE = 0.88


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


_SQL_INSERT_RE = re.compile(r"(?is)\binsert\s+into\s+[\w.\"`\[\]]+\s*\((?P<cols>[^()]{1,400})\)\s*values\s*")
_SQL_TUPLE_RE = re.compile(r"\s*,?\s*\((?P<body>(?:'(?:[^']|'')*'|[^()'])*)\)")
_SQL_LITERAL_RE = re.compile(r"\s*(?:'(?P<q>(?:[^']|'')*)'|(?P<bare>[^,]*?))\s*(?:,|$)")


def table_cells(text: str, header: re.Pattern[str]) -> list[tuple[int, int]]:
    """The cells under the columns a table's header names (``header`` matches the whole column name): in a comma-,
    semicolon-, tab- or pipe-separated table whose header line names the column ("id,full_name,dob" and its rows),
    and in the rows of an SQL ``INSERT INTO t (cols) VALUES (…), (…)``. Quotes around a cell are left out."""
    return [*_delimited_cells(text, header), *_sql_cells(text, header)]


def _delimited_cells(text: str, header: re.Pattern[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    columns: list[int] = []
    sep, width, pos = "", 0, 0
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if not columns:
            for candidate in (",", ";", "\t", "|"):
                cells = [c.strip(" \"'") for c in bare.split(candidate)]
                hit = [i for i, c in enumerate(cells) if header.fullmatch(c)]
                if len(cells) >= 2 and hit:
                    columns, sep, width = hit, candidate, len(cells)
                    break
        else:
            cells = bare.split(sep)
            if len(cells) == width:
                for column in columns:
                    start = pos + sum(len(c) + 1 for c in cells[:column])
                    cell = cells[column]
                    inner = cell.strip(" \t\"'")
                    if inner:
                        s = start + cell.index(inner)
                        out.append((s, s + len(inner)))
            elif bare.strip():
                columns = []  # the table ended
        pos += len(line)
    return out


def _sql_cells(text: str, header: re.Pattern[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in _SQL_INSERT_RE.finditer(text):
        names = [c.strip().strip("\"`[]") for c in m.group("cols").split(",")]
        columns = [i for i, c in enumerate(names) if header.fullmatch(c)]
        if not columns:
            continue
        pos = m.end()
        while (t := _SQL_TUPLE_RE.match(text, pos)) is not None:
            body_start = t.start("body")
            cells: list[tuple[int, int]] = []
            for lit in _SQL_LITERAL_RE.finditer(t.group("body")):
                group = "q" if lit.group("q") is not None else "bare"
                cells.append((body_start + lit.start(group), body_start + lit.end(group)))
                if lit.end() >= len(t.group("body")):
                    break
            out += [cells[c] for c in columns if c < len(cells) and cells[c][1] > cells[c][0]]
            pos = t.end()
    return out


# --------------------------------------------------------------------------------------------------
# The language a text is written in (for a phone plan, a name's article or its case endings), and a word that
# stands for a person
# --------------------------------------------------------------------------------------------------

#: the languages a Latin- or Greek-script text is read as (spaCy has a stop-word list for each)
WRITTEN_LANGUAGES = ("es", "pt", "it", "fr", "de", "nl", "pl", "el", "sv", "da", "nb", "fi", "cs", "ro", "hu", "tr")
# letters few of those languages write (a short line has few stop words: "Biuro obsługi: 22 628 44 19")
_LANGUAGE_LETTERS: dict[str, str] = {
    "es": "ñ¿¡", "pt": "ãõ", "pl": "łąęśźżń", "cs": "řěůťščž", "hu": "őű", "tr": "ğış", "de": "ß", "da": "øæ",
    "nb": "øæ", "sv": "å", "ro": "ăâțș", "fr": "œ",
}
#: half a vote: "al" and "de" in "Atención al cliente de …" (a short line of a contact card has no more)
MIN_LANGUAGE_SCORE = 0.5
_GREEK_RE = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_WORD_RE = re.compile(r"[^\W\d_]+(?:[\-'’][^\W\d_]+)*")  # "on-call" is a term, not "on" and "call"


@functools.cache
def _stop_word_weights() -> dict[str, tuple[tuple[str, float], ...]]:
    """Per stop word of the languages of :data:`WRITTEN_LANGUAGES` and English (spaCy's lists), the languages listing
    it, each with the weight 1 / their number ("de" is Spanish, Portuguese, French, Dutch … : a fifth of a vote
    each)."""
    lists = {lang: spacy_stop_words(lang) for lang in ["en", *WRITTEN_LANGUAGES]}
    owners: dict[str, list[str]] = {}
    for lang, words in lists.items():
        for w in words:
            owners.setdefault(w, []).append(lang)
    return {w: tuple((lang, 1.0 / len(langs)) for lang in langs) for w, langs in owners.items()}


@functools.lru_cache(maxsize=1024)
def _language_votes(text: str) -> tuple[dict[str, float], dict[str, int]]:
    """Per language, the weight of the text's stop words and the letters only it writes, and how many of its words
    (two letters or more: "-n" is a flag as likely as a word) and letters voted. Read once per text: two
    recognizers ask."""
    table = _stop_word_weights()
    score: dict[str, float] = dict.fromkeys(("en", *WRITTEN_LANGUAGES), 0.0)
    hits: dict[str, int] = dict.fromkeys(score, 0)
    for w in _WORD_RE.findall(text):
        w = w.lower()
        for lang, weight in table.get(w, ()):
            score[lang] += weight
            hits[lang] += len(w) > 1
    low = text.lower()
    for lang, letters in _LANGUAGE_LETTERS.items():
        found = sum(1.0 for c in set(letters) if c in low)
        score[lang] += found
        hits[lang] += 2 * bool(found)
    if _GREEK_RE.search(text):
        score["el"] += 2.0
        hits["el"] += 2
    return score, hits


def written_languages(text: str) -> set[str]:
    """The languages of :data:`WRITTEN_LANGUAGES` a text reads as written in, more than in English: its stop words
    (weighed by how many of the languages share them) and the letters only some of them write; Greek script is
    Greek. Empty for English, code, or too little to tell."""
    score, hits = _language_votes(text)
    english = score["en"]
    # two words of the language at least (or its letters): one short word is as likely a code's ("api", "prod")
    return {lang for lang, n in score.items()
            if lang != "en" and n >= MIN_LANGUAGE_SCORE and n > english and hits[lang] >= 2}


def reads_as_english(text: str) -> bool:
    """Two of English's stop words at least, weighing a vote ("the", "and", "to": :func:`written_languages`'s
    weights); a line of code or of another language has fewer."""
    score, hits = _language_votes(text)
    return score["en"] >= 1.0 and hits["en"] >= 2


def a_persons_name(word: str) -> bool:
    """A given name or surname of the lexicon, a product that is a given name too ("Valentina"), or a word no list
    holds that is spelt like a name ("Rahim": :func:`~governance.privacy.vocabulary.name_shape` at least 0.9) and
    is no word of prose or technology."""
    low = word.casefold()
    if low in given_names() or low in surnames() or is_name_term(word):
        return True
    shape = name_shape(word)
    return shape is not None and shape >= 0.9 and not is_common_word(low) and not is_tech_word(word)
