"""Contact and identity number recognizers: credit cards and phone numbers.

:class:`LooseCardRecognizer` (Luhn-valid 12-19 digit numbers, incl. Mastercard 2-series, Maestro, JCB, Mir),
:class:`LoosePhoneRecognizer` (international/local layouts that ``phonenumbers`` does not accept without a
region, gated by context words), :class:`WrittenLanguagePhoneRecognizer` (a national layout of the language the text
is written in: :func:`._common.written_languages`) and :class:`NamedMobileRecognizer` (a mobile number of one of
:data:`MOBILE_REGIONS` right after a person's name). E-mail, IBAN, IP, SSN and the other identity numbers come
from Presidio's stock recognizers (see :func:`governance.privacy.engine.get_analyzer`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ..vocabulary import file_extensions
from ._common import _result, _window, a_persons_name, table_cells, written_languages
from .offline_tld import ensure_offline_tldextract

# --------------------------------------------------------------------------------------------------
# Credit cards: Luhn-valid 12-19 digits (the stock recognizer misses Mastercard 2-series, Maestro, JCB 2131,
# Mir)
# --------------------------------------------------------------------------------------------------

# groups may be cut by a space, a dash, a dot or a slash (mixed, too: "4539-1488 0343.6467"), or by a line break when
# every group has a card's width (a text reflowed, or one-lined by a rewriter)
_CARD_RE = re.compile(r"(?<![\d\w.\-/+])(?:\d(?:[ \-./]|\r?\n)?){11,18}\d(?![\d\w]|[.\-/]\d)")
_CARD_CONTEXT = re.compile(
    r"card|credit|debit|\bcc\b|visa|master ?card|amex|american express|discover|jcb|diners|maestro|mir\b|"
    r"unionpay|payment|billing|\bpan\b|expir"
)
_CARD_IIN = re.compile(
    r"^(?:4|5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720|3[47]|6011|65|64[4-9]|35(?:2[89]|[3-8]\d)|"
    r"2131|1800|30[0-5]|36|38|5[06-9]|6\d|220[0-4])"
)


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


class LooseCardRecognizer(EntityRecognizer):
    """CREDIT_CARD: Luhn-valid 12-19 digit numbers. Known issuer prefix -> 0.5, card context words -> +0.4."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["CREDIT_CARD"],
            name="RecMemCardRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _CARD_RE.finditer(text):
            raw = m.group(0)
            digits = re.sub(r"\D", "", raw)
            if not (12 <= len(digits) <= 19) or not luhn_ok(digits) or len(set(digits)) < 2:
                continue
            groups = re.split(r"[ \-./]|\r?\n", raw)
            if len(groups) > 1 and any(len(g) < 3 for g in groups):
                continue  # 12 34 56 ... looks like a phone number or a table, not a card
            if "\n" in raw and not all(len(g) == 4 for g in groups[:-1]):
                continue  # numbers on consecutive lines are a table unless grouped like a card
            if "." in raw and "/" not in raw and " " not in raw and "-" not in raw and len(groups) == 4 and all(
                    len(g) <= 3 for g in groups):
                continue  # an address of four dotted groups
            # issuer prefix alone is enough for 14-19 digits; 12-13 digit numbers need a card word nearby
            score = 0.5 if _CARD_IIN.match(digits) and len(digits) >= 14 else 0.3
            before, after = _window(text, m.start(), m.end(), 60, 25)
            if _CARD_CONTEXT.search(before) or _CARD_CONTEXT.search(after):
                score += 0.4
            out.append(_result(self, "CREDIT_CARD", m.start(), m.end(), score))
        return out


# --------------------------------------------------------------------------------------------------
# Phone numbers in international / local layouts, gated by context
# --------------------------------------------------------------------------------------------------

