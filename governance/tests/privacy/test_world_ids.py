"""Masking families added after the blind adversarial set's tune half: identifiers of any country after their cue
(and the shaped ones without), values glued to CJK text, eras and Korean dates of birth, passport MRZs, credential
words of other scripts, positional credential lines, enclosed / keycap digits and tag characters.

Values are generated with their own check digits (never copied from a case); every family has near-miss negatives."""

from __future__ import annotations

import random

import pytest

from governance.privacy.engine import mask
from governance.privacy.normalise import normalise
from governance.privacy.recognizers import find_secrets
from governance.privacy.recognizers.national_ids import HealthAndBirthRecognizer, luhn_digit
from governance.privacy.recognizers.world_ids import (
    WorldIdRecognizer,
    be_check,
    cn_check,
    ean13_check,
    hetu_check,
    jmbg_check,
    kr_check,
    sg_check,
)

KEY = b"world-ids-world-ids-world-ids-32"
IDS = WorldIdRecognizer()


def found(text: str) -> set[tuple[str, str]]:
    return {(r.entity_type, text[r.start : r.end]) for r in IDS.analyze(text, []) if r.score >= 0.4}


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _cn(rng):
    body = f"{rng.randint(110000, 659999)}{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    body += _digits(rng, 3)
    return body + cn_check(body)


def _kr(rng):
    head = f"{rng.randint(50, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.choice('12')}{_digits(rng, 5)}"
    return f"{head[:6]}-{head[6:]}{kr_check(head)}"


def _sg(rng):
    seven = _digits(rng, 7)
    prefix = rng.choice("STFG")
    return prefix + seven + sg_check(prefix, seven)


def _be(rng):
    nine = f"{rng.randint(50, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{_digits(rng, 3)}"
    return f"{nine[:2]}.{nine[2:4]}.{nine[4:6]}-{nine[6:]}.{be_check(nine, False)}"


def _fi(rng):
    ddmmyy = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(50, 99)}"
    nnn = f"{rng.randint(2, 899):03d}"
    return f"{ddmmyy}-{nnn}{hetu_check(ddmmyy + nnn)}"


def _ch(rng):
    twelve = "756" + _digits(rng, 9)
    v = twelve + ean13_check(twelve)
    return f"{v[:3]}.{v[3:7]}.{v[7:11]}.{v[11:]}"


def _plain(rng):
    return f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"


# (a cue in its language, the value) — the cue is what makes any country's number an identifier
CUED = [
    ("我的身份证号是{v}，请帮我填表。", _cn),
    ("주민등록번호: {v}", _kr),
    ("外国人登録: 주민번호는 {v}입니다", _kr),
    ("Please use my NRIC {v} for the booking", _sg),
    ("tax file number {v} on the form", _plain),
    ("מספר תעודת זהות שלי הוא {v}", lambda r: _digits(r, 9)),
    ("Rijksregisternummer: {v}", _be),
    ("マイナンバーは{v}です。", lambda r: " ".join(_digits(r, 4) for _ in range(3))),
    ("رقم الهوية {v}", lambda r: _digits(r, 10)),
    ("henkilötunnus {v}", _fi),
    ("kimlik no: {v}", lambda r: _digits(r, 11)),
    ("la cédula de mi hijo es {v}", lambda r: _digits(r, 10)),
]


@pytest.mark.parametrize("template,gen", CUED, ids=[t[:14] for t, _ in CUED])
@pytest.mark.parametrize("seed", range(3))
def test_any_countrys_identifier_after_its_cue_is_masked(template, gen, seed):
    value = gen(random.Random(seed))
    text = template.format(v=value)
    masked = mask(text, key=KEY).text
    assert value not in masked and value.replace(" ", "") not in masked.replace(" ", ""), masked


@pytest.mark.parametrize("entity,gen", [("CN_RESIDENT_ID", _cn), ("KR_RRN", _kr), ("SG_NRIC", _sg), ("BE_NRN", _be),
                                        ("FI_HETU", _fi), ("CH_AHV", _ch)])
@pytest.mark.parametrize("seed", range(3))
def test_shaped_identifiers_need_no_cue_and_a_wrong_check_is_not_one(entity, gen, seed):
    value = gen(random.Random(seed))
    assert (entity, value) in found(f"put {value} there")
    last = value[-1]
    wrong = value[:-1] + (str((int(last) + 1) % 10) if last.isdigit() else ("A" if last != "A" else "B"))
    assert (entity, wrong) not in found(f"put {wrong} there")


