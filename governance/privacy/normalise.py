"""One normalisation pass before every analysis, with a map back to the original text.

``normalise(text) -> Normalised``: ``.text`` is what the recognizers (PII and secrets alike) and the NER read;
``.to_original(start, end)`` gives the span of the *original* text that a span of ``.text`` came from, so the
masker replaces exactly what was written — an encoded character is replaced as a whole (``%40``, ``&#64;``,
``\\u0040``), never half of it.

What is read through (each step keeps the offset map):

* escapes — percent-encoding (valid UTF-8 byte runs only), HTML entities (named and numeric), ``\\uXXXX`` /
  ``\\U0010XXXX`` / ``\\xXX`` escapes; two rounds, so ``%2540`` is ``@`` too;
* Unicode compatibility forms — NFKC per grapheme-ish cluster (a base character and its combining marks):
  full-width letters and digits, ligatures, superscripts, ``＠``, ``﹒``;
* digits of every script (Arabic-Indic, Devanagari, Thai, ...) — mapped to ASCII digits, so checksums work;
* characters that render as nothing — format characters (zero-width space and joiners, soft hyphen, bidi
  controls, word joiner, BOM) and variation selectors — are dropped;
* exotic spaces (NBSP, thin, ideographic, ...) inside an identifier split by them (an e-mail address or URL, a key
  cut into equal groups) are dropped; elsewhere they become a space, line/paragraph separators a line break, Unicode
  dashes a hyphen-minus;
* an address or number glued to a script written without spaces (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) —
  a space is put between them (it maps to nothing in the original);
* defanged notation — ``[at]``, ``(at)``, ``{at}``, ``[@]`` → ``@``; ``[.]``, ``(.)``, ``[dot]``, ``(dot)`` → ``.``;
  ``hxxp`` → ``http``; and the word form ``name at example dot com`` in an address shape.

Text that needs none of this (the common case: plain ASCII without escapes) is returned as is, with the identity
map, at the cost of one regular-expression search.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
import unicodedata
from dataclasses import dataclass
from html.entities import html5 as html5_entities

__all__ = ["UNSPACED_SCRIPTS", "Normalised", "normalise"]


@dataclass(frozen=True)
class Normalised:
    """The normalised text and, per character of it, the span of the original it came from."""

    text: str
    original: str
    #: ``starts[i]``/``ends[i]``: the original span of ``text[i]``; both non-decreasing. ``None``: the identity.
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text covering ``text[start:end]`` (whole encoded characters; the characters
        dropped between them included)."""
        if self.starts is None or self.ends is None:
            return start, end
        n = len(self.text)
        start = max(0, min(start, n))
        end = max(start, min(end, n))
        if start == end:
            pos = self.starts[start] if start < n else len(self.original)
            return pos, pos
        return self.starts[start], self.ends[end - 1]

    def to_normalised(self, start: int, end: int) -> tuple[int, int] | None:
        """The span of ``text`` whose characters came from ``original[start:end]`` (also those only partly inside:
        a span ending in the middle of ``%27`` takes the ``'``); ``None`` when all of it was dropped."""
        if self.starts is None or self.ends is None:
            return (start, end) if start < end else None
        first = bisect.bisect_right(self.ends, start)  # both maps are non-decreasing
        stop = bisect.bisect_left(self.starts, end)
        return (first, stop) if first < stop else None


# --------------------------------------------------------------------------------------------------
# Building blocks: a text plus per-character origin spans, rewritten by substitutions
# --------------------------------------------------------------------------------------------------

def _rewrite(text: str, starts: list[int], ends: list[int], pattern: re.Pattern[str], replace
             ) -> tuple[str, list[int], list[int]]:
    """Replace each match of ``pattern`` by ``replace(match)`` (``None``: keep it); the replacement's characters
    all map to the original span of the whole match."""
    pieces: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    pos = 0
    for m in pattern.finditer(text):
        new = replace(m)
        if new is None or m.end() == m.start():
            continue
        pieces.append(text[pos : m.start()])
        new_starts.extend(starts[pos : m.start()])
        new_ends.extend(ends[pos : m.start()])
        pieces.append(new)
        new_starts.extend([starts[m.start()]] * len(new))
        new_ends.extend([ends[m.end() - 1]] * len(new))
        pos = m.end()
    if not pieces:
        return text, starts, ends
    pieces.append(text[pos:])
    new_starts.extend(starts[pos:])
    new_ends.extend(ends[pos:])
    return "".join(pieces), new_starts, new_ends