_PHONE_RE = re.compile(
    r"(?<![\w+/.\-])(?:\+|00)?(?:\(\+?\d{1,4}\)|\d{1,5})(?:(?:[ .\-]|\s?\(0\)\s?)?(?:\(\d{1,5}\)|"
    r"\d{1,6})){0,6}(?:\s?(?:x|ext\.?|extension)\s?\d{1,6})?(?![\w]|[.\-/]\d)"
)
_PHONE_CONTEXT = re.compile(
    r"phone|\btel\b|tel\.|telephone|mobile|\bcell|\bfax\b|\bdesk\b|office|\bcall|\bring\b|\bdial|whatsapp|"
    r"signal|\bsms\b|\btext(?:ed|ing|s)?\b|message|contact|reach|answer|number|\bnr\b|\bno\.|hotline|landline|"
    r"extension|"
    # a landline in other languages ("o al fijo (01) 442-3310", "Festnetz", "fixe", "fisso")
    r"\bfijo\b|festnetz|\bfixe\b|\bfisso\b|stacjonarn|\bsabit\b|\bvaste lijn|"
    # "call" in other languages: the number after "ligue para", "ruf … an", "appelle" is a phone number
    # (with the pronouns written onto the verb: "llamadla", "llámame", "chiamami", "appelez-moi")
    r"\blig(?:ue|a|ar|uem)\b|\bll[aá]m[^\W\d_]*|\bappel(?:le|lez|er)?\b|\banruf|\bruf\b|\bchiam[^\W\d_]*|"
    r"\bbel(?:len)?\b|zadzwo|позвон|звон|\bring\b|\bsoita\b|\bzavolej|\bhívj|\bara\b|\bpiga\b|\btelp\b|"
    # ... and "reach me at", "call me back" in other languages ("me joindre au", "rufen Sie … zurück",
    # "richiamarmi al", "erreichbar unter", "contactarme al", "bellen op")
    r"\brufen\b|zurückruf|rückruf|erreich|\bjoindre\b|\brappel|richiam|\bcontact[ae]r|\bcontattar|"
    r"\bbereikbaar\b|\bbel\b|\bdzwoń|\bligar\b|\bhubungi\b|\baray[ıi]n|"
    # the same words where the number is written in another language: a phone in a Chinese, Japanese, Korean,
    # Thai, Vietnamese or European sentence has no English word near it
    r"telefon|tel[eé]fono|telefone|t[eé]l[eé]phone|portable|m[oó]vil|celular|\bcel\b|handy|numm?er|num[eé]ro|"
    r"mobiel|mobil|kom[oó]rk|\bgsm\b|puhelin|телефон|\bтел\b|тел\.|моб|κινητ|τηλ|هاتف|جوال|موبايل|טלפון|נייד|"
    r"फ़ोन|फोन|मोबाइल|تلفن|شماره|موبایل|\bhp\b|\bponsel\b|nomor|"
    r"电话|電話|手机|手機|联系|聯繫|联络|連絡|携帯|番号|전화|연락|휴대폰|핸드폰|โทร|điện thoại|sđt|"
    # "number" itself in other languages
    r"号码|號碼|번호|หมายเลข|номер|n[úu]mero|num[ăa]r|numara|αριθμ|מספר|رقم|शुमारा|नंबर|số"
)
_DATE_LIKE = re.compile(
    r"^(?:\d{4}[.\-/ ]\d{1,2}[.\-/ ]\d{1,2}|\d{1,2}[.\-/ ]\d{1,2}[.\-/ ]\d{2,4}|(?:19|20)\d\d[ \-](?:19|"
    r"20)\d\d|(?:19|20)\d\d)$"
)
_STREET_AHEAD_RE = re.compile(
    r"[ \t]+(?:[A-ZÀ-ÞĀ-ſ][\w'’\-]*[ \t]+){0,3}?(?:Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Lane|Ln|"
    r"Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|Crescent|Parkway|Highway)\b"
)
_IP_LIKE = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_VERSION_LIKE = re.compile(r"^\d+(?:\.\d+){1,3}$")


