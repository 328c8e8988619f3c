"""National identifiers of the EU, UK, India and Brazil, passports, health records and dates of birth.

Every identifier that carries a check digit is validated with it; the score then depends on how much else speaks
for the value:

* a *cue* (the identifier's name, in the languages where it is used: ``Steuer-ID``, ``NIR``, ``Aadhaar``,
  ``PESEL``...) within a short window before the value, or after it in its sentence ("… is my PESEL"), gives a high
  score; a generic identity cue (``Ausweis``, ``identidad``, "ID" as a noun after a determiner: "the form asks for
  the ID") gives the shape score;
* the identifier's own written *shape* (``123.456.789-09`` for a CPF, ``2345 6789 0123`` for an Aadhaar,
  ``850709-9805`` for a personnummer, ``1234.56.782`` for a BSN) is enough on its own, since log lines and tables do
  not write numbers so;
* a bare run of digits that only passes the checksum stays under the masking threshold: one random 11-digit number
  in ten passes a mod-10 check, and technical text is full of long numbers.

Identifiers without a checksum (UK NI number, Indian PAN) have a narrow letter/digit grammar; passports and medical
record numbers are only recognised after their cue. A date is a date of birth only next to a birth cue.

The check-digit functions are public: the adversarial benchmark generates fresh valid values with them.
"""

from __future__ import annotations

import re

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ._common import _result, table_cells, valid_date

#: entity type -> description (all masked by default; see the engine's policy)
NATIONAL_ID_ENTITIES: dict[str, str] = {
    "UK_NINO": "UK National Insurance number",
    "DE_TAX_ID": "German tax identification number (Steuer-IdNr)",
    "FR_NIR": "French social security number (INSEE/NIR)",
    "IN_AADHAAR": "Indian Aadhaar number (Verhoeff)",
    "IN_PAN": "Indian Permanent Account Number",
    "ES_NIF": "Spanish DNI/NIE (check letter)",
    "BR_CPF": "Brazilian CPF",
    "BR_CNPJ": "Brazilian CNPJ",
    "SE_PERSONNUMMER": "Swedish personal identity number (Luhn)",
    "IT_FISCAL_CODE": "Italian codice fiscale",
    "NL_BSN": "Dutch citizen service number (11-test)",
    "PL_PESEL": "Polish PESEL",
    "PASSPORT": "passport number (after a passport cue)",
    "MEDICAL_RECORD": "medical record / patient number (after a cue)",
    "MEDICAL_CONDITION": "diagnosis next to a patient record",
    "DATE_OF_BIRTH": "a date next to a birth cue",
}
#: compared as digits only when pseudonymised
DIGIT_IDS = frozenset({"DE_TAX_ID", "IN_AADHAAR", "BR_CPF", "BR_CNPJ", "SE_PERSONNUMMER", "NL_BSN", "PL_PESEL"})
#: compared as letters and digits only
ALNUM_IDS = frozenset({"UK_NINO", "FR_NIR", "IN_PAN", "ES_NIF", "IT_FISCAL_CODE", "PASSPORT", "MEDICAL_RECORD"})

CUE_SCORE = 0.9
SHAPE_SCORE = 0.65
BARE_SCORE = 0.3  # under the default threshold: a checksum alone is no evidence

# --------------------------------------------------------------------------------------------------
# Check digits
# --------------------------------------------------------------------------------------------------

_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5), (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7), (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3), (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4), (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7), (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)
_VERHOEFF_INV = (0, 4, 3, 2, 1, 5, 6, 7, 8, 9)


