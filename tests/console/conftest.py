"""Fixtures of the console tests (the admin, review and governance pages): a logged-in admin, a reviewer, a module rule
with evidence."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from memory.gateways.embeddings import get_embedder
from memory.models import Exchange, Experience, ExperienceEvidence
from memory.tests.factories import at, post_exchanges, post_session


@pytest.fixture
def admin_client(client, db):
    user = User.objects.create_superuser("admin", "admin@example.com", "pw-123456")
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def reviewer(db):
    return User.objects.create_user("reviewer", password="x")


def stored_rule(*, holder, api_client, statement: str, user_texts: list[str], scope: str = "module",
                module: str | None = "ops", type_: str = "constraint", day0: int = 0) -> Experience:
    """An item backed by stored exchanges of ``holder`` (one session per text), as consolidation leaves it."""
    stored = []
    for i, text in enumerate(user_texts):
        session = post_session(api_client, holder, **({"module": module} if scope == "module" else {}))["id"]
        stored += post_exchanges(api_client, holder, session, [{"user": text, "assistant": "Noted.",
                                                                 "occurred_at": at(days=day0 + i)}])
    first = Exchange.objects.get(pk=stored[0]["id"])
    embedder = get_embedder()
    item = Experience.objects.create(
        project_id=first.project_id, owner_agent_id=first.owner_agent_id, module_id=first.module_id, scope=scope,
        type=type_, subject="rule", statement=statement, embedding=embedder.embed_one(f"rule: {statement}"),
        embedding_model=embedder.model_id, valid_from=first.occurred_at)
    ExperienceEvidence.objects.bulk_create([ExperienceEvidence(experience=item, exchange_id=e["id"])
                                            for e in stored])
    Exchange.objects.filter(pk__in=[e["id"] for e in stored]).update(state="consolidated")
    return item
