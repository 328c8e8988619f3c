"""Ciphers and spellings an AI reads back without being given a key: the detector's views of a text written in one.

An instruction is only worth hiding if the model that reads it can read it, and models read far more than base64:
letters as numbers, bits or character codes, Morse, the NATO alphabet, Braille, regional-indicator and other
letter-like characters, letters stacked with combining marks, a Polybius square, Bacon's groups, any Caesar shift,
words reversed, Pig Latin, a rail fence, a keyboard shift, single-byte XOR. Two ways in:

- *by shape*: the characters or tokens of one of these spellings (a run of 8-bit groups, of Morse symbols, of NATO
  words, of Braille cells), decoded where they stand;
- *by readability*: a stretch of words that are almost none of English's, which one of the keyless transforms turns
  into a stretch that almost all are. The test is a word list, not the detector: what the decoded text then says is
  judged by the same scan as any plain text, so a benign message someone encoded stays benign.

Every view is bounded (texts under 4,000 characters, a few candidate stretches) so ordinary text costs a few
word-list lookups."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from governance.privacy.normalise import normalise
from governance.privacy.vocabulary import common_words


def printable(raw: bytes) -> str | None:
    """Decoded bytes as text when they are readable words (UTF-8, printable, mostly letters, with a space)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    text = normalise(text).text  # a payload may carry URL or HTML escapes of its own
    letters = sum(ch.isalpha() or ch.isspace() for ch in text)
    ok = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if ok >= 0.95 * len(text) and letters >= 0.6 * len(text) and " " in text.strip() else None


# --- ciphers named or shaped ---------------------------------------------------------------------------------
# The text names its cipher (Vigenère and its key, a keyboard shift, base 36) or its shape gives it away (numbers
# 1-26 for letters, Bacon's a/b groups, small-capital or other letter-like characters).
_SMALL_LETTER_NAME = re.compile(r"^(?:LATIN LETTER SMALL CAPITAL|MODIFIER LETTER (?:SMALL|CAPITAL)|LATIN SUBSCRIPT "
                                r"SMALL LETTER|SUPERSCRIPT LATIN SMALL LETTER) ([A-Z])$")


# the blocks those characters live in (IPA small capitals, modifier letters, phonetic extensions, super- and
# subscripts, Latin Extended-D): a text without any is not looked at character by character
_LETTERLIKE_BLOCKS = re.compile("[\u0250-\u02ff\u1d00-\u1dbf\u2070-\u209f\ua700-\ua7ff]")


def _letterlike(text: str) -> str | None:
    if not _LETTERLIKE_BLOCKS.search(text):
        return None
    out, changed = [], 0
    for ch in text:
        if ch > "\u007f":
            m = _SMALL_LETTER_NAME.match(unicodedata.name(ch, ""))
            if m:
                out.append(m.group(1).lower())
                changed += 1
                continue
        out.append(ch)
    return "".join(out) if changed >= 5 else None


_A1Z26 = re.compile(r"(?<![\w.])(?:(?:[1-9]|1\d|2[0-6])-){2,}(?:[1-9]|1\d|2[0-6])(?![\w.])")


def _a1z26(text: str) -> str | None:
    words = _A1Z26.findall(text)
    if len(words) < 3:
        return None
    return _A1Z26.sub(lambda m: "".join(chr(96 + int(n)) for n in m.group(0).split("-")), text)


_BACON_WORD = re.compile(r"(?<![A-Za-z])(?:[abAB]{5})+(?![A-Za-z])")
_BACON_24 = "abcdefghiklmnopqrstuwxyz"  # i=j, u=v


def _bacon(text: str) -> Iterable[str]:
    if len(_BACON_WORD.findall(text)) < 3:
        return
    for alphabet in ("abcdefghijklmnopqrstuvwxyz", _BACON_24):
        def word(m: re.Match[str], alphabet: str = alphabet) -> str:
            bits = m.group(0).lower()
            idx = [int(bits[i : i + 5].replace("a", "0").replace("b", "1"), 2) for i in range(0, len(bits), 5)]
            return "".join(alphabet[i] if i < len(alphabet) else "?" for i in idx)
        yield _BACON_WORD.sub(word, text)


_VIGENERE_KEY = re.compile(r"vig[eè]n[eè]re\b[^:\n]{0,40}?\bkey\b\W{0,3}(?:is\s+|of\s+)?[\"'“‘]?([A-Za-z]{2,20})", re.I)


