"""Masking on the API side (any field that skips it is a side door): one masking boundary for every field an agent
controls, errors that never repeat input, logs without agent input, the pseudonym registry, a secret split across
exchanges, the vault's reveal page.

Each test plants a secret or a contact value in one side door and looks for it in a full dump of the database and
in every response body.
"""

from __future__ import annotations

import base64
import logging

import pytest
from django.contrib.auth.models import Permission, User

from governance.models import AuditEvent, VaultEntry
from memory.tests.factories import at, make_memories, post_exchanges, post_session
from testing.dump import database_dump

pytestmark = pytest.mark.django_db

GITHUB = "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"
STRIPE = "sk_live_4eC39HqLyjWDarjtT1zdp7dc9Kx2"
EMAIL = "olga.krylova@example.com"
CARD = 4111111111111111


def assert_nowhere(needles, *responses):
    dump = database_dump()
    for needle in needles:
        assert needle not in dump, f"{needle!r} stored"
        for response in responses:
            assert needle.encode() not in response.content, f"{needle!r} in a response"


def test_metadata_keys_and_numbers_are_masked(api_client, make_agent):
    holder = make_agent()
    session = api_client.post("/api/v1/sessions", {"metadata": {EMAIL: "owner", GITHUB: {"nested": True}}},
                              format="json", **holder.headers)
    assert session.status_code == 201
    sid = session.json()["id"]
    stored = api_client.post(f"/api/v1/sessions/{sid}/exchanges", {
        "user": "hello", "assistant": "hi", "occurred_at": at(),
        "metadata": {"card": CARD, STRIPE: "x", "n": 42, "ok": True, "none": None}}, format="json", **holder.headers)
    assert stored.status_code == 201
    metadata = stored.json()["exchanges"][0]["metadata"]
    assert metadata["n"] == 42 and metadata["ok"] is True and metadata["none"] is None  # untouched types
    assert metadata["card"].startswith("<CREDIT_CARD_")
    assert "<SECRET:stripe_key>" in metadata
    listed = api_client.get(f"/api/v1/sessions/{sid}", **holder.headers)
    assert_nowhere([EMAIL, GITHUB, STRIPE, str(CARD)], session, stored, listed)


def test_colliding_masked_keys_are_both_kept(api_client, make_agent):
    holder = make_agent()
    response = api_client.post("/api/v1/sessions", {"metadata": {GITHUB: 1, STRIPE[:-2] + "Ab": 2}}, format="json",
                               **holder.headers)
    metadata = response.json()["metadata"]
    assert sorted(metadata.values()) == [1, 2]
    assert len(metadata) == 2 and all(k.startswith("<SECRET:") for k in metadata)


def test_external_id_is_masked_and_the_conflict_does_not_repeat_it(api_client, make_agent):
    holder = make_agent()
    first = api_client.post("/api/v1/sessions", {"external_id": f"chat-{EMAIL}"}, format="json", **holder.headers)
    assert first.status_code == 201 and EMAIL not in first.json()["external_id"]
    again = api_client.post("/api/v1/sessions", {"external_id": f"chat-{EMAIL}"}, format="json", **holder.headers)
    assert again.status_code == 409 and again.json()["error"]["code"] == "duplicate_session"
    secret = api_client.post("/api/v1/sessions", {"external_id": GITHUB}, format="json", **holder.headers)
    assert secret.status_code == 201
    assert_nowhere([EMAIL, GITHUB], first, again, secret)


def _experience(api_client, holder):
    from memory.models import Exchange

    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "we deploy on fridays", "assistant": "ok",
                                                                  "occurred_at": at()}])
    return make_memories(Exchange.objects.get(pk=stored[0]["id"]))[1]


def test_edit_and_delete_reasons_are_masked_and_never_in_the_url(api_client, make_agent):
    holder = make_agent()
    experience = _experience(api_client, holder)
    edited = api_client.patch(f"/api/v1/experiences/{experience.pk}",
                              {"confidence": 0.5, "reason": f"as {EMAIL} said, key {GITHUB}"}, format="json",
                              **holder.headers)
    assert edited.status_code == 200
    in_url = api_client.delete(f"/api/v1/experiences/{experience.pk}?reason={STRIPE}", **holder.headers)
    assert in_url.status_code == 400 and in_url.json()["error"]["code"] == "reason_in_url"
    experience.refresh_from_db()
    assert experience.status == "active"  # refused: nothing changed
    deleted = api_client.delete(f"/api/v1/experiences/{experience.pk}", {"reason": f"leaked {STRIPE}"},
                                format="json", **holder.headers)
    assert deleted.status_code == 204
    reasons = list(AuditEvent.objects.filter(object_type="experience").values_list("reason", flat=True))
    assert any("<SECRET:github_token>" in r and "<EMAIL_ADDRESS_" in r for r in reasons)
    assert any("<SECRET:stripe_key>" in r for r in reasons)
    assert_nowhere([EMAIL, GITHUB, STRIPE], edited, in_url, deleted)