class LoosePhoneRecognizer(EntityRecognizer):
    """PHONE_NUMBER in layouts ``phonenumbers`` rejects without a region (``60-56-85-91``, ``467 3395``,
    ``+447700 921 916``, ``(37) 788-063``). 7-15 digits; ``+``/``00``/parentheses or 3+ groups give a base
    score, a phone-ish word within 40 characters before / 16 after adds 0.4. Dates, IPs, versions rejected.
    """

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["PHONE_NUMBER"],
            name="RecMemPhoneRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _PHONE_RE.finditer(text):
            raw = m.group(0).rstrip(" .-")
            main = re.split(r"\s?(?:x|ext\.?|extension)\s?\d", raw)[0]
            digits = re.sub(r"\D", "", main)
            if not 7 <= len(digits) <= 15:
                continue
            if _DATE_LIKE.match(main) or _IP_LIKE.match(main):
                continue
            if _VERSION_LIKE.match(main) and (
                len(main.split(".")[0]) < 2 or min(map(len, main.split("."))) < 2
            ):
                continue  # 10.0.19045 is a version, 259.735.7502 a phone number
            groups = [g for g in re.split(r"[ .\-()]+", main) if g]
            intl = main.startswith(("+", "00", "("))
            if intl or len(groups) >= 3:
                score = 0.35
            elif len(groups) == 2:
                score = 0.2
            else:
                score = 0.15
            if "." in main and not intl and len(groups) < 3:
                continue
            end = m.start() + len(raw)
            if _STREET_AHEAD_RE.match(text, end) and len(re.findall(r"\d+", main)) <= 2:
                continue  # "17031 2202 Rissik St": house numbers before a street name
            before, after = _window(text, m.start(), end, 40, 16)
            if _PHONE_CONTEXT.search(before) or _PHONE_CONTEXT.search(after):
                score += 0.4
            elif intl and _valid_international(main):
                score = max(score, 0.85)  # "+49 171 3948271", "0049 171 …": a number libphonenumber dials
            elif len(groups) >= 3 and _a_mobile_abroad(main):
                score = max(score, 0.6)  # "(087 284 7193)": a mobile in its own country's grouped layout
            elif _AREA_CODE_RE.fullmatch(main):
                score = max(score, 0.6)  # "(01) 678 9012": an area code in brackets, led by its trunk 0
            elif "+" in main or "(0)" in main:
                score += 0.1
            out.append(_result(self, "PHONE_NUMBER", m.start(), m.start() + len(raw), score))
        for rx in (_SPACED_DIGITS_RE, _BROKEN_LINE_PHONE_RE):
            for m in rx.finditer(text):
                before, after = _window(text, m.start(), m.end(), 40, 16)
                if 8 <= sum(c.isdigit() for c in m.group(0)) <= 15 and (
                        _PHONE_CONTEXT.search(before) or _PHONE_CONTEXT.search(after)):
                    out.append(_result(self, "PHONE_NUMBER", m.start(), m.end(), 0.75))
        for m in _CHAT_LINK_PHONE_RE.finditer(text):
            if _valid_international("+" + m.group("n").lstrip("+")):
                out.append(_result(self, "PHONE_NUMBER", m.start("n"), m.end("n"), 0.85))
        if any(sep in text for sep in (",", ";", "\t", "|")) and _PHONE_COLUMN_RE.search(text):
            for s, e in table_cells(text, _PHONE_COLUMN_RE):  # a phone column ("name,phone,city" and its rows)
                cell = text[s:e]
                if _PHONE_CELL_RE.fullmatch(cell) and 6 <= len(re.sub(r"\D", "", cell)) <= 15:
                    out.append(_result(self, "PHONE_NUMBER", s, e, 0.85))
        return out


# A number written a digit at a time, to slip past a filter or read aloud ("0 8 0 - 4 4 1 2 - 7 7 3 0",
# "0-7-9-1-1 1-2-3-4-5-6"): no two digits touch; a phone word near it says what it is
_SPACED_DIGITS_RE = re.compile(r"(?<![\w.\-])\+?\d(?:(?:[ \t]?[\-.][ \t]?|[ \t])\d){7,14}(?![\w]|[.\-]\d)")
# ... and one a line break cut in two ("+44 7700\n900 482"): led by its country code
_BROKEN_LINE_PHONE_RE = re.compile(r"(?<![\w+])(?:\+|00)\d{1,4}(?:[ .\-]?\d{2,5}){0,3}[ \t]*\r?\n[ \t]*\d{2,5}"
                                   r"(?:[ .\-]?\d{2,5}){0,3}(?![\w]|[.\-]\d)")
# A chat link that dials a number: WhatsApp's wa.me/<number>, Telegram's t.me/+<number>, Signal's signal.me/#p/+<n>
_CHAT_LINK_PHONE_RE = re.compile(r"(?i)\b(?:wa\.me|t\.me|signal\.me/#p|viber://chat\?number=)/?(?P<n>\+?\d{8,15})\b")
_PHONE_COLUMN_RE = re.compile(
    r"(?i)(?:(?:home|work|mobile|cell|office|contact|private|business)?[ _-]?(?:phone|tel|telephone|mobile|cell|"
    r"msisdn|fax)(?:[ _-]?(?:no|nr|number|num|#))?|telefon(?:nummer)?|handy(?:nummer)?|t[eé]l[eé]phone|portable|"
    r"tel[eé]fono|telefone|celular|m[oó]vil|cellulare|telefoonnummer|puhelin|телефон)")
_PHONE_CELL_RE = re.compile(r"\+?[\d ()./\-]{6,24}")


# --------------------------------------------------------------------------------------------------
# E-mail addresses written to dodge a pattern: "anna dot berg at example dot com", "anna[at]example[dot]com"
# --------------------------------------------------------------------------------------------------

