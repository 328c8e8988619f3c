"""The bulk path of ``bench_scale --bulk-copy``: a store of 1M exchanges written with COPY in minutes.

The 1M measurement is about the *store* (search latency, HNSW recall, index build, memory), not the ingest path, which
``bench_scale``'s other phases measure through ``exchanges_ingest`` and HTTP. Through the service the fill ran at
~20–35 exchanges/s here (8+ hours for 1M, stopped at 66k under load); this path writes the same rows directly:

- **Texts**: the same exchanges as the service fill (``TextSource``: LoCoMo dev turns recombined in pairs, seeded,
  one minute apart, 200 per session, four agents of one module, every other session module-scoped). Every distinct
  turn is masked once with the bench project's policy (``texts_mask``: real Presidio, the pseudonyms registered), so
  the stored texts and text forms are the ones the service would store (its fast fill memoised masking per turn too).
- **Exchange vectors**: each turn's two lines (``user: …``, ``assistant: …``) have their real MiniLM vector (from
  ``bench/cache/embeddings`` or encoded once, ~8k encodings); an exchange's vector is the √(words)-weighted,
  normalised sum of its two line vectors — the fast fill's composition, whose cosine to the real vectors
  ``compose_fidelity`` measures in the same run. Queries and their ground truth use real vectors: the queries are
  encoded by the search itself, and the ground truth is an exact scan over these same rows.
- **Layers**: as the service fill: per session of 200 exchanges, topic groups of 20 (``topic_groups``: a seed and
  its 19 most similar), one episode per group, titled and narrated from its members' user lines; two experiences per
  group, each a member's user line with that line's real vector. An episode's vector is the real encoding of its
  text when the embedding cache has it (earlier runs; the first ``EPISODE_SAMPLE`` episodes are encoded and compared
  with their composition: ``episode_fidelity``), else the √(words)-weighted, normalised sum of the real vectors of the
  user lines it narrates: 50,000 encodings at 1M would take 20–40 min of these two cores.
- **Rows**: ``COPY … FROM STDIN (FORMAT BINARY)`` per table, 20,000 exchanges per transaction, with the HNSW indexes
  dropped (``run_scale`` builds them once after the fill, ``maintenance_work_mem`` sized to the graph). What the
  service also writes and the search never reads is left out: audit events and recurrence candidates (the trigger
  is off in this measurement, as in the fast fill).
"""

from __future__ import annotations

import struct
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from bench.store import AGENTS, BULK_BATCH, EPISODE_EVERY, CountingEmbedder, Store, TextSource, topic_groups
from memory.textform import unit_text_form

COPY_CHUNK = 20_000  # exchanges per transaction (100 sessions)
EPISODE_SAMPLE = 200  # episodes encoded for real and compared with their composed vector
NARRATED = 4  # members whose user lines an episode's narrative holds (store.layers_add)


def vector_binary(vectors: np.ndarray) -> list[bytes]:
    """pgvector's binary wire form of each row (int16 dimensions, int16 unused, big-endian float4s): sent through a
    binary COPY as raw field bytes, so no float is ever formatted as text."""
    vectors = np.ascontiguousarray(vectors, dtype=">f4")
    header = struct.pack(">HH", vectors.shape[1], 0)
    return [header + row.tobytes() for row in vectors]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


