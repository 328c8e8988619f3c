"""National identifiers beyond the EU/UK/IN/BR set of :mod:`.national_ids`: any country's, after its cue, and the
ones whose written shape and check digit are enough on their own.

Two mechanisms:

* **cued** (``NATIONAL_ID``): a name of a personal identifier in the language where it is used — ``身份证``,
  ``주민등록번호``, ``マイナンバー``, ``תעודת זהות``, ``رقم الهوية``, ``NRIC``, ``TFN``, ``registre national``,
  ``kimlik``, ``henkilötunnus``, ``CPR``, ``CURP``, ``cédula``… — followed within a few words (or a CJK particle:
  ``は``, ``是``, ``는``) by a number of 6–20 digits in any grouping, with at most a letter or two at its ends. No
  checksum is needed: the cue names a personal identifier, and countries without a check digit are covered too;
* **shaped**: identifiers whose own layout and check digit single them out without a cue (a Chinese resident id's
  birth date and MOD 11-2 digit, a Korean RRN's ``YYMMDD-G``, a Singapore NRIC's letters, a Belgian register
  number's ``YY.MM.DD-SSS.CC``, a Finnish HETU's century sign, the Swiss AHV's ``756.``, a Czech/Slovak birth
  number's ``/``, a Taiwanese or Hong Kong id's letter and check digit, a Chilean RUT's dots, a Mexican CURP's
  grammar, a Malaysian NRIC's ``YYMMDD-PB-NNNN``). A value that only passes a checksum, written as any number is,
  stays under the threshold like in :mod:`.national_ids`.
"""

from __future__ import annotations

import re

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ._common import _result, valid_date
from .national_ids import luhn_digit

WORLD_ID_ENTITIES: dict[str, str] = {
    "NATIONAL_ID": "a personal identifier of any country, after its cue",
    "CN_RESIDENT_ID": "Chinese resident identity card number (MOD 11-2)",
    "KR_RRN": "Korean resident registration number",
    "SG_NRIC": "Singapore NRIC / FIN",
    "BE_NRN": "Belgian national register number (mod 97)",
    "FI_HETU": "Finnish personal identity code",
    "CH_AHV": "Swiss AHV/AVS number (EAN-13)",
    "CZ_BIRTH_NUMBER": "Czech / Slovak birth number",
    "TW_NATIONAL_ID": "Taiwanese national identification number",
    "HK_HKID": "Hong Kong identity card number",
    "CL_RUT": "Chilean RUT / RUN",
    "MX_CURP": "Mexican CURP",
    "MY_NRIC": "Malaysian MyKad number",
    "MRZ": "the machine-readable zone of a passport, identity card or visa (names and numbers)",
    "BANK_CODE": "a bank's sort code, BSB, routing or transit number or IFSC, after its cue (beside an account: who "
                 "banks where)",
    "VEHICLE_REGISTRATION": "a vehicle's registration plate, after its cue (whose car it is, where it was parked)",
}
WORLD_ALNUM_IDS = frozenset(WORLD_ID_ENTITIES)

# the cued finding is a fallback: above the threshold, below every typed recognizer's cued score (a US SSN after
# "SSN", a PESEL after "PESEL" keep their own type)
CUE_SCORE = 0.6
SHAPE_SCORE = 0.65
BARE_SCORE = 0.3

# ASCII word characters only: in CJK, Thai or Arabic text a number touches the words around it ("号是110105…，")
_B = r"(?<![0-9A-Za-z_.\-/+])"
_E = r"(?![0-9A-Za-z_]|[.\-/][0-9A-Za-z])"
_BL = r"(?<![0-9A-Za-z_])"
_EL = r"(?![0-9A-Za-z_])"


def _yymmdd_valid(yymmdd: str) -> bool:
    """Some century makes it a date (the century sign, where there is one, is checked apart)."""
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
    return valid_date(1900 + yy, mm, dd) or valid_date(2000 + yy, mm, dd)


# --------------------------------------------------------------------------------------------------
# Check digits (public: the tests generate valid values with them)
# --------------------------------------------------------------------------------------------------

_CN_W = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def cn_check(seventeen: str) -> str:
    return "10X98765432"[sum(int(d) * w for d, w in zip(seventeen, _CN_W, strict=True)) % 11]


def kr_check(twelve: str) -> str:
    s = sum(int(d) * w for d, w in zip(twelve, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=True))
    return str((11 - s % 11) % 10)


def sg_check(prefix: str, seven: str) -> str | None:
    s = sum(int(d) * w for d, w in zip(seven, (2, 7, 6, 5, 4, 3, 2), strict=True))
    prefix = prefix.upper()
    if prefix in "ST":
        return "JZIHGFEDCBA"[(s + (4 if prefix == "T" else 0)) % 11]
    if prefix in "FG":
        return "XWUTRQPNMLK"[(s + (4 if prefix == "G" else 0)) % 11]
    return None  # M series: a different table; accepted on its shape only with a cue