# --------------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------------

_PCT_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ESCAPE_RE = re.compile(r"\\(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2}))"
                        r"|%u([0-9A-Fa-f]{4})")
# octal escapes of printable ASCII ("\100" is "@"; C, shell printf, Python, PHP)
_OCTAL_RE = re.compile(r"\\([0-3][0-7]{2})")


def _percent(m: re.Match[str]) -> str | None:
    data = bytes.fromhex(m.group(0).replace("%", ""))
    try:
        out = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return out if out.isprintable() or out.isspace() else None


def _percent_again(m: re.Match[str]) -> str | None:
    # a second decoding never makes whitespace: "%2509" in a password is "%09" as typed, not a tab that cuts it
    out = _percent(m)
    return None if out is None or any(ch.isspace() for ch in out) else out


def _entity(m: re.Match[str]) -> str | None:
    if m.group(0)[1] != "#" and m.group(0)[1:] not in html5_entities:
        return None  # only a whole known name ("&notanentity;" is not "&not;" + "anentity;")
    out = html.unescape(m.group(0))
    return out if out != m.group(0) else None


def _octal(m: re.Match[str]) -> str | None:
    out = chr(int(m.group(1), 8))
    return out if " " < out < "\x7f" and out not in "\\%&=" else None  # never a new escape


# Quoted-printable (e-mail bodies): "=40" is "@", "=2E" is "."; decoded inside a token that becomes an address (a
# "=40" between a local part and a domain), never in code ("x=40" stays). A soft line break ("=" ending a line inside
# a word) is dropped in a text that holds an address.
_QP_TOKEN_RE = re.compile(r"[\w.+\-%]+=40[\w\-]+(?:(?:\.|=2[Ee])[\w\-]+)+")
_QP_BYTE_RE = re.compile(r"=([0-9A-Fa-f]{2})")
_QP_SOFT_RE = re.compile(r"(?<=[\w.\-])=\r?\n(?=[\w.\-])")


def _qp_token(m: re.Match[str]) -> str | None:
    out = _QP_BYTE_RE.sub(lambda b: b.group(0) if chr(int(b.group(1), 16)) in "\\%&=" else chr(int(b.group(1), 16)),
                          m.group(0))
    if not out.isprintable() or out.count("@") != 1 or not _public_domain(out.split("@")[1]):
        return None  # "width=400.5" is a setting
    return out


def _public_domain(domain: str) -> bool:
    """Does ``domain`` end in a real public suffix (the bundled list; no network)?"""
    from .recognizers.offline_tld import ensure_offline_tldextract

    parts = ensure_offline_tldextract()(domain)
    return bool(parts.suffix) and bool(parts.domain)


