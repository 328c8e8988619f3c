"""The eager (Mem0-style) baseline: per-exchange extraction, then one update decision for all the facts."""

from __future__ import annotations

import json

import jsonschema
import pytest

from bench.eager import prompts
from bench.eager.extractor import (
    EagerExtractor,
    ExtractiveEagerExtractor,
    get_eager_extractor,
    render_old_memory,
    similar_union,
)
from memory.consolidators.prompts import render
from memory.consolidators.types import ConsolidationError
from memory.gateways.llm import LLMGateway
from memory.gateways.tokens import count_tokens
from memory.tests.consolidators.conftest import make_experience, make_unit
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder

CHAT = "/v1/chat/completions"


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def gateway(srv) -> LLMGateway:
    return LLMGateway(base_url=srv.base_url, api_key="test", model="fake", temperature=0, timeout=5, max_retries=0)


def _section(text: str, tag: str) -> str:
    return text.split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0]


def test_update_prompt_is_mem0_sized_with_an_example_per_event():
    system, user = (m["content"] for m in render(prompts.EAGER_UPDATE, existing="[]", facts='["x"]'))
    assert count_tokens(system) >= 1200  # Mem0's DEFAULT_UPDATE_MEMORY_PROMPT is ~1,400-1,800 tokens
    assert system.endswith("Prompt version: eager_update@2")
    for event in ("ADD", "UPDATE", "DELETE", "NONE"):  # each event explained with a worked JSON example
        assert f'"event": "{event}"' in system
    assert system.count("Current memory:") == 4 and system.count("New memory:") == 4
    for example in system.split("New memory:\n")[1:]:
        reply = json.loads(example.split("\n\n", 1)[0])
        jsonschema.validate(reply, prompts.EAGER_UPDATE.schema)
    assert "<PERSON_3f2a>" in system and "absolute" in system
    assert prompts.EAGER_UPDATE.variables == ["existing", "facts"]


def test_old_memories_are_unioned_and_renumbered():
    a, b, c = (make_experience(i, "fact", "x", f"Memory {i}.") for i in ("uuid-a", "uuid-b", "uuid-c"))
    union = similar_union([[a, b], [b, c], []])
    assert [m.id for m in union] == ["uuid-a", "uuid-b", "uuid-c"]
    assert json.loads(render_old_memory(union)) == [
        {"id": "0", "text": "Memory uuid-a."},
        {"id": "1", "text": "Memory uuid-b."},
        {"id": "2", "text": "Memory uuid-c."},
    ]
    assert render_old_memory([]) == "[]"


def test_llm_extract_and_one_decision_over_http(srv, gateway):
    srv.responder = consolidation_responder
    calls = []
    eager = get_eager_extractor(llm=gateway)
    assert isinstance(eager, EagerExtractor) and eager.kind == "llm"
    unit = make_unit("u1", 0, "I moved to <LOCATION_0d1e> last month. Do you know a good gym? I love climbing.")
    facts = eager.extract(unit, on_call=calls.append)
    assert facts == ["I moved to <LOCATION_0d1e> last month.", "I love climbing."]
    body = srv.bodies(CHAT)[-1]
    assert "Conversation date: 2023-05-08" in body["messages"][1]["content"]
    assert "eager_extract@1" in body["messages"][0]["content"]

    climbing = make_experience("uuid-7", "fact", "climbing", "I love climbing.")
    other = make_experience("uuid-8", "fact", "x", "Works at <ORG_77aa>.")
    ops = eager.decide_all(facts, [[climbing, other], [climbing]], on_call=calls.append)
    assert ops == [{"event": "ADD", "target_id": None, "text": "I moved to <LOCATION_0d1e> last month.",
                    "fact": "I moved to <LOCATION_0d1e> last month."}]  # "I love climbing." is held: NONE
    assert [c.purpose for c in calls] == ["eager_extract", "eager_update"]
    user = srv.bodies(CHAT)[-1]["messages"][1]["content"]
    assert json.loads(_section(user, "old_memory")) == [  # union, small ids: the model never sees the UUIDs
        {"id": "0", "text": "I love climbing."}, {"id": "1", "text": "Works at <ORG_77aa>."}]
    assert json.loads(_section(user, "new_facts")) == facts
    assert "uuid-" not in user

    # nothing stored yet: Mem0 still asks (one call, everything added); no facts: no call
    ops = eager.decide_all(["Brand new fact."], [[]], on_call=calls.append)
    assert [(o["event"], o["text"]) for o in ops] == [("ADD", "Brand new fact.")]
    assert _section(srv.bodies(CHAT)[-1]["messages"][1]["content"], "old_memory") == "[]"
    assert eager.decide_all([], [], on_call=calls.append) == []
    assert [c.purpose for c in calls] == ["eager_extract", "eager_update", "eager_update"]


