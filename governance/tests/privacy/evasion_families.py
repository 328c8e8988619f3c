"""Our own evasion cases, by technique family (not the blind set: written for this purpose, read freely).

Each family lists ``(case id, text, needles)``: after masking, no needle may be found in the text — as written, or
in its plain form after the normalisation pass with separators between digits removed (what the adversarial suite
looks for). ``test_evasion_families.py`` runs them; the values are made here with valid check digits so the
recognizers' checksums hold.
"""

from __future__ import annotations

import re

from governance.privacy.normalise import normalise
from governance.privacy.recognizers.national_ids import luhn_digit
from governance.privacy.recognizers.world_ids import (
    at_svnr_check,
    cuil_check,
    medicare_check,
    my_number_check,
    nip_check,
    no_fnr_checks,
    pps_check,
    pt_nif_check,
)

EMAIL = "anna.kowalska@example.org"
CARD = "4539148803436467"
CARD_G = "4539 1488 0343 6467"


def _luhn_card(prefix: str) -> str:
    return prefix + luhn_digit(prefix)


def _math(s: str, base: int = 0x1D670, digit_base: int = 0x1D7F6) -> str:  # monospace letters and digits
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr(base + 26 + ord(c) - 97))
        elif "A" <= c <= "Z":
            out.append(chr(base + ord(c) - 65))
        elif c.isdigit():
            out.append(chr(digit_base + int(c)))
        else:
            out.append(c)
    return "".join(out)


def _circled(s: str) -> str:
    return "".join(chr(0x24D0 + ord(c) - 97) if "a" <= c <= "z" else c for c in s)


def _digits(s: str, zero: int) -> str:
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in s)


_CJK_DIGITS = "〇一二三四五六七八九"

