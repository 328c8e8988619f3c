"""What "it" and "they" stand for: a statement must read on its own.

A sentence picked as a statement often opens with a pronoun whose referent the previous sentence named ("I just
joined a writers group. It's unbelievable …"). Stored alone, "It's unbelievable …" says nothing a search can find
or a reader can use; on LoCoMo one candidate statement in seven opened that way. Here the subject pronoun of a
sentence is resolved to a noun phrase of one of the two sentences before it, in the same text, when exactly the
clues a reader uses agree (number, a thing and not a person or a time, no pronoun chain); when they do not, the
statement stays as it was said. (Leaving out the unresolved ones that say little besides — "It's one of my
favourites!" — was measured and not kept: on LoCoMo it cost the 600-token block about 0.01–0.02 in one run.)

Only "it" and "they" are resolved. "This" and "that" mostly point at a whole event or at a shared photo ("This is a
big move towards my goal"), which no noun phrase replaces. An "it" that stands for nothing ("It's great to see
you", "It feels good knowing …") needs no referent and is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memory.consolidators.extractive.lexicons import GENERIC_NOUNS, PLACEHOLDER_RE, TIME_NOUNS

_RESOLVED = ("it", "they")
# Nouns of people: "it" never stands for them ("My grandma gave me this necklace. It's …" is the necklace).
_PEOPLE = frozenset(
    "mom mum mother dad father parent parents grandma grandmother grandpa grandfather granny nana sister brother "
    "sibling siblings wife husband partner boyfriend girlfriend fiance fiancee son daughter kid kids child children "
    "baby aunt uncle cousin niece nephew friend friends buddy pal colleague colleagues coworker coworkers workmate "
    "workmates boss manager teammate teammates neighbor neighbour roommate mentor teacher student guy girl boy man "
    "woman lady person someone everyone anyone nobody folks team members member customer customers client "
    "clients".split()
)
# Groups: "they" may stand for them ("Family is everything to me. They're my biggest support.").
_GROUPS = frozenset("family team group crew staff community club band class network people folks gang".split())
_COPULAS = frozenset("be feel seem sound look become get remain stay".split())
_CLAUSES = frozenset(("xcomp", "ccomp", "csubj", "acl", "advcl", "relcl"))
_MODIFIERS = frozenset(("det", "amod", "compound", "nummod", "poss", "nmod", "quantmod", "predet"))
_COMPLEMENTS = frozenset(("acomp", "dobj", "xcomp", "oprd", "ccomp", "prep", "advmod"))
_WH = ("how", "what", "when", "why", "whether", "if")
_MAX_WORDS = 8  # a longer referent is a clause retold, not a name for the thing


@dataclass(frozen=True)
class Reference:
    """A subject pronoun of a sentence and what it stands for (``words``, ready to replace it) or None."""

    pronoun: Any
    words: str | None


def _is_expletive(pronoun: Any) -> bool:
    """"It's great to see you", "It feels good knowing …", "It's amazing how …", "It sounds like …": an "it"
    that anticipates a clause after a copula stands for nothing."""
    verb = pronoun.head
    lemma = verb.lemma_.lower()
    if lemma not in _COPULAS:
        return False
    if lemma != "be" and any(c.lower_ == "like" or c.left_edge.lower_ == "like" for c in verb.rights):
        return True
    for tok in verb.subtree:
        if tok.i <= verb.i or tok.dep_ not in _CLAUSES:
            continue
        if tok.tag_ == "VBG" or tok.left_edge.lower_ in _WH or any(
                c.dep_ in ("aux", "mark") and c.lower_ in ("to", "that", *_WH) for c in tok.children):
            return True
    return False


def _subject_pronoun(span: Any) -> Any | None:
    """The pronoun "it"/"they" that opens the sentence as the subject of its main verb ("Yeah, it was great"),
    or None. One after a clause of the same sentence ("I went to a fair, it was great") has its referent there."""
    root = span.root
    for tok in span:
        if tok.i >= root.i:
            return None
        if tok.lower_ in _RESOLVED and tok.dep_ in ("nsubj", "nsubjpass") and tok.head == root:
            return tok
        if not (tok.is_punct or tok.pos_ in ("INTJ", "CCONJ", "ADV") or PLACEHOLDER_RE.fullmatch(tok.text)):
            return None
    return None


def _plural(token: Any) -> bool:
    return token.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in token.children)


def _phrase(head: Any) -> list[Any]:
    """The noun phrase of ``head``: its modifiers on the left and a short prepositional complement ("a meaningful
    experience at a military memorial"), never a clause."""
    start = head.i
    for child in head.lefts:
        if child.dep_ in _MODIFIERS:
            start = min(start, child.left_edge.i)
    words = list(head.doc[start:head.i + 1])
    for child in head.rights:
        if child.dep_ == "prep" and child.lower_ in ("of", "at", "in", "on", "for", "from", "about", "with"):
            tail = list(child.subtree)
            if len(words) + len(tail) <= _MAX_WORDS and not any(t.dep_ in _CLAUSES for t in tail):
                words += tail
            break
    return words


def _candidates(sentence: Any, plural: bool) -> list[list[Any]]:
    """Noun phrases of ``sentence`` that "it" (singular) or "they" (plural) may stand for, best first: a subject,
    then an object, then a prepositional object. Empty when the sentence has a pronoun of the same reference
    itself (a chain: "I make it with almond flour. It's my favourite." — "it" is the cake, never named)."""
    if any(t.lower_ in (("they", "them", "their") if plural else ("it", "its")) for t in sentence):
        return []
    if any(t.dep_ in ("nsubj", "nsubjpass") and t.head == sentence.root and t.lower_ in ("this", "that")
           for t in sentence):
        return []  # "This is my go-to place. It helps me …": "it" continues "this", which names nothing
    rank = {"nsubj": 0, "nsubjpass": 0, "dobj": 1, "attr": 2, "pobj": 3}
    found = []
    for tok in sentence:
        if tok.dep_ not in rank or tok.pos_ not in ("NOUN", "PROPN"):
            continue
        low = tok.lower_
        placeholder = bool(PLACEHOLDER_RE.fullmatch(tok.text))
        if placeholder and tok.text.startswith(("<PERSON", "<NRP")):
            continue
        if low in TIME_NOUNS or low in GENERIC_NOUNS or tok.ent_type_ in ("DATE", "TIME", "PERSON", "CARDINAL"):
            continue
        if plural and not (_plural(tok) or low in _GROUPS):
            continue
        if not plural and (_plural(tok) or low in _PEOPLE):
            continue
        if any(c.lower_ in ("their", "its", "his", "her", "your") for c in tok.children):
            continue  # "their love …" refers back itself; "your …" is the listener's, not the user's
        # a gerund with its complements is the phrase ("feeling supported by all of you"), not its head word
        gerund = tok.lower_.endswith("ing") and any(c.dep_ in _COMPLEMENTS for c in tok.rights)
        words = list(tok.subtree) if gerund else _phrase(tok)
        if len(words) > _MAX_WORDS:
            continue
        found.append((rank[tok.dep_], tok.i, words))
    found.sort(key=lambda f: (f[0], f[1]))
    return [words for _rank, _i, words in found]


def reference(span: Any) -> Reference | None:
    """The subject pronoun of ``span`` that needs a referent, and the best referent the two sentences before it
    in the same text give, the nearer sentence first (``words`` None when they give none)."""
    pronoun = _subject_pronoun(span)
    if pronoun is None:
        return None
    plural = pronoun.lower_ == "they"
    if not plural and _is_expletive(pronoun):
        return None
    before = [s for s in span.doc.sents if s.end <= span.sent.start][-2:]
    for previous in reversed(before):
        candidates = _candidates(previous, plural)
        if candidates:
            return Reference(pronoun=pronoun, words=_render(candidates[0]))
    return Reference(pronoun=pronoun, words=None)


def _render(words: list[Any]) -> str:
    """The referent as it reads in a statement: "a mountaineering trip" -> "the mountaineering trip", "my art" ->
    "the user's art"."""
    out = []
    for i, tok in enumerate(words):
        low = tok.lower_
        if i == 0 and low in ("a", "an"):
            text = "the"
        elif low in ("my", "mine"):
            text = "the user's"
        elif low == "me":
            text = "the user"
        else:
            text = tok.text
        out.append(text + (tok.whitespace_ if i < len(words) - 1 else ""))
    return "".join(out)
