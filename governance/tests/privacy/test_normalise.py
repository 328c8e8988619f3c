"""The normalisation pass before analysis: what it reads through, and its map back onto the original text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from governance.privacy.engine import MaskingPolicy, contains_pii, mask
from governance.privacy.normalise import normalise

KEY = b"project-secret-1"
PLAIN = "anna@example.com"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("anna%40example.com", PLAIN),
        ("anna%2540example.com", PLAIN),  # encoded twice
        ("ａｎｎａ＠ｅｘａｍｐｌｅ．ｃｏｍ", PLAIN),  # full-width
        ("a\u200bn\u200cn\u200da\u2060@\ufeffexample.com", PLAIN),  # zero-width, joiners, word joiner, BOM
        ("anna@exam\u202eple\u202c.com", PLAIN),  # bidi override
        ("an\u00adna@example.com", PLAIN),  # soft hyphen
        ("&#97;nna&#64;example&period;com", PLAIN),  # numeric and named HTML entities
        ("anna&#x40;example.com", PLAIN),
        ("anna\\u0040example.com", PLAIN),  # \u escape
        ("anna\\x40example.com", PLAIN),
        ("anna [at] example [dot] com", PLAIN),  # defanged
        ("anna(at)example(.)com", PLAIN),
        ("anna{@}example[.]com", PLAIN),
        ("anna at example dot com", PLAIN),  # the word form in an address shape
        ("anna dot smith AT example DOT co dot uk", "anna.smith@example.co.uk"),
        ("hxxps[:]//evil[.]example", "https://evil.example"),
        ("+1\u00a0415\u2009555\u202f0100", "+1 415 555 0100"),  # NBSP, thin and narrow spaces
        ("+1\u2011415\u2013555\u20140100", "+1-415-555-0100"),  # non-breaking hyphen and dashes
        ("٤١١١١١١١١١١١١١١١", "4111111111111111"),  # Arabic-Indic digits
        ("४१११ ११११", "4111 1111"),  # Devanagari digits
        ("４１１１", "4111"),  # full-width digits
        ("e\u0301", "é"),  # a combining mark composes
        ("anna -at- example -dot- com", PLAIN),  # other marks around the words
        ("anna_at_example_dot_com", PLAIN),
        ("anna <at> example <dot> com", PLAIN),
        ("a n n a @ e x a m p l e . c o m", PLAIN),  # spelled out letter by letter
        ("123 \u2013 45 \u2013 6789", "123-45-6789"),  # digit groups joined by spaced dashes
        ("4111 - 1111 - 1111 - 1111", "4111-1111-1111-1111"),
    ],
)
def test_reads_through(text, expected):
    assert normalise(text).text == expected


@pytest.mark.parametrize(
    "text",
    [
        "We deploy with Fly.io at 5 pm, 100% of the time; see https://example.com/a?b=c&d=e.",
        "meet at noon, then lunch at the cafe",
        "encryption for data-at-rest and data-in-transit",  # a dash around "at" but no address after it
        "the score was 3 - 2 after extra time",  # two numbers around a dash are no identifier
        "pages 10 - 12 - 14 are blank",
    ],
)
def test_plain_text_is_untouched(text):
    n = normalise(text)
    assert n.text == text and not n.changed
    assert n.to_original(3, 9) == (3, 9)


def test_invalid_escapes_stay():
    assert normalise("50%zz and %ff%fe").text == "50%zz and %ff%fe"  # not UTF-8
    assert normalise("&notanentity; &#xZZ;").text == "&notanentity; &#xZZ;"
    assert normalise("C:\\x8f").text == "C:\\x8f"  # a control character is not decoded


def test_span_of_encoded_characters_maps_to_the_whole_escape():
    text = "mail anna%40example.com now"
    n = normalise(text)
    start = n.text.index(PLAIN)
    assert n.to_original(start, start + len(PLAIN)) == (5, 23)
    at = n.text.index("@")
    assert text[slice(*n.to_original(at, at + 1))] == "%40"


def test_dropped_characters_inside_a_span_are_covered():
    text = "x a\u200bnna@example.com y"
    n = normalise(text)
    start = n.text.index(PLAIN)
    s, e = n.to_original(start, start + len(PLAIN))
    assert text[s:e] == "a\u200bnna@example.com"


_ALPHABET = st.sampled_from(
    list("ab @.%40&#;x[]()dot at 1") + ["%40", "&#64;", "&amp;", "\\u0040", "\u200b", "\u202e", "\u00a0", "ａ",
                                       "１", "٣", "e\u0301", "\ufb01", "[at]", " dot ", " at ", "\u2013", "\u3000"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join), st.data())
def test_offset_map_is_monotone_and_inside_the_original(text, data):
    n = normalise(text)
    assert n.original == text
    if n.changed:
        assert len(n.starts) == len(n.ends) == len(n.text)
        assert list(n.starts) == sorted(n.starts) and list(n.ends) == sorted(n.ends)
        assert all(0 <= s < e <= len(text) for s, e in zip(n.starts, n.ends, strict=True))
    i = data.draw(st.integers(0, len(n.text)))
    j = data.draw(st.integers(i, len(n.text)))
    s, e = n.to_original(i, j)
    assert 0 <= s <= e <= len(text)
    if i < j:  # a longer span of the normalised text never maps to a shorter one of the original
        s2, e2 = n.to_original(max(0, i - 1), min(len(n.text), j + 1))
        assert s2 <= s < e <= e2


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_maps_inside_itself(text):
    n = normalise(text)
    s, e = n.to_original(0, len(n.text))
    assert 0 <= s <= e <= len(text)
    assert normalise(n.text).text == normalise(normalise(n.text).text).text  # stable after two passes


# ---- the engine reads the normalised text and masks the original span ------------------------------

_EVASIONS = [
    "write to anna%40example.com please",
    "write to ａｎｎａ＠ｅｘａｍｐｌｅ．ｃｏｍ please",
    "write to a\u200bnna@exam\u200dple.com please",
    "write to &#97;nna&#64;example.com please",
    "write to anna\\u0040example.com please",
    "write to anna [at] example [dot] com please",
    "write to anna at example dot com please",
    "write to anna@exa\u202emple\u202c.com please",
]


@pytest.mark.parametrize("text", _EVASIONS)
def test_encoded_email_is_masked_with_the_plain_placeholder(text):
    plain = mask("write to anna@example.com please", key=KEY)
    result = mask(text, key=KEY)
    assert result.text == plain.text, result.text  # the whole encoded span is gone, same placeholder
    assert [e.original for e in result.entities] == [PLAIN]  # the vault keeps the decoded value


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("call me on +1\u00a0415\u00a0555\u00a00100", "PHONE_NUMBER"),
        ("call me on +1\u2011415\u2011555\u20110100", "PHONE_NUMBER"),
        ("call me on ＋１ ４１５ ５５５ ０１００", "PHONE_NUMBER"),
        ("my card is ٤١١١ ١١١١ ١١١١ ١١١١", "CREDIT_CARD"),  # Luhn on Arabic-Indic digits
        ("my card is ４１１１ １１１１ １１１１ １１１１", "CREDIT_CARD"),
        ("my card is 4111%201111%201111%201111", "CREDIT_CARD"),
        ("IBAN DE89\u20073704\u20070044\u20070532\u20070130\u200700", "IBAN_CODE"),
        ("IBAN DE89&nbsp;3704&nbsp;0044&nbsp;0532&nbsp;0130&nbsp;00", "IBAN_CODE"),
        ("ip 10.0.0.1 and 192\u200b.168.1\u200b.77", "IP_ADDRESS"),
    ],
)
def test_encoded_numbers_are_masked(text, entity):
    result = mask(text, key=KEY)
    assert any(e.entity_type == entity for e in result.entities), result.text
    outside = re.sub(r"<[A-Z_]+_[0-9a-f]{6}>", "", result.text)
    assert not re.search(r"\d", outside), result.text  # no digit of the number is left, in any script


def _chunked(value: str, sep: str, width: int = 4) -> str:
    return sep.join(value[i : i + width] for i in range(0, len(value), width))


@pytest.mark.parametrize("sep", ["\u202f", "\u00a0", "\u2009", "\u3000"])
def test_email_split_by_exotic_spaces_is_masked_whole(sep):
    result = mask(f"write to {_chunked('anna.smith@example.com', sep)} please", key=KEY)
    assert [e.original for e in result.entities] == ["anna.smith@example.com"], result.text
    assert result.text.startswith("write to <EMAIL_ADDRESS_") and result.text.endswith("> please"), result.text


def test_key_cut_into_groups_by_exotic_spaces_is_one_token():
    key = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    assert normalise("token " + _chunked(key, "\u202f")).text == "token " + key
    assert "A1b2" not in mask("token " + _chunked(key, "\u202f"), key=KEY).text


@pytest.mark.parametrize("text", ["10\u00a0km away", "Mr.\u00a0Smith and Dr.\u00a0Who",
                                  "the\u00a0big\u00a0cat\u00a0sat"])
def test_prose_typeset_with_nbsp_keeps_its_spaces(text):
    assert normalise(text).text == text.replace("\u00a0", " ")


def test_secret_split_by_invisible_characters_is_masked_whole():
    text = "token ghp_\u200b" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    result = mask(text, key=KEY)
    assert "A1b2" not in result.text and "<SECRET:" in result.text


def test_contains_pii_reads_the_normalised_text():
    assert contains_pii("anna%40example.com", policy=MaskingPolicy.default())


def test_unchanged_text_keeps_offsets():
    text = "Mail anna@example.com today"
    result = mask(text, key=KEY)
    (e,) = result.entities
    assert text[e.start:e.end] == PLAIN


# ---- issue 29, held back: decoding can cut a value in two; secrets are read as written too ------------------------

def test_to_normalised_is_the_inverse_of_to_original():
    text = "pw YoSwk%2730 ok"
    n = normalise(text)
    s, e = n.to_normalised(3, 13)
    assert n.text[s:e] == "YoSwk'30" and n.to_original(s, e) == (3, 13)
    assert n.text[slice(*n.to_normalised(9, 10))] == "'"  # inside one escape: its character
    assert normalise("a\u200bb").to_normalised(1, 2) is None  # only dropped characters


@settings(max_examples=200, deadline=None)
@given(st.lists(_ALPHABET, min_size=1, max_size=40).map("".join), st.data())
def test_to_normalised_takes_every_character_from_the_span(text, data):
    n = normalise(text)
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    came = [i for i in range(len(n.text)) if n.to_original(i, i + 1)[0] < end and n.to_original(i, i + 1)[1] > start]
    span = n.to_normalised(start, end)
    assert span == ((came[0], came[-1] + 1) if came else None)


@pytest.mark.parametrize("escape", ["%27", "%22", "%20", "%28", "&#39;", "&quot;", "\\u0027", "＂", "（"])
@pytest.mark.parametrize("label", ["password = ", "wachtwoord = ", "Das Passwort ist ", "senha: "])
def test_a_decoded_delimiter_does_not_cut_a_password(escape, label):
    password = f"YoSwk{escape}30"
    assert mask(label + password, key=KEY).text == label + "<SECRET:password>"


@pytest.mark.parametrize("text", [
    "the password isn%27t required for guests",
    "the password doesn&#39;t expire",
    "wachtwoord vergeten? zie https://example.org/hulp%20bij%20inloggen",
    "see https://example.org/search?q=caf%C3%A9%20menu&page=2 for the list",
])
def test_an_escape_alone_does_not_make_a_password(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize(
    ("text", "value", "entity"),
    [
        ("请联系我zhang.wei@example.com谢谢", "zhang.wei@example.com", "EMAIL_ADDRESS"),
        ("メールはtanaka@example.jpです", "tanaka@example.jp", "EMAIL_ADDRESS"),
        ("이메일은kim@example.kr입니다", "kim@example.kr", "EMAIL_ADDRESS"),
        ("我的电话是+86 138 0013 8000请回电", "+86 138 0013 8000", "PHONE_NUMBER"),
        ("電話番号は090-1234-5678です", "090-1234-5678", "PHONE_NUMBER"),
        ("연락처는 010-1234-5678입니다", "010-1234-5678", "PHONE_NUMBER"),
        ("我的邮箱:li.na@corp.cn，电话13800138000。", "13800138000", "PHONE_NUMBER"),
        ("เบอร์โทร 081-234-5678 ครับ", "081-234-5678", "PHONE_NUMBER"),
    ],
)
def test_values_glued_to_an_unspaced_script_are_masked_exactly(text, value, entity):
    """Han, kana, Hangul and Thai are written without spaces: the address or number starts right after a word
    character, and the recognizers' word boundaries did not fall there. The space normalisation puts between them maps
    to nothing, so exactly the value is replaced. (The English NER model still takes some CJK words for names — a
    precision problem of its own, not checked here.)"""
    result = mask(text, key=KEY)
    assert value not in result.text, result.text
    found = [e for e in result.entities if e.entity_type == entity]
    assert found and found[0].original == value, result.entities


def test_unglued_spaces_map_to_nothing():
    n = normalise("联系我zhang@example.com谢谢")
    assert "我 zhang@example.com 谢" in n.text
    start = n.text.index("zhang")
    end = n.text.index(".com") + 4
    assert n.original[slice(*n.to_original(start, end))] == "zhang@example.com"
    assert n.to_original(start - 1, start) == (start - 1, start - 1)  # the space itself is no character of the text


@pytest.mark.parametrize("escape", ["%2509", "%250A", "%2520", "%0912", "%2012", "%2541"])
@pytest.mark.parametrize("label", ["lösenord: ", "password: "])
def test_a_password_holding_an_escape_is_masked_whole(label, escape):
    # a canary of the adversarial suite ("lOpOp%2509") once leaked: decoded twice, "%2509" became a tab that cut it
    value = f"lOpOp{escape}"
    assert mask(label + value, key=KEY).text == label + "<SECRET:password>"


def test_a_second_decoding_makes_no_whitespace():
    assert normalise("file%2520name").text == "file%20name"
    assert normalise("anna%2540example.com").text == PLAIN
