"""Side stores that cannot reverse: the vault never holds a value a secret rule claimed, the pseudonym key lives outside
the database, idempotency digests are keyed, logs drop long numbers, the lockout table keeps digests."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.services import agent_create
from core.config import config
from governance.models import IdempotencyKey, PrivacyPolicy, PseudonymEntry, VaultEntry
from governance.privacy.engine import mask_many, pseudonym
from governance.services.idempotency import _stored
from governance.services.privacy import privacy_policy_get, texts_mask
from recmem_site.log_redaction import redact_target, redact_text

KEY = b"project-secret-1"


def test_a_value_a_secret_rule_claims_is_a_secret_everywhere_in_the_call():
    results = mask_many(["my password: Zurich42x", "Then I moved to Zurich42x, the old flat."], key=KEY)
    assert all(e.is_secret and not e.original for r in results for e in r.entities)
    assert "Zurich42x" not in results[1].text


def test_a_short_word_inside_a_long_secret_is_not_claimed():
    first, second = mask_many(["temporary key ASIAY34FZKBOKMUTVV7A", "Our team in Asia ships on Fridays."], key=KEY)
    assert "ASIAY34" not in first.text
    assert not any(e.is_secret for e in second.entities) and "<SECRET" not in second.text


@pytest.mark.django_db
def test_secret_values_never_reach_the_vault_or_the_registry():
    project = agent_create(project_name="side", name="a").project
    texts_mask(project=project, texts=["the passphrase is Marianne Okafor", "Marianne Okafor called twice."])
    assert not VaultEntry.objects.filter(project=project).exists()
    assert not PseudonymEntry.objects.filter(project=project).exists()


@pytest.mark.django_db
def test_the_pseudonym_key_is_not_in_the_database(settings):
    project = agent_create(project_name="side", name="a").project
    policy = privacy_policy_get(project=project)
    assert config().privacy.pseudonym_key  # the settings hold one (environment or RECMEM_HOME/pseudonym_key)
    salt_only = bytes.fromhex(policy.hmac_key)
    assert policy.pseudonym_key != salt_only
    [masked] = texts_mask(project=project, texts=["Mail anna@example.com"])
    # a database dump (the salt) alone does not give the placeholder: a guess cannot be tested against it
    assert pseudonym("EMAIL_ADDRESS", "anna@example.com", salt_only) not in masked
    assert pseudonym("EMAIL_ADDRESS", "anna@example.com", policy.pseudonym_key) in masked
    # another deployment key: other placeholders for the same value (rotation)
    before = policy.pseudonym_key
    settings.RECMEM = settings.RECMEM.replace(privacy__pseudonym_key="0" * 64)
    assert PrivacyPolicy.objects.get(pk=policy.pk).pseudonym_key != before


@pytest.mark.django_db
def test_idempotency_digests_are_keyed_and_per_agent():
    first = agent_create(project_name="side", name="a")
    second = agent_create(project_name="side", name="b")
    assert _stored("order-1234", first) != hashlib.sha256(b"order-1234").hexdigest()
    assert _stored("order-1234", first) != _stored("order-1234", second)
    assert _stored("order-1234", first) == _stored("order-1234", first)


@pytest.mark.django_db
def test_an_idempotency_key_is_stored_as_a_keyed_digest(api_client, make_agent):
    holder = make_agent()
    response = api_client.post("/api/v1/sessions", {"external_id": "s-1"}, format="json",
                               HTTP_IDEMPOTENCY_KEY="555-0100-4111", **holder.headers)
    assert response.status_code in (200, 201), response.content[:300]
    stored = IdempotencyKey.objects.get()
    assert stored.key not in (hashlib.sha256(b"555-0100-4111").hexdigest(), "555-0100-4111")


def test_logs_redact_numbers_of_six_digits_or_more():
    assert redact_target("/api/v1/x", "limit=5&offset=123456") == "/api/v1/…?limit=5&offset=…"
    assert redact_text("call +1 415-555-0100, pid 4242 on 2026-12-01") == "call …, pid 4242 on 2026-12-01"
    assert redact_text("card 4111 1111 1111 1111") == "card …"


@pytest.mark.django_db
def test_the_lockout_table_keeps_digests_of_usernames_and_headers():
    from axes.models import AccessAttempt

    User.objects.create_superuser("root", "root@example.com", "right-password-123")
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (call me on +1 415 555 0199)")
    client.post("/admin/login/", {"username": "jane.doe@example.com", "password": "wrong"})
    attempt = AccessAttempt.objects.get()
    assert "jane" not in attempt.username and attempt.username.startswith("u:")
    assert "555" not in attempt.user_agent and "Mozilla" not in attempt.user_agent
