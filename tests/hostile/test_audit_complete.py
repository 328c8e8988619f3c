"""The audit chain, canonical and complete: what is hashed is what the database gives back (a -0 an agent sends does
not break the chain; NaN and Infinity never reach it), `audit_verify` names every break, and each chain is anchored
by a signed checkpoint, so a deleted tail or a deleted chain is detected."""

import io
import json
import math

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.models import Project
from governance.models import AuditCheckpoint, AuditEvent, AuditObject
from governance.selectors import audit_chain_verify
from governance.services.audit import audit_record, audit_record_many
from memory.models import Exchange
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _events(project_id):
    return list(AuditEvent.objects.filter(project_id=project_id).order_by("seq"))


def _verify_output():
    out = io.StringIO()
    try:
        call_command("audit_verify", stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


@pytest.fixture
def writer(api_client, make_agent):
    holder = make_agent(project="alpha")
    session = post_session(api_client, holder)
    post_exchanges(api_client, holder, session["id"], [{"user": f"note {i} about the garden", "assistant": "ok"}
                                                       for i in range(9)])
    return holder


# --- canonical form -------------------------------------------------------------------------------------------

def test_a_negative_zero_patched_by_an_agent_leaves_the_chain_intact(api_client, writer):
    """The observation: PATCH {"confidence": -0.0} → 200, then the chain was broken at that event (hashed over -0,
    stored as 0)."""
    _, experience = make_memories(Exchange.objects.filter(owner_agent=writer.agent).first())
    response = api_client.generic("PATCH", f"/api/v1/experiences/{experience.pk}",
                                  '{"confidence": -0.0, "reason": "unsure"}', content_type="application/json",
                                  **writer.headers)
    assert response.status_code == 200, response.content
    assert audit_chain_verify(project_id=writer.agent.project_id).ok
    audit_record(action="read", object_type="search", project_id=writer.agent.project_id,
                 data={"zero": -0.0, "zeros": [-0.0, 0.0, -0, 0], "tiny": -1e-300})
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert report.ok, report.breaks


@pytest.mark.parametrize("literal,field", [("NaN", "body.confidence"), ("Infinity", "body.confidence"),
                                           ("-Infinity", "body.confidence"), ("1e400", "body.confidence")])
def test_non_finite_numbers_are_refused_at_the_api_naming_the_field(api_client, writer, literal, field):
    _, experience = make_memories(Exchange.objects.filter(owner_agent=writer.agent).first())
    before = AuditEvent.objects.count()
    response = api_client.generic("PATCH", f"/api/v1/experiences/{experience.pk}", f'{{"confidence": {literal}}}',
                                  content_type="application/json", **writer.headers)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_number" and error["details"]["field"] == field
    assert AuditEvent.objects.count() == before


def test_audit_record_refuses_non_finite_numbers(writer):
    with pytest.raises(ValueError):
        audit_record(action="read", object_type="search", project_id=writer.agent.project_id,
                     data={"x": [1, math.inf]})
    assert audit_chain_verify(project_id=writer.agent.project_id).ok


def test_audit_record_refuses_an_unknown_object_type(writer):
    before = AuditEvent.objects.count()
    with pytest.raises(ValueError, match="unknown object type"):
        audit_record(action="read", object_type="experiance", project_id=writer.agent.project_id)
    with pytest.raises(ValueError, match="unknown object type"):
        audit_record_many([{"action": "read", "object_type": AuditObject.SEARCH, "project_id": writer.agent.project_id},
                           {"action": "read", "object_type": "nothing", "project_id": writer.agent.project_id}])
    assert AuditEvent.objects.count() == before
    assert audit_record(action="read", object_type=AuditObject.SEARCH,
                        project_id=writer.agent.project_id).object_type == "search"


# Text PostgreSQL stores (the API refuses NUL and lone surrogates before anything is written).
_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.dictionaries(_text, _json, max_size=5), ids=st.lists(_text, max_size=3))
def test_any_json_payload_round_trips_through_the_chain(make_agent, payload, ids):
    project = Project.objects.get_or_create(name="prop")[0]
    event = audit_record(action="read", object_type="search", project_id=project.pk, data=payload, source_ids=ids,
                         reason="property")
    report = audit_chain_verify(project_id=project.pk)
    assert report.ok, (payload, report.breaks)
    assert report.head_hash == event.hash
    assert AuditEvent.objects.get(pk=event.pk).hash == event.hash