def verhoeff_ok(digits: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def verhoeff_digit(digits: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[(i + 1) % 8][int(ch)]]
    return str(_VERHOEFF_INV[c])


def luhn_digit(digits: str) -> str:
    """The Luhn check digit of ``digits``; a letter counts as its base-36 value (A = 10 … Z = 35), as in
    Portugal's citizen card."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch, 36)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def mod11_10_digit(digits: str) -> str:
    """ISO 7064 MOD 11,10 (German tax id)."""
    product = 10
    for ch in digits:
        s = (int(ch) + product) % 10 or 10
        product = (2 * s) % 11
    return str((11 - product) % 10)


def de_tax_id_ok(digits: str) -> bool:
    if len(digits) != 11 or digits[0] == "0":
        return False
    counts = sorted((digits[:10].count(d) for d in set(digits[:10])), reverse=True)
    if counts[0] not in (2, 3) or (len(counts) > 1 and counts[1] > 1):
        return False  # exactly one digit repeats (twice or thrice) in the first ten
    return mod11_10_digit(digits[:10]) == digits[10]


def nir_key(body13: str) -> str:
    n = int(body13.upper().replace("2A", "19").replace("2B", "18"))
    return f"{97 - n % 97:02d}"


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_letter(number: str) -> str:
    """The check letter of a DNI (8 digits) or NIE (X/Y/Z + 7 digits)."""
    number = number.upper()
    if number[0] in "XYZ":
        number = str("XYZ".index(number[0])) + number[1:]
    return _DNI_LETTERS[int(number) % 23]


def cpf_digits(nine: str) -> str:
    out = nine
    for weight_start in (10, 11):
        total = sum(int(d) * w for d, w in zip(out, range(weight_start, 1, -1), strict=False))
        r = total * 10 % 11
        out += str(0 if r == 10 else r)
    return out[-2:]


def cnpj_digits(twelve: str) -> str:
    out = twelve
    for weights in ((5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)):
        r = sum(int(d) * w for d, w in zip(out, weights, strict=True)) % 11
        out += str(0 if r < 2 else 11 - r)
    return out[-2:]


def bsn_ok(digits: str) -> bool:
    if len(digits) != 9 or digits == "000000000":
        return False
    total = sum(int(d) * w for d, w in zip(digits[:8], range(9, 1, -1), strict=True)) - int(digits[8])
    return total % 11 == 0


_PESEL_W = (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)


def pesel_digit(ten: str) -> str:
    return str((10 - sum(int(d) * w for d, w in zip(ten, _PESEL_W, strict=True)) % 10) % 10)


def pesel_date_ok(digits: str) -> bool:
    yy, mm, dd = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    century = {0: 1900, 20: 2000, 40: 2100, 60: 2200, 80: 1800}.get(mm - (mm - 1) % 20 - 1 if mm else -1)
    if century is None:
        return False
    return valid_date(century + yy, (mm - 1) % 20 + 1, dd)


_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16,
    10, 22, 25, 24, 23), strict=True))


def cf_check_letter(fifteen: str) -> str:
    total = 0
    for i, ch in enumerate(fifteen.upper()):
        if i % 2 == 0:
            total += _CF_ODD[ch]
        else:
            total += int(ch) if ch.isdigit() else ord(ch) - 65
    return chr(65 + total % 26)


# --------------------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------------------

_B = r"(?<![\w.\-/+])"  # not inside a word, a version, a path or a larger number
_E = r"(?![\w]|[.\-/]\w)"

_NINO_RE = re.compile(
    _B + r"(?P<v>(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][ \-]?\d{2}[ \-]?\d{2}[ \-]?\d{2}"
    r"[ \-]?[A-D])" + _E, re.I)
_DE_TAX_RE = re.compile(_B + r"(?P<v>[1-9]\d(?P<sep>[ /]?)\d{3}(?P=sep)\d{3}(?P=sep)\d{3})" + _E)
_NIR_RE = re.compile(
    _B + r"(?P<v>[12378][ .]?\d{2}[ .]?(?:0[1-9]|1[0-2]|[2-4]\d|[5-9]\d)[ .]?(?:\d{2}|2[AB])[ .]?\d{3}[ .]?\d{3}"
    r"(?:[ .]?\d{2}))" + _E, re.I)
_AADHAAR_RE = re.compile(_B + r"(?P<v>[2-9]\d{3}(?P<sep>[ \-]?)\d{4}(?P=sep)\d{4})" + _E)
_PAN_RE = re.compile(r"(?<![\w])(?P<v>[A-Z]{3}[ABCFGHJKLPT][A-Z]\d{4}[A-Z])(?![\w])")
_NIF_RE = re.compile(_B + r"(?P<v>(?:\d{8}|[XYZ][ \-]?\d{7})[ \-]?[A-HJ-NP-TV-Z])" + _E, re.I)
_CPF_RE = re.compile(_B + r"(?P<v>\d{3}(?P<sep>[. ]?)\d{3}(?P=sep)\d{3}[\-. ]?\d{2})" + _E)
_CNPJ_RE = re.compile(_B + r"(?P<v>\d{2}\.?\d{3}\.?\d{3}/?\d{4}-?\d{2})" + _E)
_PNR_RE = re.compile(_B + r"(?P<v>(?:19|20)?\d{6}[\-+ ]?\d{4})" + _E)
_CF_RE = re.compile(
    r"(?<![\w])(?P<v>[A-Z]{6}[\dLMNPQRSTUV]{2}[A-EHLMPRST][\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{3}[A-Z])(?![\w])",
    re.I)
_BSN_RE = re.compile(_B + r"(?P<v>\d{4}(?P<sep>[ .\-]?)\d{2}(?P=sep)\d{3}|\d{3}[ .]\d{3}[ .]\d{3})" + _E)
_BSN9_RE = re.compile(_B + r"(?P<v>\d{9})" + _E)
_PESEL_RE = re.compile(_B + r"(?P<v>\d{11})" + _E)

_CUE_WINDOW = 48
# a cue may also follow the value in its sentence ("67080608063 is my PESEL", "974194311 (BSN)")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
# the numeric identifiers all hold a run of 7+ digits (separators allowed): one cheap scan skips their patterns
_DIGIT_RUN_RE = re.compile(r"\d(?:[ .\-/]?\d){6}")
_LETTER_LED = frozenset({"UK_NINO", "IN_PAN", "IT_FISCAL_CODE"})


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_CUES: dict[str, re.Pattern[str]] = {
    "UK_NINO": _cue(r"\bni\b|\bnino\b|national[ \-]insurance|\bn\.i\.|insurance (?:no|num)"),
    "DE_TAX_ID": _cue(r"steuer|\bidnr|identifikationsnummer|\btax\b|\btin\b|tax[ \-]?id|\bst\.?-?nr"),
    "FR_NIR": _cue(r"\bnir\b|insee|s[ée]cu|s[ée]curit[ée] sociale|social security|\bnss\b|carte vitale"),
    "IN_AADHAAR": _cue(r"aadh?aa?r|\buid\b|uidai|आधार"),
    "IN_PAN": _cue(r"\bpan\b|permanent account|income[ \-]tax|पैन"),
    "ES_NIF": _cue(r"\bdni\b|\bnie\b|\bnif\b|documento|identidad|extranjero"),
    "BR_CPF": _cue(r"\bcpf\b|cadastro|contribuinte|\brg\b"),
    "BR_CNPJ": _cue(r"\bcnpj\b|cadastro|empresa"),
    "SE_PERSONNUMMER": _cue(r"person(?:nummer|nr)|\bpnr\b|samordningsnummer|personal (?:id|identity)"),
    "IT_FISCAL_CODE": _cue(r"codice fiscale|\bc\.?f\.?\b|fiscal|tessera sanitaria"),
    "NL_BSN": _cue(r"\bbsn\b|burgerservice|sofi|citizen service"),
    "PL_PESEL": _cue(r"\bpesel\b"),
}
# cues that do not name one identifier: "my national id", "Personalausweis", "número de identificación"
_GENERIC_ID_CUE = _cue(
    r"national (?:id|identity|number)|\bid(?:entity)? (?:no|number|card)|personal (?:id|number)|"
    r"identification|ausweis|identit[éeà]|identidad|identidade|identiteit|личн|идентификац|tax (?:no|number|code)|"
    r"social (?:security|insurance)|\bssn\b|citizen|"
    # "ID" as a noun of its own, after a determiner or possessive ("the form asks for the ID", "nach der ID", "l'ID"):
    # the identity document; not a compound ("the request id") nor a key in code or data ("id=…", "id: 4711")
    r"(?:\b(?:the|an?|my|your|his|her|their|our|der|die|den|dem|(?:ein|mein|dein|ihr|sein|unser)e[mnrs]?|"
    r"la|le|votre|mon|ma|ton|ta|son|sa|leur|el|su|tu|mi|il|tua|sua|mia|de|het|uw|je|jouw|mijn|zijn|haar|o|seu|"
    r"meu|minha)[ \t]+|\bl['’])id(?![\w\-=:\"'(\[{]|\.\w)")


class NationalIdRecognizer(EntityRecognizer):
    """The national identifiers of :data:`NATIONAL_ID_ENTITIES` that have a grammar or a checksum."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=[e for e in NATIONAL_ID_ENTITIES if e not in ("PASSPORT", "MEDICAL_RECORD",
                                                                              "MEDICAL_CONDITION", "DATE_OF_BIRTH")],
            name="RecMemNationalIds",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        if sum(c.isdigit() for c in text) < 4:
            return []
        wanted = set(entities) if entities else set(self.supported_entities)
        out: list[RecognizerResult] = []
        seen: set[tuple[str, int, int]] = set()
        long_run = _DIGIT_RUN_RE.search(text) is not None
        for entity, pattern, check in _CHECKS:
            if entity not in wanted or (entity not in _LETTER_LED and not long_run):
                continue
            for m in pattern.finditer(text):
                raw = m.group("v")
                score = check(raw)
                if score is None or (entity, *m.span("v")) in seen:
                    continue
                seen.add((entity, *m.span("v")))
                before = text[max(0, m.start("v") - _CUE_WINDOW) : m.start("v")]
                after = _rest_of_sentence(text, m.end("v"))
                if _CUES[entity].search(before) or _CUES[entity].search(after):
                    score = max(score, CUE_SCORE)
                elif _GENERIC_ID_CUE.search(before) or _GENERIC_ID_CUE.search(after):
                    score = max(score, SHAPE_SCORE if score >= BARE_SCORE else score)
                out.append(_result(self, entity, m.start("v"), m.end("v"), score))
        return out


