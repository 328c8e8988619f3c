"""The scale benchmark's store and how it is filled: texts recombined from LoCoMo turns, the embedding cache, the
counting embedder and memoising masker (the gateways passed to the ingest service), the bench project with its
agents, the bulk fill through the ingest service and the episode/experience layers beside it. Shared by
:mod:`bench.scale` (the measurements) and :mod:`bench.bulkfill` (the COPY fill of the 1M store)."""

from __future__ import annotations

import hashlib
import random
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench.locomo import load_locomo

BULK_BATCH = 200
EPISODE_EVERY = 20
AGENTS = 4
BENCH_HMAC_KEY = hashlib.sha256(b"recmem-bench-scale-pseudonyms").hexdigest()
T0 = datetime(2023, 1, 1, 9, 0, tzinfo=UTC)


# --------------------------------------------------------------------------------------------------------
# Texts.


TEXT_BANKS = ("locomo-turns", "datasets")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MIN_SENTENCE_WORDS = 4


def dataset_lines(data: Path, turns: list[str]) -> list[str]:
    """The ``datasets`` bank: every distinct line of the shared datasets beside the LoCoMo file ``data`` (its
    ``../memorybank`` and ``../presidio_research``): LoCoMo's ``turns`` and, for turns of several sentences, each
    sentence of 4+ words; LoCoMo observations, session summaries and event summaries; MemoryBank queries and responses;
    presidio-research's synthetic PII sentences (masked like any text by the fill).

    Why: with LoCoMo turns alone (4,124) a 1M store holds each turn in ~485 exchanges, and a question's exact
    nearest neighbours are a crowd of near-ties ordered by the unrelated other half of each exchange (the 10th and
    30th only 0.023 apart) — an artefact of the recombination, not of conversations. ~4× more distinct lines make
    the crowd ~4× smaller."""
    import json

    root = Path(data).resolve().parent.parent
    memorybank = root / "memorybank" / "memory_bank_en.json"
    presidio = root / "presidio_research" / "synth_pii_dev.json"
    for path in (memorybank, presidio):
        if not path.exists():
            raise ValueError(f"the datasets text bank needs {path}")
    lines = list(turns)
    for conversation in json.loads(Path(data).read_text(encoding="utf-8")):
        for key, turns in (conversation.get("conversation") or {}).items():
            if not (key.startswith("session_") and isinstance(turns, list)):
                continue
            for turn in turns:
                sentences = _SENTENCE_END.split((turn.get("text") or "").strip())
                if len(sentences) > 1:
                    lines += [s for s in sentences if len(s.split()) >= MIN_SENTENCE_WORDS]
        for per_session in (conversation.get("observation") or {}).values():
            for facts in per_session.values():
                lines += [fact[0] for fact in facts if fact and isinstance(fact[0], str)]
        lines += [s for s in (conversation.get("session_summary") or {}).values() if isinstance(s, str)]
        for events in (conversation.get("event_summary") or {}).values():
            for value in events.values():
                if isinstance(value, list):
                    lines += [e for e in value if isinstance(e, str)]
    for user in json.loads(memorybank.read_text(encoding="utf-8")).values():
        for day in (user.get("history") or {}).values():
            for pair in day:
                lines += [pair.get("query") or "", pair.get("response") or ""]
    lines += [row["full_text"] for row in json.loads(presidio.read_text(encoding="utf-8"))]
    return [line for line in dict.fromkeys(t.strip() for t in lines) if line]