OLD = [make_experience("uuid-old", "fact", "x", "Old."), make_experience("uuid-tea", "preference", "tea", "Likes tea.")]


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        # an UPDATE of an unknown id is an addition; an empty text takes the fact
        ([{"id": "404", "text": "", "event": "UPDATE"}],
         [{"event": "ADD", "target_id": None, "text": "New.", "fact": "New."}]),
        # a DELETE of an unknown (or missing) id is dropped
        ([{"id": "9", "text": "x", "event": "DELETE"}, {"id": "", "text": "", "event": "DELETE"}], []),
        # ids tolerate decorations and map back to the real ids; a DELETE keeps the memory's own text
        ([{"id": "[0]", "text": "whatever", "event": "DELETE"}],
         [{"event": "DELETE", "target_id": "uuid-old", "text": "Old.", "fact": "New."}]),
        ([{"id": "1", "text": "Likes tea with honey.", "event": "UPDATE", "old_memory": "Likes tea."}],
         [{"event": "UPDATE", "target_id": "uuid-tea", "text": "Likes tea with honey.", "fact": "New."}]),
        # NONE needs nothing; an UPDATE that changes nothing is nothing; one operation per memory
        ([{"id": "0", "text": "Old.", "event": "NONE"}, {"id": "1", "text": "likes  TEA", "event": "UPDATE"}], []),
        ([{"id": "0", "text": "Older.", "event": "UPDATE"}, {"id": "0", "text": "", "event": "DELETE"}],
         [{"event": "UPDATE", "target_id": "uuid-old", "text": "Older.", "fact": "New."}]),
        # additions: deduplicated, never a copy of a listed memory, unknown events count as ADD
        ([{"id": "2", "text": "New.", "event": "ADD"}, {"id": "3", "text": "new", "event": "ADD"},
          {"id": "4", "text": "Old.", "event": "ADD"}],
         [{"event": "ADD", "target_id": None, "text": "New.", "fact": "New."}]),
    ],
)
def test_update_replies_are_validated(srv, gateway, entries, expected):
    srv.script({"memory": entries})
    assert EagerExtractor(gateway).decide_all(["New."], OLD) == expected


def test_additions_find_the_fact_they_come_from(srv, gateway):
    srv.script({"memory": [{"id": "0", "text": "Has a grey kitten called Ash", "event": "ADD"},
                           {"id": "1", "text": "", "event": "ADD"}]})
    ops = EagerExtractor(gateway).decide_all(["Sister lives in Lisbon.", "Adopted a grey kitten called Ash."], [])
    assert [(o["text"], o["fact"]) for o in ops] == [
        ("Has a grey kitten called Ash", "Adopted a grey kitten called Ash."),
        ("Sister lives in Lisbon.", "Sister lives in Lisbon."),  # no text: the fact no entry used yet
    ]


def test_llm_failure_raises_with_calls(srv, gateway):
    srv.script("nope", "still nope")
    with pytest.raises(ConsolidationError) as info:
        EagerExtractor(gateway).extract(make_unit("u", 0, "I like tea."))
    assert len(info.value.calls) == 2
    srv.script("nope", "still nope")
    with pytest.raises(ConsolidationError):
        EagerExtractor(gateway).decide_all(["I like tea."], [])


def test_extractive_eager_without_tokens():
    eager = get_eager_extractor(llm=None)
    assert isinstance(eager, ExtractiveEagerExtractor) and eager.kind == "extractive"
    facts = eager.extract(make_unit("u", 0, "Hi there! I now prefer coffee over tea. My sister lives in Oslo."))
    assert "User now prefers coffee over tea." in facts
    assert any("Oslo" in f for f in facts)
    assert eager.extract(make_unit("s", 0, "Thanks, bye!")) == []

    old = [
        make_experience("tea", "preference", "drink", "User prefers tea."),
        make_experience("oslo", "fact", "sister", "User's sister lives in Oslo."),
    ]
    facts = ["User now prefers coffee over tea.", "User's sister lives in Oslo.", "User owns a red bicycle."]
    assert eager.decide_all(facts, [old, old, old]) == [
        {"event": "UPDATE", "target_id": "tea", "text": "User now prefers coffee over tea.",
         "fact": "User now prefers coffee over tea."},
        # the Oslo fact is held already: NONE, no operation
        {"event": "ADD", "target_id": None, "text": "User owns a red bicycle.", "fact": "User owns a red bicycle."},
    ]
    assert eager.decide_all(["User owns a red bicycle."], []) == [
        {"event": "ADD", "target_id": None, "text": "User owns a red bicycle.", "fact": "User owns a red bicycle."}]
    assert eager.decide_all([], []) == []
