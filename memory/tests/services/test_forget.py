"""Forget (memory.services.forget): the exchanges go, what was built on them is rebuilt on what is left or deleted, a
subject's vault, registry and audit mentions go, and one audit event says how many rows — never what."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from core.errors import NotAllowed, NotFound
from governance.models import AuditEvent, PseudonymEntry, VaultEntry
from memory.models import (
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryVersion,
    ReviewItem,
    SearchLog,
    Session,
    ValiditySample,
)
from memory.review.services import review_item_create
from memory.review.versions import memory_version_save
from memory.services.forget import forget
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _say(api_client, holder, texts, **session):
    sid = post_session(api_client, holder, **session)["id"]
    stored = post_exchanges(api_client, holder, sid, [{"user": t, "assistant": "Noted.", "occurred_at": at(hours=i)}
                                                      for i, t in enumerate(texts)])
    return sid, [Exchange.objects.get(pk=s["id"]) for s in stored]


def _everything_text() -> str:
    """Every text column of every table of the database, as one string (what a dump would hold)."""
    out = []
    with connection.cursor() as cursor:
        cursor.execute("""SELECT table_name, column_name FROM information_schema.columns
                          WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb')""")
        for table, column in cursor.fetchall():
            cursor.execute(f'SELECT string_agg("{column}"::text, \' \') FROM "{table}"')
            out.append(cursor.fetchone()[0] or "")
    return "\n".join(out)


