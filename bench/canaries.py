"""Fresh canary values for the adversarial masking benchmark: random identifiers with valid checksums, random
provider tokens of the public formats, random names and secrets. A new :class:`random.Random` gives new values, so a
fix can never match a benchmark value it has seen."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import string
from datetime import date, timedelta

from governance.privacy.recognizers.national_ids import (
    cf_check_letter,
    cnpj_digits,
    cpf_digits,
    dni_letter,
    luhn_digit,
    mod11_10_digit,
    nir_key,
    pesel_digit,
    verhoeff_digit,
)

ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"


class Canaries:
    """Random values of every kind the suite plants; each call returns a new value."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    # -- helpers
    def digits(self, n: int, first: str = "123456789") -> str:
        return self.rng.choice(first) + "".join(self.rng.choice(string.digits) for _ in range(n - 1))

    def chars(self, n: int, alphabet: str = ALNUM) -> str:
        while True:  # a value with upper, lower and digits, as keys are
            out = "".join(self.rng.choice(alphabet) for _ in range(n))
            if alphabet != ALNUM and alphabet != B64URL:
                return out
            if any(c.isupper() for c in out) and any(c.islower() for c in out) and any(c.isdigit() for c in out):
                return out

    def birth_date(self) -> date:
        return date(1950, 1, 1) + timedelta(days=self.rng.randrange(0, 365 * 50))

    # -- national identifiers
    def uk_nino(self) -> str:
        first = self.rng.choice("ABCEGHJKLMNPRSTWXYZ")
        second = self.rng.choice("ABCEGHJKLMNPRSTWXYZ")
        while first + second in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            second = self.rng.choice("ABCEGHJKLMNPRSTWXYZ")
        return first + second + self.digits(6, string.digits) + self.rng.choice("ABCD")

    def de_tax_id(self) -> str:
        while True:
            pool = self.rng.sample(string.digits, 9)
            body = pool + [self.rng.choice(pool)]
            self.rng.shuffle(body)
            if body[0] != "0":
                ten = "".join(body)
                return ten + mod11_10_digit(ten)

    def fr_nir(self) -> str:
        born = self.birth_date()
        body = (self.rng.choice("12") + f"{born.year % 100:02d}{born.month:02d}" + f"{self.rng.randint(1, 95):02d}"
                + self.digits(3, string.digits) + self.digits(3, string.digits))
        return body + nir_key(body)

    def in_aadhaar(self) -> str:
        eleven = self.digits(11, "23456789")
        return eleven + verhoeff_digit(eleven)

    def in_pan(self) -> str:
        up = string.ascii_uppercase
        return "".join(self.rng.choice(up) for _ in range(3)) + "P" + self.rng.choice(up) + self.digits(
            4, string.digits) + self.rng.choice(up)

    def es_dni(self) -> str:
        n = self.digits(8, string.digits)
        return n + dni_letter(n)

    def es_nie(self) -> str:
        n = self.rng.choice("XYZ") + self.digits(7, string.digits)
        return n + dni_letter(n)

    def br_cpf(self) -> str:
        nine = self.digits(9, string.digits)
        return nine + cpf_digits(nine)

    def br_cnpj(self) -> str:
        twelve = self.digits(8, string.digits) + "0001"
        return twelve + cnpj_digits(twelve)

    def se_personnummer(self) -> str:
        born = self.birth_date()
        nine = f"{born.year % 100:02d}{born.month:02d}{born.day:02d}" + self.digits(3, string.digits)
        return nine + luhn_digit(nine)

    def it_codice_fiscale(self) -> str:
        up = string.ascii_uppercase
        born = self.birth_date()
        day = born.day + self.rng.choice((0, 40))
        fifteen = ("".join(self.rng.choice(up) for _ in range(6)) + f"{born.year % 100:02d}"
                   + "ABCDEHLMPRST"[born.month - 1] + f"{day:02d}" + self.rng.choice(up)
                   + self.digits(3, string.digits))
        return fifteen + cf_check_letter(fifteen)

    def nl_bsn(self) -> str:
        while True:
            eight = self.digits(8, "123456789")
            total = sum(int(d) * w for d, w in zip(eight, range(9, 1, -1), strict=True))
            last = total % 11
            if last < 10:
                return eight + str(last)

    def pl_pesel(self) -> str:
        born = self.birth_date()
        month = born.month + (20 if born.year >= 2000 else 0)
        ten = f"{born.year % 100:02d}{month:02d}{born.day:02d}" + self.digits(4, string.digits)
        return ten + pesel_digit(ten)

    def passport(self) -> str:
        return self.rng.choice(string.ascii_uppercase) + self.digits(8, string.digits)

    def mrn(self) -> str:
        return "MRN" + self.digits(7, string.digits)

    def phone(self) -> str:
        return "+44 7700 " + self.digits(6, string.digits)[:3] + " " + self.digits(3, string.digits)

    def email(self) -> str:
        return f"{self.chars(7, string.ascii_lowercase)}.{self.chars(6, string.ascii_lowercase)}@example.org"

    def card(self) -> str:
        fifteen = "4" + self.digits(14, string.digits)
        return fifteen + luhn_digit(fifteen)

    # -- names (unusual, so the NER model cannot know them from its training data)
    def latin_name(self) -> str:
        syll = ["ka", "lo", "mi", "ren", "to", "vi", "sa", "dra", "nel", "po", "ru", "zek", "han", "mar"]
        first = "".join(self.rng.choice(syll) for _ in range(2)).capitalize()
        last = "".join(self.rng.choice(syll) for _ in range(3)).capitalize()
        return f"{first} {last}"

    def cyrillic_name(self) -> str:
        return self.rng.choice(["Иван", "Ольга", "Дмитрий", "Светлана", "Алексей", "Наталья"]) + " " + \
            self.rng.choice(["Петров", "Смирнова", "Кузнецов", "Волкова", "Соколов", "Морозова"])

    def thai_name(self) -> str:
        return self.rng.choice(["สมชาย", "สมศรี", "วิชัย", "มาลี"]) + " " + self.rng.choice(["ใจดี", "รักไทย", "ศรีสุข"])

    # -- secrets
    def github(self) -> str:
        return "ghp_" + self.chars(36)

    def gitlab(self) -> str:
        return "glpat-" + self.chars(20, B64URL)

    def slack(self) -> str:
        return f"xoxb-{self.digits(11)}-{self.digits(12)}-{self.chars(24)}"

    def stripe(self) -> str:
        return "sk_live_" + self.chars(24)

    def aws_key_id(self) -> str:
        return "AKIA" + "".join(self.rng.choice(string.ascii_uppercase + "234567") for _ in range(16))

    def aws_secret(self) -> str:
        return self.chars(40, ALNUM + "+/")

    def openai(self) -> str:
        return "sk-proj-" + self.chars(48)

    def anthropic(self) -> str:
        return "sk-ant-api03-" + self.chars(80, B64URL) + "AA"

    def huggingface(self) -> str:
        return "hf_" + self.chars(34)

    def npm(self) -> str:
        return "npm_" + self.chars(36)

    def pypi(self) -> str:
        return "pypi-AgEIcHlwaS5vcmc" + self.chars(60, B64URL)

    def twilio(self) -> str:
        return "SK" + self.chars(32, "0123456789abcdef")

    def sendgrid(self) -> str:
        return f"SG.{self.chars(22, B64URL)}.{self.chars(43, B64URL)}"

    def shopify(self) -> str:
        return "shpat_" + self.chars(32, "0123456789abcdef")

    def atlassian(self) -> str:
        return "ATATT3xFfGF0" + self.chars(180, B64URL) + "=" + self.chars(8, "0123456789ABCDEF")

    def digitalocean(self) -> str:
        return "dop_v1_" + self.chars(64, "0123456789abcdef")

    def mailgun(self) -> str:
        return "key-" + self.chars(32, "0123456789abcdef")

    def discord_bot(self) -> str:
        head = base64.urlsafe_b64encode(self.digits(18).encode()).decode().rstrip("=")
        return f"{head}.{self.chars(6, B64URL)}.{self.chars(38, B64URL)}"

    def telegram_bot(self) -> str:
        return f"{self.digits(10)}:AA{self.chars(33, B64URL)}"

    def azure_storage_key(self) -> str:
        return base64.b64encode(self.rng.randbytes(64)).decode()

    def gcp_api_key(self) -> str:
        return "AIza" + self.chars(35, B64URL)

    def heroku(self) -> str:
        return "HRKU-AA" + self.chars(58, B64URL)

    def password(self) -> str:
        return self.chars(5, string.ascii_letters) + self.rng.choice("!#%&*") + self.digits(4, string.digits)

    def jwt(self) -> str:
        def b64(obj: dict) -> str:
            return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")

        header = b64({"alg": self.rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"})
        payload = b64({"sub": self.digits(8), "n": self.chars(10)})
        return f"{header}.{payload}.{self.chars(43, B64URL)}"

    def pem_body(self) -> str:
        raw = base64.b64encode(b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + self.rng.randbytes(600)).decode()
        return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))

    def session_id(self) -> str:
        return self.chars(32, string.ascii_lowercase + string.digits)


