"""The plain tokeniser and the English stopword list, one place for both.

``words``: lower-case ASCII letter-and-digit runs ("User's 2nd café" → ``user s 2nd caf``); ``content_words``: the
same without ``STOPWORDS`` (English function words). ``tokens``: lower-case runs that keep placeholders and
apostrophes whole (``<PERSON_3f2a9c>``, ``user's``), for text that may be masked.

Deliberately elsewhere: full-text search uses PostgreSQL's ``english`` configuration (memory/search/lexical.py),
the informativeness score its own placeholder-, number- and Unicode-aware split and its list of empty words
(memory/informativeness.py), and the names recogniser its list of words that are not names.
"""

from __future__ import annotations

import re

_WORD_RE = re.compile(r"[a-z0-9]+")
_TOKEN_RE = re.compile(r"[\w<>']+")

STOPWORDS = frozenset(
    "a an the and or but if of to in on at for with from by about as is are was were be been being am i me my we "
    "our you your he she it its they them their his her this that these those do does did have has had will would "
    "can could should shall may might must not no so very just also too then than there here what which who whom "
    "when where why how all any some more most other such only own same into over again once s t".split()
)


def words(text: str) -> list[str]:
    return _WORD_RE.findall((text or "").lower())


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS]


def tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall((text or "").lower())
