"""The LLM consolidator end to end: the real openai client over HTTP against the fake OpenAI server."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memory.consolidators import LLMConsolidator, get_consolidator
from memory.consolidators.llm import assemble_items
from memory.consolidators.types import ConsolidationError, ExistingEpisode
from testing.fake_openai import FakeReply
from testing.fake_responder import consolidation_responder

from .conftest import make_experience, make_unit

CHAT = "/v1/chat/completions"


def _system_and_user(srv, index=-1):
    body = srv.bodies(CHAT)[index]
    return body["messages"][0]["content"], body["messages"][1]["content"]


def test_write_episodes_validates_ids_and_appends_forgotten_units(srv, gateway, marathon_units):
    srv.script(
        {
            "episodes": [
                {"title": "Marathon plan", "narrative": "On 2023-05-08 the user signed up.", "unit_ids": ["m1", "zz"]},
                {"title": "Training", "narrative": "Training details.", "unit_ids": ["[unit m3]", "m2", "m1"]},
                {"title": "Ghost", "narrative": "Refers to nothing.", "unit_ids": ["nope"]},
            ]
        }
    )
    calls = []
    episodes = LLMConsolidator(gateway).write_episodes(units=list(reversed(marathon_units)), on_call=calls.append)

    assert [e.title for e in episodes] == ["Marathon plan", "Training"]
    assert episodes[0].unit_ids == ["m1"]  # unknown "zz" dropped
    # decorated id resolved, duplicate m1 dropped, m4..m6 (forgotten) appended in chronological order
    assert episodes[1].unit_ids == ["m2", "m3", "m4", "m5", "m6"]
    assert episodes[1].started_at == marathon_units[1].occurred_at
    assert episodes[1].ended_at == marathon_units[5].occurred_at
    assert len(calls) == 1 and calls[0].purpose == "episode_write" and calls[0].ok and calls[0].prompt_tokens > 300

    system, user = _system_and_user(srv)
    assert system.endswith("Prompt version: episode_write@1")
    lines = [line for line in user.splitlines() if line.startswith("[unit ")]
    assert [line.split("]")[0] for line in lines] == [f"[unit m{i}" for i in range(1, 7)]  # chronological
    assert "(6 units)" in user and "<PERSON_3f2a>" in user


def test_refine_drops_unknown_evidence_and_contradictions(srv, gateway, marathon_units):
    related = [make_experience("x1", "preference", "running time", "The user prefers evening runs.")]
    srv.script(
        {
            "items": [
                {
                    "type": "preference",
                    "subject": "Running Time",
                    "statement": "The user prefers morning runs.",
                    "evidence": ["m3", "m99"],
                    "valid_from": "2023-05-15",
                    "confidence": 0.9,
                    "contradicts": ["x1", "x404"],
                },
                {
                    "type": "event",
                    "subject": "marathon",
                    "statement": "The user signed up for the Berlin marathon.",
                    "evidence": ["bogus"],
                    "valid_from": "not a date",
                    "confidence": 0.8,
                },
                {
                    "type": "event",
                    "subject": "marathon",
                    "statement": "The user signed up for the Berlin marathon",
                    "evidence": ["m1"],
                    "valid_from": None,
                    "confidence": 0.95,
                    "contradicts": [],
                },
                {
                    "type": "constraint",
                    "subject": "mileage",
                    "statement": "Never add more than 10% weekly mileage.",
                    "evidence": ["unit m5"],
                    "valid_from": "2023-05-22T10:00:00Z",
                    "confidence": 0,
                },
            ]
        }
    )
    items = LLMConsolidator(gateway).refine(episodes=[], units=marathon_units, related=related)

    assert [i.type for i in items] == ["preference", "event", "constraint"]
    pref, event, constraint = items
    assert pref.evidence == ["m3"] and pref.contradicts == ["x1"] and pref.subject == "running time"
    assert pref.valid_from == datetime(2023, 5, 15, tzinfo=UTC)
    # no valid evidence left: attached to all units; the duplicate statement merged into it
    assert event.evidence == [u.id for u in marathon_units]
    assert event.valid_from == marathon_units[0].occurred_at and event.confidence == 0.95
    assert constraint.evidence == ["m5"] and constraint.confidence == 0.0
    assert constraint.valid_from == datetime(2023, 5, 22, 10, tzinfo=UTC)
    _system, user = _system_and_user(srv)
    assert "[experience x1] preference | subject: running time | The user prefers evening runs." in user


def test_confidence_is_clamped_and_unknown_types_dropped(marathon_units):
    raw = [
        {
            "type": "fact",
            "subject": "",
            "statement": "The user lives in <LOCATION_0d1e>.",
            "evidence": ["m1"],
            "confidence": 7,
        },
        {"type": "opinion", "subject": "x", "statement": "Not a type.", "evidence": ["m1"]},
        {"type": "lesson", "subject": "pace", "statement": " ", "evidence": ["m6"]},
    ]
    items = assemble_items(raw, marathon_units, [])
    assert len(items) == 1
    assert items[0].confidence == 1.0 and items[0].subject and "<LOCATION_0d1e>" in items[0].statement


def test_merge_episode_same_and_different_situation(srv, gateway, marathon_units):
    existing = ExistingEpisode(id="e1", title="Marathon plan", narrative="On 2023-05-08, signed up.", similarity=0.8)
    srv.script(
        {"same_situation": True, "title": "", "narrative": "On 2023-05-08, signed up. On 2023-05-28, learned pacing."},
        {"same_situation": False, "title": "", "narrative": ""},
    )
    consolidator = LLMConsolidator(gateway)
    merged = consolidator.merge_episode(existing=existing, units=marathon_units[4:], on_call=None)
    assert merged is not None
    assert merged.title == "Marathon plan"  # empty title in the reply: the old one is kept
    assert merged.narrative.endswith("learned pacing.") and merged.unit_ids == ["m5", "m6"]
    system, user = _system_and_user(srv)
    assert "episode_merge@1" in system and '<existing_episode id="e1">' in user
    assert "Narrative: On 2023-05-08, signed up." in user
    assert consolidator.merge_episode(existing=existing, units=marathon_units[4:]) is None


def test_malformed_reply_twice_raises_with_both_call_records(srv, gateway, marathon_units):
    srv.script("this is not json", '{"episodes": "still wrong"')
    seen = []
    with pytest.raises(ConsolidationError) as info:
        LLMConsolidator(gateway).write_episodes(units=marathon_units, on_call=seen.append)
    assert len(info.value.calls) == 2 and seen == info.value.calls
    assert all(not c.ok and c.purpose == "episode_write" for c in info.value.calls)
    assert sum(c.total_tokens for c in info.value.calls) > 0  # paid for: the caller records them
    # the repair round sent the bad reply back
    assert srv.bodies(CHAT)[1]["messages"][-2] == {"role": "assistant", "content": "this is not json"}


def test_endpoint_error_becomes_consolidation_error(srv, gateway, marathon_units):
    srv.script(FakeReply(status=400, error_message="bad request"))
    with pytest.raises(ConsolidationError) as info:
        LLMConsolidator(gateway).refine(episodes=[], units=marathon_units, related=[])
    assert len(info.value.calls) == 1 and info.value.calls[0].tokens_source == "none"


def test_realistic_run_with_the_consolidation_responder(srv, gateway, marathon_units):
    srv.responder = consolidation_responder
    units = [*marathon_units, make_unit("c1", 60, "I now prefer coffee over tea in the morning.", "Noted.")]
    related = [
        make_experience("x-tea", "preference", "tea", "The user prefers tea in the morning."),
        make_experience("x-job", "fact", "job", "The user works at <ORG_77aa>."),
    ]
    calls = []
    consolidator = get_consolidator(llm=gateway)
    assert consolidator.kind == "llm" and consolidator.model == "fake"
    episodes = consolidator.write_episodes(units=units, on_call=calls.append)
    items = consolidator.refine(episodes=episodes, units=units, related=related, on_call=calls.append)
    merged = consolidator.merge_episode(
        existing=ExistingEpisode(id="e1", title=episodes[0].title, narrative=episodes[0].narrative, similarity=0.9),
        units=[make_unit("m7", 61, "I finished the Berlin marathon in 3:58!", "Congratulations!")],
        on_call=calls.append,
    )

    # a month's pause before the coffee unit: two episodes, every unit in exactly one of them
    assert [e.unit_ids for e in episodes] == [[u.id for u in marathon_units], ["c1"]]
    assert "the user said" in episodes[0].narrative and "2023-05-08" in episodes[0].narrative
    assert len(items) == len(units)
    assert all(len(i.evidence) == 1 for i in items)
    coffee = next(i for i in items if i.evidence == ["c1"])
    assert coffee.contradicts == ["x-tea"] and coffee.type == "preference"
    assert all(i.contradicts == [] for i in items if i is not coffee)
    assert merged is not None and merged.narrative.startswith(episodes[0].narrative)
    assert "3:58" in merged.narrative
    assert [c.purpose for c in calls] == ["episode_write", "semantic_refine", "episode_merge"]
    assert all(c.ok and c.tokens_source == "api" for c in calls)
    assert sum(c.prompt_tokens for c in calls) > 2000  # realistic prompt sizes
    refine_body = srv.bodies(CHAT)[1]
    assert refine_body["response_format"] == {"type": "json_object"}
    assert json.loads(json.dumps(refine_body))["model"] == "fake"


def test_schema_valid_but_unusable_episodes_raise_with_calls(srv, gateway, marathon_units):
    srv.script({"episodes": [{"title": "x", "narrative": "   ", "unit_ids": ["m1"]}]})
    with pytest.raises(ConsolidationError) as info:
        LLMConsolidator(gateway).write_episodes(units=marathon_units)
    assert len(info.value.calls) == 1 and info.value.calls[0].ok


def test_valid_to_is_the_day_after_the_last_day_and_never_before_the_start(marathon_units):
    """A stated end in the reply: a bare date is the last day the item holds (it ends at the next midnight); a full
    time is taken as given; an end not after the start, or no date, is dropped."""
    base = {"type": "constraint", "subject": "deploys", "evidence": ["m1"], "valid_from": "2023-05-08"}
    raw = [
        {**base, "statement": "No deploys until Friday 2023-05-12.", "valid_to": "2023-05-12"},
        {**base, "statement": "On call until noon.", "valid_to": "2023-05-09T12:00:00Z"},
        {**base, "statement": "Ended before it began.", "valid_to": "2023-05-01"},
        {**base, "statement": "No end said.", "valid_to": "soon"},
        {**base, "statement": "Nothing about an end."},
    ]
    items = {i.statement: i for i in assemble_items(raw, marathon_units, [])}
    assert items["No deploys until Friday 2023-05-12."].valid_to == datetime(2023, 5, 13, tzinfo=UTC)
    assert items["On call until noon."].valid_to == datetime(2023, 5, 9, 12, tzinfo=UTC)
    assert [items[s].valid_to for s in ("Ended before it began.", "No end said.", "Nothing about an end.")] == \
        [None, None, None]
