"""Masking at the engine level: masking that holds against an adversary and on unseen text.

Every observed leak that the engine owns has a test here (the API side doors are in
``tests/test_privacy_side_doors.py``): forged placeholders, secrets first, evasion (encoded, split, wrapped,
zero-width), recall rules that state a general fact (obfuscated e-mails, lower-case IBANs, national phone formats,
names in other scripts, places, lone names after cues).
"""

from __future__ import annotations

import base64
import binascii

import pytest

from governance.privacy import engine
from governance.privacy.engine import MaskingPolicy, mask, mask_many, normalise_value, pseudonym
from governance.privacy.recognizers import find_secrets

KEY = b"adversarial-key"
STRIPE = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
GITHUB = "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"
OPENAI = "sk-proj-Ab3dEf6hIj9lMn2pQr5tUv8xYz1BcD4fGh7jKl0nOp3rSt6vWx9zAT3BlbkFJq1W2e3R4t5Y6u7I8o9P0a1S2"
AWS = "AKIAZ3KQ7PLM2XW4RT6Y"
HEX32 = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"


def masked(text: str, **kwargs) -> str:
    return mask(text, key=KEY, **kwargs).text


# ---- forged placeholders: only the gateway's own output is left alone ---------------------------------------

FORGED = [
    pytest.param(f"Store this for later: <SECRET:{STRIPE}>", STRIPE, id="secret-wrapper-around-key"),
    pytest.param("keep <SECRET:sk_live_4ec39hqlyjwdarjtt1zdp7dc> safe", "4ec39hqlyjwdarjtt1zdp7dc",
                 id="secret-wrapper-lower-case-key"),
    pytest.param(f"api_key=<{HEX32}>", HEX32, id="hex-key-in-brackets-after-assignment"),
    pytest.param(f"<SECRET:openai_key {OPENAI}> is already masked", OPENAI, id="known-kind-plus-key"),
    pytest.param("pw <SECRET:hunter2xyz>", "hunter2xyz", id="secret-wrapper-unknown-kind"),
    pytest.param(f"the deploy key is <{HEX32}>", HEX32, id="hex-key-in-brackets"),
    pytest.param(f"remember <API_KEY_{HEX32}> for billing", HEX32, id="placeholder-shape-hex-payload"),
    pytest.param("<PERSON_Xk9pQ2mN7vB3cR8tY1wE6zA4> said hi", "Xk9pQ2mN7vB3cR8tY1wE6zA4", id="placeholder-shape-key"),
    pytest.param(f"<<SECRET:stripe_key>{STRIPE}>", STRIPE, id="real-placeholder-glued-to-key"),
    pytest.param(f"The access key id <{AWS}> is the deploy user's", AWS, id="vendor-key-in-brackets"),
    pytest.param("password: <Xk9!mm2Q#1>", "Xk9!mm2Q#1", id="password-in-brackets"),
    pytest.param("db pass = [J9fPg&9ISAUe]", "J9fPg&9ISAUe", id="password-in-square-brackets"),
    pytest.param(f'{{"note": "<SECRET:github_token>", "raw": "<{GITHUB}>"}}', GITHUB, id="json-beside-real-one"),
]


@pytest.mark.parametrize("text,secret", FORGED)
def test_forged_placeholders_do_not_hide_a_secret(text, secret):
    out = mask(text, key=KEY)
    assert secret not in out.text
    assert any(e.is_secret for e in out.entities)


def test_only_the_exact_grammar_with_a_known_type_is_accepted():
    text = ("<PERSON_3f2a9c> <SECRET:password> <SECRET:not_a_kind> <FOO_3f2a9c> <PERSON_3f2a> <PERSON_3F2A9C> "
            "<PERSON_3f2a9c0>")
    spans = [text[s:e] for s, e in engine.accepted_placeholders(text)]
    assert spans == ["<PERSON_3f2a9c>", "<SECRET:password>"]


def test_with_a_registry_only_registered_pseudonyms_are_accepted():
    real = pseudonym("PERSON", "Maria Lopez", KEY)
    text = f"Ask {real} and <PERSON_aaaaaa> about it"
    spans = [text[s:e] for s, e in engine.accepted_placeholders(text, registered={real})]
    assert spans == [real]
    # the engine asks the registry once for the keyed placeholders of the batch
    asked = []

    def known(candidates):
        asked.append(set(candidates))
        return {real} & candidates

    res = mask_many([text, "no placeholder here"], key=KEY, known_placeholders=known)
    assert asked == [{real, "<PERSON_aaaaaa>"}]
    assert real in res[0].text


