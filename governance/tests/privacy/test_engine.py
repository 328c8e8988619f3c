"""Masking engine: policy, pseudonyms, secrets, dates, idempotence, offsets, engine construction."""

from __future__ import annotations

import json
import re
import threading

import pytest

from core.config import config_override
from governance.privacy import engine
from governance.privacy.engine import (
    MaskingPolicy,
    PiiEngineError,
    contains_pii,
    mask,
    mask_many,
    normalise_value,
    pseudonym,
)
from governance.privacy.recognizers import SECRET_ENTITIES

KEY = b"project-secret-1"
OTHER_KEY = b"project-secret-2"
PLACEHOLDER_RE = re.compile(r"<(?:SECRET:[a-z0-9_]+|[A-Z][A-Z0-9_]*_[0-9a-f]{6})>")


# ---- policy --------------------------------------------------------------------------------------


def test_default_policy_groups():
    p = MaskingPolicy.default()
    for t in (
        "EMAIL_ADDRESS",
        "PHONE_NUMBER",
        "CREDIT_CARD",
        "IBAN_CODE",
        "US_SSN",
        "IP_ADDRESS",
        "US_PASSPORT",
    ):
        assert p.action_for(t) == "mask"
    for t in ("PERSON", "LOCATION", "NRP"):
        assert p.action_for(t) == "pseudonymise"
    assert p.action_for("DATE_TIME") is None
    assert p.action_for("URL") is None  # plain URLs are kept; credentials inside them are secrets
    assert p.action_for("ORGANIZATION") is None
    assert SECRET_ENTITIES <= p.active_entities
    assert all(p.action_for(s) == "secret" for s in SECRET_ENTITIES)
    assert "DATE_TIME" not in p.active_entities


def test_policy_dict_roundtrip_is_json_and_compact():
    p = MaskingPolicy.default()
    data = json.loads(json.dumps(p.to_dict()))
    assert "SECRET_*" in data["mask_entities"]
    assert MaskingPolicy.from_dict(data) == p
    assert MaskingPolicy.from_dict({}) == p  # missing keys fall back to the defaults


def test_never_mask_wins_and_secrets_cannot_be_dropped_by_omission():
    p = MaskingPolicy(
        mask_entities=frozenset({"EMAIL_ADDRESS"}),
        pseudonymise_entities=frozenset({"PERSON"}),
        never_mask=frozenset({"PERSON"}),
        score_threshold=0.4,
    )
    assert "PERSON" not in p.active_entities
    assert SECRET_ENTITIES <= p.active_entities  # secrets stay on unless named in never_mask
    res = mask("Ask Maria Lopez: token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", policy=p, key=KEY)
    assert "Maria Lopez" in res.text
    assert "<SECRET:github_token>" in res.text


def test_policy_rejects_bad_threshold():
    with pytest.raises(ValueError):
        MaskingPolicy(frozenset(), frozenset(), frozenset(), score_threshold=1.5)


# ---- pseudonyms ----------------------------------------------------------------------------------


def test_pseudonym_format_and_stability():
    a = pseudonym("PERSON", "Maria Lopez", KEY)
    assert re.fullmatch(r"<PERSON_[0-9a-f]{6}>", a)
    assert a == pseudonym("PERSON", "  maria   LOPEZ ", KEY)  # casefold + whitespace
    assert a != pseudonym("PERSON", "Maria Lopez", OTHER_KEY)
    assert a != pseudonym("LOCATION", "Maria Lopez", KEY)  # the type is part of the HMAC input
    assert pseudonym("PHONE_NUMBER", "+1 (415) 555-0134", KEY) == pseudonym(
        "PHONE_NUMBER", "14155550134", KEY
    )
    assert normalise_value("PHONE_NUMBER", "+1 (415) 555-0134") == "14155550134"


def test_same_value_same_placeholder_across_texts_and_calls():
    t1 = "Please email maria.lopez@example.com about the invoice."
    t2 = "Reminder: MARIA.LOPEZ@EXAMPLE.COM still has not replied."
    r1, r2 = mask(t1, key=KEY), mask(t2, key=KEY)
    p1 = [e.placeholder for e in r1.entities if e.entity_type == "EMAIL_ADDRESS"]
    p2 = [e.placeholder for e in r2.entities if e.entity_type == "EMAIL_ADDRESS"]
    assert p1 and p1 == p2
    [b1] = [e.placeholder for e in mask(t1, key=OTHER_KEY).entities if e.entity_type == "EMAIL_ADDRESS"]
    assert b1 != p1[0]


def test_person_is_pseudonymised_consistently():
    text = "My name is Elena Petrova. Later Elena Petrova called again from Lisbon."
    res = mask(text, key=KEY)
    persons = [e for e in res.entities if e.entity_type == "PERSON"]
    assert len(persons) == 2
    assert persons[0].placeholder == persons[1].placeholder
    assert "Elena" not in res.text


