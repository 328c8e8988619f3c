"""Recall by entity: GET /entities counts only what the caller may see; ``entity`` restricts search and lists to the
rows about one placeholder or subject; a clear value maps to its placeholder; unknown is empty, malformed is 400."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from memory.models import Exchange, Experience
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db

PLACEHOLDER = re.compile(r"<PERSON_[0-9a-f]{6}>")


@pytest.fixture
def team(api_client, make_agent):
    """Ana and Ben share module ops. Ana's personal session and a module session mention Maria Lopez; Ben's personal
    session mentions her three times (Ana may not see it)."""
    ana = make_agent(name="ana", modules=["ops"])
    ben = make_agent(name="ben", modules=["ops"])
    mine = post_session(api_client, ana)["id"]
    shared = post_session(api_client, ana, module="ops")["id"]
    other = post_session(api_client, ben)["id"]
    said = {
        "mine": post_exchanges(api_client, ana, mine, [
            {"user": "My colleague Maria Lopez reviews every database migration.", "assistant": "Good to know."},
            {"user": "The staging cluster runs on three nodes.", "assistant": "Noted."}]),
        "shared": post_exchanges(api_client, ana, shared, [
            {"user": "Maria Lopez owns the on-call rotation for the ops team.", "assistant": "Noted."}]),
        "other": post_exchanges(api_client, ben, other, [
            {"user": f"Maria Lopez asked me about the budget, take {n}.", "assistant": "OK."} for n in range(3)]),
    }
    placeholder = PLACEHOLDER.search(said["mine"][0]["user"]).group(0)
    # one person, one placeholder across sessions and agents
    assert all(placeholder in x["user"] for rows in said.values() for x in rows if "staging" not in x["user"])
    assert "Maria" not in str(said)
    return {"ana": ana, "ben": ben, "said": said, "placeholder": placeholder}


def _entities(api_client, holder, query=""):
    response = api_client.get(f"/api/v1/entities{query}", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


def test_entities_count_only_visible_rows(api_client, team):
    ana, ben, placeholder = team["ana"], team["ben"], team["placeholder"]
    make_memories(Exchange.objects.get(pk=team["said"]["mine"][0]["id"]))  # an episode and an item about her
    rows = {(r["kind"], r["value"]): r for r in _entities(api_client, ana)["results"]}
    maria = rows[("placeholder", placeholder)]
    # Ana sees her own two mentions (one personal, one module); Ben's three personal ones are not counted
    assert (maria["exchanges"], maria["episodes"], maria["experiences"]) == (2, 1, 1)
    assert rows[("subject", "topic")]["experiences"] == 1 and rows[("subject", "topic")]["exchanges"] == 1
    ben_rows = {(r["kind"], r["value"]): r for r in _entities(api_client, ben)["results"]}
    # Ben: his three and the module one; nothing of Ana's personal session (not the item, not its subject)
    assert ben_rows[("placeholder", placeholder)]["exchanges"] == 4
    assert ben_rows[("placeholder", placeholder)]["episodes"] == 0
    assert ("subject", "topic") not in ben_rows
    # kind filter and pagination like the other lists
    only = _entities(api_client, ana, "?kind=subject&limit=1")
    assert only["count"] == 1 and only["results"][0]["kind"] == "subject" and only["next"] is None
    assert api_client.get("/api/v1/entities?kind=nope", **ana.headers).status_code == 400
    assert api_client.get("/api/v1/entities?limit=0", **ana.headers).status_code == 400


def test_entity_filter_on_search_and_lists(api_client, team):
    ana, placeholder = team["ana"], team["placeholder"]
    _, item = make_memories(Exchange.objects.get(pk=team["said"]["mine"][0]["id"]))
    _, unrelated = make_memories(Exchange.objects.get(pk=team["said"]["mine"][1]["id"]))
    about = {str(x["id"]) for x in team["said"]["mine"][:1] + team["said"]["shared"]}

    body = api_client.post("/api/v1/search", {"query": "who reviews the database migrations", "entity": placeholder},
                           format="json", **ana.headers).json()
    assert {x["id"] for x in body["exchanges"]} == about
    assert {x["id"] for x in body["experiences"]} == {str(item.pk)}
    assert placeholder in body["context"] and "three nodes" not in body["context"]

    listed = api_client.get(f"/api/v1/exchanges?entity={quote(placeholder)}", **ana.headers).json()
    assert {x["id"] for x in listed["results"]} == about
    experiences = api_client.get(f"/api/v1/experiences?entity={quote(placeholder)}", **ana.headers).json()
    assert {x["id"] for x in experiences["results"]} == {str(item.pk)}
    episodes = api_client.get(f"/api/v1/episodes?entity={quote(placeholder)}", **ana.headers).json()
    assert episodes["count"] == 1
    # a subject: the items named so, and the exchanges they were drawn from
    Experience.objects.filter(pk=unrelated.pk).update(subject="staging cluster")
    by_subject = api_client.get("/api/v1/exchanges?entity=Staging%20Cluster", **ana.headers).json()
    assert [x["id"] for x in by_subject["results"]] == [team["said"]["mine"][1]["id"]]


def test_a_clear_value_maps_to_its_placeholder(api_client, team):
    ana, placeholder = team["ana"], team["placeholder"]
    body = api_client.post("/api/v1/search", {"query": "who reviews migrations", "entity": "Maria Lopez"},
                           format="json", **ana.headers).json()
    assert body["exchanges"] and all(placeholder in x["user"] for x in body["exchanges"])
    listed = api_client.get("/api/v1/exchanges?entity=Maria%20Lopez", **ana.headers).json()
    assert listed["count"] == 2
    # the list audit keeps the masked form, never the value as sent
    from governance.models import AuditEvent

    event = AuditEvent.objects.filter(object_type="exchange_list").latest("created_at")
    assert "Maria" not in str(event.data) and placeholder in str(event.data)


def test_unknown_entity_is_empty_and_malformed_is_400(api_client, team):
    ana = team["ana"]
    unknown = api_client.post("/api/v1/search", {"query": "anything", "entity": "<PERSON_000000>"}, format="json",
                              **ana.headers)
    assert unknown.status_code == 200
    assert unknown.json()["exchanges"] == [] and unknown.json()["experiences"] == []
    assert api_client.get("/api/v1/experiences?entity=nobody%20we%20know", **ana.headers).json()["count"] == 0
    for bad in ("<PERSON_zz>", "<SECRET:password>", "   ", "x" * 301):
        response = api_client.post("/api/v1/search", {"query": "anything", "entity": bad}, format="json",
                                   **ana.headers)
        assert response.status_code == 400, bad
        assert api_client.get(f"/api/v1/exchanges?entity={quote(bad)}", **ana.headers).status_code == 400
    assert api_client.post("/api/v1/search", {"query": "x", "entity": 5}, format="json",
                           **ana.headers).status_code == 400


def test_listing_entities_is_audited_without_naming_them(api_client, team):
    """A list read like the others (who, when, which filters), but no entity in the event: a forget of a subject must
    not find it in the trail afterwards."""
    from governance.models import AuditEvent

    ana, placeholder = team["ana"], team["placeholder"]
    _entities(api_client, ana, "?kind=placeholder")
    event = AuditEvent.objects.filter(object_type="entity_list").latest("id")
    assert event.action == "read" and event.actor_agent_id == ana.agent.pk
    assert event.data["filters"] == {"kind": "placeholder"} and event.source_ids == []
    assert placeholder not in str(event.data) and placeholder not in event.reason