ENCODINGS = [
    ("digits/devanagari_card", f"card: {_digits(CARD_G, 0x966)}", [CARD]),
    ("digits/thai_phone", f"โทร {_digits('+66 81 234 5678', 0xE50)}", ["66812345678"]),
    ("digits/mathematical_ssn", f"SSN {_math('536-22-4567')}", ["536224567"]),
    ("digits/bengali_phone", f"phone {_digits('+44 20 7946 0958', 0x9E6)}", ["442079460958"]),
    ("digits/cjk_numerals_phone", "电话：" + "".join(_CJK_DIGITS[int(c)] for c in "13800138000"), ["13800138000",
                                                                                                  "一三八〇〇一三八〇〇〇"]),
    ("digits/cjk_numerals_card", "卡号" + "".join(_CJK_DIGITS[int(c)] for c in CARD), [CARD]),
    ("digits/superscript_card", "card " + CARD_G.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")), [CARD]),
    ("digits/mixed_scripts_phone", f"phone +{_digits('44', 0x660)} 20 {_digits('7946', 0x966)} ０９５８",
     ["442079460958"]),
    ("letters/mathematical_email", f"mail {_math(EMAIL)}", [EMAIL]),
    ("letters/circled_email", f"write to {_circled(EMAIL)}", [EMAIL]),
    ("at/fullwidth_at_and_dot", "mail anna.kowalska＠example．org", [EMAIL]),
    ("at/ideographic_stop", "mail anna.kowalska＠example。org", [EMAIL]),
    ("at/small_commercial_at", "mail anna.kowalska﹫example.org", [EMAIL]),
    ("invisible/soft_hyphens_card", "card 4539\u00ad1488\u00ad0343\u00ad6467", [CARD]),
    ("invisible/word_joiner_email", "mail anna\u2060.kowalska@\u2060example.org", [EMAIL]),
    ("invisible/mongolian_vowel_separator", "card 4539\u180e1488\u180e0343\u180e6467", [CARD]),
    ("separators/mixed_card", "card 4539-1488 0343.6467", [CARD]),
    ("separators/mixed_phone", "phone +44 (0)20-7946.0958", ["2079460958"]),
    ("separators/slashes_card", "card 4539/1488/0343/6467", [CARD]),
    ("escapes/percent", "mail anna.kowalska%40example%2Eorg", [EMAIL]),
    ("escapes/html_hex_and_named", "mail anna.kowalska&#x40;example&period;org", [EMAIL]),
    ("escapes/unicode_u", "mail anna.kowalska\\u0040example.org", [EMAIL]),
    ("escapes/hex_x", "mail anna.kowalska\\x40example\\x2eorg", [EMAIL]),
    ("escapes/percent_u", "mail anna.kowalska%u0040example.org", [EMAIL]),
    ("escapes/octal", "mail anna.kowalska\\100example.org", [EMAIL]),
    ("escapes/quoted_printable", "mail anna.kowalska=40example.org", [EMAIL]),
    ("escapes/quoted_printable_soft_break", "mail anna.kowal=\nska@example.org", [EMAIL, "anna.kowal"]),
    ("domains/punycode", "mail anna.kowalska@xn--mnchen-3ya.de", ["anna.kowalska@xn--mnchen-3ya.de"]),
    ("domains/unicode_idn", "mail anna.kowalska@münchen.de", ["anna.kowalska@münchen.de"]),
    ("defanged/arroba_punto", "escríbeme a anna.kowalska (arroba) example (punto) org", ["anna.kowalska"]),
    ("defanged/sobaka_tochka", "пиши на anna.kowalska собака example точка org", ["anna.kowalska"]),
    ("defanged/malpa_kropka", "pisz na anna.kowalska [małpa] example [kropka] org", ["anna.kowalska"]),
    ("defanged/punkt", "schreib an anna.kowalska(at)example(punkt)org", ["anna.kowalska"]),
    ("defanged/arobase_point", "écris à anna.kowalska arobase example point org", ["anna.kowalska"]),
    ("defanged/fullwidth_brackets", "mail anna.kowalska（at）example（dot）org", ["anna.kowalska"]),
    ("defanged/at_sign_word", "mail anna.kowalska at-sign example dot org", ["anna.kowalska"]),
]


# ---- borders -------------------------------------------------------------------------------------------------


def _first(bodies, check) -> str:
    """The first body whose check digit exists (some bodies have none under a mod-11 rule), with it."""
    for body in bodies:
        digit = check(body)
        if digit is not None:
            return body + digit
    raise AssertionError("no valid body")


def _nip() -> str:
    return _first((f"52610482{i}" for i in range(10)), nip_check)


def _pt_nif() -> str:
    body = "23615738"
    return body + pt_nif_check(body)


def _no_fnr() -> str:
    return _first((f"150387{i:03d}" for i in range(200, 400)), no_fnr_checks)


def _at_svnr() -> str:
    nnn = _first((f"14{i}" for i in range(10)), lambda n: at_svnr_check(n, "150387"))[:3]
    return nnn + at_svnr_check(nnn, "150387") + "150387"


def _pps() -> str:
    return "8473619" + pps_check("8473619")


def _my_number() -> str:
    body = "43851027396"
    return body + my_number_check(body)


def _cuil() -> str:
    return _first((f"273148592{i}" for i in range(10)), cuil_check)


def _za_id() -> str:
    return _luhn_card("870315521408")


def _ca_sin() -> str:
    return _luhn_card("46454128")


def _tfn() -> str:
    for last in range(10):  # the weights leave one last digit valid
        cand = f"87654321{last}"
        if sum(int(d) * w for d, w in zip(cand, (1, 4, 3, 7, 5, 8, 6, 9, 10), strict=True)) % 11 == 0:
            return cand
    return "123456782"


def _medicare() -> str:
    body = "29504713"
    return body + medicare_check(body) + "1"


NIP, PT_NIF, NO_FNR, AT_SVNR, PPS = _nip(), _pt_nif(), _no_fnr(), _at_svnr(), _pps()
MY_NUMBER, CUIL, ZA_ID, CA_SIN, TFN, MEDICARE = _my_number(), _cuil(), _za_id(), _ca_sin(), _tfn(), _medicare()
DK_CPR = "1503874417"

BORDERS = [
    ("ids/pl_nip_cue", f"NIP firmy: {NIP[:3]}-{NIP[3:6]}-{NIP[6:8]}-{NIP[8:]}", [NIP]),
    ("ids/pl_nip_layout", f"Faktura dla {NIP[:3]}-{NIP[3:6]}-{NIP[6:8]}-{NIP[8:]} wysłana", [NIP]),
    ("ids/pt_nif_cue_after", f"{PT_NIF[:3]} {PT_NIF[3:6]} {PT_NIF[6:]} é o meu número de contribuinte", [PT_NIF]),
    ("ids/pt_nif_cue", f"NIF: {PT_NIF}", [PT_NIF]),
    ("ids/dk_cpr_layout", f"Mit nummer er {DK_CPR[:6]}-{DK_CPR[6:]}", [DK_CPR]),
    ("ids/dk_cpr_cue", f"CPR-nummer {DK_CPR}", [DK_CPR]),
    ("ids/no_fnr_cue_after", f"{NO_FNR} er fødselsnummeret mitt", [NO_FNR]),
    ("ids/no_fnr_layout", f"Skjema sendt med {NO_FNR[:6]} {NO_FNR[6:]}", [NO_FNR]),
    ("ids/at_svnr_cue", f"Meine Sozialversicherungsnummer: {AT_SVNR[:4]} {AT_SVNR[4:]}", [AT_SVNR]),
    ("ids/at_svnr_layout", f"e-card {AT_SVNR[:4]} {AT_SVNR[4:]}", [AT_SVNR]),
    ("ids/ie_pps_bare", f"Form filled in with {PPS} yesterday", [PPS]),
    ("ids/ie_pps_cue", f"my PPSN is {PPS.lower()}", [PPS.lower()]),
    ("ids/jp_my_number_cue", f"マイナンバーは{MY_NUMBER[:4]} {MY_NUMBER[4:8]} {MY_NUMBER[8:]}です", [MY_NUMBER]),
    ("ids/jp_my_number_cue_en", f"My Number card: {MY_NUMBER}", [MY_NUMBER]),
    ("ids/ar_cuil_layout", f"Mi número es {CUIL[:2]}-{CUIL[2:10]}-{CUIL[10]}", [CUIL]),
    ("ids/ar_dni_dots", "DNI 31.485.926, vence en 2030", ["31485926"]),
    ("ids/za_id_cue", f"ID number: {ZA_ID}", [ZA_ID]),
    ("ids/za_id_layout", f"Applicant {ZA_ID[:6]} {ZA_ID[6:10]} {ZA_ID[10:]} approved", [ZA_ID]),
    ("ids/ca_sin_cue", f"SIN {CA_SIN[:3]}-{CA_SIN[3:6]}-{CA_SIN[6:]}", [CA_SIN]),
    ("ids/ca_sin_cue_fr", f"Numéro d'assurance sociale : {CA_SIN[:3]} {CA_SIN[3:6]} {CA_SIN[6:]}", [CA_SIN]),
    ("ids/au_tfn_cue_after", f"{TFN[:3]} {TFN[3:6]} {TFN[6:]} is my TFN", [TFN]),
    ("ids/au_medicare_layout", f"Card {MEDICARE[:4]} {MEDICARE[4:9]} {MEDICARE[9]}", [MEDICARE[:9]]),
    ("ids/au_medicare_cue", f"Medicare no. {MEDICARE}", [MEDICARE[:9]]),
    ("ids/it_cf_lower", "il mio codice fiscale è rssmra85t10a562s", ["rssmra85t10a562s"]),
    ("ids/cn_resident_cue_after", "11010519491231002X是我的身份证号", ["11010519491231002X"]),
    ("phones/uk_national", "Call me on 07700 900123 after six", ["07700900123"]),
    ("phones/fr_mobile", "Mon portable : 06 12 34 56 78", ["0612345678"]),
    ("phones/de_mobile", "Handy: 0151 23456789", ["015123456789"]),
    ("phones/in_intl", "WhatsApp +91 98765 43210", ["919876543210"]),
    ("phones/br_mobile", "Celular: (11) 91234-5678", ["11912345678"]),
    ("phones/au_mobile", "mobile 0412 345 678", ["0412345678"]),
    ("phones/cn_mobile", "手机 138 0013 8000", ["13800138000"]),
    ("phones/ru_mobile", "тел. 8 (912) 345-67-89", ["89123456789"]),
    ("phones/mx_mobile", "Cel. 55 1234 5678", ["5512345678"]),
    ("phones/es_mobile", "móvil 612 34 56 78", ["612345678"]),
    ("phones/it_mobile", "cellulare 347 123 4567", ["3471234567"]),
    ("phones/nl_mobile", "mobiel 06-12345678", ["0612345678"]),
    ("phones/kr_mobile", "휴대폰 010-1234-5678", ["01012345678"]),
    ("phones/tr_mobile", "cep telefonu 0532 123 45 67", ["05321234567"]),
    ("phones/pl_mobile", "komórka 512 345 678", ["512345678"]),
]


# ---- secrets -------------------------------------------------------------------------------------------------

_PW = ["Qv7#pLm2xZ", "Tr9!kWq4Ld", "Hs3$vNb8Yc", "Ze5%mKp1Wf", "Jx2&rDt6Gs", "Lm8*qVz3Nh", "Pw4@cXy7Bk",
       "Rb6^tHn9Md", "Gk1~sFw5Qe", "Nd7+yJc2Vr", "Fc3=gLx8Tp", "Wy9?hBq4Zs", "Kt2!nRm6Xd", "Uv5#bGk1Ph",
       "Mz8$dTw3Lc", "Cs4%fYn7Jq", "Bh6&kPx2Rw", "Yq1*mVd9Ks"]
CREDENTIAL_WORDS = [
    ("tr", "şifre: {}"), ("id", "kata sandi: {}"), ("fa", "رمز عبور: {}"), ("el", "κωδικός: {}"),
    ("hu", "jelszó: {}"), ("cs", "heslo: {}"), ("fi", "salasana: {}"), ("sv", "lösenord: {}"),
    ("no", "passord: {}"), ("da", "adgangskode: {}"), ("ro", "parola: {}"), ("vi", "mật khẩu: {}"),
    ("hi", "पासवर्ड: {}"), ("uk", "пароль від бази: {}"), ("he", "סיסמה: {}"), ("th", "รหัสผ่าน: {}"),
    ("bn", "পাসওয়ার্ড: {}"), ("ur", "پاس ورڈ: {}"),
]


def _tok(n: int, alphabet: str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", seed: int = 7
         ) -> str:
    x, out = seed, []
    for _ in range(n):
        x = (x * 1103515245 + 12345) % (1 << 31)
        out.append(alphabet[(x >> 16) % len(alphabet)])  # the high bits: the low ones of this generator cycle
    return "".join(out)


HEX = "0123456789abcdef"
TOKENS = [
    ("sendgrid", f"SG.{_tok(22, seed=1)}.{_tok(43, seed=2)}"),
    ("twilio", f"SK{_tok(32, HEX, seed=3)}"),
    ("mailgun", f"key-{_tok(32, HEX, seed=4)}"),
    ("telegram_bot", f"5832047711:AA{_tok(33, seed=5)}"),
    ("databricks", f"dapi{_tok(32, HEX, seed=6)}"),
    ("vault", f"hvs.{_tok(24, seed=7)}"),
    ("linear", f"lin_api_{_tok(40, seed=8)}"),
    ("notion", f"secret_{_tok(43, seed=9)}"),
    ("square", f"sq0atp-{_tok(22, seed=10)}"),
    ("postman", f"PMAK-{_tok(24, HEX, seed=11)}-{_tok(34, HEX, seed=12)}"),
    ("grafana", f"glsa_{_tok(32, seed=13)}_{_tok(8, HEX, seed=14)}"),
    ("newrelic", f"NRAK-{_tok(27, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', seed=15)}"),
    ("supabase", f"sbp_{_tok(40, HEX, seed=16)}"),
    ("pulumi", f"pul-{_tok(40, HEX, seed=17)}"),
    ("age", f"AGE-SECRET-KEY-1{_tok(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', seed=18)}"),
    ("tailscale", f"tskey-auth-{_tok(12, seed=19)}-{_tok(30, seed=20)}"),
    ("doppler", f"dp.st.dev.{_tok(40, seed=21)}"),
    ("airtable", f"pat{_tok(14, seed=22)}.{_tok(64, HEX, seed=23)}"),
    ("discord_bot", __import__("base64").urlsafe_b64encode(b"1049203847561928374").decode().rstrip("=")
     + f".{_tok(6, seed=25)}.{_tok(27, seed=26)}"),
    ("azure_storage", f"AccountKey={_tok(86, seed=27)}=="),
]

SECRETS = [
    *((f"words/{lang}", template.format(_PW[i]), [_PW[i]]) for i, (lang, template) in enumerate(CREDENTIAL_WORDS)),
    *((f"tokens/{name}", f"for the mailer use {value} in prod", [value]) for name, value in TOKENS),
    ("env/export_quoted", f"export DB_PASSWORD='{_PW[0]}'", [_PW[0]]),
    ("env/dotenv_block", f"# .env\nAPP_ENV=prod\nSMTP_PASS={_PW[1]}\nREDIS_AUTH={_PW[2]}\n", [_PW[1], _PW[2]]),
    ("env/secret_key_setting", f"DJANGO_SECRET_KEY={_tok(50, seed=30)}", [_tok(50, seed=30)]),
    ("yaml/compose_list", f"environment:\n  - MYSQL_ROOT_PASSWORD={_PW[3]}\n  - MYSQL_USER=app", [_PW[3]]),
    ("yaml/compose_map", f"environment:\n  POSTGRES_PASSWORD: {_PW[4]}\n  POSTGRES_DB: app", [_PW[4]]),
    ("yaml/k8s_name_value", f"env:\n- name: DB_PASSWORD\n  value: \"{_PW[5]}\"\n- name: DB_HOST\n  value: db",
     [_PW[5]]),
    ("yaml/k8s_string_data", f"kind: Secret\nstringData:\n  password: {_PW[6]}\n  username: app", [_PW[6]]),
    ("yaml/helm_values", f"auth:\n  adminPassword: {_PW[7]}\n  adminUser: root", [_PW[7]]),
    ("yaml/k8s_data_base64", "kind: Secret\ndata:\n  password: " + __import__("base64").b64encode(
        _PW[8].encode()).decode(), [_PW[8]]),
    ("uri/amqps", f"broker: amqps://svc:{_PW[9]}@mq.internal:5671/vhost", [_PW[9]]),
    ("uri/rediss_no_user", f"REDIS_URL=rediss://:{_PW[10]}@cache.internal:6380/0", [_PW[10]]),
    ("uri/mongodb_srv", f"mongodb+srv://app:{_PW[11]}@cluster0.ab1cd.mongodb.net/db", [_PW[11]]),
    ("uri/sqlserver_semicolons", f"sqlserver://db.internal;user=sa;password={_PW[12]};database=app", [_PW[12]]),
    ("uri/jdbc_query", f"jdbc:postgresql://db/app?user=app&password={_PW[13]}&ssl=true", [_PW[13]]),
    ("uri/ado_net", f"Server=tcp:db.internal,1433;User ID=sa;Password={_PW[14]};Encrypt=True", [_PW[14]]),
    ("uri/ldap_bind", f"ldaps://cn=admin:{_PW[15]}@ldap.internal", [_PW[15]]),
    ("uri/smb", f"mount smb://backup:{_PW[16]}@nas.local/share", [_PW[16]]),
    ("uri/snowflake", f"snowflake://loader:{_PW[17]}@xy12345.eu-central-1/db", [_PW[17]]),
]


# ---- consolidation: the extractive rewriter's forms -------------------------------------------------------------

CONSOLIDATION = [
    ("third_person/name_is", "The user's name is borna jerković.", ["borna jerković"]),
    ("third_person/colleague", "the user's colleague marta kowalczyk will join", ["marta kowalczyk"]),
    ("third_person/friend_other_script", "the user's friend 李伟 called", ["李伟"]),
    ("third_person/password_is", f"The user's password is {_PW[0]}.", [_PW[0]]),
    ("quoted/said_phone", 'the user said: "my phone is +44 20 7946 0958"', ["442079460958"]),
    ("quoted/said_password", f'the user said: "pw {_PW[1]}"', [_PW[1]]),
    ("one_line/iban_across_break", "IBAN DE89 3704\n0044 0532 0130 00", ["DE89370400440532013000"]),
    ("one_line/card_across_break", "card 4539 1488\n0343 6467", [CARD]),
    ("lower/email_title", "anna.kowalska@example.org and the invoice", [EMAIL]),
    ("clipped/after_key", f"the assistant replied: \"token {TOKENS[0][1]} ...\"", [TOKENS[0][1]]),
]

# Written after the code above was frozen and scored once (7 of 28 leaked: a Persian phone word, an address in base64,
# one written backwards, one spaced out around "@" and ".", Indonesian "HP", "kunci API kami", "mot de passe du wifi");
# the fixes followed, so these no longer measure anything unseen.
_B64_EMAIL = __import__("base64").b64encode(EMAIL.encode()).decode()
LATE = {
    "encodings": [
        ("late/html_decimal", "mail anna.kowalska&#64;example&#46;org", [EMAIL]),
        ("late/fullwidth_phone", "tel: +４４ ２０ ７９４６ ０９５８", ["442079460958"]),
        ("late/persian_digits_phone", "شماره تلفن: ۰۹۱۲ ۳۴۵ ۶۷۸۹", ["09123456789"]),
        ("late/katakana_at_mark", "mail anna.kowalska [アットマーク] example.org", ["anna.kowalska"]),
        ("late/base64_email", f"my address in base64: {_B64_EMAIL}", [_B64_EMAIL]),
        ("late/reversed_email", "write to gro.elpmaxe@akslawok.anna backwards", ["gro.elpmaxe@akslawok.anna"]),
        ("late/spaced_email", "mail anna . kowalska @ example . org", ["anna . kowalska @ example . org"]),
        ("late/fullwidth_card", "card ４５３９ １４８８ ０３４３ ６４６７", [CARD]),
    ],
    "borders": [
        ("late/tr_kimlik", "TC kimlik no: 10000000146", ["10000000146"]),
        ("late/il_id", "Israeli ID ת.ז. 000000018", ["000000018"]),
        ("late/vn_phone", "SĐT: 0912 345 678", ["0912345678"]),
        ("late/ar_phone", "هاتف: 050 123 4567", ["0501234567"]),
        ("late/el_phone", "κινητό 694 123 4567", ["6941234567"]),
        ("late/id_phone", "HP 0812-3456-7890", ["081234567890"]),
        ("late/jp_landline", "電話は03-1234-5678です", ["0312345678"]),
        ("late/pl_pesel_cue", "numer PESEL 44051401359", ["44051401359"]),
    ],
    "secrets": [
        ("late/pl_wifi", "hasło do wifi: Qm4!tRz8Lp", ["Qm4!tRz8Lp"]),
        ("late/ja_particles", "DBのパスワードはXk7$pLw2Nqです", ["Xk7$pLw2Nq"]),
        ("late/npmrc", "//registry.npmjs.org/:_authToken=npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
         ["npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"]),
        ("late/docker_login", "docker login -u ci -p Vb6#nMq2Wx registry.example.org", ["Vb6#nMq2Wx"]),
        ("late/terraform", 'resource "aws_db_instance" "db" {\n  password = "Tq9@zKc4Rm"\n}', ["Tq9@zKc4Rm"]),
        ("late/id_api_key_possessive", "kunci API kami: 7f3a9c2e1b4d6f8a0c2e4b6d8f0a2c4e",
         ["7f3a9c2e1b4d6f8a0c2e4b6d8f0a2c4e"]),
        ("late/fr_connector", "mot de passe du wifi : Lp3%qWz7Ks", ["Lp3%qWz7Ks"]),
        ("late/cloudflare_word", "cloudflare api token: Zx8vB2nM4qW6eR8tY0uI2oP4aS6dF8gH0jK2lQ4w",
         ["Zx8vB2nM4qW6eR8tY0uI2oP4aS6dF8gH0jK2lQ4w"]),
    ],
    "consolidation": [
        ("late/wife_han", "the user's wife 林静 will come", ["林静"]),
        ("late/daughter_lower", "the user's daughter emma starts school", ["emma"]),
        ("late/quoted_defanged", 'the user said: "mail me at anna.kowalska (at) example (dot) org"', ["anna.kowalska"]),
        ("late/lower_iban", "User's IBAN is de89 3704 0044 0532 0130 00.", ["de89370400440532013000"]),
    ],
}

# Round 18: the families behind the blind set's held half once it was read (11 of 59 leaked); written here with other
# values, languages and carriers than those cases, to test the mechanism and not the example.
_VCARD_B64 = __import__("base64").b64encode(
    b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Maria Lopez\r\nTEL:+34 612 345 678\r\nEND:VCARD\r\n").decode()
_IBAN_B64 = __import__("base64").b64encode(b"IBAN DE89 3704 0044 0532 0130 00").decode()
_PHONE_HEX = b"call +44 20 7946 0958".hex()
_STRIPE = "sk_live_" + _tok(24, seed=41)
_GHP = "ghp_" + _tok(36, seed=42)
ROUND18 = {
    "encodings": [
        ("r18t/confusable_cyrillic_address", "пишите на mаrtа.kоwаl@ехаmple.оrg", ["mаrtа.kоwаl@ехаmple.оrg"]),
        ("r18t/rot13_address", "rot13 for bots: wnar.qbr@rknzcyr.pbz", ["wnar.qbr@rknzcyr.pbz"]),
        ("r18/spoken_en_double", "reach me on oh seven seven double oh nine double oh one two three", ["07700900123"]),
        ("r18/spoken_de_commas", "meine Handynummer: null eins fünf eins, zwei drei vier fünf sechs sieben acht neun",
         ["015123456789"]),
        ("r18/spoken_es", "mi móvil es seis uno dos tres cuatro cinco seis siete ocho", ["612345678"]),
        ("r18/wrapped_phone", "Call me at +44 20 7946\n0958 tonight", ["442079460958"]),
        ("r18/wrapped_phone_indented", "phone:\n  +49 151\n  2345 6789", ["4915123456789"]),
        ("r18/base64_vcard", f"contact card: {_VCARD_B64}", [_VCARD_B64]),
        ("r18/base64_iban", f"payload={_IBAN_B64}", [_IBAN_B64]),
        ("r18/hex_phone", f"blob 0x{_PHONE_HEX}", [_PHONE_HEX]),
    ],
    "borders": [
        ("r18t/passport_nl_cue", "mijn paspoort nummer is NX7R41K29", ["NX7R41K29"]),
        ("r18t/health_nhi", "NHI ZAC5361 needs a follow-up", ["ZAC5361"]),
        ("r18t/health_spaced_digits", "cartão SUS 700 5018 2245 1186 for the appointment", ["700501822451186"]),
        ("r18t/json_person_fields", '{"patient": {"given": "Oduya", "family": "Brantsveld"}}', ["Oduya", "Brantsveld"]),
        ("r18t/json_author_name", '{"doc": 1, "author": {"name": "Ketil Abernath"}}', ["Ketil Abernath"]),
        ("r18t/hl7_pid_name", "PID|1||4471^^^H^MR||QUENBY^ARLO^J||19720304|M", ["QUENBY", "ARLO"]),
        ("r18t/name_te_intro", "నా పేరు రవి కిరణ్", ["రవి"]),
        ("r18/passport_ru_words_between", "Паспорт РФ 45 12 345678 действителен", ["4512345678"]),
        ("r18/passport_es_groups", "pasaporte número AB 12 34567", ["AB1234567"]),
        ("r18/health_member_id", "my member ID for the dental plan is XJH482913650", ["XJH482913650"]),
        ("r18/health_medicaid", "Mom's Medicaid number 70123456A, renew before June", ["70123456A"]),
        ("r18/dob_cs_month", "narozen 14. března 1975 v Brně", ["14. března 1975"]),
        ("r18/dob_ko_particle", "제 생일은 1988년 11월 3일이에요", ["1988년 11월 3일"]),
        ("r18/dob_ja_particle", "生年月日は1990年4月12日です", ["1990年4月12日"]),
        ("r18/dob_ro_la", "născut la 03.07.1969 în Cluj", ["03.07.1969"]),
        ("r18/dob_hu_numeric", "szül. 1982. 03. 27.", ["1982. 03. 27"]),
        ("r18/name_ka_suffix", "შეხვედრაზე იყო გიორგი ბერიძე", ["გიორგი ბერიძე"]),
        ("r18/name_ka_cue", "ჩემი მეგობარი ნინო ხვალ ჩამოვა", ["ნინო"]),
        ("r18/name_vi_intro_four_words", "Tên tôi là Nguyễn Văn Minh Khoa, cảm ơn", ["Nguyễn Văn Minh Khoa"]),
        ("r18/name_id_intro", "Halo, nama saya Dewi Kartika Sari", ["Dewi Kartika Sari"]),
        ("r18/name_display_parentheses", "Owner: Zbigniew Oyelaran-Kuti (z.kuti@example.net)", ["Zbigniew"]),
        ("r18/name_display_angle", 'cc "Ilse" <ilse.v@example.org> on the thread', ["Ilse"]),
        ("r18/phone_pt_call_verb", "liga para (21) 98765-4321 amanhã", ["21987654321"]),
        ("r18/phone_ko_number_word", "제 번호는 010-9876-5432입니다", ["01098765432"]),
        ("r18/phone_ru_number_word", "мой номер 8 912 345 67 89", ["89123456789"]),
    ],
    "secrets": [
        ("r18/el_copula", f"ο κωδικός είναι {_PW[1]}", [_PW[1]]),
        ("r18/ro_copula", f"parola este {_PW[2]}", [_PW[2]]),
        ("r18/hostapd", "interface=wlan0\nwpa_passphrase=correct-horse-battery-9\n", ["correct-horse-battery-9"]),
        ("r18/wifi_qr_fields_reordered", f"WIFI:S:Office;T:WPA;P:{_PW[3]};H:false;;", [_PW[3]]),
        ("r18/wpa_supplicant", 'network={\n  ssid="lab"\n  psk="zebra-violet-4471-quartz"\n}',
         ["zebra-violet-4471-quartz"]),
        ("r18t/sql_identified_by", "CREATE USER etl IDENTIFIED BY 'Tq7#vWn2Lp'", ["Tq7#vWn2Lp"]),
        ("r18t/ldap_w", "ldapwhoami -H ldap://x -D cn=admin -w Zp4!kRm8Qs", ["Zp4!kRm8Qs"]),
        ("r18t/snmp_community", "snmpget -v2c -c Kq9vLm3xTr7 switch01 sysName.0", ["Kq9vLm3xTr7"]),
        ("r18t/login_with", "sign in to the router with Hx8$wQp2Vn every time", ["Hx8$wQp2Vn"]),
        ("r18/concat_js_plus", f'const k = "{_STRIPE[:16]}" + "{_STRIPE[16:]}";', [_STRIPE[8:16], _STRIPE[16:]]),
        ("r18/concat_sql_pipes", f"SELECT '{_GHP[:20]}' || '{_GHP[20:]}' AS t", [_GHP[4:20], _GHP[20:]]),
        ("r18/concat_python_lines", f'TOKEN = (\n    "{_GHP[:22]}"\n    "{_GHP[22:]}"\n)', [_GHP[4:22], _GHP[22:]]),
    ],
}

FAMILIES: dict[str, list[tuple[str, str, list[str]]]] = {
    "encodings": ENCODINGS,
    "borders": BORDERS,
    "secrets": SECRETS,
    "consolidation": CONSOLIDATION,
}
for _group, _cases in (*LATE.items(), *ROUND18.items()):
    FAMILIES[_group] = FAMILIES[_group] + _cases

_SEP_RE = re.compile(r"(?<=\d)[\s.\-/()]+(?=\d)")


def _plain(text: str) -> str:
    return _SEP_RE.sub("", normalise(text).text).casefold()


def leaked(masked: str, needles: list[str]) -> list[str]:
    """The needles still readable in ``masked``: as written, or in plain form (normalised, digits joined)."""
    plain = _plain(masked)
    return [n for n in needles if n in masked or _plain(n) in plain]