# ---- dates, secrets, overlaps --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,date",
    [
        ("The deadline is 2025-03-14 at 17:00, please book the room.", "2025-03-14"),
        ("We met on March 3rd, 2024 and again last Tuesday.", "March 3rd, 2024"),
        ("Renewal due 14/03/2026; the contract started 01.02.2023.", "14/03/2026"),
    ],
)
def test_dates_are_never_masked(text, date):
    res = mask(text, key=KEY)
    assert date in res.text
    assert not any(e.entity_type == "DATE_TIME" for e in res.entities)


SECRET_CASES = [
    (
        "export OPENAI_API_KEY=sk-proj-"
        + "Ab3dEf6hIj9lMn2pQr5tUv8xYz1BcD4fGh7jKl0nOp3rSt6vWx9zA"
        + "T3BlbkFJ"
        + "q1W2e3R4t5Y6u7I8o9P0a1S2",
        "openai_key",
    ),
    (
        "client = Anthropic(api_key='sk-ant-api03-" + "x7Yb2Kq9Lm4Np8Rs3Tv6Wz1Ac5De0Fg" * 3 + "AA')",
        "anthropic_key",
    ),
    ("aws_access_key_id = AKIAZ3KQ7PLM2XW4RT6Y", "aws_access_key"),
    (
        "git clone https://ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8" + "@github.com/acme/x.git",
        "github_token",
    ),
    (
        "Set-Cookie: session="
        + "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MjEzIiwibmFtZSI6ImRlcGxveSJ9."
        + "Xq9wK3vN7bT2yR5uM8sL1pJ4hG6fD0aZcEiOkUxWnYm",
        "jwt",
    ),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nQyNTUxOQAAACBcQx7Hf2\n"
        "-----END OPENSSH PRIVATE KEY-----",
        "private_key",
    ),
    ("DB_PASSWORD=Tr0ub4dor&3xyz", "password"),
    ("my wifi password is Coffee-Lover-42!", "password"),
    ("DATABASE_URL=postgres://app:S3cr3tPass@db.internal:5432/app", "url_credentials"),
    ("SLACK_BOT_TOKEN=xoxb-12345678901-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack_token"),
    ("STRIPE_SECRET_KEY=sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Kx2", "stripe_key"),
    ("maps key AIzaSyD" + "3kL9mN2pQ5rS8tU1vW4xY7zA0bC6dE9f", "google_api_key"),
    (
        "curl -H 'Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e' https://api.x.io",
        "bearer_token",
    ),
]


@pytest.mark.parametrize("text,kind", SECRET_CASES)
def test_secrets_become_kind_placeholders(text, kind):
    res = mask(text, key=KEY)
    assert f"<SECRET:{kind}>" in res.text, res.text
    secrets = [e for e in res.entities if e.is_secret]
    assert secrets and all(e.original == "" for e in secrets)  # never kept, even in memory
    assert all(PLACEHOLDER_RE.fullmatch(e.placeholder) for e in res.entities)
    for e in secrets:
        assert text[e.start : e.end] not in res.text


def test_url_credentials_keep_the_host():
    res = mask("connect with postgres://svc_reporting:Pa55-w0rd!@db.internal:5432/analytics", key=KEY)
    assert res.text == "connect with postgres://<SECRET:url_credentials>@db.internal:5432/analytics"


def test_secret_wins_over_overlapping_pii():
    # "Pa55word@db.example.com" also looks like an e-mail address
    res = mask("mysql://root:Pa55word@db.example.com/shop", key=KEY)
    assert "<SECRET:url_credentials>" in res.text
    assert "EMAIL_ADDRESS" not in {e.entity_type for e in res.entities}


@pytest.mark.parametrize(
    "text",
    [
        "fixed in 3f2a9c1d4b5e6f708192a3b4c5d6e7f8091a2b3c, see PR 412",
        "request_id=123e4567-e89b-12d3-a456-426614174000 status=200",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "password = request.POST['password']",
        "api_key = os.environ['OPENAI_API_KEY']",
        "Please reset your password: click the link in the email.",
        "image: ghcr.io/acme/api@sha256:4d6a4b1b2d5c3f0e8a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f",
        "class TokenRefreshMiddlewareForLegacyClients(BaseMiddleware):",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "color: #1e90ff; background: #fafafa;",
        "Released v2.14.3-rc.1+build.20250301",
    ],
)
def test_hard_negatives_are_not_secrets(text):
    assert not contains_pii(text, secrets_only=True)
    assert not [e for e in mask(text, key=KEY).entities if e.is_secret]


# ---- results, offsets, repr ----------------------------------------------------------------------


def _rebuild(original: str, res) -> str:
    out, pos = [], 0
    for e in res.entities:
        out += [original[pos : e.start], e.placeholder]
        pos = e.end
    out.append(original[pos:])
    return "".join(out)