# --- every break ----------------------------------------------------------------------------------------------

def test_audit_verify_reports_every_break_not_only_the_first(writer):
    events = _events(writer.agent.project_id)
    assert len(events) >= 8
    AuditEvent.objects.filter(pk=events[1].pk).update(reason="edited once")
    AuditEvent.objects.filter(pk=events[5].pk).update(reason="edited twice")
    AuditEvent.objects.filter(pk=events[7].pk).delete()
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert [b.seq for b in report.breaks][:3] == [events[1].seq, events[5].seq, events[8].seq]
    assert "edited" in report.breaks[0].problem and "edited" in report.breaks[1].problem
    assert f"event {events[7].seq} is missing" in report.breaks[2].problem
    text, ok = _verify_output()
    assert not ok
    assert f"first broken link at seq {events[1].seq} (event id {events[1].pk})" in text
    assert f"also at seq {events[5].seq} (event id {events[5].pk})" in text
    assert f"also at seq {events[8].seq}" in text


# --- anchors --------------------------------------------------------------------------------------------------

def test_every_append_moves_the_signed_checkpoint(writer):
    events = _events(writer.agent.project_id)
    checkpoint = AuditCheckpoint.objects.get(chain=str(writer.agent.project_id))
    assert (checkpoint.length, checkpoint.head_hash) == (events[-1].seq, events[-1].hash)
    assert len(checkpoint.signature) == 64
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert report.ok and report.checkpoint_length == len(events)


def test_a_deleted_tail_is_detected(writer):
    events = _events(writer.agent.project_id)
    AuditEvent.objects.filter(pk__in=[e.pk for e in events[-2:]]).delete()
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert not report.ok
    assert report.breaks[-1].event_id is None
    assert f"events {events[-2].seq}-{events[-1].seq} are missing" in report.breaks[-1].problem
    text, ok = _verify_output()
    assert not ok and "BROKEN  alpha" in text
    # Appends after the deletion continue from the anchor: the gap stays visible, never renumbered over.
    audit_record(action="read", object_type="search", project_id=writer.agent.project_id)
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert not report.ok and f"events {events[-2].seq}-{events[-1].seq} are missing" in report.problem


def test_a_deleted_newest_event_is_detected(writer):
    events = _events(writer.agent.project_id)
    AuditEvent.objects.filter(pk=events[-1].pk).delete()
    report = audit_chain_verify(project_id=writer.agent.project_id)
    assert not report.ok and f"event {events[-1].seq} is missing" in report.problem


def test_a_deleted_chain_is_detected(writer, make_agent):
    other = make_agent(project="beta")
    audit_record(action="read", object_type="search", project_id=other.agent.project_id)
    AuditEvent.objects.filter(project_id=writer.agent.project_id).delete()
    text, ok = _verify_output()
    assert not ok
    assert "BROKEN  alpha" in text and "the whole chain" in text and "OK      beta" in text


def test_a_forged_or_deleted_checkpoint_is_detected(writer):
    project_id = writer.agent.project_id
    events = _events(project_id)
    AuditEvent.objects.filter(pk=events[-1].pk).delete()
    # Someone with database access but not the key moves the anchor back to hide the deletion.
    AuditCheckpoint.objects.filter(chain=str(project_id)).update(length=events[-2].seq, head_hash=events[-2].hash)
    report = audit_chain_verify(project_id=project_id)
    assert not report.ok and "signature" in report.problem
    AuditCheckpoint.objects.filter(chain=str(project_id)).delete()
    report = audit_chain_verify(project_id=project_id)
    assert not report.ok and "checkpoint is missing" in report.problem


def test_the_export_carries_the_anchors(writer):
    out = io.StringIO()
    call_command("audit_export", "--format", "jsonl", stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    anchors = [r for r in rows if "checkpoint" in r]
    checkpoint = AuditCheckpoint.objects.get(chain=str(writer.agent.project_id))
    assert {"checkpoint": checkpoint.chain, "length": checkpoint.length, "head_hash": checkpoint.head_hash,
            "signature": checkpoint.signature}.items() <= anchors[0].items()
    events = [r for r in rows if "checkpoint" not in r]
    assert events[-1]["hash"] == checkpoint.head_hash
