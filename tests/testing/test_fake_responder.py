"""The fake responder answers each RecMem prompt with a schema-valid, plausible reply."""

from __future__ import annotations

import jsonschema
import pytest

from bench import prompts as bench_prompts
from bench.eager.extractor import render_facts, render_old_memory
from bench.eager.prompts import render_conversation
from memory.consolidators import prompts
from memory.consolidators.types import EpisodeDraft
from memory.tests.consolidators.conftest import make_experience, make_unit
from testing.fake_responder import consolidation_responder, parse_related, parse_units

UNITS = [
    make_unit("a", 0, "I prefer tea in the morning. Any tips?", "Try green tea."),
    make_unit("b", 45, "I no longer drink tea, I now prefer coffee.", "Noted."),
]
RELATED = [
    make_experience("x1", "preference", "tea", "The user prefers tea in the morning."),
    make_experience("x2", "fact", "job", "The user works at <ORG_77aa>."),
]


def _ask(template, **values):
    reply = consolidation_responder({"model": "fake", "messages": prompts.render(template, **values)})
    jsonschema.validate(reply, template.schema)
    return reply


def test_inputs_are_parsed_back_from_the_prompts():
    values = {"units": prompts.render_units(UNITS), "related": prompts.render_related(RELATED)}
    user = prompts.render(prompts.SEMANTIC_REFINE, episodes="-", **values)[1]["content"]
    assert [u["id"] for u in parse_units(user)] == ["a", "b"]
    assert parse_units(user)[1]["user"] == "I no longer drink tea, I now prefer coffee."
    assert [(r["id"], r["subject"]) for r in parse_related(user)] == [("x1", "tea"), ("x2", "job")]


def test_every_template_gets_a_schema_valid_reply():
    units = prompts.render_units(UNITS)
    episodes = _ask(prompts.EPISODE_WRITE, units=units, unit_count=2)["episodes"]
    assert [e["unit_ids"] for e in episodes] == [["a"], ["b"]]  # 45 days apart
    assert episodes[0]["narrative"] == 'On 2023-05-08, the user said: "I prefer tea in the morning."'

    merged = _ask(prompts.EPISODE_MERGE, units=units, episode_id="e", episode_title="Tea", episode_narrative="Old.")
    assert merged["same_situation"] is True and merged["title"] == "Tea" and merged["narrative"].startswith("Old. ")

    drafts = prompts.render_episode_drafts([EpisodeDraft("Tea", "Old.", ["a", "b"])])
    items = _ask(prompts.SEMANTIC_REFINE, episodes=drafts, units=units, related=prompts.render_related(RELATED))
    assert [(i["evidence"], i["contradicts"]) for i in items["items"]] == [(["a"], []), (["b"], ["x1"])]
    assert items["items"][1]["type"] == "preference" and items["items"][1]["subject"] == "tea"

    facts = _ask(bench_prompts.EAGER_EXTRACT, today="2023-05-08", conversation=render_conversation(UNITS[0]))
    assert facts == {"facts": ["I prefer tea in the morning."]}

    old = render_old_memory([make_experience("u-1", "preference", "tea", "I prefer tea in the morning"),
                             make_experience("u-2", "fact", "job", "Works at <ORG_77aa>"),
                             make_experience("u-3", "preference", "hiking", "Likes hiking")])
    facts = ["I prefer tea in the morning.", "I no longer work at <ORG_77aa>.", "Likes hiking in the Alps.",
             "My sister lives in Oslo."]
    update = _ask(bench_prompts.EAGER_UPDATE, existing=old, facts=render_facts(facts))
    assert update == {"memory": [
        {"id": "0", "text": "I prefer tea in the morning", "event": "NONE"},  # held already
        {"id": "1", "text": "I no longer work at <ORG_77aa>.", "event": "UPDATE", "old_memory": "Works at <ORG_77aa>"},
        {"id": "2", "text": "Likes hiking in the Alps.", "event": "UPDATE", "old_memory": "Likes hiking"},
        {"id": "3", "text": "My sister lives in Oslo.", "event": "ADD"},
    ]}
    empty = _ask(bench_prompts.EAGER_UPDATE, existing="[]", facts=render_facts(["New.", "Newer fact here."]))
    assert empty == {"memory": [{"id": "0", "text": "New.", "event": "ADD"},
                                {"id": "1", "text": "Newer fact here.", "event": "ADD"}]}

    answer = _ask(bench_prompts.ANSWER, context="\n[2023-05-08] The user prefers tea.\nOther line", question="Drink?")
    assert answer == {"answer": "[2023-05-08] The user prefers tea."}
    assert _ask(bench_prompts.ANSWER, context="", question="Drink?") == {"answer": "Not mentioned"}


@pytest.mark.parametrize(
    ("gold", "answer", "label"),
    [("A shell necklace", "She bought a necklace made of shells", "CORRECT"), ("7 May 2023", "In June", "WRONG")],
)
def test_judge(gold, answer, label):
    assert _ask(bench_prompts.JUDGE, question="What?", gold=gold, answer=answer)["label"] == label


def test_unknown_prompts_get_an_empty_object():
    assert consolidation_responder({"messages": [{"role": "user", "content": "hello"}]}) == {}