class TurnBank:
    """Every LoCoMo turn of ``source`` masked once, with the real vectors of its ``user:`` and ``assistant:`` lines
    pre-weighted by √(words) for the composition (``CountingEmbedder.composed_vectors``' rule)."""

    def __init__(self, *, source: TextSource, store: Store, embedder: CountingEmbedder,
                 log: Callable[[str], None]) -> None:
        from governance.services.privacy import texts_mask

        started = time.perf_counter()
        distinct = list(dict.fromkeys(source.turns))
        masked_of: dict[str, str] = {}
        for i in range(0, len(distinct), 2 * BULK_BATCH):
            part = distinct[i:i + 2 * BULK_BATCH]
            masked_of.update(zip(part, texts_mask(project=store.project, texts=part), strict=True))
        self.masked = [masked_of[t] for t in source.turns]
        self.masking_seconds = round(time.perf_counter() - started, 1)
        log(f"    turn bank: {len(distinct)} distinct turns masked in {self.masking_seconds} s")
        started = time.perf_counter()
        computed = embedder.computed
        user_lines = [f"user: {m}" for m in self.masked]
        assistant_lines = [f"assistant: {m}" for m in self.masked]
        vectors = np.asarray(embedder.encode(user_lines + assistant_lines), dtype=np.float32)
        weights = np.sqrt(np.maximum([len(line.split()) for line in user_lines + assistant_lines], 1))
        weighted = vectors * weights[:, None].astype(np.float32)
        n = len(self.masked)
        self.user_vectors, self.user_weighted, self.assistant_weighted = vectors[:n], weighted[:n], weighted[n:]
        self.line_encodings = embedder.computed - computed
        self.lines = 2 * n
        self.vector_seconds = round(time.perf_counter() - started, 1)
        log(f"    turn bank: {2 * n} line vectors ({self.line_encodings} encoded, the rest from the cache) in "
            f"{self.vector_seconds} s")

    def episode_vector(self, users: Sequence[int]) -> np.ndarray:
        """An episode narrated from the user turns ``users``: the normalised sum of their weighted line vectors."""
        total = self.user_weighted[list(users)].sum(axis=0)
        return total / (np.linalg.norm(total) or 1.0)

    def report(self) -> dict[str, Any]:
        return {"turns": len(self.masked), "masking_seconds": self.masking_seconds, "line_vectors": self.lines,
                "line_vectors_encoded": self.line_encodings, "line_vector_seconds": self.vector_seconds}


def episode_fidelity(bank: TurnBank, embedder: CountingEmbedder,
                     episodes: Sequence[tuple[str, Sequence[int]]]) -> dict[str, Any]:
    """Cosine between the real encoding of each episode's text (cached or encoded now, then cached) and its composed
    vector: how faithful the composed episodes are."""
    real = np.asarray(embedder.encode([text for text, _ in episodes]), dtype=np.float32)
    composed = np.asarray([bank.episode_vector(users) for _, users in episodes], dtype=np.float32)
    cos = np.sum(_unit_rows(real) * composed, axis=1)
    return {"episodes": len(episodes), "cosine_mean": round(float(cos.mean()), 4),
            "cosine_p5": round(float(np.percentile(cos, 5)), 4),
            "method": f"normalised sum of the √(words)-weighted vectors of the {NARRATED} user lines narrated"}


def _column_types(cursor, table: str) -> dict[str, str]:
    cursor.execute("SELECT a.attname, t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
                   "WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped", [table])
    return dict(cursor.fetchall())


class Copier:
    """Binary COPY of rows into one model's table: the given columns per row, every other concrete column at its
    model default (one value for the whole COPY), the auto-increment key and generated columns left to the
    database."""

    def __init__(self, cursor, model, columns: Sequence[str]) -> None:
        from django.db import models

        self.model = model
        table = model._meta.db_table
        types = _column_types(cursor, table)
        defaults = {}
        for field in model._meta.concrete_fields:
            if field.column in columns or isinstance(field, models.AutoField | models.BigAutoField):
                continue
            if field.generated:  # computed by PostgreSQL (the full-text column of hybrid search); COPY refuses it
                continue
            value = field.get_default()
            defaults[field.column] = value if value is not None or field.null else None
        self.columns = [*columns, *defaults]
        self.tail = tuple(defaults.values())
        # pgvector's columns travel as the raw bytes of its binary form (vector_binary), declared as bytea; arrays
        # (PostgreSQL's "_varchar") by the name psycopg knows them ("varchar[]").
        self.types = ["bytea" if types[c] == "vector" else f"{types[c][1:]}[]" if types[c].startswith("_")
                      else types[c] for c in self.columns]
        self.sql = (f'COPY "{table}" ({", ".join(chr(34) + c + chr(34) for c in self.columns)}) '
                    f"FROM STDIN (FORMAT BINARY)")
        self.cursor = cursor

    def write(self, rows: Iterable[tuple]) -> int:
        n = 0
        with self.cursor.copy(self.sql) as copy:
            copy.set_types(self.types)
            for row in rows:
                copy.write_row(row + self.tail)
                n += 1
        return n