class TextSource:
    """Deterministic exchanges made of lines recombined in pairs (fixed seed): exchange i is always the same. The
    lines (still called turns) are LoCoMo's turns (``locomo-turns``, the default) or ``dataset_lines``
    (``datasets``); the queries are LoCoMo's questions either way."""

    def __init__(self, data: Path, seed: int = 7, bank: str = "locomo-turns") -> None:
        if bank not in TEXT_BANKS:
            raise ValueError(f"unknown text bank {bank!r} (one of {', '.join(TEXT_BANKS)})")
        conversations = load_locomo(data)
        turns = [t.text for c in conversations for s in c.sessions for t in s.turns]
        if not turns:
            raise ValueError(f"no turns in {data}")
        self.bank = bank
        self.turns = dataset_lines(data, turns) if bank == "datasets" else turns
        self.questions = [q.question for c in conversations for q in c.qa if q.category in (1, 2, 3, 4)]
        self.seed = seed

    def exchange_turns(self, i: int) -> tuple[int, int, datetime]:
        """Exchange ``i`` as the indexes of its user and assistant turns in ``turns``, and its time."""
        rng = random.Random(self.seed * 1_000_003 + i)
        return rng.randrange(len(self.turns)), rng.randrange(len(self.turns)), T0 + timedelta(minutes=i)

    def exchange(self, i: int) -> tuple[str, str, datetime]:
        user, assistant, when = self.exchange_turns(i)
        return self.turns[user], self.turns[assistant], when

    def queries(self, n: int) -> list[str]:
        rng = random.Random(self.seed)
        pool = list(self.questions)
        rng.shuffle(pool)
        return [pool[i % len(pool)] for i in range(n)]


# --------------------------------------------------------------------------------------------------------
# Embedding cache (text form → vector), append-only chunk files.


class EmbeddingCache:
    def __init__(self, directory: Path, model_id: str) -> None:
        self.dir = directory / re.sub(r"[^A-Za-z0-9_.-]+", "_", model_id)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.index: dict[bytes, tuple[int, int]] = {}
        self.chunks: list[np.ndarray] = []
        self.pending_keys: list[bytes] = []
        self.pending_vectors: list[list[float]] = []
        self.pending_index: dict[bytes, int] = {}  # not yet flushed, but already readable
        for path in sorted(self.dir.glob("chunk-*.npz")):
            with np.load(path) as data:
                keys, vectors = data["keys"], data["vectors"]
            chunk = len(self.chunks)
            self.chunks.append(vectors)
            for row, key in enumerate(keys):
                self.index[bytes(key)] = (chunk, row)

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.sha1(text.encode("utf-8")).digest()

    def get(self, text: str) -> list[float] | None:
        key = self.key(text)
        where = self.index.get(key)
        if where is None:
            pending = self.pending_index.get(key)
            return None if pending is None else self.pending_vectors[pending]
        return self.chunks[where[0]][where[1]].tolist()

    def put(self, text: str, vector: list[float]) -> None:
        key = self.key(text)
        if key in self.index or key in self.pending_index:
            return
        self.pending_index[key] = len(self.pending_keys)
        self.pending_keys.append(key)
        self.pending_vectors.append(vector)
        if len(self.pending_keys) >= 20000:
            self.flush()

    def flush(self) -> None:
        if not self.pending_keys:
            return
        keys = np.frombuffer(b"".join(self.pending_keys), dtype=np.uint8).reshape(-1, 20)
        vectors = np.asarray(self.pending_vectors, dtype=np.float32)
        number = len(list(self.dir.glob("chunk-*.npz")))
        path = self.dir / f"chunk-{number:05d}-{uuid.uuid4().hex[:6]}.npz"
        np.savez(path, keys=keys, vectors=vectors)
        chunk = len(self.chunks)
        self.chunks.append(vectors)
        for row, key in enumerate(self.pending_keys):
            self.index[key] = (chunk, row)
        self.pending_keys, self.pending_vectors, self.pending_index = [], [], {}

    def __len__(self) -> int:
        return len(self.index) + len(self.pending_index)


def form_parts(form: str) -> list[str]:
    """The turn lines of a unit text form (``unit_text_form``) without its timestamp line."""
    body = form.split("\n", 1)[1] if form.startswith("[") and "\n" in form else form
    user, sep, assistant = body.partition("\nassistant: ")
    return [user, sep.lstrip("\n") + assistant] if sep else [body]


