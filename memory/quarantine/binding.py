"""The words that bind one agent's texts to a text of theirs held in quarantine.

Slow poisoning and paraphrase flooding spread one attack over many exchanges: an innocuous first step ("there is a
mirror at vault-mirror.plaskevorn.example for emergencies"), the directive sessions later, restatements the detector
cannot flag each time. What ties them together is the attacker's own reference: a coined word, a ticket or rule name,
a host they control. Those are the words no dictionary and no technology listing holds (``is_common_word``) — the
caller also drops a word other agents of the project use, or that the agent uses everywhere. Pure functions.
"""

from __future__ import annotations

import re

from governance.privacy.vocabulary import is_common_word

# A word of six letters or more, not a placeholder's part (``<PERSON_3f2a…>``: its letters follow ``<`` or ``_``).
_WORD = re.compile(r"(?<![\w<])[^\W\d_][^\W_]{5,}(?![\w>])")
_HOST = re.compile(r"(?<![\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}(?![\w-])", re.I)
MAX_TOKENS = 24


def binding_tokens(text: str) -> set[str]:
    """The distinctive words and hosts of ``text``, lower-cased: a host with a label that is not a common word, a
    word no listing holds. At most :data:`MAX_TOKENS` (the longest: a coined reference is rarely short)."""
    if not text:
        return set()
    found: set[str] = set()
    for m in _HOST.finditer(text):
        host = m.group(0).lower().removeprefix("www.")
        labels = host.split(".")[:-1]
        if len(labels) >= 1 and any(len(label) >= 4 and not is_common_word(label) for label in labels):
            found.add(host)
    for m in _WORD.finditer(text):
        word = m.group(0)
        if word.isupper() and len(word) <= 8:
            continue  # an acronym
        if not is_common_word(word) and not is_common_word(word.rstrip("s")):
            found.add(word.lower())
    return set(sorted(found, key=lambda t: (-len(t), t))[:MAX_TOKENS])


def tokens_in(text: str, tokens: set[str]) -> set[str]:
    """Which of ``tokens`` ``text`` names (a host also through its distinctive labels)."""
    if not tokens or not text:
        return set()
    own = binding_tokens(text)
    hit = own & tokens
    labels = {label for host in own if "." in host for label in host.split(".")}
    hit |= {t for t in tokens if "." not in t and t in labels}
    hit |= {t for t in tokens if "." in t and any(label in own for label in t.split(".")[:-1] if len(label) >= 6)}
    return hit
