"""Isolation on every endpoint: another agent's personal memory and another project's data answer 404 (details)
and never appear in lists or search; module items are visible to module members only."""

import pytest

from governance.models import ConsolidationBatch
from memory.models import Exchange
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db

SECRET_TOPIC = "The vault combination for the archive room is kept in the blue notebook"


@pytest.fixture
def world(api_client, make_agent):
    owner = make_agent(project="acme", name="owner", modules=["ops"])
    peer = make_agent(project="acme", name="peer", modules=["ops"])  # same project, same module
    stranger = make_agent(project="acme", name="stranger")  # same project, no module
    outsider = make_agent(project="globex", name="outsider", modules=["ops"])  # other project, same module name
    personal = post_session(api_client, owner)
    module = post_session(api_client, owner, module="ops")
    p_ex = post_exchanges(api_client, owner, personal["id"], [
        {"user": SECRET_TOPIC, "assistant": "Understood.", "occurred_at": at()}])[0]
    m_ex = post_exchanges(api_client, owner, module["id"], [
        {"user": "The ops runbook says restart the queue worker first", "assistant": "Noted.",
         "occurred_at": at(hours=1)}])[0]
    p_epi, p_exp = make_memories(Exchange.objects.get(pk=p_ex["id"]))
    m_epi, m_exp = make_memories(Exchange.objects.get(pk=m_ex["id"]))
    batch = ConsolidationBatch.objects.create(project=owner.agent.project, agent=owner.agent, status="succeeded")
    return {
        "owner": owner, "peer": peer, "stranger": stranger, "outsider": outsider,
        "personal": {"session": personal["id"], "exchange": p_ex["id"], "episode": str(p_epi.pk),
                     "experience": str(p_exp.pk)},
        "module": {"session": module["id"], "exchange": m_ex["id"], "episode": str(m_epi.pk),
                   "experience": str(m_exp.pk)},
        "batch": str(batch.pk),
    }


def _detail_urls(ids):
    return [f"/api/v1/sessions/{ids['session']}", f"/api/v1/exchanges/{ids['exchange']}",
            f"/api/v1/episodes/{ids['episode']}", f"/api/v1/experiences/{ids['experience']}"]


def _list_ids(client, holder):
    seen = set()
    for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences",
                "/api/v1/consolidations"):
        response = client.get(url, **holder.headers)
        assert response.status_code == 200
        seen |= {row["id"] for row in response.json()["results"]}
    return seen


def _search_ids(client, holder, query):
    response = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers)
    assert response.status_code == 200
    body = response.json()
    return {row["id"] for layer in ("exchanges", "episodes", "experiences") for row in body[layer]}, body["context"]


def _assert_hidden(client, holder, ids, query):
    for url in _detail_urls(ids):
        response = client.get(url, **holder.headers)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "not_found"
    # writes on hidden objects: 404 as well, and nothing changes
    assert client.post(f"/api/v1/sessions/{ids['session']}/exchanges", {"user": "x", "assistant": "y"},
                       format="json", **holder.headers).status_code == 404
    assert client.post(f"/api/v1/sessions/{ids['session']}/close", **holder.headers).status_code == 404
    assert client.patch(f"/api/v1/experiences/{ids['experience']}", {"statement": "overwritten"}, format="json",
                        **holder.headers).status_code == 404
    assert client.delete(f"/api/v1/experiences/{ids['experience']}", **holder.headers).status_code == 404
    listed = _list_ids(client, holder)
    assert not listed & set(ids.values())
    found, context = _search_ids(client, holder, query)
    assert not found & set(ids.values())
    return context


def test_owner_sees_everything(api_client, world):
    owner = world["owner"]
    for ids in (world["personal"], world["module"]):
        for url in _detail_urls(ids):
            assert api_client.get(url, **owner.headers).status_code == 200, url
    listed = _list_ids(api_client, owner)
    assert set(world["personal"].values()) <= listed and set(world["module"].values()) <= listed
    assert world["batch"] in listed
    found, _ = _search_ids(api_client, owner, "vault combination archive room")
    assert world["personal"]["exchange"] in found and world["personal"]["experience"] in found
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **owner.headers).status_code == 200


def test_peer_in_same_project_and_module(api_client, world):
    peer = world["peer"]
    context = _assert_hidden(api_client, peer, world["personal"], "vault combination archive room")
    assert "vault combination" not in context
    # module items are shared with module members (read), sessions stay the owner's to write
    for url in _detail_urls(world["module"]):
        assert api_client.get(url, **peer.headers).status_code == 200, url
    assert api_client.post(f"/api/v1/sessions/{world['module']['session']}/exchanges",
                           {"user": "x", "assistant": "y"}, format="json", **peer.headers).status_code == 404
    found, _ = _search_ids(api_client, peer, "ops runbook restart queue worker")
    assert world["module"]["exchange"] in found
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **peer.headers).status_code == 404


def test_stranger_without_module(api_client, world):
    stranger = world["stranger"]
    _assert_hidden(api_client, stranger, world["personal"], "vault combination archive room")
    _assert_hidden(api_client, stranger, world["module"], "ops runbook restart queue worker")


def test_other_project_sees_nothing(api_client, world):
    outsider = world["outsider"]
    _assert_hidden(api_client, outsider, world["personal"], "vault combination archive room")
    _assert_hidden(api_client, outsider, world["module"], "ops runbook restart queue worker")
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **outsider.headers).status_code == 404
    assert _list_ids(api_client, outsider) == set()