class CountingEmbedder:
    """Wraps the configured embedder: optional cache reads, cache writes, counts; remembers the last vectors.

    With ``compose`` (the 1M fast fill only), a text form missing from the cache is not encoded: its vector is the
    normalised sum of the vectors of its two turn lines, weighted by √(words); each line is encoded once, then
    cached. Exchanges recombine a few thousand LoCoMo turns, so this makes 1M distinct vectors from ~10k encodings;
    ``compose_fidelity`` measures how close composed vectors are to real ones and the report states both counts.
    """

    def __init__(self, inner: Any, cache: EmbeddingCache | None, read_cache: bool, compose: bool = False) -> None:
        self.inner = inner
        self.cache = cache
        self.read_cache = read_cache
        self.compose = compose
        self.model_id = inner.model_id
        self.dimensions = inner.dimensions
        self.computed = 0
        self.cached = 0
        self.composed = 0
        self.last: list[list[float]] = []

    def _lookup(self, text: str) -> list[float] | None:
        return self.cache.get(text) if (self.cache is not None and self.read_cache) else None

    def _encode(self, texts: list[str]) -> list[list[float]]:
        vectors = self.inner.embed(texts) if texts else []
        if self.cache is not None:
            for text, vector in zip(texts, vectors, strict=True):
                self.cache.put(text, vector)
        self.computed += len(texts)
        return vectors

    def encode(self, texts: list[str]) -> list[list[float]]:
        """Real vectors of ``texts`` (from the cache when allowed, else encoded and cached)."""
        out = [self._lookup(t) for t in texts]
        missing = [i for i, v in enumerate(out) if v is None]
        for i, vector in zip(missing, self._encode([texts[i] for i in missing]), strict=True):
            out[i] = vector
        return out  # type: ignore[return-value]

    def statement_vectors(self, lines: list[str]) -> list[list[float]]:
        """Vectors of experience statements given as turn lines (``user: …``): with the fast fill the line's own
        vector from the cache (the statement is that line's text, at most 200 characters of it), else encoded."""
        if not self.compose:
            return self.encode(lines)
        known = {line: self.cache.get(line) for line in set(lines)} if self.cache is not None else {}
        todo = [line for line, v in known.items() if v is None]
        known.update(zip(todo, self._encode(todo), strict=True))
        return [known[line] for line in lines]

    def composed_vectors(self, forms: list[str]) -> list[list[float]]:
        """Normalised sum of the (cached or encoded) vectors of each form's turn lines."""
        parts = [form_parts(f) for f in forms]
        known: dict[str, list[float]] = {}
        todo = []
        for part in {p for ps in parts for p in ps}:
            vector = self.cache.get(part) if self.cache is not None else None
            if vector is None:
                todo.append(part)
            else:
                known[part] = vector
        known.update(zip(todo, self._encode(todo), strict=True))
        # Weighted by √(words): closest to the real vectors of the weightings tried (cosine 0.92 vs 0.91 unweighted).
        return [_unit(np.sum([np.asarray(known[p]) * np.sqrt(max(len(p.split()), 1)) for p in ps], axis=0))
                for ps in parts]

    def embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float] | None] = [self._lookup(t) for t in texts]
        missing = [i for i, v in enumerate(out) if v is None]
        self.cached += len(texts) - len(missing)
        if missing and self.compose:
            vectors = self.composed_vectors([texts[i] for i in missing])
            self.composed += len(missing)
        elif missing:
            vectors = self._encode([texts[i] for i in missing])
        for i, vector in zip(missing, vectors if missing else [], strict=True):
            out[i] = vector
        self.last = out  # type: ignore[assignment]
        return self.last

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]


class MemoisingMasker:
    """Masking memoised per (key, text), passed to the ingest service during the 1M fast fill: identical input
    gives identical output, and the exchanges recombine a few thousand turns, so each turn is analysed once.
    Counts what it analysed and what it answered from memory."""

    def __init__(self) -> None:
        from governance.privacy.engine import mask_many

        self._mask_many = mask_many
        self._memo: dict[tuple[bytes, str], Any] = {}
        self.counts = {"analysed": 0, "memoised": 0}

    def __call__(self, texts, *, policy=None, key, until_stable=False, known_placeholders=None):
        todo = sorted({t for t in texts if (key, t) not in self._memo})
        for text, result in zip(todo, self._mask_many(todo, policy=policy, key=key, until_stable=until_stable,
                                                      known_placeholders=known_placeholders), strict=True):
            self._memo[(key, text)] = result
        self.counts["analysed"] += len(todo)
        self.counts["memoised"] += len(texts) - len(todo)
        return [self._memo[(key, t)] for t in texts]


