"""The benchmarks' prompts (bench/): versioned and rendered like the product's, answered by the fake responder."""

from __future__ import annotations

import re

import jsonschema
import pytest

from bench.prompts import ANSWER, BENCH_TEMPLATES
from memory.consolidators.prompts import ALL_TEMPLATES, VERSION_MARKER_RE, render, template_for_version
from memory.gateways.tokens import count_messages
from testing.fake_responder import consolidation_responder


@pytest.mark.parametrize("template", BENCH_TEMPLATES, ids=lambda t: t.version)
def test_every_bench_prompt_is_versioned_rendered_and_answered(template):
    jsonschema.Draft202012Validator.check_schema(template.schema)
    values = {name: f"VALUE-{name}" for name in template.variables}
    messages = render(template, **values)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(f"VALUE-{name}" in messages[1]["content"] for name in template.variables)
    assert messages[0]["content"].endswith(f"Prompt version: {template.version}")
    assert re.fullmatch(r"[a-z_]+@\d+", template.version) and template.version.startswith(template.name + "@")
    assert VERSION_MARKER_RE.search(messages[0]["content"]).group(1) == template.name
    assert "json" in (messages[0]["content"] + messages[1]["content"]).lower()
    assert count_messages(messages) > 300
    # Not the product's: its template lookup does not know them, the fake responder answers them by name.
    assert template_for_version(messages[0]["content"]) is None
    assert template.name not in {t.name for t in ALL_TEMPLATES}
    jsonschema.validate(consolidation_responder({"model": "fake", "messages": messages}), template.schema)


def test_values_with_dollars_and_braces_are_inserted_verbatim():
    messages = render(ANSWER, context="costs $5 {not a slot} ${question}", question="Why?")
    assert "costs $5 {not a slot} ${question}" in messages[1]["content"]