def be_check(nine: str, born_2000s: bool) -> str:
    return f"{97 - int(('2' if born_2000s else '') + nine) % 97:02d}"


def hetu_check(ddmmyy_nnn: str) -> str:
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(ddmmyy_nnn) % 31]


def ean13_check(twelve: str) -> str:
    s = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(twelve))
    return str((10 - s % 10) % 10)


_TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def tw_ok(value: str) -> bool:
    n = _TW_LETTERS[value[0].upper()]
    s = n // 10 + (n % 10) * 9 + sum(int(d) * w for d, w in zip(value[1:9], range(8, 0, -1), strict=True))
    return (s + int(value[9])) % 10 == 0


def hk_check(letters: str, six: str) -> str:
    vals = [36] if len(letters) == 1 else []
    vals += [ord(c) - 55 for c in letters.upper()] + [int(d) for d in six]
    r = (11 - sum(v * w for v, w in zip(vals, range(9, 1, -1), strict=True)) % 11) % 11
    return "A" if r == 10 else str(r)


def rut_check(body: str) -> str:
    s = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    r = 11 - s % 11
    return "0" if r == 11 else "K" if r == 10 else str(r)


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_check(seventeen: str) -> str:
    s = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(seventeen.upper()))
    return str((10 - s % 10) % 10)


# --------------------------------------------------------------------------------------------------
# Shaped identifiers
# --------------------------------------------------------------------------------------------------


def _cn(m: re.Match[str]) -> float | None:
    v = m.group("v").upper()
    if not valid_date(int(v[6:10]), int(v[10:12]), int(v[12:14])) or cn_check(v[:17]) != v[17]:
        return None
    return SHAPE_SCORE


def _kr(m: re.Match[str]) -> float | None:
    d = re.sub(r"\D", "", m.group("v"))
    if not _yymmdd_valid(d[:6]):
        return None
    # numbers issued since 2020 carry no check digit: the YYMMDD-G layout is what speaks for them
    if kr_check(d[:12]) == d[12]:
        return SHAPE_SCORE if not m.group("v").isdigit() else BARE_SCORE
    return BARE_SCORE


def _sg(m: re.Match[str]) -> float | None:
    v = m.group("v").upper()
    check = sg_check(v[0], v[1:8])
    if check is None:
        return BARE_SCORE
    return SHAPE_SCORE if check == v[8] else None


def _be(m: re.Match[str]) -> float | None:
    raw = m.group("v")
    d = re.sub(r"\D", "", raw)
    if d[9:] not in (be_check(d[:9], False), be_check(d[:9], True)):
        return None
    month = int(d[2:4]) % 20  # bis numbers add 20 or 40 to the month
    if month > 12 or int(d[4:6]) > 31:
        return None
    return SHAPE_SCORE if not raw.isdigit() else BARE_SCORE


def _fi(m: re.Match[str]) -> float | None:
    v = m.group("v").upper()
    if not _yymmdd_valid(v[4:6] + v[2:4] + v[:2]) or hetu_check(v[:6] + v[7:10]) != v[10]:
        return None
    return SHAPE_SCORE


def _ch(m: re.Match[str]) -> float | None:
    raw = m.group("v")
    d = re.sub(r"\D", "", raw)
    if ean13_check(d[:12]) != d[12]:
        return None
    return SHAPE_SCORE if not raw.isdigit() else BARE_SCORE


def _cz(m: re.Match[str]) -> float | None:
    d = re.sub(r"\D", "", m.group("v"))
    month = int(d[2:4])
    month = month - 50 if month > 50 else month
    month = month - 20 if month > 20 else month
    if not (1 <= month <= 12 and 1 <= int(d[4:6]) <= 31):
        return None
    if len(d) == 10 and int(d) % 11 != 0 and not (int(d[:9]) % 11 == 10 and d[9] == "0"):
        return None
    return SHAPE_SCORE if len(d) == 10 else BARE_SCORE


def _tw(m: re.Match[str]) -> float | None:
    return SHAPE_SCORE if tw_ok(m.group("v")) else None


def _hk(m: re.Match[str]) -> float | None:
    raw = m.group("v").upper()
    parts = re.fullmatch(r"([A-Z]{1,2})(\d{6})\(?([0-9A])\)?", raw)
    if not parts or hk_check(parts.group(1), parts.group(2)) != parts.group(3):
        return None
    return SHAPE_SCORE if "(" in raw else BARE_SCORE


def _rut(m: re.Match[str]) -> float | None:
    raw = m.group("v")
    body, dv = re.sub(r"\D", "", raw[:-1]), raw[-1].upper()
    if rut_check(body) != dv:
        return None
    return SHAPE_SCORE if "." in raw else BARE_SCORE


