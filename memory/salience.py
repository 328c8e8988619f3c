"""Salience override: a cheap, rule-based detector for one-off but critical units (no LLM, no embedding).

A unit that states a deadline, a hard rule ("never", "always", "must"), or a medical or legal constraint becomes a
consolidation candidate even when its topic does not recur. Returns a short reason, or "" when nothing fires.
"""

from __future__ import annotations

import re

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("deadline", re.compile(
        r"\b(deadline|due (?:by|on|date)|no later than|must be (?:done|finished|submitted|delivered) by|"
        r"expires? (?:on|at)|cut-?off (?:date|time))\b", re.I)),
    ("rule", re.compile(
        r"\b(never|always|must(?:n't| not)?|do not ever|don't ever|under no circumstances|at all times|"
        r"is (?:strictly )?(?:forbidden|prohibited|mandatory|required))\b", re.I)),
    ("medical", re.compile(
        r"\b(allerg(?:y|ic|ies)|anaphyla\w*|diabet\w*|epilep\w*|asthma\w*|pregnan\w*|medication|prescri\w*|"
        r"dosage|insulin|blood pressure|seizure\w*|heart condition|gluten[- ]free|lactose[- ]intolerant|"
        r"dietary restriction)\b", re.I)),
    ("legal", re.compile(
        r"\b(gdpr|hipaa|contract\w*|lawsuit|legal(?:ly)? (?:required|binding)|compliance|court|subpoena|"
        r"non-?disclosure|nda|licen[cs]e terms|regulat(?:ion|ory))\b", re.I)),
]

# "always" / "never" in small talk ("I always wanted a dog") is not a rule; require an imperative or a
# first/second-person obligation nearby.
_RULE_CONTEXT = re.compile(
    r"\b(you|we|i|please|make sure|remember|our|my|the team|agents?|users?)\b", re.I)


def salience_reason(user: str, assistant: str = "") -> str:
    """Why this unit is critical on its own ("deadline", "rule", "medical", "legal"), or "" if it is not."""
    for reason, pattern in _RULES:
        match = pattern.search(user) or (pattern.search(assistant) if reason != "rule" else None)
        if not match:
            continue
        if reason == "rule":
            window = user[max(0, match.start() - 60): match.end() + 60]
            if not _RULE_CONTEXT.search(window) or re.search(r"\b(always|never) (wanted|been|thought|knew)\b",
                                                               window, re.I):
                continue
        return reason
    return ""