def compose_fidelity(source: TextSource, embedder: CountingEmbedder, store: Store, n: int = 300) -> dict[str, Any]:
    """Cosine between real and composed vectors of ``n`` exchange forms masked as the fill masks them (how
    faithful the fast fill is)."""
    from governance.services.privacy import texts_mask
    from memory.textform import unit_text_form

    texts = [source.exchange(2 * 10**9 + i) for i in range(n)]
    masked = texts_mask(project=store.project, texts=[x for u, a, _ in texts for x in (u, a)])
    forms = [unit_text_form(occurred_at=w, user=masked[2 * i], assistant=masked[2 * i + 1])
             for i, (_, _, w) in enumerate(texts)]
    real = np.asarray(embedder.inner.embed(forms), dtype=np.float32)
    composed = np.asarray(embedder.composed_vectors(forms), dtype=np.float32)
    cos = np.sum(real * composed, axis=1) / (np.linalg.norm(real, axis=1) * np.linalg.norm(composed, axis=1))
    return {"pairs": n, "cosine_mean": round(float(cos.mean()), 4), "cosine_p5": round(float(np.percentile(cos, 5)), 4),
            "method": "vector of a form not in the cache = normalised √(words)-weighted sum of the vectors of its "
                        "two turn lines"}


# --------------------------------------------------------------------------------------------------------
# The store.


class Store:
    """The bench project: agents, a module, the fill cursor. ``existing``: continue a store an earlier run kept
    (``--keep-data``), to re-measure it or grow it, instead of creating one."""

    def __init__(self, project_name: str, existing: bool = False) -> None:
        from agents.models import Agent, AgentRole
        from agents.services import agent_create
        from governance.models import PrivacyPolicy
        from governance.services.privacy import privacy_policy_get
        from memory.models import Exchange, Session

        self.project_name = project_name
        if existing:
            self.agents = list(Agent.objects.filter(project__name=project_name, name__startswith="writer-")
                               .order_by("name"))
            if len(self.agents) != AGENTS:
                raise ValueError(f"{project_name!r} is not a kept bench_scale store")
        else:
            self.agents = [agent_create(project_name=project_name, name=f"writer-{i}", module_names=["shared"],
                                        roles=[AgentRole.WRITER, AgentRole.READER, AgentRole.OPERATOR])
                           for i in range(AGENTS)]
            for a in self.agents:
                a.refresh_from_db()
        self.project = self.agents[0].project
        self.module = self.agents[0].modules.get()
        policy = privacy_policy_get(project=self.project)
        # A fixed pseudonym key for the bench project: masked texts (and text forms) repeat across runs, so the
        # embedding cache can hit. Same masking, only the key differs from a random one.
        PrivacyPolicy.objects.filter(pk=policy.pk).update(hmac_key=BENCH_HMAC_KEY)
        # Bulk sessions only (the HTTP phase's texts and sessions are apart): the fill resumes where it stopped.
        self.count = Exchange.objects.filter(project=self.project, session__external_id__startswith="bulk-").count()
        self.sessions = Session.objects.filter(project=self.project, external_id__startswith="bulk-").count()

    @property
    def searcher(self):
        return self.agents[0]


def fill_to(store: Store, source: TextSource, target: int, embedder: CountingEmbedder,
            log: Callable[[str], None], masker: MemoisingMasker | None = None) -> dict[str, Any]:
    """Bulk import until the store holds ``target`` exchanges through the ingest service, with ``embedder`` (and
    ``masker`` when given) as its gateways; returns timing of this segment."""
    from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create

    started = time.perf_counter()
    first = store.count
    computed0, cached0 = embedder.computed, embedder.cached
    last_log = started
    while store.count < target:
        n = min(BULK_BATCH, target - store.count)
        agent = store.agents[store.sessions % AGENTS]
        module = store.module if store.sessions % 2 == 0 else None
        items = []
        for i in range(store.count, store.count + n):
            user, assistant, when = source.exchange(i)
            items.append(ExchangeIn(user=user, assistant=assistant, occurred_at=when))
        session = session_create(agent=agent, external_id=f"bulk-{store.sessions}", module=module,
                                 started_at=items[0].occurred_at)
        result = exchanges_ingest(agent=agent, session=session, items=items, embedder=embedder, masker=masker)
        layers_add(store=store, exchanges=result.exchanges, vectors=embedder.last, embedder=embedder)
        session_close(agent=agent, session=session)
        store.count += n
        store.sessions += 1
        now = time.perf_counter()
        if now - last_log > 30:
            rate = (store.count - first) / (now - started)
            log(f"    bulk import {store.count}/{target} ({rate:.0f} exchanges/s)")
            last_log = now
    if embedder.cache is not None:
        embedder.cache.flush()
    elapsed = time.perf_counter() - started
    added = store.count - first
    return {"exchanges": added, "seconds": round(elapsed, 1),
            "exchanges_per_second": round(added / elapsed, 1) if elapsed else None,
            "embeddings_computed": embedder.computed - computed0, "embeddings_from_cache": embedder.cached - cached0,
            "batch": BULK_BATCH}