_AT = r"(?:[ \t]*[\[({<][ \t]*at[ \t]*[\])}>][ \t]*|[ \t]+at[ \t]+|[ \t]*@[ \t]*)"
_DOT = r"(?:[ \t]*[\[({<][ \t]*dot[ \t]*[\])}>][ \t]*|[ \t]+dot[ \t]+|\.)"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
_OBFUSCATED_EMAIL_RE = re.compile(
    r"(?<![\w.\-])(?P<local>[A-Za-z0-9_%+\-]+(?:" + _DOT + r"[A-Za-z0-9_%+\-]+){0,3})" + _AT
    + r"(?P<domain>" + _LABEL + r"(?:" + _DOT + _LABEL + r"){1,4})(?![\w\-])",
    re.I,
)
_OBFUSCATION_RE = re.compile(r"[\[({<][ \t]*(?:at|dot)[ \t]*[\])}>]|[ \t]+(?:at|dot)[ \t]+", re.I)
_MAIL_CONTEXT = re.compile(r"e-?mail|mail|contact|write|reach|address|inbox", re.I)


def deobfuscate_email(value: str) -> str:
    """``anna dot berg [at] example (dot) com`` → ``anna.berg@example.com`` (the same pseudonym as the plain
    address)."""
    value = re.sub(r"[ \t]*[\[({<][ \t]*at[ \t]*[\])}>][ \t]*|[ \t]+at[ \t]+|[ \t]*@[ \t]*", "@", value, flags=re.I)
    return re.sub(r"[ \t]*[\[({<][ \t]*dot[ \t]*[\])}>][ \t]*|[ \t]+dot[ \t]+", ".", value, flags=re.I)


def _public_suffix_ok(domain: str) -> bool:
    parts = ensure_offline_tldextract()(domain)
    return bool(parts.suffix) and bool(parts.domain)