def _rest_of_sentence(text: str, end: int) -> str:
    window = text[end : end + _CUE_WINDOW]
    stop = _SENTENCE_END_RE.search(window)
    return window[: stop.start()] if stop else window


def _digits(raw: str) -> str:
    return re.sub(r"\D", "", raw)


def _grouped(raw: str) -> bool:
    return not raw.isalnum()


def _nino(raw: str) -> float | None:
    return SHAPE_SCORE if _grouped(raw) else 0.5


def _de_tax(raw: str) -> float | None:
    if not de_tax_id_ok(_digits(raw)):
        return None
    return SHAPE_SCORE if _grouped(raw) else BARE_SCORE


def _nir(raw: str) -> float | None:
    body = re.sub(r"[ .]", "", raw).upper()
    if len(body) != 15 or nir_key(body[:13]) != body[13:]:
        return None
    return SHAPE_SCORE if _grouped(raw) or body[0] in "12" else BARE_SCORE


def _aadhaar(raw: str) -> float | None:
    digits = _digits(raw)
    if not verhoeff_ok(digits) or len(set(digits)) < 3:
        return None
    return SHAPE_SCORE if _grouped(raw) else BARE_SCORE


def _pan(raw: str) -> float | None:
    return 0.5 if raw[3] == "P" else 0.45  # "P": a person's PAN, the common case


def _nif(raw: str) -> float | None:
    compact = re.sub(r"[ \-]", "", raw).upper()
    if dni_letter(compact[:-1]) != compact[-1]:
        return None
    return SHAPE_SCORE


def _cpf(raw: str) -> float | None:
    digits = _digits(raw)
    if len(digits) != 11 or len(set(digits)) == 1 or cpf_digits(digits[:9]) != digits[9:]:
        return None
    return 0.8 if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}", raw) else (SHAPE_SCORE if _grouped(raw) else BARE_SCORE)


def _cnpj(raw: str) -> float | None:
    digits = _digits(raw)
    if len(digits) != 14 or len(set(digits)) == 1 or cnpj_digits(digits[:12]) != digits[12:]:
        return None
    return 0.8 if "/" in raw else BARE_SCORE


def _pnr(raw: str) -> float | None:
    digits = _digits(raw)
    ten = digits[-10:]
    if len(digits) not in (10, 12) or luhn_digit(ten[:9]) != ten[9]:
        return None
    yy, mm, dd = int(ten[:2]), int(ten[2:4]), int(ten[4:6])
    dd = dd - 60 if dd > 60 else dd  # samordningsnummer: day + 60
    year = int(digits[:4]) if len(digits) == 12 else 1900 + yy
    if not valid_date(year, mm, dd):
        return None
    return SHAPE_SCORE if re.search(r"\d[\-+]\d{4}$", raw) else BARE_SCORE


_OMOCODE = str.maketrans("LMNPQRSTUV", "0123456789")


def _cf(raw: str) -> float | None:
    value = raw.upper()
    if cf_check_letter(value[:15]) != value[15]:
        return None
    day = int(value[9:11].translate(_OMOCODE))
    if not (1 <= day <= 31 or 41 <= day <= 71):
        return None
    return 0.85


def _bsn(raw: str) -> float | None:
    if not bsn_ok(_digits(raw)):
        return None
    # 4-2-3 is the BSN's own grouping ("1234.56.782"); 3-3-3 is how any large number is written
    return SHAPE_SCORE if re.fullmatch(r"\d{4}[ .\-]\d{2}[ .\-]\d{3}", raw) else BARE_SCORE


def _pesel(raw: str) -> float | None:
    if pesel_digit(raw[:10]) != raw[10] or not pesel_date_ok(raw):
        return None
    return BARE_SCORE


_CHECKS = (
    ("UK_NINO", _NINO_RE, _nino),
    ("DE_TAX_ID", _DE_TAX_RE, _de_tax),
    ("FR_NIR", _NIR_RE, _nir),
    ("IN_AADHAAR", _AADHAAR_RE, _aadhaar),
    ("IN_PAN", _PAN_RE, _pan),
    ("ES_NIF", _NIF_RE, _nif),
    ("BR_CPF", _CPF_RE, _cpf),
    ("BR_CNPJ", _CNPJ_RE, _cnpj),
    ("SE_PERSONNUMMER", _PNR_RE, _pnr),
    ("IT_FISCAL_CODE", _CF_RE, _cf),
    ("NL_BSN", _BSN_RE, _bsn),
    ("NL_BSN", _BSN9_RE, _bsn),
    ("PL_PESEL", _PESEL_RE, _pesel),
)

# --------------------------------------------------------------------------------------------------
# Passports, medical records and diagnoses: only after their cue
# --------------------------------------------------------------------------------------------------

_PASSPORT_RE = re.compile(
    r"(?:passport|pass(?:port)?[ \-]?(?:no|nr|number|#)|reisepass|passnummer|passeport|pasaporte|passaporto|"
    r"passaporte|paspoort|paszport|pass(?:nummer|nr)|passi|паспорт|διαβατήριο|护照|護照|旅券|여권|पासपोर्ट)"
    r"[^\n\w]{0,3}(?:[^\W\d]{1,12}[^\w\n]{0,3}){0,3}?"
    # a series and a number in up to three groups ("96 03 672326": the Russian internal passport); see _passport_ok
    # (a letter series in capitals, then groups that each hold a digit: "AB 12 34567", "C01X00T47")
    r"(?P<v>(?:(?-i:[A-Z]{1,3})[ \-]?)?[A-Z0-9]{0,8}\d[A-Z0-9]{0,8}(?:[ \-]?[A-Z0-9]{0,8}\d[A-Z0-9]{0,8}){0,2})"
    r"(?![\w])", re.I)