def test_sent_back_placeholders_are_left_alone():
    first = mask("Email maria.lopez@example.com about the invoice", key=KEY)
    placeholder = first.entities[0].placeholder
    follow_up = mask(f"Did {placeholder} answer?", key=KEY, known_placeholders=lambda c: c & {placeholder})
    assert follow_up.text == f"Did {placeholder} answer?" and not follow_up.entities


# ---- secrets first --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,secret", [
    ("my db password is Rosebud", "Rosebud"),
    ("my db password is Marianne Smith", "Marianne Smith"),
    ("passwd: Jean-Luc", "Jean-Luc"),
    ("the password is sunshine.", "sunshine"),
    ("token = Xq9wK3vN7bT2yR5u", "Xq9wK3vN7bT2yR5u"),
    ("the key is 4f3c2a1b9d8e7f60a1b2c3d4e5f6a7b8", "4f3c2a1b9d8e7f60a1b2c3d4e5f6a7b8"),
])
def test_a_secret_in_context_is_a_secret_never_a_name(text, secret):
    res = mask(text, key=KEY)
    assert secret not in res.text
    assert res.entities and all(e.is_secret for e in res.entities)
    assert res.reversible_entities() == []  # nothing for the vault: secrets are never revealable


@pytest.mark.parametrize("text", [
    "the password is wrong",
    "Please reset your password: click the link in the email.",
    "the password is stored in the vault",
    "My password is too short, the form says.",
])
def test_prose_about_credentials_is_not_a_secret(text):
    assert not [e for e in mask(text, key=KEY).entities if e.is_secret]


@pytest.mark.parametrize("text", ["see metadata", "Meine Nummer ist 030 1234567", "turn D25:4"])
def test_words_and_ids_are_not_names(text):
    assert "PERSON" not in {e.entity_type for e in mask(text, key=KEY).entities}


def test_redis_password_with_at_sign_is_masked_whole():
    # found by the hypothesis property test: the part after the first "@" used to stay in clear
    out = masked(" redis://:a@000001@cache:6379/0 ")
    assert "000001" not in out and "@cache:6379/0" in out


# ---- evasion: encoded, zero-width, split ------------------------------------------------------------------------

def _b64(s: str) -> str:
    return base64.b64encode(s.encode()).decode()


@pytest.mark.parametrize("text,leak", [
    (f"here it is, encoded: {_b64(STRIPE)}", _b64(STRIPE)),
    (f"double {_b64(_b64(GITHUB))}", _b64(_b64(GITHUB))),
    (f"creds {_b64(AWS + ':' + 'Xk9pQ2mN7vB3cR8tY1wE6zA4bC5dE6fG7hI8jK9l')}", _b64(AWS)[:12]),
    (f"config line {_b64('password=Hunter2!xyz')}", _b64("password=Hunter2!xyz")),
    (f"hex: {binascii.hexlify(STRIPE.encode()).decode()}", binascii.hexlify(STRIPE.encode()).decode()),
    (f"0x{binascii.hexlify(STRIPE.encode()).decode()}", binascii.hexlify(STRIPE.encode()).decode()),
    ("https://example.org/cb?t=" + "".join(f"%{b:02X}" for b in GITHUB.encode()), "%67%68%70%5F"),
    (f"https://example.org/cb?q=token%3D{GITHUB}&x=1", GITHUB),
    (f"token {GITHUB[:10]}\u200b{GITHUB[10:]} (copy carefully)", GITHUB[10:]),
])
def test_encoded_and_obfuscated_keys_are_secrets(text, leak):
    out = masked(text)
    assert leak not in out and "<SECRET:" in out


@pytest.mark.parametrize("text", [
    f"encoded greeting {_b64('hello world, see you at the standup tomorrow')}",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "search?q=caf%C3%A9%20au%20lait&page=2",
    "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
])
def test_decoding_does_not_invent_secrets(text):
    assert not find_secrets(text)


def _conversation(turns: list[str]) -> list[str]:
    results = mask_many(turns, key=KEY)
    return [r.text for r in engine.continue_secrets(turns, results, engine.conversation_windows(len(turns)))]


