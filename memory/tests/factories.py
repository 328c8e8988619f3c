"""Test helpers that go through the real services (masking, embedding, trigger) — no shortcuts into the DB."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.gateways.embeddings import get_embedder
from memory.models import Episode, EpisodeSource, Experience, ExperienceEvidence

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def post_session(client, holder, **body):
    response = client.post("/api/v1/sessions", body, format="json", **holder.headers)
    assert response.status_code == 201, response.content
    return response.json()


def post_exchanges(client, holder, session_id, items):
    response = client.post(f"/api/v1/sessions/{session_id}/exchanges", {"exchanges": items}, format="json",
                           **holder.headers)
    assert response.status_code == 201, response.content
    return response.json()["exchanges"]


def at(days: float = 0, hours: float = 0) -> str:
    return (T0 + timedelta(days=days, hours=hours)).isoformat()


def make_memories(exchange) -> tuple[Episode, Experience]:
    """An episode and an experience built on one stored exchange, in the exchange's own scope (read-path tests)."""
    embedder = get_embedder()
    scope = {"project_id": exchange.project_id, "owner_agent_id": exchange.owner_agent_id,
             "module_id": exchange.module_id, "scope": exchange.scope}
    vec = embedder.embed_one(exchange.user_text)
    episode = Episode.objects.create(title="topic", narrative=exchange.user_text, embedding=vec,
                                     embedding_model=embedder.model_id, started_at=exchange.occurred_at,
                                     ended_at=exchange.occurred_at, **scope)
    EpisodeSource.objects.create(episode=episode, exchange=exchange)
    experience = Experience.objects.create(type="fact", subject="topic", statement=exchange.user_text, embedding=vec,
                                           embedding_model=embedder.model_id, **scope)
    ExperienceEvidence.objects.create(experience=experience, exchange=exchange)
    return episode, experience
