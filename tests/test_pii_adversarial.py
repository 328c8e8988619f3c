"""The adversarial masking suite (bench/pii_adversarial.py) through the real API: fresh canaries each run, looked for
in a full database dump, every API response, the logs and the admin list pages.

Here: the tuned part of the groups this branch owns (national identifiers, health data, dates of birth, names, secret
syntax), which must not leak; and a control that proves the search finds a planted value."""

from __future__ import annotations

import random

import pytest

from bench.pii_adversarial import Case, generate_cases, part_of, run_cases, select

pytestmark = pytest.mark.django_db


def test_the_split_is_stable_and_keeps_both_parts():
    cases = generate_cases(random.Random(1))
    again = generate_cases(random.Random(2))
    assert [c.id for c in cases] == [c.id for c in again]  # ids name techniques, never values
    assert len(cases) >= 150
    assert {c.group for c in cases} == {"encodings", "borders", "secrets", "consolidation", "side_stores"}
    held = [c for c in cases if part_of(c.id) == "held_back"]
    assert 0.2 * len(cases) < len(held) < 0.5 * len(cases)
    values = {c.canaries[0] for c in cases if c.canaries}
    assert not values & {c.canaries[0] for c in again if c.canaries}  # fresh canaries


def test_a_planted_harmless_value_is_found_everywhere_it_went(api_client, make_agent):
    from governance.privacy.engine import MaskingPolicy, mask_many

    holder = make_agent()
    # A fresh value the masker leaves alone: the control tests the harness, not the masker ("zebra-191823320-marker"
    # was once read as a place: an over-mask of issue 29, 1 draw in ~300).
    for _ in range(20):
        marker = f"zebra-{random.randrange(10**9)}-marker"
        text = f"the word is {marker}"
        if mask_many([text], policy=MaskingPolicy.default(), key=b"control")[0].text == text:
            break
    else:
        raise AssertionError("no harmless marker in 20 draws")
    report = run_cases([Case("control/plain", "borders", "exchange", text, (marker,))],
                       client=api_client, headers=holder.headers, consolidate=False)
    leaked = report["tuned" if part_of("control/plain") == "tuned" else "held_back"]
    assert report["leaks"] == 1
    assert leaked["by_place"]["dump"] == 1 and leaked["by_place"]["api"] == 1


def test_identifiers_names_and_secret_syntax_do_not_leak(api_client, make_agent):
    holder = make_agent()
    cases = [c for c in select(generate_cases(), "tuned") if c.group in ("borders", "secrets")
             and c.channel in ("exchange", "turns")][::2]
    report = run_cases(cases, client=api_client, headers=holder.headers, consolidate=False)
    assert report["leaks"] == 0, report["tuned"].get("leaked_cases")


def test_the_bench_command_runs_the_suite_and_leaves_nothing_behind(capsys):
    from django.core.management import call_command

    from agents.models import Agent

    call_command("bench_pii", "--adversarial", "tuned", "--adversarial-only", "--adversarial-limit", "3",
                 "--adversarial-seed", "7")
    out = capsys.readouterr().out
    assert "Adversarial suite: 3 cases" in out
    assert not Agent.objects.filter(name="attacker").exists()  # rolled back


def test_a_key_split_between_a_text_and_its_metadata_is_masked(api_client, make_agent):
    from bench.canaries import Canaries
    from testing.dump import database_dump

    holder = make_agent()
    key = Canaries(random.Random()).github()
    session = api_client.post("/api/v1/sessions", {}, format="json", **holder.headers).json()
    response = api_client.post(f"/api/v1/sessions/{session['id']}/exchanges", {
        "user": f"token part one {key[:20]}", "assistant": "ok", "metadata": {"part2": key[20:]}},
        format="json", **holder.headers)
    assert response.status_code == 201
    dump = database_dump()
    assert key[4:20] not in dump and key[20:] not in dump


def test_an_attempted_admin_username_is_neither_stored_nor_logged(make_agent):
    # the failed login's form shows the requester what they typed (served to them only); the dump, the logs, the
    # admin pages and the rest of the response must not hold it
    case = next(c for c in generate_cases() if c.id == "side_stores/admin/login_username")
    report = run_cases([case], client=None, headers={}, consolidate=False)
    assert report["leaks"] == 0, report


def test_the_login_echo_filter_only_drops_the_username_field():
    from bench.pii_adversarial import _LOGIN_USERNAME_INPUT_RE, _drop_value

    body = ('<input type="text" name="username" value="ab.cd@example.net" id="id_username">'
            '<p class="errornote">no account ab.cd@example.net</p>')
    filtered = _LOGIN_USERNAME_INPUT_RE.sub(_drop_value, body)
    assert 'name="username" id="id_username"' in filtered
    assert filtered.count("ab.cd@example.net") == 1  # an error message naming the user is still seen
