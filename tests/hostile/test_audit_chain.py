"""A tamper-evident audit trail (an edited or deleted event must show): a hash chain per project that `audit_verify`
walks, naming the first broken link; projects with audit events are protected; list reads and refused reveals are
audited; exports."""

import csv
import io
import itertools
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import ProtectedError

from agents.models import Project
from core.errors import NotAllowed
from governance.models import AuditEvent
from governance.selectors import audit_chain_verify
from governance.services.audit import audit_chain_rebuild, audit_record
from memory.tests.factories import post_exchanges, post_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def activity(api_client, make_agent):
    """Some real API activity in two projects: sessions, exchanges, reads, a search."""
    holders = [make_agent(project="alpha"), make_agent(project="beta")]
    for holder in holders:
        session = post_session(api_client, holder)
        post_exchanges(api_client, holder, session["id"], [{"user": f"note {i} about the garden", "assistant": "ok"}
                                                           for i in range(4)])
        api_client.get("/api/v1/exchanges", **holder.headers)
        api_client.post("/api/v1/search", {"query": "garden"}, format="json", **holder.headers)
    return holders


def _chain(project_name):
    return list(AuditEvent.objects.filter(project__name=project_name).order_by("seq"))


def _verify(capsys=None, project=None):
    args = ["--project", project] if project else []
    call_command("audit_verify", *args)


def test_events_form_one_chain_per_project(activity):
    for name in ("alpha", "beta"):
        events = _chain(name)
        assert [e.seq for e in events] == list(range(1, len(events) + 1)) and len(events) >= 7
        assert events[0].prev_hash == "" and all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))
        assert all(len(e.hash) == 64 for e in events)
        report = audit_chain_verify(project_id=events[0].project_id)
        assert report.ok and report.events == len(events) and report.head_hash == events[-1].hash
    out = io.StringIO()
    call_command("audit_verify", stdout=out)
    assert "2 audit chain(s) intact" in out.getvalue()


def _broken(project="alpha"):
    out = io.StringIO()
    with pytest.raises(CommandError, match="broken"):
        call_command("audit_verify", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("BROKEN")]
    assert len(lines) == 1 and f" {project}:" in lines[0], out.getvalue()
    assert any(line.startswith("OK") and "beta" in line for line in out.getvalue().splitlines())
    return lines[0]


def test_audit_verify_detects_an_edited_event(activity):
    target = _chain("alpha")[3]
    AuditEvent.objects.filter(pk=target.pk).update(reason="nothing to see here")
    line = _broken()
    assert f"at seq {target.seq} (event id {target.pk})" in line and "edited" in line


def test_audit_verify_detects_an_edited_json_field_and_actor(activity):
    events = _chain("alpha")
    AuditEvent.objects.filter(pk=events[5].pk).update(source_ids=[])
    assert f"at seq {events[5].seq}" in _broken()
    AuditEvent.objects.filter(pk=events[5].pk).update(source_ids=events[5].source_ids)
    AuditEvent.objects.filter(pk=events[2].pk).update(actor_agent=None, actor_label="someone else")
    assert f"at seq {events[2].seq}" in _broken()


def test_audit_verify_detects_a_deleted_event(activity):
    target = _chain("alpha")[2]
    AuditEvent.objects.filter(pk=target.pk).delete()
    line = _broken()
    assert f"at seq {target.seq + 1}" in line and f"event {target.seq} is missing (deleted)" in line


def test_audit_verify_detects_a_deleted_first_event(activity):
    AuditEvent.objects.filter(pk=_chain("alpha")[0].pk).delete()
    assert "event 1 is missing" in _broken()


def test_audit_verify_detects_reordered_events(activity):
    events = _chain("alpha")
    a, b = events[3], events[4]
    # Swap their positions (seq) as someone re-ordering history would; created_at untouched.
    AuditEvent.objects.filter(pk=a.pk).update(seq=10_000)
    AuditEvent.objects.filter(pk=b.pk).update(seq=a.seq)
    AuditEvent.objects.filter(pk=a.pk).update(seq=b.seq)
    line = _broken()
    assert f"at seq {a.seq} (event id {b.pk})" in line and "link to the previous event broken" in line


def test_audit_verify_detects_swapped_times(activity):
    events = _chain("alpha")
    AuditEvent.objects.filter(pk=events[1].pk).update(created_at=events[6].created_at)
    assert f"at seq {events[1].seq}" in _broken()


def test_audit_verify_detects_a_forged_chain_without_the_key(activity, settings):
    """Someone with database access but without RECMEM_AUDIT_KEY cannot re-hash the chain after an edit."""
    settings.RECMEM = settings.RECMEM.replace(governance__audit_key="0" * 64)
    project_id = _chain("alpha")[0].project_id
    AuditEvent.objects.filter(pk=_chain("alpha")[2].pk).update(reason="forged")
    audit_chain_rebuild(project_id=project_id)  # a forger re-chaining with the wrong key
    settings.RECMEM = settings.RECMEM.replace(governance__audit_key="1" * 64)
    report = audit_chain_verify(project_id=project_id)
    assert not report.ok and report.broken_seq == 1 and "RECMEM_AUDIT_KEY" in report.problem


