"""The eager (Mem0-style) baseline end to end: real database, the product's run with the bench's planner, the fake
OpenAI server over HTTP.

Per exchange: one extraction call, then (only if it found facts, even with an empty memory) one update call for all
the facts; the operations of that reply reach the stored experiences.
"""

from __future__ import annotations

import json
from datetime import timedelta

import numpy as np
import pytest

from bench.eager.runner import eager_consolidate
from governance.models import AuditEvent, ConsolidationBatch, LLMCall
from memory.gateways.embeddings import get_embedder
from memory.models import Experience, MemoryVersion
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.tests.factories import T0

CHAT = "/v1/chat/completions"


@pytest.fixture
def eager_agent(make_agent, settings, fake_llm):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off")  # as bench_locomo --mode eager stores
    return make_agent().agent


@pytest.fixture
def say(eager_agent, django_capture_on_commit_callbacks):
    """Ingest one exchange, then run its eager batch (as the LoCoMo replay does)."""
    session = session_create(agent=eager_agent)
    days = iter(range(1000))

    def _say(user: str, assistant: str = "Noted.") -> ConsolidationBatch:
        with django_capture_on_commit_callbacks(execute=True):
            result = exchanges_ingest(agent=eager_agent, session=session, items=[
                ExchangeIn(user=user, assistant=assistant, occurred_at=T0 + timedelta(days=next(days)))])
        assert not result.candidates  # the product triggers nothing: the bench makes the candidate
        batch = eager_consolidate(agent=eager_agent, exchanges=result.exchanges)
        assert batch == ConsolidationBatch.objects.get(candidates__exchanges=result.exchanges[0])
        assert batch.mode == "eager"
        return batch

    return _say


def _section(text: str, tag: str) -> str:
    return text.split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0]


def _purposes(batch) -> list[str]:
    return list(LLMCall.objects.filter(batch=batch).order_by("id").values_list("purpose", flat=True))


@pytest.mark.django_db
def test_facts_cost_two_calls_even_with_an_empty_memory(say, fake_llm):
    batch = say("I keep three cats at home. I work night shifts at the bakery.")
    assert batch.status == "succeeded" and batch.consolidator == "eager"
    assert _purposes(batch) == ["eager_extract", "eager_update"]  # one update call for both facts
    update = fake_llm.bodies(CHAT)[-1]["messages"]
    assert "eager_update@2" in update[0]["content"]
    assert _section(update[1]["content"], "old_memory") == "[]"  # Mem0 asks even when nothing is stored
    assert json.loads(_section(update[1]["content"], "new_facts")) == [
        "I keep three cats at home.", "I work night shifts at the bakery."]
    stored = Experience.objects.filter(batch=batch).order_by("statement")
    assert [e.statement for e in stored] == ["I keep three cats at home.", "I work night shifts at the bakery."]
    assert sorted(batch.summary["experiences_created"]) == sorted(str(e.pk) for e in stored)
    assert all(e.evidence.count() == 1 for e in stored)
    creates = AuditEvent.objects.filter(batch=batch, action=AuditEvent.Action.CREATE, object_type="experience")
    assert {a.data["fact"] for a in creates} == {e.statement for e in stored}

    # the same facts again: one update call that sees them (renumbered, no UUIDs) and keeps everything (NONE)
    again = say("I keep three cats at home. I work night shifts at the bakery.")
    assert _purposes(again) == ["eager_extract", "eager_update"]
    shown = json.loads(_section(fake_llm.bodies(CHAT)[-1]["messages"][1]["content"], "old_memory"))
    assert sorted(m["id"] for m in shown) == ["0", "1"]
    assert {m["text"] for m in shown} == {e.statement for e in stored}
    assert Experience.objects.filter(status="active").count() == 2


@pytest.mark.django_db
def test_no_facts_one_call(say):
    batch = say("Hi there! How are you?", "Fine, thanks!")
    assert batch.status == "succeeded"
    assert _purposes(batch) == ["eager_extract"]
    assert not Experience.objects.exists()
    assert batch.candidates.get().exchanges.get().state == "consolidated"