def test_a_session_forget_keeps_items_with_other_evidence_and_deletes_the_rest(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader"])
    gone_sid, [gone] = _say(api_client, holder, ["Deploys happen on Thursdays (zorblatt) for the ops team."])
    kept_sid, [kept] = _say(api_client, holder, ["Deploys happen on Thursdays for the ops team."])
    # one item on both sessions (its statement said by the session that stays), one only on the forgotten one, one
    # on both whose statement carries a word only the forgotten session said
    episode, shared = make_memories(kept)
    ExperienceEvidence.objects.create(experience=shared, exchange=gone)
    EpisodeSource.objects.create(episode=episode, exchange=gone)
    Episode.objects.filter(pk=episode.pk).update(narrative="Deploys happen on Thursdays (zorblatt).")
    shared.support_sessions = 2
    shared.save()
    memory_version_save(obj=shared, batch=None, reason="merge")
    _, only_gone = make_memories(gone)
    _, carrier = make_memories(kept)
    Experience.objects.filter(pk=carrier.pk).update(statement="Deploys happen on Thursdays (zorblatt).")
    ExperienceEvidence.objects.create(experience=carrier, exchange=gone)
    review = review_item_create(experience=shared, batch=None, sessions=2)
    assert any(e["id"] == str(gone.pk) for e in review.evidence)
    ValiditySample.objects.create(project=holder.agent.project, experience=only_gone, week="2024-03-04")
    log = SearchLog.objects.create(project=holder.agent.project, agent=holder.agent,
                                   returned=[{"id": str(gone.pk), "layer": "exchange", "scope": "personal"},
                                             {"id": str(kept.pk), "layer": "exchange", "scope": "personal"}])

    counts = forget(project=holder.agent.project, actor=holder.agent, session_ids=[gone_sid],
                    reason="the user asked")

    assert not Session.objects.filter(pk=gone_sid).exists() and not Exchange.objects.filter(pk=gone.pk).exists()
    shared.refresh_from_db()
    assert list(shared.evidence.values_list("pk", flat=True)) == [kept.pk]
    assert shared.support_sessions == 1
    assert not MemoryVersion.objects.filter(experience=shared).exists()
    assert not Experience.objects.filter(pk__in=[only_gone.pk, carrier.pk]).exists()
    assert not ValiditySample.objects.exists()
    review.refresh_from_db()
    assert [e["id"] for e in review.evidence] == [str(kept.pk)]
    episode.refresh_from_db()
    assert "zorblatt" not in episode.narrative.lower() and episode.narrative
    assert list(episode.sources.values_list("pk", flat=True)) == [kept.pk]
    log.refresh_from_db()
    assert [h["id"] for h in log.returned] == [str(kept.pk)]
    assert counts["exchanges_deleted"] == 1 and counts["sessions_deleted"] == 1
    assert counts["experiences_deleted"] == 2 and counts["experiences_kept"] == 1 and counts["episodes_rebuilt"] == 1
    assert "zorblatt" not in _everything_text().lower()
    assert Session.objects.filter(pk=kept_sid).exists()
    [event] = AuditEvent.objects.filter(object_type="forget")
    assert event.reason == "the user asked" and event.actor_agent_id == holder.agent.pk
    assert event.data["exchanges_deleted"] == 1 and event.data["selectors"] == ["session_ids"]
    assert "Deploys" not in str(event.data) and "Thursdays" not in str(event.source_ids)


def test_nothing_left_on_disk_of_a_forgotten_exchange(api_client, make_agent):
    """No row, no vector, no tsvector: the exchange's embedding and full-text vector went with its row."""
    holder = make_agent(roles=["writer", "reader"])
    sid, [x] = _say(api_client, holder, ["The locker code (quibbletrex) is in the blue binder."])
    make_memories(x)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory_exchange WHERE search_vector @@ to_tsquery('english', "
                       "'quibbletrex')")
        assert cursor.fetchone()[0] == 1
    forget(project=holder.agent.project, actor=holder.agent, session_ids=[sid], reason="asked")
    with connection.cursor() as cursor:
        for table in ("memory_exchange", "memory_episode", "memory_experience"):
            cursor.execute(f"SELECT count(*) FROM {table} WHERE search_vector @@ to_tsquery('english', "
                           "'quibbletrex')")
            assert cursor.fetchone()[0] == 0, table
            cursor.execute(f"SELECT count(*) FROM {table} WHERE embedding IS NOT NULL")
            assert cursor.fetchone()[0] == 0, table
    assert "quibbletrex" not in _everything_text().lower()
    found = api_client.post("/api/v1/search", {"query": "locker code blue binder"}, format="json", **holder.headers)
    assert "quibbletrex" not in found.content.decode().lower()


def test_a_writer_forgets_only_its_own_personal_memory(api_client, make_agent):
    owner = make_agent(name="owner", modules=["ops"], roles=["writer", "reader"])
    other = make_agent(name="other", roles=["writer", "reader"])
    module_sid, _ = _say(api_client, owner, ["The ops team deploys on Thursdays."], module="ops")
    foreign_sid, _ = _say(api_client, other, ["My own note."])
    with pytest.raises(NotAllowed):
        forget(project=owner.agent.project, actor=owner.agent, session_ids=[module_sid], reason="x")
    with pytest.raises(NotFound):
        forget(project=owner.agent.project, actor=owner.agent, session_ids=[foreign_sid], reason="x")
    with pytest.raises(NotAllowed):
        forget(project=owner.agent.project, actor=owner.agent, subject="Thursdays", reason="x")
    with pytest.raises(NotAllowed):  # its own agent, but module sessions among them
        forget(project=owner.agent.project, actor=owner.agent, agent=owner.agent, reason="x")
    assert Session.objects.count() == 2 and not AuditEvent.objects.filter(object_type="forget").exists()
    owner.agent.roles = ["writer", "reader", "operator"]
    owner.agent.save()
    forget(project=owner.agent.project, actor=owner.agent, session_ids=[module_sid], reason="x")
    assert not Session.objects.filter(pk=module_sid).exists()


def test_a_subject_forget_erases_its_exchanges_vault_registry_and_mentions(api_client, make_agent):
    from governance.selectors import audit_chain_verify

    holder = make_agent(roles=["writer", "reader", "reviewer"])
    _, [mention, other] = _say(api_client, holder, ["My colleague Jane Roe called about the invoice.",
                                                    "The invoice is due next week."])
    [placeholder] = [p for p in PseudonymEntry.objects.values_list("placeholder", flat=True) if "PERSON" in p]
    assert placeholder in mention.user_text
    episode, item = make_memories(mention)
    EpisodeSource.objects.create(episode=episode, exchange=other)
    Episode.objects.filter(pk=episode.pk).update(narrative=f"{placeholder} called about the invoice.")
    assert api_client.post("/api/v1/search", {"query": "what did Jane Roe say?"}, format="json",
                           **holder.headers).status_code == 200
    assert AuditEvent.objects.filter(reason__contains=placeholder).exists()

    counts = forget(project=holder.agent.project, actor=holder.agent, subject="Jane Roe",
                    reason="erasure request from Jane Roe")

    assert not Exchange.objects.filter(pk=mention.pk).exists() and Exchange.objects.filter(pk=other.pk).exists()
    assert not Experience.objects.filter(pk=item.pk).exists()
    episode.refresh_from_db()
    assert placeholder not in episode.narrative
    assert not VaultEntry.objects.filter(placeholder=placeholder).exists()
    assert not PseudonymEntry.objects.filter(placeholder=placeholder).exists()
    dump = _everything_text()
    assert placeholder not in dump and "Jane" not in dump
    assert counts["audit_reasons_redacted"] >= 1 and counts["vault_entries_deleted"] >= 1
    [event] = AuditEvent.objects.filter(object_type="forget")
    assert event.data["entity_types"] == ["PERSON"] and "Jane" not in event.reason
    assert audit_chain_verify(project_id=holder.agent.project_id).ok
    with pytest.raises(NotFound):
        forget(project=holder.agent.project, actor=holder.agent, subject="Nobody Atall", reason="x")


def test_forget_keeps_no_text_in_its_audit_event(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader"])
    sid, [x] = _say(api_client, holder, ["Secret plan: the merger with Globex closes in May."])
    make_memories(x)
    forget(project=holder.agent.project, actor=holder.agent, session_ids=[sid], reason="cleanup")
    [event] = AuditEvent.objects.filter(object_type="forget")
    recorded = f"{event.reason} {event.data} {event.source_ids} {event.object_id}"
    assert not re.search(r"merger|globex|secret", recorded, re.IGNORECASE)
    assert {k: v for k, v in event.data.items() if k.endswith("_deleted") and v} == {
        "sessions_deleted": 1, "exchanges_deleted": 1, "episodes_deleted": 1, "experiences_deleted": 1}
    assert str(x.pk) in event.source_ids  # ids of what is gone: a row count is checkable, a text is not kept
    assert not ReviewItem.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_tables_a_forget_wrote_are_vacuumed_after_it(api_client, make_agent):
    """Dead row versions still hold the forgotten text until VACUUM: each forget queues one on commit."""
    from memory.services.forget import VACUUMED_TABLES, forget_tables_vacuum

    holder = make_agent(roles=["writer", "reader"])
    sid, [x] = _say(api_client, holder, ["The locker code (quibbletrex) is in the blue binder."])

    def vacuums() -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT relname, vacuum_count FROM pg_stat_user_tables WHERE relname = ANY(%s)",
                           [list(VACUUMED_TABLES)])
            return dict(cursor.fetchall())

    before = vacuums()
    # queued on commit; the test queue is synchronous, so it has run when forget returns
    forget(project=holder.agent.project, actor=holder.agent, session_ids=[sid], reason="asked")
    after = vacuums()
    assert set(after) == set(VACUUMED_TABLES)
    assert all(after[t] > before.get(t, 0) for t in VACUUMED_TABLES), (before, after)
    assert forget_tables_vacuum() == list(VACUUMED_TABLES)
