"""The views of a text the detector reads: the visible text normalised, hidden segments (comments, invisibly styled
or hidden markup, tag characters, attribute values), decoded payloads (base64, base32, base85, hex, nested, each
decoded payload normalised again so URL or HTML escapes inside it are read through) and obfuscations (rot13,
leetspeak, look-alike letters folded, spaced letters, reversed, and the keyless ciphers of :mod:`.ciphers`). Every
view feeds the same scan."""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
import zlib
from collections.abc import Iterable

from governance.privacy.normalise import normalise
from memory.quarantine.ciphers import ciphers, printable

# --- hidden characters ---------------------------------------------------------------------------------------

# (and the blank fillers of Hangul and Braille, the combining grapheme joiner, Khmer's invisible vowels: letters
# that render as nothing or as a gap)
_ZERO_WIDTH = ("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u00ad\u3164\u115f\u1160\uffa0"
               "\u2800\u034f\u17b4\u17b5")
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
# Unicode tag characters (U+E0000–U+E007F) mirror ASCII and render as nothing ("ASCII smuggling").
_TAGS = re.compile("[\U000e0000-\U000e007f]")
_INVISIBLE = re.compile(f"[{_ZERO_WIDTH}{_BIDI}]")
_INVISIBLE_RUN = re.compile(f"[{_ZERO_WIDTH}{_BIDI}]{{3,}}")
# A zero-width character inside a word splits it for a reader that matches words (emoji joiners are left alone).
_SPLIT_WORD = re.compile(f"[A-Za-z][{_ZERO_WIDTH}]+[A-Za-z]")
_BIDI_OVERRIDE = re.compile("[\u202a-\u202e\u2066-\u2069]")
_MIXED_SCRIPT = re.compile(r"\b(?=\w*[A-Za-z])(?=\w*[\u0370-\u03ff\u0400-\u04ff])\w{3,}\b")

_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.S)
_MD_COMMENT = re.compile(r"^\s*\[(?://|comment|#|_)\]:\s*(?:#|<>)\s*[(\"'](.*?)[)\"']\s*$", re.M | re.I)
# Markup a renderer hides: the hidden attribute, aria-hidden, and styles that hide or push text off screen.
_HIDDEN_ELEMENT = re.compile(
    r"<([a-z][a-z0-9]*)\b[^>]*?(?:\shidden\b|aria-hidden\s*=\s*[\"']?true|style\s*=\s*[\"'][^\"']*(?:display\s*:\s*"
    r"none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?:\.0+)?\b|color\s*:\s*(?:white|#fff(?:fff)?|"
    r"transparent|rgba\([^)]*,\s*0\))|(?:left|top|text-indent)\s*:\s*-\d{3,}|(?:height|width|max-height)\s*:\s*0)"
    r")[^>]*>(.*?)</\1\s*>", re.I | re.S)
_LATEX_HIDDEN = re.compile(r"\\(?:textcolor|color)\{(?:white|#?fff(?:fff)?)\}\{([^}]*)\}", re.I)
# Attribute values a reader of the page never sees but a model reading the source does.
_ATTRIBUTE = re.compile(r"\b(?:title|alt|aria-label|data-[\w-]+|content)\s*=\s*[\"']([^\"']{12,})[\"']", re.I)
HIDDEN_HINTS = re.compile(r"\b(ais?|assistants?|agents?|llms?|models?|gpts?|claude|instructions?|prompt|ignore|system|"
                          r"execute|"
                          r"run|send|forward|upload|memory|remember|secret|password|token|key|reply|respond|say|"
                          r"approve|grant|reveal)\b", re.I)


def hidden_characters(text: str) -> list[str]:
    """How the text hides characters from a human reader (empty: it does not)."""
    out = []
    if _BIDI_OVERRIDE.search(text) or _TAGS.search(text) or _INVISIBLE_RUN.search(text) or _SPLIT_WORD.search(text):
        out.append("invisible characters")
    if _MIXED_SCRIPT.search(text):  # Latin letters and Greek or Cyrillic look-alikes inside one word
        out.append("look-alike letters of another script")
    return out