@pytest.mark.django_db
def test_update_and_delete_reach_the_stored_experiences(say, fake_llm):
    say("I drive a red Toyota to work every day.")
    say("I like drinking green tea in the morning.")
    toyota = Experience.objects.get(statement__contains="Toyota")
    tea = Experience.objects.get(statement__contains="tea")
    shown = {}

    def update_reply(request):
        old = json.loads(_section(request["messages"][1]["content"], "old_memory"))
        shown.update({m["text"]: m["id"] for m in old})
        return {"memory": [
            {"id": shown[tea.statement], "text": "Drinks green tea with honey in the morning.", "event": "UPDATE",
             "old_memory": tea.statement},
            {"id": shown[toyota.statement], "text": toyota.statement, "event": "DELETE"},
            {"id": "99", "text": "Unknown memory.", "event": "DELETE"},  # no such id: dropped
            {"id": "42", "text": "Cycles to work since May.", "event": "UPDATE"},  # no such id: an addition
        ]}

    fake_llm.script({"facts": ["Sold the Toyota and cycles to work.", "Drinks green tea with honey."]}, update_reply)
    batch = say("I sold my Toyota and cycle to work now. I drink my green tea with honey these days.")
    assert fake_llm.pending_replies() == 0 and set(shown) == {tea.statement, toyota.statement}
    assert batch.status == "succeeded" and _purposes(batch) == ["eager_extract", "eager_update"]

    tea.refresh_from_db()
    assert tea.statement == "Drinks green tea with honey in the morning." and tea.version == 2
    assert tea.status == "active"
    embedder = get_embedder()  # the stored text is what is embedded, not the fact
    assert np.allclose(tea.embedding, embedder.embed_one(tea.statement), atol=1e-5)
    assert MemoryVersion.objects.get(experience=tea, batch=batch, reason="eager_update").snapshot["statement"] == (
        "I like drinking green tea in the morning.")
    toyota.refresh_from_db()
    assert toyota.status == "deleted" and toyota.version == 2
    assert MemoryVersion.objects.filter(experience=toyota, batch=batch, reason="eager_delete").exists()
    added = Experience.objects.get(batch=batch)
    assert added.statement == "Cycles to work since May." and added.status == "active"
    assert not Experience.objects.filter(statement="Unknown memory.").exists()
    assert batch.summary["experiences_merged"] == [str(tea.pk)]
    assert batch.summary["experiences_superseded"] == [str(toyota.pk)]
    assert batch.summary["experiences_created"] == [str(added.pk)]
    actions = set(AuditEvent.objects.filter(batch=batch, object_type="experience")
                  .values_list("action", "object_id"))
    assert actions == {(AuditEvent.Action.UPDATE, str(tea.pk)), (AuditEvent.Action.DELETE, str(toyota.pk)),
                       (AuditEvent.Action.CREATE, str(added.pk))}
    assert tea.evidence.count() == 2 and added.evidence.count() == 1


@pytest.mark.django_db
def test_every_exchange_costs_an_extraction(eager_agent, fake_llm):
    from memory.models import Exchange
    from memory.services.ingest import session_close
    from testing.scenarios import CHATTER

    statements = [("My sister Anna lives in Lisbon and works as a nurse.", "Nice, Lisbon is lovely."),
                  ("I adopted a grey kitten called Ash last week.", "Congratulations on Ash!"),
                  *CHATTER]
    session = session_create(agent=eager_agent)
    for i, (user, assistant) in enumerate(statements):
        result = exchanges_ingest(agent=eager_agent, session=session, items=[
            ExchangeIn(user=user, assistant=assistant, occurred_at=T0 + timedelta(days=i))])
        eager_consolidate(agent=eager_agent, exchanges=result.exchanges)
    session_close(agent=eager_agent, session=session)
    purposes = list(LLMCall.objects.values_list("purpose", flat=True))
    assert purposes.count("eager_extract") == len(statements)  # one extraction per exchange, ripe or not
    assert Experience.objects.filter(status="active").exists()
    assert set(Exchange.objects.values_list("state", flat=True)) == {"consolidated"}


@pytest.mark.django_db
def test_eager_operations_never_touch_a_wider_scope(api_client, make_agent, settings, fake_llm):
    """The baseline's updates and deletes touch only items of the unit's own scope (an UPDATE of a wider one adds)."""
    from memory.models import Exchange
    from memory.tests.factories import at, post_exchanges, post_session
    from memory.tests.services.test_scope_rule import RULE_TUESDAY, _module_rule

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off")
    alice = make_agent(name="alice", modules=["ops"])
    bob = make_agent(name="bob", modules=["ops"])
    session = post_session(api_client, bob, module="ops")["id"]
    stored = post_exchanges(api_client, bob, session, [{"user": "Deploys happen on Tuesdays.", "assistant": "Ok.",
                                                        "occurred_at": at()}])
    rule = _module_rule(RULE_TUESDAY, stored, 0.9)
    # The update call deletes memory "0" — the only one shown: the module rule.
    fake_llm.script({"facts": ["Deploys happen on Fridays"]},
                    {"memory": [{"id": "0", "text": RULE_TUESDAY, "event": "DELETE"},
                                {"id": "1", "text": "Deploys happen on Fridays", "event": "ADD"}]})
    mine = post_session(api_client, alice)["id"]
    [note] = post_exchanges(api_client, alice, mine, [{"user": "We deploy on Fridays now.", "assistant": "Ok.",
                                                       "occurred_at": at(days=1)}])
    eager_consolidate(agent=alice.agent, exchanges=[Exchange.objects.get(pk=note["id"])])
    batch = ConsolidationBatch.objects.get(agent=alice.agent)
    assert batch.status == "succeeded", batch.error
    rule.refresh_from_db()
    assert rule.status == "active"
    assert Experience.objects.filter(batch=batch, scope="personal", statement__icontains="Fridays").exists()