def test_appends_continue_the_chain_across_calls(make_agent):
    holder = make_agent(project="gamma")
    for i in range(3):
        audit_record(action="read", object_type="search", project_id=holder.agent.project_id, actor_agent=holder.agent,
                     data={"n": i, "f": 0.5, "big": 1e16, "nested": {"b": [1, "1", None]}})
    assert audit_chain_verify(project_id=holder.agent.project_id).ok
    assert [e.seq for e in _chain("gamma")] == [1, 2, 3]


def test_rebuild_chains_events_written_before_the_chain(make_agent):
    """What migration governance/0007 does to events that existed before it."""
    holder = make_agent(project="old")
    for i in range(3):
        audit_record(action="read", object_type="search", project_id=holder.agent.project_id, reason=f"old {i}")
    AuditEvent.objects.filter(project_id=holder.agent.project_id).update(prev_hash="", hash="")  # as before 0007
    assert not audit_chain_verify(project_id=holder.agent.project_id).ok
    assert audit_chain_rebuild(project_id=holder.agent.project_id) == 3
    assert audit_chain_verify(project_id=holder.agent.project_id).ok


# --- protection, reads, reveals ------------------------------------------------------------------------------

def test_a_project_with_audit_events_cannot_be_deleted(activity, client):
    """The observation: AuditEvent.project cascaded, so deleting a project deleted its audit trail."""
    project = Project.objects.get(name="alpha")
    count = AuditEvent.objects.filter(project=project).count()
    with pytest.raises(ProtectedError):
        project.delete()
    with pytest.raises(ProtectedError):
        activity[0].agent.delete()
    assert AuditEvent.objects.filter(project=project).count() == count
    user = User.objects.create_superuser("admin", "a@example.com", "pw-123456")
    client.force_login(user)
    page = client.post(f"/admin/agents/project/{project.pk}/delete/", {"post": "yes"})
    assert page.status_code == 200 and b"cannot delete project" in page.content.lower()
    assert Project.objects.filter(pk=project.pk).exists()


@pytest.mark.parametrize("path,object_type", [("sessions", "session_list"), ("exchanges", "exchange_list"),
                                              ("episodes", "episode_list"), ("experiences", "experience_list"),
                                              ("consolidations", "consolidation_list")])
def test_list_reads_are_audited(api_client, make_agent, path, object_type):
    holder = make_agent()
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "hello", "assistant": "hi"}])
    response = api_client.get(f"/api/v1/{path}?limit=10", **holder.headers)
    assert response.status_code == 200
    event = AuditEvent.objects.get(action="read", object_type=object_type)
    assert event.actor_agent_id == holder.agent.pk and event.project_id == holder.agent.project_id
    assert event.data == {"filters": {"limit": "10"}}
    if path == "exchanges":
        assert event.source_ids == [stored[0]["id"]]
    if path == "sessions":
        assert event.source_ids == [session["id"]]


def test_refused_reveals_are_audited(make_agent):
    from governance.models import VaultEntry
    from governance.services.privacy import vault_reveal

    holder = make_agent()
    project = holder.agent.project
    VaultEntry.objects.create(project=project, placeholder="<PERSON_1>", entity_type="PERSON", ciphertext="x")
    nobody = User.objects.create_user("nobody", password="pw-123456")
    with pytest.raises(NotAllowed):
        vault_reveal(project=project, placeholder="<PERSON_1>", user=nobody, reason="curious")
    event = AuditEvent.objects.get(action="reveal_refused")
    assert event.actor_user == nobody and event.reason == "curious"
    assert event.data == {"placeholder": "<PERSON_1>", "refused": "permission_denied"}
    assert audit_chain_verify(project_id=project.pk).ok


# --- export ---------------------------------------------------------------------------------------------------

def test_export_command_filters_and_formats(activity, tmp_path):
    out = tmp_path / "alpha.jsonl"
    call_command("audit_export", "--project", "alpha", "--action", "create", "--format", "jsonl",
                 "--output", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and {r["project_name"] for r in rows} == {"alpha"} and {r["action"] for r in rows} == {"create"}
    assert [r["seq"] for r in rows] == sorted(r["seq"] for r in rows)
    assert all(len(r["hash"]) == 64 for r in rows)
    agent_name = activity[1].agent.name
    buffer = io.StringIO()
    call_command("audit_export", "--actor", agent_name, "--format", "csv", stdout=buffer)
    table = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert table and {r["actor_agent_name"] for r in table} == {agent_name}
    assert {r["project_name"] for r in table} == {"beta"}
    first = min(AuditEvent.objects.values_list("created_at", flat=True))
    none = io.StringIO()
    call_command("audit_export", "--until", first.isoformat(), "--format", "jsonl", stdout=none)
    assert none.getvalue() == ""
    with pytest.raises(CommandError):
        call_command("audit_export", "--since", "yesterday")


def test_export_from_the_admin(activity, client):
    user = User.objects.create_superuser("admin", "a@example.com", "pw-123456")
    client.force_login(user)
    ids = list(AuditEvent.objects.filter(project__name="beta").values_list("pk", flat=True))
    for action, parse in (("export_csv", lambda t: list(csv.DictReader(io.StringIO(t)))),
                          ("export_jsonl", lambda t: [json.loads(x) for x in t.splitlines()])):
        response = client.post("/admin/governance/auditevent/", {"action": action, "_selected_action": ids})
        assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
        rows = parse(b"".join(response.streaming_content).decode())
        assert len(rows) == len(ids) and {r["project_name"] for r in rows} == {"beta"}