# --------------------------------------------------------------------------------------------------
# More generators for the fresh adversarial set (bench/pii_adversarial_fresh.py): other countries' identifiers with
# their own check digits, phone numbers libphonenumber calls valid, other card networks, key material with checksums.
# The check functions are written here from the public specifications (not taken from the recognizers), so a value
# is valid by the format's own rule, not by what the masking code happens to check.
# --------------------------------------------------------------------------------------------------


_HETU_CHARS = "0123456789ABCDEFHJKLMNPRSTUVWXY"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def luhn_ok(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def hetu_char(ddmmyy_nnn: str) -> str:
    """Finnish henkilötunnus: the check character of the nine digits (date + individual number)."""
    return _HETU_CHARS[int(ddmmyy_nnn) % 31]


def no_fnr_digits(nine: str) -> str | None:
    """Norwegian fødselsnummer: the two mod-11 control digits, or None when the nine digits admit none."""
    d = [int(x) for x in nine]
    k1 = 11 - sum(a * b for a, b in zip(d, (3, 7, 6, 1, 8, 9, 4, 5, 2), strict=True)) % 11
    k1 = 0 if k1 == 11 else k1
    if k1 == 10:
        return None
    k2 = 11 - sum(a * b for a, b in zip([*d, k1], (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    k2 = 0 if k2 == 11 else k2
    return None if k2 == 10 else f"{k1}{k2}"


def dk_cpr_ok(ten: str) -> bool:
    """Danish CPR number with the (pre-2007) modulus-11 rule."""
    return sum(int(a) * b for a, b in zip(ten, (4, 3, 2, 7, 6, 5, 4, 3, 2, 1), strict=True)) % 11 == 0


def be_nrn_check(nine: str, born_2000s: bool) -> str:
    """Belgian national register number: 97 minus the nine digits (prefixed with 2 after 1999) modulo 97."""
    return f"{97 - int(('2' if born_2000s else '') + nine) % 97:02d}"


def tr_tckn_digits(nine: str) -> str:
    d = [int(x) for x in nine]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return f"{d10}{d11}"


def cn_id_check(seventeen: str) -> str:
    """Chinese resident identity number: ISO 7064 MOD 11-2."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return "10X98765432"[sum(int(a) * b for a, b in zip(seventeen, weights, strict=True)) % 11]


def kr_rrn_check(twelve: str) -> str:
    weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    return str((11 - sum(int(a) * b for a, b in zip(twelve, weights, strict=True)) % 11) % 10)


def jp_my_number_check(eleven: str) -> str:
    """Japanese individual number: P_n the n-th digit from the right, Q_n = n + 1 (n ≤ 6) else n - 5."""
    total = sum(int(p) * (n + 1 if n <= 6 else n - 5) for n, p in enumerate(reversed(eleven), start=1))
    r = total % 11
    return "0" if r <= 1 else str(11 - r)


def sg_nric_letter(prefix: str, seven: str) -> str:
    total = sum(int(a) * b for a, b in zip(seven, (2, 7, 6, 5, 4, 3, 2), strict=True)) + (4 if prefix in "TG" else 0)
    return ("JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK")[total % 11]


def hkid_check(letter: str, six: str) -> str:
    total = 9 * 36 + 8 * (ord(letter) - 55) + sum(int(a) * b for a, b in zip(six, range(7, 1, -1), strict=True))
    r = (11 - total % 11) % 11
    return "A" if r == 10 else str(r)


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_check(seventeen: str) -> str:
    total = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(seventeen))
    return str((10 - total % 10) % 10)


def cl_rut_dv(body: str) -> str:
    total = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    r = 11 - total % 11
    return {11: "0", 10: "K"}.get(r, str(r))


def au_tfn_ok(nine: str) -> bool:
    return sum(int(a) * b for a, b in zip(nine, (1, 4, 3, 7, 5, 8, 6, 9, 10), strict=True)) % 11 == 0


def au_medicare_check(eight: str) -> str:
    return str(sum(int(a) * b for a, b in zip(eight, (1, 3, 7, 9, 1, 3, 7, 9), strict=True)) % 10)


def nhs_check(nine: str) -> str | None:
    r = 11 - sum(int(a) * b for a, b in zip(nine, range(10, 1, -1), strict=True)) % 11
    return None if r == 10 else str(0 if r == 11 else r)


def kvnr_check(letter: str, eight: str) -> str:
    """German Krankenversichertennummer: the letter as two digits, weights 1 2 1 2 ..., cross sums, mod 10."""
    digits = f"{ord(letter) - 64:02d}" + eight
    total = 0
    for i, d in enumerate(digits):
        p = int(d) * (1 if i % 2 == 0 else 2)
        total += p // 10 + p % 10
    return str(total % 10)


def mrz_check(field: str) -> str:
    def value(c: str) -> int:
        return int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55

    return str(sum(value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(field)) % 10)


def iban(country: str, bban: str) -> str:
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


def iban_ok(value: str) -> bool:
    v = value.replace(" ", "")
    return int("".join(str(int(c, 36)) for c in v[4:] + v[:4])) % 97 == 1


def b58check(payload: bytes) -> str:
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def b58check_ok(text: str) -> bool:
    n = 0
    for c in text:
        n = n * 58 + _B58.index(c)
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()[:4] == raw[-4:]


class FreshCanaries(Canaries):
    """The generators of :class:`Canaries` plus the values the fresh set plants; every call a new value."""

    def _born(self) -> tuple[date, str, str, str]:
        born = self.birth_date()
        return born, f"{born.day:02d}", f"{born.month:02d}", f"{born.year % 100:02d}"

    # -- national identifiers
    def fi_hetu(self) -> str:
        born, dd, mm, yy = self._born()
        nnn = f"{self.rng.randint(2, 899):03d}"
        return f"{dd}{mm}{yy}-{nnn}{hetu_char(dd + mm + yy + nnn)}"

    def no_fnr(self) -> str:
        while True:
            _, dd, mm, yy = self._born()
            nine = dd + mm + yy + self.digits(3, string.digits)
            if (k := no_fnr_digits(nine)) is not None:
                return nine + k

    def dk_cpr(self) -> str:
        while True:
            _, dd, mm, yy = self._born()
            nine = dd + mm + yy + self.digits(3, string.digits)
            for last in string.digits:
                if dk_cpr_ok(nine + last):
                    return f"{nine[:6]}-{nine[6:]}{last}"

    def be_nrn(self) -> str:
        born, dd, mm, yy = self._born()
        nine = yy + mm + dd + f"{self.rng.randint(1, 997):03d}"
        return nine + be_nrn_check(nine, born.year >= 2000)

    def tr_tckn(self) -> str:
        nine = self.digits(9)
        return nine + tr_tckn_digits(nine)

    def za_id(self) -> str:
        _, dd, mm, yy = self._born()
        twelve = yy + mm + dd + self.digits(4, string.digits) + "08"
        return twelve + luhn_digit(twelve)

    def cn_resident_id(self) -> str:
        born = self.birth_date()
        region = self.rng.choice(["110105", "310104", "440305", "330106", "510107", "420111", "320102"])
        seventeen = region + born.strftime("%Y%m%d") + self.digits(3, string.digits)
        return seventeen + cn_id_check(seventeen)

    def kr_rrn(self) -> str:
        born, dd, mm, yy = self._born()
        sex = self.rng.choice("12") if born.year < 2000 else self.rng.choice("34")
        twelve = yy + mm + dd + sex + self.digits(5, string.digits)
        return f"{twelve[:6]}-{twelve[6:]}{kr_rrn_check(twelve)}"

    def jp_my_number(self) -> str:
        eleven = self.digits(11)
        return eleven + jp_my_number_check(eleven)

    def sg_nric(self) -> str:
        born = self.birth_date()
        prefix = "S" if born.year < 2000 else "T"
        seven = f"{born.year % 100:02d}" + self.digits(5, string.digits)
        return prefix + seven + sg_nric_letter(prefix, seven)

    def hk_hkid(self) -> str:
        letter = self.rng.choice("ACDEGHKMPRVYZ")
        six = self.digits(6, string.digits)
        return f"{letter}{six}({hkid_check(letter, six)})"

    def mx_curp(self) -> str:
        up = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        vowels, consonants = "AEIOU", "BCDFGHJKLMNPQRSTVWXYZ"
        born, dd, mm, yy = self._born()
        seventeen = (self.rng.choice(up) + self.rng.choice(vowels) + self.rng.choice(up) + self.rng.choice(up) + yy
                     + mm + dd + self.rng.choice("HM")
                     + self.rng.choice(["AS", "BC", "CH", "DF", "GT", "JC", "MC", "NL", "OC", "PL", "VZ", "YN"])
                     + "".join(self.rng.choice(consonants) for _ in range(3))
                     + (self.rng.choice(string.digits) if born.year < 2000 else self.rng.choice(up)))
        return seventeen + curp_check(seventeen)

    def cl_rut(self) -> str:
        body = str(self.rng.randint(6_000_000, 25_999_999))
        return f"{int(body):,}".replace(",", ".") + "-" + cl_rut_dv(body)

    def ca_sin(self) -> str:
        eight = self.rng.choice("1234567") + self.digits(7, string.digits)
        nine = eight + luhn_digit(eight)
        return f"{nine[:3]} {nine[3:6]} {nine[6:]}"

    def au_tfn(self) -> str:
        while True:
            eight = self.digits(8)
            for last in string.digits:
                if au_tfn_ok(eight + last):
                    return f"{eight[:3]} {eight[3:6]} {eight[6:]}{last}"

    def il_teudat_zehut(self) -> str:
        eight = self.digits(8, "0123")
        return eight + luhn_digit(eight)

    def ch_ahv(self) -> str:
        twelve = "756" + self.digits(9, string.digits)
        check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(twelve)) % 10) % 10
        v = twelve + str(check)
        return f"{v[:3]}.{v[3:7]}.{v[7:11]}.{v[11:]}"

    def ie_ppsn(self) -> str:
        seven = self.digits(7, string.digits)
        total = sum(int(d) * (8 - i) for i, d in enumerate(seven))
        return seven + "WABCDEFGHIJKLMNOPQRSTUV"[total % 23]

    # -- health identifiers
    def uk_nhs(self) -> str:
        while True:
            nine = self.digits(9, "4569")
            if (check := nhs_check(nine)) is not None:
                return f"{nine[:3]} {nine[3:6]} {nine[6:]}{check}"

    def au_medicare(self) -> str:
        eight = self.rng.choice("23456") + self.digits(7, string.digits)
        return f"{eight[:4]} {eight[4:]}{au_medicare_check(eight)} {self.rng.randint(1, 9)}"

    def de_kvnr(self) -> str:
        letter = self.rng.choice(string.ascii_uppercase)
        eight = self.digits(8, string.digits)
        return letter + eight + kvnr_check(letter, eight)

    def us_mbi(self) -> str:
        letters = "ACDEFGHJKMNPQRTUVWXY"
        an = letters + string.digits
        pick = self.rng.choice
        return (pick("123456789") + pick(letters) + pick(an) + pick(string.digits) + pick(letters) + pick(an)
                + pick(string.digits) + pick(letters) + pick(letters) + pick(string.digits) + pick(string.digits))

    # -- passports
    def mrz_td3(self, surname: str, given: str, country: str = "NLD") -> tuple[str, str, str]:
        """(line 1, line 2, passport number) of a machine-readable passport page, all check digits valid."""
        number = "".join(self.rng.choice(string.ascii_uppercase) for _ in range(2)) + self.digits(7, string.digits)
        born = self.birth_date()
        dob = born.strftime("%y%m%d")
        expiry = f"{self.rng.randint(27, 34)}{self.rng.randint(1, 12):02d}{self.rng.randint(1, 28):02d}"
        sex = self.rng.choice("MF")
        personal = "<" * 14
        line1 = (f"P<{country}{surname.upper()}<<{given.upper().replace(' ', '<')}" + "<" * 44)[:44]
        composite = number + mrz_check(number) + dob + mrz_check(dob) + expiry + mrz_check(expiry) + personal + \
            mrz_check(personal)
        line2 = (f"{number}{mrz_check(number)}{country}{dob}{mrz_check(dob)}{sex}{expiry}{mrz_check(expiry)}"
                 f"{personal}{mrz_check(personal)}{mrz_check(composite)}")
        return line1, line2, number

    # -- contact and payment
    def mobile(self, region: str, national: bool = False) -> str:
        """A mobile number of ``region`` that libphonenumber calls valid (international or national layout)."""
        import phonenumbers
        from phonenumbers import PhoneNumberFormat, PhoneNumberType

        example = phonenumbers.example_number_for_type(region, PhoneNumberType.MOBILE)
        nsn = str(example.national_number)
        keep = max(2, len(nsn) - 7)
        for _ in range(10_000):
            number = phonenumbers.parse(f"+{example.country_code}{nsn[:keep]}"
                                        f"{self.digits(len(nsn) - keep, string.digits)}")
            if phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) in (
                    PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE_OR_MOBILE):
                return phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL if national
                                                  else PhoneNumberFormat.INTERNATIONAL)
        raise RuntimeError(f"no valid mobile number drawn for {region}")

    def mailbox(self) -> str:
        """An e-mail address of a person at a (fictional) provider, in one of the usual local-part shapes."""
        first = self.chars(self.rng.randint(4, 7), string.ascii_lowercase)
        last = self.chars(self.rng.randint(5, 8), string.ascii_lowercase)
        local = self.rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}{self.rng.randint(1, 99)}",
                                 f"{last}.{first}"])
        domain = self.chars(self.rng.randint(5, 8), string.ascii_lowercase)
        return f"{local}@{domain}.{self.rng.choice(['de', 'fr', 'nl', 'com', 'net', 'co.uk', 'com.br', 'es'])}"

    def card_of(self, network: str) -> str:
        prefix, length = {"mastercard2": (str(self.rng.randint(2221, 2720)), 16),
                          "amex": (self.rng.choice(["34", "37"]), 15),
                          "jcb": (str(self.rng.randint(3528, 3589)), 16),
                          "unionpay": ("62" + self.digits(2, string.digits), 19),
                          "discover": ("6011", 16)}[network]
        body = prefix + self.digits(length - len(prefix) - 1, string.digits)
        return body + luhn_digit(body)

    def at_iban(self) -> str:
        return iban("AT", self.digits(16, string.digits))

    def ch_iban(self) -> str:
        return iban("CH", self.digits(5, string.digits) + self.digits(12, string.digits))

    # -- secrets
    def github_fine_grained(self) -> str:
        return "github_pat_11" + self.chars(20, string.ascii_uppercase + string.digits) + "_" + self.chars(59)

    def github_app_installation(self) -> str:
        return "ghs_" + self.chars(36)

    def stripe_webhook_secret(self) -> str:
        return "whsec_" + self.chars(32)

    def google_oauth_client_secret(self) -> str:
        return "GOCSPX-" + self.chars(28, B64URL)

    def slack_webhook(self) -> str:
        up = string.ascii_uppercase + string.digits
        return (f"https://hooks.slack.com/services/T{self.chars(8, up)}/B{self.chars(10, up)}/"
                f"{self.chars(24)}")

    def vault_token(self) -> str:
        return "hvs." + self.chars(24)

    def openrouter(self) -> str:
        return "sk-or-v1-" + self.chars(64, "0123456789abcdef")

    def totp_secret(self) -> str:
        return self.chars(32, string.ascii_uppercase + "234567")

    def wireguard_key(self) -> str:
        return base64.b64encode(self.rng.randbytes(32)).decode()

    def openssh_private_key_body(self) -> list[str]:
        raw = base64.b64encode(b"openssh-key-v1\0\0\0\0\x04none\0\0\0\x04none\0\0\0\0\0\0\0\x01\0\0\0\x33"
                               b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + self.rng.randbytes(180)).decode()
        return [raw[i : i + 70] for i in range(0, len(raw), 70)]

    def bitcoin_wif(self) -> str:
        """A compressed-key WIF private key (base58check, valid checksum)."""
        return b58check(b"\x80" + self.rng.randbytes(32) + b"\x01")

    def passphrase(self) -> str:
        words = ["orbit", "velvet", "cactus", "harbor", "plume", "tundra", "gravel", "lantern", "mosaic", "quiver",
                 "saffron", "thistle", "walnut", "zephyr", "bramble", "copper", "ember", "fjord", "juniper", "marble"]
        return "-".join(self.rng.sample(words, 4)) + str(self.rng.randint(10, 99))


# --------------------------------------------------------------------------------------------------
# More generators for the third blind set (bench/pii_adversarial_r18.py): identifiers of countries and formats the
# first two sets do not plant, health and provider numbers, provider token formats of the public rule sets they do not
# use, key material and seed phrases. The check functions are written here from the formats' public specifications.
# --------------------------------------------------------------------------------------------------


def luhn_check_digit(body: str) -> str:
    """The digit that makes ``body`` + digit pass the Luhn test."""
    for d in string.digits:
        if luhn_ok(body + d):
            return d
    raise AssertionError("unreachable")


def pt_nif_check(eight: str) -> str:
    r = 11 - sum(int(d) * w for d, w in zip(eight, range(9, 1, -1), strict=True)) % 11
    return "0" if r >= 10 else str(r)


def pl_nip_check(nine: str) -> str | None:
    r = sum(int(d) * w for d, w in zip(nine, (6, 5, 7, 2, 3, 4, 5, 6, 7), strict=True)) % 11
    return None if r == 10 else str(r)


def pl_regon_check(eight: str) -> str:
    return str(sum(int(d) * w for d, w in zip(eight, (8, 9, 2, 3, 4, 5, 6, 7), strict=True)) % 11 % 10)


def pl_id_card_check(letters: str, five: str) -> str:
    """Polish identity card (dowód osobisty) AAA C NNNNN: the check digit is the fourth character."""
    values = [ord(ch) - 55 for ch in letters] + [int(d) for d in five]
    return str(sum(v * w for v, w in zip(values, (7, 3, 1, 7, 3, 1, 7, 3), strict=True)) % 10)


def ro_cnp_check(twelve: str) -> str:
    r = sum(int(d) * w for d, w in zip(twelve, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9), strict=True)) % 11
    return "1" if r == 10 else str(r)


def bg_egn_check(nine: str) -> str:
    return str(sum(int(d) * w for d, w in zip(nine, (2, 4, 8, 5, 10, 9, 7, 3, 6), strict=True)) % 11 % 10)


def hr_oib_check(ten: str) -> str:
    """ISO 7064 MOD 11,10."""
    a = 10
    for d in ten:
        a = (a + int(d)) % 10 or 10
        a = a * 2 % 11
    return str((11 - a) % 10)


def ee_isikukood_check(ten: str) -> str:
    """Estonian (and Lithuanian) personal code: two weight rounds, then 0."""
    for weights in ((1, 2, 3, 4, 5, 6, 7, 8, 9, 1), (3, 4, 5, 6, 7, 8, 9, 1, 2, 3)):
        r = sum(int(d) * w for d, w in zip(ten, weights, strict=True)) % 11
        if r < 10:
            return str(r)
    return "0"


def lv_personas_kods_check(ten: str) -> str | None:
    r = (1101 - sum(int(d) * w for d, w in zip(ten, (1, 6, 3, 7, 9, 10, 5, 8, 4, 2), strict=True))) % 11
    return None if r == 10 else str(r)


def hu_taj_check(eight: str) -> str:
    return str(sum(int(d) * (3 if i % 2 == 0 else 7) for i, d in enumerate(eight)) % 10)


def at_svnr_check(three: str, birth: str) -> str | None:
    """Austrian social insurance number NNNC DDMMYY: C from the serial and the date of birth."""
    digits = three + birth
    r = sum(int(d) * w for d, w in zip(digits, (3, 7, 9, 5, 8, 4, 2, 1, 6), strict=True)) % 11
    return None if r == 10 else str(r)


def is_kennitala_check(eight: str) -> str | None:
    r = 11 - sum(int(d) * w for d, w in zip(eight, (3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return None if r == 10 else str(r % 11)


def gb_utr_check(nine: str) -> str:
    """UK Unique Taxpayer Reference: the check digit is the FIRST of the ten."""
    return "21987654321"[sum(int(d) * w for d, w in zip(nine, (6, 7, 8, 9, 10, 5, 4, 3, 2), strict=True)) % 11]


def ru_snils_check(nine: str) -> str:
    s = sum(int(d) * w for d, w in zip(nine, range(9, 0, -1), strict=True))
    s = s % 101 if s > 101 else s
    return "00" if s in (100, 101) else f"{s:02d}"


def ru_inn12_digits(ten: str) -> str:
    w1 = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
    d11 = sum(int(d) * w for d, w in zip(ten, w1, strict=True)) % 11 % 10
    w2 = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
    d12 = sum(int(d) * w for d, w in zip(ten + str(d11), w2, strict=True)) % 11 % 10
    return f"{d11}{d12}"


def th_id_check(twelve: str) -> str:
    return str((11 - sum(int(d) * (13 - i) for i, d in enumerate(twelve)) % 11) % 10)


_TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def tw_id_check(letter: str, eight: str) -> str:
    n = _TW_LETTERS[letter]
    total = n // 10 + (n % 10) * 9 + sum(int(d) * w for d, w in zip(eight, range(8, 0, -1), strict=True))
    return str((10 - total % 10) % 10)


def ar_cuil_check(ten: str) -> str | None:
    r = 11 - sum(int(d) * w for d, w in zip(ten, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return None if r == 10 else str(r % 11)


def br_cns_ok(fifteen: str) -> bool:
    return sum(int(d) * (15 - i) for i, d in enumerate(fifteen)) % 11 == 0


def br_pis_check(ten: str) -> str:
    r = 11 - sum(int(d) * w for d, w in zip(ten, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return "0" if r >= 10 else str(r)


def ec_cedula_check(nine: str) -> str:
    total = 0
    for i, d in enumerate(nine):
        p = int(d) * (2 if i % 2 == 0 else 1)
        total += p - 9 if p > 9 else p
    return str((10 - total % 10) % 10)


def uy_ci_check(seven: str) -> str:
    return str((10 - sum(int(d) * w for d, w in zip(seven, (2, 9, 8, 7, 6, 3, 4), strict=True)) % 10) % 10)


def co_nit_dv(number: str) -> str:
    primes = (3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71)
    r = sum(int(d) * p for d, p in zip(reversed(number), primes, strict=False)) % 11
    return str(r if r in (0, 1) else 11 - r)


def nz_ird_check(eight: str) -> str | None:
    for weights in ((3, 2, 7, 6, 5, 4, 3, 2), (7, 4, 3, 2, 5, 2, 7, 6)):
        r = sum(int(d) * w for d, w in zip(eight, weights, strict=True)) % 11
        c = 0 if r == 0 else 11 - r
        if c != 10:
            return str(c)
    return None


_NHI_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # I and O are not used


def nz_nhi_check(three: str, three_digits: str) -> str | None:
    """New Zealand National Health Index, old format AAANNNC."""
    values = [_NHI_LETTERS.index(ch) + 1 for ch in three] + [int(d) for d in three_digits]
    r = sum(v * w for v, w in zip(values, (7, 6, 5, 4, 3, 2), strict=True)) % 11
    if r == 0:
        return None
    c = 11 - r
    return "0" if c == 10 else str(c)


def us_npi_ok(ten: str) -> bool:
    """US National Provider Identifier: Luhn over the number prefixed with 80840."""
    return luhn_ok("80840" + ten)


def us_dea_check(six: str) -> str:
    d = [int(x) for x in six]
    return str((d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10)


def jalali(born: date) -> tuple[int, int, int]:
    """Gregorian → Solar Hijri (the arithmetic 33-year rule)."""
    gy, gm, gd = born.year, born.month, born.day
    g_d_m = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
    gy2 = gy + 1 if gm > 2 else gy
    days = 355666 + 365 * gy + (gy2 + 3) // 4 - (gy2 + 99) // 100 + (gy2 + 399) // 400 + gd + g_d_m[gm - 1]
    jy = -1595 + 33 * (days // 12053)
    days %= 12053
    jy += 4 * (days // 1461)
    days %= 1461
    if days > 365:
        jy += (days - 1) // 365
        days = (days - 1) % 365
    if days < 186:
        return jy, 1 + days // 31, 1 + days % 31
    return jy, 7 + (days - 186) // 30, 1 + (days - 186) % 30


def hijri(born: date) -> tuple[int, int, int]:
    """Gregorian → tabular Islamic calendar (civil epoch)."""
    jd = born.toordinal() + 1721425
    lv = jd - 1948440 + 10632
    n = (lv - 1) // 10631
    lv = lv - 10631 * n + 354
    j = ((10985 - lv) // 5316) * ((50 * lv) // 17719) + (lv // 5670) * ((43 * lv) // 15238)
    lv = lv - ((30 - j) // 15) * ((17719 * j) // 50) - (j // 16) * ((15238 * j) // 43) + 29
    m = (24 * lv) // 709
    d = lv - (709 * m) // 24
    return 30 * n + j - 30, m, d


_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BIP39_SAMPLE = ("abandon ability able about above absent absorb abstract absurd abuse access accident account accuse "
                 "achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust "
                 "admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport "
                 "aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always "
                 "amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce "
                 "annual another answer antenna antique anxiety any apart apology appear apple approve april arch "
                 "arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist "
                 "artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract "
                 "auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful "
                 "awkward axis").split()


class R18Canaries(FreshCanaries):
    """The generators of :class:`FreshCanaries` plus the values the third blind set plants; every call a new value."""

    def _digits(self, n: int) -> str:
        return "".join(self.rng.choice(string.digits) for _ in range(n))

    def _hex(self, n: int, upper: bool = False) -> str:
        return self.chars(n, "0123456789ABCDEF" if upper else "0123456789abcdef")

    # -- names: random syllables, so no model knows them from its training data
    _SYL = ["ka", "lo", "mi", "ren", "to", "vi", "sa", "dra", "nel", "po", "ru", "zek", "han", "mar", "bel", "tis",
            "gor", "une", "fal", "dov", "qui", "sen", "wak", "ys", "ob", "lith", "cor", "pem", "jas", "nu"]

    def given(self) -> str:
        return "".join(self.rng.choice(self._SYL) for _ in range(2)).capitalize()

    def family(self) -> str:
        return "".join(self.rng.choice(self._SYL) for _ in range(3)).capitalize()

    # -- national identifiers
    def pt_nif(self) -> str:
        eight = self.rng.choice("123") + self._digits(7)
        return eight + pt_nif_check(eight)

    def pl_nip(self) -> str:
        while True:
            nine = self.digits(3) + self._digits(6)
            if (c := pl_nip_check(nine)) is not None:
                return nine + c

    def pl_regon(self) -> str:
        eight = self.digits(8)
        return eight + pl_regon_check(eight)

    def pl_id_card(self) -> str:
        letters = "".join(self.rng.choice(string.ascii_uppercase) for _ in range(3))
        five = self._digits(5)
        return letters + pl_id_card_check(letters, five) + five

    def ro_cnp(self) -> str:
        born = self.birth_date()
        sex = self.rng.choice("12") if born.year < 2000 else self.rng.choice("56")
        twelve = sex + born.strftime("%y%m%d") + f"{self.rng.randint(1, 46):02d}" + f"{self.rng.randint(1, 999):03d}"
        return twelve + ro_cnp_check(twelve)

    def bg_egn(self) -> str:
        born = self.birth_date()
        month = born.month + (40 if born.year >= 2000 else 0)
        nine = f"{born.year % 100:02d}{month:02d}{born.day:02d}" + self._digits(3)
        return nine + bg_egn_check(nine)

    def hr_oib(self) -> str:
        ten = self.digits(10)
        return ten + hr_oib_check(ten)

    def cz_rodne_cislo(self) -> str:
        while True:
            born = self.birth_date()
            month = born.month + self.rng.choice((0, 50))
            nine = f"{born.year % 100:02d}{month:02d}{born.day:02d}" + self._digits(3)
            r = int(nine) % 11
            if r != 10:
                return f"{nine[:6]}/{nine[6:]}{r}"

    def ee_isikukood(self) -> str:
        born = self.birth_date()
        first = self.rng.choice("34") if born.year < 2000 else self.rng.choice("56")
        ten = first + born.strftime("%y%m%d") + self._digits(3)
        return ten + ee_isikukood_check(ten)

    def lv_personas_kods(self) -> str:
        while True:
            born = self.birth_date()
            century = "1" if born.year < 2000 else "2"
            ten = born.strftime("%d%m%y") + century + self._digits(3)
            if (c := lv_personas_kods_check(ten)) is not None:
                return f"{ten[:6]}-{ten[6:]}{c}"

    def hu_taj(self) -> str:
        eight = self.digits(8)
        return eight + hu_taj_check(eight)

    def at_svnr(self) -> str:
        while True:
            three = self.digits(3)
            birth = self.birth_date().strftime("%d%m%y")
            if (c := at_svnr_check(three, birth)) is not None:
                return f"{three}{c} {birth}"

    def is_kennitala(self) -> str:
        while True:
            born = self.birth_date()
            eight = born.strftime("%d%m%y") + f"{self.rng.randint(20, 99):02d}"
            if (c := is_kennitala_check(eight)) is not None:
                return f"{eight[:6]}-{eight[6:]}{c}{'9' if born.year < 2000 else '0'}"

    def gb_utr(self) -> str:
        nine = self.digits(9)
        return gb_utr_check(nine) + nine

    def gb_chi(self) -> str:
        """Scottish Community Health Index number: date of birth, then the NHS-style modulus 11 check."""
        while True:
            nine = self.birth_date().strftime("%d%m%y") + self._digits(3)
            if (c := nhs_check(nine)) is not None:
                return nine + c

    def gb_driving_licence(self, family: str, given: str) -> str:
        born = self.birth_date()
        month = born.month + self.rng.choice((0, 50))
        head = (family.upper() + "99999")[:5]
        return (f"{head}{born.year % 100 // 10}{month:02d}{born.day:02d}{born.year % 10}"
                f"{(given[0] + '9').upper()}9{''.join(self.rng.choice(string.ascii_uppercase) for _ in range(2))}")

    def ru_snils(self) -> str:
        nine = self.digits(9)
        return f"{nine[:3]}-{nine[3:6]}-{nine[6:]} {ru_snils_check(nine)}"

    def ru_inn12(self) -> str:
        ten = self.rng.choice(["77", "78", "50", "54", "66", "16"]) + self._digits(8)
        return ten + ru_inn12_digits(ten)

    def th_national_id(self) -> str:
        twelve = self.rng.choice("1358") + self._digits(11)
        return twelve + th_id_check(twelve)

    def tw_national_id(self) -> str:
        letter = self.rng.choice("ABCDEFGHJKLMNPQRSTUVXYWZ")
        eight = self.rng.choice("12") + self._digits(7)
        return letter + eight + tw_id_check(letter, eight)

    def ae_emirates_id(self) -> str:
        fourteen = "784" + str(self.birth_date().year) + self._digits(7)
        v = fourteen + luhn_check_digit(fourteen)
        return f"{v[:3]}-{v[3:7]}-{v[7:14]}-{v[14]}"

    def ar_cuil(self) -> str:
        while True:
            ten = self.rng.choice(["20", "27"]) + str(self.rng.randint(10_000_000, 45_999_999))
            if (c := ar_cuil_check(ten)) is not None:
                return f"{ten[:2]}-{ten[2:]}-{c}"

    def br_cns(self) -> str:
        while True:
            fourteen = self.rng.choice("789") + self._digits(13)
            for last in string.digits:
                if br_cns_ok(fourteen + last):
                    return fourteen + last

    def br_pis(self) -> str:
        ten = "1" + self._digits(9)
        return ten + br_pis_check(ten)

    def ec_cedula(self) -> str:
        nine = f"{self.rng.randint(1, 24):02d}" + self.rng.choice("012345") + self._digits(6)
        return nine + ec_cedula_check(nine)

    def uy_ci(self) -> str:
        seven = self.digits(7)
        return f"{seven[0]}.{seven[1:4]}.{seven[4:]}-{uy_ci_check(seven)}"

    def co_nit_person(self) -> str:
        body = str(self.rng.randint(10_000_000, 1_099_999_999))
        return f"{int(body):,}".replace(",", ".") + "-" + co_nit_dv(body)

    def nz_ird(self) -> str:
        while True:
            eight = f"{self.rng.randint(1_000_000, 14_999_999):08d}"
            if (c := nz_ird_check(eight)) is not None:
                v = (eight + c).lstrip("0")
                return f"{v[:-6]}-{v[-6:-3]}-{v[-3:]}"

    def nz_nhi(self) -> str:
        while True:
            three = "".join(self.rng.choice(_NHI_LETTERS) for _ in range(3))
            digits = self._digits(3)
            if (c := nz_nhi_check(three, digits)) is not None:
                return three + digits + c

    def ca_ohip(self) -> str:
        nine = self.digits(9)
        ten = nine + luhn_check_digit(nine)
        return f"{ten[:4]}-{ten[4:7]}-{ten[7:]}-{''.join(self.rng.choice(string.ascii_uppercase) for _ in range(2))}"

    def ca_ramq(self, family: str, given: str) -> str:
        born = self.birth_date()
        month = born.month + self.rng.choice((0, 50))
        return f"{(family[:3] + given[0]).upper()} {born.year % 100:02d}{month:02d} {born.day:02d}{self._digits(2)}"

    def us_ssn(self) -> str:
        area = self.rng.choice([a for a in range(1, 900) if a not in (666,)])
        return f"{area:03d}-{self.rng.randint(1, 99):02d}-{self.rng.randint(1, 9999):04d}"

    def us_itin(self) -> str:
        group = self.rng.choice([*range(50, 66), *range(70, 89), *range(90, 93), *range(94, 100)])
        return f"9{self._digits(2)}-{group:02d}-{self.rng.randint(1, 9999):04d}"

    def us_npi(self) -> str:
        nine = self.rng.choice("12") + self._digits(8)
        return nine + luhn_check_digit("80840" + nine)

    def us_dea(self, family: str) -> str:
        six = self._digits(6)
        return self.rng.choice("ABFGM") + family[0].upper() + six + us_dea_check(six)

    def my_mykad(self) -> str:
        born = self.birth_date()
        return f"{born.strftime('%y%m%d')}-{self.rng.choice(['01', '08', '10', '14'])}-{self._digits(4)}"

    def id_nik(self) -> str:
        born = self.birth_date()
        day = born.day + self.rng.choice((0, 40))
        return (self.rng.choice(["317101", "327301", "357801", "517101"]) + f"{day:02d}{born.month:02d}"
                + f"{born.year % 100:02d}" + f"{self.rng.randint(1, 9999):04d}")

    def pk_cnic(self) -> str:
        return f"{self.rng.choice('1234567')}{self._digits(4)}-{self._digits(7)}-{self.rng.choice('123456789')}"

    def in_abha(self) -> str:
        return f"91-{self._digits(4)}-{self._digits(4)}-{self._digits(4)}"

    def uk_nino_spaced(self) -> str:
        v = self.uk_nino()
        return f"{v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}"

    # -- contact, payment
    def iban_of(self, country: str) -> str:
        bban = {"NL": lambda: "".join(self.rng.choice(string.ascii_uppercase) for _ in range(4)) + self._digits(10),
                "FR": lambda: self._digits(10) + "".join(self.rng.choice(string.ascii_uppercase + string.digits)
                                                         for _ in range(11)) + self._digits(2),
                "IT": lambda: self.rng.choice(string.ascii_uppercase) + self._digits(10) + self._digits(12),
                "ES": lambda: self._digits(20),
                "BE": lambda: self._digits(12),
                "PL": lambda: self._digits(24),
                "GB": lambda: "".join(self.rng.choice(string.ascii_uppercase) for _ in range(4)) + self._digits(14),
                "PT": lambda: self._digits(21),
                "RO": lambda: "".join(self.rng.choice(string.ascii_uppercase) for _ in range(4)) + self._digits(16),
                "SE": lambda: self._digits(20),
                "FI": lambda: self._digits(14),
                "IE": lambda: "".join(self.rng.choice(string.ascii_uppercase) for _ in range(4)) + self._digits(14)}
        return iban(country, bban[country]())

    def card_visa16(self) -> str:
        fifteen = "4" + self._digits(14)
        return fifteen + luhn_check_digit(fifteen)

    def card_mastercard5(self) -> str:
        fifteen = str(self.rng.randint(51, 55)) + self._digits(13)
        return fifteen + luhn_check_digit(fifteen)

    def card_maestro19(self) -> str:
        eighteen = self.rng.choice(["6759", "6761", "6763"]) + self._digits(14)
        return eighteen + luhn_check_digit(eighteen)

    def card_diners14(self) -> str:
        thirteen = self.rng.choice(["36", "38"]) + self._digits(11)
        return thirteen + luhn_check_digit(thirteen)

    def plate_de(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2))
        return f"{self.rng.choice(['B', 'M', 'HH', 'K', 'F', 'S'])}-{letters} {self.rng.randint(100, 9999)}"

    # -- provider tokens (public rule-set formats the earlier sets do not plant)
    def doppler(self) -> str:
        return "dp.pt." + self.chars(43)

    def pulumi(self) -> str:
        return "pul-" + self._hex(40)

    def linear(self) -> str:
        return "lin_api_" + self.chars(40)

    def postman(self) -> str:
        return f"PMAK-{self._hex(24)}-{self._hex(34)}"

    def databricks(self) -> str:
        return "dapi" + self._hex(32)

    def grafana_service_account(self) -> str:
        return f"glsa_{self.chars(32)}_{self._hex(8)}"

    def sentry_user(self) -> str:
        return "sntryu_" + self._hex(64)

    def dynatrace(self) -> str:
        up = string.ascii_uppercase + string.digits
        return f"dt0c01.{self.chars(24, up)}.{self.chars(64, up)}"

    def newrelic_user(self) -> str:
        return "NRAK-" + self.chars(27, string.ascii_uppercase + string.digits)

    def planetscale(self) -> str:
        return "pscale_tkn_" + self.chars(43, B64URL)

    def flyio(self) -> str:
        return "fo1_" + self.chars(43, B64URL)

    def age_secret_key(self) -> str:
        return "AGE-SECRET-KEY-1" + "".join(self.rng.choice(_BECH32) for _ in range(58)).upper()

    def docker_hub_pat(self) -> str:
        return "dckr_pat_" + self.chars(27, B64URL)

    def rubygems(self) -> str:
        return "rubygems_" + self._hex(48)

    def groq(self) -> str:
        return "gsk_" + self.chars(52)

    def replicate(self) -> str:
        return "r8_" + self.chars(37)

    def supabase(self) -> str:
        return "sbp_" + self._hex(40)

    def notion(self) -> str:
        return "ntn_" + self.digits(11, string.digits) + self.chars(35)

    def airtable_pat(self) -> str:
        return f"pat{self.chars(14)}.{self._hex(64)}"

    def contentful(self) -> str:
        return "CFPAT-" + self.chars(43, B64URL)

    def brevo(self) -> str:
        return f"xkeysib-{self._hex(64)}-{self.chars(16)}"

    def gitlab_runner(self) -> str:
        return "glrt-" + self.chars(20, B64URL)

    def terraform_cloud(self) -> str:
        return f"{self.chars(14)}.atlasv1.{self.chars(67)}"

    def azure_ad_client_secret(self) -> str:
        return f"{self.chars(3)}{self.rng.choice(string.digits)}Q~{self.chars(34, ALNUM + '_~.-')}"

    def alibaba_key_id(self) -> str:
        return "LTAI" + self.chars(20)

    def firebase_fcm(self) -> str:
        return f"AAAA{self.chars(7, B64URL)}:APA91b{self.chars(134, B64URL)}"

    def mapbox_secret(self) -> str:
        user = base64.urlsafe_b64encode(json.dumps({"u": self.chars(8, string.ascii_lowercase),
                                                    "a": self.chars(25, ALNUM)}).encode()).decode().rstrip("=")
        return f"sk.{user}.{self.chars(22, B64URL)}"

    def onepassword_service_account(self) -> str:
        body = base64.b64encode(json.dumps({"signInAddress": "my.1password.com", "userAuth": {
            "method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": self.chars(22, B64URL)},
            "email": f"{self.chars(12, string.ascii_lowercase)}@1passwordserviceaccounts.com",
            "srpX": self._hex(64), "muk": {"alg": "A256GCM", "ext": True, "k": self.chars(43, B64URL),
                                           "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"},
            "secretKey": f"A3-{self.chars(6, string.ascii_uppercase + string.digits)}-"
                         f"{self.chars(11, string.ascii_uppercase + string.digits)}",
            "deviceUuid": self.chars(26, string.ascii_lowercase + string.digits)}).encode()).decode().rstrip("=")
        return "ops_" + body

    def azure_devops_pat(self) -> str:
        return self.chars(52, "abcdefghijklmnopqrstuvwxyz234567")

    # -- key material and other secrets
    def eth_private_key(self) -> str:
        return "0x" + self.rng.randbytes(32).hex()

    def bip39_phrase(self, n: int = 12) -> str:
        return " ".join(self.rng.sample(_BIP39_SAMPLE, n))

    def django_secret_key(self) -> str:
        while True:  # no run of three symbols: a stored key is then found whatever its layout
            v = self.chars(50, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)")
            if not re.search(r"[^a-z0-9_]{3}", v):
                return "django-insecure-" + v

    def rails_secret_key_base(self) -> str:
        return self.rng.randbytes(64).hex()

    def laravel_app_key(self) -> str:
        return "base64:" + base64.b64encode(self.rng.randbytes(32)).decode()

    def pkcs8_lines(self) -> list[str]:
        raw = base64.b64encode(b"\x30\x82\x04\xbd\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01"
                               b"\x05\x00\x04\x82\x04\xa7" + self.rng.randbytes(400)).decode()
        return [raw[i : i + 64] for i in range(0, len(raw), 64)]

    def pgp_private_lines(self) -> list[str]:
        raw = base64.b64encode(b"\x95\x03\xc6\x04" + self.rng.randbytes(360)).decode()
        return [raw[i : i + 64] for i in range(0, len(raw), 64)]

    def putty_private_lines(self) -> list[str]:
        raw = base64.b64encode(b"\x00\x00\x00\x20" + self.rng.randbytes(160)).decode()
        return [raw[i : i + 64] for i in range(0, len(raw), 64)]

    def jwk_private_d(self) -> str:
        return base64.urlsafe_b64encode(self.rng.randbytes(32)).decode().rstrip("=")

    def aws_session_token(self) -> str:
        return "FwoGZXIvYXdzE" + self.chars(300, ALNUM + "+/")

    def uuid4(self) -> str:
        h = self._hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.rng.choice('89ab')}{h[17:20]}-{h[20:]}"

    def secret_word(self) -> str:
        """A password of another shape than :meth:`Canaries.password`: 12 to 16 characters, symbols anywhere."""
        alphabet = ALNUM + "-_.@$+=~"
        while True:
            v = "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(12, 16)))
            if (any(ch.isupper() for ch in v) and any(ch.islower() for ch in v) and any(ch.isdigit() for ch in v)
                    and any(not ch.isalnum() for ch in v) and v[0].isalnum() and v[-1].isalnum()
                    and not re.search(r"[^A-Za-z0-9_]{3}", v)):
                return v