def _vigenere(text: str) -> Iterable[str]:
    m = _VIGENERE_KEY.search(text)
    if not m:
        return
    key = [ord(c) - 97 for c in m.group(1).lower()]
    start = m.end()
    colon = text.find(":", start, start + 80)  # "…key lemon, position by position: <cipher text>"
    start = colon + 1 if colon >= 0 else start
    while start < len(text) and text[start].isspace():
        start += 1
    for every_character in (False, True):  # the key advancing on letters only, or on every position
        out, k = [], 0
        for ch in text[start:]:
            if ch.isascii() and ch.isalpha():
                base = 97 if ch.islower() else 65
                out.append(chr(base + (ord(ch) - base - key[k % len(key)]) % 26))
                k += 1
            else:
                out.append(ch)
                k += every_character
        yield text[:start] + "".join(out)


_KEYBOARD_ROWS = ("`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./")
_KEYBOARD_HINT = re.compile(r"\b(?:keyboard|keys?|hands?)\b[^.\n]{0,40}\b(?:shift\w*|moved|one (?:key|to the))\b|"
                            r"\bshift\w*\b[^.\n]{0,40}\b(?:keyboard|keys?|hands?)\b", re.I)


# each key read as its neighbour on the left (-1) or on the right (1)
_KEYBOARD_TABLES = {step: {ord(ch): row[i + step] for row in _KEYBOARD_ROWS for i, ch in enumerate(row)
                           if 0 <= i + step < len(row)} for step in (-1, 1)}


def _keyboard_shifts(text: str) -> Iterable[str]:
    """The whole text when it says it was typed with the hands shifted (the readability test covers the rest)."""
    if not _KEYBOARD_HINT.search(text):
        return
    for table in _KEYBOARD_TABLES.values():
        yield text.lower().translate(table)


_BASE36_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-zA-Z]{30,}(?![0-9A-Za-z])")