def test_a_key_split_across_user_and_assistant_is_masked_whole():
    head, tail = STRIPE[:15], STRIPE[15:]
    user, assistant = _conversation([f"first half of the stripe key: {head}", f"{tail} <- second half"])
    assert head not in user and tail not in assistant
    assert assistant.startswith("<SECRET:")


def test_a_key_split_across_exchanges_is_masked_within_the_window():
    head, middle, tail = GITHUB[:12], GITHUB[12:24], GITHUB[24:]
    turns = _conversation([f"save {head}", "Okay, noted.", f"continued: {middle}", "Got it.", f"{tail}"])
    joined = "\n".join(turns)
    for part in (head, middle, tail):
        assert part not in joined
    assert turns[1] == "Okay, noted." and turns[3] == "Got it."


def test_an_all_caps_tail_of_an_aws_key_id_is_masked():
    turns = _conversation([f"key id {AWS[:12]}", f"then {AWS[12:]}"])
    assert AWS[:12] not in turns[0] and AWS[12:] not in turns[1]


def test_a_password_after_a_phrase_that_ends_a_turn_is_masked():
    _, answer = _conversation(["the database password is", "Xk9!mm2Q#1"])
    assert "Xk9!mm2Q#1" not in answer


def test_the_window_is_two_texts():
    turns = _conversation([f"token {GITHUB[:12]}", "ok", "sure", f"{GITHUB[12:]}"])
    assert GITHUB[12:] in turns[3]  # three texts back: outside the documented window
    windows = engine.conversation_windows(3, before=["stored user", "stored assistant"])
    assert windows == [["stored assistant", "stored user"], [0, "stored assistant"], [1, 0]]


def test_a_normal_reply_after_a_masked_key_stays_readable():
    turns = _conversation([f"token {GITHUB}", "Noted. I will rotate it tomorrow and update the vault."])
    assert turns[1] == "Noted. I will rotate it tomorrow and update the vault."


# ---- recall rules (general facts of language or format) ----------------------------------------------------------

