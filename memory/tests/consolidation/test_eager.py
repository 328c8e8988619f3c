"""The eager (Mem0-style) baseline: per-exchange extraction and update decisions."""

from __future__ import annotations

import pytest

from memory.consolidation import get_eager_extractor
from memory.consolidation.eager import EagerExtractor, ExtractiveEagerExtractor
from memory.consolidation.fake_responder import consolidation_responder
from memory.consolidation.types import ConsolidationError

from .conftest import make_experience, make_unit

CHAT = "/v1/chat/completions"


def test_llm_extract_and_decide_over_http(srv, gateway):
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

    similar = [make_experience("7", "fact", "climbing", "I love climbing."), make_experience("8", "fact", "x", "Y")]
    assert eager.decide("I love climbing.", similar, on_call=calls.append) == {
        "event": "NONE",
        "target_id": "7",
        "text": "I love climbing.",
    }
    assert eager.decide("I moved to <LOCATION_0d1e> last month.", similar, on_call=calls.append) == {
        "event": "ADD",
        "target_id": None,
        "text": "I moved to <LOCATION_0d1e> last month.",
    }
    # nothing similar stored yet: added without an LLM call
    assert eager.decide("Brand new fact.", [], on_call=calls.append)["event"] == "ADD"
    assert [c.purpose for c in calls] == ["eager_extract", "eager_update", "eager_update"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ({"event": "UPDATE", "target_id": "404", "text": ""}, {"event": "ADD", "target_id": None, "text": "New."}),
        ({"event": "DELETE", "target_id": None, "text": ""}, {"event": "NONE", "target_id": None, "text": "New."}),
        ({"event": "DELETE", "target_id": "[1]", "text": ""}, {"event": "DELETE", "target_id": "1", "text": "Old."}),
        (
            {"event": "UPDATE", "target_id": "1", "text": "Merged."},
            {"event": "UPDATE", "target_id": "1", "text": "Merged."},
        ),
    ],
)
def test_decisions_are_validated(srv, gateway, reply, expected):
    srv.script(reply)
    decision = EagerExtractor(gateway).decide("New.", [make_experience("1", "fact", "x", "Old.")])
    assert decision == expected


def test_llm_failure_raises_with_calls(srv, gateway):
    srv.script("nope", "still nope")
    with pytest.raises(ConsolidationError) as info:
        EagerExtractor(gateway).extract(make_unit("u", 0, "I like tea."))
    assert len(info.value.calls) == 2


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
    assert eager.decide("User now prefers coffee over tea.", old) == {
        "event": "UPDATE",
        "target_id": "tea",
        "text": "User now prefers coffee over tea.",
    }
    assert eager.decide("User's sister lives in Oslo.", old)["event"] == "NONE"
    assert eager.decide("User owns a red bicycle.", old) == {
        "event": "ADD",
        "target_id": None,
        "text": "User owns a red bicycle.",
    }
