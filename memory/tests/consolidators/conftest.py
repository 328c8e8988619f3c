"""Fixtures of the consolidation tests: plain Python, no database, the fake OpenAI server over loopback HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.consolidators.types import ExistingExperience, Unit
from memory.gateways.llm import LLMGateway
from testing.fake_openai import FakeOpenAIServer

T0 = datetime(2023, 5, 8, 9, 0, tzinfo=UTC)


def make_unit(uid: str, day: float, user: str, assistant: str = "OK.", *, session: str | None = None, turn: int = 0):
    when = T0 + timedelta(days=day)
    return Unit(
        id=uid,
        session_id=session or f"s-{uid}",
        turn_index=turn,
        occurred_at=when,
        user=user,
        assistant=assistant,
        session_started_at=when,
    )


def make_experience(eid: str, kind: str, subject: str, statement: str, similarity: float = 0.7):
    return ExistingExperience(
        id=eid,
        type=kind,
        subject=subject,
        statement=statement,
        confidence=0.7,
        valid_from=T0 - timedelta(days=60),
        created_at=T0 - timedelta(days=60),
        similarity=similarity,
    )


MARATHON = [
    (
        "m1",
        0,
        "I signed up for the Berlin marathon on September 24. It will be my first marathon!",
        "Congratulations! That gives you about 20 weeks to train.",
    ),
    (
        "m2",
        3,
        "How should I structure my marathon training? I can run about 30 km a week right now.",
        "First, build your base mileage slowly. Then add one long run every weekend. Finally, taper for three weeks.",
    ),
    (
        "m3",
        7,
        "I prefer running in the morning before work, usually at 6am.",
        "Morning runs are great; remember to warm up properly.",
    ),
    (
        "m4",
        10,
        "I ran my first 25 km long run for the marathon yesterday in 2 hours 40 minutes.",
        "That's a solid pace for your marathon goal.",
    ),
    (
        "m5",
        14,
        "My physio <PERSON_3f2a> said I must never increase my weekly marathon mileage by more than 10 percent.",
        "That's the classic 10 percent rule; it protects against injury.",
    ),
    (
        "m6",
        20,
        "I learned that starting too fast ruins my long runs, so next time I'll start slower for the marathon.",
        "Pacing is the key skill of marathon running.",
    ),
]


@pytest.fixture
def marathon_units() -> list[Unit]:
    return [make_unit(uid, day, user, assistant) for uid, day, user, assistant in MARATHON]


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def gateway(srv) -> LLMGateway:
    return LLMGateway(base_url=srv.base_url, api_key="test", model="fake", temperature=0, timeout=5, max_retries=0)