@pytest.mark.parametrize("text,value", [
    ("Contact anna dot berg at example dot com please", "anna dot berg at example dot com"),
    ("mail me: anna[at]example[dot]org", "anna[at]example[dot]org"),
    ("write to j.smith (at) mail (dot) co (dot) uk", "j.smith (at) mail (dot) co (dot) uk"),
    ("email me at anna.berg at example.com", "anna.berg at example.com"),
])
def test_obfuscated_emails(text, value):
    res = mask(text, key=KEY)
    assert value not in res.text
    [email] = [e for e in res.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert email.placeholder == pseudonym("EMAIL_ADDRESS", value.replace(" at ", "@").replace("[at]", "@")
                                          .replace(" (at) ", "@").replace(" dot ", ".").replace("[dot]", ".")
                                          .replace(" (dot) ", "."), KEY)


@pytest.mark.parametrize("text", ["I met her at the station dot com event", "we are at home. dot the i's"])
def test_plain_at_and_dot_are_not_emails(text):
    assert "EMAIL_ADDRESS" not in {e.entity_type for e in mask(text, key=KEY).entities}


# Round 42: a company's own zone is no public suffix, and its people's addresses are personal data all the same
@pytest.mark.parametrize("value", ["jane.doe@corp.internal", "ops-oncall@build.local", "minjun.kim@samsungsds.example",
                                   "r.ito@mail.acme.lan", "kasia@dev.test", "jdoe@ip-10-0-0-12.ec2.internal"])
def test_addresses_at_private_and_reserved_domains_are_emails(value):
    res = mask(f"Contact: {value}, she owns the runbook", key=KEY)
    assert value not in res.text
    assert [e.entity_type for e in res.entities if e.entity_type == "EMAIL_ADDRESS"] == ["EMAIL_ADDRESS"]


@pytest.mark.parametrize("text", ["pin lodash@4.17.21 and @types/node@20.11.5", "uses actions/checkout@v4",
                                  "ship the pkg@1.2.beta build", "see settings@prod.yaml",
                                  "ssh -J bastion.eu.internal ubuntu@db-primary-02.internal"])
def test_versions_and_file_names_with_an_at_are_not_emails(text):
    assert "EMAIL_ADDRESS" not in {e.entity_type for e in mask(text, key=KEY).entities}


def test_lower_case_iban_gets_the_same_pseudonym():
    lower = mask("wire it to gb82 west 1234 5698 7654 32 today", key=KEY)
    upper = mask("wire it to GB82 WEST 1234 5698 7654 32 today", key=KEY)
    assert [e.placeholder for e in lower.entities if e.entity_type == "IBAN_CODE"] == \
        [e.placeholder for e in upper.entities if e.entity_type == "IBAN_CODE"] != []
    assert normalise_value("IBAN_CODE", "gb82 west 1234") == normalise_value("IBAN_CODE", "GB82WEST1234")


@pytest.mark.parametrize("region,text,number", [
    ("DE", "Meine Nummer ist 030 1234567", "030 1234567"),
    ("US", "ring (415) 555-0134 tonight", "(415) 555-0134"),
    ("GB", "my mobile 07700 900123", "07700 900123"),
])
def test_national_phone_formats_of_the_project_region(region, text, number):
    policy = MaskingPolicy.from_dict({**MaskingPolicy.default().to_dict(), "phone_region": region})
    assert number not in mask(text, key=KEY, policy=policy).text


def test_national_formats_need_the_region():
    """Without the project's region a bare two-group number is not taken for a phone (it is as often a reference);
    a phone word next to it in any language is what makes it one."""
    policy = MaskingPolicy.from_dict({**MaskingPolicy.default().to_dict(), "phone_region": ""})
    assert "030 1234567" in mask("Referenz 030 1234567 im Ordner", key=KEY, policy=policy).text
    assert "030 1234567" not in mask("Meine Nummer ist 030 1234567", key=KEY, policy=policy).text
    assert "030 1234567" not in mask("My number is 030 1234567", key=KEY, policy=policy).text


@pytest.mark.parametrize("text,name", [
    ("My colleague 李伟 will join the call", "李伟"),
    ("我叫王小明，今年三十岁。", "王小明"),
    ("我的同事王小明明天来。", "王小明"),
    ("Please greet 田中さん from me", "田中"),
    ("Meeting with 김민수 tomorrow", "김민수"),
    ("Иван Петров called yesterday", "Иван Петров"),
    ("Say hi to Αλέξανδρος Παπαδόπουλος", "Αλέξανδρος Παπαδόπουλος"),
    ("my friend محمد علي called", "محمد علي"),
])
def test_names_in_other_scripts(text, name):
    res = mask(text, key=KEY)
    assert name not in res.text
    assert "PERSON" in {e.entity_type for e in res.entities}


@pytest.mark.parametrize("text,place", [
    ("Mr. Demidov grew up in HELSINKI.", "HELSINKI"),
    ("We returned to Mill Village by helicopter.", "Mill Village"),
    ("i moved to kiel last year", "kiel"),
    ("The bus station is on Villacher Strasse 89", "Villacher Strasse 89"),
    ("send it to the corner of Kuusiku 7 and Alexander Flat?", "Kuusiku 7 and Alexander Flat"),
    ("psc 5420, box 2708\napo aa 33879", "psc 5420, box 2708"),
    ("Ship to: Anna Berg > Storgatan 12 > 114 51 Stockholm > Sweden", "Storgatan 12"),
])
def test_places_by_general_cues(text, place):
    res = mask(text, key=KEY)
    assert place not in res.text
    assert "LOCATION" in {e.entity_type for e in res.entities}


@pytest.mark.parametrize("text,name", [
    ("Surname: Kowalczyk", "Kowalczyk"),
    ("She named him Luís", "Luís"),
    ("Ship to: Anna Berg > Storgatan 12 > 114 51 Stockholm > Sweden", "Anna Berg"),
    ("our 3 founders: Kónya, Becker and Vasquez.", "Vasquez"),
    ("my name is borna jerković", "borna jerković"),
    ("hi, i'm marta and my son lukas is sick", "lukas"),
])
def test_names_after_cues(text, name):
    res = mask(text, key=KEY)
    assert name not in res.text
    assert "PERSON" in {e.entity_type for e in res.entities}


def test_a_path_with_separators_is_not_an_address():
    assert masked("Path: Home > Settings > Privacy > Cookies") == "Path: Home > Settings > Privacy > Cookies"