def _unit(vector) -> list[float]:
    arr = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(arr)) or 1.0
    return (arr / norm).tolist()


def topic_groups(vectors: np.ndarray, size: int) -> list[list[int]]:
    """Indexes of ``vectors`` cut into groups of ``size`` by topic: each group is an unassigned vector (in order)
    and its ``size - 1`` most similar unassigned ones. Consolidation writes one episode per recurring topic; grouping
    by similarity keeps that property where random groups made episodes that are all alike (their centroids tend to
    the store's mean: at 1M the 2nd and the 50th nearest episode lay at cosine distances 0.032 and 0.040)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    free = np.ones(len(vectors), dtype=bool)
    sims = vectors @ vectors.T
    groups = []
    for seed in range(len(vectors)):
        if not free[seed]:
            continue
        row = np.where(free, sims[seed], -np.inf)
        row[seed] = np.inf
        take = np.argsort(-row)[:size]
        take = [int(i) for i in take if free[i]]
        free[take] = False
        groups.append(take)
    return groups


def layers_add(*, store: Store, exchanges: list, vectors: list[list[float]], embedder: CountingEmbedder) -> None:
    """Episodes and experiences for a bulk chunk (see module docstring, step 2): one episode per topic group of
    ``EPISODE_EVERY`` exchanges, embedded from its own text as consolidation embeds an episode (title and narrative);
    two experiences per group, each the user line of one member, with that line's vector."""
    from memory.models import Episode, EpisodeSource, Experience, ExperienceEvidence

    if not exchanges:
        return
    scope = {"project_id": exchanges[0].project_id, "owner_agent_id": exchanges[0].owner_agent_id,
             "module_id": exchanges[0].module_id, "scope": exchanges[0].scope}
    groups = [[exchanges[i] for i in g] for g in topic_groups(np.asarray(vectors), EPISODE_EVERY)]
    titles = [g[0].user_text[:60] for g in groups]
    narratives = [" ".join(e.user_text[:160] for e in g[:4]) for g in groups]
    episode_vectors = embedder.encode([f"{t}\n{n}" for t, n in zip(titles, narratives, strict=True)])
    picks = [(g[0], g[len(g) // 2]) if len(g) > 1 else (g[0],) for g in groups]
    statements = [e.user_text[:200] for pair in picks for e in pair]
    experience_vectors = iter(embedder.statement_vectors([f"user: {t}" for t in statements]))
    episodes, sources, experiences, evidence = [], [], [], []
    for group, title, narrative, vector, pair in zip(groups, titles, narratives, episode_vectors, picks, strict=True):
        episode = Episode(title=title, narrative=narrative, embedding=vector,
                          embedding_model=group[0].embedding_model, started_at=min(e.occurred_at for e in group),
                          ended_at=max(e.occurred_at for e in group), **scope)
        episodes.append(episode)
        sources += [EpisodeSource(episode=episode, exchange=e) for e in group]
        for e in pair:
            experience = Experience(type="fact", subject="bench", statement=e.user_text[:200],
                                    embedding=next(experience_vectors), embedding_model=e.embedding_model,
                                    valid_from=e.occurred_at, **scope)
            experiences.append(experience)
            evidence.append(ExperienceEvidence(experience=experience, exchange=e))
    Episode.objects.bulk_create(episodes)
    EpisodeSource.objects.bulk_create(sources)
    Experience.objects.bulk_create(experiences)
    ExperienceEvidence.objects.bulk_create(evidence)
