"""The pseudonym registry as a gazetteer: one name, one placeholder.

The NER model misses names it found elsewhere (on LoCoMo one speaker's name stayed clear in 373 of 437 stored
mentions but was masked in 66 of 93 questions), so a name and its placeholder both end up in memory and a query
matches only one of them. Once a value has been pseudonymised in a project, every later capitalised occurrence of it
gets the same placeholder: the spans of capitalised words (one to three) of a masked text are looked up in the
registry by their keyed digest — HMAC under the project's key, as the registry stores them — so no original is
kept or compared in clear. Pure functions; the registry lookup is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from governance.privacy.engine import PLACEHOLDER_RE, pseudonym_digest
from governance.privacy.vocabulary import all_tech

# Capitalised words not inside a placeholder (``<PERSON_3f2a9c>``) or a word; a possessive is not part of the name.
_WORD_RE = re.compile(r"(?<![<\w])[^\W\d_][\w\-]*(?:['’][^\W\d_]+)*")
_POSSESSIVE_RE = re.compile(r"['’]s$", re.IGNORECASE)
MAX_SPAN_WORDS = 3
# Words that open sentences and are never looked up alone: a registry entry made by an NER mistake on one of them
# must not mask every sentence that starts with it.
_COMMON = frozenset("""
a an the i i'm i've i'd i'll it it's its he she we they you your my our their his her this that these those there
here what when where why how who which yes no not and or but so if then also just oh hey hi hello thanks thank
wow yeah ok okay sure well great good nice cool awesome amazing sounds sorry please dear mr mrs ms dr sir madam
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december today tomorrow yesterday
""".split())

# Names in other scripts have no capital letter to find them by: a name masked there with evidence (a title, an
# introduction, a cue — "王伟先生", "김민수 씨", "السيد أحمد") is looked up where it comes back without one. Han and
# katakana runs are read from each surname character (or katakana letter), 2-4 characters long; Hangul words from a
# surname syllable; words of the caseless scripts (Arabic, Hebrew, Indic, Thai...) one or two at a time.
_HAN_RUN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u30a0-\u30ff]+")
_HANGUL_RUN_RE = re.compile("[\uac00-\ud7a3]+")
_CASELESS_WORD_RE = re.compile("[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0e7f]+")

# ``lookup(digests) -> {digest: placeholder}`` for the registered ones (governance.selectors.pseudonyms_by_digest).
Lookup = Callable[[Iterable[str]], dict[str, str]]


def _spans(text: str) -> list[tuple[int, int]]:
    """Every run of up to three consecutive capitalised words (separated by single spaces), as (start, end)."""
    # Names hold no digits: "D25" of a turn id "D25:4" is never a candidate.
    words = [m for m in _WORD_RE.finditer(text) if m.group(0)[0].isupper() and not any(c.isdigit() for c in m.group(0))]
    runs: list[list[re.Match]] = []
    for m in words:
        if runs and text[runs[-1][-1].end():m.start()] == " ":
            runs[-1].append(m)
        else:
            runs.append([m])
    spans = []
    for run in runs:
        for i in range(len(run)):
            for j in range(i, min(i + MAX_SPAN_WORDS, len(run))):
                start, end = run[i].start(), run[j].end()
                trimmed = _POSSESSIVE_RE.sub("", text[start:end])
                if i == j and trimmed.casefold() in _COMMON:
                    continue
                spans.append((start, start + len(trimmed)))
    if not all(c < "\u0370" for c in text):
        spans += _script_spans(text)
    return spans


def _script_spans(text: str) -> list[tuple[int, int]]:
    from governance.privacy.recognizers.names import _HAN_COMPOUND_SURNAMES, _HAN_SURNAMES, _KO_SURNAMES

    spans = []
    for m in _HAN_RUN_RE.finditer(text):
        run = m.group(0)
        for i, ch in enumerate(run):
            if ch in _HAN_SURNAMES or run[i : i + 2] in _HAN_COMPOUND_SURNAMES or "\u30a0" <= ch <= "\u30ff":
                spans += [(m.start() + i, m.start() + i + n) for n in range(2, 5) if i + n <= len(run)]
    for m in _HANGUL_RUN_RE.finditer(text):
        if m.group(0)[0] in _KO_SURNAMES:
            spans += [(m.start(), m.start() + n) for n in range(2, 5) if n <= len(m.group(0))]
    words = list(_CASELESS_WORD_RE.finditer(text))
    for i, w in enumerate(words):
        spans.append(w.span())
        if i + 1 < len(words) and text[w.end() : words[i + 1].start()] == " ":
            spans.append((w.start(), words[i + 1].end()))
    return spans


def registered_spans(texts: Sequence[str], *, entity_types: Iterable[str], key: bytes,
                     lookup: Lookup, allowed: frozenset[str] = frozenset(),
                     conversation: Sequence[str] = ()) -> list[list[tuple[int, int, str]]]:
    """Per text, the non-overlapping spans (longest first) whose value the registry knows under one of
    ``entity_types``, with their placeholder. The project's allowed terms are never looked up, and a technology word
    only within its conversation (an entry made elsewhere must not keep erasing an engineering team's vocabulary):
    when its placeholder is in ``texts`` or ``conversation`` (the session's recent texts), the word is that name
    there — "a puppy named Shadow", then "Shadow already knows how to sit"."""
    types = sorted(entity_types)
    candidates: list[list[tuple[int, int, list[str], bool]]] = []
    digests: set[str] = set()
    for text in texts:
        per_text = []
        for start, end in _spans(text or ""):
            value = text[start:end]
            tech = all_tech(value)
            if not tech and allowed and all_tech(value, extra=allowed):
                continue
            ds = [pseudonym_digest(t, value, key) for t in types]
            digests.update(ds)
            per_text.append((start, end, ds, tech))
        candidates.append(per_text)
    known = lookup(sorted(digests)) if digests else {}
    if any(tech and any(d in known for d in ds) for per_text in candidates for _, _, ds, tech in per_text):
        established = {m.group(0) for t in (*texts, *conversation) if t for m in PLACEHOLDER_RE.finditer(t)}
    else:
        established = set()
    out: list[list[tuple[int, int, str]]] = []
    for per_text in candidates:
        hits = []
        for s, e, ds, tech in per_text:
            placeholder = next((known[d] for d in ds if d in known), None)
            if placeholder is not None and (not tech or placeholder in established):
                hits.append((s, e, placeholder))
        hits.sort(key=lambda h: (-(h[1] - h[0]), h[0]))
        chosen: list[tuple[int, int, str]] = []
        for s, e, ph in hits:
            if all(e <= cs or s >= ce for cs, ce, _ in chosen):
                chosen.append((s, e, ph))
        out.append(sorted(chosen))
    return out


def apply_registered(texts: Sequence[str], *, entity_types: Iterable[str], key: bytes,
                     lookup: Lookup, allowed: frozenset[str] = frozenset(),
                     conversation: Sequence[str] = ()) -> list[str]:
    """``texts`` with every registered value replaced by its placeholder (see :func:`registered_spans`)."""
    out = []
    for text, spans in zip(texts, registered_spans(texts, entity_types=entity_types, key=key, lookup=lookup,
                                                   allowed=allowed, conversation=conversation), strict=True):
        if not spans:
            out.append(text)
            continue
        parts, pos = [], 0
        for s, e, ph in spans:
            parts += [text[pos:s], ph]
            pos = e
        parts.append(text[pos:])
        out.append("".join(parts))
    return out