class ObfuscatedEmailRecognizer(EntityRecognizer):
    """EMAIL_ADDRESS written to dodge a pattern: ``[at]``/``(at)``/`` at `` for ``@`` and ``[dot]``/`` dot `` for
    ``.`` (spaced or bracketed, any case). The domain must end in a real public suffix (the bundled list). A
    bracketed ``[at]`` is enough; a spelled-out `` at `` needs a spelled-out `` dot `` too, or a mail word nearby
    ("write to anna at example.com")."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["EMAIL_ADDRESS"], name="RecMemObfuscatedEmail",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        low = text.lower()
        if "at" not in low or ("dot" not in low and "[" not in low and "(" not in low and "<" not in low
                               and "{" not in low and "mail" not in low and "contact" not in low):
            return []
        out = []
        pos = 0
        while (m := _OBFUSCATED_EMAIL_RE.search(text, pos)) is not None:
            if self._accept(text, m):
                out.append(_result(self, "EMAIL_ADDRESS", m.start(), m.end(), self._accept(text, m)))
                pos = m.end()
            else:  # "me at anna.berg at example.com": the address may start at a later word of a rejected match
                nxt = re.search(r"[\s.\[({<]", text[m.start() :])
                pos = m.start() + (nxt.end() if nxt else len(text) - m.start())
        return out

    @staticmethod
    def _accept(text: str, m: re.Match[str]) -> float:
        raw = m.group(0)
        tokens = _OBFUSCATION_RE.findall(raw)
        if not tokens:
            return 0.0  # a plain address: the stock recognizer's
        bracketed = any(t.strip()[0] in "[({<" for t in tokens)
        spelled_dot = any(t.strip().lower() == "dot" for t in tokens)
        before = text[max(0, m.start() - 40) : m.start()]
        if not (bracketed or spelled_dot or _MAIL_CONTEXT.search(before)):
            return 0.0
        address = deobfuscate_email(raw)
        if "@" not in address or not _public_suffix_ok(address.rsplit("@", 1)[1]):
            return 0.0
        return 0.9 if bracketed or spelled_dot else 0.6


# --------------------------------------------------------------------------------------------------
# National phone formats of a region (no country code), validated by libphonenumber
# --------------------------------------------------------------------------------------------------

_NATIONAL_CANDIDATE_RE = re.compile(
    r"(?<![\w+/.\-])\(?0?\d{1,5}\)?(?:[ .\-/]?\(?\d{1,5}\)?){1,5}(?![\w]|[.\-/]\d)"
)


def national_phone_spans(text: str, region: str) -> list[tuple[int, int, float]]:
    """Numbers written in ``region``'s national format that libphonenumber validates for that region.

    The layout must be a national one: where the region dials a trunk prefix ``0`` (most of the world: ``030
    1234567`` in DE), the number starts with it; in the North American plan, three groups ``(415) 555-0134`` /
    ``415-555-0134``. A bare run of digits is as likely an order number and is left to the context-gated
    recognizer. Score 0.45, 0.75 with a phone word nearby."""
    if not region or sum(c.isdigit() for c in text) < 6:
        return []
    import phonenumbers

    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    trunk = metadata.national_prefix if metadata is not None else None
    out = []
    for m in _NATIONAL_CANDIDATE_RE.finditer(text):
        raw = m.group(0).rstrip(" .-/")
        digits = re.sub(r"\D", "", raw)
        if not 6 <= len(digits) <= 13 or raw.isdigit() or _DATE_LIKE.match(raw) or _IP_LIKE.match(raw):
            continue
        groups = [g for g in re.split(r"[ .\-/()]+", raw) if g]
        end = m.start() + len(raw)
        before, after = _window(text, m.start(), end, 40, 16)
        context = bool(_PHONE_CONTEXT.search(before) or _PHONE_CONTEXT.search(after))
        if _valid_national(raw, digits, groups, region, trunk):
            out.append((m.start(), end, 0.75 if context else 0.45))
        elif context and digits.startswith("0") and any(
                _valid_national(raw, digits, groups, other, "0") for other in _TRUNK_ZERO_REGIONS if other != region):
            # a visitor's or a contact abroad's number in their own national layout ("my dentist: 07400 908958"),
            # beside a phone word: valid where it is dialled with a trunk 0
            out.append((m.start(), end, 0.75))
    return out


# Regions that dial national numbers with a trunk "0" (most of Europe, the UK, Australia, India, Brazil, Japan, …).
_TRUNK_ZERO_REGIONS = ("GB", "DE", "FR", "NL", "BE", "AT", "CH", "IE", "SE", "FI", "TR", "AU", "NZ", "ZA", "IN",
                       "BR", "JP", "KR", "CN", "AR", "MX", "NG", "EG", "PK")


def _parse_international(value: str):
    """A number written with its country code (``+`` or the international prefix ``00``), parsed; None without the
    code or when libphonenumber cannot read it."""
    import phonenumbers

    number = value.strip()
    number = "+" + number[2:] if number.startswith("00") else number
    if not number.startswith("+"):
        return None
    try:
        return phonenumbers.parse(number, None)
    except phonenumbers.NumberParseException:
        return None


def _valid_international(value: str) -> bool:
    """A number written with its country code that libphonenumber validates: no context word is needed for what can
    only be dialled."""
    import phonenumbers

    parsed = _parse_international(value)
    return parsed is not None and phonenumbers.is_valid_number(parsed)


# a national number written with its trunk-0 area code in brackets, then the subscriber's 6 to 8 digits in one to
# three groups: how Ireland, the UK, Peru, Argentina, Germany … write a landline; no order or ticket number has it
_AREA_CODE_RE = re.compile(r"\(0\d{1,4}\)[ ]?\d{2,4}(?:[ \-]?\d{2,4}){0,2}")


def _a_mobile_abroad(value: str) -> bool:
    """A number in three or more groups, led by its trunk ``0``, that is a valid *mobile* number of a region dialling
    national numbers with one (:data:`_TRUNK_ZERO_REGIONS`): "087 284 7193" (IE), "0612 345 678" (NL). A mobile
    range is narrow enough that an order or a ticket number rarely falls in it in that layout."""
    digits = re.sub(r"\D", "", value)
    return digits.startswith("0") and 9 <= len(digits) <= 12 and _a_mobile_of(value, _MOBILE_ABROAD_REGIONS)


def _a_mobile_of(value: str, regions) -> bool:
    """``value`` is a valid *mobile* number of one of ``regions`` (dialled there without a country code)."""
    import phonenumbers

    for region in regions:
        number = _parsed_in(value, region)
        if number is not None and phonenumbers.is_valid_number_for_region(number, region) and \
                phonenumbers.number_type(number) in (phonenumbers.PhoneNumberType.MOBILE,
                                                     phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE):
            return True
    return False


def _parsed_in(value: str, region: str):
    """``value`` read as dialled in ``region``; None when libphonenumber cannot read it."""
    import phonenumbers

    try:
        return phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return None


# (not Korea, Japan and China: their mobile ranges cover most numbers led by 01/09 in any grouping)
_MOBILE_ABROAD_REGIONS = tuple(r for r in _TRUNK_ZERO_REGIONS if r not in ("KR", "JP", "CN"))


def phone_spans(text: str) -> Iterator[tuple[int, int]]:
    """Runs in a phone number's layouts holding 8 to 15 digits, context or not: what the pseudonym registry looks
    up where a number known in the project comes back without a phone word."""
    for m in _PHONE_RE.finditer(text):
        if 8 <= sum(c.isdigit() for c in m.group(0)) <= 15:
            yield m.span()


def national_forms(value: str) -> list[str]:
    """The national form of a phone number written with its country code ("+44 7400 908958" → "07400 908958");
    none without the code (the country is unknown)."""
    import phonenumbers

    parsed = _parse_international(value)
    if parsed is None:
        return []
    national = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.NATIONAL)
    international = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    return [national] if re.sub(r"\D", "", national) != re.sub(r"\D", "", international) else []


def _valid_national(raw: str, digits: str, groups: list[str], region: str, trunk: str | None) -> bool:
    import phonenumbers

    if trunk == "0":
        if not digits.startswith("0"):
            return False
    elif not (len(digits) == 10 and len(groups) == 3 and [len(g) for g in groups] == [3, 3, 4]):
        return False
    number = _parsed_in(raw, region)
    return number is not None and phonenumbers.is_valid_number_for_region(number, region)


# --------------------------------------------------------------------------------------------------
# National phone formats of the language a sentence is written in: "Atención al cliente: 902 123 456", "Le standard :
# 01 42 76 40 40", "Biuro obsługi: 22 628 44 19" carry no country code and often no phone word, and the project's
# region (RECMEM_PII_PHONE_REGION) is one country's plan
# --------------------------------------------------------------------------------------------------

#: the numbering plans a language's writers dial without a country code, per language of
#: :data:`._common.WRITTEN_LANGUAGES` (the big ones only: each region added is more runs of digits that validate
#: somewhere)
LANGUAGE_REGIONS: dict[str, tuple[str, ...]] = {
    "es": ("ES", "MX", "AR"), "pt": ("PT", "BR"), "it": ("IT",), "fr": ("FR", "BE", "CH"), "de": ("DE", "AT", "CH"),
    "nl": ("NL", "BE"), "pl": ("PL",), "el": ("GR",), "sv": ("SE",), "da": ("DK",), "nb": ("NO",), "fi": ("FI",),
    "cs": ("CZ",), "ro": ("RO",), "hu": ("HU",), "tr": ("TR",),
}
class WrittenLanguagePhoneRecognizer(EntityRecognizer):
    """PHONE_NUMBER written in the national layout of the language of its text: three groups or more, 8 to 13
    digits, a number libphonenumber validates in one of that language's plans (:data:`LANGUAGE_REGIONS`; led by the
    trunk ``0`` where the plan dials one). Score 0.6, 0.8 with a phone word near. An English sentence keeps its
    "build 912 345 678": the plans are tried only for a text written in their language."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["PHONE_NUMBER"], name="RecMemWrittenLanguagePhone",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        if sum(map(str.isdigit, text)) < 8:
            return []
        langs = written_languages(text)
        if not langs:
            return []
        regions = sorted({r for lang in langs for r in LANGUAGE_REGIONS[lang]})
        out = []
        for start, end, raw, digits in _phone_runs(text, _NATIONAL_CANDIDATE_RE, " .-/", min_groups=3):
            if not any(_valid_in_plan(raw, digits, region) for region in regions):
                continue
            before, after = _window(text, start, end, 40, 16)
            context = bool(_PHONE_CONTEXT.search(before) or _PHONE_CONTEXT.search(after))
            out.append(_result(self, "PHONE_NUMBER", start, end, 0.8 if context else 0.6))
        return out


