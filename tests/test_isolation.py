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


# --- consolidation never widens a scope (issue 12, observation 1) ----------------------------------------------

# X1's personal exchanges on one topic, each carrying words that appear nowhere else (traceable if they leak).
PERSONAL_MARATHON = [
    ("I'm training for the autumn marathon with my hamstring physiotherapy. Can you make me a marathon training plan?",
     "Sure, here is a 16-week marathon training plan with three runs a week and a long run on Sundays."),
    ("For my marathon training plan, how long should this Sunday's long run be, given my fragile hamstring?",
     "In week 3 of your marathon training plan the long run is 18 km at an easy pace."),
    ("My hamstring hurts after the long run in my marathon training. Should I change the marathon plan?",
     "Take two rest days, then resume the marathon training plan with a shorter long run."),
    ("What should I eat before the long runs in my marathon training plan? I like porridge with blueberries.",
     "Before long marathon training runs eat porridge and a banana two hours ahead."),
]
MODULE_MARATHON = ("For the marathon training plan, should the long runs be in the early morning before work?",
                   "Morning runs fit the marathon training plan; do the long run early on Sunday.")
PERSONAL_MARKERS = ("hamstring", "physiotherapy", "porridge", "blueberries")


def _everything_seen(client, holder, queries):
    """All text an agent gets back: lists, details of every listed item, search hits and the context block."""
    texts = []
    for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences"):
        body = client.get(url, **holder.headers).json()
        texts.append(str(body["results"]))
        for row in body["results"]:
            detail = client.get(f"{url}/{row['id']}", **holder.headers)
            assert detail.status_code == 200
            texts.append(str(detail.json()))
    for query in queries:
        body = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers).json()
        texts.append(str(body))
    return "\n".join(texts).lower()


def test_personal_exchanges_never_reach_module_scope_through_consolidation(
        api_client, make_agent, settings, django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation_mode="online", llm_base_url="")
    x1 = make_agent(name="x1", modules=["m"])
    x2 = make_agent(name="x2", modules=["m"])
    personal = post_session(api_client, x1)["id"]
    module = post_session(api_client, x1, module="m")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, x1, personal, [{"user": u, "assistant": a, "occurred_at": at(days=i)}
                                                  for i, (u, a) in enumerate(PERSONAL_MARATHON)])
    with django_capture_on_commit_callbacks(execute=True):
        trigger = post_exchanges(api_client, x1, module, [
            {"user": MODULE_MARATHON[0], "assistant": MODULE_MARATHON[1], "occurred_at": at(days=5)}])[0]
    # the topic did ripen and was consolidated (so the test exercises the consolidation path) ...
    batch = ConsolidationBatch.objects.get(agent=x1.agent)
    assert batch.status == "succeeded" and batch.summary["episodes_created"], batch.error
    assert trigger["id"] in batch.summary["exchanges"]
    # ... but nothing it wrote from X1's personal text is module-scoped
    from memory.models import Episode, Experience

    for model in (Episode, Experience):
        for row in model.objects.filter(scope="module"):
            text = str([getattr(row, f, "") for f in ("title", "narrative", "subject", "statement")]).lower()
            assert not [m for m in PERSONAL_MARKERS if m in text], (model.__name__, text)
    seen = _everything_seen(api_client, x2, ["marathon training plan", "long run Sunday", "hamstring hurts",
                                             "what to eat before long runs"])
    assert "should the long runs be in the early morning" in seen  # X2 does see the module exchange
    assert not [m for m in PERSONAL_MARKERS if m in seen]
    # X1 still sees its own consolidated memory of the topic
    assert "hamstring" in _everything_seen(api_client, x1, ["marathon training plan"])
