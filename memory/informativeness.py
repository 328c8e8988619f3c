"""How much a statement says: only experiences that say something are worth a search slot.

Pure functions over the statement's text, the same for every consolidator (extractive, LLM, the bench's eager
baseline), so the score stored with an experience means one thing. ``boilerplate`` names the statements no
consolidator should keep: greetings, thanks, reassurance and emotional support, small talk — on LoCoMo they were most
of the 324 experiences written for three conversations and filled the experience slots of a search without answering
anything.
"""

from __future__ import annotations

import math
import re

# Not core.text.words: case, Unicode letters, whole placeholders and numbers with their punctuation all matter
# here (a capital marks a name, "3:30" is one fact); _EMPTY is wider than STOPWORDS (feeling and politeness).
_WORD_RE = re.compile(r"<[A-Z][A-Z0-9_:]*[^>]*>|[^\W\d_][\w'’\-]*|\d[\d:/.,]*")
_PLACEHOLDER_RE = re.compile(r"^<[A-Z]")

# Function words and the words of feeling and politeness that carry no fact of their own.
_EMPTY = frozenset("""
a an the and or but if then so as at by for from in into of off on onto out over to up with about above after
again against all am are is was were be been being do does did doing have has had having i me my myself we our
ours us you your yours yourself he him his she her hers it its they them their theirs this that these those what
which who whom whose when where why how there here not no nor only own same too very can will just should would
could may might must shall than also still even ever any each both few more most other some such once because
until while during before between through again further really quite pretty lot lots much many well yes yeah
yep okay ok oh wow hey hi hello thanks thank great good nice cool awesome amazing wonderful fantastic glad happy
sure sounds sound totally definitely absolutely always never feel feels feeling felt think thought know knew
like love loved get got go going gonna want wanna let lets let's say said tell told make made thing things
stuff something anything everything nothing someone anyone everyone one ones way really time day today glad
proud care hope hoping wish guess mean means keep kind sort bit little big best better super true truly
user assistant thankful grateful blessed excited sad sorry
""".split())

# Greetings, thanks, reassurance and support, small talk: what a conversation is made of between its facts.
_BOILERPLATE_RE = re.compile(
    r"\b(?:hi|hey|hello|good (?:morning|afternoon|evening)|long time no (?:see|talk)|nice to (?:see|hear|meet)|"
    r"great to (?:see|hear|chat|talk)|good to (?:see|hear|chat|talk)|how are you|how(?:'s| is| have) (?:it|you|things)|"
    r"what'?s up|catch(?:ing)? up|talk (?:soon|later)|see you|take care|bye|"
    r"thanks?(?: you| so much| a lot)?|appreciate (?:it|that|you)|"
    r"(?:i'?m|i am|we'?re|we are) (?:always )?here for you|(?:so |really )?proud of you|you(?:'ve)? got this|"
    r"you can do (?:it|this)|hang in there|keep (?:it up|going|pushing)|i believe in you|"
    r"(?:so |really )?(?:happy|glad) for you|sounds? (?:great|awesome|amazing|fun|good|lovely|wonderful)|"
    r"that'?s (?:great|awesome|amazing|so cool|cool|wonderful|fantastic|lovely)|means (?:a lot|so much)|"
    r"(?:i'?m|i am) (?:so )?sorry (?:to hear|for)|"
    r"you(?:'re| are) (?:so )?(?:welcome|amazing|awesome|the best|kind|sweet)|"
    r"no worries|no problem|my pleasure|good luck|all the best|best of luck|wish(?:ing)? you|"
    r"(?:nice|good|great|awesome) (?:job|work|one)|well done|way to go|congrat(?:s|ulations)|"
    r"keep (?:me|us|you) posted|let (?:me|us) know how it goes)\b",
    re.IGNORECASE,
)


def content_terms(text: str) -> list[str]:
    """The words of ``text`` that can carry a fact: names, placeholders, numbers and words that are not function,
    feeling or politeness words."""
    out = []
    for word in _WORD_RE.findall(text or ""):
        lowered = word.lower().strip("'’-")
        if _PLACEHOLDER_RE.match(word) or word[0].isdigit():
            out.append(lowered)
        elif len(lowered) > 2 and lowered not in _EMPTY:
            out.append(lowered)
    return out


def boilerplate_share(text: str) -> float:
    """The share of the statement's characters inside greeting, thanks, support or small-talk phrases."""
    text = text or ""
    if not text.strip():
        return 1.0
    covered = sum(m.end() - m.start() for m in _BOILERPLATE_RE.finditer(text))
    return min(1.0, covered / max(len(text.strip()), 1))


def is_boilerplate(text: str) -> bool:
    """A statement that is mostly greeting, thanks, support or small talk, or says nothing concrete."""
    terms = set(content_terms(text))
    return not terms or (bool(_BOILERPLATE_RE.search(text or "")) and len(terms) < 4)


def informativeness(text: str) -> float:
    """0–1: distinct content terms saturating (2 → 0.44, 5 → 0.76, 10 → 0.94), more for names, placeholders and numbers,
    much less when the statement is boilerplate."""
    terms = content_terms(text)
    distinct = set(terms)
    score = 1.0 - math.exp(-len(distinct) / 3.5)
    specific = {t for t in distinct if t.startswith("<") or t[0].isdigit()}
    specific |= {w.lower() for w in re.findall(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}", text or "")}
    score = min(1.0, score + 0.05 * min(len(specific), 4))
    if is_boilerplate(text):
        score *= 0.25
    else:
        score *= 1.0 - 0.5 * boilerplate_share(text)
    return round(max(0.0, min(1.0, score)), 4)
