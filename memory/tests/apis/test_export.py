"""GET /export: an agent's own memory as streamed JSON Lines (data portability), masked, audited, strict."""

import json

import pytest

from governance.models import AuditEvent
from memory.models import Exchange
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _lines(response) -> list[dict]:
    assert response.streaming
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


@pytest.fixture
def two_agents(api_client, make_agent):
    mine = make_agent(name="atlas", modules=["ops"], roles=["writer"])  # a writer only: its own data all the same
    theirs = make_agent(name="birch", modules=["ops"])
    own = post_session(api_client, mine)["id"]
    shared = post_session(api_client, mine, module="ops")["id"]
    other = post_session(api_client, theirs)["id"]
    stored = {
        "own": post_exchanges(api_client, mine, own, [
            {"user": "Call me on +1 415 555 0100, I am Jane Fonda.", "assistant": "Noted."}]),
        "shared": post_exchanges(api_client, mine, shared, [{"user": "The ops team deploys on Thursdays.",
                                                             "assistant": "Ok."}]),
        "other": post_exchanges(api_client, theirs, other, [{"user": "Birch likes green tea.", "assistant": "Ok."}]),
    }
    items = {k: make_memories(Exchange.objects.get(pk=v[0]["id"])) for k, v in stored.items()}
    return mine, theirs, {"own": own, "shared": shared, "other": other}, stored, items


def test_export_streams_only_the_callers_own_memory(api_client, two_agents):
    mine, theirs, sessions, stored, items = two_agents
    response = api_client.get("/api/v1/export", **mine.headers)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
    lines = _lines(response)
    assert lines[0]["format"] == "recmem-export" and lines[0]["scope"] == "agent" and lines[-1]["kind"] == "end"
    by_kind: dict[str, set[str]] = {}
    for line in lines[1:-1]:
        by_kind.setdefault(line["kind"], set()).add(line["fields"].get("id") or line["fields"].get("exchange"))
    assert by_kind["session"] == {sessions["own"], sessions["shared"]}
    assert by_kind["exchange"] == {stored["own"][0]["id"], stored["shared"][0]["id"]}
    # personal items it owns; module items are shared memory (their evidence, its exchanges, is here)
    assert by_kind["experience"] == {str(items["own"][1].pk)}
    assert by_kind["episode"] == {str(items["own"][0].pk)}
    assert [a["fields"]["name"] for a in lines if a.get("kind") == "agent"] == ["atlas"]
    text = json.dumps(lines)
    assert sessions["other"] not in text and "green tea" not in text and "birch" not in text
    assert "Jane Fonda" not in text and "555 0100" not in text and "key_hash" not in text
    event = AuditEvent.objects.get(actor_agent=mine.agent, object_type="agent", action="read")
    assert event.data["export"] == "agent" and event.data["exchanges"] == 2

    theirs_lines = _lines(api_client.get("/api/v1/export", **theirs.headers))
    assert {line["fields"]["id"] for line in theirs_lines if line.get("kind") == "session"} == {sessions["other"]}


def test_export_is_strict_and_needs_a_key(api_client, two_agents):
    mine = two_agents[0]
    bad = api_client.get("/api/v1/export?scope=project", **mine.headers)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    assert api_client.get("/api/v1/export").status_code in (401, 403)
    assert api_client.get("/api/v1/export", HTTP_AUTHORIZATION="Bearer nope").status_code in (401, 403)
    assert api_client.post("/api/v1/export", {}, format="json", **mine.headers).status_code == 405


def test_the_project_admin_downloads_an_export_and_audits_it(client, api_client, two_agents):
    from django.contrib.auth.models import User

    mine = two_agents[0]
    project = mine.agent.project
    viewer = User.objects.create_user("viewer", password="pw-123456", is_staff=True)
    from django.contrib.auth.models import Permission

    viewer.user_permissions.add(Permission.objects.get(codename="view_project"))
    client.force_login(viewer)
    form = {"action": "export_memory", "_selected_action": [str(project.pk)]}
    refused = client.post("/admin/agents/project/", form)
    assert not getattr(refused, "streaming", False)  # viewing projects is not enough to take one away
    assert not AuditEvent.objects.filter(object_type="project", action="read").exists()

    admin = User.objects.create_superuser("lead", "lead@example.com", "pw-123456")
    client.force_login(admin)
    response = client.post("/admin/agents/project/", form)
    assert response.status_code == 200 and response.streaming
    assert response["Content-Disposition"].startswith("attachment;")
    lines = _lines(response)
    assert lines[0]["scope"] == "project" and lines[-1]["kind"] == "end"
    assert {line["fields"]["name"] for line in lines if line.get("kind") == "agent"} == {"atlas", "birch"}
    assert AuditEvent.objects.get(object_type="project", action="read").actor_user == admin