def _phone_runs(text: str, pattern: re.Pattern[str], strip: str, *, min_groups: int = 1):
    """``(start, end, raw, digits)`` of the runs of ``pattern`` (``strip`` taken off their end) that may be a phone
    number: 8 to 13 digits in at least ``min_groups`` groups, no date, no IP address, and no sum — "123 456 789 zł",
    a sum with its thousands spaced, as many languages write them."""
    for m in pattern.finditer(text):
        raw = m.group(0).rstrip(strip)
        digits = re.sub(r"\D", "", raw)
        if not 8 <= len(digits) <= 13 or _DATE_LIKE.match(raw) or _IP_LIKE.match(raw):
            continue
        if min_groups > 1 and len([g for g in re.split(r"[ .\-/()]+", raw) if g]) < min_groups:
            continue
        end = m.start() + len(raw)
        if _AMOUNT_AFTER_RE.match(text, end) or _AMOUNT_BEFORE_RE.search(text, max(0, m.start() - 5), m.start()):
            continue
        yield m.start(), end, raw, digits


_CURRENCIES = r"€|\$|£|¥|₺|₽|zł|kr\b|kč|ft\b|lei\b|tl\b|chf|eur|usd|gbp|pln|sek|nok|dkk|czk|huf|ron|try|brl|mxn|ars|r\$"
_AMOUNT_AFTER_RE = re.compile(rf"[ \t\u00a0]?(?:{_CURRENCIES}|%|euros?\b|reais\b|pesos\b|dólares\b)", re.I)
_AMOUNT_BEFORE_RE = re.compile(rf"(?:{_CURRENCIES})[ \t\u00a0]?$", re.I)