def _passport_ok(value: str) -> bool:
    """Six to fourteen letters and digits, three of them digits or more."""
    alnum = [c for c in value if c.isalnum()]
    return 6 <= len(alnum) <= 14 and sum(c.isdigit() for c in alnum) >= 3
_MRN_RE = re.compile(
    r"(?:\bmrn\b|medical record|patient(?:[ \-]?(?:id|no|nr|number|#)|(?=[ \t]+\d))|\bchart(?: no| number| #)?|"
    r"hospital (?:no|"
    r"number|id)|health (?:record|insurance) (?:no|number|id)|krankenakte|patientennummer|versichertennummer|"
    r"dossier (?:m[ée]dical|patient)|historia cl[ií]nica|cartella clinica|prontu[áa]rio|номер (?:карты|пациента)|"
    r"медицинск\w* карт\w*|\bNHS (?:no|number)|"
    # health-insurance member numbers: Medicare's MBI, Medicaid, a plan's member id, Europe's health cards
    r"\bmedicare\b|\bmedicaid\b|\bmbi\b|\bhicn\b|member (?:id|no|number)|(?:health|medical|dental) (?:plan|"
    r"insurance|card)(?: (?:id|no|number))?|insurance (?:id|no|number)|carte vitale|"
    r"num[ée]ro de s[ée]curit[ée] sociale|tessera sanitaria|tarjeta sanitaria|cart[ãa]o (?:sus|de sa[úu]de)|"
    r"krankenversicherten?(?:nummer|karte)|versichertenkarte|ehic|полис(?: омс)?|зорг(?:verzekering)?spas|"
    r"zorgverzekering|sairausvakuutus|\bnhi\b|assurance[ -]maladie|\bramq\b|cart[ãa]o sus|\bcns\b|"
    # an insurer's or a patient's number by other names (Australia's IHI, Ontario's OHIP, Germany's KVNR)
    r"insurer (?:id|no|number)|patienten[ \-]?(?:id|nr|nummer)|\bihi\b|\bohip\b|\bkvnr\b)"
    r"[^\n\w]{0,3}(?:[^\W\d]{1,12}[^\w\n]{0,3}){0,5}?"
    # (groups of digits may be spaced: "922 7661 5573 7969", "DRAJ 8553 2633")
    r"(?P<v>(?=[A-Z0-9\-/ ]*\d)[A-Z]{0,4}[\-/ ]?\d(?:[\dA-Z\-/]|[ ](?=\d)){3,22})"
    r"(?![\w])", re.I)
_DIAGNOSIS_RE = re.compile(
    r"(?:diagnos(?:ed|is|e)(?: with| of|:)?|\bdx\b:?|condition:|suffers from|treated for|diagnose[: ]|diagnostic[: ]|"
    r"tested positive for|positive for|"
    r"diagnóstico:?|diagnosi:?|диагноз:?)[ \t]*(?P<v>[^\n.;,()]{3,60}?)(?=[\n.;,()]|$| and | since | in \d)",
    re.I)
_ICD_RE = re.compile(r"(?<![\w.])(?P<v>[A-TV-Z]\d{2}(?:\.\d{1,4})?)(?![\w.])")
_HEALTH_CONTEXT = re.compile(
    r"\bmrn\b|medical record|patient|diagnos|\bdx\b|hospital|clinic|krankenakte|doctor|physician|icd|диагноз|"
    r"пациент|medicare|medicaid|\bmbi\b|\bhicn\b|member (?:id|no|number)|insurance|"
    r"carte vitale|s[ée]curit[ée] sociale|sanitaria|cart[ãa]o|versicher|ehic|полис|zorg|vakuutus|\bnhi\b|maladie|"
    r"\bramq\b|\bcns\b|\bsus\b|\binsurer\b|\bihi\b|\bohip\b|\bkvnr\b|patienten", re.I)

# --------------------------------------------------------------------------------------------------
# Dates of birth
# --------------------------------------------------------------------------------------------------