@pytest.mark.parametrize("text", [
    "the job run 83412345 finished in 12 s",
    "personal number: +44 7700 900123",  # a phone number after a personal-number cue is a phone number
    "ID 12345 is the row",
    "build 20240101-1234567, port 8080, timestamp 1712345678901",
    "uuid 550e8400-e29b-41d4-a716-446655440000 and sha 1a2b3c4d5e6f",
    "the SIN of the angle is 0.5",
    "version 1.2.3-4 released on 2024-05-06",
])
def test_technical_numbers_are_not_identifiers(text):
    assert not found(text)


def test_values_glued_to_cjk_text_are_masked_whole():
    rng = random.Random(4)
    value = _cn(rng)
    assert value not in mask(f"身份证号码{value}请核对", key=KEY).text
    # an ASCII word around it still makes it part of a word ("abc110105…" is an identifier of code)
    assert value in mask(f"build-abc{value}xyz", key=KEY).text


@pytest.mark.parametrize("text,value", [
    ("生年月日：平成10年3月22日", "平成10年3月22日"),
    ("生年月日: 令和元年5月1日", "令和元年5月1日"),
    ("生年月日 S55.8.1", "S55.8.1"),
    ("생년월일: 1990년 3월 22일", "1990년 3월 22일"),
    ("出生日期：民國79年3月22日", "民國79年3月22日"),
    ("ngày sinh: 22/03/1998", "22/03/1998"),
    ("tanggal lahir 22-03-1998", "22-03-1998"),
    # Thai months are written with vowel marks, not letters, and abbreviate with dots; years in the Buddhist era
    ("เกิดวันที่ 12 มีนาคม 2530 ที่เชียงใหม่", "12 มีนาคม 2530"),
    ("วันเกิด: 5 ม.ค. 2528", "5 ม.ค. 2528"),
])
def test_dates_of_birth_in_eras_and_other_scripts(text, value):
    results = HealthAndBirthRecognizer().analyze(text, [])
    assert ("DATE_OF_BIRTH", value) in {(r.entity_type, text[r.start : r.end]) for r in results}


@pytest.mark.parametrize("text", ["平成10年3月22日に会議があります", "2024년 3월 22일 회의",
                                  "ประชุมวันที่ 12 มีนาคม 2567 เวลา 10 โมง"])
def test_an_era_date_without_a_birth_cue_is_a_date(text):
    assert not HealthAndBirthRecognizer().analyze(text, [])


def test_a_passport_mrz_is_masked_whole():
    rng = random.Random(2)
    surname = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWYZ") for _ in range(7))
    number = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(9))
    line1 = f"P<DEU{surname}<<ERIKA".ljust(44, "<")
    line2 = f"{number}0DEU6408125F2702283<<<<<<<<<<<<<<<4"
    td1 = f"IDAUT{number}<<<<<<<<<<<<<<<<\n6408125F2702283AUT<<<<<<<<<<<6\n{surname}<<ANNA<<<<<<<<<<<<<<<<<<"[:200]
    for text in (f"scan of the page:\n{line1}\n{line2}", f"ID card back:\n{td1}"):
        masked = mask(text, key=KEY).text
        assert surname not in masked and number not in masked, masked


@pytest.mark.parametrize("text", [
    "<<<<<<< HEAD\nfoo\n=======\n>>>>>>> feature",
    "std::vector<std::map<int,int>> x;",
    "A<B<C and 1<2<3 in the proof",
])
def test_code_with_angle_brackets_is_no_mrz(text):
    assert ("MRZ", text) not in found(text) and not [r for r in IDS.analyze(text, []) if r.entity_type == "MRZ"]


@pytest.mark.parametrize("text,value", [
    ("DBのパスワードはQx7!mPa29です", "Qx7!mPa29"),
    ("服务器密码：Vb9#kLz41", "Vb9#kLz41"),
    ("資料庫密碼是 Hn3$wq88Z", "Hn3$wq88Z"),
    ("비밀번호는 Qw3rty!9x 입니다", "Qw3rty!9x"),
    ("รหัสผ่านคือ Zx8#kk22p", "Zx8#kk22p"),
    ("كلمة المرور هي Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("הסיסמה: Lm4%rt7Yq", "Lm4%rt7Yq"),
    ("mật khẩu là Pq7&zz31a", "Pq7&zz31a"),
    ("APIキーはAbC9dEf8GhI7jKl6です", "AbC9dEf8GhI7jKl6"),
])
def test_credential_words_of_other_scripts(text, value):
    assert value not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", ["パスワードを忘れました", "密码：请输入新密码", "パスワードはpasswordです",
                                  "密码是 ${DB_PASSWORD}", "비밀번호는 나중에 알려줄게요"])