def _valid_in_plan(raw: str, digits: str, region: str) -> bool:
    import phonenumbers

    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    # where the plan dials a trunk "0", a number is written with it, or with its area code in brackets ("(11)
    # 91234-5678": Brazil writes no trunk 0 within the country)
    if (metadata is not None and metadata.national_prefix == "0" and not digits.startswith("0")
            and not raw.startswith("(")):
        return False
    number = _parsed_in(raw, region)
    return number is not None and phonenumbers.is_valid_number_for_region(number, region)


# --------------------------------------------------------------------------------------------------
# A mobile number beside its owner's name, in the owner's country's layout: "Priya is on 98765 43210", "Linh 0901 234
# 567", "Wang Wei 138 0013 8000", "Fatima 0551234567" -- no phone word, no country code, and English around it
# --------------------------------------------------------------------------------------------------

#: the mobile plans tried (the most populous countries and the ones agents' users write from most): a number must
#: be a valid mobile of one of them, beside a name
MOBILE_REGIONS = (
    "IN", "CN", "ID", "PK", "BD", "NG", "BR", "MX", "PH", "VN", "EG", "ET", "IR", "TR", "DE", "TH", "GB", "FR",
    "IT", "ZA", "TZ", "KE", "KR", "CO", "ES", "AR", "DZ", "UG", "UA", "IQ", "PL", "MA", "SA", "PE", "MY", "VE",
    "GH", "NP", "LK", "AU", "NZ", "TW", "SG", "HK", "AE", "IL", "JO", "LB", "QA", "KW", "OM", "TN", "SN", "CI",
    "CM", "ZM", "ZW", "RW", "NL", "BE", "SE", "NO", "DK", "FI", "RU", "KZ", "JP", "CL", "EC", "GT", "DO", "UY",
    "KH", "MM", "PT", "GR", "RO", "CZ", "HU", "AT", "CH", "IE",
)
_NAME_BEFORE_NUMBER_RE = re.compile(
    r"(?:^|[\s(\[,;])(?P<name>[^\W\d_a-z][^\W\d_A-Z]{1,30}(?:-[^\W\d_][^\W\d_A-Z]{1,20})?)(?:['’]s)?"
    r"(?:[ \t]+(?:is|are|on|at|via|wa|whatsapp)){0,2}[ \t]*[:,–—\-]?[ \t]*\(?$")
_BARE_OR_GROUPED_RE = re.compile(r"(?<![\w+/.\-])\(?\d{2,5}\)?(?:[ .\-]?\d{2,8}){0,4}(?![\w]|[.\-/]\d)")


class NamedMobileRecognizer(EntityRecognizer):
    """PHONE_NUMBER right after a person's given name (the lexicon's; the possessive, "is on", "at" or a colon
    between them): 8 to 13 digits, in groups or one run, that some country's plan (:data:`MOBILE_REGIONS`)
    validates as a mobile number. Score 0.6. A word that is no given name ("Build 9123 4567", "Sprint 2024 1234")
    gives nothing; neither does a date, a version, an IP or a sum."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["PHONE_NUMBER"], name="RecMemNamedMobile",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        if sum(map(str.isdigit, text)) < 8:
            return []
        out = []
        for start, end, raw, _ in _phone_runs(text, _BARE_OR_GROUPED_RE, " .-"):
            if _VERSION_LIKE.match(raw):
                continue
            before = _NAME_BEFORE_NUMBER_RE.search(text, max(0, start - 48), start)
            if before is not None and a_persons_name(before.group("name")) and _a_mobile_of(raw, MOBILE_REGIONS):
                out.append(_result(self, "PHONE_NUMBER", start, end, 0.6))
        return out


# --------------------------------------------------------------------------------------------------
# IBANs broken across lines (a reflowed text, a form pasted line by line): Presidio's IBAN pattern stops at a line
# break; here the groups may be cut by one, and the mod-97 check decides
# --------------------------------------------------------------------------------------------------

_IBAN_BROKEN_RE = re.compile(
    r"(?<![A-Za-z0-9])(?P<v>[A-Z]{2}\d{2}(?:[ \t]*(?:\r?\n)?[ \t]*[A-Z0-9]{4}){2,7}"
    r"(?:[ \t]*(?:\r?\n)?[ \t]*[A-Z0-9]{1,3})?)(?![A-Za-z0-9])", re.I)


def iban_ok(value: str) -> bool:
    v = re.sub(r"\s", "", value).upper()
    if not 15 <= len(v) <= 34:
        return False
    rearranged = v[4:] + v[:4]
    try:
        return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1
    except ValueError:
        return False


class BrokenIbanRecognizer(EntityRecognizer):
    """IBAN_CODE whose 4-character groups are cut by a line break (the stock recognizer reads one line), or followed
    by a short word the stock pattern takes for one more group."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["IBAN_CODE"], name="RecMemBrokenIban",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _IBAN_BROKEN_RE.finditer(text):
            end = longest_valid_iban(text, m.start("v"), m.end("v"))
            if end is not None:
                out.append(_result(self, "IBAN_CODE", m.start("v"), end, 0.9))
        return out