_BIRTH_CUE = (
    r"(?:\bborn(?:[ \t]+on)?|\bb\.|\bdob\b|\bd\.o\.b\.?|date[ \t]+of[ \t]+birth|birth[ \-]?date|birthday|"
    r"\bgeboren(?:[ \t]+(?:am|op))?|\bgeb\.(?:[ \t]+am)?|geburtsdatum|geburtstag|\bn[ée]e?[ \t]+le|"
    r"date[ \t]+de[ \t]+naissance|\bnac(?:ido|ida)(?:[ \t]+el)?|\bnac[ií](?:ó|o)?\b(?:[ \t]+el)?|"
    r"\bnasceu(?:[ \t]+em)?|fecha[ \t]+de[ \t]+nacimiento|\bnat[oa](?:[ \t]+il)?|"
    r"data[ \t]+di[ \t]+nascita|\bnascid[oa](?:[ \t]+em)?|data[ \t]+de[ \t]+nascimento|geboortedatum|"
    r"\burodzon[ya](?:[ \t]+dnia)?|\bur\.|data[ \t]+urodzenia|\bbday\b|\bf[öo]dd(?:[ \t]+den)?|f[öo]delsedatum|"
    r"syntynyt|"
    r"syntym[äa]aika|\bf[øo]dt(?:[ \t]+den)?|f[øo]dselsdato|doğum[ \t]+tarihi|дата[ \t]+рождения|д\.[ \t]?р\.|"
    r"родил(?:ся|ась)|ημερομηνία[ \t]+γέννησης|γεννήθηκε|生年月日|出生日期|出生于|出生於|生日|जन्म[ \t]+तिथि|"
    r"जन्मतिथि|تاريخ[ \t]+الميلاد|ولد[ \t]+في|วันเกิด|생년월일|출생일?|생일|תאריך[ \t]+לידה|נולד(?:ה)?|"
    r"ng[àa]y[ \t]+sinh|tanggal[ \t]+lahir|tgl\.?[ \t]+lahir|tarikh[ \t]+lahir|تاریخ[ \t]+تولد|"
    # hu, cs, sk, ro, hr/sr/bs/sl, uk, bg, lt, lv, et, is, ka, hy, bn, ur, ta, tl, sw, and "birthday" in es/pt/it
    r"sz[üu]let(?:ett|[ée]si[ \t]+(?:d[áa]tum|id[őo])|[ée]snap)|\bsz[üu]l\.|narozen[áa]?|narodil[ao]?[ \t]+se|"
    r"datum[ \t]+narozen[íi]|narodený|narodená|d[áa]tum[ \t]+narodenia|n[ăa]scut[ăa]?(?:[ \t]+(?:la|pe|[îi]n))?|"
    r"data[ \t]+na[șs]terii|"
    r"ro[đd]en[ao]?|datum[ \t]+ro[đd]enja|rojen[a]?|datum[ \t]+rojstva|рођен[аo]?|народи(?:вся|лася)|"
    r"дата[ \t]+народження|роден[а]?|дата[ \t]+на[ \t]+раждане|gim[ęe]s|gimusi|gimimo[ \t]+data|dzimis|dzimusi|"
    r"dzim[šs]anas[ \t]+datums|s[üu]ndinud|s[üu]nniaeg|s[üu]nnikuup[äa]ev|f[æa]ddur|f[æa]dd|f[æa][ðd]ingardagur|"
    r"დაბადების[ \t]+თარიღი|დაიბადა|ծննդյան[ \t]+ամսաթիվ|ծնվել[ \t]+է|জন্ম[ \t]*তারিখ|تاریخ[ \t]+پیدائش|"
    r"பிறந்த[ \t]+தேதி|ipinanganak|petsa[ \t]+ng[ \t]+kapanganakan|alizaliwa|tarehe[ \t]+ya[ \t]+kuzaliwa|"
    r"cumplea[ñn]os|aniversário|compleanno|เกิดวันที่|เกิดเมื่อ|เกิด)"
)
_MONTH_STEMS = (
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",  # en
    "jän", "mär", "mai", "okt", "dez",  # de
    "janv", "fév", "fev", "avr", "juil", "aoû", "aou", "déc",  # fr
    "ene", "abr", "ago", "dic", "set",  # es, pt
    "gen", "mag", "giu", "lug", "ott",  # it
    "mrt", "mei", "maa",  # nl
    "sty", "lut", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "paz", "lis", "gru",  # pl
    "янв", "фев", "мар", "апр", "мая", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек",  # ru
    "ιαν", "φεβ", "μαρ", "απρ", "μαΐ", "μαι", "ιουν", "ιουλ", "αυγ", "σεπ", "οκτ", "νοε", "δεκ",  # el
    "tam", "hel", "maal", "huh", "kes", "elo", "syy", "lok", "mar", "jou",  # fi
    "oca", "şub", "nis", "haz", "tem", "ağu", "eyl", "eki", "kas", "ara",  # tr
    "már", "ápr", "máj", "jún", "júl", "szep",  # hu
    "led", "úno", "bře", "dub", "kvě", "čer", "srp", "zář", "říj", "pro",  # cs
    "ian", "iun", "iul", "noi",  # ro
    "sij", "velj", "ožu", "tra", "svi", "lip", "kol", "ruj", "stu",  # hr
    "січ", "лют", "бер", "кві", "тра", "чер", "лип", "сер", "вер", "жов", "лис", "гру",  # uk
    "яну", "юни", "юли", "сеп", "ное",  # bg
    "มกรา", "กุมภา", "มีนา", "เมษา", "พฤษภา", "มิถุนา", "กรกฎา", "สิงหา", "กันยา", "ตุลา", "พฤศจิกา", "ธันวา",  # th
    "ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค.",  # th, short
)
# A letter, or a combining mark of a script that writes its vowels with them (Thai "มีนาคม": its vowels are marks,
# not letters to \w, so a month word broke at the first one); Thai months also abbreviate as "ม.ค.", "มี.ค."
_LETTER = r"(?:[^\W\d_]|[\u0300-\u036f\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])"
_WORD = r"(?:" + _LETTER + r"{3,12}\.?|[\u0e01-\u0e2e][\u0e31\u0e34-\u0e3a]?\.[\u0e01-\u0e2e][\u0e31\u0e34-\u0e3a]?\.)"
_DATE = (
    r"(?:\d{4}[./\-]\d{1,2}[./\-]\d{1,2}|\d{1,2}[./\-]\d{1,2}[./\-](?:\d{4}|\d{2})|"
    r"\d{1,2}(?:st|nd|rd|th|er|\.|º)?[ \t]+(?:of[ \t]+|de[ \t]+)?" + _WORD + r",?[ \t]+(?:de[ \t]+)?\d{4}|"
    + _WORD + r"[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4}|"
    # year first (Hungarian, Lithuanian, East Asian layouts): "1975. január 14.", "1975. 01. 14."
    r"\d{4}\.[ \t]?\d{1,2}\.[ \t]?\d{1,2}\.?|"
    r"\d{4}[ \t]*年[ \t]*\d{1,2}[ \t]*月[ \t]*\d{1,2}[ \t]*日?|\d{4}\.?[ \t]+" + _WORD + r"[ \t]+\d{1,2}\.?|"
    # a year of an era (Japanese 平成10年 / H10.3.22, the ROC's 民國79年) and the Korean 1990년 3월 22일
    r"(?:明治|大正|昭和|平成|令和|民國|民国|中華民國)[ \t]*(?:\d{1,3}|元)[ \t]*年[ \t]*\d{1,2}[ \t]*月"
    r"[ \t]*\d{1,2}[ \t]*日?|"
    r"(?-i:[MTSHR])\d{1,2}[./\-]\d{1,2}[./\-]\d{1,2}|"
    r"\d{4}[ \t]*년[ \t]*\d{1,2}[ \t]*월[ \t]*\d{1,2}[ \t]*일?|"
    # a date written without separators, as a log or a form field keeps it ("dob=19910228"): after a birth cue only
    r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))"
)
_DOB_RE = re.compile(
    _BIRTH_CUE + r"[ \t]*(?:[:：=\-–—|]+|\bis\b|\bon\b|\bwas\b|\bthe\b|\bin\b|\bв\b|\bam\b|\ble\b|\bel\b|\bil\b|\bem\b|"
    r"\*\*|</?\w+>|>|[\"']|\ba\b|\bà\b|"
    # a particle or copula glued to the cue in Korean, Japanese, Chinese ("생년월일은", "生年月日は", "生日是")
    r"[은는이가]|[はがを]|[是为為]|\bé\b|\bè\b|\bes\b|\bist\b|\best\b|\bjest\b|\bje\b|\bär\b|"
    # a JSON or YAML field: '"birthDate": "1955-01-24"'
    r"[ \t](?=[ \t]*[\"':\d]))*"
    r"[ \t]*(?P<v>" + _DATE + r")(?![\d])",
    re.I,
)
# whose birth it is between the cue and the date ("Geboortedatum van Sem de Jong voor HR: 08-02-1998", "Ngày sinh
# của Đỗ Thu Trang là 25/12/1999", "the birthday of our new hire is on 3 May 1994"): a preposition of owning, then up
# to eight words of the same clause (no digit, no sentence end)
_DOB_OWNER_RE = re.compile(
    _BIRTH_CUE + r"[ \t]+(?:of|van|von|de|del|di|da|do|dos|das|của|ng|dari|ni|od|из|у)[ \t]+"
    r"(?:[^\s\d.!?:;]+[ \t]+){0,7}?[^\s\d.!?:;]+[ \t]*(?:[:：=]|\bis\b(?:[ \t]+on)?|\bwas\b|\blà\b|\bes\b|\bist\b|"
    r"\best\b|\bé\b|\bè\b|\bjest\b)?[ \t]*(?P<v>" + _DATE + r")(?![\d])",
    re.I,
)
# "12.03.1985 (DOB)", "1985-03-12 — date of birth"
# born somewhere on a date ("nata a Roma il 22/09/1988", "born in Leeds on 3 May 1990", "né à Lyon le 4 mars 1990",
# "geboren in Köln am 12.05.1979"): the place is the person's birthplace, the date their birth
_DOB_PLACE_RE = re.compile(
    r"(?i:\bborn|\bnat[oa]|\bn[ée]e?|\bgeboren|\bnacid[oa]|\bnascid[oa]|\burodzon[ya])[ \t]+"
    r"(?i:in|a|à|en|em|at|im|w)[ \t]+(?P<place>[^\W\d_a-z][\w'’\-]+(?:[ \t]+[^\W\d_a-z][\w'’\-]+){0,2}),?[ \t]+"
    r"(?i:on[ \t]+|il[ \t]+|le[ \t]+|am[ \t]+|el[ \t]+|em[ \t]+|the[ \t]+|dnia[ \t]+)?(?P<v>" + _DATE + r")(?![\d])")