@pytest.mark.parametrize("body", [
    {"query": "x", "types": [GITHUB]},
    {"query": "x", "types": "ghp_notalist_" + GITHUB[4:]},
    {"query": "x", "k_sub": GITHUB},
    {"query": "x", "since": GITHUB},
    {"query": "", "token_budget": GITHUB},
])
def test_a_rejected_value_is_not_repeated_in_the_error(api_client, make_agent, body):
    holder = make_agent()
    response = api_client.post("/api/v1/search", body, format="json", **holder.headers)
    assert response.status_code == 400
    assert GITHUB[4:] not in response.content.decode()


@pytest.mark.parametrize("path", [
    f"/api/v1/sessions?status={GITHUB}", f"/api/v1/exchanges?session={GITHUB}", f"/api/v1/sessions/{GITHUB}",
    f"/api/v1/episodes?scope={GITHUB}", f"/api/v1/experiences?type={GITHUB}",
])
def test_rejected_filters_and_ids_are_not_repeated(api_client, make_agent, path):
    holder = make_agent()
    response = api_client.get(path, **holder.headers)
    assert 400 <= response.status_code < 500
    assert GITHUB not in response.content.decode()


def test_a_base64_encoded_key_in_a_search_query_is_masked(api_client, make_agent):
    holder = make_agent()
    encoded = base64.b64encode(GITHUB.encode()).decode()
    response = api_client.post("/api/v1/search", {"query": f"find {encoded} in the logs"}, format="json",
                               **holder.headers)
    assert response.status_code == 200
    assert_nowhere([encoded, GITHUB], response)


def test_a_key_split_across_two_exchanges_is_masked(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    head, tail = STRIPE[:15], STRIPE[15:]
    first = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges",
                            {"user": f"first half of the key: {head}", "assistant": "Okay.", "occurred_at": at()},
                            format="json", **holder.headers)
    second = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges",
                             {"user": f"{tail} is the rest", "assistant": "Saved.", "occurred_at": at(hours=1)},
                             format="json", **holder.headers)
    assert first.status_code == second.status_code == 201
    both = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {"exchanges": [
        {"user": f"one more: {GITHUB[:14]}", "assistant": GITHUB[14:], "occurred_at": at(hours=2)}]},
        format="json", **holder.headers)
    assert both.status_code == 201
    assert_nowhere([head, tail, GITHUB[:14], GITHUB[14:]], first, second, both)


def test_secrets_named_like_people_never_reach_the_vault(api_client, make_agent, settings):
    holder = make_agent()
    session = post_session(api_client, holder)
    post_exchanges(api_client, holder, session["id"], [
        {"user": "my db password is Rosebud", "assistant": "Noted, Marianne.", "occurred_at": at()}])
    from core.config import config
    from governance.privacy.vault import decrypt_value

    assert_nowhere(["Rosebud"])
    vaulted = [decrypt_value(e.ciphertext, config().privacy.vault_key) for e in VaultEntry.objects.all()]
    assert vaulted == ["Marianne"]  # the name is revealable, the password is not


def test_registry_accepts_sent_back_placeholders_and_analyses_forged_ones(api_client, make_agent):
    from governance.models import PseudonymEntry
    from governance.selectors import pseudonym_lookup, pseudonyms_registered

    holder = make_agent()
    other = make_agent(project="other")
    session = post_session(api_client, holder)
    [stored] = post_exchanges(api_client, holder, session["id"], [
        {"user": f"write to {EMAIL}", "assistant": "ok", "occurred_at": at()}])
    placeholder = stored["user"].split()[-1]
    assert placeholder.startswith("<EMAIL_ADDRESS_")
    project = holder.agent.project
    assert pseudonym_lookup(project=project, entity_type="EMAIL_ADDRESS", value=EMAIL.upper()) == placeholder
    assert pseudonym_lookup(project=other.agent.project, entity_type="EMAIL_ADDRESS", value=EMAIL) is None
    entry = PseudonymEntry.objects.get(project=project, placeholder=placeholder)
    assert len(entry.digest) == 64 and entry.digest.startswith(placeholder[-7:-1])  # the HMAC, no original
    [again] = post_exchanges(api_client, holder, session["id"], [
        {"user": f"did {placeholder} reply? ask <SECRET:{STRIPE}>", "assistant": "ok", "occurred_at": at(hours=1)}])
    assert placeholder in again["user"] and STRIPE not in again["user"]
    assert pseudonyms_registered(project=project, placeholders=[placeholder, "<EMAIL_ADDRESS_000000>"]) == \
        {placeholder}
    assert_nowhere([EMAIL, STRIPE])


