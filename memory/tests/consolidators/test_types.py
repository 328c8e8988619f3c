"""Shared types: chronological ordering, errors and the one Consolidator interface."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.consolidators import (
    ConsolidationError,
    Consolidator,
    ExtractiveConsolidator,
    LLMConsolidator,
    Unit,
    get_consolidator,
    order_units,
)
from memory.gateways.llm import LLMCallRecord

T = datetime(2023, 5, 8, tzinfo=UTC)


def test_order_by_session_start_then_session_then_turn():
    units = [
        Unit("late-0", "s2", 0, T + timedelta(days=2), "a", "b", session_started_at=T + timedelta(days=2)),
        Unit("early-1", "s1", 1, T + timedelta(minutes=5), "a", "b", session_started_at=T),
        Unit("early-0", "s1", 0, T, "a", "b", session_started_at=T),
        Unit("tie-b", "s0b", 0, None, "a", "b", session_started_at=T),
        Unit("undated", "s9", 0, None, "a", "b"),
        Unit("occurred-only", "s3", 0, T + timedelta(days=1), "a", "b"),
    ]
    assert [u.id for u in order_units(units)] == ["undated", "tie-b", "early-0", "early-1", "occurred-only", "late-0"]
    assert units[3].time == T and units[4].time is None


def test_consolidation_error_carries_calls():
    record = LLMCallRecord(
        purpose="episode_write", model="m", prompt_tokens=10, completion_tokens=2, latency_ms=1.0, ok=False
    )
    error = ConsolidationError("boom", [record])
    assert error.calls == [record] and str(error) == "boom"
    assert ConsolidationError("no calls").calls == []


def test_both_consolidators_satisfy_the_protocol(gateway):
    llm = get_consolidator(llm=gateway)
    extractive = get_consolidator(llm=None)
    assert isinstance(llm, LLMConsolidator) and isinstance(llm, Consolidator)
    assert isinstance(extractive, ExtractiveConsolidator) and isinstance(extractive, Consolidator)
    # no endpoint configured (no Django settings here): the default is the extractive consolidator
    assert isinstance(get_consolidator(), ExtractiveConsolidator)
    # nothing to do: no call at all
    assert llm.write_episodes(units=[]) == [] and llm.refine(episodes=[], units=[], related=[]) == []
