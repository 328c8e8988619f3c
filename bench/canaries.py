"""Fresh canary values for the adversarial masking benchmark: random identifiers with valid checksums, random
provider tokens of the public formats, random names and secrets. A new :class:`random.Random` gives new values, so a
fix can never match a benchmark value it has seen."""

from __future__ import annotations

import base64
import hashlib
import json
import random
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
