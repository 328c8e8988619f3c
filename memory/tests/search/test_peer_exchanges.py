"""Another agent's raw words in a search: only where the team stands behind them (the poisoning defence's structural
half, memory/trust.py ``PEER_RAW_TRUST``): evidence of a corroborated or reviewed item, or released by a reviewer.
Its own exchanges an agent searches at once; a peer's are listed (``GET /exchanges``) but never injected unvouched."""

from __future__ import annotations

import pytest

from memory.gateways.embeddings import get_embedder
from memory.models import Exchange, Experience, ExperienceEvidence
from memory.tests.factories import post_exchanges, post_session

pytestmark = pytest.mark.django_db

QUERY = "when is the staging database rebuilt"


def _search(client, holder, query=QUERY):
    response = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


def _exchange_ids(body):
    return {h["id"] for h in body["exchanges"]}


@pytest.fixture
def team(make_agent):
    roles = ["writer", "reader", "operator"]
    return (make_agent(name="atlas", modules=["platform"], roles=roles),
            make_agent(name="birch", modules=["platform"], roles=roles))


@pytest.fixture
def said(api_client, team):
    a, _ = team
    session = post_session(api_client, a, module="platform")["id"]
    return session, post_exchanges(api_client, a, session, [
        {"user": "Who owns the nightly jobs?", "assistant": "The platform team owns them, Odile runs the rota."},
        {"user": "The staging database is rebuilt every Sunday night at 23:00 by the nightly job.",
         "assistant": "Noted: staging is rebuilt on Sundays at 23:00."},
        {"user": "And the staging database snapshots?", "assistant": "Kept for a week after each rebuild."}])


def test_a_peers_raw_exchange_is_listed_but_not_searched_until_the_team_stands_behind_it(api_client, team, said):
    a, b = team
    session, stored = said
    rebuilt = stored[1]["id"]
    assert rebuilt in _exchange_ids(_search(api_client, a))  # its author searches it at once
    theirs = _search(api_client, b)
    assert not _exchange_ids(theirs) & {s["id"] for s in stored}
    assert "Sunday" not in theirs["context"] and "snapshots" not in theirs["context"]
    listed = api_client.get("/api/v1/exchanges", {"session": session}, **b.headers).json()["results"]
    assert {s["id"] for s in stored} <= {e["id"] for e in listed}  # browsing the module's record shows it

    exchange = Exchange.objects.get(pk=rebuilt)
    item = Experience.objects.create(  # an item drawn from it, in its scope, in words of its own
        type="fact", subject="staging database", statement="Staging is rebuilt weekly.",
        embedding=get_embedder().embed_one("Staging is rebuilt weekly."), embedding_model=get_embedder().model_id,
        project_id=exchange.project_id, owner_agent_id=exchange.owner_agent_id, module_id=exchange.module_id,
        scope=exchange.scope)
    ExperienceEvidence.objects.create(experience=item, exchange=exchange)
    for trust, searched in (("user", False), ("assistant", False), ("tool", False), ("corroborated", True),
                            ("reviewed", True)):
        Experience.objects.filter(pk=item.pk).update(trust=trust)
        body = _search(api_client, b)
        assert (rebuilt in {h["id"] for h in body["exchanges"]}) is searched, trust
        assert ("Sunday night at 23:00" in body["context"]) is searched, trust
        # its session neighbours are no more vouched for than before: context expansion never brings them
        assert "Odile" not in body["context"] and "snapshots" not in body["context"], trust
    Experience.objects.filter(pk=item.pk).update(status="superseded")  # what the team no longer stands behind
    assert rebuilt not in _exchange_ids(_search(api_client, b))


def test_every_visible_exchange_is_searched_when_the_operator_opens_it(api_client, team, said, settings):
    settings.RECMEM = settings.RECMEM.replace(search__peer_exchanges="all")
    _, b = team
    _, stored = said
    body = _search(api_client, b)
    assert stored[1]["id"] in {h["id"] for h in body["exchanges"]} and "Sunday" in body["context"]

