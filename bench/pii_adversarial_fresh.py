"""The FRESH adversarial masking set: a second attacker suite, written apart from ``bench/pii_adversarial.py`` and
without reading the masking code's rules, for the people who tune the masking NOT to read.

Do not read this module (nor its case ids) if you work on the masking: it is only worth something while no rule has
been written against it. ``manage.py bench_pii --adversarial fresh`` runs it and reports leaks by group and by place
only — never which case leaked; ``--adversarial all`` does not include it.

It reuses the suite's machinery (:class:`~bench.pii_adversarial.Case`, the five groups, the API sender of the
existing channels, log capture, the admin pages, the database dump) and the canary generators
(:class:`bench.canaries.FreshCanaries`: every planted value new on each run, check digits valid where the format has
them). The cases use other identifiers, other writing systems and escapes, other credential formats and contexts, and
other API surfaces than the first suite. Each canary is personal data or a secret that must not be stored in clear.

Detection is stricter than the first suite's: every text looked at (and every canary) is read after HTML unescaping,
NFKC, removal of every format character and combining mark, mapping of every script's digits and of Unicode tag
characters to ASCII; a canary then matches with up to three separator characters (no comma) between any two of its
letters or digits, so a value stored in clear is found whatever layout it was stored in. ``Case.extra["derived"]``
lists the canaries that are not in the payload as written (the decoded form of an encoded value): found anywhere,
they mean a decoder wrote the value in clear.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import random
import re
import string
import sys
import traceback
import unicodedata
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from bench.canaries import FreshCanaries
from bench.pii_adversarial import (
    GROUPS,
    PLACES,
    Case,
    _admin_pages,
    _at,
    _body,
    _send,
    _Text,
    capture_logs,
)
from testing.dump import database_dump

CONSOLIDATING = ("consolidate", "consolidate_rich")


def _case(cid: str, group: str, channel: str, payload: Any, canaries: Iterable[str],
          derived: Iterable[str] = ()) -> Case:
    derived = tuple(derived)
    return Case(f"fresh/{group}/{cid}", group, channel, payload, tuple(dict.fromkeys([*canaries, *derived])),
                extra={"derived": derived})


# --------------------------------------------------------------------------------------------------
# Writing forms
# --------------------------------------------------------------------------------------------------

_CIRCLED = {"0": "\u24ea", **{str(d): chr(0x2460 + d - 1) for d in range(1, 10)}}
_SUPERSCRIPT = dict(zip("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079", strict=True))
_MONO = {**{chr(97 + i): chr(0x1D68A + i) for i in range(26)}, **{chr(65 + i): chr(0x1D670 + i) for i in range(26)},
         **{str(d): chr(0x1D7F6 + d) for d in range(10)}}
_PERSIAN = {str(d): chr(0x06F0 + d) for d in range(10)}
_SPOKEN = dict(zip("0123456789", ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
                   strict=True))


def _map(value: str, table: dict[str, str]) -> str:
    return "".join(table.get(ch, ch) for ch in value)


def _html_hex(value: str) -> str:
    return "".join(f"&#x{ord(ch):x};" if ch in "@." or i % 3 == 0 else ch for i, ch in enumerate(value))


def _html_named(value: str) -> str:
    return value.replace("_", "&lowbar;").replace(".", "&period;").replace("@", "&commat;")


def _backslash_x(value: str) -> str:
    at = value.index("@")
    return "".join(f"\\x{ord(ch):02x}" if ch in "@." or (i > at and i % 2) else ch for i, ch in enumerate(value))


def _percent_fullwidth(value: str) -> str:
    return value.replace("@", "%EF%BC%A0").replace(".", "%EF%BC%8E")


def _keycaps(value: str) -> str:
    return "".join(ch + "\ufe0f\u20e3" if ch.isdigit() else ch for ch in value)


def _underlined(value: str) -> str:
    return "".join(ch + "\u0332" if ch.isdigit() else ch for ch in value)


def _tags(value: str) -> str:
    return "".join(chr(0xE0000 + ord(ch)) for ch in value)


def _spoken(value: str) -> str:
    return " ".join(_SPOKEN[d] for d in value if d.isdigit())


def _wrapped(value: str) -> str:
    cut = len(value) // 2 + 1
    return value[:cut] + "\n" + value[cut:]


def _spelled_fr(email: str) -> str:
    local, domain = email.split("@")
    return f"{local.replace('.', ' point ')} arobase {domain.replace('.', ' point ')}"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _group(value: str, n: int = 4) -> str:
    return " ".join(value[i : i + n] for i in range(0, len(value), n))


# --------------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------------


def _encoding_cases(c: FreshCanaries) -> list[Case]:
    out: list[Case] = []

    def add(cid: str, template: str, value: str, planted: str, derived: bool = False) -> None:
        """``derived``: the plain value is not in the text as written (only a decoder would produce it)."""
        text = template.format(p=planted)
        if derived:
            out.append(_case(cid, "encodings", "exchange", text, (planted,), derived=(value,)))
        else:
            out.append(_case(cid, "encodings", "exchange", text, (value, planted)))

    v = c.mobile("DE")
    add("circled_digits/phone", "You can text me on {p} after six, I'm in meetings until then.", v, _map(v, _CIRCLED))
    v = c.card_of("mastercard2")
    add("superscript_digits/card", "Card on file: {p}, exp 09/29 — charge the deposit to it.", v,
        _map(_group(v), _SUPERSCRIPT))
    v = c.mailbox()
    add("math_monospace/email", "My address, pasted from my profile page: {p}", v, _map(v, _MONO))
    v = _group(c.at_iban())
    add("persian_digits/iban", "لطفا اجاره را به این حساب واریز کنید: {p} ممنون", v, _map(v, _PERSIAN))
    v = c.mailbox()
    add("html_hex_entities/email", "<p>Kontakt bei Rückfragen: {p}</p>", v, _html_hex(v))
    v = c.mailbox()
    add("html_named_entities/email", "Reply-To: {p}", v, _html_named(v))
    v = c.mailbox()
    add("backslash_x/email", 'log line: recipient="{p}" status=bounced', v, _backslash_x(v), derived=True)
    v = c.mailbox()
    add("percent_utf8_fullwidth/email", "Open https://crm.example.com/contacts/lookup?owner={p} to see her file", v,
        _percent_fullwidth(v), derived=True)
    v = c.card_of("amex")
    add("keycap_digits/card", "the amex is {p} 🙈 don't tell anyone", v, _keycaps(f"{v[:4]} {v[4:10]} {v[10:]}"))
    v = c.mobile("FR", national=True)
    add("combining_underline/phone", "Mon portable : {p} (après 18 h)", v, _underlined(v))
    v = c.mailbox()
    add("tag_characters/email", "Please draft a polite reply to the customer.{p}", v, _tags(f"Their email is {v}"))
    v = _group(c.ch_iban())
    dashed = "".join("\u2011" if ch == " " and i % 2 else "\u2212" if ch == " " else ch for i, ch in enumerate(v))
    add("unicode_dashes/iban", "Bitte auf {p} überweisen, Verwendungszweck Miete", v, dashed)
    v = c.mobile("BR", national=True)
    add("line_wrap/phone", "Se eu não atender, ligue para\n{p} à noite", v, _wrapped(v))
    v = c.mobile("AU", national=True)
    add("spoken_digits/phone", "[voice transcript] yeah my mobile is {p}, call after lunch", v, _spoken(v),
        derived=True)
    v = c.mailbox()
    add("rlo_reversed/email", "contact: \u202e{p}\u202c", v, v[::-1], derived=True)
    v = c.mailbox()
    add("french_spelled/email", "Écrivez-moi à {p} pour le devis.", v, _spelled_fr(v), derived=True)
    name, phone = c.latin_name(), c.mobile("NL")
    vcard = _b64(f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:{name}\r\nTEL;TYPE=cell:{phone}\r\nEND:VCARD\r\n")
    out.append(_case("base64_vcard/contact", "encodings", "exchange",
                     f"save this contact for me: data:text/vcard;base64,{vcard}", (vcard,), derived=(name, phone)))
    return out


# --------------------------------------------------------------------------------------------------
# Borders: other countries' identifiers, passports, health numbers, dates of birth, names
# --------------------------------------------------------------------------------------------------

_PL_MONTHS = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
              "października", "listopada", "grudnia"]
_HU_MONTHS = ["január", "február", "március", "április", "május", "június", "július", "augusztus", "szeptember",
              "október", "november", "december"]
_HANGUL_SURNAMES = "김이박최정강조윤장임한오서신권황안송"
_HANGUL_GIVEN = "민서준지현우수아예도하윤은진영유채원시연"
_JA_SURNAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤"]
_JA_GIVEN = "翔陽結葵蓮凛大悠美咲花真奈太"
_VI_SURNAMES = ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Vũ", "Đặng", "Bùi"]
_VI_MIDDLE = ["Thị", "Văn", "Đức", "Ngọc", "Minh"]
_VI_GIVEN = ["Lan", "Hương", "Tuấn", "Thảo", "Phương", "Quỳnh", "Khoa", "Duy", "Hạnh", "Vy", "Trâm", "Nhung", "Khải"]
_KA_SYLL = ["ნი", "კო", "ლა", "თა", "მა", "ვა", "ხე", "გი", "რი", "ზუ", "ბე", "დო"]


def _hangul_name(r: random.Random) -> str:
    return r.choice(_HANGUL_SURNAMES) + r.choice(_HANGUL_GIVEN) + r.choice(_HANGUL_GIVEN)


def _border_cases(c: FreshCanaries) -> list[Case]:
    r = c.rng
    out: list[Case] = []

    def add(cid: str, text: str, *canaries: str) -> None:
        out.append(_case(cid, "borders", "exchange", text, canaries))

    ids = [
        ("fi_hetu", "Henkilötunnukseni on {v}, tarvitsetko vielä jotain?"),
        ("no_fnr", "Fødselsnummeret mitt er {v}, bruk det på skjemaet."),
        ("dk_cpr", "Mit CPR-nummer er {v} hvis kommunen spørger."),
        ("tr_tckn", "T.C. kimlik numaram {v}, adres bilgisi ekte."),
        ("cn_resident_id", "我的身份证号是{v}，请帮我填表。"),
        ("kr_rrn", "주민등록번호: {v}"),
        ("sg_nric", "Book it under my NRIC {v} please."),
        ("mx_curp", "Mi CURP es {v}, la necesito para el trámite."),
        ("cl_rut", "Emite la boleta a mi RUT {v}."),
        ("ca_sin", "Mon NAS est le {v}, pour la déclaration."),
        ("au_tfn", "TFN {v} for the new payroll form"),
        ("il_teudat_zehut", "מספר תעודת זהות שלי הוא {v}"),
        ("ch_ahv", "Meine AHV-Nummer lautet {v}."),
    ]
    for name, template in ids:
        value = getattr(c, name)()
        add(f"id/{name}", template.format(v=value), value)
    nrn = c.be_nrn()
    written = f"{nrn[:2]}.{nrn[2:4]}.{nrn[4:6]}-{nrn[6:9]}.{nrn[9:]}"
    add("id/be_nrn_written", f"Numéro de registre national : {written}", written)
    mine = c.jp_my_number()
    add("id/jp_my_number_grouped", f"マイナンバーは {mine[:4]} {mine[4:8]} {mine[8:]} です。", mine)
    # passports
    surname = c.chars(r.randint(6, 9), string.ascii_lowercase)
    given = c.chars(r.randint(4, 6), string.ascii_lowercase)
    line1, line2, number = c.mrz_td3(surname, given)
    # the number is written with its check digit right after it
    add("passport/mrz_ocr", f"OCR of my passport photo page:\n{line1}\n{line2}", line2[:10], surname)
    series = f"{r.randint(1, 99):02d} {r.randint(0, 24):02d} {c.digits(6, string.digits)}"
    add("passport/ru_internal", f"Паспорт {series}, выдан ОВД района Хамовники", series)
    # health
    add("health/uk_nhs", f"NHS number {(nhs := c.uk_nhs())} — she has been on the HIV clinic list since March.", nhs)
    add("health/au_medicare", f"Medicare card {(med := c.au_medicare())} for the GP booking on Friday.", med)
    add("health/de_kvnr", f"Versichertennummer {(kv := c.de_kvnr())} (TK), Diagnose F32.1, bitte an die Praxis.", kv)
    add("health/us_mbi", f"Dad's Medicare MBI is {(mbi := c.us_mbi())}, he needs the cardiology referral.", mbi)
    # dates of birth
    born = c.birth_date()
    era, year = ("平成", born.year - 1988) if born.year >= 1989 else ("昭和", born.year - 1925)
    ja = f"{era}{year}年{born.month}月{born.day}日"
    add("dob/ja_era", f"生年月日：{ja}", ja)
    born = c.birth_date()
    ko = f"{born.year}년 {born.month}월 {born.day}일"
    add("dob/ko", f"생년월일은 {ko}입니다", ko)
    born = c.birth_date()
    pl = f"{born.day} {_PL_MONTHS[born.month - 1]} {born.year}"
    add("dob/pl", f"Data urodzenia: {pl} r.", pl)
    born = c.birth_date()
    hu = f"{born.year}. {_HU_MONTHS[born.month - 1]} {born.day}."
    add("dob/hu", f"Született: {hu}", hu)
    born = c.birth_date()
    us = born.strftime("%m/%d/%y")
    add("dob/us_two_digit_year", f"patient dob {us}, allergic to latex", us)
    # names
    ko_name = _hangul_name(r)
    add("name/hangul", f"제 동료 {ko_name} 씨가 내일 계약서를 가져올 거예요.", ko_name)
    ja_name = r.choice(_JA_SURNAMES) + "".join(r.sample(_JA_GIVEN, 2))
    add("name/japanese", f"担当の{ja_name}さんに明日電話してください。", ja_name)
    vi_name = f"{r.choice(_VI_SURNAMES)} {r.choice(_VI_MIDDLE)} {' '.join(r.sample(_VI_GIVEN, 2))}"
    add("name/vietnamese", f"Tôi tên là {vi_name}, tôi cần đổi lịch hẹn.", vi_name)
    ka_name = (f"{''.join(r.sample(_KA_SYLL, 2))} "
               f"{''.join(r.sample(_KA_SYLL, 2))}{r.choice(['შვილი', 'ძე', 'ია'])}")
    add("name/georgian", f"ჩემი კოლეგა {ka_name} ხვალ მოვა", ka_name)
    return out


# --------------------------------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------------------------------


def _secret_cases(c: FreshCanaries) -> list[Case]:
    out: list[Case] = []

    def add(cid: str, text: str, *canaries: str, derived: Iterable[str] = ()) -> None:
        out.append(_case(cid, "secrets", "exchange", text, canaries, derived=derived))

    labels = [("ja", "DBのパスワードは{v}です"), ("zh", "服务器密码：{v}"), ("ko", "관리자 비밀번호는 {v} 입니다"),
              ("el", "ο κωδικός πρόσβασης είναι {v}")]
    for lang, template in labels:
        v = c.password()
        add(f"label/{lang}", template.format(v=v), v)
    domain = c.chars(7, string.ascii_lowercase)
    pw = c.password()
    add("context/netrc", f"my ~/.netrc has: machine api.{domain}.com login deploy password {pw}", pw)
    pw = c.password()
    add("context/pgpass", f"~/.pgpass line: db.internal:5432:billing:billing_rw:{pw}", pw)
    token = "gldt-" + c.chars(20, string.ascii_letters + string.digits + "-_")
    auth = _b64(f"deploy-bot:{token}")
    add("context/docker_config", json.dumps({"auths": {"registry.gitlab.com": {"auth": auth}}}), auth,
        derived=(token,))
    pw = c.password()
    basic = _b64(f"{c.mailbox()}:{pw}")
    add("context/basic_auth_curl", f'curl -H "Authorization: Basic {basic}" https://jira.{domain}.com/rest/api/2/'
                                   "myself", basic, derived=(pw,))
    pw = c.passphrase()
    add("context/wifi_qr", f"the QR code on the router decodes to WIFI:T:WPA;S:Home-{c.digits(4)};P:{pw};;", pw)
    email, secret = c.mailbox(), c.totp_secret()
    add("context/otpauth", f"otpauth://totp/Acme:{email}?secret={secret}&issuer=Acme", secret, email)
    v = c.github_fine_grained()
    add("provider/github_fine_grained", f"fine-grained token for the release job: {v}", v)
    v = c.stripe_webhook_secret()
    add("provider/stripe_webhook_secret", f"STRIPE_WEBHOOK_SECRET={v}", v)
    v = c.google_oauth_client_secret()
    add("provider/google_oauth_client_secret", json.dumps({"installed": {
        "client_id": f"{c.digits(12)}-{c.chars(32, string.ascii_lowercase + string.digits)}.apps.googleusercontent.com",
        "client_secret": v, "redirect_uris": ["http://localhost"]}}), v)
    v = c.slack_webhook()
    add("provider/slack_webhook", f"post the alerts to {v}", v.rsplit("/", 1)[1])
    v = c.vault_token()
    add("provider/vault_token", f"export VAULT_ADDR=https://vault.internal:8200 VAULT_TOKEN={v}", v)
    lines = c.openssh_private_key_body()
    key = "\n".join(["-----BEGIN OPENSSH PRIVATE KEY-----", *lines, "-----END OPENSSH PRIVATE KEY-----"])
    add("keys/openssh_private", f"this is the deploy key, add it to the runner:\n{key}\n", lines[1])
    v = c.bitcoin_wif()
    add("keys/bitcoin_wif", f"the cold wallet's private key (WIF) is {v}, keep it safe", v)
    v = c.github_app_installation()
    head, tail = v[4:22], v[22:]
    add("disguise/literal_concatenation", f'GITHUB_TOKEN = (\n    "ghs_{head}"\n    "{tail}"\n)', head, tail)
    return out


# --------------------------------------------------------------------------------------------------
# Consolidation: values a consolidator could write in plain form, and values only in assistant turns
# --------------------------------------------------------------------------------------------------


def _consolidation_cases(c: FreshCanaries) -> list[Case]:
    out: list[Case] = []

    def turns(cid: str, templates: list[str], planted: str, value: str, derived: bool = False) -> None:
        rows = [{"user": t.format(p=planted), "assistant": "Understood, noted."} for t in templates]
        if derived:
            out.append(_case(cid, "consolidation", "consolidate_rich", rows, (planted,), derived=(value,)))
        else:
            out.append(_case(cid, "consolidation", "consolidate_rich", rows, (value, planted)))

    landlord = ["My landlord's mobile is {p}, save it please.", "If the heating fails again call the landlord on {p}.",
                "Reminder: landlord mobile {p}, he prefers WhatsApp."]
    v = c.mobile("IN")
    turns("persian_digits/phone", landlord, _map(v, _PERSIAN), v)
    v = c.mobile("ES")
    turns("superscript_digits/phone", landlord, _map(v, _SUPERSCRIPT), v)
    accountant = ["Our accountant's address is {p}.", "Send the quarterly VAT files to {p} as usual.",
                  "Remember that invoices go to {p}, not to the office."]
    v = c.mailbox()
    turns("html_hex_entities/email", accountant, _html_hex(v), v)
    v = c.mailbox()
    turns("backslash_x/email", accountant, _backslash_x(v), v, derived=True)
    v = c.mailbox()
    turns("tag_characters/email", ["Draft the reply to the supplier.{p}", "Follow up with the supplier.{p}",
                                   "The supplier still has not answered.{p}"], _tags(f" Their email: {v}"), v)
    v = c.mailbox()
    turns("base64/email", ["supplier contact (base64, from the export): {p}",
                           "the supplier contact is still {p} in base64", "decode {p} to get the supplier mail"],
          _b64(v), v, derived=True)
    fnr = c.no_fnr()
    rows = [{"user": "Can you fill in the Altinn tax form for me?",
             "assistant": f"Done — I used your fødselsnummer {fnr} from earlier."},
            {"user": "And the NAV application?", "assistant": f"Filed under fødselsnummer {fnr} as well."},
            {"user": "Thanks, remember it for next year.", "assistant": f"Noted: your fødselsnummer is {fnr}."}]
    out.append(_case("assistant_only/no_fnr", "consolidation", "consolidate_rich", rows, (fnr,)))
    name, nhs = _hangul_name(c.rng), c.uk_nhs()
    rows = [{"user": f"Never forget: {name} (NHS {nhs}) is severely allergic to penicillin.", "assistant": "Noted."},
            {"user": f"{name} must always get the morning slot, she is diabetic.", "assistant": "Understood."},
            {"user": f"Important: {name}'s NHS number is {nhs}, needed for every referral.", "assistant": "Saved."}]
    out.append(_case("salient_medical/hangul_nhs", "consolidation", "consolidate_rich", rows, (nhs, name)))
    return out


# --------------------------------------------------------------------------------------------------
# Side stores: other fields, paths, query strings, headers and error paths of the API
# --------------------------------------------------------------------------------------------------


def _side_store_cases(c: FreshCanaries) -> list[Case]:
    out: list[Case] = []

    def add(cid: str, channel: str, payload: Any, *canaries: str) -> None:
        out.append(_case(cid, "side_stores", channel, payload, canaries))

    email = c.mailbox()
    add("path/session_id_email", "get_path", f"sessions/support-{email}", email)
    email = c.mailbox()
    add("query/experience_tag_email", "get_query", {"path": "experiences", "params": {"tag": email}}, email)
    phone = c.mobile("DE")
    add("query/unknown_parameter", "get_query", {"path": "exchanges", "params": {"customer_phone": phone}}, phone)
    phone = c.mobile("ES")
    add("search/tags", "search_body", {"query": "who sent the signed lease?", "tags": [phone]}, phone)
    name, email = c.latin_name(), c.mailbox()
    add("patch/subject", "patch_subject", f"{name} ({email})", name, email)
    email = c.mailbox()
    add("session/module_name", "session_module", f"crm/{email}", email)
    card = c.card_of("discover")
    add("metadata/integer_card", "metadata", {"payment": {"card_number": int(card), "brand": "discover"}}, card)
    passport = "".join(c.rng.choice(string.ascii_uppercase) for _ in range(2)) + c.digits(7, string.digits)
    add("batch/invalid_sibling", "batch", [{"user": f"旅券番号 {passport} で予約してください", "assistant": "ok"},
                                           {"user": "and the return flight", "assistant": "ok",
                                            "occurred_at": "yesterday afternoon"}], passport)
    email = c.mailbox()
    add("body/oversized_text", "oversized", f"Forwarded thread from {email}:\n", email)
    token = c.github_fine_grained()
    add("body/malformed_json", "raw_body",
        {"body": '{"user": "the CI token is ' + token + ', "assistant": "ok"}', "content_type": "application/json"},
        token)
    email = c.mailbox()
    out.append(_case("body/form_encoded", "side_stores", "raw_body",
                     {"body": urlencode({"user": f"my email is {email}", "assistant": "ok"}),
                      "content_type": "application/x-www-form-urlencoded"},
                     (quote(email, safe=""),), derived=(email,)))
    key = c.openrouter()
    add("header/authorization_foreign_key", "api_header", {"HTTP_AUTHORIZATION": f"Bearer {key}"}, key)
    reset = c.chars(43, string.ascii_letters + string.digits + "-_")
    add("header/referer_reset_token", "api_header",
        {"HTTP_REFERER": f"https://accounts.example.com/password/reset?token={reset}"}, reset)
    session_jwt = c.jwt()
    add("header/cookie_session", "api_header",
        {"HTTP_COOKIE": f"theme=dark; __Secure-next-auth.session-token={session_jwt}"}, session_jwt)
    pw = c.password()
    add("admin/login_password", "admin_login_password", pw, pw)
    email = c.mailbox()
    add("idempotency/conflicting_retry", "idempotency_conflict", f"also cc {email} on the contract", email)
    phone = c.mobile("FR")
    add("reason/in_url", "reason_in_url", f"wrong number, she is on {phone} now", phone)
    return out


def generate_fresh_cases(rng: random.Random | None = None) -> list[Case]:
    """The fresh set with new canaries (``rng`` only to reproduce a run)."""
    c = FreshCanaries(rng or random.Random())
    cases = (_encoding_cases(c) + _border_cases(c) + _secret_cases(c) + _consolidation_cases(c)
             + _side_store_cases(c))
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


# --------------------------------------------------------------------------------------------------
# Sending: the first suite's channels, plus this set's
# --------------------------------------------------------------------------------------------------


def _send_fresh(case: Case, client, headers: dict, responses: list) -> None:
    from django.test import Client

    from core.config import config
    from memory.models import Exchange
    from memory.tests.factories import make_memories

    api = "/api/v1/"
    ch, p = case.channel, case.payload

    def keep(r):
        responses.append(r)
        return r

    def post(path, body, **extra):
        return keep(client.post(api + path, body, format="json", **{**headers, **extra}))

    def session(**body):
        r = post("sessions", body)
        return r.json().get("id") if r.status_code in (200, 201) else None

    def experience_url() -> str:
        sid = session()
        r = post(f"sessions/{sid}/exchanges", {"user": "we deploy on fridays", "assistant": "ok",
                                               "occurred_at": _at(0)})
        experience = make_memories(Exchange.objects.get(pk=r.json()["exchanges"][0]["id"]))[1]
        return f"{api}experiences/{experience.pk}"

    if ch == "consolidate_rich":
        sid = session()
        post(f"sessions/{sid}/exchanges", {"exchanges": [{**row, "occurred_at": _at(i)} for i, row in enumerate(p)]})
        post(f"sessions/{sid}/close", {})
    elif ch == "get_path":
        keep(client.get(api + quote(p, safe="/@+"), **headers))
    elif ch == "get_query":
        keep(client.get(api + p["path"], p["params"], **headers))
    elif ch == "search_body":
        post("search", p)
    elif ch == "patch_subject":
        keep(client.patch(experience_url(), {"subject": p, "reason": "fix"}, format="json", **headers))
    elif ch == "session_module":
        session(module=p)
    elif ch == "batch":
        sid = session()
        post(f"sessions/{sid}/exchanges", {"exchanges": p})
    elif ch == "oversized":
        sid = session()
        limit = config().limits.max_text_chars
        filler = "the meeting notes continue here. "
        text = p + filler * (limit // len(filler) + 2)
        post(f"sessions/{sid}/exchanges", {"user": text, "assistant": "ok", "occurred_at": _at(0)})
    elif ch == "raw_body":
        sid = session()
        keep(client.generic("POST", f"{api}sessions/{sid}/exchanges", p["body"].encode(),
                            content_type=p["content_type"], **headers))
    elif ch == "api_header":
        keep(client.get(api + "sessions", **{**headers, **p}))
    elif ch == "admin_login_password":
        keep(Client().post("/admin/login/", {"username": "ops-admin", "password": p}))
    elif ch == "idempotency_conflict":
        sid = session()
        key = str(uuid.uuid4())
        post(f"sessions/{sid}/exchanges", {"user": "send the contract", "assistant": "ok", "occurred_at": _at(0)},
             HTTP_IDEMPOTENCY_KEY=key)
        post(f"sessions/{sid}/exchanges", {"user": p, "assistant": "ok", "occurred_at": _at(0)},
             HTTP_IDEMPOTENCY_KEY=key)
    elif ch == "reason_in_url":
        keep(client.delete(experience_url() + "?" + urlencode({"reason": p}), format="json", **headers))
    else:
        _send(case, client, headers, responses)


# --------------------------------------------------------------------------------------------------
# Looking: every layout of a canary
# --------------------------------------------------------------------------------------------------

_HANGUL_FILLERS = (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800)


@functools.cache
def _deep_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for cp in range(0x110000):
        if 0xE0020 <= cp <= 0xE007E:
            table[cp] = chr(cp - 0xE0000)
            continue
        ch = chr(cp)
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Mn", "Me") or cp in _HANGUL_FILLERS:
            table[cp] = None
        elif cat == "Nd" and not ch.isascii():
            table[cp] = str(unicodedata.decimal(ch))
    return table


def deep_fold(text: str) -> str:
    """HTML entities decoded, escaped backslashes (a dump's and JSON's doubling) collapsed, NFKC, every format
    character and combining mark dropped, tag characters read as the ASCII they hide, every script's digits as ASCII,
    case folded."""
    text = re.sub(r"\\{2,}", r"\\", html.unescape(text))
    return unicodedata.normalize("NFKC", text).translate(_deep_table()).casefold()


def deep_needle(value: str) -> re.Pattern[str]:
    """The canary in any layout: its letters and digits in order, up to three separators (not a comma: a dump is
    full of vectors) between any two; a number not inside a longer one."""
    core = re.sub(r"\W", "", deep_fold(value))
    if len(core) < 4:
        return re.compile(re.escape(deep_fold(value)))
    body = r"[^\w,]{0,3}".join(re.escape(ch) for ch in core)
    before = r"(?<![\d.])" if core[0].isdigit() else ""
    after = r"(?!\d)" if core[-1].isdigit() else ""
    return re.compile(before + body + after)


def run_blind_cases(cases: Sequence[Case], send, *, client, headers: dict, agent_id=None, consolidate: bool = True,
                    label: str = "fresh") -> list[dict]:
    """Send ``cases`` through the API with ``send(case, client, headers, responses)`` (each in its own savepoint: a
    crash is counted, not spread), run consolidation, then look for every canary in the dump, the case's responses,
    the logs and the admin pages. One row per case: group, leaked, where, error — never the case or its values.
    The blind sets (this one, ``bench/pii_adversarial_r18.py``) share it."""
    from django.db import transaction

    per_case: dict[str, tuple[list, bool]] = {}
    with capture_logs() as logs:
        for case in cases:
            responses: list = []
            crashed = False
            try:
                with transaction.atomic():
                    send(case, client, headers, responses)
            except Exception as exc:  # a crash is a finding, not a reason to stop the set
                responses.append(_Text(f"error: {type(exc).__name__}"))
                crashed = True
                # for whoever fixes the harness: the channel, the exception's type and where it was raised (never
                # the case, its values or the message, which may quote them)
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                print(f"{label}: {case.channel}: {type(exc).__name__} at {Path(frame.filename).name}:"
                      f"{frame.lineno}", file=sys.stderr)
            crashed = crashed or any(getattr(r, "status_code", 200) >= 500 for r in responses)
            per_case[case.id] = (responses, crashed)
        if consolidate and agent_id is not None and any(c.channel in CONSOLIDATING for c in cases):
            from memory.services.consolidation import consolidation_run

            for _ in range(3):
                consolidation_run(agent_id=agent_id)
    stores = {"dump": deep_fold(database_dump()), "logs": deep_fold("\n".join(logs.lines)),
              "admin": deep_fold(_admin_pages())}
    rows = []
    for case in cases:
        responses, crashed = per_case[case.id]
        hay = {**stores, "api": deep_fold("\n".join(_body(r) for r in responses))}
        where = [place for place in PLACES if any(deep_needle(v).search(hay[place]) for v in case.canaries)]
        rows.append({"group": case.group, "leaked": bool(where), "where": where, "error": crashed})
    return rows


def run_fresh_cases(cases: Sequence[Case], *, client, headers: dict, agent_id=None,
                    consolidate: bool = True) -> dict[str, Any]:
    """The fresh set through :func:`run_blind_cases`, summarised by group and place."""
    return summarise_fresh(run_blind_cases(cases, _send_fresh, client=client, headers=headers, agent_id=agent_id,
                                           consolidate=consolidate))


def summarise_blind(rows: Iterable[dict], **head: Any) -> dict[str, Any]:
    """Counts by group and by place only: which case leaked is never reported (the set stays blind). ``head``: the
    set's name (and part) put first in the report."""
    rows = list(rows)
    by_group = {}
    for g in GROUPS:
        grows = [r for r in rows if r["group"] == g]
        if grows:
            by_group[g] = {"cases": len(grows), "leaks": sum(r["leaked"] for r in grows),
                           "errors": sum(r["error"] for r in grows)}
    return {**head, "cases": len(rows), "leaks": sum(r["leaked"] for r in rows),
            "errors": sum(r["error"] for r in rows), "by_group": by_group,
            "by_place": {p: sum(p in r["where"] for r in rows) for p in PLACES}}


def summarise_fresh(rows: Iterable[dict]) -> dict[str, Any]:
    return summarise_blind(rows, set="fresh")


def format_blind_report(report: dict[str, Any], title: str) -> str:
    lines = [f"{title} (blind: counts only): {report['cases']} cases, {report['leaks']} leaked, "
             f"{report['errors']} with a server error; by place {report['by_place']}"]
    for g, row in report["by_group"].items():
        lines.append(f"    {g:14s} {row['leaks']:3d}/{row['cases']:3d} leaked ({row['errors']} errors)")
    return "\n".join(lines)


def format_fresh_report(report: dict[str, Any]) -> str:
    return format_blind_report(report, "Fresh adversarial set")
