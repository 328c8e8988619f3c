"""Episode narratives and titles: the units' most informative clauses, dated, in the third person and in
chronological order, within the narrative token budget (:func:`_narrate`); the title from the most frequent
noun phrases (:func:`_title`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from memory.consolidators.extractive.lexicons import FIRST_PERSON, GENERIC_NOUNS, TIME_NOUNS
from memory.consolidators.extractive.parsing import (
    _first_person,
    _is_placeholder,
    _is_question,
    _Sentence,
    _term,
    _UnitParse,
)
from memory.consolidators.extractive.rewriting import _relative_date, _third_person
from memory.consolidators.types import unit_time
from memory.gateways.tokens import count_tokens
from memory.informativeness import is_boilerplate


def _date_text(value: datetime | None) -> str:
    return value.date().isoformat() if value is not None else ""


def _clause(sentence: _Sentence) -> str:
    span = sentence.span
    if sentence.role == "assistant":
        return f'the assistant replied: "{sentence.text}"'
    if _is_question(span):
        return f'the user asked: "{sentence.text}"'
    if not _first_person(span):
        return f'the user said: "{sentence.text}"'
    rewritten = _third_person(span)
    if rewritten.startswith("User"):
        rewritten = "the user" + rewritten[4:]
    elif span[0].pos_ != "PROPN" and not _is_placeholder(span[0]):
        rewritten = rewritten[:1].lower() + rewritten[1:]
    note = _relative_date(span.text, unit_time(sentence.unit))[1]
    if note:
        rewritten = rewritten.rstrip(".!") + note + "."
    return rewritten


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# Tokens of a dated opener ("On 2023-05-08, ") in front of a unit's first clause.
_OPENER_TOKENS = 8


def _narrative_budget(units: list[list[tuple[str, float]]], max_tokens: int) -> list[set[str]]:
    """Which clauses of each unit fit in ``max_tokens``: the best-scored clauses first (every unit's best clause
    before any unit's second), the way a summary keeps the most informative statements and drops the rest."""
    # (0 for a unit's best clause, else 1; best score first; earlier unit first) — stable for equal keys.
    candidates = [(min(rank, 1), -score, u_i, clause) for u_i, clauses in enumerate(units)
                  for rank, (clause, score) in enumerate(sorted(clauses, key=lambda c: -c[1]))]
    chosen: list[set[str]] = [set() for _ in units]
    used = 0
    for _, _, u_i, clause in sorted(candidates, key=lambda t: t[:3]):
        cost = count_tokens(clause) + 1 + (0 if chosen[u_i] else _OPENER_TOKENS)
        if used + cost <= max_tokens:
            chosen[u_i].add(clause)
            used += cost
    return chosen


def _narrate(parses: list[_UnitParse], *, max_tokens: int, previous_date: str = "") -> str:
    """The units' key sentences as dated, third-person clauses in chronological order: the most informative
    clauses that fit in ``max_tokens`` (see :func:`_narrative_budget`)."""
    units: list[list[tuple[str, float]]] = []
    for parse in parses:
        scores: dict[str, float] = {}
        for sentence in parse.key_sentences():
            clause = _clause(sentence)
            scores[clause] = max(scores.get(clause, 0.0), sentence.score)
        units.append(list(scores.items()))
    keep = _narrative_budget(units, max_tokens)
    parts: list[str] = []
    last_date = previous_date
    for u_i, parse in enumerate(parses):
        clauses = [c for c, _ in units[u_i] if c in keep[u_i]]
        if not clauses:
            continue
        day = _date_text(unit_time(parse.unit))
        if not day:
            opener = "At an undated point, "
        elif day == last_date:
            opener = "Later that day, "
        else:
            opener = f"On {day}, "
        last_date = day or last_date
        sentences = [opener + clauses[0]] + [_capitalise(c) for c in clauses[1:]]
        parts.append(" ".join(s if s.endswith((".", "!", "?", '"')) else s + "." for s in sentences))
    return " ".join(parts)


def _phrase(chunk: Any) -> str:
    words = []
    for tok in chunk:
        if tok.pos_ in ("DET", "PRON", "PUNCT") or tok.lower_ in FIRST_PERSON or tok.is_stop:
            continue
        if not (tok.is_alpha or _is_placeholder(tok) or re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+", tok.text)):
            continue
        if _is_placeholder(tok) or tok.pos_ == "PROPN":
            words.append(tok.text)
        elif tok.i == chunk.root.i:
            words.append(tok.lemma_.lower() or tok.lower_)
        else:
            words.append(tok.lower_)
    return " ".join(words)


def _ranked_phrases(weighted_docs: Iterable[tuple[int, Any]]) -> list[str]:
    """Noun phrases of the documents, one per head term, most frequent head first (ties: alphabetical)."""
    heads: Counter[str] = Counter()
    phrases: dict[str, Counter[str]] = {}
    weighted_docs = list(weighted_docs)
    # Who speaks ("Caroline: …", the way LoCoMo and many transcripts tag a turn) is not what the turn is about.
    speakers = {doc[0].lower_ for _, doc in weighted_docs if len(doc) > 1 and doc[1].text == ":"}
    for weight, doc in weighted_docs:
        for chunk in doc.noun_chunks:
            root = chunk.root
            if root.pos_ == "PRON" or root.lower_ in FIRST_PERSON:
                continue
            head = _term(root)
            if head in TIME_NOUNS or head in GENERIC_NOUNS or len(head) < 3:
                continue
            if not (root.is_alpha or _is_placeholder(root)):
                continue
            phrase = _phrase(chunk)
            # A title names the situation by its content words: a person's name alone (a placeholder, or a name the
            # masking left: a speaker tag) or a greeting does not.
            if not phrase or is_boilerplate(chunk.sent.text) or all(
                    _is_placeholder(t) or t.ent_type_ == "PERSON" or t.lower_ in speakers
                    for t in chunk if not (t.is_stop or t.is_punct)):
                continue
            heads[head] += weight
            phrases.setdefault(head, Counter())[phrase] += weight
    ranked = []
    for head, _count in sorted(heads.items(), key=lambda kv: (-kv[1], kv[0])):
        best = sorted(phrases[head].items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))[0][0]
        ranked.append((head, best))
    chosen: list[str] = []
    for head, best in ranked:
        if any(head in c.split() or best in c for c in chosen):
            continue
        chosen.append(best)
    return chosen


def _top_phrase(docs: Iterable[Any]) -> str:
    ranked = _ranked_phrases((1, doc) for doc in docs)
    return ranked[0] if ranked else ""


def _title(parses: list[_UnitParse]) -> str:
    weighted = []
    for parse in parses:
        weighted.extend([(2, parse.user_doc), (1, parse.assistant_doc)])
    chosen = [p for p in _ranked_phrases(weighted) if len(p) <= 40][:2]
    if not chosen:
        day = _date_text(unit_time(parses[0].unit)) if parses else ""
        return f"Conversation on {day}" if day else "Conversation"
    return _capitalise(" and ".join(chosen))