# ---- logs ------------------------------------------------------------------------------------------------------

def test_request_targets_are_redacted_for_the_logs():
    from recmem_site.log_redaction import redact_target, redact_text

    target = redact_target(f"/api/v1/sessions/{GITHUB}/exchanges",
                           f"reason={STRIPE}&limit=5&status=active&{EMAIL}=1&since=2024-01-01T10:00:00Z")
    assert target == "/api/v1/sessions/…/exchanges?reason=…&limit=5&status=active&…=1&since=2024-01-01T10:00:00Z"
    uuid = "3f2a9c1d-4b5e-4f70-8192-a3b4c5d6e7f8"
    assert redact_target(f"/admin/governance/vaultentry/{uuid}/reveal/") == \
        f"/admin/governance/vaultentry/{uuid}/reveal/"
    assert redact_text(f"DELETE /api/v1/experiences/{uuid}?reason={GITHUB} HTTP/1.1") == \
        f"DELETE /api/v1/experiences/{uuid}?reason=… HTTP/1.1"


def test_gunicorn_access_log_line_has_no_agent_input():
    import datetime
    from types import SimpleNamespace

    from gunicorn.config import Config

    from recmem_site.gunicorn_logger import RedactingLogger

    logger = RedactingLogger(Config())
    environ = {"REQUEST_METHOD": "DELETE", "RAW_URI": f"/api/v1/experiences/{GITHUB}?reason={STRIPE}",
               "PATH_INFO": f"/api/v1/experiences/{GITHUB}", "QUERY_STRING": f"reason={STRIPE}",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_USER_AGENT": f"agent {EMAIL}",
               "HTTP_REFERER": f"https://x.io/?t={GITHUB}",
               "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(f"{EMAIL}:pw".encode()).decode()}
    request = SimpleNamespace(headers=[("X-TRACE", GITHUB)])
    response = SimpleNamespace(status="400 Bad Request", sent=12, headers=[])
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))
    line = logger.cfg.access_log_format % atoms
    for needle in (GITHUB, STRIPE, EMAIL):
        assert needle not in line and all(needle not in str(v) for v in atoms.values())
    assert "DELETE /api/v1/experiences/…?reason=… HTTP/1.1" in line


def test_django_request_log_records_are_redacted(api_client, make_agent):
    from recmem_site.log_redaction import RedactRequestFilter

    holder = make_agent()
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    handler = Keep()
    handler.addFilter(RedactRequestFilter())
    log = logging.getLogger("django.request")
    log.addHandler(handler)
    try:
        assert api_client.get(f"/api/v1/sessions/{GITHUB}", **holder.headers).status_code == 404
    finally:
        log.removeHandler(handler)
    assert records and all(GITHUB not in r.getMessage() for r in records)


def test_the_console_handler_carries_the_redaction_filter(settings):
    assert "redact_requests" in settings.LOGGING["handlers"]["console"]["filters"]


# ---- vault reveal page -------------------------------------------------------------------------------------------

def test_the_reveal_page_needs_the_vault_view_permission_and_refusals_are_audited(client, make_agent):
    from governance.services.privacy import texts_mask

    holder = make_agent()
    texts_mask(project=holder.agent.project, texts=["Call Jane Fonda please"])
    entry = VaultEntry.objects.get(entity_type="PERSON")
    staff = User.objects.create_user("staff", password="pw-123456", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="reveal_vaultentry"))  # but not view_vaultentry
    client.force_login(staff)
    url = f"/admin/governance/vaultentry/{entry.pk}/reveal/"
    assert client.get(url).status_code == 403
    response = client.post(url, {"reason": "curious"})
    assert response.status_code == 403 and b"Jane Fonda" not in response.content
    refused = AuditEvent.objects.get(action="reveal_refused")
    assert refused.actor_user == staff and refused.data["refused"] == "permission_denied"
    staff.user_permissions.add(Permission.objects.get(codename="view_vaultentry"))
    client.force_login(User.objects.get(pk=staff.pk))
    assert client.get(url).status_code == 200
    shown = client.post(url, {"reason": "data subject request"})
    assert shown.status_code == 200 and b"Jane Fonda" in shown.content