_IBAN_GROUP_END_RE = re.compile(r"[ \t]*(?:\r?\n)?[ \t]*[A-Z0-9]{1,4}\Z", re.I)


def longest_valid_iban(text: str, start: int, end: int) -> int | None:
    """The end of the longest run of whole groups from ``start`` that passes the mod-97 check: the stock pattern
    fails a valid IBAN followed by a short word it reads as one more group ("BE68 5390 0754 7034 graag")."""
    while end - start >= 15:
        if iban_ok(text[start:end]) and (end == len(text) or not text[end].isalnum()):
            return end  # (a run cut inside a word passes the check one time in 97 by chance: "… 6769 graa")
        m = _IBAN_GROUP_END_RE.search(text, start, end)
        if m is None:
            return None
        end = m.start()
    return None


# --------------------------------------------------------------------------------------------------
# An address written backwards (an address in base64 or hex is the engine's: any decoded run is analysed whole)
# --------------------------------------------------------------------------------------------------

_PLAIN_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+\-]+@([A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)")


_AT_TOKEN_RE = re.compile(r"(?<![\w.@])[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+[A-Za-z0-9](?![\w@])")


# The names no public registry sells, which companies and examples use for mail all the same: RFC 2606 and 6761
# (example, test, invalid, localhost), multicast DNS (local), ICANN's private-use "internal", and the usual private
# zones. An address there is as personal as one at a public domain ("jane.doe@corp.internal").
_PRIVATE_TLDS = frozenset("example test invalid localhost local internal corp lan home intranet private priv "
                          "localdomain".split())
# The login names cloud images and services ship with: "ubuntu@db-primary-02.internal" is a host login, no one's mail
_SYSTEM_ACCOUNTS = frozenset("root ubuntu admin administrator ec2-user centos debian fedora rocky almalinux cloud-user "
                             "azureuser opc core git deploy postgres www-data nginx jenkins ansible vagrant pi "
                             "ubnt daemon nobody".split())
_PRIVATE_DOMAIN_RE = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)+([A-Za-z]{2,24})")


def _private_domain_address(token: str) -> bool:
    """``token`` is an address at a domain no public suffix list holds: a private or reserved zone, or a top label
    that no file name ends in ("logo@2x.png", "lodash@4.17.21", "pkg@1.2.beta" are files and versions, not mail),
    and not a system account's login on a host."""
    local, _, domain = token.rpartition("@")
    m = _PRIVATE_DOMAIN_RE.fullmatch(domain)
    if m is None or local.lower() in _SYSTEM_ACCOUNTS or not any(c.isalpha() for c in local) \
            or not any(c.isalpha() for c in domain[: m.start(1)]):
        return False
    tld = m.group(1).lower()
    return tld in _PRIVATE_TLDS or tld not in file_extensions()


class EncodedEmailRecognizer(EntityRecognizer):
    """EMAIL_ADDRESS whose domain is no public suffix as written: an address written backwards or in ROT13
    ("gro.elpmaxe@anna": one read backwards is), or one at a private or reserved domain ("jane@corp.internal",
    "ops@build.local", "kim@samsungsds.example")."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["EMAIL_ADDRESS"], name="RecMemEncodedEmail",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        if "@" in text:
            for m in _AT_TOKEN_RE.finditer(text):
                token = m.group(0)
                if _public_suffix_ok(token.rsplit("@", 1)[1]):
                    continue
                # written backwards, or in ROT13 ("qxsct.abyzi@ujynyz.arg" is an address at a .net domain)
                for reading in (token[::-1], codecs.encode(token, "rot13")):
                    other = _PLAIN_EMAIL_RE.fullmatch(reading)
                    if other and _public_suffix_ok(other.group(1)):
                        out.append(_result(self, "EMAIL_ADDRESS", m.start(), m.end(), 0.85))
                        break
                else:
                    if _private_domain_address(token):
                        out.append(_result(self, "EMAIL_ADDRESS", m.start(), m.end(), 0.9))
        return out
