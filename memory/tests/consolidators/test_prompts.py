"""Prompt templates: versions, variables, schemas and the rendering of units."""

from __future__ import annotations

import re

import jsonschema
import pytest

from memory.consolidators import prompts
from memory.consolidators.types import EXPERIENCE_TYPES, EpisodeDraft
from memory.gateways.tokens import count_messages

from .conftest import make_experience, make_unit


@pytest.mark.parametrize("template", prompts.ALL_TEMPLATES, ids=lambda t: t.version)
def test_every_schema_is_valid_json_schema(template):
    jsonschema.Draft202012Validator.check_schema(template.schema)
    assert template.schema["type"] == "object"


@pytest.mark.parametrize("template", prompts.ALL_TEMPLATES, ids=lambda t: t.version)
def test_render_fills_every_variable(template):
    values = {name: f"VALUE-{name}" for name in template.variables}
    messages = prompts.render(template, **values)
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    for name in template.variables:
        assert f"VALUE-{name}" in user
    assert "${" not in user and "$" not in messages[0]["content"]
    assert messages[0]["content"].endswith(f"Prompt version: {template.version}")
    assert re.fullmatch(r"[a-z_]+@\d+", template.version) and template.version.startswith(template.name + "@")
    assert prompts.template_for_version(messages[0]["content"]) is template
    # JSON mode needs the word JSON in the prompt; realistic prompts are hundreds of tokens long.
    assert "json" in (messages[0]["content"] + user).lower()
    assert count_messages(messages) > 300


def test_render_rejects_missing_and_unknown_variables():
    with pytest.raises(KeyError, match="missing"):
        prompts.render(prompts.EPISODE_WRITE, units="x")
    with pytest.raises(TypeError, match="unknown"):
        prompts.render(prompts.SEMANTIC_REFINE, episodes="e", units="u", related="r", extra="x")


def test_values_with_dollars_and_braces_are_inserted_verbatim():
    messages = prompts.render(prompts.SEMANTIC_REFINE, episodes="costs $5 {not a slot} ${units}", units="u",
                              related="r")
    assert "costs $5 {not a slot} ${units}" in messages[1]["content"]


def test_refine_prompt_defines_all_types_and_the_schema_enum_matches():
    system = prompts.render(prompts.SEMANTIC_REFINE, episodes="e", units="u", related="r")[0]["content"]
    for kind in EXPERIENCE_TYPES:
        assert f"- {kind}: {prompts.TYPE_DEFINITIONS[kind]}" in system
    item = prompts.SEMANTIC_REFINE.schema["properties"]["items"]["items"]
    assert item["properties"]["type"]["enum"] == list(EXPERIENCE_TYPES)
    assert "evidence" in item["required"]


def test_instructions_about_chronology_placeholders_and_dates():
    for template in (prompts.EPISODE_WRITE, prompts.EPISODE_MERGE):
        assert "chronological" in template.system.lower()
        assert "<PERSON_3f2a>" in template.system
        assert "absolute dates" in template.system
    assert "<PERSON_3f2a>" in prompts.SEMANTIC_REFINE.system
    assert prompts.EPISODE_WRITE.schema["properties"]["episodes"]["maxItems"] == 3


def test_unit_lines_fold_newlines_and_keep_placeholders():
    unit = make_unit("u-1", 0, "Hi,\nI am <PERSON_3f2a>.\n\nMail me at <EMAIL_ADDRESS_91bc>", "Hello <PERSON_3f2a>!")
    line = prompts.render_unit_line(unit)
    assert line == (
        "[unit u-1] 2023-05-08T09:00+00:00 | user: Hi, I am <PERSON_3f2a>. Mail me at <EMAIL_ADDRESS_91bc> | "
        "assistant: Hello <PERSON_3f2a>!"
    )
    assert prompts.render_units([]) == "(none)"


def test_related_and_episode_rendering():
    related = prompts.render_related([make_experience("x1", "preference", "drink", "User prefers tea.")])
    assert related == (
        "[experience x1] preference | subject: drink | User prefers tea. (confidence 0.70, valid from 2023-03-09)"
    )
    episodes = prompts.render_episode_drafts([EpisodeDraft("Tea", "On 2023-05-08, tea.", ["a", "b"])])
    assert episodes == "Episode 1: Tea (units: a, b)\nOn 2023-05-08, tea."
    assert prompts.render_existing_memories([make_experience("7", "fact", "x", "Likes tea")]) == "[7] Likes tea"