_DOB_AFTER_RE = re.compile(r"(?P<v>" + _DATE + r")[ \t]*[(\[,\-–—]?[ \t]*" + _BIRTH_CUE, re.I)
_WORD_IN_DATE_RE = re.compile(_LETTER + r"{3,12}|[\u0e01-\u0e2e][\u0e31\u0e34-\u0e3a]?\.[\u0e01-\u0e2e]"
                              r"[\u0e31\u0e34-\u0e3a]?\.")
# cheap pre-checks: most texts hold no birth cue and no passport word, and the date patterns are costly to scan
_BIRTH_KEYS = ("born", "b.", "dob", "ur.", "bday", "d.o.b", "birth", "geb", "né", "nee", "naissance", "nacid",
               "naci", "nasceu",
               "nacimiento", "nat",
               "nascit", "nascim", "nascid", "γενν", "geboorte", "urodz", "föd", "fod", "synty", "født", "fødsels",
               "doğum", "рожд", "д.р", "д. р",
               "родил", "γέννη", "生", "जन्म", "الميلاد", "ولد", "วันเกิด", "생", "출생", "לידה", "נולד", "sinh",
               "lahir", "تولد", "szület", "szül", "narozen", "narod", "născut", "nascut", "nașterii", "nasterii",
               "rođen", "rojen", "rojstva", "рођен", "народ", "роден", "раждане", "gimę", "gimusi",
               "gimimo", "dzim", "sünd", "sünni", "fædd", "fæðing", "დაბად",
               "ծնն", "ծնվ", "জন্ম", "پیدائش", "பிறந்த", "ipinanganak", "kapanganakan", "zaliwa", "cumplea",
               "aniversário", "compleanno",
               "เกิด")
_PASSPORT_KEYS = ("pass", "pasaport", "paspoort", "paszport", "passaport", "паспорт", "διαβατήριο", "护照", "護照",
                  "旅券", "여권", "पासपोर्ट")
_HEALTH_KEYS = ("mrn", "medical", "patient", "diagnos", "dx", "hospital", "clinic", "krankenakte", "doctor",
                "physician", "icd", "диагноз", "пациент", "nhs", "chart", "health", "dossier", "historia", "cartella",
                "prontu", "карт", "medicare", "medicaid", "mbi", "hicn", "member", "insurance", "vitale",
                "sociale", "sanitaria", "cartão", "cartao", "versicher", "ehic", "полис", "zorg", "vakuutus", "nhi",
                "maladie", "ramq", "cns", "sus", "insurer", "ihi", "ohip", "kvnr", "patienten")


# a table's header naming a column of birth dates ("id,full_name,dob", "name\tbirth_date"): the rows' dates in it
_BIRTH_COLUMN_RE = re.compile(r"(?i)(?:dob|d\.o\.b\.?|(?:date[ _]?of[ _]?)?birth(?:[ _]?date|day)?|birthdate|bday|"
                              r"geburtsdatum|date[ _]de[ _]naissance|fecha[ _]de[ _]nacimiento|data[ _]di[ _]nascita|"
                              r"data[ _]de[ _]nascimento|geboortedatum|data[ _]urodzenia|f[öo]delsedatum|"
                              r"f[øo]dselsdato|syntym[äa]aika|do[ğg]um[ _]tarihi|дата[ _]рождения)")
_DATE_CELL_RE = re.compile(r"[ \t\"']*(?P<v>" + _DATE + r")[ \t\"']*")


def _birth_column_dates(text: str) -> list[tuple[int, int]]:
    """The dates in a birth column of a table whose header names it (:func:`~._common.table_cells`)."""
    return [m.span("v") for s, e in table_cells(text, _BIRTH_COLUMN_RE)
            if (m := _DATE_CELL_RE.fullmatch(text, s, e)) is not None]


# An HL7 v2 PID segment (patient identification): its fields hold the patient's identifiers (PID-2, -3, -4, -18
# account, -19 SSN, -20 licence) and date of birth (PID-7) by position, with no cue beside them.
_HL7_PID_RE = re.compile(r"(?m)^PID\|[^\r\n]*")
_HL7_ID_FIELDS = (2, 3, 4, 18, 19, 20)
_HL7_DOB_FIELD = 7


