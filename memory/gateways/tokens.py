"""Offline token counting: an approximation of OpenAI's cl100k BPE that never touches the network.

Why not tiktoken: it downloads its encoding files on first use, and this service must run without network
access. The counts here are used for cost accounting when an endpoint does not report ``usage`` and for
context-budget estimates, so a close, slightly pessimistic estimate is good enough.

How it works (``TOKENIZER_NAME = "regex-approx-cl100k"``):

1. Pre-tokenise with a standard-library regex modelled on the cl100k / GPT-2 pre-tokenizer pattern:
   contractions (``'s``, ``'ll``...), letter runs with an optional leading space or punctuation mark,
   digit groups of 1-3, punctuation runs, newline runs and other whitespace runs.
2. Cost each piece, since real BPE merges common pieces into one token and splits rare ones:
   - a letter run of up to 6 ASCII letters is 1 token; longer runs add 1 token per further 4 letters
     (``1 + ceil((n - 6) / 4)``), so rare long words cost roughly ``ceil(n / 4)``;
   - every non-ASCII letter (CJK, accented, Cyrillic...) costs 1 token on its own, as byte-level BPE
     rarely merges them;
   - a digit group (at most 3 digits, like cl100k) is 1 token;
   - a punctuation run costs ``ceil(n / 2)`` tokens (``{"``, ``"}``, ``."`` are single tokens in cl100k);
   - a whitespace run is 1 token.
3. ``count_messages`` adds the chat-format overhead: 4 tokens per message (role and separators), the
   tokens of an optional ``name``, and 3 tokens priming the assistant's reply.

It is an approximation, not a tokenizer: it matches cl100k exactly on short common English and on
JSON punctuation, and over-counts long or rare words (a budget estimate should err on the high side).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["TOKENIZER_NAME", "count_messages", "count_tokens"]

TOKENIZER_NAME = "regex-approx-cl100k"

TOKENS_PER_MESSAGE = 4
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3

# Order matters: alternatives are tried left to right, as in the cl100k pattern.
_PIECE_RE = re.compile(
    r"""
    (?P<contraction>'(?:[sSdDmMtT]|ll|LL|ve|VE|re|RE))
    | (?P<word>[^\r\n\w]?[^\W\d_]+)
    | (?P<number>\d{1,3})
    | (?P<punct>\ ?[^\s\w]+[\r\n]*|_+)
    | (?P<space>\s+)
    """,
    re.VERBOSE,
)

_SHORT_WORD = 6
_LETTERS_PER_EXTRA_TOKEN = 4


def _word_cost(piece: str) -> int:
    # Strip the optional leading space/punctuation: cl100k folds it into the word token.
    letters = piece if piece[:1].isalpha() else piece[1:]
    non_ascii = sum(1 for ch in letters if not ch.isascii())
    ascii_len = len(letters) - non_ascii
    cost = non_ascii
    if ascii_len:
        cost += 1 + max(0, math.ceil((ascii_len - _SHORT_WORD) / _LETTERS_PER_EXTRA_TOKEN))
    return max(1, cost)


def count_tokens(text: str) -> int:
    """Approximate the number of cl100k tokens in ``text`` (offline, deterministic)."""
    if not text:
        return 0
    total = 0
    for match in _PIECE_RE.finditer(text):
        kind = match.lastgroup
        piece = match.group()
        if kind == "word":
            total += _word_cost(piece)
        elif kind == "punct":
            total += math.ceil(len(piece.strip(" \r\n")) / 2) or 1
        else:  # contraction, number (1-3 digits), whitespace run
            total += 1
    return total


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a chat message: its ``content`` flattened (a string, or a list of typed parts)."""
    return _content_text(message.get("content"))


def _content_text(content: Any) -> str:
    """Flatten a message ``content`` (a string or a list of typed parts) into its text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Iterable):
        parts: list[str] = []
        for part in content:
            if isinstance(part, Mapping):
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return str(content)


def count_messages(messages: Iterable[Mapping[str, Any]]) -> int:
    """Approximate the prompt tokens of a chat request: contents plus per-message and reply overhead."""
    total = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE
        total += count_tokens(message_text(message))
        name = message.get("name")
        if name:
            total += TOKENS_PER_NAME + count_tokens(str(name))
    return total + REPLY_PRIMING_TOKENS
