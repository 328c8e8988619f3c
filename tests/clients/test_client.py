"""The synchronous client against a live ``recmem run`` server: typed results, sessions, search, pagination and the
error body as typed exceptions."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from recmem_client import (
    AgentMe,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    Entity,
    Exchange,
    ExchangeHit,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RecMem,
    SearchResult,
    Session,
)
from recmem_client import client as client_module
from recmem_client.models import BatchDetail, Experience, LLMCall, Page

from .conftest import consolidate_marathon

pytestmark = pytest.mark.integration


def test_me_is_typed(mem, recmem_agent):
    me = mem.me()
    assert isinstance(me, AgentMe)
    assert me.name == recmem_agent.name and me.project.name == recmem_agent.project
    assert set(me.roles) == set(recmem_agent.roles)
    assert recmem_agent.key.startswith(f"rmk_{me.key.prefix}")


def test_session_context_manager_opens_adds_and_closes(mem):
    with mem.session(external_id="chat-1", metadata={"channel": "test"}) as s:
        assert isinstance(s.info, Session) and s.info.status == "open" and s.info.external_id == "chat-1"
        first = s.add("Please mail me at jane.roe@example.com", "Noted.")
        second = s.add(user="And remind me on Friday", assistant="Will do.")
    assert isinstance(first, Exchange)
    assert (first.turn_index, second.turn_index) == (0, 1)
    assert first.session == s.id
    assert "jane.roe@example.com" not in first.user  # masked before it was stored
    closed = mem.sessions.get(s.id)
    assert closed.status == "closed" and closed.exchange_count == 2
    with pytest.raises(ConflictError) as err:
        mem.sessions.add_exchanges(s.id, [("too late", "")])
    assert err.value.status_code == 409 and err.value.code and err.value.message


def test_a_session_can_be_resumed_by_id_and_left_open(mem):
    created = mem.sessions.create(external_id="resume-me")
    with mem.session(session_id=created.id, close=False) as s:
        s.add("one", "two")
    assert mem.sessions.get(created.id).status == "open"
    assert [e.user for e in s.exchanges()] == ["one"]


def test_the_session_is_closed_even_when_the_block_fails(mem):
    with pytest.raises(RuntimeError), mem.session(external_id="boom") as s:
        s.add("before the failure", "ok")
        raise RuntimeError("agent crashed")
    assert mem.sessions.get(s.id).status == "closed"


def test_large_batches_are_split_into_several_requests(mem, monkeypatch):
    monkeypatch.setattr(client_module, "BATCH_SIZE", 3)
    with mem.session(external_id="batch") as s:
        stored = s.add_many([(f"question {i}", f"answer {i}") for i in range(7)])
    assert [e.turn_index for e in stored] == list(range(7))
    assert sorted(e.user for e in s.exchanges(page_size=2)) == sorted(f"question {i}" for i in range(7))


def test_search_returns_typed_hits_and_the_context_block(mem):
    with mem.session(external_id="search") as s:
        s.add("I am training for the Berlin marathon", "Great, let us plan it.")
        s.add("What's a good name for a grey kitten?", "How about Smokey?")
    result = mem.search("what race am I training for?", k_sub=5, token_budget=500)
    assert isinstance(result, SearchResult)
    assert result.exchanges and all(isinstance(h, ExchangeHit) for h in result.exchanges)
    assert "marathon" in result.exchanges[0].user
    assert 0 < result.exchanges[0].similarity <= 1 and result.exchanges[0].score > 0
    assert "training for the" in result.context and 0 < result.context_tokens <= 500
    assert result.hits[0].score == max(h.score for h in result.hits)


def test_entities_and_the_entity_and_as_of_filters(mem):
    """``entities()`` lists the placeholder one person got in every exchange; ``entity=`` (a placeholder or the name
    as written) and ``as_of=`` reach search and the lists."""
    before = datetime.now(UTC)
    with mem.session(external_id="entities") as s:
        s.add("My colleague Maria Lopez reviews every database migration.", "Noted.")
        s.add("Maria Lopez owns the on-call rotation this month.", "Noted.")
        s.add("The staging cluster has three nodes.", "Noted.")
    page = mem.entities(kind="placeholder")
    assert isinstance(page, Page) and all(isinstance(e, Entity) for e in page.results)
    [maria] = [e for e in page.results if e.value.startswith("<PERSON_")]
    assert (maria.kind, maria.exchanges) == ("placeholder", 2)
    assert [e.id for e in mem.iter_entities(kind="placeholder", page_size=1)] == [e.id for e in page.results]
    for entity in (maria.value, "Maria Lopez"):
        found = mem.search("who does what", entity=entity)
        assert len(found.exchanges) == 2 and all(maria.value in h.user for h in found.exchanges)
        assert mem.exchanges.list(entity=entity).count == 2
        assert {x.id for x in mem.exchanges.iter(entity=entity)} == {x.id for x in found.exchanges}
    assert mem.exchanges.list(entity=maria.value, as_of=before).count == 0  # nothing was stored then
    assert mem.search("who does what", entity=maria.value, as_of=before).exchanges == []
    assert mem.experiences.list(entity="<PERSON_000000>").count == 0
    assert mem.episodes.list(entity=maria.value, as_of=datetime.now(UTC)).count == 0
    with pytest.raises(BadRequestError):
        mem.search("x", entity="<PERSON_zz>")


def test_feedback_on_a_search_and_the_metrics_of_the_project(recmem_server):
    agent = recmem_server.agent(roles=("writer", "reader", "operator"))
    mem = RecMem(recmem_server.url, api_key=agent.key)
    with mem.session(external_id="feedback") as s:
        s.add("I am training for the Berlin marathon", "Great, let us plan it.")
    result = mem.search("what race am I training for?", k_sub=3)
    used = [result.exchanges[0].id]
    feedback = mem.feedback(result.search_id, used, helpful=True)
    assert (feedback.search_id, feedback.used, feedback.helpful) == (result.search_id, 1, True)
    assert feedback.returned == len(result.hits)
    with pytest.raises(NotFoundError):
        mem.feedback(uuid.uuid4(), used)  # no such search of this agent
    rows = mem.metrics(scope="all")  # computed hourly: a fresh project may have none yet, each row typed
    assert all(row.scope == "all" for row in rows)
    reader = RecMem(recmem_server.url, api_key=recmem_server.agent(roles=("reader",)).key)
    with pytest.raises(PermissionDeniedError):
        reader.metrics()


def test_pagination_pages_and_iterators(mem):
    ids = {mem.sessions.create(external_id=f"page-{i}").id for i in range(7)}
    page = mem.sessions.list(limit=3)
    assert isinstance(page, Page) and page.count == 7 and len(page.results) == 3 and page.next is not None
    assert mem.sessions.list(limit=3, offset=6).next is None
    seen = [s.id for s in mem.sessions.iter(page_size=3)]
    assert len(seen) == len(set(seen)) and set(seen) == ids
    assert {s.id for s in mem.sessions.iter(status="open", page_size=2)} == ids
    assert list(mem.sessions.iter(status="closed")) == []


def test_iteration_survives_rows_added_while_paging(mem):
    before = {mem.sessions.create(external_id=f"old-{i}").id for i in range(4)}
    got = []
    for i, session in enumerate(mem.sessions.iter(page_size=2)):
        got.append(session.id)
        if i == 0:  # sessions list newest first: two new ones push every old one down two places
            mem.sessions.create(external_id="new-1")
            mem.sessions.create(external_id="new-2")
    assert len(got) == len(set(got)), "a session was yielded twice"
    assert before <= set(got)


def test_a_wrong_key_is_an_authentication_error(recmem_server):
    with RecMem(recmem_server.url, api_key="rmk_nothere_" + "x" * 32) as bad, \
            pytest.raises(AuthenticationError) as err:
        bad.me()
    assert err.value.status_code == 401 and err.value.code


def test_foreign_objects_are_not_found(recmem_server, mem):
    other = RecMem(recmem_server.url, api_key=recmem_server.agent().key)
    theirs = other.sessions.create(external_id="theirs")
    with pytest.raises(NotFoundError) as err:
        mem.sessions.get(theirs.id)
    assert err.value.status_code == 404
    with pytest.raises(NotFoundError):
        mem.exchanges.get(uuid.uuid4())


def test_refused_input_is_a_bad_request_naming_the_field(mem):
    s = mem.sessions.create()
    with pytest.raises(BadRequestError) as err:
        mem.sessions.add_exchanges(s.id, [{"user": "", "assistant": ""}])
    assert err.value.status_code == 400 and "user" in str(err.value.details)
    assert mem.sessions.get(s.id).exchange_count == 0  # nothing changed


def test_over_the_limit_is_payload_too_large_with_details(mem):
    s = mem.sessions.create()
    with pytest.raises(PayloadTooLargeError) as err:
        mem.sessions.add_exchanges(s.id, [("x" * 20001, "ok")])
    assert err.value.status_code == 413 and err.value.code == "text_too_long"
    assert err.value.details["indexes"] == [0]


def test_a_missing_role_is_permission_denied(mem, recmem_server):
    with pytest.raises(PermissionDeniedError) as err:
        mem.consolidations.request()  # needs the operator role
    assert err.value.status_code == 403 and err.value.code == "missing_role"
    reader = RecMem(recmem_server.url, api_key=recmem_server.agent(roles=("reader",)).key)
    with pytest.raises(PermissionDeniedError) as err:
        reader.sessions.create()
    assert err.value.code == "missing_role" and "writer" in err.value.message


def test_duplicate_external_id_is_a_conflict(mem):
    mem.sessions.create(external_id="once")
    with pytest.raises(ConflictError) as err:
        mem.sessions.create(external_id="once")
    assert err.value.code == "duplicate_session"


def test_consolidated_memory_is_listed_edited_and_forgotten(mem):
    experiences = consolidate_marathon(mem)
    assert all(isinstance(e, Experience) for e in experiences)
    target = experiences[0]
    assert target.provenance.exchange_ids and target.provenance.batch is not None

    batch = mem.consolidations.get(target.provenance.batch)
    assert isinstance(batch, BatchDetail) and batch.status == "succeeded"
    assert batch.calls and all(isinstance(c, LLMCall) for c in batch.calls)
    assert target.provenance.batch in {b.id for b in mem.consolidations.iter()}
    assert mem.episodes.list().count >= 1

    edited = mem.experiences.update(target.id, statement="The user runs the Berlin marathon in September.",
                                    reason="clearer")
    assert edited.version == target.version + 1 and edited.statement.startswith("The user runs")

    mem.experiences.delete(target.id, reason="no longer true")
    assert mem.experiences.get(target.id).status == "deleted"  # kept for audit ...
    assert target.id not in {e.id for e in mem.experiences.iter()}  # ... never retrieved
    assert target.id not in {h.id for h in mem.search("marathon training plan").experiences}


def test_health_needs_no_key(mem):
    health = mem.health()
    assert health["status"] == "ok"


def test_own_memory_is_exported_as_json_lines_and_sessions_are_forgotten(mem):
    """``export()`` streams the agent's own memory (header, records, trailer); ``sessions.forget`` and ``forget``
    remove sessions and answer with counts only."""
    with mem.session(external_id="portable") as s:
        kept = s.add("The build cache lives on the runner's SSD.", "Noted.")
    with mem.session(external_id="to-forget") as s:
        s.add("The old VPN gateway is vpn-legacy-3.", "Noted.")
    records = list(mem.export())
    assert records[0]["format"] == "recmem-export" and records[-1]["kind"] == "end"
    texts = [r["fields"].get("user_text", "") for r in records if r.get("kind") == "exchange"]
    assert any("build cache" in t for t in texts) and any("VPN gateway" in t for t in texts)
    forgotten = mem.sessions.get(s.id)
    result = mem.sessions.forget(forgotten.id, reason="obsolete network notes")
    assert result.forgotten.get("exchanges_deleted") == 1 and "VPN" not in str(result)
    with pytest.raises(NotFoundError):
        mem.sessions.get(forgotten.id)
    texts = [r["fields"].get("user_text", "") for r in mem.export() if r.get("kind") == "exchange"]
    assert any("build cache" in t for t in texts) and not any("VPN gateway" in t for t in texts)
    other = mem.sessions.create("another")
    assert mem.forget(reason="cleanup", session_ids=[other.id]).forgotten.get("sessions_deleted") == 1
    assert kept is not None
