"""The THIRD blind adversarial masking set ("r18"): written apart from the masking code, its tests and the two earlier
sets' techniques, for the people who tune the masking NOT to read.

Do not read this module (nor its case ids) if you work on the masking: it is only worth something while no rule has
been written against it. ``manage.py bench_pii --adversarial r18`` runs it (``r18_tune`` / ``r18_held``: its two
halves by ``sha256("recmem-r18/" + case_id) % 2``, computed from the id alone and filtered before anything runs) and
reports leaks by group and by place only — never which case leaked.

Machinery is the fresh set's (:mod:`bench.pii_adversarial_fresh`): its strict detection (:func:`deep_fold`,
:func:`deep_needle`), its senders as a fallback, the first suite's :class:`Case`, groups, log capture, admin pages and
database dump. Canaries come from :class:`bench.canaries.R18Canaries`: every value new on each run, check digits
valid where the format has them. The cases use other carriers than the earlier sets: look-alike letters and digits of
other scripts mixed inside one value, numerals and spoken digits of other languages, national layouts of many
countries, identifiers of some forty other countries and health systems, names with particles, signatures and commit
trailers, dates of birth in other calendars, clinical message formats, provider tokens of other public formats,
secrets inside configuration files, shell history, SQL, stack traces and diffs, values restated across several
sessions, and other fields, filters, headers and error paths of the API. ``Case.extra["derived"]`` lists the canaries
that are not in the payload as written (the decoded form of an encoded value): found anywhere, they mean a decoder
wrote the value in clear.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import json
import random
import re
import string
import uuid
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote, urlencode

from bench.canaries import R18Canaries, hijri, jalali
from bench.pii_adversarial import Case, _at, _body, _Text
from bench.pii_adversarial_fresh import (
    _send_fresh,
    format_blind_report,
    run_blind_cases,
    summarise_blind,
)

R18_SALT = "recmem-r18/"
R18_PARTS = ("r18", "r18_tune", "r18_held")
CONSOLIDATING = ("consolidate_sessions",)


def r18_part(case_id: str) -> str:
    """``r18_tune`` (may be read while writing rules) or ``r18_held`` (run once at the end, unread), from the id
    alone."""
    h = int(hashlib.sha256((R18_SALT + case_id).encode()).hexdigest(), 16)
    return "r18_tune" if h % 2 == 0 else "r18_held"


def select_r18(cases: Sequence[Case], part: str) -> list[Case]:
    if part not in R18_PARTS:
        raise ValueError(f"unknown part {part}")
    return [c for c in cases if part == "r18" or r18_part(c.id) == part]


def _case(technique: str, group: str, channel: str, payload: Any, canaries: Iterable[str],
          derived: Iterable[str] = ()) -> Case:
    derived = tuple(derived)
    return Case(f"r18/{group}/{technique}", group, channel, payload, tuple(dict.fromkeys([*canaries, *derived])),
                extra={"derived": derived})


def _group(value: str, n: int = 4) -> str:
    return " ".join(value[i : i + n] for i in range(0, len(value), n))


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


# --------------------------------------------------------------------------------------------------
# Writing forms
# --------------------------------------------------------------------------------------------------

_CYRILLIC_LOOKALIKE = dict(zip("aceopxy", "асеорху", strict=True))
_GREEK_LOOKALIKE = dict(zip("oaikvn", "οαικνη", strict=True))
# digit-zero code points of scripts the earlier sets do not use (Bengali, Thai, Gujarati, Khmer, Myanmar, Lao,
# Tibetan, Mongolian, Tamil, Telugu, Kannada, Malayalam, Oriya, Gurmukhi, NKo, Limbu, Balinese)
_ZEROS = (0x09E6, 0x0E50, 0x0AE6, 0x17E0, 0x1040, 0x0ED0, 0x0F20, 0x1810, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66, 0x0B66,
          0x0A66, 0x07C0, 0x1946, 0x1B50)
# math alphanumeric lowercase a: bold, bold italic, sans-serif, sans bold, sans italic, fraktur bold, double-struck
_MATH_LOWER_A = (0x1D41A, 0x1D482, 0x1D5BA, 0x1D5EE, 0x1D622, 0x1D586, 0x1D552)
_DOUBLE_STRUCK_DIGIT = {str(d): chr(0x1D7D8 + d) for d in range(10)}
_DINGBAT = {"0": "\u24ff", **{str(d): chr(0x278A + d - 1) for d in range(1, 10)}}
_PAREN = {"0": "(0)", **{str(d): chr(0x2474 + d - 1) for d in range(1, 10)}}
_FULL_STOP = {"0": "\U0001F100", **{str(d): chr(0x2488 + d - 1) for d in range(1, 10)}}
_SUBSCRIPT = {str(d): chr(0x2080 + d) for d in range(10)}
_KANJI = dict(zip("0123456789", "〇一二三四五六七八九", strict=True))
_DE_WORDS = ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"]
_HI_WORDS = ["शून्य", "एक", "दो", "तीन", "चार", "पाँच", "छह", "सात", "आठ", "नौ"]
_ES_WORDS = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]


def _map(value: str, table: dict[str, str]) -> str:
    return "".join(table.get(ch, ch) for ch in value)


def _script_digits(value: str, rng: random.Random) -> str:
    """Every digit from a different script, drawn per digit."""
    return "".join(chr(rng.choice(_ZEROS) + int(ch)) if ch.isdigit() else ch for ch in value)


def _math_letters(value: str, rng: random.Random, styles: Sequence[int] = _MATH_LOWER_A) -> str:
    out = []
    for ch in value:
        if "a" <= ch <= "z":
            out.append(chr(rng.choice(styles) + ord(ch) - 97))
        else:
            out.append(_DOUBLE_STRUCK_DIGIT.get(ch, ch))
    return "".join(out)


def _words(value: str, words: list[str]) -> str:
    return " ".join(words[int(ch)] for ch in value if ch.isdigit())


def _interleave(value: str, mark: str, step: int = 1) -> str:
    return mark.join(value[i : i + step] for i in range(0, len(value), step))


def _after_each_digit(value: str, mark: str) -> str:
    return "".join(ch + mark if ch.isdigit() else ch for ch in value)


# --------------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------------


def _mailbox_with(c: R18Canaries, table: dict[str, str]) -> str:
    """An address with a look-alike for at least two of its letters, on both sides of the @."""
    while True:
        v = c.mailbox()
        local, domain = v.split("@")
        if sum(ch in table for ch in v) >= 2 and any(ch in table for ch in local) and any(ch in table for ch in domain):
            return v


def _encoding_cases(c: R18Canaries) -> list[Case]:
    r = c.rng
    out: list[Case] = []

    def add(technique: str, template: str, value: str, planted: str, derived: bool = False) -> None:
        text = template.format(p=planted)
        if derived:
            out.append(_case(technique, "encodings", "exchange", text, (planted,), derived=(value,)))
        else:
            out.append(_case(technique, "encodings", "exchange", text, (value, planted)))

    v = _mailbox_with(c, _CYRILLIC_LOOKALIKE)
    add("confusable_cyrillic_letters/email", "Напишите моему бухгалтеру: {p} — она ответит до пятницы.", v,
        _map(v, _CYRILLIC_LOOKALIKE), derived=True)
    v = _mailbox_with(c, _GREEK_LOOKALIKE)
    add("confusable_greek_letters/email", "Send the signed offer to {p} (her private inbox).", v,
        _map(v, _GREEK_LOOKALIKE), derived=True)
    v = c.mailbox()
    add("math_double_struck/email", "profile card → {p}", v, _math_letters(v, r, (0x1D552,)))
    v = c.mailbox()
    add("math_mixed_styles/email", "Forward the invoices to {p} from now on.", v, _math_letters(v, r))
    v = c.mobile("GB", national=True)
    add("mixed_script_digits/phone", "Ring my flat on {p} if the parcel arrives early.", v, _script_digits(v, r))
    v = _group(c.iban_of("IT"))
    add("mixed_script_digits/iban", "Bonifico su {p}, causale affitto marzo.", v, _script_digits(v, r))
    v = c.card_mastercard5()
    alternating = "".join(chr(ord(ch) + 0xFEE0) if i % 2 else ch for i, ch in enumerate(_group(v)))
    add("fullwidth_alternating/card", "pay the hotel with {p} exp 11/28", v, alternating)
    v = c.mobile("JP", national=True)
    add("dingbat_negative_circled/phone", "緊急連絡先：{p}（夜間も可）", v, _map(v, _DINGBAT), derived=True)
    v = c.card_diners14()
    shaped = f"{v[:4]} {v[4:10]} {v[10:]}"
    add("parenthesized_digits/card", "Diners card {p}, the corporate one", v, _map(shaped, _PAREN))
    v = c.us_ssn()
    add("digit_full_stop/us_ssn", "applicant record: {p}", v, _map(v, _FULL_STOP))
    v = c.mobile("JP", national=True)
    add("kanji_numerals/phone", "携帯番号は{p}です。折り返しお願いします。", v, _map(v, _KANJI), derived=True)
    v = c.mobile("DE", national=True)
    add("spoken_german/phone", "[Sprachnachricht] meine Handynummer ist {p} ruf mich nach sechs an", v,
        _words(v, _DE_WORDS), derived=True)
    v = c.mobile("IN", national=True)
    add("spoken_hindi/phone", "[वॉइस नोट] मेरा मोबाइल नंबर {p} है, शाम को कॉल करना", v, _words(v, _HI_WORDS),
        derived=True)
    v = c.mobile("MX", national=True)
    add("spoken_spanish/phone", "[nota de voz] mi celular es el {p} márcame mañana", v, _words(v, _ES_WORDS),
        derived=True)
    v = c.mailbox()
    add("rot13/email", "obfuscated for the scraper (rot13): {p}", v, codecs.encode(v, "rot13"), derived=True)
    v = c.mailbox()
    add("hex_bytes/email", "recipient=0x{p} (hex, from the queue dump)", v, v.encode().hex(), derived=True)
    v = c.mobile("KE")
    add("base32/phone", "contact blob b32:{p}", v, base64.b32encode(v.encode()).decode(), derived=True)
    name, email = f"{c.given()} {c.family()}", c.mailbox()
    word = f"=?UTF-8?B?{_b64(name)}?="
    out.append(_case("mime_encoded_word/name", "encodings", "exchange",
                     f"From: {word} <{email}>\nSubject: Re: contract renewal\n\nsee below", (word, email),
                     derived=(name,)))
    v = _group(c.iban_of("FR"))
    cut = len(v) // 2
    add("quoted_printable_soft_break/iban", "Content-Transfer-Encoding: quoted-printable\n\nRIB : {p}", v,
        v[:cut] + "=\n" + v[cut:])
    given = r.choice(["jürgen", "zoë", "inês", "łukasz", "søren", "ayşe", "đorđe", "renée"])
    v = f"{given}.{c.family().lower()}@{c.chars(6, string.ascii_lowercase)}.de"
    add("unicode_local_part/email", "Meine neue Adresse (SMTPUTF8): {p}", v, v)
    v = f'"{c.given().lower()} {c.family().lower()}+billing"@{c.chars(7, string.ascii_lowercase)}.com'
    add("quoted_local_part/email", "Billing contact: {p}", v, v)
    v = c.mailbox()
    local, domain = v.split("@")
    add("obfuscated_german/email", "Schreib mir an {p}, bitte nicht an die Firmenadresse.", v,
        f"{local} (ät) {domain.replace('.', ' (punkt) ')}", derived=True)
    v = c.mailbox()
    local, domain = v.split("@")
    add("obfuscated_russian/email", "мой личный ящик: {p}", v, f"{local} собака {domain.replace('.', ' точка ')}",
        derived=True)
    v = c.mailbox()
    local, domain = v.split("@")
    add("obfuscated_polish/email", "Proszę pisać na {p}", v, f"{local} małpa {domain.replace('.', ' kropka ')}",
        derived=True)
    v = c.iban_of("NL")
    add("zero_width_joiner/iban", "Rekeningnummer: {p}", v, _interleave(v, "\u200d"))
    v = c.card_visa16()
    add("combining_grapheme_joiner/card", "card: {p}", v, _interleave(v, "\u034f", 2))
    v = c.mobile("IT", national=True)
    add("variation_selectors/phone", "cellulare {p}", v, _after_each_digit(v, "\ufe0e"))
    v = c.mobile("EG", national=True)
    add("arabic_letter_mark/phone", "رقم الموبايل الخاص بي {p} اتصل بعد العصر", v, v.replace(" ", "\u061c"))
    v = c.card_maestro19()
    add("figure_space/card", "Maestro {p}", v, f"{v[:4]}\u2007{v[4:8]}\u2007{v[8:12]}\u2007{v[12:16]}\u2007{v[16:]}")
    v = c.uk_nino()
    add("subscript_digits/uk_nino", "NI: {p}", v, _map(v, _SUBSCRIPT))
    v = c.iban_of("GB")
    add("lowercase_compact/iban", "sort it out with the bank, acct {p}", v, v.lower())
    v = c.mobile("KR", national=True)
    add("katakana_middle_dot/phone", "연락처 {p} (문자 주세요)", v, v.replace("-", "\u30fb"))
    return out


# --------------------------------------------------------------------------------------------------
# Borders: other countries' identifiers, health numbers, names, dates of birth, clinical formats
# --------------------------------------------------------------------------------------------------

_HEBREW = ["דו", "רי", "מל", "נה", "שי", "תו", "לב", "גל", "ער", "פז"]
_ARMENIAN = ["Ար", "մեն", "Նա", "րի", "Գո", "հար", "Սե", "դա", "Լի", "լիթ"]
_TAMIL = ["கா", "லோ", "மி", "ரே", "தோ", "வி", "சா", "நெ", "போ", "ரு"]
_TH_MONTHS = ["มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน", "กรกฎาคม", "สิงหาคม", "กันยายน",
              "ตุลาคม", "พฤศจิกายน", "ธันวาคม"]
_TR_MONTHS = ["Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım",
              "Aralık"]
_NL_MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
              "november", "december"]
_ID_MONTHS = ["Januari", "Februari", "Maret", "April", "Mei", "Juni", "Juli", "Agustus", "September", "Oktober",
              "November", "Desember"]
_ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]
_PERSIAN_DIGITS = {str(d): chr(0x06F0 + d) for d in range(10)}


def _syllables(rng: random.Random, syll: list[str], n: int) -> str:
    return "".join(rng.choice(syll) for _ in range(n))


def _border_cases(c: R18Canaries) -> list[Case]:
    r = c.rng
    out: list[Case] = []

    def add(technique: str, text: str, *canaries: str) -> None:
        out.append(_case(technique, "borders", "exchange", text, canaries))

    # national identifiers (with a native cue, a foreign cue, or none)
    ids: list[tuple[str, str]] = [
        ("pt_nif", "O meu NIF é {v}, coloque-o na fatura por favor."),
        ("pl_nip", "Faktura na jednoosobową działalność, NIP {v}"),
        ("pl_regon", "REGON mojej działalności: {v}"),
        ("pl_id_card", "Seria i numer dowodu osobistego: {v}"),
        ("ro_cnp", "Codul meu numeric personal este {v}."),
        ("bg_egn", "ЕГН {v}, моля попълнете декларацията."),
        ("hr_oib", "Moj OIB je {v}"),
        ("cz_rodne_cislo", "Rodné číslo pacientky: {v}"),
        ("ee_isikukood", "Palun registreerige mind, isikukood {v}."),
        ("lv_personas_kods", "Mans personas kods ir {v}."),
        ("is_kennitala", "Kennitalan mín er {v}."),
        ("gb_utr", "HMRC keeps writing to me about UTR {v}, can you draft a reply?"),
        ("ru_snils", "СНИЛС {v} — для оформления пенсии"),
        ("ru_inn12", "Мой ИНН {v}, укажите в договоре"),
        ("tw_national_id", "身分證字號：{v}，請幫我填申請表。"),
        ("ae_emirates_id", "رقم الهوية الإماراتية {v}"),
        ("ar_cuil", "Mi CUIL es {v}, lo piden para el alta."),
        ("br_pis", "Meu PIS/PASEP é {v} para o FGTS"),
        ("ec_cedula", "Número de cédula {v}"),
        ("uy_ci", "Mi cédula es {v}"),
        ("co_nit_person", "Facture a nombre de persona natural, NIT {v}"),
        ("nz_ird", "my IRD number is {v} for the tax return"),
        ("us_itin", "ITIN {v} — please use it on the 1040"),
        ("my_mykad", "No. MyKad saya {v}"),
        ("id_nik", "NIK saya {v}, untuk pendaftaran BPJS"),
        ("pk_cnic", "میرا شناختی کارڈ نمبر {v} ہے"),
        ("hk_hkid", "香港身份證號碼 {v}"),
        ("za_id", "My ID-nommer is {v}, vir die aansoek."),
        ("ie_ppsn", "PPS number {v}, for the Revenue form"),
    ]
    for name, template in ids:
        value = getattr(c, name)()
        add(f"id/{name}", template.format(v=value), value)
    th = c.th_national_id()
    th_written = f"{th[0]}-{th[1:5]}-{th[5:10]}-{th[10:12]}-{th[12]}"
    add("id/th_national_id_dashed", f"เลขประจำตัวประชาชน {th_written}", th_written)
    ssn = c.us_ssn().replace("-", ".")
    add("id/us_ssn_dotted_no_cue", f"Payroll fix: employee 4471 should be {ssn}, not the old one.", ssn)
    row = c.ro_cnp()
    add("id/ro_cnp_csv_row", f"nume;prenume;cnp;oras\n{c.family()};{c.given()};{row};Cluj", row)
    family, given = c.family(), c.given()
    dl = c.gb_driving_licence(family, given)
    add("id/gb_driving_licence", f"Hire car booking for {given} {family}, licence {dl}", dl, f"{given} {family}")
    # health numbers
    add("health/hu_taj", f"TAJ-szám: {(taj := c.hu_taj())[:3]} {taj[3:6]} {taj[6:]} — cukorbeteg, inzulinos",
        taj)
    add("health/at_svnr", f"e-card SV-Nummer {(sv := c.at_svnr())}, Überweisung zur Onkologie", sv)
    add("health/gb_chi", f"CHI {(chi := c.gb_chi())} — asthma review overdue, see practice nurse", chi)
    cns = c.br_cns()
    cns_written = f"{cns[:3]} {cns[3:7]} {cns[7:11]} {cns[11:]}"
    add("health/br_cns", f"Cartão SUS {cns_written}, consulta de pré-natal", cns_written)
    add("health/nz_nhi", f"NHI {(nhi := c.nz_nhi())}: referral to the mental health team", nhi)
    add("health/ca_ohip", f"Ontario health card {(ohip := c.ca_ohip())}, dialysis Tuesday", ohip)
    family, given = c.family(), c.given()
    ramq = c.ca_ramq(family, given)
    add("health/ca_ramq", f"Carte d'assurance maladie de {given} {family} : {ramq}", ramq, f"{given} {family}")
    add("health/in_abha", f"ABHA number {(abha := c.in_abha())} linked, TB treatment card attached", abha)
    family = c.family()
    npi, dea = c.us_npi(), c.us_dea(family)
    add("health/us_prescriber", f"Rx signed by Dr. {family}, NPI {npi}, DEA {dea}", npi, dea)
    family, given, born, mrn = c.family().upper(), c.given().upper(), c.birth_date(), c.digits(8)
    pid = (f"MSH|^~\\&|LAB|HOSP|EHR|HOSP|202501060900||ORU^R01|{c.digits(6)}|P|2.5\n"
           f"PID|1||{mrn}^^^HOSP^MR||{family}^{given}||{born:%Y%m%d}|F\n"
           f"OBX|1|ST|HIV-1^HIV-1 RNA||detected")
    add("health/hl7_pid_segment", pid, f"{family}^{given}", f"{born:%Y%m%d}", mrn)
    family, given, born, chi = c.family(), c.given(), c.birth_date(), c.gb_chi()
    fhir = json.dumps({"resourceType": "Patient", "identifier": [{"system": "https://www.ndr.scot.nhs.uk/chi",
                                                                  "value": chi}],
                       "name": [{"family": family, "given": [given]}], "birthDate": f"{born:%Y-%m-%d}",
                       "extension": [{"url": "condition", "valueString": "schizophrenia"}]}, ensure_ascii=False)
    add("health/fhir_patient", fhir, chi, family, f"{born:%Y-%m-%d}")
    family, given, born = c.family().upper(), c.given().upper(), c.birth_date()
    dicom = (f"(0010,0010) PN [{family}^{given}]\n(0010,0020) LO [{(pid2 := c.digits(9))}]\n"
             f"(0010,0030) DA [{born:%Y%m%d}]\n(0008,1030) LO [MRI BRAIN MS PROTOCOL]")
    add("health/dicom_header", f"header dump of the study:\n{dicom}", f"{family}^{given}", pid2, f"{born:%Y%m%d}")
    name = f"{c.given()} {c.family()}"
    add("health/spanish_clinical_note", f"La paciente {name}, NHC {(nhc := c.digits(9))}, fue diagnosticada de "
                                        "esclerosis múltiple remitente-recurrente.", name, nhc)
    # names
    g1, f1, g2, f2 = c.given(), c.family(), c.given(), c.family()
    add("name/particles", f"Add {g1} van der {f1} and {g2} de la {f2} to the board minutes.",
        f"{g1} van der {f1}", f"{g2} de la {f2}")
    fam, giv = c.family(), c.given()
    add("name/allcaps_family_first", f"Dossier suivi par {fam.upper()} {giv}, merci de la rappeler.",
        f"{fam.upper()} {giv}")
    fam = c.family()
    initials = f"{c.given()[0]}.-{c.given()[0]}."
    add("name/initials_family", f"Approved by {initials} {fam} on behalf of the works council.", f"{initials} {fam}")
    giv, fam, phone = c.given(), c.family(), c.mobile("AT")
    add("name/email_signature", f"Danke!\n\n--\n{giv} {fam}\nLeitung Einkauf | Muster GmbH\nMobil: {phone}\n",
        f"{giv} {fam}", phone)
    name, email = f"{c.given()} {c.family()}", c.mailbox()
    add("name/json_author", json.dumps({"title": "Q3 pricing draft", "author": {"name": name, "email": email},
                                        "version": 3}), name, email)
    n1, e1, n2, e2 = f"{c.given()} {c.family()}", c.mailbox(), f"{c.given()} {c.family()}", c.mailbox()
    add("name/commit_trailers", f"fix: round totals before tax\n\nSigned-off-by: {n1} <{e1}>\n"
                                f"Co-authored-by: {n2} <{e2}>", n1, e1, n2, e2)
    translit = f"{c.given()} {c.given()}ovna {c.family()}ova"
    add("name/transliterated_patronymic", f"Passenger name as in the passport: {translit}", translit)
    nick = f'{c.given()} "{c.given()}" {c.family()}'
    add("name/nickname_quoted", f"Invite {nick} to the offsite, he runs the warehouse.", nick)
    arab = f"{c.given()} bin {c.given()} al-{c.family()}"
    add("name/nasab_transliterated", f"The tenant is {arab}; the lease starts in May.", arab)
    he = f"{_syllables(r, _HEBREW, 2)} {_syllables(r, _HEBREW, 3)}"
    add("name/hebrew", f"הלקוחה {he} תגיע מחר לחתום על החוזה", he)
    hy = f"{_syllables(r, _ARMENIAN, 2)} {_syllables(r, _ARMENIAN, 2)}յան"
    add("name/armenian", f"Իմ գործընկերը՝ {hy}, վաղը կգա", hy)
    ta = f"{_syllables(r, _TAMIL, 2)} {_syllables(r, _TAMIL, 3)}"
    add("name/tamil", f"என் பெயர் {ta}, நான் கணக்காளர்", ta)
    # dates of birth in other calendars and languages
    born = c.birth_date()
    y, m, d = hijri(born)
    hij = f"{d:02d}/{m:02d}/{y}"
    add("dob/hijri", f"تاريخ الميلاد: {hij} هـ", hij)
    y, m, d = jalali(born := c.birth_date())
    jal = _map(f"{y}/{m:02d}/{d:02d}", _PERSIAN_DIGITS)
    add("dob/solar_hijri", f"تاریخ تولد: {jal}", jal)
    born = c.birth_date()
    thai = f"{born.day} {_TH_MONTHS[born.month - 1]} {born.year + 543}"
    add("dob/thai_buddhist_era", f"เกิดวันที่ {thai}", thai)
    born = c.birth_date()
    roman = f"{born.day}.{_ROMAN[born.month - 1]}.{born.year}"
    add("dob/roman_month", f"ur. {roman} w Lublinie", roman)
    born = c.birth_date()
    tr = f"{born.day} {_TR_MONTHS[born.month - 1]} {born.year}"
    add("dob/turkish", f"Doğum tarihi: {tr}", tr)
    born = c.birth_date()
    nl = f"{born.day} {_NL_MONTHS[born.month - 1]} {born.year}"
    add("dob/dutch", f"geboren op {nl} te Utrecht", nl)
    born = c.birth_date()
    ind = f"{born.day} {_ID_MONTHS[born.month - 1]} {born.year}"
    add("dob/indonesian_place_date", f"Tempat/Tgl. Lahir: Bandung, {ind}", ind)
    return out


# --------------------------------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------------------------------

_PROVIDERS = [
    ("doppler", "DOPPLER_TOKEN"), ("pulumi", "PULUMI_ACCESS_TOKEN"), ("linear", "LINEAR_API_KEY"),
    ("postman", "POSTMAN_API_KEY"), ("databricks", "DATABRICKS_TOKEN"), ("grafana_service_account", "GRAFANA_TOKEN"),
    ("sentry_user", "SENTRY_AUTH_TOKEN"), ("dynatrace", "DT_API_TOKEN"), ("newrelic_user", "NEW_RELIC_API_KEY"),
    ("planetscale", "PLANETSCALE_SERVICE_TOKEN"), ("flyio", "FLY_API_TOKEN"), ("age_secret_key", "SOPS_AGE_KEY"),
    ("docker_hub_pat", "DOCKERHUB_TOKEN"), ("rubygems", "GEM_HOST_API_KEY"), ("groq", "GROQ_API_KEY"),
    ("replicate", "REPLICATE_API_TOKEN"), ("supabase", "SUPABASE_ACCESS_TOKEN"), ("notion", "NOTION_TOKEN"),
    ("airtable_pat", "AIRTABLE_TOKEN"), ("contentful", "CONTENTFUL_MANAGEMENT_TOKEN"), ("brevo", "BREVO_API_KEY"),
    ("gitlab_runner", "RUNNER_TOKEN"), ("terraform_cloud", "TFE_TOKEN"), ("azure_ad_client_secret",
                                                                           "AZURE_CLIENT_SECRET"),
    ("firebase_fcm", "FCM_SERVER_KEY"), ("mapbox_secret", "MAPBOX_SECRET_TOKEN"),
    ("onepassword_service_account", "OP_SERVICE_ACCOUNT_TOKEN"),
]
_CARRIERS = [
    "{env}={v}",
    "{lower}: {v}   # prod, rotate in Q3",
    '{{"{lower}": "{v}", "region": "eu-west-1"}}',
    "client = Client(api_key=\"{v}\")",
    "[default]\n{lower} = {v}",
    "Sorry, wrong paste earlier — the real one is {v}",
    "Set-Secret -Name {env} -Secret '{v}' -Vault CI",
    "$ gh secret set {env} --body \"{v}\"",
    "2025-01-06T09:00:01Z DEBUG http: header {lower}={v} sent",
]
_LABELS = [("ar", "كلمة المرور: {v}"), ("he", "הסיסמה לשרת היא {v}"), ("th", "รหัสผ่าน wifi คือ {v}"),
           ("vi", "mật khẩu quản trị là {v}"), ("cs", "heslo k databázi je {v}"), ("hu", "a jelszó: {v}")]


def _rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


def _secret_cases(c: R18Canaries) -> list[Case]:
    out: list[Case] = []

    def add(technique: str, text: str, *canaries: str, derived: Iterable[str] = ()) -> None:
        out.append(_case(technique, "secrets", "exchange", text, canaries, derived=derived))

    for i, (name, env) in enumerate(_PROVIDERS):
        v = getattr(c, name)()
        add(f"provider/{name}", _CARRIERS[i % len(_CARRIERS)].format(env=env, lower=env.lower(), v=v), v)
    key_id, key_secret = c.alibaba_key_id(), c.chars(30)
    add("provider/alibaba_key_pair", f"aliyun configure set --access-key-id {key_id} --access-key-secret {key_secret}",
        key_id, key_secret)
    for lang, template in _LABELS:
        v = c.secret_word()
        add(f"label/{lang}", template.format(v=v), v)
    # configuration files
    pw = c.secret_word()
    b64 = _b64(pw)
    add("config/kubernetes_secret_base64", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\n"
                                           f"data:\n  username: YXBw\n  password: {b64}\n", b64, derived=(pw,))
    pw = c.secret_word()
    add("config/docker_compose_env", "services:\n  db:\n    image: postgres:16\n    environment:\n"
                                     f"      - POSTGRES_PASSWORD={pw}\n", pw)
    pw = c.secret_word()
    add("config/terraform_tfvars", f'region = "eu-central-1"\ndb_admin_password = "{pw}"\n', pw)
    pw = c.secret_word()
    add("config/jdbc_semicolon", f"jdbc:sqlserver://db.internal:1433;databaseName=erp;user=sa;password={pw};"
                                 "encrypt=true", pw)
    pw = c.secret_word()
    add("config/odbc_pwd", "Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql01,1433;Database=hr;Uid=hr_app;"
                           f"Pwd={pw};", pw)
    v = c.django_secret_key()
    add("config/git_diff_added_line", "diff --git a/app/settings.py b/app/settings.py\n@@ -21,3 +21,4 @@\n"
                                      f" DEBUG = False\n+SECRET_KEY = '{v}'\n ALLOWED_HOSTS = []", v)
    v = c.rails_secret_key_base()
    add("config/rails_credentials", f"# config/credentials.yml.enc (decrypted)\nsecret_key_base: {v}\n", v)
    v = c.laravel_app_key()
    add("config/laravel_env", f"APP_ENV=production\nAPP_KEY={v}\nAPP_DEBUG=false", v)
    v = c.uuid4()
    add("config/npmrc_auth_token", f"registry=https://nexus.internal/repository/npm/\n"
                                   f"//nexus.internal/repository/npm/:_authToken=NpmToken.{v}", f"NpmToken.{v}")
    v = c.aws_session_token()
    add("config/aws_session_token", f"[prod]\naws_session_token = {v}\n", v)
    line, kid = c.pkcs8_lines(), c._hex(40)
    sa = json.dumps({"type": "service_account", "project_id": "acme-prod", "private_key_id": kid,
                     "private_key": "-----BEGIN PRIVATE KEY-----\n" + "\n".join(line) + "\n-----END PRIVATE KEY-----\n",
                     "client_email": "ci@acme-prod.iam.gserviceaccount.com"})
    add("config/gcp_service_account_json", sa, kid, line[2])
    d = c.jwk_private_d()
    jwk = json.dumps({"kty": "EC", "crv": "P-256", "x": c.jwk_private_d(), "y": c.jwk_private_d(), "d": d,
                      "kid": "signing-2025"})
    add("config/jwk_private_parameter", f"the signing key: {jwk}", d)
    # command lines and shell history
    pw = c.secret_word()
    add("cli/oracle_easy_connect", f"sqlplus scott/{pw}@//db.internal:1521/ORCLPDB1", pw)
    pw = c.secret_word().replace("$", "_")
    add("cli/mysql_attached_p", f"mysql -h db01 -u root -p{pw} shop < dump.sql", pw)
    pw = c.secret_word()
    add("cli/pgpassword_prefix", f"  512  PGPASSWORD='{pw}' pg_dump -h db01 -U billing billing > b.sql", pw)
    pw = c.secret_word()
    add("cli/sshpass", f"sshpass -p '{pw}' ssh deploy@10.20.0.5 'systemctl restart api'", pw)
    pw = c.secret_word()
    add("cli/openssl_passout", f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:{pw}",
        pw)
    pw = c.secret_word()
    add("cli/ldapsearch_bind", f'ldapsearch -x -H ldaps://dc01 -D "cn=svc-ldap,dc=corp,dc=local" -w {pw} '
                               '-b "dc=corp,dc=local"', pw)
    pw = c.secret_word()
    add("cli/smbclient_user_percent", f"smbclient //fs01/finance -U svc_backup%{pw} -c 'ls'", pw)
    pw = c.secret_word()
    add("cli/net_use", f"net use Z: \\\\fs01\\finance {pw} /user:CORP\\svc_backup /persistent:no", pw)
    pw = c.secret_word()
    add("cli/helm_set", f"helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword={pw}", pw)
    pw, pw2 = c.secret_word(), c.secret_word()
    add("cli/ansible_inventory", f"[web]\nweb1 ansible_host=10.0.0.7 ansible_user=deploy ansible_password={pw} "
                                 f"ansible_become_pass={pw2}", pw, pw2)
    community = c.chars(14)
    add("cli/snmp_community", f"snmpwalk -v2c -c {community} 10.0.0.1 1.3.6.1.2.1.1", community)
    pw = c.secret_word()
    add("cli/redis_cli_auth", f"redis-cli -h cache01 -a {pw} --no-auth-warning INFO", pw)
    v = c.azure_devops_pat()
    add("cli/git_remote_token_userinfo", f"git remote set-url origin https://pat:{v}@dev.azure.com/acme/shop/_git/api",
        v)
    # SQL, traces, HTTP
    pw = c.secret_word()
    add("sql/create_user_password", f"CREATE USER app_rw WITH PASSWORD '{pw}';\nGRANT ALL ON SCHEMA app TO app_rw;", pw)
    pw = c.secret_word()
    add("sql/alter_identified_by", f'ALTER USER reporting IDENTIFIED BY "{pw}";', pw)
    pw = c.secret_word()
    add("trace/libpq_keyword_dsn", "Traceback (most recent call last):\n  File \"worker.py\", line 88, in connect\n"
                                   f"psycopg.OperationalError: connection failed: \"host=db01 port=5432 user=app "
                                   f"password={pw} dbname=app sslmode=require\"", pw)
    tok = c.chars(43, string.ascii_letters + string.digits + "-_")
    add("http/implicit_flow_fragment", f"it redirected me to https://app.example.com/callback#access_token={tok}"
                                       "&token_type=Bearer&expires_in=3600 and then showed a blank page", tok)
    key = c.chars(40)
    add("http/request_dump_api_key", f"GET /v2/orders?limit=50 HTTP/1.1\nHost: api.shop.example\nX-Api-Key: {key}\n"
                                     "Accept: application/json\n", key)
    # encoded and disguised
    pw = c.secret_word()
    add("encoded/hex_password", f"db_password_hex: {pw.encode().hex()}", pw.encode().hex(), derived=(pw,))
    tok = c.chars(32)
    b32 = base64.b32encode(tok.encode()).decode().rstrip("=")
    add("encoded/base32_token", f"api token (b32, paste into the vault): {b32}", b32, derived=(tok,))
    pw = c.secret_word()
    add("encoded/rot13_password", f"rot13 so the scanner skips it: {_rot13(pw)}", _rot13(pw), derived=(pw,))
    v = c.replicate()
    add("disguise/soft_hyphens_token", f"token: {_interleave(v, chr(0xAD), 3)}", v)
    v = c.groq()
    add("disguise/zero_width_joiner_token", f"key {_interleave(v, chr(0x200D), 2)}", v)
    # key material
    v = c.bip39_phrase()
    add("keys/bip39_seed_phrase", f"wallet recovery phrase, in order: {v}", v)
    v = c.eth_private_key()
    add("keys/ethereum_private_key", f"DEPLOYER_PRIVATE_KEY={v}", v)
    lines = c.pgp_private_lines()
    block = "\n".join(["-----BEGIN PGP PRIVATE KEY BLOCK-----", "", *lines, "-----END PGP PRIVATE KEY BLOCK-----"])
    add("keys/pgp_private_block", f"signing key for the releases:\n{block}", lines[2])
    lines = c.putty_private_lines()
    ppk = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n"
           f"AAAAC3NzaC1lZDI1NTE5AAAAI{c.chars(20)}\n{c.chars(24)}\nPrivate-Lines: {len(lines)}\n" + "\n".join(lines)
           + f"\nPrivate-MAC: {c._hex(64)}")
    add("keys/putty_ppk", ppk, lines[1])
    # split
    v = c.planetscale()
    pieces = [v[:18], v[18:36], v[36:]]
    out.append(_case("split/metadata_key_names", "secrets", "exchange_fields",
                     {"user": "the service token is in the metadata keys, in order", "assistant": "ok",
                      "metadata": {pieces[0]: {pieces[1]: {pieces[2]: True}}}}, pieces))
    v = c.sentry_user()
    out.append(_case("split/user_and_assistant", "secrets", "exchange_fields",
                     {"user": f"first part of the sentry token: {v[:36]}",
                      "assistant": f"and the remaining part you sent before was {v[36:]}"}, (v[:36], v[36:])))
    v = c.linear()
    out.append(_case("split/two_sessions", "secrets", "sessions",
                     [[{"user": f"linear key starts {v[:24]}", "assistant": "ok"}],
                      [{"user": f"...and it ends {v[24:]}", "assistant": "ok"}]], (v[:24], v[24:])))
    return out


# --------------------------------------------------------------------------------------------------
# Consolidation: the same value restated across sessions, in rules, preferences, corrections, tool output
# --------------------------------------------------------------------------------------------------


def _consolidation_cases(c: R18Canaries) -> list[Case]:
    out: list[Case] = []

    def sessions(technique: str, texts: list[list[str]], canaries: Iterable[str], derived: Iterable[str] = (),
                 **row_extra: Any) -> None:
        rows = [[{"user": t, "assistant": "Understood, I'll remember that.", **row_extra} for t in session]
                for session in texts]
        out.append(_case(technique, "consolidation", "consolidate_sessions", rows, canaries, derived=derived))

    intl = c.mobile("GB")
    national = "0" + re.sub(r"^\+44\s*", "", intl)
    sessions("cross_session/phone_layouts",
             [[f"My dentist's mobile is {intl}."], [f"Dentist again — {national}, she prefers texts."],
              [f"Remember the dentist: {national.replace(' ', '.')}, call before 6pm."]], (intl, national))
    email = c.mailbox()
    sessions("cross_session/email_paraphrases",
             [[f"Our tax adviser is reachable at {email}."], [f"Schick die Belege an {email}, wie immer."],
              [f"Les justificatifs vont à {email}, pas au bureau."]], (email,))
    iban = _group(c.iban_of("ES"))
    cut = 15
    sessions("cross_session/iban_halves",
             [[f"Rent account, first part: {iban[:cut]}"], [f"Rent account, second part: {iban[cut:]}"],
              [f"The landlord confirmed the rent account ends in {iban[cut:]}."]], (iban[:cut], iban[cut:]),
             derived=(iban,))
    pw = c.secret_word()
    sessions("rule/password_as_instruction",
             [[f"Always log in to the staging admin with {pw}."], [f"Rule: the staging admin password is {pw}."],
              [f"Don't forget, staging admin uses {pw} — never the prod one."]], (pw,))
    card = c.card_visa16()
    sessions("preference/payment_card",
             [[f"I prefer paying hotels with my card {_group(card)}."],
              [f"Book the train with the card ending {card[-4:]}, full number {card}."],
              [f"Use {_group(card)} for every travel booking, it has the insurance."]], (card,))
    a, b = c.mobile("PL"), c.mobile("PL")
    sessions("correction/phone_superseded",
             [[f"My new number is {a}."], [f"Correction: not {a} — it's {b}."], [f"Use {b} from now on."]], (a, b))
    street = c.family() + c.rng.choice(["straße", "weg", "allee", "gasse"])
    addr = f"{street} {c.rng.randint(2, 180)}"
    sessions("cross_session/home_address",
             [[f"I live at {addr}, 10115 Berlin."], [f"Ship the monitor to my home, {addr} in Berlin-Mitte."],
              [f"Home address reminder: {addr}, third floor, ring twice."]], (addr,))
    born = c.birth_date()
    dotted, words = f"{born:%d.%m.%Y}", f"{born.day} {born:%B} {born.year}"
    sessions("cross_session/birth_date_forms",
             [[f"I was born on {dotted}."], [f"My birthday: {words}."], [f"For the insurance: DOB {born:%Y-%m-%d}."]],
             (dotted, words, f"{born:%Y-%m-%d}"))
    name = f"{c.given()} {c.family()}"
    sessions("cross_session/named_health_condition",
             [[f"{name} has epilepsy, seizures again last month."],
              [f"{name} hat Epilepsie, bitte keine Nachtschichten für sie."],
              [f"{name} est épileptique, prévoir un remplaçant pour les astreintes."]], (name,))
    name, email, phone = f"{c.given()} {c.family()}", c.mailbox(), c.mobile("NG")
    crm = json.dumps({"contact": {"name": name, "email": email, "phone": phone, "tier": "gold"}})
    out.append(_case("tool_output/crm_lookup_repeated", "consolidation", "consolidate_sessions",
                     [[{"user": crm, "assistant": "", "tool": "crm_lookup"},
                       {"user": "That's our biggest customer, remember her.", "assistant": "Noted."}],
                      [{"user": crm, "assistant": "", "tool": "crm_lookup"},
                       {"user": f"Call {name} on {phone} next week.", "assistant": "Will do."}]],
                     (name, email, phone)))
    key = base64.b64encode(c.rng.randbytes(32)).decode()
    sessions("agent_note/unseal_key",
             [[f"Note to self: vault unseal key share 1 is {key}."], [f"Reminder (own note): unseal share {key}."]],
             (key,), source="agent_note")
    name, phone = f"{c.given()} {c.family()}", c.mobile("ZA")
    sessions("import_source/contact_list",
             [[f"contact: {name}; mobile: {phone}; role: plumber"], [f"{name} ({phone}) — plumber, reliable"]],
             (name, phone), source="import")
    name, plate = f"{c.given()} {c.family()}", c.plate_de()
    sessions("cross_session/licence_plate",
             [[f"{name} drives the car {plate}."], [f"The {plate} in visitor parking belongs to {name}."],
              [f"Reserve the garage spot for {plate} ({name})."]], (name, plate))
    passport = "".join(c.rng.choice(string.ascii_uppercase) for _ in range(2)) + c.digits(7, string.digits)
    sessions("cross_session/passport_languages",
             [[f"Mi pasaporte es {passport}, caduca en 2031."], [f"Passport {passport} for the visa form."],
              [f"Reisepassnummer {passport}, bitte für die Buchung nutzen."]], (passport,))
    return out


# --------------------------------------------------------------------------------------------------
# Side stores: other fields, filters, headers, paths and error paths of the API
# --------------------------------------------------------------------------------------------------


def _side_store_cases(c: R18Canaries) -> list[Case]:
    out: list[Case] = []

    def add(technique: str, channel: str, payload: Any, *canaries: str, derived: Iterable[str] = ()) -> None:
        out.append(_case(technique, "side_stores", channel, payload, canaries, derived=derived))

    # session fields
    digits = re.sub(r"\D", "", c.mobile("BR"))
    add("external_id/whatsapp_address", "session_body", {"external_id": f"whatsapp:+{digits}"}, f"+{digits}")
    phone = c.mobile("IE")
    add("external_id/tel_uri", "session_body", {"external_id": "tel:" + phone.replace(" ", "-")}, phone)
    email = c.mailbox()
    add("external_id/mailto_uri", "session_body", {"external_id": f"mailto:{email}?subject=ticket"}, email)
    email = c.mailbox()
    add("external_id/base64_address", "session_body", {"external_id": "u-" + _b64(email)}, _b64(email),
        derived=(email,))
    ssn = c.us_ssn()
    add("external_id/crm_composite", "session_body", {"external_id": f"crm:contact:{ssn}"}, ssn)
    email = c.mailbox()
    add("session_metadata/nested_key_address", "session_body",
        {"metadata": {"participants": {email: {"role": "customer"}}}}, email)
    v = c.iban_of("PT")
    add("session_metadata/key_in_list", "session_body", {"metadata": {"payouts": [{v: "pending"}]}}, v)
    name, phone = f"{c.given()} {c.family()}", c.mobile("PH")
    add("session_metadata/title", "session_body", {"metadata": {"title": f"Call with {name} re {phone}"}}, name,
        phone)
    email = c.mailbox()
    add("session_field/invalid_started_at", "session_body", {"started_at": f"when {email} called"}, email)
    # exchange fields
    email = c.mailbox()
    add("exchange_field/tool_name_address", "exchange_fields",
        {"user": "lookup finished", "assistant": "", "tool": f"crm_lookup:{email}"}, email)
    tok = c.doppler()
    add("exchange_field/tool_name_token", "exchange_fields",
        {"user": "fetched", "assistant": "", "tool": f"fetch --token={tok}"}, tok)
    phone = c.mobile("TR")
    add("exchange_field/invalid_source", "exchange_fields",
        {"user": "hello", "assistant": "hi", "source": f"call from {phone}"}, phone)
    v = _group(c.iban_of("BE"))
    add("exchange_field/invalid_occurred_at", "exchange_fields",
        {"user": "payment", "assistant": "ok", "occurred_at": f"paid from {v}"}, v)
    email = c.mailbox()
    add("exchange_field/unknown_field_name", "exchange_fields",
        {"user": "hello", "assistant": "hi", email: "cc"}, email)
    phone = c.mobile("VN")
    args = json.dumps({"to": phone, "body": "your order shipped"})
    add("exchange_metadata/tool_call_arguments_string", "exchange_fields",
        {"user": "sent the sms", "assistant": "done", "metadata": {"tool_calls": [{"name": "send_sms",
                                                                                    "arguments": args}]}}, phone)
    # list filters and search fields
    email = c.mailbox()
    add("filter/entity_clear_address", "get_query", {"path": "exchanges", "params": {"entity": email}}, email)
    name = f"{c.given()} {c.family()}"
    add("filter/entity_clear_name", "get_query", {"path": "experiences", "params": {"entity": name}}, name)
    phone = c.mobile("PK")
    add("filter/invalid_since", "get_query", {"path": "sessions", "params": {"since": phone}}, phone)
    email = c.mailbox()
    add("filter/invalid_session", "get_query", {"path": "exchanges", "params": {"session": email}}, email)
    tok = c.pulumi()
    add("filter/invalid_as_of", "get_query", {"path": "experiences", "params": {"as_of": tok}}, tok)
    tok = c.databricks()
    add("filter/unknown_parameter_name", "get_query", {"path": "episodes", "params": {tok: "1"}}, tok)
    v = c.iban_of("SE")
    add("filter/invalid_entity_kind", "get_query", {"path": "entities", "params": {"kind": v}}, v)
    email = c.mailbox()
    add("search/entity_clear_address", "search_body", {"query": "what did she order last time?", "entity": email},
        email)
    phone = c.mobile("UA")
    add("search/invalid_session", "search_body", {"query": "the contract", "session": phone}, phone)
    card = c.card_mastercard5()
    add("search/invalid_types", "search_body", {"query": "refund", "types": [card]}, card)
    card = c.card_visa16()
    add("search/idempotent_replay", "idempotent_search", {"query": f"was card {card} refunded?"}, card)
    # forget, delete, feedback, patch
    email, phone = c.mailbox(), c.mobile("CZ")
    add("forget/subject_and_reason", "forget",
        {"before": f"Ticket from {email}: please close my account.",
         "body": {"subject": email, "reason": f"erasure asked by phone {phone}"}}, email, phone)
    email = c.mailbox()
    add("forget/unknown_agent_name", "forget", {"body": {"agent": email, "reason": "offboarding"}}, email)
    name, phone = f"{c.given()} {c.family()}", c.mobile("GR")
    add("delete_session/reason_body", "session_delete_reason", f"customer {name} ({phone}) asked to be forgotten",
        name, phone)
    email, v = c.mailbox(), c.iban_of("RO")
    add("feedback/invalid_ids", "feedback", {"search_id": email, "used_ids": [v]}, email, v)
    name, email = f"{c.given()} {c.family()}", c.mailbox()
    add("patch/refused_with_reason", "patch_body", {"verified": True, "reason": f"confirmed by {name} <{email}>"},
        name, email)
    # headers, query strings, paths
    email = c.mailbox()
    add("header/x_request_id", "ingest_headers", {"HTTP_X_REQUEST_ID": f"req-{email}"}, email)
    email = c.mailbox()
    add("header/from", "ingest_headers", {"HTTP_FROM": email}, email)
    tok = c.docker_hub_pat()
    add("header/x_api_key", "ingest_headers", {"HTTP_X_API_KEY": tok}, tok)
    email = c.mailbox()
    add("query/unknown_on_post", "query_on_post", {"notify": email}, email)
    phone = re.sub(r"\D", "", c.mobile("SE"))
    add("path/close_unknown_session", "path_request", {"method": "post", "path": f"sessions/{phone}/close"}, phone)
    tok = c.newrelic_user()
    add("path/delete_unknown_experience", "path_request", {"method": "delete", "path": f"experiences/{tok}"}, tok)
    tok, email = c.chars(40), c.mailbox()
    add("admin/login_next_and_user_agent", "admin_login_context",
        {"next": f"/admin/?reset_token={tok}", "user_agent": f"Mozilla/5.0 (sso; {email})"}, tok, email)
    return out


def generate_r18_cases(rng: random.Random | None = None) -> list[Case]:
    """The r18 set with new canaries (``rng`` only to reproduce a run)."""
    c = R18Canaries(rng or random.Random())
    cases = (_encoding_cases(c) + _border_cases(c) + _secret_cases(c) + _consolidation_cases(c)
             + _side_store_cases(c))
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


# --------------------------------------------------------------------------------------------------
# Sending: this set's channels, then the fresh set's and the first suite's
# --------------------------------------------------------------------------------------------------

_HIDDEN_INPUT_RE = re.compile(r"<input\b[^>]*\bname=\"(?:username|next)\"[^>]*>")


def _drop_value(m: re.Match[str]) -> str:
    return re.sub(r'\svalue="[^"]*"', "", m.group(0))


def _operator_headers(agent_id, headers: dict) -> dict:
    """A key of an operator agent in the caller's project (forget needs that role; the suite's agent writes and
    reads only)."""
    if agent_id is None:
        return headers
    from agents.models import Agent
    from agents.services import agent_create, api_key_create

    project = Agent.objects.get(pk=agent_id).project
    operator = agent_create(project_name=project.name, name=f"operator-{uuid.uuid4().hex[:8]}",
                            roles=("writer", "operator"))
    return {"HTTP_AUTHORIZATION": f"Bearer {api_key_create(agent=operator).raw_key}"}


def _send_r18(case: Case, client, headers: dict, responses: list, agent_id=None) -> None:
    from django.test import Client

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

    def plain_exchange(sid, **extra):
        return post(f"sessions/{sid}/exchanges", {"user": "we deploy on fridays", "assistant": "ok",
                                                  "occurred_at": _at(0)}, **extra)

    def experience_url() -> str:
        sid = session()
        r = plain_exchange(sid)
        experience = make_memories(Exchange.objects.get(pk=r.json()["exchanges"][0]["id"]))[1]
        return f"{api}experiences/{experience.pk}"

    if ch == "session_body":
        sid = session(**p)
        if sid:
            plain_exchange(sid)
    elif ch == "exchange_fields":
        sid = session()
        post(f"sessions/{sid}/exchanges", {"occurred_at": _at(0), **p})
    elif ch in ("consolidate_sessions", "sessions"):
        for rows in p:
            sid = session()
            post(f"sessions/{sid}/exchanges", {"exchanges": [{**row, "occurred_at": _at(i)}
                                                             for i, row in enumerate(rows)]})
            if ch == "consolidate_sessions":
                post(f"sessions/{sid}/close", {})
    elif ch == "forget":
        if "before" in p:  # the subject is said first, so there is something to forget
            sid = session()
            post(f"sessions/{sid}/exchanges", {"user": p["before"], "assistant": "ok", "occurred_at": _at(0)})
        post("forget", p["body"], **_operator_headers(agent_id, headers))
    elif ch == "session_delete_reason":
        sid = session()
        plain_exchange(sid)
        keep(client.delete(f"{api}sessions/{sid}", {"reason": p}, format="json", **headers))
    elif ch == "feedback":
        post("feedback", p)
    elif ch == "patch_body":
        keep(client.patch(experience_url(), p, format="json", **headers))
    elif ch == "ingest_headers":
        plain_exchange(session(), **p)
    elif ch == "query_on_post":
        sid = session()
        keep(client.post(f"{api}sessions/{sid}/exchanges?{urlencode(p)}",
                         {"user": "we deploy on fridays", "assistant": "ok", "occurred_at": _at(0)}, format="json",
                         **headers))
    elif ch == "path_request":
        method = getattr(client, p["method"])
        keep(method(api + quote(p["path"], safe="/+"), {}, format="json", **headers))
    elif ch == "idempotent_search":
        key = str(uuid.uuid4())
        post("search", p, HTTP_IDEMPOTENCY_KEY=key)
        post("search", p, HTTP_IDEMPOTENCY_KEY=key)
    elif ch == "admin_login_context":
        r = Client().post("/admin/login/?" + urlencode({"next": p["next"]}),
                          {"username": "ops-" + uuid.uuid4().hex[:8], "password": "wrong-" + uuid.uuid4().hex},
                          HTTP_USER_AGENT=p["user_agent"])
        # The re-rendered login form carries back what this requester just sent (username, next) to that requester
        # only: not a leak. The rest of the page is looked at, and so are the dump, the logs and the admin.
        responses.append(_Text(_HIDDEN_INPUT_RE.sub(_drop_value, _body(r))))
    else:
        _send_fresh(case, client, headers, responses)


# --------------------------------------------------------------------------------------------------
# Running and reporting (counts by group and by place only)
# --------------------------------------------------------------------------------------------------


def run_r18_cases(cases: Sequence[Case], *, client, headers: dict, agent_id=None, consolidate: bool = True,
                  part: str = "r18") -> dict[str, Any]:
    """The r18 set through the blind sets' runner, summarised by group and place."""
    def send(case: Case, client, headers: dict, responses: list) -> None:
        _send_r18(case, client, headers, responses, agent_id=agent_id)

    rows = run_blind_cases(cases, send, client=client, headers=headers, agent_id=agent_id, consolidate=consolidate,
                           label="r18")
    return summarise_r18(rows, part=part)


def summarise_r18(rows: Iterable[dict], part: str = "r18") -> dict[str, Any]:
    return summarise_blind(rows, set="r18", part=part)


def format_r18_report(report: dict[str, Any]) -> str:
    return format_blind_report(report, f"r18 adversarial set, part {report['part']}")
