"""Fresh canary values for the adversarial masking benchmark: random identifiers with valid checksums, random
provider tokens of the public formats, random names and secrets. A new :class:`random.Random` gives new values, so a
fix can never match a benchmark value it has seen."""

from __future__ import annotations

import base64
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
