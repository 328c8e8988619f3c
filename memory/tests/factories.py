"""Test helpers that go through the real services (masking, embedding, trigger) — no shortcuts into the DB, but
for ``exchanges_bulk``: stored rows for tests of what reads them (full-text search, counts)."""

from __future__ import annotations

import contextlib
import threading
from datetime import UTC, datetime, timedelta

from django.db import connection

from memory.gateways.embeddings import get_embedder
from memory.informativeness import informativeness
from memory.models import Episode, EpisodeSource, Exchange, Experience, ExperienceEvidence

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


def exchanges_bulk(agent, session, texts, start: int = 0) -> list[Exchange]:
    """``texts`` stored as exchanges of ``session`` (turns from ``start``), written directly: no masking, one
    placeholder vector."""
    return Exchange.objects.bulk_create([
        Exchange(session=session, turn_index=start + i, user_text=text, assistant_text="", text_form=text,
                 embedding=[0.1] * 384, embedding_model="test", project=agent.project, owner_agent=agent,
                 scope=session.scope) for i, text in enumerate(texts)])


def stored_at(exchange_ids, days: float = 0, hours: float = 0) -> None:
    """Date the stored exchanges as if written then (server time): one agent's sessions stored within
    RECMEM_BURST_WINDOW_SECONDS count once toward corroboration, so a test of sessions days apart stores them so."""
    Exchange.objects.filter(pk__in=list(exchange_ids)).update(created_at=T0 + timedelta(days=days, hours=hours))


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
                                           embedding_model=embedder.model_id,
                                           informativeness=informativeness(exchange.user_text), **scope)
    ExperienceEvidence.objects.create(experience=experience, exchange=exchange)
    return episode, experience


@contextlib.contextmanager
def refusing_inserts(table: str, message: str):
    """A real database error: a trigger makes every INSERT into ``table`` fail with ``message`` inside the block."""
    with connection.cursor() as cursor:
        cursor.execute(f"""
            CREATE FUNCTION recmem_test_refuse() RETURNS trigger AS $$
            BEGIN RAISE EXCEPTION '{message}'; END $$ LANGUAGE plpgsql;
            CREATE TRIGGER recmem_test_refuse BEFORE INSERT ON {table}
            FOR EACH ROW EXECUTE FUNCTION recmem_test_refuse();""")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER recmem_test_refuse ON {table}; DROP FUNCTION recmem_test_refuse();")


@contextlib.contextmanager
def agent_lock_held_elsewhere(agent_id):
    """Another worker (here: another thread, with its own connection) runs a consolidation for the agent and holds
    its lock while the block runs. Needs a transactional test."""
    from memory.services.consolidation import agent_run_lock

    held, release = threading.Event(), threading.Event()

    def other_worker():
        with agent_run_lock(agent_id) as acquired:
            assert acquired
            held.set()
            release.wait(30)
        connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    held.wait(30)
    try:
        yield
    finally:
        release.set()
        thread.join()


def on_each_llm_call(action, reply):
    """A fake-endpoint responder that first runs ``action()`` — in the server's thread, with its own database
    connection, while the run waits for its reply — then answers with ``reply(request)``."""
    def responder(request):
        try:
            action()
        finally:
            connection.close()
        return reply(request)

    return responder