def _escape(m: re.Match[str]) -> str | None:
    code = int(next(g for g in m.groups() if g), 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    out = chr(code)
    return out if out.isprintable() or out in "\n\t" else None


_SPACE_CHARS = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_DASH_CHARS = "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\ufe58\ufe63\uff0d"
_DOT_CHARS = "\u3002\uff0e\uff61\u2024\ufe52"
# Chinese and Japanese numerals written digit by digit ("一三八〇〇一三八〇〇〇", 幺 for 1 when dictating): a run of six
# or more (spaces or dashes allowed between) is a number, never prose ("一百二十" counts with 百 and is no such run)
_CJK_DIGITS = {c: str(i) for i, c in enumerate("〇一二三四五六七八九")} | {"零": "0", "幺": "1"}
_CJK_DIGIT_RUN_RE = re.compile("(?:[〇零幺一二三四五六七八九][ \\-]?){5,}[〇零幺一二三四五六七八九]")


_NUMBER_WORDS = {w: i for i, w in enumerate(
    "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN FIFTEEN SIXTEEN "
    "SEVENTEEN EIGHTEEN NINETEEN TWENTY".split())}
# Enclosed and decorated alphanumerics (❶ ➀ ⓵ ⑴ ⒈ 🄁 🅐 🄰 ⓐ): the character reads as its digit or letter. Many have no
# compatibility decomposition (❶, 🅐), others decompose to "(1)" or "1." which cut a number apart; the name says what
# the character is, whatever the block.
_ENCLOSED_NAME_RE = re.compile(
    r"(?:DINGBAT )?(?:NEGATIVE )?(?:DOUBLE )?(?:CIRCLED|PARENTHESIZED|SQUARED)(?: SANS-SERIF)? "
    r"(?:DIGIT (?P<d>[A-Z]+)|NUMBER (?P<n>[A-Z]+)|LATIN (?P<case>SMALL|CAPITAL) LETTER (?P<l>[A-Z]))"
    r"|DIGIT (?P<d2>[A-Z]+) (?:FULL STOP|COMMA)")


@functools.lru_cache(maxsize=4096)
def _enclosed(ch: str) -> str | None:
    m = _ENCLOSED_NAME_RE.fullmatch(unicodedata.name(ch, ""))
    if not m:
        return None
    word = m.group("d") or m.group("n") or m.group("d2")
    if word:
        return str(_NUMBER_WORDS[word]) if word in _NUMBER_WORDS else None
    return m.group("l").lower() if m.group("case") == "SMALL" else m.group("l")


# Tag characters (U+E0020-E007E) are invisible copies of ASCII ("ASCII smuggling"): read as the ASCII they copy,
# except inside an emoji flag's tag sequence (🏴 + tags + CANCEL TAG), which is a picture.
_FLAG_TAGS_RE = re.compile("\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F")
_TAG_RE = re.compile("[\U000E0020-\U000E007E]")


def _read_tags(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    flags = [m.span() for m in _FLAG_TAGS_RE.finditer(text)]
    return _rewrite(text, starts, ends, _TAG_RE, lambda m: None if any(a <= m.start() < b for a, b in flags)
                    else chr(ord(m.group(0)) - 0xE0000))


# Combining marks that decorate rather than spell: enclosing marks (keycap 3️⃣, enclosing circle and square), strokes,
# overlays, over- and underlines. They never make a letter of any language, so they are dropped; on an ASCII digit
# every combining mark is (digits take no diacritics).
def _decorative_mark(c: str) -> bool:
    return (unicodedata.category(c) == "Me" or "\u0332" <= c <= "\u0338" or c in "\u0305\u033f"
            or "\u20d0" <= c <= "\u20ff")


# Letters that NFKC decomposes although they are a script's ordinary spelling: Thai and Lao SARA AM (ำ → ํา) would
# change every word written with them ("เลขประจำตัว"), and no cue or name list could match the text any more.
_SPELLING_LETTERS = frozenset("\u0e33\u0eb3")


def _char_form(ch: str) -> str:
    """One character (or cluster) in its normalised form."""
    if ch in _SPACE_CHARS:
        return " "
    if ch in _DASH_CHARS:
        return "-"
    if ch in _DOT_CHARS:
        return "."
    if ch in "\u2028\u2029\u0085":
        return "\n"
    if ch in _SPELLING_LETTERS:
        return ch
    cat = unicodedata.category(ch[0])
    if len(ch) == 1:
        if cat == "Me":
            return ""  # an enclosing mark left alone (its base was read apart, e.g. past a variation selector)
        if cat in ("So", "No") and (enclosed := _enclosed(ch)) is not None:
            return enclosed
        if cat == "Cf" or "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef":
            return ""
        if cat == "Nd":
            d = unicodedata.decimal(ch, None)
            if d is not None:
                return str(d)
    out = unicodedata.normalize("NFKC", ch)
    if len(out) == 1 and unicodedata.category(out) == "Nd" and not out.isascii():
        d = unicodedata.decimal(out, None)
        if d is not None:
            return str(d)
    return out


# a variation selector may sit between a base and its mark (keycap: "3" U+FE0F U+20E3)
_MARKS = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\ufe00-\ufe0f]"
_CLUSTER_RE = re.compile(rf"[^\x00-\x7f]{_MARKS}*|[\x00-\x7f]{_MARKS}+")


def _unicode(m: re.Match[str]) -> str | None:
    cluster = m.group(0)
    if len(cluster) > 1:  # a base and its combining marks: composed together, invisible marks dropped
        digit = cluster[0].isascii() and cluster[0].isdigit()
        kept = cluster[0] + "".join(c for c in cluster[1:] if not (
            unicodedata.category(c) == "Cf" or "\ufe00" <= c <= "\ufe0f" or digit or _decorative_mark(c)))
        out = unicodedata.normalize("NFKC", kept)
        return out if out != cluster else None
    out = _char_form(cluster)
    return out if out != cluster else None


# A run of non-space pieces glued by exotic spaces and no ordinary one ("anna\u202f.smi\u202fth@ex\u202fample.org"):
# an identifier split to dodge recognizers when it holds an "@" or "://", or when it is cut into pieces of one width
# holding letters and digits (a key in groups of four); its separators are dropped, so the recognizers see one token.
# Otherwise (prose typeset with NBSP: "10\u00a0km", "Mr.\u00a0Smith") they become spaces like any exotic space.
_EXOTIC_RUN_RE = re.compile(f"[^\\s]+(?:[{_SPACE_CHARS}][^\\s]+)+")
_EXOTIC_SPACE_RE = re.compile(f"[{_SPACE_CHARS}]")


def _split_identifier(run: str) -> bool:
    if "@" in run or "://" in run:
        return True
    pieces = _EXOTIC_SPACE_RE.split(run)
    widths = {len(p) for p in pieces[:-1]}
    joined = "".join(pieces)
    return (len(pieces) >= 3 and len(widths) == 1 and min(widths) >= 3 and len(pieces[-1]) <= len(pieces[0])
            and any(c.isdigit() for c in joined) and any(c.isalpha() for c in joined))


def _join_split_identifiers(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    runs = [m.span() for m in _EXOTIC_RUN_RE.finditer(text) if _split_identifier(m.group(0))]
    if not runs:
        return text, starts, ends
    return _rewrite(text, starts, ends, _EXOTIC_SPACE_RE,
                    lambda m: "" if any(a <= m.start() < b for a, b in runs) else None)


# Scripts written without spaces (Han, kana, Hangul, Thai, ...) glue an address or a number to the words around it:
# "请联系我zhang@example.com谢谢" — the recognizers' word boundaries do not fall between 我 and z (both are \w).
UNSPACED_SCRIPTS = (r"\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf"
             r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff")
_GLUED_RE = re.compile(rf"(?<=[{UNSPACED_SCRIPTS}])(?=[A-Za-z0-9+(])|(?<=[A-Za-z0-9)])(?=[{UNSPACED_SCRIPTS}])")


def _unglue(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    """A space between an unspaced script and Latin letters or digits. The space comes from nowhere: it maps to the
    empty span at the next character, so a span found after it maps back to exactly what was written."""
    cuts = [m.start() for m in _GLUED_RE.finditer(text)]
    if not cuts:
        return text, starts, ends
    pieces: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    pos = 0
    for cut in cuts:
        pieces += [text[pos:cut], " "]
        new_starts += [*starts[pos:cut], starts[cut]]
        new_ends += [*ends[pos:cut], starts[cut]]
        pos = cut
    pieces.append(text[pos:])
    new_starts += starts[pos:]
    new_ends += ends[pos:]
    return "".join(pieces), new_starts, new_ends


# defanged: "[at]" "(at)" "{at}" "[@]" " [ at ] " -> "@"; "[.]" "(.)" "[dot]" "(dot)" "{dot}" -> "."; the words of
# other languages for "@" and "." too ("(arroba)", "[małpa]", "собака", "(punkt)", "[kropka]", "точка")
_AT_WORDS = (r"at|arroba|arobase|собака|sobaka|klammeraffe|chiocciola|apenstaart|ma[łl]pa|kukac|snabel-?a|"
             r"at[\- ]sign|at-?mark|アットマーク")
_DOT_WORDS = r"dot|punto|punkt|point|ponto|точка|tochka|kropka|piste|prikk|te[čc]ka|nokta|ドット"
_DEFANG_AT_RE = re.compile(rf"\s?[\[({{]\s*(?:{_AT_WORDS}|@)\s*[\])}}]\s?", re.I)
_DEFANG_DOT_RE = re.compile(rf"\s?[\[({{]\s*(?:{_DOT_WORDS}|\.)\s*[\])}}]\s?", re.I)
_HXXP_RE = re.compile(r"\bhxxp(s?)(?=\[?:)", re.I)
_DEFANG_COLON_RE = re.compile(r"\[:\]")
# "anna dot smith at example dot com": the word form, only in the shape of an address (a local part, " at ", a
# domain of dot-separated labels ending in a 2-24 letter top-level label)
_WORD_LOCAL = r"[A-Za-z0-9][A-Za-z0-9._%+\-]*"
_WORD_LABEL = r"[A-Za-z0-9][A-Za-z0-9\-]*"
# (the other languages' words for "@" are no English preposition: with them a plain domain is enough)
_WORD_EMAIL_RE = re.compile(
    rf"(?<![\w@.])({_WORD_LOCAL}(?:\s+(?:{_DOT_WORDS})\s+{_WORD_LOCAL})*)\s+(?P<at>{_AT_WORDS})\s+"
    rf"({_WORD_LABEL}(?:(?:\s+(?:{_DOT_WORDS})\s+|\.){_WORD_LABEL})*(?:\s+(?:{_DOT_WORDS})\s+|\.)[A-Za-z]{{2,24}})"
    rf"(?![\w@])", re.I)
_WORD_DOT_RE = re.compile(rf"\s+(?:{_DOT_WORDS})\s+", re.I)
_WORD_AT_HINT_RE = re.compile(rf"\s(?:{_AT_WORDS})\s", re.I)


def _word_email(m: re.Match[str]) -> str | None:
    local, domain = m.group(1), m.group(3)
    if m.group("at").lower() == "at" and m.group("at") not in ("at", "AT", "At"):
        return None
    if m.group("at").lower() == "at" and not re.search(r"\s(?:dot|DOT|Dot)\s", domain):
        # "meet at example.com" is a sentence about a site, not an address (no " dot "); an English "at" goes with an
        # English "dot" ("the meeting at noon punto final" is prose)
        return None
    domain = _WORD_DOT_RE.sub(".", domain)
    if not _public_domain(domain):
        return None  # "look at the data point ranges" is prose
    return _WORD_DOT_RE.sub(".", local) + "@" + domain


# an address spaced out around its "@" and dots ("anna . smith @ example . org"): read joined when the domain ends
# in a real public suffix
_SPACED_EMAIL_RE = re.compile(
    r"(?<![\w@.])([A-Za-z0-9_%+\-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_%+\-]+)*)[ \t]+@[ \t]+"
    r"([A-Za-z0-9\-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9\-]+)+)(?![\w@])")


def _spaced_email(m: re.Match[str]) -> str | None:
    local, domain = (re.sub(r"[ \t]+", "", g) for g in m.groups())
    return f"{local}@{domain}" if _public_domain(domain) else None


# an address defanged with other marks around its words ("john -at- gmail -dot- com", "anna_at_example_dot_org",
# "bob <at> corp <dot> io"): read joined when the domain ends in a real public suffix
_MARK_OPEN = r"[ \t]*[\-_*|#/<~][ \t]*"
_MARK_CLOSE = r"[ \t]*[\-_*|#/>~][ \t]*"
_MARKED_EMAIL_RE = re.compile(
    rf"(?<![\w@.])([A-Za-z0-9][A-Za-z0-9.%+]*?){_MARK_OPEN}(?:at|@){_MARK_CLOSE}"
    rf"([A-Za-z0-9][A-Za-z0-9\-]*(?:(?:{_MARK_OPEN}dot{_MARK_CLOSE}|\.)[A-Za-z0-9][A-Za-z0-9\-]*)+)(?![\w@])", re.I)
_MARKED_DOT_RE = re.compile(rf"{_MARK_OPEN}dot{_MARK_CLOSE}", re.I)


def _marked_email(m: re.Match[str]) -> str | None:
    domain = _MARKED_DOT_RE.sub(".", m.group(2))
    return f"{m.group(1)}@{domain}" if _public_domain(domain) else None


# an address spelled out letter by letter ("j o h n . s m i t h @ g m a i l . c o m")
_LETTERED_EMAIL_RE = re.compile(r"(?<!\S)(?:[A-Za-z0-9._%+\-][ \t]){2,64}@(?:[ \t][A-Za-z0-9.\-]){4,100}(?!\S)")


def _lettered_email(m: re.Match[str]) -> str | None:
    joined = re.sub(r"[ \t]", "", m.group(0))
    local, _, domain = joined.partition("@")
    return joined if local and "." in domain and _public_domain(domain) else None


# digit groups joined by a dash with spaces around it ("123 – 45 – 6789", "4111 - 1111 - 1111 - 1111"): one number
_SPACED_DASH_RUN_RE = re.compile(r"(?<![\w\-])\d{2,6}(?:[ \t]+-[ \t]+\d{2,6}){2,5}(?![\w\-])")


def _spaced_dash_run(m: re.Match[str]) -> str | None:
    # seven digits or more: an identifier, a phone or a card; "pages 10 - 12 - 14" stays as written
    return re.sub(r"[ \t]+", "", m.group(0)) if sum(c.isdigit() for c in m.group(0)) >= 7 else None


def _defang_at(m: re.Match[str]) -> str:
    return "@"


def _defang_dot(m: re.Match[str]) -> str:
    return "."


# Digits dictated as words ("zero four one eight ..."; "null vier eins ..."; "double five" is 55): a run of seven or
# more digit words is a number read aloud, never prose ("one or two" is no run). Each run becomes its digits; the
# words of the languages agents write in, one digit each (not "ten", "eleven": a dictated number says its digits).
_DIGIT_WORDS = {
    **dict.fromkeys(("zero", "oh", "null", "nul", "cero", "zéro", "nulla"), "0"),
    **dict.fromkeys(("one", "eins", "uno", "un", "une", "um", "uma", "een", "jeden", "jedna", "ett", "en"), "1"),
    **dict.fromkeys(("two", "zwei", "zwo", "dos", "deux", "due", "dois", "duas", "twee", "dwa", "två", "to"), "2"),
    **dict.fromkeys(("three", "drei", "tres", "trois", "tre", "três", "drie", "trzy", "tri"), "3"),
    **dict.fromkeys(("four", "vier", "cuatro", "quatre", "quattro", "quatro", "cztery", "fyra", "fire"), "4"),
    **dict.fromkeys(("five", "fünf", "fuenf", "cinco", "cinq", "cinque", "vijf", "pięć", "piec", "fem"), "5"),
    **dict.fromkeys(("six", "sechs", "seis", "sei", "meia", "zes", "sześć", "szesc", "sex", "seks"), "6"),
    **dict.fromkeys(("seven", "sieben", "siete", "sept", "sette", "sete", "zeven", "siedem", "sju", "syv"), "7"),
    **dict.fromkeys(("eight", "acht", "ocho", "huit", "otto", "oito", "osiem", "åtta", "otte"), "8"),
    **dict.fromkeys(("nine", "neun", "nueve", "neuf", "nove", "negen", "dziewięć", "nio", "ni"), "9"),
}
_REPEAT_WORDS = {"double": 2, "doppel": 2, "doble": 2, "triple": 3, "tripel": 3}
_DIGIT_WORD = "(?:" + "|".join(sorted(map(re.escape, _DIGIT_WORDS), key=len, reverse=True)) + ")"
_SPOKEN_UNIT = rf"(?:(?:{'|'.join(_REPEAT_WORDS)})[ \t]+)?{_DIGIT_WORD}"
_SPOKEN_RUN_RE = re.compile(rf"(?<![\w\-]){_SPOKEN_UNIT}(?:(?:[ \t]*[,\-][ \t]*|[ \t]+){_SPOKEN_UNIT}){{6,}}"
                            r"(?![\w\-])", re.I)
_WORD_SPLIT_RE = re.compile(r"[\s,\-]+")
_SPOKEN_UNIT_RE = re.compile(rf"(?:({'|'.join(_REPEAT_WORDS)})[ \t]+)?({_DIGIT_WORD})(?![\w])", re.I)


def _spoken_digits(m: re.Match[str]) -> str | None:
    digits = "".join(_DIGIT_WORDS[u.group(2).lower()] * _REPEAT_WORDS.get((u.group(1) or "").lower(), 1)
                     for u in _SPOKEN_UNIT_RE.finditer(m.group(0)))
    return digits if len(digits) >= 7 else None


# A number wrapped onto the next line ("ligue para (11) 962\n80-3852"): a line break between two digits of a run
# of phone or identifier characters holding seven to fifteen digits reads as a space.
# A row of a table is no wrapped number: the next line's number ending at a separator ("1043,R…") opens a row.
_WRAPPED_RE = re.compile(r"[\d(+][\d ().\-/]*\d[ \t]*\r?\n[ \t]*\d[\d ().\-/]*(?![\d ().\-/]*[,;\t|])")
_WRAP_BREAK_RE = re.compile(r"(?<=\d)[ \t]*\r?\n[ \t]*(?=\d)")


def _unwrap(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    """Only the breaks are rewritten (each digit keeps its own place in the map)."""
    # (at most 15 digits, a phone number's longest: a postcode line above a phone line is two numbers)
    runs = [m.span() for m in _WRAPPED_RE.finditer(text) if 7 <= sum(c.isdigit() for c in m.group(0)) <= 15]
    if not runs:
        return text, starts, ends
    return _rewrite(text, starts, ends, _WRAP_BREAK_RE,
                    lambda m: " " if any(a <= m.start() < b for a, b in runs) else None)


# String literals written in pieces ("ghs_Rzma" "Doq4…" in Python, 'abc' + 'def' in JavaScript or Java, 'a' || 'b'
# in SQL, "a" . "b" in PHP): two quoted token pieces with only an operator or white space between them are one
# value, so the closing quote, the operator and the opening quote between them are dropped.
_LITERAL_SEAM_RE = re.compile(r"(?<=[\w\-+/=.~]{4})([\"'])[ \t]*(?:\r?\n[ \t]*)?(?:(?:\+|\.\.?|\|\||&)[ \t]*"
                              r"(?:\r?\n[ \t]*)?)?\1(?=[\w\-+/=.~]{4})")


def _literal_seam(m: re.Match[str]) -> str:
    return ""


# Look-alike letters of Cyrillic and Greek inside an address ("хlzwхu.оуhub@рhmrdsh.dе"): in a token holding "@" and
# Latin letters, the letters that look Latin are read as the Latin letters they imitate.
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁһӏкмнтвАВЕКМНОРСТХІЈЅαοινκρτυχγηβΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlkmhtbABEKMHOPCTXIJSaoivkptuxynbABEZHIKMNOPTYX")
_AT_TOKEN_RE = re.compile(r"[^\s<>()\[\]{}\"',;]*@[^\s<>()\[\]{}\"',;]+")


def _confusable_address(m: re.Match[str]) -> str | None:
    token = m.group(0)
    if not re.search(r"[A-Za-z]", token) or not re.search("[\u0370-\u03ff\u0400-\u04ff]", token):
        return None
    out = token.translate(_CONFUSABLES)
    return out if out != token else None


# --------------------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------------------

# the spelled-out words that send a text down the slow path ("at" and "point" are English prose: an address spelled
# with them also spells "dot", or is in a language whose words are here)
_HINT_WORDS = r"dot|punto|punkt|ponto|kropka|piste|prikk|nokta|arroba|arobase|sobaka|klammeraffe|chiocciola|" \
              r"apenstaart|ma[łl]pa|kukac|snabel-?a|at[\- ]sign"
# Anything that may need a step; plain ASCII prose without escapes or defanged forms matches nothing.
_MARKED_HINT_RE = re.compile(r"[\-_*|#/<~][ \t]*(?:at|@)[ \t]*[\-_*|#/>~]", re.I)
_NEEDS_RE = re.compile(
    r"[^\x00-\x7f]|%[0-9A-Fa-f]{2}|%u[0-9A-Fa-f]{4}|&#?\w+;| @ |\\[uUx][0-9A-Fa-f{]|\\[0-3][0-7]{2}|=40|=\r?\n|"
    rf"{_MARKED_HINT_RE.pattern}|\d[ \t]+-[ \t]+\d|"
    rf"[\[({{]\s*(?:{_AT_WORDS}|{_DOT_WORDS}|@|\.)\s*[\])}}]|hxxp|\s(?:{_HINT_WORDS})\s",
    re.I,
)


def _needs(text: str) -> bool:
    if _NEEDS_RE.search(text):
        return True
    if ("\n" in text and _WRAPPED_RE.search(text)) or (("\"" in text or "'" in text) and _LITERAL_SEAM_RE.search(text)):
        return True
    return _spoken_hint(text) and _SPOKEN_RUN_RE.search(text) is not None


def _spoken_hint(text: str) -> bool:
    """Seven digit words or more at all (a set look-up per word, before the costly pattern)."""
    return sum(w in _DIGIT_WORDS for w in _WORD_SPLIT_RE.split(text.lower())) >= 7


def normalise(text: str) -> Normalised:
    """The normalised form of ``text`` with its offset map (see the module docstring)."""
    if not text or not _needs(text):
        return Normalised(text=text or "", original=text or "")
    starts = list(range(len(text)))
    ends = list(range(1, len(text) + 1))
    out = text
    for again in (False, True):  # "%2540" -> "%40" -> "@"
        before = out
        if "%" in out:
            out, starts, ends = _rewrite(out, starts, ends, _PCT_RUN_RE, _percent_again if again else _percent)
        if "&" in out:
            out, starts, ends = _rewrite(out, starts, ends, _ENTITY_RE, _entity)
        if "\\" in out or "%u" in out or "%U" in out:
            out, starts, ends = _rewrite(out, starts, ends, _ESCAPE_RE, _escape)
        if "\\" in out:
            out, starts, ends = _rewrite(out, starts, ends, _OCTAL_RE, _octal)
        if "=" in out:
            if "@" in out or "=40" in out:
                out, starts, ends = _rewrite(out, starts, ends, _QP_SOFT_RE, lambda m: "")
            if "=40" in out:
                out, starts, ends = _rewrite(out, starts, ends, _QP_TOKEN_RE, _qp_token)
        if out == before:
            break
    if not out.isascii():
        if "\U000e0020" <= max(out):
            out, starts, ends = _read_tags(out, starts, ends)
        out, starts, ends = _join_split_identifiers(out, starts, ends)
        out, starts, ends = _rewrite(out, starts, ends, _CLUSTER_RE, _unicode)
        if _CJK_DIGIT_RUN_RE.search(out):
            out, starts, ends = _rewrite(out, starts, ends, _CJK_DIGIT_RUN_RE,
                                         lambda m: "".join(_CJK_DIGITS.get(c, c) for c in m.group(0)))
        out, starts, ends = _unglue(out, starts, ends)
        if "@" in out:
            out, starts, ends = _rewrite(out, starts, ends, _AT_TOKEN_RE, _confusable_address)
    if "xxp" in out.lower():
        out, starts, ends = _rewrite(out, starts, ends, _HXXP_RE, lambda m: "http" + m.group(1))
    if "[" in out or "(" in out or "{" in out:
        out, starts, ends = _rewrite(out, starts, ends, _DEFANG_AT_RE, _defang_at)
        out, starts, ends = _rewrite(out, starts, ends, _DEFANG_DOT_RE, _defang_dot)
        out, starts, ends = _rewrite(out, starts, ends, _DEFANG_COLON_RE, lambda m: ":")
    if "\n" in out:
        out, starts, ends = _unwrap(out, starts, ends)
    if "\"" in out or "'" in out:
        out, starts, ends = _rewrite(out, starts, ends, _LITERAL_SEAM_RE, _literal_seam)
    if _spoken_hint(out):
        out, starts, ends = _rewrite(out, starts, ends, _SPOKEN_RUN_RE, _spoken_digits)
    if " @ " in out:
        out, starts, ends = _rewrite(out, starts, ends, _LETTERED_EMAIL_RE, _lettered_email)
        out, starts, ends = _rewrite(out, starts, ends, _SPACED_EMAIL_RE, _spaced_email)
    if _MARKED_HINT_RE.search(out):
        out, starts, ends = _rewrite(out, starts, ends, _MARKED_EMAIL_RE, _marked_email)
    if " - " in out or "\t-" in out:
        out, starts, ends = _rewrite(out, starts, ends, _SPACED_DASH_RUN_RE, _spaced_dash_run)
    if " at " in out.lower() or "\tat" in out.lower() or _WORD_AT_HINT_RE.search(out):
        out, starts, ends = _rewrite(out, starts, ends, _WORD_EMAIL_RE, _word_email)
    if out == text:
        return Normalised(text=text, original=text)
    return Normalised(text=out, original=text, starts=tuple(starts), ends=tuple(ends))
