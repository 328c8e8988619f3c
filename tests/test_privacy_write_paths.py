"""No planted secret or email survives any write path: exchanges (texts and metadata), session metadata, experience
edits, review edits — not in the database, the embedded text form, nor any API response or search result."""

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.tests.factories import at
from testing.dump import database_dump

pytestmark = pytest.mark.django_db

WORDS = st.sampled_from(["please", "remember", "the", "deploy", "config", "for", "tomorrow", "our", "staging",
                         "server", "uses", "this", "value", "ok", "thanks", "note", "and", "then"])
PROSE = st.lists(WORDS, min_size=0, max_size=8).map(" ".join)
HEX = "0123456789abcdef"
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _tok(alphabet, n):
    return st.text(alphabet=alphabet, min_size=n, max_size=n)


SECRETS = st.one_of(
    _tok(ALNUM, 40).map(lambda s: f"sk-proj-{s}"),
    _tok(ALNUM, 36).map(lambda s: f"ghp_{s}"),
    _tok("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16).map(lambda s: f"AKIA{s}"),
    _tok(ALNUM, 24).map(lambda s: f"sk_live_{s}"),
    _tok(ALNUM, 35).map(lambda s: f"AIza{s}"),
    _tok(ALNUM, 20).map(lambda s: f"glpat-{s}"),
    st.tuples(_tok(ALNUM, 10), _tok(ALNUM, 12)).map(lambda t: f"postgres://admin:{t[0]}@db.internal:5432/{t[1]}"),
    _tok(ALNUM, 14).map(lambda s: f"password={s}9!"),
)
EMAILS = st.tuples(st.text(alphabet="abcdefghij", min_size=3, max_size=8),
                   st.sampled_from(["example.com", "corp.io", "mail.example.org"])).map(lambda t: f"{t[0]}@{t[1]}")


def _secret_core(secret: str) -> str:
    """The part that must never be stored (for key=value forms, the value)."""
    return secret.split("=", 1)[1] if secret.startswith("password=") else secret


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(before=PROSE, after=PROSE, secret=SECRETS, email=EMAILS)
def test_no_secret_or_email_survives_any_write_path(api_client, make_agent, before, after, secret, email):
    holder = make_agent()
    headers = holder.headers
    text = f"{before} {secret} {after} contact {email}".strip()
    session = api_client.post("/api/v1/sessions", {"metadata": {"note": text}}, format="json", **headers).json()
    response = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {
        "user": text, "assistant": f"Saved. I will write to {email}.", "occurred_at": at(),
        "metadata": {"raw": text, "nested": [{"token": secret}]}}, format="json", **headers)
    assert response.status_code == 201
    exchange_id = response.json()["exchanges"][0]["id"]

    from memory.models import Exchange
    from memory.tests.factories import make_memories

    _, experience = make_memories(Exchange.objects.get(pk=exchange_id))
    edited = api_client.patch(f"/api/v1/experiences/{experience.pk}", {"statement": f"Use {secret} for {email}"},
                              format="json", **headers)
    assert edited.status_code == 200

    from governance.models import ConsolidationBatch
    from memory.review.services import review_approve, review_item_create

    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    item = review_item_create(experience=experience, batch=batch, sessions=3)
    reviewer = User.objects.create_user(f"r{User.objects.count()}", password="x")
    review_approve(item=item, user=reviewer, edited_statement=f"Rule: mail {email} with {secret}")

    search = api_client.post("/api/v1/search", {"query": text}, format="json", **headers)
    responses = [response.content, edited.content, search.content,
                 api_client.get(f"/api/v1/exchanges/{exchange_id}", **headers).content,
                 api_client.get(f"/api/v1/sessions/{session['id']}", **headers).content]
    stored = database_dump()
    for needle in (_secret_core(secret), email):
        assert needle not in stored
        for body in responses:
            assert needle.encode() not in body