def test_offsets_refer_to_input_and_rebuild_output():
    text = (
        "Hi, I'm Tomasz Nowak (tomasz.nowak@example.org, +44 20 7946 0958). "
        "Card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32. password=Hunter2!xyz"
    )
    res = mask(text, key=KEY)
    assert _rebuild(text, res) == res.text
    for e in res.entities:
        if not e.is_secret:
            assert text[e.start : e.end] == e.original
    types = {e.entity_type for e in res.entities}
    assert {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE", "SECRET_PASSWORD"} <= types


def test_repr_never_shows_originals():
    text = "Write to olga.krylova@example.com or call Olga Krylova; DB_PASSWORD=Sup3rS3cret!"
    res = mask(text, key=KEY)
    shown = repr(res) + str(res) + "".join(repr(e) for e in res.entities)
    for secret in ("olga.krylova@example.com", "Olga Krylova", "Sup3rS3cret!"):
        assert secret not in shown
    assert [e.original for e in res.reversible_entities()]  # still available in memory for the vault


def test_mask_many_matches_mask_and_handles_empty_texts():
    texts = [
        "",
        "   ",
        "Email anna.berg@example.se today",
        "nothing here",
        "token=" + "Zk4pQ9xL2mN7vB3cR8tY1wE6",
    ]
    many = mask_many(texts, key=KEY)
    assert [r.text for r in many] == [mask(t, key=KEY).text for t in texts]
    assert many[0].text == "" and many[1].text == "   "


def test_key_is_required():
    with pytest.raises(ValueError):
        mask("hello", key=b"")


# ---- idempotence ---------------------------------------------------------------------------------

REALISTIC = [
    "user: my name is Priya Natarajan and my email is priya.n@example.com\nassistant: Thanks Priya, noted.",
    "Deploy failed. Logs: DATABASE_URL=postgres://app:pa55w0rd!@10.0.3.17:5432/app "
    "(retry at 2025-02-01 10:00)",
    "Call me on +49 30 901820 or write to jonas.weber@example.de; my colleague Anna Schmidt will join.",
    "Here is the key: sk-proj-"
    + "Ab3dEf6hIj9lMn2pQr5tUv8xYz1BcD4fGh7jKl0nOp3rSt6vWx9zA"
    + "T3BlbkFJ"
    + "q1W2e3R4",
    "I moved to 221B Baker Street, London last May. My card 5555 5555 5555 4444 expires 09/27.",
    "Reminder for Tuesday: dentist at 9:30, then lunch with Marco Rossi at the usual place.",
    "export GITHUB_TOKEN=ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8" + " && make release",
    "The server 192.168.10.24 refused the connection; SSN on file 078-05-1120 must be removed.",
]


@pytest.mark.parametrize("text", REALISTIC)
def test_masking_masked_text_changes_nothing(text):
    once = mask(text, key=KEY)
    assert once.entities
    twice = mask(once.text, key=KEY)
    assert twice.text == once.text
    assert twice.entities == []


def test_until_stable_guarantees_idempotence_and_keeps_offsets():
    texts = REALISTIC + [
        "Ms. Roefs and Dr. Ahmed met at 70248 31 Rue Tachkent St. with Lina Artemova.",
        "Jones, Smith and Davis Orchestra played; contact svc@example.net, pin is 4821",
    ]
    stable = mask_many(texts, key=KEY, until_stable=True)
    again = mask_many([r.text for r in stable], key=KEY)
    assert [r.text for r in again] == [r.text for r in stable]
    for t, r in zip(texts, stable, strict=True):
        assert _rebuild(t, r) == r.text


def test_existing_placeholders_are_never_touched():
    text = (
        "Ask <PERSON_3f2a> (<EMAIL_ADDRESS_91c0>) about <SECRET:password> and the new address bob@example.com"
    )
    res = mask(text, key=KEY)
    for ph in ("<PERSON_3f2a>", "<EMAIL_ADDRESS_91c0>", "<SECRET:password>"):
        assert ph in res.text
    assert "bob@example.com" not in res.text


# ---- engine construction -------------------------------------------------------------------------


def test_analyzer_is_built_once_even_with_threads():
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(engine.get_analyzer())) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(a) for a in seen}) == 1


def test_concurrent_masking_is_consistent():
    text = (
        "Email ines.garcia@example.es and call Ines Garcia on +34 912 345 678; token=Zk4pQ9xL2mN7vB3cR8tY1wE6"
    )
    expected = mask(text, key=KEY).text
    results = []

    def work():
        for _ in range(5):
            results.append(mask(text, key=KEY).text)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(results) == {expected}


def test_spacy_model_setting_defaults_without_django_settings():
    from django.conf import settings

    if settings.configured:

        with config_override(privacy__spacy_model="some_model"):
            assert engine.spacy_model_name() == "some_model"
    else:
        assert engine.spacy_model_name() == engine.DEFAULT_SPACY_MODEL


def test_missing_spacy_model_fails_fast_without_download(monkeypatch):
    import spacy.cli

    def no_download(*args, **kwargs):  # pragma: no cover - would be a bug
        raise AssertionError("a spaCy model download was attempted")

    monkeypatch.setattr(spacy.cli, "download", no_download)
    nlp_engine = engine._nlp_engine_class()(models=[{"lang_code": "en", "model_name": "no_such_model_xyz"}])
    with pytest.raises(PiiEngineError):
        nlp_engine.load()


def test_only_the_ner_runs():
    nlp = engine.get_analyzer().nlp_engine.nlp["en"]
    assert nlp.pipe_names == ["ner"]