def _hl7_pid_fields(text: str) -> list[tuple[str, int, int]]:
    """(entity, start, end) of the identifiers and the birth date in every PID segment of ``text``."""
    out = []
    for m in _HL7_PID_RE.finditer(text):
        pos = m.start()
        for n, field in enumerate(m.group(0).split("|")):
            start, pos = pos, pos + len(field) + 1
            if n == _HL7_DOB_FIELD and re.fullmatch(r"(?:19|20)\d{6}(?:\d{2,6})?(?:[+\-]\d{4})?", field):
                out.append(("DATE_OF_BIRTH", start, start + len(field)))
            elif n in _HL7_ID_FIELDS:
                for rep in re.finditer(r"[^~]+", field):  # repetitions; an identifier is the first component
                    value = rep.group(0).split("^", 1)[0]
                    if sum(c.isdigit() for c in value) >= 4:
                        out.append(("MEDICAL_RECORD", start + rep.start(), start + rep.start() + len(value)))
    return out


def _month_word_ok(value: str) -> bool:
    for w in _WORD_IN_DATE_RE.findall(value):
        if w.lower() in ("of", "de") or any("\u3000" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in w):
            continue  # CJK and Korean dates spell their parts with 年月日 / 년월일 and era names (令和元年)
        low = w.casefold()
        if not any(low.startswith(s.casefold()) for s in _MONTH_STEMS):
            return False
    return True


def _numeric_date_ok(value: str) -> bool:
    nums = [int(n) for n in re.findall(r"\d+", value)]
    if len(nums) != 3 or _WORD_IN_DATE_RE.search(value):
        return True  # month words are checked by _month_word_ok; CJK dates have their own characters
    a, b, c = nums
    if a > 31:  # y-m-d
        return 1 <= b <= 12 and 1 <= c <= 31
    return 1 <= a <= 31 and 1 <= b <= 31 and (a <= 12 or b <= 12)


# A condition named by its form, not by a cue before it ("for suspected atrial fibrillation", "refill for his HIV
# infection", "off sick with burnout syndrome", "her endometriosis surgery"): a word of medicine's own suffixes or a
# head noun of conditions, with up to two words before it that modify it
_CONDITION_HEAD = (r"(?:[a-z]{3,}(?:itis|osis|emia|aemia|oma|pathy|algia|plegia|trophy|phrenia|philia)|disorder|"
                   r"syndrome|disease|infection|fibrillation|diabetes|cancer|carcinoma|leuk(?:a)?emia|epilepsy|"
                   r"[ée]pilepsie|asthma|dementia|hypertension|tumou?r|sclerosis|insomnia|migraine|depression|"
                   r"schizophrenia|autism|adhd|hiv|aids|demenz|krebs|diab[eè]te|cancro|c[áa]ncer|syndrom|"
                   r"krankheit|erkrankung|st[öo]rung|maladie|s[íi]ndrome|sindrome|enfermedad|trastorno|malattia|"
                   r"disturbo|doen[çc]a|transtorno)")
# (a word before the head modifies it when it is an acronym, an adjective by its ending, or a noun of the body or of
# the mind that names conditions: "generalized anxiety disorder", "HIV infection", "burnout syndrome")
_CONDITION_MODIFIER = (r"(?:(?-i:[A-Z]{2,5})|[a-z]{2,}(?:al|ed|ic|ive|ous|ary|ar|ory|ile|ant|ent|ine|oid|otic|atic)|"
                       r"anxiety|panic|eating|sleep|burnout|bipolar|heart|lung|kidney|liver|breast|prostate|skin|bowel|"
                       r"thyroid|autoimmune|coeliac|celiac|lyme|crohn'?s|alzheimer'?s|parkinson'?s|type[ \t]+[12])")
_CONDITION_RE = re.compile(r"(?<![\w-])(?P<v>(?:(?!(?:for|with|his|her|their|the|and|was|has|had|per|red|need|used|"
                           r"based|booked|scheduled|planned|suspected)\b)" + _CONDITION_MODIFIER + r"[ \t]+){0,2}"
                           r"(?:[a-z]{3,}-)?" + _CONDITION_HEAD + r")(?![\w-])", re.I)
# ... in a text about a person's care: a pronoun, an honorific or a patient, and a word of care
_PERSON_REFERENCE_RE = re.compile(r"(?i)\b(?:his|her|him|she|he|mrs?|ms|mx|dr|mme|mlle|herr|frau|sra?|pani?|"
                                  r"patient|patientin|patiente?|sein|"
                                  r"ihre?|su|sua|seu|son|sa)\b\.?")
_CARE_RE = re.compile(r"(?i)\b(?:patient\w*|diagnos\w*|doctor|dr|nurse|hospital|clinic|referral|pharmacy|prescri\w*|"
                      r"refill|surgery|treat\w*|therapy|therapist|sick|medical|health|gp|nhs|medicare|insur\w*|"
                      r"cardiolog\w*|oncolog\w*|psychiatr\w*|arzt|ärzt\w*|krank\w*|médecin|medic[oa]|"
                      r"m[ée]dical|suivie?|ald|weeks?|appointment|sessions?|antiretroviral|certificate)\b")


# A condition no sentence about software names, in a message about someone unwell or away (round 53: "out this week,
# my kid's asthma flared", "mi-rae is off, migraine again", "depression's been bad this week"): a word of a person, of
# absence or of care is enough. (Not the suffix forms: "nostalgia", "empathy", "academia" end like conditions; not
# "burnout" or "covid", which a team's retrospective says of no one.)
_PLAIN_CONDITION_RE = re.compile(
    r"(?i)(?<![\w-])(?:(?:type[ \t]+[12][ \t]+)?diabetes|asthma|migraines?|(?<!market )(?<!economic )depression|"
    r"epilepsy|dementia|adhd|autism|"
    r"appendicitis|pneumonia|bronchitis|tonsillitis|concussion|chemo(?:therapy)?|dialysis|cancer|leuk(?:a)?emia|"
    r"endometriosis|crohn['’]?s(?:[ \t]+disease)?|sciatica|shingles|(?:panic|anxiety)[ \t]+attacks?|"
    r"postpartum[ \t]+depression|miscarriage|pregnan(?:t|cy)|"
    # the adjectives of a person with one, and the words of a wheelchair user
    r"diabetic(?:[ \t]+\(type[ \t]+[12]\))?|asthmatic|epileptic|(?:uses|in)[ \t]+a[ \t]+wheelchair|"
    r"wheelchair[ \t]+user|"
    # the same, as the main European languages name them (round 53: leak set 13's read half)
    r"pneumonie|neumon[íi]a|polmonite|lungenentz[üu]ndung|longontsteking|zapalenie[ \t]+p[łl]uc|"
    r"(?<!market )(?<!economic )d[ée]pression|depresi[óo]n|depressione|depress[ãa]o|depressie|depresja|"
    r"asthme|asma|astma|[ée]pilepsie|epilepsia|epilessia|diab[eè]te|diabete|cukrzyc\w*|"
    r"migr(?:aine|aña|ania|äne)|burn-?out-?syndrom|utmattningssyndrom|utbr[äa]ndhet|utbrenthet|"
    r"schwanger(?:schaft)?|enceinte|grossesse|embarazad[ao]|gr[áa]vid[ao]|incinta|zwanger(?:schap)?|gravid|"
    r"w[ \t]+ci[ąa][żz]y|chemioterapia|chimioth[ée]rapie|chemotherapie|quimioterapia|"
    r"covid[ \t]+long|long[ \t]+covid)(?![\w-])")
