"""The admin's forget: the action on selected sessions (a confirmation page that asks a reason) and the subject page,
for people holding ``memory.delete_session`` (reviewers, operators); anyone else is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User

from governance.models import AuditEvent
from memory.models import Exchange, Session
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _world(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader"])
    sid = post_session(api_client, holder)["id"]
    stored = post_exchanges(api_client, holder, sid, [
        {"user": "My colleague Ada Quist asked about the invoice.", "assistant": "Noted."},
        {"user": "The printer on floor 2 jams every morning.", "assistant": "Ok."}])
    for row in stored:
        make_memories(Exchange.objects.get(pk=row["id"]))
    return holder, sid


def _staff(*perms: str) -> User:
    user = User.objects.create_user("staff", "staff@example.com", "pw-123456", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_session", *perms]))
    return user


def test_forget_selected_sessions_and_a_subject(client, api_client, make_agent):
    holder, sid = _world(api_client, make_agent)
    client.force_login(_staff("delete_session"))
    page = client.get("/admin/memory/session/")
    assert "Forget a subject" in page.content.decode()
    form = {"action": "forget", "_selected_action": [sid]}
    confirm = client.post("/admin/memory/session/", form)
    assert confirm.status_code == 200 and "cannot be undone" in confirm.content.decode()
    assert Session.objects.filter(pk=sid).exists()  # nothing before the reason
    response = client.post("/admin/memory/session/", {**form, "apply": "1", "reason": "erasure request"})
    assert response.status_code == 302 and not Session.objects.filter(pk=sid).exists()
    [event] = AuditEvent.objects.filter(object_type="forget")
    assert event.actor_user.username == "staff" and event.data["exchanges_deleted"] == 2

    holder, _ = _world(api_client, make_agent)
    response = client.post("/admin/memory/session/forget-subject/", {
        "project": str(holder.agent.project_id), "subject": "Ada Quist", "reason": "erasure request"})
    assert response.status_code == 302
    assert list(Exchange.objects.values_list("user_text", flat=True)) == ["The printer on floor 2 jams every morning."]
    assert AuditEvent.objects.filter(object_type="forget").count() == 2
    # a subject nothing mentions: said on the page, nothing changes
    response = client.post("/admin/memory/session/forget-subject/", {
        "project": str(holder.agent.project_id), "subject": "Nobody Atall", "reason": "x"}, follow=True)
    assert "nothing you may see mentions that subject" in response.content.decode().lower()
    assert AuditEvent.objects.filter(object_type="forget").count() == 2


def test_only_people_who_may_forget(client, api_client, make_agent):
    _, sid = _world(api_client, make_agent)
    client.force_login(_staff())
    assert client.post("/admin/memory/session/", {"action": "forget", "_selected_action": [sid], "apply": "1",
                                                   "reason": "x"}).status_code == 403
    assert client.get("/admin/memory/session/forget-subject/").status_code == 403
    assert Session.objects.filter(pk=sid).exists() and not AuditEvent.objects.filter(object_type="forget").exists()