def fill_copy(*, store: Store, source: TextSource, target: int, bank: TurnBank, embedder: CountingEmbedder,
              log: Callable[[str], None]) -> dict[str, Any]:
    """Write exchanges ``store.count`` … ``target`` − 1 and their layers with COPY (module docstring)."""
    from django.db import connection, transaction
    from django.utils import timezone

    from memory.models import Episode, EpisodeSource, Exchange, Experience, ExperienceEvidence, Session

    started = time.perf_counter()
    first = store.count
    rows = {"exchanges": 0, "episodes": 0, "experiences": 0, "links": 0}
    timings = {"compose": 0.0, "episode_vectors": 0.0, "copy": 0.0}
    episode_encodings = embedder.computed
    episodes_cached = episodes_composed = 0
    fidelity: dict[str, Any] | None = None
    last_log = started
    model_id = embedder.model_id
    while store.count < target:
        chunk_end = min(target, store.count + COPY_CHUNK)
        t = time.perf_counter()
        picks = [source.exchange_turns(i) for i in range(store.count, chunk_end)]
        users = np.fromiter((u for u, _, _ in picks), dtype=np.int64, count=len(picks))
        assistants = np.fromiter((a for _, a, _ in picks), dtype=np.int64, count=len(picks))
        vectors = _unit_rows(bank.user_weighted[users] + bank.assistant_weighted[assistants]).astype(np.float32)
        wire = vector_binary(vectors)
        now = timezone.now()
        sessions, exchange_rows, episode_texts, episode_meta, experiences = [], [], [], [], []
        for s_start in range(0, len(picks), BULK_BATCH):
            s_picks = picks[s_start:s_start + BULK_BATCH]
            number = store.sessions + len(sessions)
            agent = store.agents[number % AGENTS]
            module = store.module if number % 2 == 0 else None
            scope = "module" if module else "personal"
            session = Session(project_id=store.project.id, owner_agent_id=agent.id,
                              module_id=module.id if module else None, scope=scope, external_id=f"bulk-{number}",
                              status=Session.Status.CLOSED, started_at=s_picks[0][2], closed_at=s_picks[-1][2],
                              next_turn_index=len(s_picks))
            sessions.append(session)
            ids = []
            for turn, (u, a, when) in enumerate(s_picks):
                row_id = uuid.uuid4()
                ids.append(row_id)
                user, assistant = bank.masked[u], bank.masked[a]
                exchange_rows.append((row_id, store.project.id, agent.id, session.module_id, scope, session.id, turn,
                                      user, assistant, unit_text_form(occurred_at=when, user=user,
                                                                      assistant=assistant),
                                      when, wire[s_start + turn], model_id, now))
            for group in topic_groups(vectors[s_start:s_start + len(s_picks)], EPISODE_EVERY):
                members = [s_start + g for g in group]
                title = bank.masked[picks[members[0]][0]][:60]
                narrative = " ".join(bank.masked[picks[m][0]][:160] for m in members[:NARRATED])
                episode_texts.append((f"{title}\n{narrative}", [picks[m][0] for m in members[:NARRATED]]))
                episode_meta.append((uuid.uuid4(), title, narrative, session, [ids[g] for g in group],
                                     min(picks[m][2] for m in members), max(picks[m][2] for m in members)))
                for m in ([members[0], members[len(members) // 2]] if len(members) > 1 else [members[0]]):
                    experiences.append((uuid.uuid4(), session, ids[m - s_start], picks[m][0], picks[m][2]))
        timings["compose"] += time.perf_counter() - t
        t = time.perf_counter()
        if fidelity is None:
            fidelity = episode_fidelity(bank, embedder, episode_texts[:EPISODE_SAMPLE])
        known = [embedder.cache.get(text) if embedder.cache is not None else None for text, _ in episode_texts]
        episodes_cached += sum(v is not None for v in known)
        episodes_composed += sum(v is None for v in known)
        episode_wire = vector_binary(np.asarray(
            [v if v is not None else bank.episode_vector(users) for v, (_, users) in zip(known, episode_texts,
                                                                                          strict=True)],
            dtype=np.float32))
        experience_wire = vector_binary(bank.user_vectors[[u for _, _, _, u, _ in experiences]])
        timings["episode_vectors"] += time.perf_counter() - t
        t = time.perf_counter()
        with transaction.atomic():
            Session.objects.bulk_create(sessions)
            with connection.cursor() as cursor:
                rows["exchanges"] += Copier(cursor, Exchange, [
                    "id", "project_id", "owner_agent_id", "module_id", "scope", "session_id", "turn_index",
                    "user_text", "assistant_text", "text_form", "occurred_at", "embedding", "embedding_model",
                    "created_at"]).write(exchange_rows)
                rows["episodes"] += Copier(cursor, Episode, [
                    "id", "project_id", "owner_agent_id", "module_id", "scope", "title", "narrative", "embedding",
                    "embedding_model", "started_at", "ended_at", "created_at", "updated_at"]).write(
                    (e_id, store.project.id, s.owner_agent_id, s.module_id, s.scope, title, narrative, vector,
                     model_id, begin, end, now, now)
                    for (e_id, title, narrative, s, _, begin, end), vector in zip(episode_meta, episode_wire,
                                                                                  strict=True))
                rows["links"] += Copier(cursor, EpisodeSource, ["episode_id", "exchange_id"]).write(
                    (e_id, x_id) for e_id, _, _, _, members, _, _ in episode_meta for x_id in members)
                rows["experiences"] += Copier(cursor, Experience, [
                    "id", "project_id", "owner_agent_id", "module_id", "scope", "type", "subject", "statement",
                    "embedding", "embedding_model", "valid_from", "last_corroborated_at", "created_at",
                    "updated_at"]).write(
                    (x_id, store.project.id, s.owner_agent_id, s.module_id, s.scope, "fact", "bench",
                     bank.masked[u], vector, model_id, when, now, now, now)
                    for (x_id, s, _, u, when), vector in zip(experiences, experience_wire, strict=True))
                rows["links"] += Copier(cursor, ExperienceEvidence, ["experience_id", "exchange_id"]).write(
                    (x_id, ex_id) for x_id, _, ex_id, _, _ in experiences)
        timings["copy"] += time.perf_counter() - t
        store.count = chunk_end
        store.sessions += len(sessions)
        now_t = time.perf_counter()
        if now_t - last_log > 30 or store.count >= target:
            log(f"    bulk copy {store.count}/{target} ({(store.count - first) / (now_t - started):.0f} exchanges/s; "
                + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()) + ")")
            last_log = now_t
    if embedder.cache is not None:
        embedder.cache.flush()
    elapsed = time.perf_counter() - started
    added = store.count - first
    return {"method": "COPY (FORMAT BINARY), HNSW indexes built after the fill", "exchanges": added,
            "rows": rows, "seconds": round(elapsed, 1),
            "exchanges_per_second": round(added / elapsed, 1) if elapsed else None,
            "seconds_by_part": {k: round(v, 1) for k, v in timings.items()},
            "episode_vectors": {"encoded": embedder.computed - episode_encodings, "real": episodes_cached,
                                "composed": episodes_composed, "fidelity": fidelity},
            "exchange_vectors": "composed from the real vectors of the turn lines", "chunk": COPY_CHUNK,
            "session_size": BULK_BATCH, "started_at_t0_plus": str(timedelta(minutes=first))}