def test_credential_words_of_other_scripts_without_a_value(text):
    assert not find_secrets(text)


@pytest.mark.parametrize("text,value", [
    ("~/.pgpass line: db.internal:5432:billing:billing_rw:Kp2&xx91Q", "Kp2&xx91Q"),
    ("*:*:*:replicator:Wz8!aa31r", "Wz8!aa31r"),
    ("run: sqlplus scott/T1ger#88@orcl", "T1ger#88"),
    ("expdp system/Mn5%pp22@prod schemas=hr", "Mn5%pp22"),
])
def test_positional_credential_lines(text, value):
    assert value not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", ["the time 12:30:45:100:200 was logged", "host:5432:db:user:*",
                                  "a path /usr/lib/x86_64:/opt/lib", "exp 2/3 of the runs"])
def test_positional_near_misses(text):
    assert not find_secrets(text)


@pytest.mark.parametrize("written,plain", [
    ("3️⃣7️⃣5️⃣4️⃣", "3754"),  # keycaps: digit, variation selector, enclosing keycap
    ("1\u20dd2\u20dd3\u20dd", "123"),  # enclosing circle
    ("❶❷❸", "123"),  # dingbat negative circled digits (no compatibility decomposition)
    ("➀➁➂", "123"),
    ("⑴⑵⑶", "123"),  # parenthesised: NFKC would give "(1)(2)(3)"
    ("⒈⒉⒊", "123"),
    ("🅐🅑", "AB"),
    ("1̲2̲3̲", "123"),  # combining low line
    ("4̶5̶6̶", "456"),  # combining stroke
])
def test_enclosed_and_decorated_digits_read_as_digits(written, plain):
    assert normalise(written).text == plain


@pytest.mark.parametrize("text", ["café naïve Ångström", "❤️ ok", "x\u0301"])
def test_letters_keep_their_diacritics(text):
    assert normalise(text).text == __import__("unicodedata").normalize("NFKC", text.replace("\ufe0f", ""))


def test_a_card_in_keycap_digits_is_masked():
    card = "4111111111111111"
    written = "".join(d + "\ufe0f\u20e3" for d in card)
    assert card not in mask(f"my card {written}", key=KEY).text.replace("\ufe0f\u20e3", "")


def _tags(s: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in s)


def test_tag_characters_are_read_as_the_ascii_they_copy():
    hidden = "anna.k@example.org"
    text = "Draft the reply." + _tags(" Their email: " + hidden)
    assert normalise(text).text == "Draft the reply. Their email: " + hidden
    masked = mask(text, key=KEY).text
    assert _tags(hidden) not in masked and "<EMAIL_ADDRESS_" in masked


def test_an_emoji_flag_keeps_its_tag_sequence_as_a_picture():
    flag = "\U0001f3f4" + _tags("gbsct") + "\U000e007f"
    assert "gbsct" not in normalise(f"go {flag} team").text


def _pt_cc(rng):
    body = _digits(rng, 9) + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(2))
    return f"{body[:8]} {body[8]} {body[9:]}{luhn_digit(body)}"


def _jmbg(rng):
    day, month, century = rng.randint(1, 28), rng.randint(1, 12), rng.choice(["9", "0"])
    twelve = f"{day:02d}{month:02d}{century}{_digits(rng, 2)}50{_digits(rng, 3)}"
    return twelve + jmbg_check(twelve)


@pytest.mark.parametrize("gen", [_pt_cc, _jmbg], ids=["pt_cc", "jmbg"])
@pytest.mark.parametrize("seed", range(3))
def test_a_citizen_card_and_a_yugoslav_citizen_number_need_no_cue(gen, seed):
    value = gen(random.Random(seed))
    assert value not in mask(f"{value} is the number on my card", key=KEY).text
    last = value[-1]
    wrong = value[:-1] + str((int(last) + 1) % 10)
    assert ("NATIONAL_ID", wrong) not in found(f"put {wrong} there")


@pytest.mark.parametrize("text,value", [
    ("my kennitala is 120174-3399", "120174-3399"),
    ("Peru: my CUI is 40444848", "40444848"),
    ("РНОКПП 3012345678 for the contract", "3012345678"),
    ("her RČ is 736028/5163", "736028/5163"),
])
def test_more_cues_of_personal_numbers(text, value):
    assert value not in mask(text, key=KEY).text


def test_a_patient_number_and_a_positive_test_are_health_data():
    masked = mask("The lab result for patient 4471-332: tested positive for hepatitis C", key=KEY).text
    assert "4471-332" not in masked and "hepatitis C" not in masked, masked
