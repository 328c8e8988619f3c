"""One consolidation call per topic (``topic_consolidate``): episode written or merged, typed items, validation.

The real openai client over HTTP against the fake OpenAI server, scripted replies or the consolidation responder.
"""

from __future__ import annotations

import pytest

from memory.consolidators import LLMConsolidator, get_consolidator
from memory.consolidators.types import ConsolidationError, ExistingEpisode
from testing.fake_responder import consolidation_responder

from .conftest import make_experience, make_unit

CHAT = "/v1/chat/completions"
EXISTING = ExistingEpisode(id="ep-1", title="Berlin marathon plan", narrative="On 2023-04-01 the user decided to "
                           "run a marathon.", similarity=0.8)


def _item(evidence, contradicts=(), statement="The user prefers morning runs at 6am."):
    return {"type": "preference", "subject": "running time", "statement": statement, "evidence": list(evidence),
            "valid_from": "2023-05-15", "confidence": 0.9, "contradicts": list(contradicts)}


def test_new_episodes_and_items_from_one_call(srv, gateway, marathon_units):
    related = [make_experience("x1", "preference", "running time", "The user prefers evening runs.")]
    srv.script({
        "same_situation": False,
        "episodes": [{"title": "Marathon plan", "narrative": "On 2023-05-08 the user signed up.",
                      "unit_ids": ["m1", "zz", "[unit m2]"]}],
        "items": [_item(["m3", "nope"], ["x1", "x-unknown"]), _item(["nope"], statement="The user runs.")],
    })
    calls = []
    draft = LLMConsolidator(gateway).consolidate_topic(units=list(reversed(marathon_units)), existing=None,
                                                       related=related, on_call=calls.append)

    assert not draft.merged
    assert [e.unit_ids for e in draft.episodes] == [["m1", "m2", "m3", "m4", "m5", "m6"]]  # forgotten appended
    # unknown ids dropped; an item whose evidence is all unknown is credited to every unit of the topic
    assert [(i.evidence, i.contradicts) for i in draft.items] == [(["m3"], ["x1"]),
                                                                  ([u.id for u in marathon_units], [])]
    assert [c.purpose for c in calls] == ["topic_consolidate"] and calls[0].ok

    body = srv.bodies(CHAT)[-1]
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    assert system.endswith("Prompt version: topic_consolidate@2")
    assert "Most similar episode already in memory:\n(none)" in user
    assert "[experience x1] preference | subject: running time" in user
    assert "(6 units)" in user and user.count("[unit m1]") == 1  # the units are sent once


def test_same_situation_rewrites_the_existing_episode_with_every_unit(srv, gateway, marathon_units):
    srv.script({"same_situation": True,
                "episodes": [{"title": " ", "narrative": "On 2023-04-01 the user decided; on 2023-05-08 signed up.",
                              "unit_ids": ["m1"]}],
                "items": []})
    draft = LLMConsolidator(gateway).consolidate_topic(units=marathon_units, existing=EXISTING, related=[])

    assert draft.merged and len(draft.episodes) == 1
    merged = draft.episodes[0]
    assert merged.title == "Berlin marathon plan"  # empty title: the existing one is kept
    assert merged.unit_ids == [u.id for u in marathon_units]
    assert merged.started_at == marathon_units[0].occurred_at and merged.ended_at == marathon_units[-1].occurred_at
    user = srv.bodies(CHAT)[-1]["messages"][1]["content"]
    assert '<existing_episode id="ep-1">\nTitle: Berlin marathon plan\nNarrative: On 2023-04-01' in user


@pytest.mark.parametrize("same", [False, True])
def test_a_different_situation_or_an_empty_merge_writes_new_episodes(srv, gateway, marathon_units, same):
    # same_situation=True with an empty narrative is not a usable merge: the listed episodes are new ones instead
    narrative = "  " if same else "A new situation."
    srv.script({"same_situation": same,
                "episodes": [{"title": "New", "narrative": narrative, "unit_ids": ["m1"]},
                             {"title": "Other", "narrative": "Other things.", "unit_ids": ["m2"]}],
                "items": []})
    draft = LLMConsolidator(gateway).consolidate_topic(units=marathon_units, existing=EXISTING, related=[])
    assert not draft.merged
    assert sum(len(e.unit_ids) for e in draft.episodes) == len(marathon_units)


def test_unusable_episodes_raise_with_the_paid_call(srv, gateway, marathon_units):
    srv.script({"same_situation": False, "episodes": [{"title": "x", "narrative": "  ", "unit_ids": ["m1"]}],
                "items": [_item(["m1"])]})
    with pytest.raises(ConsolidationError) as info:
        LLMConsolidator(gateway).consolidate_topic(units=marathon_units, existing=None, related=[])
    assert len(info.value.calls) == 1 and info.value.calls[0].ok and info.value.calls[0].prompt_tokens > 0


def test_one_call_costs_less_than_the_split_calls_for_the_same_topic(srv, gateway, marathon_units):
    srv.responder = consolidation_responder
    units = [*marathon_units, make_unit("m7", 30, "I finished my 30 km long run for the marathon.", "Great!")]
    related = [make_experience("x-tea", "preference", "tea", "The user prefers tea in the morning.")]
    single, split = [], []
    for existing in (None, EXISTING):
        one = get_consolidator(llm=gateway).consolidate_topic(units=units, existing=existing, related=related,
                                                              on_call=single.append)
        two = get_consolidator(llm=gateway, single_call=False).consolidate_topic(
            units=units, existing=existing, related=related, on_call=split.append)
        # the same memory comes out either way (the responder answers both prompt shapes alike)
        assert one.merged == two.merged == (existing is not None)
        assert [e.unit_ids for e in one.episodes] == [e.unit_ids for e in two.episodes]
        assert [(i.statement, i.evidence) for i in one.items] == [(i.statement, i.evidence) for i in two.items]
    assert [c.purpose for c in single] == ["topic_consolidate"] * 2
    assert [c.purpose for c in split] == ["episode_write", "semantic_refine", "episode_merge", "semantic_refine"]
    single_tokens, split_tokens = sum(c.prompt_tokens for c in single), sum(c.prompt_tokens for c in split)
    assert single_tokens < 0.7 * split_tokens, (single_tokens, split_tokens)
