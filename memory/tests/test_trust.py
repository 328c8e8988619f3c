"""The trust rule (memory/trust.py): reviewed > corroborated by ≥ 2 agents > user > assistant > tool."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.services.consolidation import burst_count
from memory.trust import RANK, Source, Trust, episode_trust, exchange_trust, item_trust, may_corroborate


def test_the_levels_are_ordered():
    order = [Trust.REVIEWED, Trust.CORROBORATED, Trust.USER, Trust.ASSISTANT, Trust.TOOL]
    assert sorted(order, key=RANK.__getitem__, reverse=True) == order


def test_an_exchange_earns_what_its_source_says():
    assert exchange_trust(source=Source.CONVERSATION, user_text="We deploy on Tuesdays.") == Trust.USER
    assert exchange_trust(source=Source.CONVERSATION, user_text="  ") == Trust.ASSISTANT  # the assistant alone
    assert exchange_trust(source=Source.AGENT_NOTE, user_text="note") == Trust.ASSISTANT
    assert exchange_trust(source=Source.TOOL, user_text="fetched page") == Trust.TOOL
    assert exchange_trust(source=Source.IMPORT, user_text="old wiki") == Trust.TOOL


def test_an_item_earns_what_its_weakest_evidence_earns_unless_reviewed_or_corroborated():
    assert item_trust(reviewed=True, independent_agents=0, evidence=[Trust.TOOL]) == Trust.REVIEWED
    assert item_trust(reviewed=False, independent_agents=2, evidence=[Trust.TOOL, Trust.USER]) == Trust.CORROBORATED
    assert item_trust(reviewed=False, independent_agents=1, evidence=[Trust.USER, Trust.USER]) == Trust.USER
    assert item_trust(reviewed=False, independent_agents=1, evidence=[Trust.USER, Trust.ASSISTANT]) == Trust.ASSISTANT
    assert item_trust(reviewed=False, independent_agents=1, evidence=[Trust.USER, Trust.TOOL]) == Trust.TOOL
    assert item_trust(reviewed=False, independent_agents=0, evidence=[]) == Trust.ASSISTANT


def test_an_episode_is_as_trusted_as_its_weakest_source_and_never_corroborated():
    # two agents' turns in one narrative vouch for none of its sentences (an attacker beside an honest agent)
    assert episode_trust(evidence=[Trust.USER, Trust.USER]) == Trust.USER
    assert episode_trust(evidence=[Trust.USER, Trust.ASSISTANT]) == Trust.ASSISTANT
    assert episode_trust(evidence=[Trust.USER, Trust.TOOL]) == Trust.TOOL
    assert episode_trust(evidence=[]) == Trust.ASSISTANT


def test_tool_output_imports_and_held_text_never_corroborate():
    assert may_corroborate(source=Source.CONVERSATION, quarantined=False)
    assert may_corroborate(source=Source.AGENT_NOTE, quarantined=False)
    assert not may_corroborate(source=Source.TOOL, quarantined=False)
    assert not may_corroborate(source=Source.IMPORT, quarantined=False)
    assert not may_corroborate(source=Source.CONVERSATION, quarantined=True)


def test_a_burst_of_sessions_counts_once():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    burst = [(t0 + timedelta(seconds=20 * i), True) for i in range(12)]  # twelve sessions in four minutes
    assert burst_count(burst, window=600) == 1
    days = [(t0 + timedelta(days=d), True) for d in range(3)]
    assert burst_count(days, window=600) == 3
    assert burst_count(burst + days[1:], window=600) == 3
    assert burst_count([], window=600) == 0