_UNWELL_RE = re.compile(r"(?i)\b(?:i|i'm|i've|my|me|he|she|his|her|him|he's|she's|kid|son|daughter|wife|husband|"
                        r"partner|mum|mom|dad|off|out|leave|sick|hospital|gp|doctor|meds|medication|flare[sd]?|"
                        r"flare-up|again|bad|rough|recover\w*|diagnos\w*|appointment|note[ds]?|inhaler|emergency|"
                        r"allerg\w*|"
                        # ... and in the languages of the list above: pronouns of a person, sick leave, care
                        r"hun|hon|han|sie|er|elle|il|lei|lui|ella|él|ela|ele|ich|je|io|yo|eu|ik|zij|ona|on|"
                        r"arr[êe]t|malattia|krank\w*|sjuk\w*|syg\w*|syk\w*|baja|licen[çc]a|cong[ée]|"
                        r"ziekte\w*|ziek|zwolnieni\w*|chor\w*|barsel|mutterschutz|maternit\w*)\b")
# what only a person is said to do or be ("uses a wheelchair", "is a wheelchair user", "is diabetic"): no further cue
_A_PERSONS_CONDITION_RE = re.compile(r"(?i)\b(?:uses|in)[ \t]+a[ \t]+wheelchair|\bwheelchair[ \t]+user|"
                                     r"\b(?:is|am|are|was)[ \t]+(?:diabetic|asthmatic|epileptic|pregnant)\b")


def condition_spans(text: str) -> list[tuple[int, int]]:
    """Conditions named by their form (:data:`_CONDITION_RE`) in a text about a person's care, and the plain names of
    conditions (:data:`_PLAIN_CONDITION_RE`) in one about someone unwell or away."""
    out = []
    if _PERSON_REFERENCE_RE.search(text) and _CARE_RE.search(text):
        out = [m.span("v") for m in _CONDITION_RE.finditer(text)]
    if _UNWELL_RE.search(text) or _A_PERSONS_CONDITION_RE.search(text):
        out += [m.span() for m in _PLAIN_CONDITION_RE.finditer(text)
                if not any(s <= m.start() < e for s, e in out)]
    return out


class HealthAndBirthRecognizer(EntityRecognizer):
    """PASSPORT and MEDICAL_RECORD after their cues, MEDICAL_CONDITION (a diagnosis phrase or an ICD-10 code in a
    text about a patient), DATE_OF_BIRTH (a date right after — or right before — a birth cue, in the date layouts
    and month names of the main European languages, Russian, Greek, Turkish, CJK)."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["PASSPORT", "MEDICAL_RECORD", "MEDICAL_CONDITION", "DATE_OF_BIRTH",
                                             "LOCATION"],
                         name="RecMemHealthBirth", supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        wanted = set(entities) if entities else set(self.supported_entities)
        out: list[RecognizerResult] = []
        has_digit = any(c.isdigit() for c in text)
        low = text.lower()
        if has_digit and "PASSPORT" in wanted and any(k in low for k in _PASSPORT_KEYS):
            for m in _PASSPORT_RE.finditer(text):
                if _passport_ok(m.group("v")):
                    out.append(_result(self, "PASSPORT", m.start("v"), m.end("v"), 0.85))
        health = any(k in low for k in _HEALTH_KEYS) and _HEALTH_CONTEXT.search(text) is not None
        if health and has_digit and "MEDICAL_RECORD" in wanted:
            for m in _MRN_RE.finditer(text):
                out.append(_result(self, "MEDICAL_RECORD", m.start("v"), m.end("v"), 0.85))
        if health and "MEDICAL_CONDITION" in wanted:
            patient = re.search(r"patient|\bmrn\b|medical record|пациент|paciente|patiente?", text, re.I)
            for m in _DIAGNOSIS_RE.finditer(text):
                if patient or _MRN_RE.search(text):
                    s, e = m.span("v")
                    while e > s and text[e - 1] in " \t":
                        e -= 1
                    out.append(_result(self, "MEDICAL_CONDITION", s, e, 0.75))
            if patient:
                for m in _ICD_RE.finditer(text):
                    before = text[max(0, m.start() - 40) : m.start()].lower()
                    if "icd" in before or "diagnos" in before or "dx" in before or "code" in before:
                        out.append(_result(self, "MEDICAL_CONDITION", m.start("v"), m.end("v"), 0.75))
        if "MEDICAL_CONDITION" in wanted:
            out += [_result(self, "MEDICAL_CONDITION", s, e, 0.75) for s, e in condition_spans(text)]
        if has_digit and "PID|" in text:
            out += [_result(self, entity, s, e, 0.85) for entity, s, e in _hl7_pid_fields(text) if entity in wanted]
        if has_digit and "DATE_OF_BIRTH" in wanted and any(k in low for k in _BIRTH_KEYS):
            for rx in (_DOB_RE, _DOB_AFTER_RE, _DOB_OWNER_RE):
                for m in rx.finditer(text):
                    value = m.group("v")
                    if _month_word_ok(value) and _numeric_date_ok(value):
                        out.append(_result(self, "DATE_OF_BIRTH", m.start("v"), m.end("v"), 0.85))
            out += [_result(self, "DATE_OF_BIRTH", s, e, 0.85) for s, e in _birth_column_dates(text)]
            for m in _DOB_PLACE_RE.finditer(text):
                if _month_word_ok(m.group("v")) and _numeric_date_ok(m.group("v")):
                    out.append(_result(self, "DATE_OF_BIRTH", m.start("v"), m.end("v"), 0.85))
                    if "LOCATION" in wanted:
                        out.append(_result(self, "LOCATION", m.start("place"), m.end("place"), 0.85))
        return out