def _base36(text: str) -> Iterable[str]:
    if not re.search(r"\bbase[- ]?36\b", text, re.I):
        return
    for token in _BASE36_TOKEN.findall(text):
        try:
            n = int(token, 36)
        except ValueError:
            continue
        decoded = printable(n.to_bytes((n.bit_length() + 7) // 8, "big"))
        if decoded:
            yield decoded


# --- readability ---------------------------------------------------------------------------------------------

# the word list is prose words of four letters and more, and some of three: the short words a sentence is made of
_FUNCTION_WORDS = frozenset("""a i an the to of in on at by for from with and or but not no nor is are was were be been
am it its this that these those you your yours we our us me my he she they them their his her him do does did done can
will would should must may might shall all any every if then than as so up out into onto over off too very just now
here there what when where who whom which why how yes ok via per each other only own same such both few more most some
once again also never always""".split())
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")


def readability(text: str) -> tuple[float, int]:
    """(the share of ``text``'s letters that are in English words, how many words of two letters or more it has).
    Letters, not words: "a" and "i" turn up in any decoded noise, a long word does not."""
    words = [w.lower() for w in _WORD.findall(text)]
    words = [w for w in words if len(w) >= 2 or w in ("a", "i")]
    if not words:
        return 0.0, 0
    known = common_words()
    letters = sum(len(w) for w in words)
    hits = sum(len(w) for w in words if w in _FUNCTION_WORDS or w.split("'")[0] in known)
    return hits / letters, sum(len(w) >= 2 for w in words)


def reads_as_english(text: str, *, min_words: int = 4, share: float = 0.6) -> bool:
    ratio, count = readability(text)
    return count >= min_words and ratio >= share


def _segmented(letters: str) -> str | None:
    """Letters written without spaces (a Polybius square, bits, a rail fence of letters) split into English words,
    or None when no split covers nine letters in ten with words."""
    letters = letters.lower()
    n = len(letters)
    if n < 12 or n > 600 or not letters.isalpha():
        return None
    known = common_words()
    # best[i]: (letters covered by words, -words used, split) for letters[:i]; a letter left out costs its place
    best: list[tuple[int, int, list[str]] | None] = [None] * (n + 1)
    best[0] = (0, 0, [])
    for i in range(n):
        if best[i] is None:
            continue
        covered, used, parts = best[i]
        step = (covered, used, [*parts, letters[i]])
        if best[i + 1] is None or step[:2] > best[i + 1][:2]:
            best[i + 1] = step
        for j in range(i + 2, min(n, i + 20) + 1):
            word = letters[i:j]
            if word in _FUNCTION_WORDS or (len(word) >= 3 and word in known):
                step = (covered + len(word), used - 1, [*parts, word])
                if best[j] is None or step[:2] > best[j][:2]:
                    best[j] = step
    covered, _, parts = best[n]
    return " ".join(parts) if covered >= 0.9 * n else None


def _spaced(decoded: str) -> str | None:
    """A decoded run as words: as it is when it has spaces, else split into words."""
    if " " in decoded.strip():
        return decoded if reads_as_english(decoded) else None
    return _segmented(re.sub(r"[^A-Za-z]", "", decoded))


# --- by shape ------------------------------------------------------------------------------------------------

_BITS = re.compile(r"(?<![01])(?:[01]{7,8}[\s,]*){4,}(?![01])")
_CODES = re.compile(r"(?<![\w.])(?:(?:0x[0-9a-fA-F]{2}|\d{2,3})(?:[\s,;]+|$)){8,}")
_MORSE = re.compile(r"(?<![\w.])(?:[.\-·•−–_]{1,7}(?:[ \t]*[/|][ \t]*|[ \t]+|$)){8,}")
_MORSE_CODE = {".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h",
               "..": "i", ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p",
               "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x",
               "-.--": "y", "--..": "z", "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4",
               ".....": "5", "-....": "6", "--...": "7", "---..": "8", "----.": "9"}
_NATO = {"alfa": "a", "alpha": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e", "foxtrot": "f",
         "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j", "kilo": "k", "lima": "l",
         "mike": "m", "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r", "sierra": "s",
         "tango": "t", "uniform": "u", "victor": "v", "whiskey": "w", "whisky": "w", "xray": "x", "x-ray": "x",
         "yankee": "y", "zulu": "z"}
_NATO_BREAKS = {"/", "|", "space", "stop", "break", "(space)", "[space]", "-", "—", "–", "//"}
_NATO_RUN = re.compile(r"(?:\b(?:" + "|".join(sorted(map(re.escape, _NATO), key=len, reverse=True))
                       + r")\b[\s,]*(?:(?:/|\||space|stop|break|\(space\)|—|–|//)[\s,]*)?){5,}", re.I)
_BRAILLE = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵", "abcdefghijklmnopqrstuvwxyz", strict=True))
_BRAILLE_RUN = re.compile("[\u2800-\u28ff][\u2800-\u28ff\\s,.'!?]{7,}")
_REGIONAL_RUN = re.compile("[\U0001f1e6-\U0001f1ff][\U0001f1e6-\U0001f1ff\\s\u200b\u200c\u200d,.'!?-]{7,}")
_POLYBIUS = re.compile(r"(?<![\w.])(?:[1-5]{2}(?:[1-5]{2})*(?:[\s,/|]+|$)){6,}")
_POLYBIUS_SQUARE = "abcdefghiklmnopqrstuvwxyz"  # i and j share a cell
_UPSIDE_DOWN = dict(zip("ɐqɔpǝɟƃɥᴉɾʞlɯuodbɹsʇnʌʍxʎz∀ꓭƆᗡƎℲ⅁HIſꓘ˥WNOԀὉᴚS⊥∩ΛMX⅄Z",
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", strict=True))
_UPSIDE_DOWN_ONLY = re.compile("[ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ∀ꓭƆᗡƎℲ⅁ꓘ˥ԀὉᴚ⊥∩Λ⅄]")
_XOR_HEX = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[\s:]?){16,}(?![0-9a-fA-F])")


def _bits(text: str) -> Iterable[str]:
    for m in _BITS.finditer(text):
        groups = re.findall(r"[01]{7,8}", m.group(0))
        out = "".join(chr(int(g, 2)) for g in groups)
        if (words := _spaced(out)) is not None:
            yield text.replace(m.group(0), f" {words} ")


def _codes(text: str) -> Iterable[str]:
    """Character codes: decimal (72 101 108 …) or hexadecimal with its prefix (0x48 0x65 …)."""
    for m in _CODES.finditer(text):
        chars = []
        for token in re.findall(r"0x[0-9a-fA-F]{2}|\d+", m.group(0)):
            code = int(token, 16) if token.startswith("0x") else int(token)
            if not 32 <= code < 127:
                break
            chars.append(chr(code))
        else:
            if (words := _spaced("".join(chars))) is not None:
                yield text.replace(m.group(0), f" {words} ")


def _morse(text: str) -> Iterable[str]:
    for m in _MORSE.finditer(text):
        run = m.group(0).translate(str.maketrans("·•−–_", "..---"))
        words = [w.split() for w in re.split(r"\s*[/|]\s*|\s{3,}", run.strip())]
        decoded = " ".join("".join(_MORSE_CODE.get(c, "?") for c in w) for w in words if w)
        if decoded.count("?") <= len(decoded) // 10 and (spaced := _spaced(decoded.replace("?", ""))) is not None:
            yield text.replace(m.group(0), f" {spaced} ")


def _nato(text: str) -> Iterable[str]:
    for m in _NATO_RUN.finditer(text):
        out = []
        for token in re.findall(r"x-ray|[\w()\[\]]+|[/|—–]|//", m.group(0), re.I):
            low = token.lower()
            if low in _NATO:
                out.append(_NATO[low])
            elif low in _NATO_BREAKS:
                out.append(" ")
        decoded = "".join(out)
        if (spaced := _spaced(decoded)) is not None:
            yield text.replace(m.group(0), f" {spaced} ")


def _braille(text: str) -> Iterable[str]:
    for m in _BRAILLE_RUN.finditer(text):
        decoded = "".join(_BRAILLE.get(ch, " " if ch == "\u2800" else ch) for ch in m.group(0))
        if (spaced := _spaced(decoded)) is not None:
            yield text.replace(m.group(0), f" {spaced} ")


def _regional(text: str) -> Iterable[str]:
    for m in _REGIONAL_RUN.finditer(text):
        decoded = "".join(chr(ord(ch) - 0x1F1E6 + 97) if "\U0001f1e6" <= ch <= "\U0001f1ff" else ch
                          for ch in m.group(0) if ch not in "\u200b\u200c\u200d")
        if (spaced := _spaced(decoded)) is not None:
            yield text.replace(m.group(0), f" {spaced} ")


def _polybius(text: str) -> Iterable[str]:
    for m in _POLYBIUS.finditer(text):
        words = []
        for token in re.split(r"[\s,]*[/|][\s,]*|\s{2,}", m.group(0).strip()):
            pairs = re.findall(r"[1-5]{2}", token)
            words.append("".join(_POLYBIUS_SQUARE[(int(p[0]) - 1) * 5 + int(p[1]) - 1] for p in pairs))
        if (spaced := _spaced(" ".join(words))) is not None:
            yield text.replace(m.group(0), f" {spaced} ")


def _stripped_marks(text: str) -> str | None:
    """Letters stacked with combining marks ("zalgo"): the base letters."""
    decomposed = unicodedata.normalize("NFD", text)
    marks = sum(unicodedata.category(ch) == "Mn" for ch in decomposed)
    if marks < 8 or marks < 0.3 * sum(ch.isalpha() for ch in decomposed):
        return None
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn"))


def _upside_down(text: str) -> str | None:
    if len(_UPSIDE_DOWN_ONLY.findall(text)) < 4:
        return None
    return "".join(_UPSIDE_DOWN.get(ch, ch) for ch in reversed(text)).replace("˙", ".").replace("¿", "?")


def _xor(text: str) -> Iterable[str]:
    """Hex of bytes XORed with one key byte: 255 keys tried, the one that reads as English kept."""
    for m in _XOR_HEX.finditer(text):
        digits = re.sub(r"[\s:]", "", m.group(0))[:800]
        raw = bytes.fromhex(digits[: len(digits) // 2 * 2])
        if reads_as_english(raw.decode("latin-1")):
            continue  # plain hex of text: the hex view reads it
        for key in range(1, 256):
            out = bytes(b ^ key for b in raw)
            if sum(32 <= b < 127 for b in out) < 0.95 * len(out):
                continue
            decoded = out.decode("ascii", "replace")
            if reads_as_english(decoded):
                yield text.replace(m.group(0), f" {decoded} ")
                break


# --- by readability ------------------------------------------------------------------------------------------

_PARTS = re.compile(r"(?<=:)\s+|\n+|(?<=[.!?])\s+(?=[A-Z])")


def _caesar(part: str) -> Iterable[str]:
    for k in range(1, 26):
        yield "".join(chr((ord(c) - 97 - k) % 26 + 97) if "a" <= c <= "z" else
                      chr((ord(c) - 65 - k) % 26 + 65) if "A" <= c <= "Z" else c for c in part)


def _words_reversed(part: str) -> Iterable[str]:
    yield re.sub(r"[A-Za-z']+", lambda m: m.group(0)[::-1], part)


def _pig_latin(part: str) -> Iterable[str]:
    words = re.findall(r"[A-Za-z]+", part)
    if not words or sum(w.lower().endswith("ay") for w in words) < 0.6 * len(words):
        return
    known = common_words()

    def undo(m: re.Match[str]) -> str:
        w = m.group(0).lower()
        if not w.endswith("ay"):
            return w
        stem = w[:-2]
        if stem[:1] in "aeiou" and stem[-1:] in "wyh" and (stem[:-1] in known or stem[:-1] in _FUNCTION_WORDS):
            return stem[:-1]  # a word that began with a vowel: "allway", "anday" read "all", "and"
        for cut in range(1, min(4, len(stem)) + 1):  # the consonants moved to the end, put back in front
            word = stem[-cut:] + stem[:-cut]
            if word in known or word in _FUNCTION_WORDS:
                return word
        for tail in ("w", "y", "h", ""):  # words that began with a vowel: "away", "eyay", "anday"
            if stem.endswith(tail) and (stem[: len(stem) - len(tail)] in known
                                        or stem[: len(stem) - len(tail)] in _FUNCTION_WORDS):
                return stem[: len(stem) - len(tail)]
        return stem
    yield re.sub(r"[A-Za-z]+", undo, part)


def _rail_fence(part: str) -> Iterable[str]:
    n = len(part)
    for rails in range(2, 7):
        if n < 2 * rails:
            return
        pattern = [*range(rails), *range(rails - 2, 0, -1)]
        order = sorted(range(n), key=lambda i: (pattern[i % len(pattern)], i))
        out = [""] * n
        for ch, i in zip(part, order, strict=True):
            out[i] = ch
        yield "".join(out)


def _keyboard_shifted(part: str) -> Iterable[str]:
    for table in _KEYBOARD_TABLES.values():
        yield part.lower().translate(table)


_KEYLESS = (("Caesar shift", _caesar), ("words reversed", _words_reversed), ("Pig Latin", _pig_latin),
            ("rail fence", _rail_fence), ("keyboard shift", _keyboard_shifted))


def _unreadable_parts(text: str) -> list[str]:
    """The whole text and its parts (after a label's colon, a line, a sentence) that hold four words and more, few
    of them English: what a keyless transform is tried on."""
    parts = [text, *(p for p in _PARTS.split(text) if p)]
    out = []
    for part in dict.fromkeys(parts):
        ratio, count = readability(part)
        if (count >= 4 and ratio < 0.35) or (count == 1 and len(part.strip()) >= 20 and part.strip().isalpha()):
            out.append(part)
    return out[:6]


def _readable_again(text: str) -> Iterable[tuple[str, str]]:
    for part in _unreadable_parts(text):
        for name, transform in _KEYLESS:
            best, best_ratio = None, 0.6
            for candidate in transform(part):
                if " " not in candidate.strip():  # letters run together: readable when they split into words
                    words = _segmented(re.sub(r"[^A-Za-z]", "", candidate))
                    candidate = words or candidate
                ratio, count = readability(candidate)
                if count >= 4 and ratio >= best_ratio:
                    best, best_ratio = candidate, ratio
            if best is not None:
                yield f"encoded ({name})", text.replace(part, best)
                break


def ciphers(text: str) -> Iterable[tuple[str, str]]:
    """(how, the text with its enciphered run read back) for each cipher or spelling found in ``text``."""
    if len(text) >= 4000:
        return
    if (small := _letterlike(text)) is not None:
        yield "encoded (letter-like characters)", small
    if (numbers := _a1z26(text)) is not None:
        yield "encoded (letter numbers)", numbers
    for decoded in _bacon(text):
        yield "encoded (Bacon)", decoded
    for vig in _vigenere(text):
        yield "encoded (Vigenère)", vig
    for shifted in _keyboard_shifts(text):
        yield "encoded (keyboard shift)", shifted
    for decoded in _base36(text):
        yield "encoded (base 36)", decoded
    for name, decoder in (("bits", _bits), ("character codes", _codes), ("Morse", _morse), ("NATO alphabet", _nato),
                          ("Braille", _braille), ("regional indicators", _regional), ("Polybius square", _polybius),
                          ("XOR", _xor)):
        for decoded in decoder(text):
            yield f"encoded ({name})", decoded
    if (plain := _stripped_marks(text)) is not None:
        yield "obfuscated (combining marks)", plain
    if (flipped := _upside_down(text)) is not None:
        yield "obfuscated (upside down)", flipped
    yield from _readable_again(text)
