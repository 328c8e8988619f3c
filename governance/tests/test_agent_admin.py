"""Agent administration leaves a trail: creating agents, changing their roles, issuing and revoking keys, whether
from the management commands, the admin or `recmem run`'s demo agent. The raw key is never in the trail."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from agents.keys import key_parse_prefix
from agents.models import Agent, ApiKey
from governance.models import AuditEvent
from governance.selectors import audit_chain_verify
from governance.services.agent_admin import agent_roles_set, demo_agent_ensure

pytestmark = pytest.mark.django_db


def _events(object_type: str, **filters):
    return list(AuditEvent.objects.filter(object_type=object_type, **filters).order_by("id"))


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("lead", "lead@example.com", "pw-123456")
    client.force_login(user)
    client.user = user
    return client


def test_commands_record_create_issue_set_roles_and_revoke():
    out = StringIO()
    call_command("create_agent", "--project", "proj", "--name", "bot", "--role", "writer", stdout=out,
                 stderr=StringIO())
    raw = out.getvalue().strip().splitlines()[-1]
    agent = Agent.objects.get(name="bot")
    [created] = _events("agent", action=AuditEvent.Action.CREATE)
    assert created.object_id == str(agent.pk) and created.actor_label == "cli:create_agent"
    assert created.data["roles"] == ["writer"] and created.project_id == agent.project_id
    [issued] = _events("api_key", action=AuditEvent.Action.CREATE)
    assert issued.data["prefix"] == key_parse_prefix(raw)

    out = StringIO()
    call_command("set_roles", "--project", "proj", "--agent", "bot", "--role", "reader", "--role", "reviewer",
                 "--reason", "now reviews the team's rules", stdout=out)
    agent.refresh_from_db()
    assert agent.roles == ["reader", "reviewer"]
    assert "was ['writer']" in out.getvalue()
    [changed] = _events("agent", action=AuditEvent.Action.UPDATE)
    assert changed.data == {"roles": {"before": ["writer"], "after": ["reader", "reviewer"]}}
    assert changed.reason == "now reviews the team's rules" and changed.actor_label == "cli:set_roles"

    call_command("set_roles", "--project", "proj", "--agent", "bot", "--role", "reader", "--role", "reviewer",
                 stdout=StringIO())
    assert len(_events("agent", action=AuditEvent.Action.UPDATE)) == 1  # no change, no event

    call_command("revoke_key", raw, "--reason", "leaked in a log", stdout=StringIO())
    call_command("revoke_key", raw, stdout=StringIO())  # idempotent: one event
    [revoked] = _events("api_key", action=AuditEvent.Action.UPDATE)
    assert revoked.reason == "leaked in a log" and revoked.data["revoked"] is True

    every = AuditEvent.objects.all()
    assert not any(raw in str(e.data) or raw in e.reason for e in every)
    assert audit_chain_verify(project_id=agent.project_id).ok


def test_set_roles_refuses_unknown_roles_and_unknown_agents(make_agent):
    make_agent(project="proj", name="bot")
    with pytest.raises(CommandError):
        call_command("set_roles", "--project", "proj", "--agent", "bot", "--role", "superhero", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("set_roles", "--project", "proj", "--agent", "ghost", "--role", "reader", stdout=StringIO())
    assert Agent.objects.get(name="bot").roles == ["writer", "reader"]
    assert not _events("agent", action=AuditEvent.Action.UPDATE)


def test_admin_set_roles_asks_a_reason_and_records_the_user(admin_client, make_agent):
    holder = make_agent(project="proj", name="bot")
    page = admin_client.post("/admin/agents/agent/", {"action": "set_roles", "_selected_action": [holder.agent.pk]})
    assert page.status_code == 200 and b"set-roles-form" in page.content
    response = admin_client.post("/admin/agents/agent/", {
        "action": "set_roles", "_selected_action": [holder.agent.pk], "apply": "Set roles",
        "roles": ["reader"], "reason": "read-only from now on"}, follow=True)
    assert response.status_code == 200
    holder.agent.refresh_from_db()
    assert holder.agent.roles == ["reader"]
    [event] = _events("agent", action=AuditEvent.Action.UPDATE)
    assert event.actor_user_id == admin_client.user.pk and event.reason == "read-only from now on"
    # a reason is required: without one nothing changes
    admin_client.post("/admin/agents/agent/", {"action": "set_roles", "_selected_action": [holder.agent.pk],
                                               "apply": "Set roles", "roles": ["writer"], "reason": ""})
    holder.agent.refresh_from_db()
    assert holder.agent.roles == ["reader"]


def test_admin_add_edit_issue_and_revoke_are_recorded(admin_client, make_agent):
    holder = make_agent(project="proj", name="bot")
    project = holder.agent.project
    response = admin_client.post("/admin/agents/agent/add/", {
        "project": project.pk, "name": "newbie", "roles": "reader", "is_active": "on",
        "api_keys-TOTAL_FORMS": "0", "api_keys-INITIAL_FORMS": "0"})
    assert response.status_code == 302, response.content[:2000]
    newbie = Agent.objects.get(name="newbie")
    [created] = _events("agent", action=AuditEvent.Action.CREATE, object_id=str(newbie.pk))
    assert created.actor_user_id == admin_client.user.pk and created.data["roles"] == ["reader"]

    response = admin_client.post(f"/admin/agents/agent/{newbie.pk}/change/", {
        "project": project.pk, "name": "newbie", "api_keys-TOTAL_FORMS": "0", "api_keys-INITIAL_FORMS": "0"})
    assert response.status_code == 302
    newbie.refresh_from_db()
    assert newbie.is_active is False and newbie.roles == ["reader"]  # roles are read-only in the form
    [edited] = _events("agent", action=AuditEvent.Action.UPDATE, object_id=str(newbie.pk))
    assert edited.data["is_active"] == {"before": "True", "after": "False"}

    admin_client.post("/admin/agents/agent/", {"action": "issue_key", "_selected_action": [newbie.pk]})
    key = ApiKey.objects.get(agent=newbie)
    assert _events("api_key", action=AuditEvent.Action.CREATE, object_id=str(key.pk))
    admin_client.post("/admin/agents/apikey/", {"action": "revoke", "_selected_action": [key.pk]})
    key.refresh_from_db()
    assert key.revoked_at is not None
    [revoked] = _events("api_key", action=AuditEvent.Action.UPDATE, object_id=str(key.pk))
    assert revoked.actor_user_id == admin_client.user.pk


def test_admin_offers_no_delete_for_agents_or_keys(admin_client, make_agent):
    holder = make_agent()
    key = holder.agent.api_keys.get()
    assert admin_client.get(f"/admin/agents/agent/{holder.agent.pk}/delete/").status_code == 403
    assert admin_client.get(f"/admin/agents/apikey/{key.pk}/delete/").status_code == 403
    assert Agent.objects.filter(pk=holder.agent.pk).exists()


def test_demo_agent_ensure_is_idempotent_and_recorded():
    agent, issued = demo_agent_ensure()
    assert issued is not None and issued.raw_key.startswith("rmk_")
    again, none = demo_agent_ensure()
    assert again.pk == agent.pk and none is None
    assert [e.object_type for e in AuditEvent.objects.order_by("id")] == ["agent", "api_key"]


def test_roles_set_needs_one_role(make_agent):
    holder = make_agent()
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError):
        agent_roles_set(agent=holder.agent, roles=[])
