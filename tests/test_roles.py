"""Roles on every endpoint (an endpoint without a role check is open to every key): a matrix of every API endpoint and
method × every set of roles. The decision table below is the specification; an endpoint added without a decision fails
``test_every_endpoint_has_a_role_decision``."""

from __future__ import annotations

import itertools
import uuid

import pytest
from django.urls import get_resolver, reverse

from agents.models import AgentRole
from governance.models import AuditEvent
from memory.models import Exchange, Experience, Session
from memory.tests.factories import at, make_memories, post_exchanges, post_session
from tests.api_routes import api_operations

pytestmark = pytest.mark.django_db

KEY_ONLY = None  # a valid API key is enough
# (url name, method) -> the role it needs
DECISIONS: dict[tuple[str, str], str | tuple[str, ...] | None] = {
    ("agents-me", "get"): KEY_ONLY,
    ("sessions", "get"): AgentRole.READER,
    ("sessions", "post"): AgentRole.WRITER,
    ("session-detail", "get"): AgentRole.READER,
    # forget: writer on one's own personal memory; the service asks reviewer or operator for anything wider
    ("session-detail", "delete"): AgentRole.WRITER,
    ("forget", "post"): AgentRole.WRITER,
    ("session-exchanges", "post"): AgentRole.WRITER,
    ("session-close", "post"): AgentRole.WRITER,
    ("exchanges", "get"): AgentRole.READER,
    ("exchange-detail", "get"): AgentRole.READER,
    ("episodes", "get"): AgentRole.READER,
    ("episode-detail", "get"): AgentRole.READER,
    ("experiences", "get"): AgentRole.READER,
    ("experience-detail", "get"): AgentRole.READER,
    # answers with the item it changed: a writer that may not read gets nothing through it
    ("experience-detail", "patch"): (AgentRole.WRITER, AgentRole.READER),
    ("experience-detail", "delete"): AgentRole.WRITER,
    ("search", "post"): AgentRole.READER,
    ("entities", "get"): AgentRole.READER,  # counted over what the caller may read
    ("feedback", "post"): AgentRole.READER,  # feedback on one's own searches: whoever may search
    ("metrics", "get"): AgentRole.OPERATOR,  # governance figures of the whole project
    ("export", "get"): KEY_ONLY,  # the agent's own data (what it sent, what is personal to it): any of its keys
    ("consolidations", "get"): AgentRole.READER,
    ("consolidation-detail", "get"): AgentRole.READER,
    ("consolidations-run", "post"): AgentRole.OPERATOR,
}
ROLE_SETS = [frozenset(c) for n in range(len(AgentRole.values) + 1)
             for c in itertools.combinations(AgentRole.values, n)]


def _api_endpoints() -> dict[tuple[str, str], object]:
    """Every (url name, HTTP method) the API serves, found in the URL configuration itself."""
    return {(name, method): view for name, _route, method, view in api_operations()}


def test_every_endpoint_has_a_role_decision():
    endpoints = _api_endpoints()
    assert set(endpoints) == set(DECISIONS), {"undecided": set(endpoints) - set(DECISIONS),
                                              "gone": set(DECISIONS) - set(endpoints)}
    for (name, method), view in endpoints.items():
        assert view.required_roles[method] == DECISIONS[(name, method)], (name, method)


def _url(name):
    pattern = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/")
    for sub in pattern.url_patterns:
        for p in sub.url_patterns:
            if p.name == name:
                return reverse(name, kwargs={k: str(uuid.uuid4()) for k in p.pattern.converters})
    raise AssertionError(name)


def _call(client, method, url, holder):
    headers = holder.headers if holder is not None else {}
    return getattr(client, method)(url, {}, format="json", **headers)


@pytest.mark.parametrize("roles", ROLE_SETS, ids=lambda r: "+".join(sorted(r)) or "none")
@pytest.mark.parametrize("endpoint", sorted(DECISIONS), ids=lambda e: f"{e[1].upper()} {e[0]}")
def test_role_matrix(api_client, make_agent, endpoint, roles):
    name, method = endpoint
    needed = DECISIONS[endpoint]
    holder = make_agent(roles=sorted(roles))
    before = AuditEvent.objects.count()
    response = _call(api_client, method, _url(name), holder)
    all_needed = needed if isinstance(needed, tuple) else (needed,)
    missing = [r for r in all_needed if r is not KEY_ONLY and r not in roles]
    if not missing:
        assert response.status_code != 403, response.content
        return
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "missing_role" and f"'{missing[0]}'" in error["message"]
    assert error["details"] == {"required_role": missing[0]}
    assert AuditEvent.objects.count() == before  # refused before anything ran


@pytest.mark.parametrize("endpoint", sorted(DECISIONS), ids=lambda e: f"{e[1].upper()} {e[0]}")
def test_no_key_is_401_everywhere(api_client, endpoint):
    response = _call(api_client, endpoint[1], _url(endpoint[0]), None)
    assert response.status_code == 401 and response.json()["error"]["code"] == "not_authenticated"


def test_observed_reader_only_agent_cannot_write(api_client, make_agent):
    """Observation 3: a reader-only agent created a session, ingested, and edited and deleted a module experience
    it did not own; writer-only and role-less agents listed and searched."""
    owner = make_agent(name="owner", modules=["ops"])
    session = post_session(api_client, owner, module="ops")
    stored = post_exchanges(api_client, owner, session["id"], [{"user": "The ops runbook: restart the worker first",
                                                                "assistant": "Noted.", "occurred_at": at()}])
    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    reader = make_agent(name="reader", modules=["ops"], roles=["reader"])
    sessions, exchanges = Session.objects.count(), Exchange.objects.count()
    assert api_client.post("/api/v1/sessions", {}, format="json", **reader.headers).status_code == 403
    assert api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {"user": "x", "assistant": "y"},
                           format="json", **reader.headers).status_code == 403
    assert api_client.patch(f"/api/v1/experiences/{experience.pk}", {"statement": "overwritten"}, format="json",
                            **reader.headers).status_code == 403
    assert api_client.delete(f"/api/v1/experiences/{experience.pk}", **reader.headers).status_code == 403
    experience.refresh_from_db()
    assert experience.status == "active" and experience.statement.startswith("The ops runbook")
    assert (Session.objects.count(), Exchange.objects.count()) == (sessions, exchanges)
    assert Experience.objects.count() == 1
    assert api_client.get(f"/api/v1/experiences/{experience.pk}", **reader.headers).status_code == 200
    for roles in (["writer"], []):
        other = make_agent(modules=["ops"], roles=roles)
        assert api_client.get("/api/v1/experiences", **other.headers).status_code == 403
        assert api_client.post("/api/v1/search", {"query": "runbook"}, format="json",
                               **other.headers).status_code == 403
