"""Salience override: a cheap, rule-based detector for one-off but critical units (no LLM, no embedding).

A unit that states a deadline, a hard rule ("never deploy on Fridays", "you must rotate the key"), or a medical or
legal constraint becomes a consolidation candidate even when its topic does not recur. Returns a short reason, or
"" when nothing fires. Tuned to stay quiet on small talk: epistemic "must" ("that must be fun"), habits ("I always
…"), and encouragement ("never give up") are not rules — on the LoCoMo dev chats (casual conversation) the loose
first version fired on 8.5 % of units, which cost as much as the recurrence trigger itself.
"""

from __future__ import annotations

import re

_DEADLINE = re.compile(
    r"\b(deadline|due (?:by|on|date)|no later than|must be (?:done|finished|submitted|delivered|paid) by|"
    r"expires? (?:on|at)|cut-?off (?:date|time))\b", re.I)

# Imperative or obligation forms only.
_RULE = re.compile(
    r"(?:^|[.!?;:]\s+|\n|\b(?:please|remember to|make sure (?:to|you)|be sure to)\s+)(?:always|never)\s+"
    r"(?!(?:give up|stop (?:believing|dreaming)|forget (?:that|how|what)|mind|been|up|good|here|there|saw|"
    r"heard|fun|great|nice|happy|a|an|the|so|too|thought|knew|wanted|had|felt|a joy|a pleasure)\b)"
    r"(?![a-z]+(?:ing|ed)\b)[a-z]+"
    r"|\b(?:you|we|agents?|users?|everyone|the team)\s+(?:must(?:n't| not)?|should never|should always|"
    r"have to always|need to always)\s+(?!(?:be|feel|have|'ve|know|love|miss|think|really|surely|definitely|"
    r"truly|enjoy)\b)[a-z]+"
    r"|\b(?:do not|don't) ever\b|\bunder no circumstances\b|\bat all times\b"
    r"|\bis (?:strictly )?(?:forbidden|prohibited|mandatory|not allowed)\b", re.I)

_MEDICAL = re.compile(
    r"\b(allerg(?:y|ic|ies)|anaphyla\w*|diabet\w*|epilep\w*|asthma\w*|medication|prescri\w*|dosage|insulin|"
    r"blood pressure|seizure\w*|heart condition|gluten[- ]free|lactose[- ]intolerant|dietary restriction)\b",
    re.I)

_LEGAL = re.compile(
    r"\b(gdpr|hipaa|lawsuit|legal(?:ly)? (?:required|binding|obligat\w+)|compliance (?:rule|requirement|policy)|"
    r"subpoena|non-?disclosure agreement|nda|licen[cs]e terms|regulatory requirement)\b", re.I)


def salience_reason(user: str, assistant: str = "") -> str:
    """Why this unit is critical on its own ("deadline", "rule", "medical", "legal"), or "" if it is not.

    Rules and deadlines count when the user states them; medical and legal constraints from either side.
    """
    if _DEADLINE.search(user):
        return "deadline"
    if _RULE.search(user):
        return "rule"
    text = f"{user}\n{assistant}"
    if _MEDICAL.search(text):
        return "medical"
    if _LEGAL.search(text):
        return "legal"
    return ""