def _curp(m: re.Match[str]) -> float | None:
    v = m.group("v").upper()
    if not _yymmdd_valid(v[4:10]):
        return None
    return 0.85 if curp_check(v[:17]) == v[17] else BARE_SCORE


def _my(m: re.Match[str]) -> float | None:
    return SHAPE_SCORE if _yymmdd_valid(re.sub(r"\D", "", m.group("v"))[:6]) else None


_SHAPES: tuple[tuple[str, re.Pattern[str], object], ...] = (
    ("CN_RESIDENT_ID", re.compile(_B + r"(?P<v>\d{6}(?:18|19|20)\d{9}[\dXx])" + _E), _cn),
    ("KR_RRN", re.compile(_B + r"(?P<v>\d{6}[\- ]?[1-8]\d{6})" + _E), _kr),
    ("SG_NRIC", re.compile(_BL + r"(?P<v>[STFGM]\d{7}[A-Z])" + _EL, re.I), _sg),
    ("BE_NRN", re.compile(_B + r"(?P<v>\d{2}[.]?\d{2}[.]?\d{2}[\- ]?\d{3}[.]?\d{2})" + _E), _be),
    ("FI_HETU", re.compile(_BL + r"(?P<v>\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y])" + _EL), _fi),
    ("CH_AHV", re.compile(_B + r"(?P<v>756(?:\.\d{4}\.\d{4}\.\d{2}|\d{10}))" + _E), _ch),
    ("CZ_BIRTH_NUMBER", re.compile(_B + r"(?P<v>\d{6}/\d{3,4})" + _E), _cz),
    ("TW_NATIONAL_ID", re.compile(_BL + r"(?P<v>[A-Z][12]\d{8})" + _EL), _tw),
    ("HK_HKID", re.compile(_BL + r"(?P<v>[A-Z]{1,2}\d{6}(?:\([0-9A]\)|[0-9A]))(?![0-9A-Za-z_(])"), _hk),
    ("CL_RUT", re.compile(_B + r"(?P<v>\d{1,2}\.\d{3}\.\d{3}-[\dkK]|\d{7,8}-[\dkK])" + _EL), _rut),
    ("MX_CURP", re.compile(_BL + r"(?P<v>[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{5}[0-9A-Z]\d)" + _EL, re.I),
     _curp),
    ("MY_NRIC", re.compile(_B + r"(?P<v>\d{6}-\d{2}-\d{4})" + _E), _my),
)

# --------------------------------------------------------------------------------------------------
# Checked identifiers: a check digit, and a cue of their own before the value or after it in its sentence
# --------------------------------------------------------------------------------------------------
# Reported as NATIONAL_ID (the type every policy that masks world ids already names). A layout of their own (CUIL's
# 2-8-1 dashes, a Danish CPR's DDMMYY-SSSS, an Irish PPS's trailing letters, a Medicare card's 4-5-1 groups) is enough
# with its check; a bare run of digits that only passes a check needs its cue (a 9-digit number passes a mod-11 test
# one time in eleven).


def nip_check(nine: str) -> str | None:
    r = sum(int(d) * w for d, w in zip(nine, (6, 5, 7, 2, 3, 4, 5, 6, 7), strict=True)) % 11
    return None if r == 10 else str(r)


def pt_nif_check(eight: str) -> str:
    r = 11 - sum(int(d) * w for d, w in zip(eight, range(9, 1, -1), strict=True)) % 11
    return "0" if r >= 10 else str(r)