def hidden_segments(text: str) -> list[tuple[str, bool]]:
    """(segment, hidden): text a human reader of the rendered page does not see. ``hidden`` False for attribute
    values (an image's alt text is seen by some): those count only when their own scan flags them."""
    segments = [(m.group(1), True) for m in _HTML_COMMENT.finditer(text)]
    segments += [(m.group(1), True) for m in _MD_COMMENT.finditer(text)]
    segments += [(m.group(2), True) for m in _HIDDEN_ELEMENT.finditer(text)]
    segments += [(m.group(1), True) for m in _LATEX_HIDDEN.finditer(text)]
    segments += [(m.group(1), False) for m in _ATTRIBUTE.finditer(text)]
    tags = "".join(chr(ord(c) - 0xE0000) for c in _TAGS.findall(text) if 0x20 <= ord(c) - 0xE0000 < 0x7F)
    if tags:
        segments.append((tags, True))
    return [(s, hidden) for s, hidden in segments if s.strip()]


# --- decoders ----------------------------------------------------------------------------------------------------

_B64 = re.compile(r"(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/_-]{16,}={0,2})(?![A-Za-z0-9+/=_-])")
_B32 = re.compile(r"(?<![A-Za-z0-9=])([A-Z2-7]{16,}={0,6})(?![A-Za-z0-9=])")
_B32HEX = re.compile(r"(?<![A-Za-z0-9])([0-9A-V]{16,}={0,6})(?![A-Za-z0-9=])")
_A85 = re.compile(r"<~(.{10,}?)~>", re.S)
# base85 uses letters, digits and most punctuation: a long run of them with no space is a candidate
_B85 = re.compile(r"(?<!\S)([0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,})(?!\S)")
_HEX = re.compile(r"(?<![0-9a-fA-F])((?:[0-9a-fA-F]{2}[\s:]?){12,})(?![0-9a-fA-F])")
_SPACED = re.compile(r"(?<![A-Za-z])([A-Za-z])[ ._*\-](?=[A-Za-z](?![A-Za-z]))")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i",
                       "|": "l"})
# Cyrillic and Greek letters that look like Latin ones, folded to the Latin letter they imitate.
_LOOKALIKE = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i", "ј": "j", "ѕ": "s", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "к": "k", "м": "m", "т": "t", "в": "b", "н": "h",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "У": "Y", "І": "I", "Ѕ": "S", "Ј": "J",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "ε": "e",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
})


def _inflated(raw: bytes) -> bytes:
    """A compressed payload (gzip or zlib, as base64 often carries one) inflated, at most 64 KiB; else as it was."""
    if raw[:2] == b"\x1f\x8b" or raw[:1] == b"\x78":
        try:
            inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)  # gzip or zlib header, detected
            return inflater.decompress(raw, 65536)
        except zlib.error:
            return raw
    return raw


def _attempt(decode, token: str) -> str | None:
    try:
        return printable(_inflated(decode(token)))
    except (binascii.Error, ValueError):
        return None


def _decoded_payloads(text: str) -> Iterable[tuple[str, str]]:
    """(encoding, decoded text) for each encoded span that decodes to readable text (words with spaces)."""
    for m in _B64.finditer(text):
        token = m.group(1)
        if not re.search(r"[A-Z]", token) or not re.search(r"[a-z]", token):
            continue  # identifiers, hashes and words are not base64 payloads worth decoding
        padded = token + "=" * (-len(token) % 4)
        out = _attempt(base64.b64decode, padded) or _attempt(base64.urlsafe_b64decode, padded)
        if out:
            yield "base64", out
    for m in _B32.finditer(text):
        token = m.group(1).rstrip("=")
        out = _attempt(base64.b32decode, token + "=" * (-len(token) % 8))
        if out:
            yield "base32", out
    for m in _B32HEX.finditer(text):
        token = m.group(1).rstrip("=")
        if not re.search(r"[G-V]", token) or not re.search(r"[0-9]", token):
            continue  # plain base32 and hex digits are read above and below
        out = _attempt(base64.b32hexdecode, token + "=" * (-len(token) % 8))
        if out:
            yield "base32hex", out
    for m in _A85.finditer(text):
        out = _attempt(lambda t: base64.a85decode(t, adobe=False), re.sub(r"\s", "", m.group(1)))
        if out:
            yield "base85", out
    for m in _B85.finditer(text):
        token = m.group(1)
        if sum(not c.isalnum() for c in token) < 2:
            continue  # base64's alphabet is handled above; base85 without punctuation is rare
        out = _attempt(base64.b85decode, token) or _attempt(lambda t: base64.a85decode(t, adobe=False), token)
        if out:
            yield "base85", out
    for m in _HEX.finditer(text):
        digits = re.sub(r"[\s:]", "", m.group(1))
        if len(digits) % 2:
            digits = digits[:-1]
        out = _attempt(bytes.fromhex, digits)
        if out:
            yield "hex", out


