"""Consolidation of one point said in other words (round 24, on scenarios written that round): a change that names
what it moved away from supersedes it however far apart the embeddings are, a rule "from now on" with another tool
supersedes the old one, and one rule the extraction typed twice ends as one item. Each fails on the code before it."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from bench.paraphrase import load_scenario


def _run(tmp_path, scenario: str, facts: list[str]) -> dict:
    """Replay the chosen facts of a scenario (their paraphrases and changes, six fillers) through the REST API."""
    data = load_scenario(scenario)
    data["facts"] = [f for f in data["facts"] if f["id"] in facts]
    data["contradictions"] = [c for c in data["contradictions"] if c["fact"] in facts]
    data["filler"] = data["filler"][:6]
    path = tmp_path / f"{scenario}.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "out.json"
    call_command("bench_paraphrase", "--scenario", str(path), "--json", str(out))
    [run] = json.loads(out.read_text())["runs"]
    return run


@pytest.mark.django_db(transaction=True)
def test_a_change_naming_its_origin_supersedes_what_it_moved_away_from(tmp_path):
    """"card processing switched from Stripe to Adyen" and "going forward, all card authorizations go through Adyen"
    (0.31 from "all our card charges go through Stripe"): before, the change was taken as corroboration of an
    unrelated item whose evidence mentioned card processing, and the Stripe rule stayed active."""
    run = _run(tmp_path, "payments_team", ["card-processor"])
    [change] = run["contradictions"]
    assert change["resolved"], change
    assert change["new_active"] == 1 and change["old_still_active"] == 0 and change["superseded"] >= 1


@pytest.mark.django_db(transaction=True)
def test_a_rule_from_now_on_with_another_tool_supersedes_the_old_tool(tmp_path):
    """"Going forward, all alerts page the on-call via Opsgenie" against "on-call alerts are routed through PagerDuty":
    before, it corroborated the PagerDuty item."""
    run = _run(tmp_path, "infra_team", ["oncall-paging"])
    [change] = run["contradictions"]
    assert change["resolved"], change


@pytest.mark.django_db(transaction=True)
def test_a_rule_typed_twice_by_the_extraction_ends_as_one_item(tmp_path):
    """"Money stays as integer cents after the float rounding incident" (a lesson or pattern) and "all monetary
    values are integer minor units" (a constraint), witnessed by the same paraphrases: before, two items."""
    run = _run(tmp_path, "payments_team", ["money-in-cents", "idempotency-keys"])
    assert run["merged"] == 2 and run["items_per_fact"] == 1.0, run["per_fact"]
