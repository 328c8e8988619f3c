"""The exchange's declared source: strict input (400 naming the field), stored and returned, with the trust it
earns; the tool's name is agent text like any other (masked)."""

from __future__ import annotations

import json

import pytest

from memory.models import Exchange
from memory.tests.factories import post_session

pytestmark = pytest.mark.django_db


def _post(client, holder, session, body):
    return client.post(f"/api/v1/sessions/{session}/exchanges", body, format="json", **holder.headers)


@pytest.mark.parametrize("body, field", [
    ({"user": "hi", "source": "webpage"}, "source"),
    ({"user": "hi", "source": 3}, "source"),
    ({"user": "hi", "source": None}, "source"),
    ({"user": "fetched", "source": "tool"}, "tool"),
    ({"user": "fetched", "source": "tool", "tool": "  "}, "tool"),
    ({"user": "fetched", "source": "tool", "tool": "x" * 101}, "tool"),
    ({"user": "fetched", "source": "tool", "tool": 7}, "tool"),
    ({"user": "hi", "source": "agent_note", "tool": "web_fetch"}, "tool"),  # a tool named, another source
    ({"user": "hi", "source": "conversation", "tool": "web_fetch"}, "tool"),
])
def test_a_bad_source_is_refused_naming_the_field(api_client, make_agent, body, field):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    for payload in (body, {"exchanges": [body]}):
        response = _post(api_client, holder, session, payload)
        assert response.status_code == 400, response.content
        assert field in json.dumps(response.json()), response.json()
    assert not Exchange.objects.exists()


def test_the_source_is_stored_and_returned_with_its_trust(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    response = _post(api_client, holder, session, {"exchanges": [
        {"user": "We deploy on Tuesdays.", "assistant": "Noted."},
        {"user": "", "assistant": "Summary of the thread.", "source": "conversation"},
        {"user": "Status page: all systems operational.", "source": "tool", "tool": "status_fetch"},
        {"user": "Checked the runbook; it is current.", "source": "agent_note"},
        {"user": "Imported from the old wiki: backups run nightly.", "source": "import"}]})
    assert response.status_code == 201, response.content
    rows = response.json()["exchanges"]
    assert [(r["source"], r["tool"], r["trust"]) for r in rows] == [
        ("conversation", "", "user"), ("conversation", "", "assistant"), ("tool", "status_fetch", "tool"),
        ("agent_note", "", "assistant"), ("import", "", "tool")]
    assert not any(r["quarantined"] for r in rows)
    assert list(Exchange.objects.order_by("turn_index").values_list("source", flat=True)) == [
        "conversation", "conversation", "tool", "agent_note", "import"]
    listed = api_client.get("/api/v1/exchanges", {"session": session}, **holder.headers).json()["results"]
    assert {r["source"] for r in listed} == {"conversation", "tool", "agent_note", "import"}


def test_the_tool_name_is_masked_like_any_agent_text(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    [row] = _post(api_client, holder, session, {"user": "fetched", "source": "tool",
                                                 "tool": "inbox of maria.kowalczyk@example.com"}).json()["exchanges"]
    assert "maria.kowalczyk@example.com" not in row["tool"] and row["tool"].startswith("inbox of")


def test_a_tool_named_alone_makes_the_exchange_its_output(api_client, make_agent):
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    [row] = _post(api_client, holder, session, {"user": "200 OK", "tool": "http_get"}).json()["exchanges"]
    assert (row["source"], row["tool"], row["trust"]) == ("tool", "http_get", "tool")
