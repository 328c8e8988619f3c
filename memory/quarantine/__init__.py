"""The quarantine detector: text written to be *obeyed by an AI* that reads memory, or to make it leak or run code.

Shared memory is injected into other agents' prompts, so what one agent, its user or a tool's output wrote becomes
another agent's input. The detector looks for the families of that attack, and only those:

* **override** — "ignore / disregard / forget previous instructions", "your instructions are void";
* **directive** — words addressed to the AI that reads this ("note to the AI:", "if you are an AI assistant",
  "when you read this, …", "do not tell the user", "reveal your system prompt", jailbreak vocabulary, "remember this
  for all future sessions");
* **role** — role markers and fake prompt sections (``system:`` at a line start, ``<|im_start|>``, ``[INST]``,
  ``### System``, ``<system>``, ``</memory>``-style closers, "BEGIN SYSTEM PROMPT", "end of tool output");
* **remote code** — remote content piped into an interpreter (``curl … | sh``, ``wget … | bash``, ``iex (iwr …)``,
  ``bash <(curl …)``, ``powershell -enc``);
* **exfiltration** — "send / post / forward / upload … to <URL, address or host>" of conversation data or secrets, or
  in secret / on every request; markdown images whose address carries data;
* **hidden** — zero-width, bidi and tag characters, HTML and markdown comments, hidden or invisibly styled markup and
  attribute values carrying any of the above; encoded payloads (base64, base32, base85, hex, rot13, URL and HTML
  escapes, spaced, leetspeak or look-alike letters, reversed text, and the spellings an AI reads back without a key:
  bits, Morse, NATO, Braille, any Caesar shift, Pig Latin, a rail fence … — :mod:`.ciphers`) that decode to any of
  the above;
* **weakening** — a rule that switches a safeguard off (verification, authentication, review, signatures, audit logs,
  CSRF, 2FA, the firewall) or hands privileges to everyone;
* **promotion** — a request to make the text project-wide, verified, reviewed or trusted, or to skip review.

Two layers read every view of a text (:mod:`.views`: normalised, hidden segments, decoded payloads, obfuscations):
:mod:`.phrases`, the wordings of the families as first written from the tuned benchmark set, and :mod:`.mechanisms`,
which reads the mechanism instead of the wording — who is addressed (the machine reading this, an AI told what to tell
*other* people, a trigger on other people's questions), an override in any of eight languages and word orders, a
transfer verb + something sensitive + a destination in any order, fetched content reaching an interpreter, a
safeguard switched off by rule. Development corpus: ``memory/tests/data/poison_corpus.py``.

Imperative team rules ("we always run migrations before deploy", "never push to main without review", "you must use
UTC in the API") are not among them, nor is a user's preference about replies to *them* ("always answer me in
French"): the detector looks for an AI addressed as such, for orders reaching other people, for instruction overrides,
prompt structure, remote code, exfiltration and safeguards switched off, never for "always / never / must" alone; a
warning against the act ("never disable TLS") is not the act. Output of a tool (or an import) gets a slightly wider
net: there, second-person orders about how to answer or what to remember are themselves the attack (nobody's user said
them).

Pure functions, no database: :func:`quarantine_reason` returns a short reason ("" when clean).
"""

from __future__ import annotations

import re

from memory.quarantine.mechanisms import mechanisms
from memory.quarantine.phrases import phrase_families
from memory.quarantine.views import HIDDEN_HINTS, hidden_characters, hidden_segments, views

__all__ = ["FAMILIES", "detect", "quarantine_reason"]

FAMILIES: dict[str, str] = {
    "override": "overrides previous instructions",
    "directive": "a directive to the AI",
    "role": "role marker or fake prompt section",
    "remote_code": "pipes remote content into a shell",
    "exfiltration": "sends data to an outside address",
    "hidden": "hidden text",
    "weakening": "a rule that switches off a safeguard",
    "promotion": "asks to be promoted, verified or trusted",
}


def _scan(text: str, *, tool: bool) -> list[str]:
    reasons: list[str] = []
    for how, view in views(text):
        strict = how.startswith("obfuscated") or how in _LETTER_SHIFTS
        # a transformed view of plain text: only the unmistakable families count
        families = phrase_families(view, tool=tool and not strict, strict=strict)
        if not strict or _READABLE.search(view):  # reversed or rot13 ordinary text reads as nothing: skip the work
            families += [f for f in mechanisms(view, tool=tool and not strict) if f not in families
                         and (not strict or f in _UNMISTAKABLE)]
        for family in families:
            reason = f"{FAMILIES[family]}" + (f", {how}" if how else "")
            if reason not in reasons:
                reasons.append(reason)
        if reasons and not how:
            break  # plainly visible: the decoded views add nothing a reviewer needs
    return reasons


# letter substitutions of the whole text: ordinary text comes out as noise, so only the unmistakable families count
_LETTER_SHIFTS = frozenset({"encoded (rot13)", "encoded (rot47)", "encoded (atbash)"})
# a transformed view worth reading in full holds common English words
_READABLE = re.compile(r"\b(?:the|you|your|to|and|all|ignore|send|from)\b", re.I)
# what a transformed view of plain text (rot13, leetspeak, reversed) may show without being read into it
_UNMISTAKABLE = frozenset({"override", "directive", "role", "remote_code", "exfiltration"})


def _hinted(segment: str) -> bool:
    """Hidden text that names an AI, or carries two words of what is asked of one (a tooling comment such as
    ``prettier-ignore`` carries one)."""
    words = {w.lower().removesuffix("s") for w in HIDDEN_HINTS.findall(segment)}
    return bool(words & _AI_WORDS) or len(words) >= 2


_AI_WORDS = frozenset({"ai", "assistant", "agent", "llm", "model", "gpt", "claude"})


def detect(text: str, *, tool: bool = False, shared: bool = True) -> list[str]:
    """The reasons ``text`` is held (empty: clean). ``tool``: the text is a tool's output or an import. ``shared``
    False (personal scope): a rule that switches off a safeguard is its author's own business, not held."""
    if not text or not text.strip():
        return []
    reasons = _detect(text, tool=tool)
    return reasons if shared else [r for r in reasons if not r.startswith(FAMILIES["weakening"])]


def _detect(text: str, *, tool: bool) -> list[str]:
    reasons = [f"{FAMILIES['hidden']} ({how})" for how in hidden_characters(text)]
    for segment, hidden in hidden_segments(text):
        inner = _scan(segment, tool=True)
        if inner or (hidden and _hinted(segment)):
            reasons.append(FAMILIES["hidden"] + " (comment or invisible markup)")
            reasons.extend(r for r in inner if r not in reasons)
    reasons.extend(r for r in _scan(text, tool=tool) if r not in reasons)
    return reasons


def quarantine_reason(*texts: str, tool: bool = False, shared: bool = True) -> str:
    """One short reason for the texts of one row ("" when none is flagged): what a reviewer reads first."""
    reasons: list[str] = []
    for text in texts:
        reasons.extend(r for r in detect(text, tool=tool, shared=shared) if r not in reasons)
    return "; ".join(reasons)[:300]