def no_fnr_checks(nine: str) -> str | None:
    k1 = 11 - sum(int(d) * w for d, w in zip(nine, (3, 7, 6, 1, 8, 9, 4, 5, 2), strict=True)) % 11
    k1 = 0 if k1 == 11 else k1
    if k1 == 10:
        return None
    ten = nine + str(k1)
    k2 = 11 - sum(int(d) * w for d, w in zip(ten, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    k2 = 0 if k2 == 11 else k2
    return None if k2 == 10 else f"{k1}{k2}"


def at_svnr_check(nnn: str, ddmmyy: str) -> str | None:
    r = sum(int(d) * w for d, w in zip(nnn + ddmmyy, (3, 7, 9, 5, 8, 4, 2, 1, 6), strict=True)) % 11
    return None if r == 10 else str(r)


def pps_check(seven: str, second: str = "") -> str:
    s = sum(int(d) * w for d, w in zip(seven, range(8, 1, -1), strict=True))
    if second and second.upper() != "W":
        s += 9 * (ord(second.upper()) - 64)
    return "WABCDEFGHIJKLMNOPQRSTUV"[s % 23]


def my_number_check(eleven: str) -> str:
    s = sum(int(d) * (n + 1 if n <= 6 else n - 5) for n, d in enumerate(reversed(eleven), start=1))
    r = s % 11
    return "0" if r <= 1 else str(11 - r)


def cuil_check(ten: str) -> str | None:
    r = 11 - sum(int(d) * w for d, w in zip(ten, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return "0" if r == 11 else None if r == 10 else str(r)


def tfn_ok(digits: str) -> bool:
    weights = (1, 4, 3, 7, 5, 8, 6, 9, 10) if len(digits) == 9 else (10, 7, 8, 4, 6, 3, 5, 1)
    return sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11 == 0


def medicare_check(eight: str) -> str:
    return str(sum(int(d) * w for d, w in zip(eight, (1, 3, 7, 9, 1, 3, 7, 9), strict=True)) % 10)


def _dmy_ok(ddmmyy: str, *, day_offset: int = 0, month_offset: int = 0) -> bool:
    dd, mm, yy = int(ddmmyy[:2]) - day_offset, int(ddmmyy[2:4]) - month_offset, int(ddmmyy[4:6])
    return valid_date(1900 + yy, mm, dd) or valid_date(2000 + yy, mm, dd)


def _digits(v: str) -> str:
    return re.sub(r"\D", "", v)


def _nip(v: str) -> bool:
    d = _digits(v)
    return nip_check(d[:9]) == d[9]


def _pt_nif(v: str) -> bool:
    d = _digits(v)
    return d[0] in "1235689" and pt_nif_check(d[:8]) == d[8]


def _dk_cpr(v: str) -> bool:
    return _dmy_ok(_digits(v)[:6])


def _no_fnr(v: str) -> bool:
    d = _digits(v)
    dated = _dmy_ok(d[:6]) or _dmy_ok(d[:6], day_offset=40) or _dmy_ok(d[:6], month_offset=40)
    return dated and no_fnr_checks(d[:9]) == d[9:]


def _at_svnr(v: str) -> bool:
    d = _digits(v)
    return d[0] != "0" and at_svnr_check(d[:3], d[4:]) == d[3] and int(d[6:8]) <= 12 and int(d[4:6]) <= 31


def _pps(v: str) -> bool:
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v.upper())
    return bool(m) and pps_check(m.group(1), m.group(3)) == m.group(2)


def _my_number(v: str) -> bool:
    d = _digits(v)
    return my_number_check(d[:11]) == d[11]


def _cuil(v: str) -> bool:
    d = _digits(v)
    return d[:2] in ("20", "23", "24", "27", "30", "33", "34") and cuil_check(d[:10]) == d[10]


def _za_id(v: str) -> bool:
    d = _digits(v)
    return _dmy_ok(d[4:6] + d[2:4] + d[:2]) and d[10] in "012" and luhn_digit(d[:12]) == d[12]


def _ca_sin(v: str) -> bool:
    d = _digits(v)
    return d[0] not in "08" and luhn_digit(d[:8]) == d[8]


def _tfn(v: str) -> bool:
    return tfn_ok(_digits(v))


def _medicare(v: str) -> bool:
    d = _digits(v)
    return d[0] in "23456" and medicare_check(d[:8]) == d[8]


def th_id_check(twelve: str) -> str:
    return str((11 - sum(int(d) * (13 - i) for i, d in enumerate(twelve)) % 11) % 10)


_NIT_W = (3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71)


def nit_check(body: str) -> str:
    """Colombia's NIT / cédula verification digit (DIAN: mod 11 with prime weights from the right)."""
    r = sum(int(d) * w for d, w in zip(reversed(body), _NIT_W, strict=False)) % 11
    return str(11 - r if r > 1 else r)


def _th_id(v: str) -> bool:
    d = _digits(v)
    return d[0] != "0" and th_id_check(d[:12]) == d[12]


def _nit(v: str) -> bool:
    body, _, dv = v.rpartition("-")
    return nit_check(_digits(body)) == dv


def _uk_licence(v: str) -> bool:
    """A GB driving licence number: surname (padded with 9s), the birth date's decade digit, month (+50 for women),
    day and year digit, initials, a digit and two check letters."""
    v = v.upper()
    month, day = int(v[6:8]), int(v[8:10])
    return (1 <= month <= 12 or 51 <= month <= 62) and 1 <= day <= 31 and v[0] != "9"


def _pt_cc(v: str) -> bool:
    """Portugal's citizen card: the last digit is the Luhn check of the rest, letters included."""
    compact = v.replace(" ", "").upper()
    return luhn_digit(compact[:-1]) == compact[-1]


def jmbg_check(twelve: str) -> str | None:
    s = sum(int(d) * w for d, w in zip(twelve, (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True))
    k = 11 - s % 11
    return "0" if k >= 10 else str(k)


def _jmbg(v: str) -> bool:
    """The former Yugoslav citizen number (Slovenia's EMŠO, Serbia's, Bosnia's, North Macedonia's, Montenegro's JMBG):
    the birth date DDMMYYY (YYY 9xx: 1900s, 0xx: 2000s), a region, a serial and a mod-11 check digit."""
    d = _digits(v)
    day, month, year = int(d[:2]), int(d[2:4]), d[4:7]
    return 1 <= day <= 31 and 1 <= month <= 12 and year[0] in "90" and jmbg_check(d[:12]) == d[12]


def _rfc(v: str) -> bool:
    """Mexico's RFC: its six digits are a date (YYMMDD); the homoclave's check is not required (a person's RFC is
    often written with a homoclave the SAT assigned by hand)."""
    return _yymmdd_valid(v[-9:-3])


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# (pattern, check, cue, layout): ``layout`` — a grouping of its own that, with the check, needs no cue
_CHECKED: tuple[tuple[re.Pattern[str], object, re.Pattern[str], re.Pattern[str] | None], ...] = (
    (re.compile(_B + r"(?P<v>\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3}|\d{10})" + _E), _nip,
     _cue(r"\bnip\b|identyfikacji podatkowej|tax (?:id|number)|\bvat\b"), re.compile(r"\d{3}-\d{3}-\d{2}-\d{2}$")),
    (re.compile(_B + r"(?P<v>\d{3}[ .]?\d{3}[ .]?\d{3})" + _E), _pt_nif,
     _cue(r"\bnif\b|contribuinte|identifica[çc][ãa]o fiscal|\bnipc\b"), None),
    (re.compile(_B + r"(?P<v>\d{6}-?\d{4})" + _E), _dk_cpr,
     _cue(r"\bcpr\b|personnummer|cpr-?n(?:umme)?r"), re.compile(r"\d{6}-\d{4}$")),
    (re.compile(_B + r"(?P<v>\d{6}[ ]?\d{5})" + _E), _no_fnr,
     _cue(r"f[øo]dselsnummer|personnummer|\bfnr\b|d-nummer|national (?:id|identity) number"),
     re.compile(r"\d{6} \d{5}$")),
    (re.compile(_B + r"(?P<v>\d{4}[ ]?\d{6})" + _E), _at_svnr,
     _cue(r"sozialversicherung|\bsvnr\b|\bsv-?n(?:umme)?r|versicherungsnummer|e-card"), re.compile(r"\d{4} \d{6}$")),
    (re.compile(r"(?<![0-9A-Za-z_])(?P<v>\d{7}[A-Wa-w][A-IWa-iw]?)(?![0-9A-Za-z_])"), _pps,
     _cue(r"\bpps\b|ppsn|personal public service"), re.compile(r"\d{7}[A-Wa-w][A-IWa-iw]?$")),
    (re.compile(_B + r"(?P<v>\d{4}[ \-]?\d{4}[ \-]?\d{4})" + _E), _my_number,
     _cue(r"my ?number|マイナンバー|個人番号|マイナ"), None),
    (re.compile(_B + r"(?P<v>\d{2}-\d{8}-\d|\d{11})" + _E), _cuil,
     _cue(r"\bcui[lt]\b|\bcdi\b"), re.compile(r"\d{2}-\d{8}-\d$")),
    (re.compile(_B + r"(?P<v>\d{6}[ ]?\d{4}[ ]?\d{3})" + _E), _za_id,
     _cue(r"\bid (?:no|number)|identity number|south african id|\brsa id|id-nommer|\bsa id"),
     re.compile(r"\d{6} \d{4} \d{3}$")),
    (re.compile(_B + r"(?P<v>\d{3}[ \-]?\d{3}[ \-]?\d{3})" + _E), _ca_sin,
     _cue(r"\bsin\b|\bnas\b|social insurance|assurance sociale"), None),
    (re.compile(_B + r"(?P<v>\d{3}[ ]?\d{3}[ ]?\d{2,3})" + _E), _tfn,
     _cue(r"\btfn\b|tax file"), None),
    (re.compile(_B + r"(?P<v>[2-6]\d{3}[ ]?\d{5}[ ]?\d(?:[ /-]?[1-9])?)" + _E), _medicare,
     _cue(r"medicare"), re.compile(r"[2-6]\d{3} \d{5} \d(?:[ /-]?[1-9])?$")),
    # Thailand's 13-digit citizen id, written 1-4-5-2-1
    (re.compile(_B + r"(?P<v>[1-8][ \-]?\d{4}[ \-]?\d{5}[ \-]?\d{2}[ \-]?\d)" + _E), _th_id,
     _cue(r"thai (?:id|citizen)|เลขประจำตัว|บัตรประชาชน"), re.compile(r"\d-\d{4}-\d{5}-\d{2}-\d$")),
    # Colombia's NIT and cédula with their verification digit ("900.123.456-7")
    (re.compile(_B + r"(?P<v>\d{1,3}(?:\.\d{3}){2,3}-\d|\d{6,12}-\d)" + _EL), _nit,
     _cue(r"(?-i:NIT)|\bn\.i\.t\b|c[ée]dula|\brut\b|dian|identificaci[óo]n tributaria"),
     re.compile(r"\d{1,3}(?:\.\d{3}){2,3}-\d$")),
    # Pakistan's CNIC ("35202-1234567-1"): no check digit, but no other number is written 5-7-1
    (re.compile(_B + r"(?P<v>\d{5}-\d{7}-\d)" + _E), lambda v: True, _cue(r"cnic|nicop|شناختی"),
     re.compile(r"\d{5}-\d{7}-\d$")),
    # Portugal's citizen card ("12345678 9 ZZ4"): civil number, its check, a version of two letters, a Luhn check
    (re.compile(r"(?<![0-9A-Za-z_])(?P<v>\d{8}[ ]?\d[ ]?[A-Za-z]{2}\d)(?![0-9A-Za-z_])"), _pt_cc,
     _cue(r"cart[ãa]o de cidad[ãa]o|\bcc\b|citizen(?:'s)? card|documento de identifica[çc][ãa]o|\bbi\b"),
     re.compile(r"\d{8} \d [A-Za-z]{2}\d$")),
    # the former Yugoslav citizen number (EMŠO, JMBG): 13 digits whose date and check digit hold
    (re.compile(_B + r"(?P<v>\d{13})" + _E), _jmbg,
     _cue(r"em[šs]o|jmbg|mati[čc]n\w* (?:broj|[šs]tevilka)|матичн\w* број"), re.compile(r"\d{13}$")),
    # Mexico's RFC ("GOML850412K7A"): the name's letters, the birth or founding date, a homoclave of three
    (re.compile(r"(?<![0-9A-Za-z_])(?P<v>[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3})(?![0-9A-Za-z_])", re.I),
     _rfc,
     _cue(r"\brfc\b|registro federal de contribuyentes"), None),
    # a GB driving licence ("MORGA753116SM9IJ"): its birth date must be one
    (re.compile(r"(?<![0-9A-Za-z_])(?P<v>[A-Z][A-Z9]{4}\d{6}[A-Z9]{2}\d[A-Z]{2})(?![0-9A-Za-z_])"), _uk_licence,
     _cue(r"licen[cs]e|driving|driver"), re.compile(r"[A-Z][A-Z9]{4}\d{6}[A-Z9]{2}\d[A-Z]{2}$")),
)
_CUE_WINDOW = 48
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|[。！？\n]")


def _aba(v: str) -> bool:
    """A US ABA routing number's check: 3·d1 + 7·d2 + d3 + … ≡ 0 (mod 10)."""
    d = _digits(v)
    return sum(int(x) * w for x, w in zip(d, (3, 7, 1) * 3, strict=True)) % 10 == 0


# A bank's code beside an account (who banks where, and with the account the way to pay someone): always after its
# own cue — six digits alone are anything.
_BANK_CODES: tuple[tuple[re.Pattern[str], object, re.Pattern[str], re.Pattern[str] | None], ...] = (
    (re.compile(_B + r"(?P<v>\d{2}[- ]\d{2}[- ]\d{2}|\d{6})" + _E), lambda v: True, _cue(r"sort[ \-]?code"), None),
    (re.compile(_B + r"(?P<v>\d{3}[- ]?\d{3})" + _E), lambda v: True, _cue(r"\bbsb\b"), None),
    (re.compile(_B + r"(?P<v>\d{9})" + _E), _aba, _cue(r"routing|\baba\b|\brtn\b"), None),
    (re.compile(_B + r"(?P<v>\d{5}[- ]\d{3})" + _E), lambda v: True, _cue(r"\btransit\b"), None),
    (re.compile(r"(?<![0-9A-Za-z_])(?P<v>[A-Z]{4}0[A-Z0-9]{6})(?![0-9A-Za-z_])"), lambda v: True,
     _cue(r"\bifsc\b"), None),
)


def _checked(text: str, table: tuple = _CHECKED) -> list[tuple[int, int, float]]:
    out = []
    for pattern, check, cue, layout in table:
        for m in pattern.finditer(text):
            raw = m.group("v")
            if not check(raw):  # type: ignore[operator]
                continue
            before = text[max(0, m.start("v") - _CUE_WINDOW) : m.start("v")]
            window = text[m.end("v") : m.end("v") + _CUE_WINDOW]
            stop = _SENTENCE_END_RE.search(window)
            after = window[: stop.start()] if stop else window
            if cue.search(before) or cue.search(after):
                out.append((m.start("v"), m.end("v"), 0.85))
            elif layout is not None and layout.match(raw):
                out.append((m.start("v"), m.end("v"), SHAPE_SCORE))
    return out


# --------------------------------------------------------------------------------------------------
# Cued identifiers: the cue, a few words or a particle, a number
# --------------------------------------------------------------------------------------------------

# Latin-script cues are whole words; the others are matched as written (no word boundaries in CJK, Thai, ...).
_LATIN_CUES = (
    r"national[ \-]?(?:id|identity|identification|registration|register|insurance)(?:[ \-]?(?:no|nr|number|card))?",
    r"(?:personal|identity|id|citizen|resident|residence)[ \-]?(?:id[ \-]?)?(?:no|nr|number|card number|code)",
    r"social[ \-](?:security|insurance)(?:[ \-](?:no|nr|number|code))?", r"ssn", r"SIN", r"tfn",
    r"tax[ \-]file[ \-]number", r"ird(?:[ \-]number)?", r"nric", r"fin", r"mykad", r"hkid", r"nik", r"cnic",
    r"emirates[ \-]id", r"iqama", r"phil ?sys", r"my ?number card", r"pps(?:n|[ \-]number)?",
    r"registre national", r"num[ée]ro national", r"rijksregister(?:nummer)?", r"nationalregister(?:nummer)?",
    r"insz", r"niss", r"kimlik(?:[ \-]?no)?", r"tc[ \-]?kimlik", r"henkil[öo]tunnus", r"hetu", r"cpr(?:[ \-]?nr)?",
    r"f[øo]dselsnummer", r"personnummer", r"ahv(?:[ \-]?nr)?", r"avs", r"sozialversicherungsnummer", r"svnr",
    r"sv[ \-]nummer", r"cnp", r"cod numeric personal", r"rodn[ée] [čc][ií]slo", r"egn", r"oib", r"em[šs]o",
    r"isikukood", r"asmens kodas", r"personas kods", r"amka", r"curp", r"rut", r"cuil", r"cuit",
    r"c[ée]dula(?: de (?:identidad|ciudadan[ií]a))?", r"dni", r"nuip", r"pesel", r"bsn",
    r"nip", r"nif", r"contribuinte", r"medicare(?:[ \-]?(?:card|no|number))?",
    r"identity card", r"id card", r"carte d'identit[ée]", r"personalausweis(?:nummer)?",
    r"kennitala", r"cui", r"r\.? ?[čc]\.?", r"cart[ãa]o de cidad[ãa]o", r"documento (?:de )?identidad",
    r"n[úu]mero de identidad", r"identifikacijsk\w* (?:broj|[šs]tevilka)", r"jmbg",
    r"steuer[ \-]?id", r"tax[ \-]?id", r"tin",
)
_OTHER_CUES = (
    "身份证", "身分證", "身份證", "居民身份", "公民身份号码", "マイナンバー", "個人番号", "住民票コード",
    "주민등록번호", "주민번호", "외국인등록번호", "תעודת זהות", "ת\"ז", "ת.ז", "מספר זהות", "رقم الهوية",
    "الرقم القومي", "رقم الإقامة", "الرقم الوطني", "شناختی کارڈ", "شناختی کارت", "کارت ملی", "کد ملی",
    "เลขประจำตัวประชาชน", "บัตรประชาชน", "ИНН", "СНИЛС",
    "ЕГН", "РНОКПП", "ІПН", "ЄДДР", "личный номер", "идентификационный номер", "ΑΜΚΑ", "ΑΦΜ", "आधार",
    "पहचान संख्या", "căn cước",
    "CCCD", "CMND", "số định danh",
)
_CUE_RE = re.compile(
    r"(?:(?<![\w])(?:" + "|".join(_LATIN_CUES) + r")(?![\w])|" + "|".join(re.escape(c) for c in _OTHER_CUES) + ")",
    re.I)
# between the cue and the value: punctuation, a CJK/Korean particle, or up to four short words ("is", "de mon fils",
# "שלי הוא"); never a line break (a table's next row is not the cue's value)
_PARTICLE = "はがをの是为為：는은이가"
_GAP_RE = re.compile(rf"(?:[^\w\n]|[{_PARTICLE}]){{0,4}}(?:[^\W\d]{{1,10}}(?:[^\w\n]|[{_PARTICLE}]){{1,3}}){{0,4}}")
# 6-20 digits in any grouping, a letter or two allowed at either end (SG "S…E", HK "A…(7)", CN "…X")
_VALUE_RE = re.compile(r"(?P<v>[A-Za-z]{0,2}\d(?:[ .\-/]?\d){5,19}(?:[ \-]?\(?[0-9A-Za-z]\)?)?)" + _E)


def _cued(text: str) -> list[tuple[int, int]]:
    out = []
    for cue in _CUE_RE.finditer(text):
        gap_end = _GAP_RE.match(text, cue.end()).end()
        for start in range(cue.end(), gap_end + 1):
            before = text[start - 1]
            if start > cue.end() and before.isalnum() and not _cjk(before):
                continue  # inside a word
            m = _VALUE_RE.match(text, start)
            # "+", "(" before the digits: a phone number after "personal number:", not an identifier
            if m and before not in "+(":
                out.append(m.span("v"))
                break
    return out


def _cjk(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"


# The machine-readable zone (ICAO 9303: TD1 3×30, TD2 2×36, TD3 2×44 characters of A-Z, 0-9 and "<"), as OCR or a
# scan pastes it: it holds the holder's names and the document number, so the whole zone is masked. A line counts
# when it holds a "<" filler and a digit or "<<" name separator; two such lines in a row, or one that opens with a
# document code (P<, I<, A<, C<, V<, ID) followed by a country.
_MRZ_LINE = r"[ \t]*[A-Z0-9<]{26,46}[ \t]*"
_MRZ_RE = re.compile(rf"(?m)^(?P<v>{_MRZ_LINE}(?:\r?\n{_MRZ_LINE}){{1,2}})$"
                     r"|^(?P<one>[PIACV][A-Z<][A-Z<]{3}[A-Z<]*<<[A-Z<]*)$")


def _mrz_spans(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _MRZ_RE.finditer(text):
        group = "v" if m.group("v") else "one"
        block = m.group(group)
        lines = [ln.strip() for ln in block.splitlines()]
        if group == "v" and not all("<" in ln and (any(c.isdigit() for c in ln) or "<<" in ln) for ln in lines):
            continue
        if group == "one" and not 30 <= len(block) <= 44:
            continue
        s, e = m.span(group)
        while s < e and text[s] in " \t":
            s += 1
        out.append((s, e))
    return out


# A vehicle's registration, after its cue in the languages of the plates ("her plate is AB12 CDE", "Kennzeichen
# B-MW 1234", "immatriculation AB-123-CD", "matrícula 1234 BCD", "number plate: KA 01 AB 1234"): one to four groups
# of capitals and digits, a letter and a digit in them, four to ten in all. No plate is read without its cue
# ("AB12 CDE" alone is anything).
_PLATE_CUE_RE = re.compile(
    r"(?i)(?<![\w])(?:(?:license|licence|number|registration|reg|car|vehicle)[ \t]+plates?|plates?|"
    r"(?:car|vehicle|van|truck|bike)[ \t]+reg(?:istration)?|"
    r"registration(?:[ \t]+(?:no|nr|number|mark))?|reg(?:\.|[ \t]+no\.?)|vrm|kennzeichen|nummernschild|"
    r"immatriculation|plaque|matr[íi]cula|placa|targa|kenteken|nummerplade|registreringsnummer|rekisterinumero|"
    r"rejestracja|numer[ \t]+rejestracyjny|госномер|номер[ \t]+машины|plaka)(?![\w])"
    r"(?:[ \t]*(?:is|was|:|#|=|number|no\.?|nr\.?|ist|est|es|è|é|era)){0,3}[ \t]*")
_PLATE_RE = re.compile(r"(?P<v>[A-Z0-9ÄÖÜ]{1,8}(?:[ \-·][A-Z0-9ÄÖÜ]{1,4}){0,3})(?![\w\-])")


def _plates(text: str) -> list[tuple[int, int]]:
    out = []
    for cue in _PLATE_CUE_RE.finditer(text):
        m = _PLATE_RE.match(text, cue.end())
        if m is None:
            continue
        value = re.sub(r"[ \-·]", "", m.group("v"))
        if 4 <= len(value) <= 10 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            out.append(m.span("v"))
    return out


class WorldIdRecognizer(EntityRecognizer):
    """:data:`WORLD_ID_ENTITIES`: cued identifiers of any country and the shaped ones listed in the module doc."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=list(WORLD_ID_ENTITIES), name="RecMemWorldIds",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        wanted = set(entities) if entities else set(self.supported_entities)
        out: list[RecognizerResult] = []
        if "<" in text and "MRZ" in wanted:
            out += [_result(self, "MRZ", s, e, 0.85) for s, e in _mrz_spans(text)]
        if "VEHICLE_REGISTRATION" in wanted and any(c.isdigit() for c in text):
            out += [_result(self, "VEHICLE_REGISTRATION", s, e, 0.85) for s, e in _plates(text)]
        if sum(c.isdigit() for c in text) < 6:
            return out
        cued = _cued(text) if "NATIONAL_ID" in wanted else []
        for s, e in cued:
            out.append(_result(self, "NATIONAL_ID", s, e, CUE_SCORE))
        if "NATIONAL_ID" in wanted:
            out += [_result(self, "NATIONAL_ID", s, e, score) for s, e, score in _checked(text)]
        if "BANK_CODE" in wanted:
            out += [_result(self, "BANK_CODE", s, e, score) for s, e, score in _checked(text, _BANK_CODES)]
        for entity, pattern, check in _SHAPES:
            if entity not in wanted:
                continue
            for m in pattern.finditer(text):
                score = check(m)  # type: ignore[operator]
                if score is not None and score >= BARE_SCORE:
                    out.append(_result(self, entity, m.start("v"), m.end("v"), score))
        return out