_BREAK_RUN = re.compile(r"\n(?:[^\S\n]*\n)+")
_HSPACE_RUN = re.compile(r"[^\S\n]{8,}")  # short runs stay: letters spaced apart keep their word gaps


_ROT47 = str.maketrans({chr(c): chr(33 + (c - 33 + 47) % 94) for c in range(33, 127)})
_ATBASH = str.maketrans({**{chr(97 + i): chr(122 - i) for i in range(26)},
                         **{chr(65 + i): chr(90 - i) for i in range(26)}})
_LABEL_SPLIT = re.compile(r"(?<=:)\s+|\n+")
_B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58 = re.compile(r"(?<![A-Za-z0-9])([1-9A-HJ-NP-Za-km-z]{24,})(?![A-Za-z0-9])")


def _base58_payloads(text: str) -> Iterable[str]:
    """Base58 (Bitcoin's alphabet: no 0, O, I, l) runs that decode to readable text."""
    for m in _B58.finditer(text):
        token = m.group(1)
        if len(token) > 2000 or not re.search(r"[a-z]", token) or not re.search(r"[A-Z]", token):
            continue
        number = 0
        for ch in token:
            number = number * 58 + _B58_ALPHABET.index(ch)
        raw = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
        out = printable(raw)
        if out:
            yield out


_ESCAPED_BREAK = re.compile(r"(?<!\\)\\[nr](?=[A-Za-z\s\\]|$)")



def views(text: str) -> Iterable[tuple[str, str]]:
    """The text as a reader could take it: (how, text). Normalised first (escapes, compatibility forms, invisible
    characters dropped), then decoded payloads (two layers), rot13, leetspeak, look-alike letters, letters spaced
    apart, reversed."""
    plain = _INVISIBLE.sub("", _TAGS.sub("", text))
    # a run of blank lines or spaces reads as one break or one space (long runs made line-anchored patterns quadratic)
    plain = _HSPACE_RUN.sub(" ", _BREAK_RUN.sub("\n", plain))
    norm = normalise(plain).text
    norm = unicodedata.normalize("NFKC", norm)
    # line breaks written as escapes (iCalendar, JSON strings, logs): "…budget.\n\nAssistant managing this …"
    norm = _ESCAPED_BREAK.sub("\n", norm)
    yield "", norm
    if norm != plain:
        yield "", plain
    for how, decoded in _decoded_payloads(norm):
        yield f"encoded ({how})", decoded
        for how2, decoded2 in _decoded_payloads(decoded):  # one more layer (base64 of hex, …)
            yield f"encoded ({how}, {how2})", decoded2
    if re.search(r"\brot-?13\b", norm, re.I) or len(norm) < 4000:
        yield "encoded (rot13)", codecs.decode(norm, "rot13")
    if len(norm) < 4000:
        # the whole text, and each part after a label ("note (rot47): …"): a shifted label would hide the payload's
        # start from the patterns anchored there
        parts = [p for p in _LABEL_SPLIT.split(norm) if len(p) >= 20][:6]
        for part in dict.fromkeys([norm, *parts]):
            yield "encoded (rot47)", part.translate(_ROT47)
            yield "encoded (atbash)", part.translate(_ATBASH)
    for decoded in _base58_payloads(norm):
        yield "encoded (base58)", decoded
    if len(norm) < 4000:
        yield from ciphers(norm)
    leet = norm.translate(_LEET)
    if leet != norm:
        yield "obfuscated (leetspeak)", leet
    folded = norm.translate(_LOOKALIKE)
    if folded != norm and _MIXED_SCRIPT.search(norm):
        yield "obfuscated (look-alike letters)", folded
    if len(_SPACED.findall(norm)) >= 4:
        yield "obfuscated (spaced letters)", " ".join(_SPACED.sub(r"\1", norm).split())
    yield "obfuscated (reversed)", norm[::-1]
