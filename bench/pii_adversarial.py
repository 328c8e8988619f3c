"""The adversarial masking suite: attacker inputs through the real API, looked for everywhere they could land.

Every run draws FRESH canaries (:class:`bench.canaries.Canaries`: random identifiers with valid checksums, random
provider tokens, random names), so nothing can be tuned against a value. :func:`generate_cases` builds the cases as
code, one technique group per section:

* ``encodings`` — contact numbers written with other Unicode forms, invisible or unusual separators, URL/HTML/``\\u``
  escapes, defanged notation, bidirectional controls (these need the normalisation pass before analysis);
* ``borders`` — national identifiers of the EU, UK, India and Brazil (valid checksums), passports, health records,
  dates of birth in several languages, lower-case and non-Latin names;
* ``secrets`` — credential words of other languages, separators and markup, command lines and code, provider token
  formats, URL signatures and credentials, key material without its header, JWT variants, session cookies, split,
  reversed, look-alike and escaped keys;
* ``consolidation`` — encoded values that consolidation could turn into their plain form;
* ``side_stores`` — external ids, nested metadata and keys, search queries, PATCHed statements, reasons, headers,
  admin login attempts.

:func:`run_cases` sends each case through the API (Django's test client against the configured database), runs
consolidation, and then looks for every canary — in the planted form and in its plain form, after NFKC, with any
separators between digits — in a full dump of the database tables, in every API response of the case, in every log
record emitted meanwhile, and in the admin's list pages.

Tuned / held-back: a case belongs to the held-back part when ``sha256("recmem-adversarial/" + case_id) % 100 < 35``.
Case ids are stable (they name the technique, not the value), so the split is too. Rules may be written while
reading the tuned part's leaks only; the held-back part is run once at the end and reported by group.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import logging
import random
import re
import string
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.canaries import Canaries
from testing.dump import database_dump

GROUPS = ("encodings", "borders", "secrets", "consolidation", "side_stores")
HELD_BACK_SALT = "recmem-adversarial/"
HELD_BACK_PERCENT = 35
FRESH_SALT = "recmem-fresh/"
PLACES = ("dump", "api", "logs", "admin")


@dataclass
class Case:
    id: str
    group: str
    channel: str  # exchange | turns | metadata | metadata_key | external_id | search | patch | reason | header | ...
    payload: Any
    canaries: tuple[str, ...]
    #: fails until the normalisation pass before analysis is in place (encoded forms)
    needs_normalisation: bool = False
    #: owned by the parallel side-store work (lockout table, access logs): reported apart like the encoded forms
    needs_side_store_fix: bool = False
    extra: dict = field(default_factory=dict)


def part_of(case_id: str) -> str:
    h = int(hashlib.sha256((HELD_BACK_SALT + case_id).encode()).hexdigest(), 16)
    return "held_back" if h % 100 < HELD_BACK_PERCENT else "tuned"


def fresh_part(case_id: str) -> str:
    """The blind set's halves (bench/pii_adversarial_fresh.py): ``fresh_tune`` may be read while writing rules,
    ``fresh_held`` is run once at the end, unread. Computed from the id alone, so nobody needs to open the set."""
    h = int(hashlib.sha256((FRESH_SALT + case_id).encode()).hexdigest(), 16)
    return "fresh_tune" if h % 2 == 0 else "fresh_held"


# --------------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------------

_FULLWIDTH = {c: chr(ord(c) + 0xFEE0) for c in string.ascii_letters + string.digits + "@.+-"}
_MATH_BOLD_DIGIT = {str(d): chr(0x1D7CE + d) for d in range(10)}
_ARABIC_INDIC = {str(d): chr(0x0660 + d) for d in range(10)}
_DEVANAGARI = {str(d): chr(0x0966 + d) for d in range(10)}


def _map(value: str, table: dict[str, str]) -> str:
    return "".join(table.get(c, c) for c in value)


ENCODINGS: dict[str, Callable[[str, random.Random], str]] = {
    "fullwidth": lambda v, r: _map(v, _FULLWIDTH),
    "zero_width": lambda v, r: "\u200b".join(v[i : i + 2] for i in range(0, len(v), 2)),
    "soft_hyphen": lambda v, r: "\u00ad".join(v[i : i + 3] for i in range(0, len(v), 3)),
    "nbsp_separators": lambda v, r: re.sub(r"[ \-]", "\u00a0", v) if re.search(r"[ \-]", v) else "\u202f".join(
        v[i : i + 4] for i in range(0, len(v), 4)),
    "percent": lambda v, r: "".join(f"%{ord(c):02X}" if c.isalnum() and i % 2 == 0 else c for i, c in enumerate(v)),
    "html_entities": lambda v, r: "".join(f"&#{ord(c)};" if not c.isalpha() or i % 3 == 0 else c
                                          for i, c in enumerate(v)),
    "unicode_escapes": lambda v, r: "".join(f"\\u{ord(c):04x}" if i % 2 == 0 else c for i, c in enumerate(v)),
    "bidi_controls": lambda v, r: "\u2066" + "\u200f".join(v) + "\u2069",
    "math_bold_digits": lambda v, r: _map(v, _MATH_BOLD_DIGIT),
    "arabic_indic_digits": lambda v, r: _map(v, _ARABIC_INDIC),
    "devanagari_digits": lambda v, r: _map(v, _DEVANAGARI),
}
_DEFANGED = {
    "defanged_brackets": lambda e: e.replace("@", "[at]").replace(".", "[.]"),
    "defanged_words": lambda e: e.replace("@", " at ").replace(".", " dot "),
    "defanged_parens": lambda e: e.replace("@", "(@)").replace(".", "(.)"),
}


def iban_de(rng: random.Random) -> str:
    bban = "".join(rng.choice(string.digits) for _ in range(18))
    check = 98 - int(bban + "131400") % 97  # "DE" = 13 14, "00"
    return f"DE{check:02d}{bban}"


def _group4(v: str) -> str:
    return " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def _encoding_cases(c: Canaries) -> list[Case]:
    out = []
    for technique, encode in ENCODINGS.items():
        values = {"email": c.email(), "phone": c.phone(), "card": _group4(c.card()), "iban": _group4(iban_de(c.rng))}
        if technique in ("arabic_indic_digits", "devanagari_digits", "math_bold_digits"):
            values.pop("email")
        for kind, value in values.items():
            planted = encode(value, c.rng)
            text = f"For the refund use {planted} please, thanks."
            out.append(Case(f"encodings/{technique}/{kind}", "encodings", "exchange", text, (value, planted),
                            needs_normalisation=True))
    for technique, defang in _DEFANGED.items():
        value = c.email()
        out.append(Case(f"encodings/{technique}/email", "encodings", "exchange",
                        f"Reach me via {defang(value)} for the contract.", (value, defang(value)),
                        needs_normalisation=technique != "defanged_brackets"))
    return out


# --------------------------------------------------------------------------------------------------
# Borders: national identifiers, passports, health, dates of birth, names
# --------------------------------------------------------------------------------------------------

_SYLL_CYR = ["ка", "ло", "ми", "рен", "то", "ви", "са", "дра", "нел", "по", "ру", "зек"]
_SYLL_GRK = ["κα", "λο", "μι", "ρεν", "το", "βι", "σα", "δρα", "νελ", "πο"]
_SYLL_AR = ["كا", "لو", "مي", "رن", "تو", "في", "سا", "درا", "نل"]
_SYLL_HI = ["का", "लो", "मी", "रेन", "तो", "वि", "सा", "द्रा", "नेल"]
_SYLL_TH = ["กา", "โล", "มิ", "เรน", "โต", "วิ", "สา", "ดรา", "เนล"]


def _word(rng: random.Random, syll: list[str], n: int = 2, cap: bool = True) -> str:
    w = "".join(rng.choice(syll) for _ in range(n))
    return w[0].upper() + w[1:] if cap else w


def _border_cases(c: Canaries) -> list[Case]:
    r = c.rng
    out: list[Case] = []
    ids = [
        ("uk_nino", "My National Insurance number is {v}.", lambda v: f"{v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}"),
        ("de_tax_id", "Meine Steuer-ID lautet {v}.", lambda v: f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"),
        ("fr_nir", "Mon numéro de sécurité sociale : {v}", lambda v: f"{v[0]} {v[1:3]} {v[3:5]} {v[5:7]} {v[7:10]} "
                                                                      f"{v[10:13]} {v[13:]}"),
        ("in_aadhaar", "Aadhaar no. {v} for the KYC", lambda v: f"{v[:4]} {v[4:8]} {v[8:]}"),
        ("in_pan", "PAN: {v}", lambda v: v),
        ("es_dni", "Mi DNI es el {v}", lambda v: f"{v[:8]}-{v[8]}"),
        ("es_nie", "NIE {v}", lambda v: v),
        ("br_cpf", "Meu CPF: {v}", lambda v: f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}"),
        ("br_cnpj", "CNPJ da empresa {v}", lambda v: f"{v[:2]}.{v[2:5]}.{v[5:8]}/{v[8:12]}-{v[12:]}"),
        ("se_personnummer", "Mitt personnummer är {v}", lambda v: f"{v[:6]}-{v[6:]}"),
        ("it_codice_fiscale", "Il mio codice fiscale è {v}", lambda v: v),
        ("nl_bsn", "Mijn BSN is {v}", lambda v: f"{v[:4]}.{v[4:6]}.{v[6:]}"),
        ("pl_pesel", "Mój PESEL to {v}", lambda v: v),
    ]
    for name, template, shaped in ids:
        value = getattr(c, name)()
        out.append(Case(f"borders/{name}/cue", "borders", "exchange", template.format(v=value), (value,)))
        value = getattr(c, name)()  # every case its own canary: a leak is never credited to another case
        written = shaped(value)
        out.append(Case(f"borders/{name}/written", "borders", "exchange",
                        f"Please file this under {written} tomorrow; the form asks for the id.", (value, written)))
    passport = c.passport()
    out.append(Case("borders/passport/en", "borders", "exchange", f"Passport number: {passport}, expires 2031.",
                    (passport,)))
    passport2 = c.passport()
    out.append(Case("borders/passport/de", "borders", "exchange", f"Reisepass-Nr. {passport2} liegt bei.",
                    (passport2,)))
    mrn = c.mrn()
    condition = r.choice(["Kallmann syndrome", "Wilson disease", "Addison disease", "Graves disease"])
    out.append(Case("borders/health/mrn_diagnosis", "borders", "exchange",
                    f"Patient MRN {mrn} was diagnosed with {condition} last week.", (mrn, condition)))
    mrn2 = c.mrn()[3:]
    out.append(Case("borders/health/medical_record", "borders", "exchange",
                    f"medical record number {mrn2}; dx: type 1 diabetes", (mrn2,)))
    dob_templates = [
        ("en_slash", "DOB: {d:%d/%m/%Y}"), ("en_words", "I was born on {d:%B} {d.day}, {d:%Y}."),
        ("en_dob_dots", "d.o.b. {d:%Y-%m-%d}"), ("de", "geboren am {d:%d.%m.%Y}"),
        ("fr", "née le {d.day} {fr_month} {d:%Y}"), ("es", "nacido el {d.day} de {es_month} de {d:%Y}"),
        ("it", "data di nascita: {d:%d/%m/%Y}"), ("ru", "дата рождения {d:%d.%m.%Y}"),
        ("zh", "出生日期：{d.year}年{d.month}月{d.day}日"), ("after", "{d:%d.%m.%Y} (date of birth)"),
    ]
    fr = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre"]
    es = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre"]
    for name, template in dob_templates:
        d = c.birth_date()
        text = template.format(d=d, fr_month=fr[d.month - 1], es_month=es[d.month - 1])
        date_text = re.sub(r"^.*?(?=\d)", "", text).replace(" (date of birth)", "").rstrip(".")
        out.append(Case(f"borders/dob/{name}", "borders", "exchange", text, (date_text,)))
    latin = c.latin_name().lower()
    first = c.latin_name().lower().split()[0]
    out += [
        Case("borders/name/lower_colleague", "borders", "exchange", f"my colleague {latin} will review it", (latin,)),
        Case("borders/name/lower_call", "borders", "exchange", f"call {first} tomorrow about the invoice", (first,)),
        Case("borders/name/lower_intro", "borders", "exchange", f"hi, my name is {(intro := c.latin_name().lower())}",
             (intro,)),
    ]
    cyr = f"{_word(r, _SYLL_CYR)} {_word(r, _SYLL_CYR, 3)}"
    cyr_low = f"{_word(r, _SYLL_CYR, cap=False)} {_word(r, _SYLL_CYR, 3, cap=False)}"
    cyr_en = f"{_word(r, _SYLL_CYR)} {_word(r, _SYLL_CYR, 3)}"
    grk = f"{_word(r, _SYLL_GRK)} {_word(r, _SYLL_GRK, 3)}"
    ar = f"{_word(r, _SYLL_AR, cap=False)} {_word(r, _SYLL_AR, 3, cap=False)}"
    hi = f"{_word(r, _SYLL_HI, cap=False)} {_word(r, _SYLL_HI, 3, cap=False)}"
    th = f"{_word(r, _SYLL_TH, cap=False)} {_word(r, _SYLL_TH, 3, cap=False)}"
    surname = r.choice("王李张刘陈杨黄赵")
    given = "".join(r.choice("伟芳娜敏静丽强磊军洋") for _ in range(2))
    out += [
        Case("borders/name/cyrillic", "borders", "exchange", f"Передай документы: {cyr} приедет завтра", (cyr,)),
        Case("borders/name/cyrillic_lower", "borders", "exchange", f"мой коллега {cyr_low} приедет завтра",
             (cyr_low,)),
        Case("borders/name/greek", "borders", "exchange", f"ο συνάδελφός μου {grk} θα έρθει αύριο", (grk,)),
        Case("borders/name/arabic", "borders", "exchange", f"اسمي {ar} وأعمل مهندسا", (ar,)),
        Case("borders/name/devanagari", "borders", "exchange", f"मेरा नाम {hi} है", (hi,)),
        Case("borders/name/thai", "borders", "exchange", f"ผมชื่อ {th} ครับ", (th,)),
        Case("borders/name/cjk", "borders", "exchange", f"我的同事{surname}{given}明天来", (surname + given,)),
        Case("borders/name/mixed_en_cyrillic", "borders", "exchange", f"Please ask {cyr_en} to sign the NDA.",
             (cyr_en,)),
    ]
    return out


# --------------------------------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------------------------------


def _secret_cases(c: Canaries) -> list[Case]:
    out: list[Case] = []
    labels = [
        ("de", "Das Passwort für den Server ist {v}"), ("fr", "mot de passe : {v}"), ("es", "la contraseña es {v}"),
        ("pt", "senha: {v}"), ("nl", "wachtwoord = {v}"), ("pl", "hasło do bazy: {v}"), ("ru", "пароль: {v}"),
        ("sv", "lösenord: {v}"), ("fi", "salasana on {v}"), ("it", "la password è {v}"),
        ("da", "adgangskode: {v}"), ("tr", "şifre: {v}"),
    ]
    for name, template in labels:
        v = c.password()
        out.append(Case(f"secrets/label/{name}", "secrets", "exchange", template.format(v=v), (v,)))
    markup = [
        ("json", '{{"db": {{"passwort": "{v}"}}}}'), ("yaml", "database:\n  senha: {v}\n"),
        ("env", "DB_WACHTWOORD={v}"), ("markdown_bold", "**Password**: `{v}`"),
        ("html_table", "<tr><td>password</td><td>{v}</td></tr>"), ("md_table", "| user | Passwort |\n|---|---|\n"
                                                                              "| admin | {v} |"),
        ("md_row", "| password | {v} |"), ("xml_attr", '<add key="DbPasswort" value="{v}"/>'),
    ]
    for name, template in markup:
        v = c.password()
        out.append(Case(f"secrets/markup/{name}", "secrets", "exchange", template.format(v=v), (v,)))
    cli = [
        ("long_flag", "deploy --db-password={v} --verbose"), ("user_p", "mongosh -u admin -p {v} --host db"),
        ("windows", "runas /user:admin /p:{v} cmd"), ("setter", 'conn.setPassword("{v}");'),
        ("auth_tuple", 'requests.get(url, auth=("svc", "{v}"))'), ("typed", 'api_token: str = "{v}"'),
        ("powershell", "Connect-Thing -Password {v} -Force"),
    ]
    for name, template in cli:
        v = c.password() if name != "typed" else c.chars(24)
        out.append(Case(f"secrets/cli/{name}", "secrets", "exchange", template.format(v=v), (v,)))
    providers = ["github", "gitlab", "slack", "stripe", "aws_key_id", "openai", "anthropic", "huggingface", "npm",
                 "pypi", "twilio", "sendgrid", "shopify", "atlassian", "digitalocean", "heroku", "mailgun",
                 "discord_bot", "telegram_bot", "gcp_api_key"]
    for name in providers:
        v = getattr(c, name)()
        out.append(Case(f"secrets/provider/{name}", "secrets", "exchange", f"use this one: {v} (rotated monthly)",
                        (v,)))
    aws = c.aws_secret()
    out.append(Case("secrets/provider/aws_secret", "secrets", "exchange",
                    f"aws_secret_access_key = {aws}", (aws,)))
    azure = c.azure_storage_key()
    out.append(Case("secrets/provider/azure_storage", "secrets", "exchange",
                    f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={azure};EndpointSuffix=core.windows.net",
                    (azure,)))
    sig, sas, tok = c.chars(64, "0123456789abcdef"), c.chars(43), c.chars(32)
    pw, pw6, pw_pct = c.password(), c.password(), c.password()
    out += [
        Case("secrets/url/amz_signature", "secrets", "exchange",
             f"https://b.s3.amazonaws.com/r.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={sig}", (sig,)),
        Case("secrets/url/sas_sig", "secrets", "exchange", f"https://acme.blob.core.windows.net/c/f?sv=2022&sig={sas}",
             (sas,)),
        Case("secrets/url/token_param", "secrets", "exchange", f"open https://app.example.io/share?token={tok}",
             (tok,)),
        Case("secrets/url/schemeless", "secrets", "exchange", f"psql admin:{pw}@db.internal:5432/app", (pw,)),
        Case("secrets/url/ipv6", "secrets", "exchange", f"redis://:{pw6}@[2001:db8::7]:6379/0", (pw6,)),
        Case("secrets/url/percent", "secrets", "exchange",
             f"mongodb+srv://app:{pw_pct.replace('%', '%25').replace('!', '%21').replace('#', '%23')}@c0.mongo.net/x",
             (pw_pct.replace("%", "%25").replace("!", "%21").replace("#", "%23"),)),
    ]
    pem = c.pem_body()
    out.append(Case("secrets/structure/pem_body", "secrets", "exchange", f"here is the key:\n{pem}\n",
                    (pem.split("\n")[2],)))
    jwt = c.jwt()
    out.append(Case("secrets/structure/jwt", "secrets", "exchange", f"Authorization header value {jwt}",
                    (jwt.split(".")[2],)))
    import base64
    import json

    spaced = base64.urlsafe_b64encode(b'{ "alg": "HS512", "typ": "JWT" }').decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps({"uid": c.digits(6)}).encode()).decode().rstrip("=")
    sig2 = c.chars(86, string.ascii_letters + string.digits + "-_")
    out.append(Case("secrets/structure/jwt_spaced_header", "secrets", "exchange", f"tok={spaced}.{body}.{sig2}",
                    (sig2,)))
    sid, php, conn = c.session_id(), c.session_id(), c.chars(32)
    out += [
        Case("secrets/cookie/header", "secrets", "exchange", f"Cookie: lang=en; sessionid={sid}; theme=dark", (sid,)),
        Case("secrets/cookie/phpsessid", "secrets", "exchange", f"Set-Cookie: PHPSESSID={php}; path=/", (php,)),
        Case("secrets/cookie/connect_sid", "secrets", "exchange", f"connect.sid=s%3A{conn}.sig", (conn,)),
    ]
    gh = c.github()
    out.append(Case("secrets/disguise/reversed", "secrets", "exchange", f"reversed for safety: {gh[::-1]}",
                    (gh[::-1], gh)))
    gh2 = c.github()
    look = gh2.replace("g", "ɡ", 1).replace("p", "р", 1)
    out.append(Case("secrets/disguise/homoglyph", "secrets", "exchange", f"token {look}", (look, gh2[4:])))
    gh3 = c.github()
    escaped = "".join(f"\\u{ord(ch):04x}" if i < 4 else ch for i, ch in enumerate(gh3))
    out.append(Case("secrets/disguise/unicode_escaped", "secrets", "exchange", f"key: {escaped}", (gh3[4:],),
                    needs_normalisation=True))
    gh4 = c.github()
    out.append(Case("secrets/split/reverse_order_one_text", "secrets", "exchange",
                    f"second half: {gh4[20:]} and the first half is {gh4[:20]}", (gh4[20:], gh4[4:20])))
    st = c.stripe()
    out.append(Case("secrets/split/across_exchanges", "secrets", "turns", [f"the stripe key is {st[:16]}",
                                                                           f"{st[16:]} is the rest"],
                    (st[8:16], st[16:])))
    gh5 = c.github()
    out.append(Case("secrets/split/tail_first", "secrets", "turns", [f"the end of the token: {gh5[22:]}",
                                                                     f"and it starts with {gh5[:22]}"],
                    (gh5[22:], gh5[4:22])))
    gh6 = c.github()
    out.append(Case("secrets/split/across_metadata", "secrets", "metadata_split",
                    {"text": f"token part one {gh6[:20]}", "metadata": {"part2": gh6[20:]}}, (gh6[4:20], gh6[20:])))
    return out


# --------------------------------------------------------------------------------------------------
# Consolidation and side stores
# --------------------------------------------------------------------------------------------------


def _consolidation_cases(c: Canaries) -> list[Case]:
    out = []
    for technique in ("nbsp_separators", "fullwidth", "zero_width", "percent", "html_entities", "bidi_controls"):
        phone = c.phone()
        email = c.email()
        planted_phone = ENCODINGS[technique](phone, c.rng)
        planted_email = ENCODINGS[technique](email, c.rng) if technique != "nbsp_separators" else email
        turns = [f"The supplier's phone is {planted_phone} and mail {planted_email}.",
                 f"Remember: supplier phone {planted_phone}, mail {planted_email}.",
                 f"Call the supplier on {planted_phone} about the late delivery."]
        out.append(Case(f"consolidation/{technique}", "consolidation", "consolidate", turns,
                        (phone, email, planted_phone), needs_normalisation=True))
    return out


def _side_store_cases(c: Canaries) -> list[Case]:
    e1, e2, gh, st = c.email(), c.email(), c.github(), c.stripe()
    aad, pw, card, card2 = c.in_aadhaar(), c.password(), c.card(), c.card()
    nino, phone = c.uk_nino(), c.phone()
    user = f"{c.chars(6, string.ascii_lowercase)}.{c.chars(6, string.ascii_lowercase)}@example.net"
    ua_token = c.github()
    idem = c.email()
    return [
        Case("side_stores/external_id/email", "side_stores", "external_id", f"chat-{e1}", (e1,)),
        Case("side_stores/external_id/fullwidth", "side_stores", "external_id",
             "ext-" + ENCODINGS["fullwidth"](e2, c.rng), (e2, ENCODINGS["fullwidth"](e2, c.rng)),
             needs_normalisation=True),
        Case("side_stores/metadata/nested_secret", "side_stores", "metadata",
             {"a": {"b": [{"c": {"d": {"e": f"token {gh}"}}}]}}, (gh,)),
        Case("side_stores/metadata/nested_id", "side_stores", "metadata",
             {"crm": {"contacts": [{"aadhaar": f"{aad[:4]} {aad[4:8]} {aad[8:]}"}]}}, (aad,)),
        Case("side_stores/metadata/key", "side_stores", "metadata", {st: "the key as a key"}, (st,)),
        Case("side_stores/search/secret", "side_stores", "search", f"where did I put {st[:-1]}x", (st[:-1] + "x",)),
        Case("side_stores/search/password_label", "side_stores", "search", f"Passwort: {pw}", (pw,)),
        Case("side_stores/search/zero_width_card", "side_stores", "search",
             "card " + ENCODINGS["zero_width"](card, c.rng), (card,), needs_normalisation=True),
        Case("side_stores/patch/statement", "side_stores", "patch", f"The NI number is {nino}", (nino,)),
        Case("side_stores/reason/edit", "side_stores", "reason_edit", f"as {phone} said", (phone,)),
        Case("side_stores/reason/delete", "side_stores", "reason_delete", f"wrong card {card2}", (card2,)),
        Case("side_stores/header/user_agent", "side_stores", "user_agent", f"bot/1.0 (+{ua_token})", (ua_token,)),
        Case("side_stores/header/idempotency_key", "side_stores", "idempotency_key", f"retry-{idem}", (idem,)),
        Case("side_stores/admin/login_username", "side_stores", "admin_login", user, (user,),
             needs_side_store_fix=True),
    ]


def generate_cases(rng: random.Random | None = None) -> list[Case]:
    """All cases with fresh canaries (``rng`` only to make a run reproducible; default: a new random seed)."""
    c = Canaries(rng or random.Random())
    cases = (_encoding_cases(c) + _border_cases(c) + _secret_cases(c) + _consolidation_cases(c)
             + _side_store_cases(c))
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def select(cases: Sequence[Case], part: str) -> list[Case]:
    """``part``: ``tuned``, ``held_back`` or ``all``."""
    return [c for c in cases if part == "all" or part_of(c.id) == part]


# --------------------------------------------------------------------------------------------------
# Running through the API and looking everywhere
# --------------------------------------------------------------------------------------------------

_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _fold(text: str) -> str:
    text = html.unescape(text)
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()


def _needle(value: str) -> re.Pattern[str]:
    """The canary in any layout: NFKC, case-blind, invisible characters ignored; digits of a number may be separated
    by the separators numbers are written with (spaces, dots, dashes, slashes, parentheses). Not commas: a dump is
    full of vectors ("0.1234, 0.5678"), and nine random digits match somewhere across their elements."""
    folded = _fold(value)
    digits = re.sub(r"\D", "", folded)
    if len(digits) >= 6 and len(digits) >= 0.6 * len(re.sub(r"\W", "", folded)):
        return re.compile(r"(?<![\d.])" + r"[ .\-/()]{0,2}".join(digits) + r"(?![\d])")
    return re.compile(re.escape(folded))


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(record.getMessage())
        except Exception:  # a record that cannot format is still looked at as its raw parts
            self.lines.append(f"{record.msg} {record.args}")
        if record.exc_text:
            self.lines.append(record.exc_text)


@contextlib.contextmanager
def capture_logs():
    handler = _Capture()
    root = logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(old)


def _at(i: int) -> str:
    return (datetime(2025, 1, 6, 9, 0, tzinfo=UTC) + timedelta(minutes=i)).isoformat()


def _send(case: Case, client, headers: dict, responses: list) -> None:
    """One case through the API; every response body is kept."""
    from memory.models import Exchange
    from memory.tests.factories import make_memories

    def post(path, body, **extra):
        r = client.post(path, body, format="json", **headers, **extra)
        responses.append(r)
        return r

    def session(**body):
        r = post("/api/v1/sessions", body)
        return r.json().get("id") if r.status_code in (200, 201) else None

    ch, p = case.channel, case.payload
    if ch == "exchange":
        sid = session()
        post(f"/api/v1/sessions/{sid}/exchanges", {"user": p, "assistant": "Noted.", "occurred_at": _at(0)})
    elif ch == "turns":
        sid = session()
        for i, turn in enumerate(p):
            post(f"/api/v1/sessions/{sid}/exchanges", {"user": turn, "assistant": "ok", "occurred_at": _at(i)})
    elif ch == "metadata_split":
        sid = session()
        post(f"/api/v1/sessions/{sid}/exchanges", {"user": p["text"], "assistant": "ok", "occurred_at": _at(0),
                                                   "metadata": p["metadata"]})
    elif ch == "consolidate":
        sid = session()
        post(f"/api/v1/sessions/{sid}/exchanges", {"exchanges": [
            {"user": t, "assistant": "Understood, noted.", "occurred_at": _at(i)} for i, t in enumerate(p)]})
        responses.append(client.post(f"/api/v1/sessions/{sid}/close", {}, format="json", **headers))
    elif ch == "metadata":
        sid = session(metadata=p)
        post(f"/api/v1/sessions/{sid}/exchanges", {"user": "see metadata", "assistant": "ok", "occurred_at": _at(0),
                                                   "metadata": p})
    elif ch == "external_id":
        session(external_id=p)
        session(external_id=p)  # the conflict must not repeat it either
    elif ch == "search":
        post("/api/v1/search", {"query": p})
    elif ch in ("patch", "reason_edit", "reason_delete"):
        sid = session()
        r = post(f"/api/v1/sessions/{sid}/exchanges", {"user": "we deploy on fridays", "assistant": "ok",
                                                       "occurred_at": _at(0)})
        exchange_id = r.json()["exchanges"][0]["id"]
        experience = make_memories(Exchange.objects.get(pk=exchange_id))[1]
        url = f"/api/v1/experiences/{experience.pk}"
        if ch == "patch":
            responses.append(client.patch(url, {"statement": p, "reason": "fix"}, format="json", **headers))
        elif ch == "reason_edit":
            responses.append(client.patch(url, {"confidence": 0.5, "reason": p}, format="json", **headers))
        else:
            responses.append(client.delete(url, {"reason": p}, format="json", **headers))
    elif ch == "user_agent":
        sid = session()
        post(f"/api/v1/sessions/{sid}/exchanges", {"user": "hello", "assistant": "hi", "occurred_at": _at(0)},
             HTTP_USER_AGENT=p)
    elif ch == "idempotency_key":
        sid = session()
        post(f"/api/v1/sessions/{sid}/exchanges", {"user": "hello", "assistant": "hi", "occurred_at": _at(0)},
             HTTP_IDEMPOTENCY_KEY=p)
    elif ch == "admin_login":
        from django.test import Client

        r = Client().post("/admin/login/", {"username": p, "password": "wrong-" + uuid.uuid4().hex})
        # The failed login re-renders the form with the username the requester just typed, to that requester only
        # (nothing stored, nothing served to anyone else): that echo is not a leak. The rest of the page is looked at
        # (an error message naming the user would be), and so are the dump, the logs and the admin.
        responses.append(_Text(_LOGIN_USERNAME_INPUT_RE.sub(_drop_value, _body(r))))
    else:
        raise ValueError(f"unknown channel {ch}")


_LOGIN_USERNAME_INPUT_RE = re.compile(r"<input\b[^>]*\bname=\"username\"[^>]*>")


def _drop_value(m: re.Match[str]) -> str:
    return re.sub(r'\svalue="[^"]*"', "", m.group(0))


def _admin_pages() -> str:
    from django.contrib import admin
    from django.contrib.auth.models import User
    from django.test import Client

    staff, _ = User.objects.get_or_create(username="adversarial-admin", defaults={"is_staff": True,
                                                                                  "is_superuser": True})
    client = Client()
    client.force_login(staff)
    pages = []
    for model in admin.site._registry:
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        r = client.get(url)
        if r.status_code == 200:
            pages.append(r.content.decode("utf-8", "replace"))
    return "\n".join(pages)


def run_cases(cases: Sequence[Case], *, client, headers: dict, agent_id=None,
              consolidate: bool = True) -> dict[str, Any]:
    """Send ``cases`` through the API, run consolidation, then look for every canary everywhere."""
    per_case_responses: dict[str, list] = {}
    with capture_logs() as logs:
        for case in cases:
            responses: list = []
            try:
                _send(case, client, headers, responses)
            except Exception as exc:  # a crash is a finding, not a reason to stop the suite
                responses.append(_Text(f"error: {type(exc).__name__}"))
            per_case_responses[case.id] = responses
        if consolidate and agent_id is not None and any(c.channel == "consolidate" for c in cases):
            from memory.services.consolidation import consolidation_run

            for _ in range(3):
                consolidation_run(agent_id=agent_id)
    dump = _fold(database_dump())
    log_text = _fold("\n".join(logs.lines))
    admin = _fold(_admin_pages())
    results = []
    for case in cases:
        api = _fold("\n".join(_body(r) for r in per_case_responses[case.id]))
        where = {place: False for place in PLACES}
        for canary in case.canaries:
            needle = _needle(canary)
            for place, hay in (("dump", dump), ("api", api), ("logs", log_text), ("admin", admin)):
                if needle.search(hay):
                    where[place] = True
        results.append({"id": case.id, "group": case.group, "part": part_of(case.id),
                        "needs_normalisation": case.needs_normalisation or case.needs_side_store_fix,
                        "leaked": any(where.values()), "where": [p for p, hit in where.items() if hit]})
    return summarise(results)


class _Text:
    def __init__(self, text: str) -> None:
        self.content = text.encode()


def _body(response) -> str:
    return response.content.decode("utf-8", "replace") if getattr(response, "content", None) is not None else ""


def summarise(results: Iterable[dict]) -> dict[str, Any]:
    results = list(results)
    report: dict[str, Any] = {"cases": len(results), "leaks": sum(r["leaked"] for r in results)}
    for part in ("tuned", "held_back"):
        rows = [r for r in results if r["part"] == part]
        if not rows:
            continue
        by_group = {}
        for g in GROUPS:
            grows = [r for r in rows if r["group"] == g]
            if grows:
                by_group[g] = {"cases": len(grows), "leaks": sum(r["leaked"] for r in grows),
                               "leaks_pending_normalisation": sum(r["leaked"] and r["needs_normalisation"]
                                                                  for r in grows)}
        report[part] = {"cases": len(rows), "leaks": sum(r["leaked"] for r in rows),
                        "leaks_pending_normalisation": sum(r["leaked"] and r["needs_normalisation"] for r in rows),
                        "by_group": by_group,
                        "by_place": {p: sum(p in r["where"] for r in rows) for p in PLACES}}
        if part == "tuned":  # the held-back part is reported by group only: nobody reads its cases
            report[part]["leaked_cases"] = [
                {"id": r["id"], "where": r["where"], "pending_normalisation": r["needs_normalisation"]}
                for r in rows if r["leaked"]]
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [f"Adversarial suite: {report['cases']} cases, {report['leaks']} leaked"]
    for part in ("tuned", "held_back"):
        rep = report.get(part)
        if not rep:
            continue
        lines.append(f"  {part}: {rep['leaks']}/{rep['cases']} leaked ({rep['leaks_pending_normalisation']} of them "
                     f"wait for the parallel normalisation / side-store work); by place {rep['by_place']}")
        for g, row in rep["by_group"].items():
            lines.append(f"    {g:14s} {row['leaks']:3d}/{row['cases']:3d} leaked "
                         f"({row['leaks_pending_normalisation']} pending normalisation)")
        for row in rep.get("leaked_cases", []):
            flag = " [waits for the parallel work]" if row["pending_normalisation"] else ""
            lines.append(f"      leak: {row['id']} in {', '.join(row['where'])}{flag}")
    return "\n".join(lines)
