"""Read APIs, edits and search options."""

import pytest

from memory.models import Exchange, Experience, MemoryVersion
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)
    rows = post_exchanges(api_client, holder, session["id"], [
        {"user": "I moved to Porto in 2021 for a job at a bakery", "assistant": "Porto is lovely.",
         "occurred_at": at(days=0)},
        {"user": "My favourite dessert is pastel de nata", "assistant": "A classic!", "occurred_at": at(days=10)},
        {"user": "I run 5 km every Tuesday morning", "assistant": "Nice habit.", "occurred_at": at(days=20)},
    ])
    memories = [make_memories(Exchange.objects.get(pk=r["id"])) for r in rows]
    return holder, session, rows, memories


def test_lists_filter_and_paginate(api_client, stored):
    holder, session, rows, memories = stored
    page = api_client.get("/api/v1/exchanges?limit=2", **holder.headers).json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    since = api_client.get(f"/api/v1/exchanges?since={at(days=5).replace('+', '%2B')}", **holder.headers).json()
    assert len(since["results"]) == 2
    assert api_client.get("/api/v1/experiences?type=fact", **holder.headers).json()["count"] == 3
    assert api_client.get("/api/v1/experiences?type=lesson", **holder.headers).json()["count"] == 0
    bad = api_client.get("/api/v1/experiences?type=nonsense", **holder.headers)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    bad = api_client.get("/api/v1/episodes?status=weird", **holder.headers)
    assert bad.status_code == 400
    detail = api_client.get(f"/api/v1/episodes/{memories[0][0].pk}", **holder.headers).json()
    assert detail["provenance"]["exchange_ids"] == [rows[0]["id"]]
    assert detail["provenance"]["session_ids"] == [session["id"]]


def test_edit_keeps_a_version_and_delete_hides(api_client, stored):
    holder, _, _, memories = stored
    experience = memories[1][1]
    response = api_client.patch(f"/api/v1/experiences/{experience.pk}",
                                {"statement": "Favourite dessert: pastel de nata, email me at a.b@example.com",
                                 "reason": "clarify"}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 2 and "a.b@example.com" not in body["statement"]  # edits are masked too
    assert MemoryVersion.objects.filter(experience=experience, reason="edit").exists()
    bad = api_client.patch(f"/api/v1/experiences/{experience.pk}", {"confidence": 3}, format="json",
                           **holder.headers)
    assert bad.status_code == 400
    assert api_client.delete(f"/api/v1/experiences/{experience.pk}", **holder.headers).status_code == 204
    assert Experience.objects.get(pk=experience.pk).status == "deleted"  # kept for audit
    found = api_client.post("/api/v1/search", {"query": "favourite dessert"}, format="json",
                            **holder.headers).json()
    assert str(experience.pk) not in {x["id"] for x in found["experiences"]}
    assert api_client.get("/api/v1/experiences?status=deleted", **holder.headers).json()["count"] == 1
    again = api_client.patch(f"/api/v1/experiences/{experience.pk}", {"statement": "x"}, format="json",
                             **holder.headers)
    assert again.status_code == 409


def test_search_options(api_client, stored, settings):
    holder, _, rows, _ = stored
    # k is what is tested here; the experience floor (which may return fewer) has its own test.
    settings.RECMEM = settings.RECMEM.replace(search__experience_floor=0.0)
    body = api_client.post("/api/v1/search", {"query": "where do I live?", "k_sub": 1, "k_epi": 0, "k_sem": 2},
                           format="json", **holder.headers).json()
    assert len(body["exchanges"]) == 1 and body["episodes"] == [] and len(body["experiences"]) == 2
    assert body["exchanges"][0]["id"] == rows[0]["id"]
    window = api_client.post("/api/v1/search", {"query": "habits", "since": at(days=15)}, format="json",
                             **holder.headers).json()
    assert [e["id"] for e in window["exchanges"]] == [rows[2]["id"]]
    tight = api_client.post("/api/v1/search", {"query": "Porto", "token_budget": 90}, format="json",
                            **holder.headers).json()
    assert 0 < tight["context_tokens"] <= tight["context_budget"] == 90
    hits_before = Exchange.objects.get(pk=rows[0]["id"]).hit_count
    api_client.post("/api/v1/search", {"query": "Porto bakery"}, format="json", **holder.headers)
    assert Exchange.objects.get(pk=rows[0]["id"]).hit_count == hits_before + 1
    # An inverted window is not an error (JSON Schema cannot say "until after since"): it is empty.
    inverted = api_client.post("/api/v1/search", {"query": "Porto", "since": at(days=2), "until": at(days=1)},
                               format="json", **holder.headers)
    assert inverted.status_code == 200
    assert inverted.json()["exchanges"] == inverted.json()["episodes"] == []  # (timeless experiences always match)
    for bad in ({"query": ""}, {"query": "x", "k_sub": -1}, {"query": "x", "types": ["nope"]}, {}):
        response = api_client.post("/api/v1/search", bad, format="json", **holder.headers)
        assert response.status_code == 400, bad
        assert response.json()["error"]["code"] == "invalid"


def test_filtered_search_returns_full_k(api_client, make_agent):
    """Filtered HNSW scans must still return k rows (iterative scan): many other agents' rows around."""
    holder = make_agent()
    others = [make_agent() for _ in range(2)]
    for other in others:
        s = post_session(api_client, other)
        post_exchanges(api_client, other, s["id"], [{"user": f"Other agent note {i} about databases",
                                                     "assistant": "ok"} for i in range(60)])
    mine = post_session(api_client, holder)
    post_exchanges(api_client, holder, mine["id"], [{"user": f"My note {i} about gardening", "assistant": "ok"}
                                                    for i in range(12)])
    body = api_client.post("/api/v1/search", {"query": "databases", "k_sub": 10}, format="json",
                           **holder.headers).json()
    assert len(body["exchanges"]) == 10


def test_operator_can_ask_for_a_run_now(api_client, make_agent, settings, django_capture_on_commit_callbacks):
    from governance.models import ConsolidationBatch
    from testing.scenarios import MARATHON_WAVE_1

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
    writer = make_agent(roles=["writer", "reader"])
    denied = api_client.post("/api/v1/consolidations/run", **writer.headers)
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "missing_role"
    operator = make_agent(roles=["writer", "reader", "operator"])
    session = post_session(api_client, operator)
    post_exchanges(api_client, operator, session["id"], [
        {"user": u, "assistant": a, "occurred_at": at(days=i)} for i, (u, a) in enumerate(MARATHON_WAVE_1)])
    assert ConsolidationBatch.objects.count() == 0  # idle mode: waits
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/v1/consolidations/run", **operator.headers)
    assert response.status_code == 202 and response.json() == {"queued": True, "pending_candidates": 1}
    assert ConsolidationBatch.objects.get().status == "succeeded"
    listed = api_client.get("/api/v1/consolidations", **operator.headers).json()
    assert listed["count"] == 1 and listed["results"][0]["consolidator"] == "extractive"
