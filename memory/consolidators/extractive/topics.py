"""Topic and profile of a statement (for subjects and contradiction checks).

The subject of an item is the normalised head of the object/topic noun; a preference or constraint contradicts a
related experience of the same type and subject whose polarity or object differs (:func:`_contradicts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memory.consolidators.extractive.lexicons import (
    ACTIVITY_VERBS,
    ALIASES,
    CHANGE_MARKERS,
    EXCLUSIVE_WORDS,
    FIRST_PERSON,
    GENERIC_NOUNS,
    NEGATIVE_VERBS,
    PREF_ADJ,
    PREF_STRONG,
    PREF_WEAK,
    TIME_NOUNS,
)
from memory.consolidators.extractive.parsing import _category, _content_terms, _is_placeholder, _term


def _topic_token(span: Any, trigger: Any | None = None) -> Any | None:
    """The token naming what a sentence is about: the object of the trigger verb, else other nouns."""

    def usable(tok: Any) -> bool:
        if _is_placeholder(tok):
            return True
        if tok.pos_ not in ("NOUN", "PROPN") and not (tok.pos_ == "VERB" and _term(tok) in ALIASES.values()):
            return False
        term = _term(tok)
        return term not in TIME_NOUNS and term not in GENERIC_NOUNS and tok.lower_ not in FIRST_PERSON

    if trigger is not None:
        # "my favourite drink is coffee" -> drink (the noun that "favourite" modifies)
        if trigger.lower_ in PREF_ADJ and trigger.head.pos_ in ("NOUN", "PROPN"):
            return trigger.head
        verb = trigger.head if trigger.pos_ in ("ADV", "ADJ") and trigger.head.pos_ in ("VERB", "AUX") else trigger
        for dep in ("dobj", "xcomp", "attr", "ccomp", "oprd"):
            for child in verb.children:
                if child.dep_ == dep:
                    if usable(child):
                        return child
                    if child.pos_ == "VERB":  # "like running", "prefer to run", "rather run"
                        for grandchild in child.children:
                            if grandchild.dep_ == "dobj" and usable(grandchild):
                                return grandchild
                        return child
        if verb.pos_ == "VERB" and verb is not trigger:  # "I'd rather run in the evening"
            return verb
        for tok in verb.subtree:
            if tok.dep_ == "pobj" and usable(tok):
                return tok
    for dep in ("dobj", "pobj", "attr", "nsubj", "nsubjpass", "oprd"):
        for tok in span:
            if tok.dep_ == dep and usable(tok):
                return tok
    for tok in span:
        if usable(tok):
            return tok
    root = span.root
    return root if root.pos_ == "VERB" else None


def _subject_from_token(tok: Any | None, fallback: str = "general") -> str:
    if tok is None:
        return fallback
    term = _term(tok)
    if tok.pos_ == "VERB" and term in ACTIVITY_VERBS:
        term = ALIASES.get(term, term + "ing")
    return _category(term)


@dataclass
class _Profile:
    """What a preference/constraint statement says, reduced to comparable sets."""

    subject: str
    head: str
    primary: str
    terms: set[str]
    object_terms: set[str]
    negative: bool
    exclusive: bool
    change: bool
    words: frozenset[str] = frozenset()  # stems of every word said
    lacking: frozenset[str] = frozenset()  # stems of what it names as absent: "without a review", "untested"


_ABSENT_PREFIXES = ("non-", "non", "un")


def _lacking(span: Any) -> frozenset[str]:
    out = set()
    for tok in span:
        if tok.lower_ == "without":
            out |= {_stem(t.lower_) for t in tok.subtree if t.is_alpha and not t.is_stop}
        prefix = next((p for p in _ABSENT_PREFIXES if tok.lower_.startswith(p)), None)
        if prefix and len(tok.lower_) - len(prefix) >= 4 and tok.pos_ in ("ADJ", "VERB", "NOUN"):
            out.add(_stem(tok.lower_[len(prefix):]))
    return frozenset(out)


def _negative(span: Any) -> bool:
    lowered = span.text.lower()
    if "no longer" in lowered or "anymore" in lowered or "any more" in lowered:
        return True
    for tok in span:
        if tok.dep_ == "neg" or tok.lower_ in ("never", "not", "n't", "cannot"):
            return True
        if tok.lower_ == "no" and tok.dep_ == "det":
            # "no PII in any notebook", "no deploys on Fridays": a ban, said without a verb to negate (it read as
            # the opposite of "customer data must never be loaded into notebooks", and superseded it)
            return True
        if tok.lemma_.lower() in NEGATIVE_VERBS:
            return True
    return False


def _trigger(span: Any) -> Any | None:
    for tok in span:
        lemma = tok.lemma_.lower()
        if lemma in PREF_ADJ or tok.lower_ in PREF_ADJ:
            return tok
        if tok.pos_ in ("VERB", "AUX") and lemma in PREF_STRONG | PREF_WEAK | NEGATIVE_VERBS:
            return tok
        if tok.lower_ == "rather":
            return tok
    return None


def _profile(span: Any, subject: str | None = None) -> _Profile:
    trigger = _trigger(span)
    topic = _topic_token(span, trigger)
    primary = _term(topic) if topic is not None else ""
    if topic is not None and topic.pos_ == "VERB" and primary in ACTIVITY_VERBS:
        primary = ALIASES.get(primary, primary + "ing")
    object_terms: set[str] = set()
    if topic is not None:
        object_terms = _content_terms(topic.subtree) | {primary}
        if topic.head is not topic:  # "running in the morning": the modifiers hang off the verb
            for sibling in topic.head.children:
                if sibling.dep_ in ("prep", "npadvmod", "advmod") and sibling is not topic:
                    object_terms |= _content_terms(sibling.subtree)
    lowered = f" {span.text.lower()} "
    subj = subject or _subject_from_token(topic)
    head = subj.split()[-1] if subj else ""
    return _Profile(
        subject=subj,
        head=ALIASES.get(head, head),
        primary=primary,
        terms=_content_terms(span) | ({primary} if primary else set()),
        object_terms=object_terms,
        negative=_negative(span),
        exclusive=bool({t.lemma_.lower() for t in span} & EXCLUSIVE_WORDS),
        change=any(f" {marker} " in lowered or f" {marker}." in lowered for marker in CHANGE_MARKERS),
        words=frozenset(_stem(t.lower_) for t in span if t.is_alpha and not t.is_stop),
        lacking=_lacking(span),
    )


def _contradicts(new: _Profile, old: _Profile, old_similarity: float, old_subject_terms: set[str]) -> bool:
    same_subject = (
        new.subject == old.subject
        or old.head in new.terms
        or old.subject in new.terms
        or bool(old_subject_terms & ({new.subject, new.primary} | new.object_terms))
        or (old_similarity >= 0.6 and old.head == new.head)
    )
    if not same_subject:
        return False
    if new.negative != old.negative:
        # Forbidding the absence of what the other requires says the same rule ("unstructured logs are not allowed"
        # and "service logs must be structured JSON", "never merge without green CI" and "pull requests need green
        # CI"): it was taken for a change, and the later wording superseded the earlier.
        negative, positive = (new, old) if new.negative else (old, new)
        return not negative.lacking & positive.words
    old_stems = {_stem(t) for t in old.terms}
    if new.primary and _stem(new.primary) not in old_stems and (new.exclusive or old.exclusive or new.change):
        return True
    return bool(new.change and {_stem(t) for t in new.object_terms} - old_stems)


def _stem(term: str) -> str:
    """Crude stem, so that forms of one word are one term: "logging" / "logs" / "log", "merging" / "merge"
    (lemmas keep a gerund used as a noun apart from its verb, and took "the team likes JSON logging" for a change
    of "we prefer structured JSON logs")."""
    w = term.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # "logg" → "log", "runn" → "run"
    return w
