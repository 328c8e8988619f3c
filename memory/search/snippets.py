"""An episode as the context block shows it: the narrative's sentences that name the query's words, not the whole
narrative.

An episode summarises a stretch of a conversation, often several things said on different days; shown whole it took
a third of a 600-token block (LoCoMo) while one of its sentences held what the question asked, and the exchanges
that answer were left out for want of room. The block therefore shows an episode's title and its sentences that hold
the most of the query's lexemes (the full-text half's own stemming, so "adopted" finds "adoption"; words before
placeholders, which a narrative repeats for its speaker), at most
``RECMEM_SEARCH_EPISODE_SENTENCES`` of them in the narrative's order, with a date on each: a sentence that began
"Later that day" is given the day it continues. The search response keeps the whole narrative.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from memory.search.lexical import PLACEHOLDER_LEXEME_RE, lexemes_held

# A sentence ends at . ! ? (or a closing quote after one, kept with it) followed by a capital, a digit, a quote or a
# placeholder.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”']))\s+(?=[A-Z0-9\"“<\[])")
_DATED = re.compile(r"^(?:On|Since|By|From) (\d{4}-\d{2}-\d{2}),?\s")
_SAME_DAY = re.compile(r"^Later that day,\s+")
# Narratives at most this long are shown whole: cutting saves nothing worth a gap.
WHOLE_MAX_SENTENCES = 2
GAP = " … "


@dataclass(frozen=True)
class _Sentence:
    text: str  # with its day made explicit where the narrative left it implicit
    position: int


def narrative_sentences(narrative: str) -> list[_Sentence]:
    """The narrative cut into sentences, each able to stand alone: "Later that day, …" becomes "On <day>, …"."""
    out: list[_Sentence] = []
    day = ""
    pieces = [p.strip() for p in _SENTENCE_END.split(" ".join((narrative or "").split())) if p.strip()]
    for i, piece in enumerate(pieces):
        dated = _DATED.match(piece)
        if dated:
            day = dated.group(1)
        elif day and _SAME_DAY.match(piece):
            piece = _SAME_DAY.sub(f"On {day}, ", piece)
        out.append(_Sentence(piece, i))
    return out


def episode_snippets(narratives: list[str], lexemes: list[str], limit: int) -> list[str | None]:
    """For each narrative, what the block shows of it for a query of ``lexemes``: its ``limit`` sentences holding the
    most of them (ties: the earlier), in their order, joined by an ellipsis; None where the narrative is shown whole
    (``limit`` 0, a short narrative, or a query with no lexeme). A narrative none of whose sentences holds one (it
    matched by meaning only) is shown by its first sentence. One statement for all narratives."""
    if limit <= 0 or not lexemes:
        return [None] * len(narratives)
    split = [narrative_sentences(n) for n in narratives]
    flat = [s.text for sentences in split for s in sentences]
    held = iter(lexemes_held(flat, lexemes))
    out: list[str | None] = []
    for sentences in split:
        found = [next(held) for _ in sentences]
        if len(sentences) <= max(limit, WHOLE_MAX_SENTENCES):
            out.append(None)
            continue
        # A word in most of the narrative's sentences ("user", its speaker's name) tells none of them apart.
        common = {x for x, n in Counter(x for f in found for x in f).items() if n > len(sentences) / 2}
        # Words before names: a question names the person its narrative speaks of throughout.
        counts = [(len({x for x in f - common if not PLACEHOLDER_LEXEME_RE.match(x)}), len(f - common)) for f in found]
        ranked = sorted((i for i, c in enumerate(counts) if c[1]), key=lambda i: (-counts[i][0], -counts[i][1], i))
        ranked = ranked[:limit] or [0]
        chosen = sorted(ranked)
        text = GAP.join(sentences[i].text for i in chosen)
        out.append(("… " if chosen[0] > 0 else "") + text + (" …" if chosen[-1] < len(sentences) - 1 else ""))
    return out
