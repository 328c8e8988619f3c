"""LoCoMo benchmark: replay conversations through the real write path, then score the real search.

Data (``../shared/datasets/locomo/locomo_dev.json``, format in ``../shared/datasets/README.md``):

- sessions are the ``session_<N>`` keys sorted by N (not the ``_date_time`` keys: conv-26 has 16 orphan dates);
  a session's time is ``session_<N>_date_time`` parsed with ``%I:%M %p on %d %B, %Y`` (taken as UTC);
- a turn's text is ``"<speaker>: <text>"``, with ``" [shares photo: <blip_caption>]"`` when the turn has a caption;
- evidence ids are normalised (split on ``;``/``,``/whitespace, ``D:11:26`` → ``D11:26``, leading zeros stripped:
  ``D30:05`` → ``D30:5``); ids that still do not name a turn of the conversation are dropped (and counted);
- answers are cast to ``str`` (6 are ints); category 5 (adversarial) keeps ``adversarial_answer``; only categories
  1–4 are scored (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop — the data's integer labels).

Pairing (one exchange = two consecutive turns of one session): speaker A of the conversation plays ``user`` and
speaker B plays ``assistant``. Walking a session's turns in order, an exchange starts at a speaker-A turn and takes
the immediately following turn when it is speaker B's. A turn that cannot be paired this way becomes an exchange
alone: the speaker-B turn that opens a session (``user`` empty), and a trailing speaker-A turn (``assistant``
empty). LoCoMo turns strictly alternate, so every exchange is two consecutive turns except those lone ends;
chronological order inside an exchange is kept. Each exchange remembers the ``dia_id`` s it covers
(:attr:`PairedExchange.dia_ids`; also stored in ``Exchange.metadata["dia_ids"]``).

Replay (:func:`run_locomo`): a new Project ``bench-locomo-<mode>-<uuid>`` per run, one Agent per conversation (so
a question only sees its own conversation), one Session per LoCoMo session (``session_create`` with the
dataset's time, closed after its last exchange), and one ``exchanges_ingest`` call per exchange in chronological
order — masking, embedding, storing and the recurrence trigger all run for real, and consolidation is enqueued
on commit through django-q2's ``async_task``. The run forces django-q2 sync mode (``Conf.SYNC = True``) so the
queued batch runs inline right after the commit: online consolidation happens exactly when a topic gets ripe,
deterministically. In online mode, after a conversation's last session one more run is requested through
``idle_run_request`` (what the idle tick or ``POST /consolidations/run`` would do later), so candidates that wait
for the agent's next run (salient one-offs) are consolidated and their cost counted. The project is deleted at
the end unless ``keep_data``.

Scoring: for every question of categories 1–4 ``memory_search`` (the selector behind ``POST /search``, without
the hit-count write so that rankings do not drift during the run) returns exchanges, episodes and experiences;

- **evidence recall** = share of the question's evidence dia_ids covered by the results (an exchange covers its
  turns, an episode its source exchanges, an experience its evidence exchanges), averaged per category and
  over all questions;
- **evidence shown** (``evidence_recall_shown``) = evidence in the block where an episode covers only the source
  turns its line shows (one sentence of the turn with at least ``SHOWN_MIN_SHARE`` of its content words on the
  line): the block shows an episode's title and a few sentences, not every source;
- **answer recall** = share of the gold answer's content words found in the ``context`` text the search returns
  at the default token budget (a check on the text itself, not on links);
- **context tokens** = tokens of that context (``count_tokens``); ``result_tokens`` = tokens of *all* returned
  items rendered without a budget.

By default the question is masked with the project's policy before searching (names become the same keyed
pseudonyms as in the stored text); ``mask_queries=False`` searches with the raw question.

Cost: LLM calls and prompt / completion tokens per 100 exchanges, by purpose, from the ``LLMCall`` rows of the
run's project. With the in-process fake OpenAI server the ``usage`` it reports is counted offline on the real
prompts with ``memory.gateways.tokens.count_messages`` (tokenizer ``regex-approx-cl100k``, an approximation of
cl100k); its completions are the fake responder's replies, short and not representative of a real model.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import statistics
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.config import config as recmem_config
from core.text import content_words, words

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
MODES = ("online", "eager", "flat")
ABLATIONS = ("episodes", "semantic", "merge")  # layers of the product's consolidation a run can switch off
CONSOLIDATORS = ("llm", "extractive")
FAKE_MODEL = "fake-gpt-4o-mini"

_SESSION_KEY_RE = re.compile(r"^session_(\d+)$")
_EVIDENCE_SPLIT_RE = re.compile(r"[;,\s]+")
_EVIDENCE_RE = re.compile(r"^D:?(\d+):(\d+)$")


# --------------------------------------------------------------------------------------------------------
# Loading.


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str  # "<speaker>: <text>[ [shares photo: <caption>]]"


@dataclass
class LocomoSession:
    number: int
    started_at: datetime
    turns: list[Turn]


@dataclass
class QA:
    question: str
    answer: str
    category: int
    evidence: list[str]  # normalised, resolved dia_ids
    dropped_evidence: list[str] = field(default_factory=list)  # raw entries that resolved to nothing


@dataclass
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[LocomoSession]
    qa: list[QA]
    unresolved_evidence: int = 0  # evidence pieces dropped while loading

    @property
    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)

    def dia_ids(self) -> set[str]:
        return {t.dia_id for s in self.sessions for t in s.turns}


def parse_session_time(value: str) -> datetime:
    return datetime.strptime(value.strip(), DATE_FORMAT).replace(tzinfo=UTC)


def normalise_evidence(raw: Any, known: set[str]) -> tuple[list[str], list[str]]:
    """``(resolved ids, dropped pieces)`` for one raw evidence entry (a string, or a list of them).

    Split on ``;``, ``,`` and whitespace; ``D:11:26`` → ``D11:26``; leading zeros stripped (``D30:05`` → ``D30:5``);
    a piece that then does not name a known turn is dropped.
    """
    items = raw if isinstance(raw, list) else [raw]
    resolved: list[str] = []
    dropped: list[str] = []
    for item in items:
        for piece in _EVIDENCE_SPLIT_RE.split(str(item or "").strip()):
            if not piece:
                continue
            match = _EVIDENCE_RE.match(piece)
            dia_id = f"D{int(match.group(1))}:{int(match.group(2))}" if match else None
            if dia_id is not None and dia_id in known:
                if dia_id not in resolved:
                    resolved.append(dia_id)
            else:
                dropped.append(piece)
    return resolved, dropped


def turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn.get('speaker', '')}: {str(turn.get('text') or '').strip()}"
    caption = str(turn.get("blip_caption") or "").strip()
    if caption:
        text += f" [shares photo: {caption}]"
    return text


def parse_conversation(obj: dict[str, Any]) -> Conversation:
    conv = obj["conversation"]
    numbers = sorted(int(m.group(1)) for key in conv if (m := _SESSION_KEY_RE.match(key)))
    sessions = []
    for n in numbers:
        turns = [Turn(dia_id=str(t["dia_id"]), speaker=str(t["speaker"]), text=turn_text(t))
                 for t in conv[f"session_{n}"]]
        sessions.append(LocomoSession(number=n, started_at=parse_session_time(conv[f"session_{n}_date_time"]),
                                      turns=turns))
    conversation = Conversation(sample_id=str(obj.get("sample_id", "")), speaker_a=str(conv["speaker_a"]),
                                speaker_b=str(conv["speaker_b"]), sessions=sessions, qa=[])
    known = conversation.dia_ids()
    for item in obj.get("qa") or []:
        category = int(item.get("category", 0))
        answer = item.get("answer")
        if answer is None:
            answer = item.get("adversarial_answer", "")
        evidence: list[str] = []
        dropped: list[str] = []
        for raw in item.get("evidence") or []:
            ok, bad = normalise_evidence(raw, known)
            evidence += [e for e in ok if e not in evidence]
            dropped += bad
        conversation.unresolved_evidence += len(dropped)
        conversation.qa.append(QA(question=str(item.get("question", "")), answer=str(answer), category=category,
                                  evidence=evidence, dropped_evidence=dropped))
    return conversation


def load_locomo(path: str | Path, limit: int | None = None) -> list[Conversation]:
    """The conversations of a LoCoMo-format JSON file (a list of conversation objects), first ``limit`` only."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):  # tolerate a single conversation object
        data = [data]
    objs = data[:limit] if limit else data
    return [parse_conversation(obj) for obj in objs]


# --------------------------------------------------------------------------------------------------------
# Pairing turns into exchanges.


@dataclass(frozen=True)
class PairedExchange:
    session: int
    user: str
    assistant: str
    dia_ids: tuple[str, ...]


def pair_turns(turns: list[Turn], *, speaker_a: str, speaker_b: str, session: int = 0) -> list[PairedExchange]:
    """Exchanges of one session: an A turn + the following B turn; unpaired turns alone (see module docstring)."""
    out: list[PairedExchange] = []
    i = 0
    while i < len(turns):
        turn = turns[i]
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        if turn.speaker != speaker_b and nxt is not None and nxt.speaker == speaker_b:
            out.append(PairedExchange(session, turn.text, nxt.text, (turn.dia_id, nxt.dia_id)))
            i += 2
        elif turn.speaker == speaker_b:
            out.append(PairedExchange(session, "", turn.text, (turn.dia_id,)))
            i += 1
        else:
            out.append(PairedExchange(session, turn.text, "", (turn.dia_id,)))
            i += 1
    return out


def conversation_exchanges(conversation: Conversation) -> list[tuple[LocomoSession, list[PairedExchange]]]:
    return [(s, pair_turns(s.turns, speaker_a=conversation.speaker_a, speaker_b=conversation.speaker_b,
                           session=s.number)) for s in conversation.sessions]


# --------------------------------------------------------------------------------------------------------
# Scoring (pure functions).


def gold_for_recall(qa: QA) -> str:
    """The gold answer as scored: for open-domain (3) only the text before ``;`` (as the upstream scorer)."""
    return qa.answer.split(";")[0] if qa.category == 3 else qa.answer


def answer_recall(gold: str, context: str) -> float | None:
    """Share of the gold answer's distinct content words present in ``context``; None when it has none."""
    expected = set(content_words(gold))
    if not expected:
        return None
    found = set(words(context))
    return len(expected & found) / len(expected)


def covered_dia_ids(*, exchange_ids: Iterable[Any], episode_source_ids: Iterable[Any] = (),
                    experience_evidence_ids: Iterable[Any] = (), dia_map: dict[str, tuple[str, ...]]) -> set[str]:
    """dia_ids covered by the returned exchanges, the episodes' source exchanges and the experiences' evidence."""
    covered: set[str] = set()
    for ids in (exchange_ids, episode_source_ids, experience_evidence_ids):
        for exchange_id in ids:
            covered.update(dia_map.get(str(exchange_id), ()))
    return covered


def evidence_recall(evidence: Iterable[str], covered: set[str]) -> float | None:
    evidence = set(evidence)
    if not evidence:
        return None
    return len(evidence & covered) / len(evidence)


def _mean(values: Iterable[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.fmean(values), 4) if values else None


def aggregate(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """``{"overall", "by_category": {"1": …}, "n"}`` of ``row[key]`` over rows with a value."""
    by_category: dict[str, float | None] = {}
    for category in SCORED_CATEGORIES:
        by_category[str(category)] = _mean(r[key] for r in rows if r["category"] == category)
    return {"overall": _mean(r[key] for r in rows), "by_category": by_category,
            "n": sum(1 for r in rows if r[key] is not None)}


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


# --------------------------------------------------------------------------------------------------------
# Environment of a run: settings, sync queue, the fake LLM server.


@dataclass
class LocomoConfig:
    data: Path
    mode: str = "online"
    consolidator: str = "llm"
    conversations: int | None = None
    only: tuple[str, ...] = ()  # sample ids (conv-43, …): the untuned split, say
    theta_sim: float | None = None
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    judge_model: str = ""
    mask_queries: bool = True
    salience: bool = True
    keep_data: bool = False
    details: bool = False
    k_sub: int = 10
    k_epi: int = 5
    k_sem: int = 10
    flat_ks: tuple[int, ...] = (10, 25)
    # The project's pseudonym key is derived from the seed, so a run can be repeated: a random key per project gave
    # every name other placeholders, other vectors and another ranking in each run (one conversation: 0.763, 0.724,
    # 0.733).
    seed: int = 1
    variant: str = ""  # a name for the settings of this run (an ablation), kept in the report
    ablate: tuple[str, ...] = ()  # layers of the consolidation switched off (ABLATIONS), online runs only
    # Flat is the plain baseline: top-k raw exchanges by cosine, no full-text half, no neighbours — unless asked to
    # search as configured (``--flat-as-configured``: hybrid search over raw exchanges, an ablation).
    flat_plain: bool = True
    with_flat: bool = False  # online/eager runs also score flat top-k on their own exchange layer
    search_variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()


def select_conversations(config: LocomoConfig) -> list[Conversation]:
    """The first ``conversations`` of the file, or the ones named in ``only`` (unknown names are an error)."""
    if not config.only:
        return load_locomo(config.data, config.conversations)
    every = {c.sample_id: c for c in load_locomo(config.data)}
    missing = [name for name in config.only if name not in every]
    if missing:
        raise ValueError(f"no conversation {missing} in {config.data}")
    return [every[name] for name in config.only]


@contextlib.contextmanager
def sync_queue() -> Iterator[None]:
    """django-q2 sync mode for this process: ``async_task`` runs the task inline (deterministic batches)."""
    from django_q.conf import Conf

    previous = Conf.SYNC
    Conf.SYNC = True
    try:
        yield
    finally:
        Conf.SYNC = previous


@contextlib.contextmanager
def bench_settings(*, mode: str, consolidator: str, theta_sim: float | None = None, llm_base_url: str = "",
                   llm_model: str = "", llm_api_key: str = "", salience: bool = True,
                   flat_plain: bool = True) -> Iterator[dict[str, Any]]:
    """Settings of one run; yields ``{"llm_endpoint": "fake"|"given"|"none", "server": FakeOpenAIServer|None}``.

    ``--consolidator llm`` without an endpoint starts :class:`FakeOpenAIServer` with the consolidation responder
    in this process. The developer's ``RECMEM_LLM_BASE_URL`` is never used implicitly (no surprise bills).
    """
    from core.config import config_override
    from memory.gateways.llm import clear_llm_cache
    from testing.fake_openai import FakeOpenAIServer
    from testing.fake_responder import consolidation_responder

    overrides: dict[str, Any] = {
        # The product has no eager mode: an eager run stores with consolidation off, and the bench consolidates
        # each exchange itself (bench.eager.runner).
        "consolidation__mode": mode if mode in ("online", "idle") else "off",
        # Flat runs consolidate nothing: which consolidator is configured does not matter there.
        "consolidation__consolidator": consolidator if mode != "flat" else "auto",
        "llm__base_url": "",
        "consolidation__retry_delay": 1,
    }
    if not salience:
        overrides["consolidation__salience"] = False
    if mode == "flat" and flat_plain:
        overrides.update(PLAIN_SEARCH)
    if theta_sim:
        overrides["consolidation__theta_sim"] = float(theta_sim)
    server = None
    endpoint = "none"
    if consolidator == "llm" and mode != "flat":
        if llm_base_url:
            overrides.update(llm__base_url=llm_base_url, llm__model=llm_model or "gpt-4o-mini",
                             llm__api_key=llm_api_key)
            endpoint = "given"
        else:
            server = FakeOpenAIServer(responder=consolidation_responder, chat_model=FAKE_MODEL).start()
            overrides.update(llm__base_url=server.base_url, llm__model=FAKE_MODEL, llm__api_key="bench",
                             llm__max_retries=0)
            endpoint = "fake"
    clear_llm_cache()
    try:
        with config_override(**overrides), sync_queue():
            yield {"llm_endpoint": endpoint, "server": server}
    finally:
        clear_llm_cache()
        if server is not None:
            server.stop()


def bench_project_name(kind: str) -> str:
    return f"bench-{kind}-{uuid.uuid4().hex[:8]}"


def project_delete(name: str) -> None:
    """Remove a bench project and everything in it (cascades to agents, exchanges, batches, audit, LLM calls)."""
    from django_q.models import Schedule

    from agents.models import Project

    project = Project.objects.filter(name=name).first()
    if project is None:
        return
    from governance.models import AuditEvent

    Schedule.objects.filter(name__startswith="retry:").delete()  # bench retries must not outlive the run
    # A throwaway bench project: its audit chain goes with it (the product never deletes audit events; a project
    # with events is PROTECTed and archived instead).
    AuditEvent.objects.filter(project=project).delete()
    project.delete()


# --------------------------------------------------------------------------------------------------------
# Replay.


@dataclass
class Replayed:
    conversation: Conversation
    agent: Any
    dia_map: dict[str, tuple[str, ...]]
    exchanges: int
    ingest_seconds: float


def bench_pseudonym_key(seed: int) -> str:
    """The pseudonym key of a bench run with ``seed``: same seed, same placeholders, same vectors."""
    import hashlib

    return hashlib.sha256(f"recmem-bench-locomo-pseudonyms-{seed}".encode()).hexdigest()


def fix_pseudonym_key(*, project: Any, seed: int) -> None:
    """Set the bench project's pseudonym key before anything is masked in it (only the key differs from a random
    one: same policy, same masking)."""
    from governance.models import PrivacyPolicy
    from governance.services.privacy import privacy_policy_get

    policy = privacy_policy_get(project=project)
    PrivacyPolicy.objects.filter(pk=policy.pk).update(hmac_key=bench_pseudonym_key(seed))


def replay_conversation(*, project_name: str, conversation: Conversation, log: Callable[[str], None],
                        flush: bool = False, seed: int = 1, eager: bool = False) -> Replayed:
    """Ingest one conversation through the real services, one exchange per call, in chronological order; with
    ``flush``, request a consolidation run at the end for whatever is still pending (the API's "run now"); with
    ``eager``, the eager baseline consolidates each exchange right after it was stored."""
    from django.db import transaction

    from agents.services import agent_create
    from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create

    agent = agent_create(project_name=project_name, name=conversation.sample_id or f"conv-{uuid.uuid4().hex[:6]}")
    agent.refresh_from_db()
    fix_pseudonym_key(project=agent.project, seed=seed)
    dia_map: dict[str, tuple[str, ...]] = {}
    started = time.perf_counter()
    count = 0
    for session, exchanges in sorted(conversation_exchanges(conversation), key=lambda p: p[0].started_at):
        db_session = session_create(agent=agent, external_id=f"session_{session.number}",
                                    started_at=session.started_at,
                                    metadata={"locomo": conversation.sample_id, "session": session.number})
        for ex in exchanges:
            result = exchanges_ingest(agent=agent, session=db_session, items=[
                ExchangeIn(user=ex.user, assistant=ex.assistant, occurred_at=session.started_at,
                           metadata={"dia_ids": list(ex.dia_ids)})])
            dia_map[str(result.exchanges[0].pk)] = ex.dia_ids
            if eager:
                from bench.eager.runner import eager_consolidate

                eager_consolidate(agent=agent, exchanges=result.exchanges)
            count += 1
        session_close(agent=agent, session=db_session)
    if flush:
        # Candidates that did not start a run of their own (salient one-offs wait for the agent's next run) are
        # consolidated now, as the idle tick or an operator request would later: their cost is counted too.
        from memory.services.scheduling import idle_run_request

        with transaction.atomic():
            idle_run_request(agent=agent)
    elapsed = time.perf_counter() - started
    log(f"  {conversation.sample_id}: {count} exchanges from {conversation.turn_count} turns in {elapsed:.1f}s")
    return Replayed(conversation=conversation, agent=agent, dia_map=dia_map, exchanges=count, ingest_seconds=elapsed)


# --------------------------------------------------------------------------------------------------------
# Construction statistics.


def construction_stats(*, project_name: str, exchanges: int) -> dict[str, Any]:
    """LLM calls and tokens (total, per 100 exchanges, by purpose), batches, triggers, consolidated share."""
    from django.db.models import Count, Sum

    from agents.models import Project
    from governance.models import ConsolidationBatch, LLMCall
    from memory.gateways.tokens import TOKENIZER_NAME
    from memory.models import Candidate, Episode, Exchange, Experience, MemoryStatus

    project = Project.objects.get(name=project_name)
    per100 = (100.0 / exchanges) if exchanges else 0.0
    by_purpose = {}
    for row in (LLMCall.objects.filter(project=project).values("purpose")
                .annotate(calls=Count("id"), prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"))
                .order_by("purpose")):
        by_purpose[row["purpose"]] = {
            "calls": row["calls"], "prompt_tokens": row["prompt"] or 0, "completion_tokens": row["completion"] or 0,
            "calls_per_100": round(row["calls"] * per100, 2),
            "prompt_tokens_per_100": round((row["prompt"] or 0) * per100, 1),
            "completion_tokens_per_100": round((row["completion"] or 0) * per100, 1),
        }
    calls = sum(v["calls"] for v in by_purpose.values())
    prompt = sum(v["prompt_tokens"] for v in by_purpose.values())
    completion = sum(v["completion_tokens"] for v in by_purpose.values())
    failed_calls = LLMCall.objects.filter(project=project, ok=False).count()
    sources = dict(Counter(LLMCall.objects.filter(project=project).values_list("tokens_source", flat=True)))

    batches = ConsolidationBatch.objects.filter(project=project)
    batch_status = dict(Counter(batches.values_list("status", flat=True)))
    consolidation_seconds = 0.0
    for b in batches.exclude(started_at=None).exclude(finished_at=None).only("started_at", "finished_at"):
        consolidation_seconds += (b.finished_at - b.started_at).total_seconds()
    reasons = dict(Counter(Candidate.objects.filter(project=project).values_list("reason", flat=True)))
    candidate_status = dict(Counter(Candidate.objects.filter(project=project).values_list("status", flat=True)))
    states = dict(Counter(Exchange.objects.filter(project=project).values_list("state", flat=True)))
    return {
        "llm_calls": calls,
        "llm_calls_failed": failed_calls,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "llm_calls_per_100": round(calls * per100, 2),
        "prompt_tokens_per_100": round(prompt * per100, 1),
        "completion_tokens_per_100": round(completion * per100, 1),
        "by_purpose": by_purpose,
        "tokens_source": sources,
        "tokenizer": TOKENIZER_NAME,
        "batches": sum(batch_status.values()),
        "batch_status": batch_status,
        "consolidation_seconds": round(consolidation_seconds, 2),
        "candidates": reasons,
        "candidate_status": candidate_status,
        "trigger_rate_per_100": round(reasons.get("recurrence", 0) * per100, 2),
        "salience_rate_per_100": round(reasons.get("salience", 0) * per100, 2),
        "exchange_states": states,
        "consolidated_share": round(states.get("consolidated", 0) / exchanges, 4) if exchanges else 0.0,
        "episodes": Episode.objects.filter(project=project, status=MemoryStatus.ACTIVE).count(),
        "experiences": Experience.objects.filter(project=project, status=MemoryStatus.ACTIVE).count(),
    }


def llm_equivalent_prompt_tokens(*, project_name: str) -> dict[str, Any]:
    """For an extractive run: the prompt tokens the LLM consolidator would have been sent for the same batches.

    Renders the real TOPIC_CONSOLIDATE prompt (one call per batch) with each batch's units; existing episodes and
    related experiences are not included, so it is a lower bound. An estimate of the LLM cost of the same
    triggers, not a measurement.
    """
    from governance.models import ConsolidationBatch
    from memory.consolidators import prompts
    from memory.consolidators.types import order_units
    from memory.gateways.tokens import count_messages
    from memory.models import Exchange
    from memory.services.consolidation import exchange_unit

    calls = 0
    tokens = 0
    for batch in ConsolidationBatch.objects.filter(project__name=project_name, status="succeeded"):
        ids = (batch.summary or {}).get("exchanges") or []
        if not ids:
            continue
        units = order_units([exchange_unit(e) for e in Exchange.objects.filter(pk__in=ids).select_related("session")])
        tokens += count_messages(prompts.render(
            prompts.TOPIC_CONSOLIDATE, existing_episode=prompts.render_existing_episode(None),
            units=prompts.render_units(units), unit_count=len(units), related=prompts.render_related([])))
        calls += 1
    return {"llm_calls": calls, "prompt_tokens": tokens,
            "note": "estimate: TOPIC_CONSOLIDATE rendered with each extractive batch's units, counted offline; "
                    "existing episodes (merges), related experiences and the idle session pass not included"}


# --------------------------------------------------------------------------------------------------------
# Answering and judging (optional, with an OpenAI-compatible endpoint).


class Answerer:
    """Answers a question from retrieved context (ANSWER prompt) and grades it (JUDGE prompt)."""

    def __init__(self, *, base_url: str, model: str, judge_model: str = "", api_key: str = "") -> None:
        from memory.gateways.llm import LLMGateway

        self.answer_llm = LLMGateway(base_url, api_key=api_key, model=model or "gpt-4o-mini", timeout=60,
                                     max_retries=2)
        self.judge_llm = LLMGateway(base_url, api_key=api_key, model=judge_model or model or "gpt-4o-mini",
                                    timeout=60, max_retries=2)
        self.usage: dict[str, dict[str, int]] = defaultdict(lambda: {"calls": 0, "prompt_tokens": 0,
                                                                      "completion_tokens": 0})
        self.errors = 0

    def _sink(self, call) -> None:
        entry = self.usage[call.purpose]
        entry["calls"] += 1
        entry["prompt_tokens"] += call.prompt_tokens
        entry["completion_tokens"] += call.completion_tokens

    def answer(self, *, question: str, context: str) -> str:
        from bench import prompts
        from memory.consolidators.prompts import render
        from memory.gateways.llm import LLMError

        try:
            result = self.answer_llm.complete_json(
                purpose="bench_answer", messages=render(prompts.ANSWER, context=context or "(none)",
                                                        question=question),
                schema=prompts.ANSWER.schema, on_call=self._sink)
        except LLMError:
            self.errors += 1
            return ""
        return str(result.data.get("answer", "")).strip()

    def judge(self, *, question: str, gold: str, answer: str) -> bool:
        from bench import prompts
        from memory.consolidators.prompts import render
        from memory.gateways.llm import LLMError

        try:
            result = self.judge_llm.complete_json(
                purpose="bench_judge", messages=render(prompts.JUDGE, question=question, gold=gold,
                                                       answer=answer or "(no answer)"),
                schema=prompts.JUDGE.schema, on_call=self._sink)
        except LLMError:
            self.errors += 1
            return False
        return str(result.data.get("label", "")).upper() == "CORRECT"


# --------------------------------------------------------------------------------------------------------
# Retrieval evaluation.


@dataclass(frozen=True)
class SearchConfig:
    name: str
    k_sub: int
    k_epi: int
    k_sem: int
    # RecMem settings this search runs with (``core.config`` fields): a search ablation on the same store
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def flat(self) -> bool:
        """Plain top-k over raw exchanges (``search_configs`` names these ``flat_top<k>``)."""
        return self.name.startswith("flat_top")


# The plain baseline: top-k raw exchanges by cosine (no full-text half, no neighbours).
PLAIN_SEARCH = (("search__lexical_weight", 0.0), ("search__expand", 0))


def search_configs(config: LocomoConfig) -> list[SearchConfig]:
    flat = [SearchConfig(f"flat_top{k}", k, 0, 0, PLAIN_SEARCH if config.flat_plain else ()) for k in config.flat_ks]
    if config.mode == "flat":
        return flat
    name = f"recmem_{config.k_sub}_{config.k_epi}_{config.k_sem}"
    configs = [SearchConfig(name, config.k_sub, config.k_epi, config.k_sem)]
    # Search ablations need no second replay: the same store searched with other settings.
    configs += [SearchConfig(f"{name}@{variant}", config.k_sub, config.k_epi, config.k_sem, overrides)
                for variant, overrides in config.search_variants]
    # The exchange layer does not depend on consolidation: flat top-k on the same store is the flat mode's search.
    return configs + (flat if config.with_flat else [])


def parse_search_variant(text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """``name:section.field=value,…`` (settings of ``core.config.Config`` such as ``search.expand``, values cast to
    the setting's type) -> the name and ``config_override`` arguments (``search__expand``)."""
    from core.config import config as current

    name, _, settings = text.partition(":")
    if not name.strip() or not settings.strip():
        raise ValueError(f"a search variant is name:section.field=value,…, not {text!r}")
    overrides = []
    for part in settings.split(","):
        path, _, value = part.partition("=")
        section, _, field_name = path.strip().partition(".")
        holder = getattr(current(), section, None)
        if not field_name or holder is None or not hasattr(holder, field_name):
            raise ValueError(f"no setting {path.strip()!r} (expected section.field, e.g. search.expand)")
        kind = type(getattr(holder, field_name))
        overrides.append((f"{section}__{field_name}",
                          value.strip() in ("1", "true", "True") if kind is bool else kind(value)))
    return name.strip(), tuple(overrides)


UNLIMITED_BUDGET = 10**6


def hits_in_context(result: Any, context: str) -> tuple[dict[str, list[Any]], dict[str, dict[str, int]]]:
    """The hits of ``result`` whose line made it into ``context`` (the budget-limited block), and per layer the
    tokens of all its hits' lines (``results``) and of those in the context (``context``).

    Each hit is rendered alone with the selector's own ``context_block`` and its line looked up in the context, so
    the bench never duplicates the context format.
    """
    from memory.gateways.tokens import count_tokens
    from memory.search.context import context_block
    from memory.search.query import SearchResult

    included: dict[str, list[Any]] = {}
    tokens: dict[str, dict[str, int]] = {"results": {}, "context": {}}
    for layer in ("exchanges", "episodes", "experiences"):
        included[layer] = []
        tokens["results"][layer] = tokens["context"][layer] = 0
        # The exchange layer's lines include the session neighbours the search offered the context (expansion).
        hits = [*result.exchanges, *result.neighbours] if layer == "exchanges" else getattr(result, layer)
        for hit in hits:
            text, _ = context_block(SearchResult(**{layer: [hit]}), UNLIMITED_BUDGET)
            lines = text.splitlines()
            line_tokens = count_tokens(lines[1]) + 1 if len(lines) > 1 else 0
            tokens["results"][layer] += line_tokens
            if len(lines) > 1 and lines[1] in context:
                included[layer].append(hit)
                tokens["context"][layer] += line_tokens
    return included, tokens


def _covered(layers: dict[str, list[Any]], dia_map: dict[str, tuple[str, ...]]) -> set[str]:
    return covered_dia_ids(
        exchange_ids=[h.obj.pk for h in layers["exchanges"]],
        episode_source_ids=[s.pk for h in layers["episodes"] for s in h.obj.sources.all()],
        experience_evidence_ids=[e.pk for h in layers["experiences"] for e in h.obj.evidence.all()],
        dia_map=dia_map)


# An episode line shows its title and a few sentences of its narrative, each often one sentence quoted from a
# turn: a source turn counts as *shown* when one of its sentences (of at least SHOWN_MIN_WORDS content words) has
# at least SHOWN_MIN_SHARE of its content words on the line.
SHOWN_MIN_WORDS = 3
SHOWN_MIN_SHARE = 2 / 3
_TURN_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def turn_sentences(text: str) -> list[set[str]]:
    """The content words of each sentence of a turn's text (its speaker's name left out: the stored text has the
    name's placeholder) that has at least ``SHOWN_MIN_WORDS`` of them."""
    out = [set(content_words(s)) for s in _TURN_SENTENCE_END.split(text.split(": ", 1)[-1])]
    return [s for s in out if len(s) >= SHOWN_MIN_WORDS]


def _shown(layers: dict[str, list[Any]], dia_map: dict[str, tuple[str, ...]],
           sentences: dict[str, list[set[str]]]) -> set[str]:
    """As :func:`_covered`, but an episode covers only the source turns its line shows: its sources are its
    evidence, the block carries only the sentences the snippet picked."""
    from memory.search.context import context_block
    from memory.search.query import SearchResult

    out = _covered({**layers, "episodes": []}, dia_map)
    for hit in layers["episodes"]:
        line = set(content_words(context_block(SearchResult(episodes=[hit]), UNLIMITED_BUDGET)[0]))
        for source in hit.obj.sources.all():
            for dia_id in dia_map.get(str(source.pk), ()):
                if any(len(s & line) >= SHOWN_MIN_SHARE * len(s) for s in sentences.get(dia_id, ())):
                    out.add(dia_id)
    return out


def _settings_of(cfg: SearchConfig):
    """The RecMem settings a search configuration runs with (an ablation's overrides), for its search and its block."""
    from core.config import config_override

    return config_override(**dict(cfg.overrides)) if cfg.overrides else contextlib.nullcontext()


def evaluate_conversation(*, replayed: Replayed, configs: list[SearchConfig], mask_queries: bool,
                          answerer: Answerer | None, blocks: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Per search config, one row per scored question: recall numbers, tokens, latency (and answer/judge); with
    ``blocks`` the context block's text too (and the block at the flat baseline's size), to read why a question
    was missed."""

    from governance.services.privacy import texts_mask
    from memory.search.context import context_block
    from memory.search.query import SearchQuery
    from memory.search.selectors import memory_search

    agent = replayed.agent
    questions = [q for q in replayed.conversation.qa if q.category in SCORED_CATEGORIES]
    texts = [q.question for q in questions]
    queries = texts_mask(project=agent.project, texts=texts) if (mask_queries and texts) else texts
    budget = recmem_config().search.token_budget
    sentences = {t.dia_id: turn_sentences(t.text) for session in replayed.conversation.sessions
                 for t in session.turns}
    rows: dict[str, list[dict[str, Any]]] = {c.name: [] for c in configs}
    # The flat baseline whose block size the consolidated searches are also scored at (``at_flat_budget``): the
    # largest flat top-k of the run, so "more recall" is never bought with more context tokens.
    reference = max((c for c in configs if c.flat), key=lambda c: c.k_sub, default=None)
    for qa, query in zip(questions, queries, strict=True):
        results: dict[str, Any] = {}
        for cfg in configs:
            started = time.perf_counter()
            with _settings_of(cfg):
                result = memory_search(agent=agent, query=SearchQuery(
                    query=query, k_sub=cfg.k_sub, k_epi=cfg.k_epi, k_sem=cfg.k_sem, token_budget=UNLIMITED_BUDGET))
            latency_ms = (time.perf_counter() - started) * 1000
            covered = _covered({"exchanges": [*result.exchanges, *result.neighbours], "episodes": result.episodes,
                                "experiences": result.experiences}, replayed.dia_map)
            with _settings_of(cfg):  # the block's settings (its relevance floor) are the search's too
                context, context_tokens = context_block(result, budget)
            included, layer_tokens = hits_in_context(result, context)
            in_context = _covered(included, replayed.dia_map)
            row = {
                "conversation": replayed.conversation.sample_id,
                "category": qa.category,
                "question": qa.question,
                "evidence": qa.evidence,
                "evidence_recall": evidence_recall(qa.evidence, covered),
                "evidence_recall_exchanges_only": evidence_recall(qa.evidence, covered_dia_ids(
                    exchange_ids=[h.obj.pk for h in result.exchanges], dia_map=replayed.dia_map)),
                "evidence_recall_in_context": evidence_recall(qa.evidence, in_context),
                "evidence_recall_shown": evidence_recall(qa.evidence,
                                                         _shown(included, replayed.dia_map, sentences)),
                "answer_recall": answer_recall(gold_for_recall(qa), context),
                "context_tokens": context_tokens,
                "result_tokens": result.context_tokens,
                "context_tokens_by_layer": layer_tokens,
                "latency_ms": round(latency_ms, 2),
                "hits": [len(result.exchanges), len(result.episodes), len(result.experiences)],
                "neighbours": len(result.neighbours),
            }
            if blocks:
                row["gold"], row["context"] = qa.answer, context
            if answerer is not None:
                answer = answerer.answer(question=qa.question, context=context)
                row["answer"] = answer
                row["gold"] = qa.answer
                row["correct"] = 1.0 if answerer.judge(question=qa.question, gold=qa.answer, answer=answer) else 0.0
            rows[cfg.name].append(row)
            results[cfg.name] = result
        if reference is not None:
            flat_tokens = rows[reference.name][-1]["context_tokens"]
            for cfg in configs:
                if cfg.flat:
                    continue
                row, result = rows[cfg.name][-1], results[cfg.name]
                with _settings_of(cfg):
                    context, context_tokens = context_block(result, min(budget, flat_tokens))
                included, _ = hits_in_context(result, context)
                row["at_flat_budget"] = {
                    "reference": reference.name,
                    "context_tokens": context_tokens,
                    "evidence_recall_in_context": evidence_recall(qa.evidence,
                                                                  _covered(included, replayed.dia_map)),
                    "evidence_recall_shown": evidence_recall(qa.evidence,
                                                             _shown(included, replayed.dia_map, sentences)),
                    "answer_recall": answer_recall(gold_for_recall(qa), context),
                }
                if blocks:
                    row["at_flat_budget"]["context"] = context
    return rows


def summarise_rows(rows: list[dict[str, Any]], *, with_answers: bool) -> dict[str, Any]:
    latencies = [r["latency_ms"] for r in rows]
    out = {
        "questions": len(rows),
        "questions_without_evidence": sum(1 for r in rows if r["evidence_recall"] is None),
        "evidence_recall": aggregate(rows, "evidence_recall"),
        "evidence_recall_exchanges_only": aggregate(rows, "evidence_recall_exchanges_only"),
        "evidence_recall_in_context": aggregate(rows, "evidence_recall_in_context"),
        "evidence_recall_shown": aggregate(rows, "evidence_recall_shown"),
        "answer_recall": aggregate(rows, "answer_recall"),
        "context_tokens_per_query": _mean(r["context_tokens"] for r in rows),
        "result_tokens_per_query": _mean(r["result_tokens"] for r in rows),
        # Where the tokens go, per layer: all hits' lines, and the lines in the context block (headers excluded).
        "tokens_by_layer": {part: {layer: _mean(r["context_tokens_by_layer"][part][layer] for r in rows)
                                   for layer in ("exchanges", "episodes", "experiences")}
                            for part in ("results", "context")},
        "search_latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
                              "mean": _mean(latencies)},
        "hits_per_query": {
            layer: _mean(r["hits"][i] for r in rows) for i, layer in enumerate(("exchanges", "episodes",
                                                                                "experiences"))},
        "neighbours_per_query": _mean(r.get("neighbours", 0) for r in rows),
    }
    matched = [{**r["at_flat_budget"], "category": r["category"]} for r in rows if "at_flat_budget" in r]
    if matched:
        # The same results packed into a block no larger than the flat baseline's for the same question.
        out["at_flat_budget"] = {
            "reference": matched[0]["reference"],
            "context_tokens_per_query": _mean(r["context_tokens"] for r in matched),
            "evidence_recall_in_context": aggregate(matched, "evidence_recall_in_context"),
            "evidence_recall_shown": aggregate(matched, "evidence_recall_shown"),
            "answer_recall": aggregate(matched, "answer_recall"),
        }
    if with_answers:
        out["llm_judge_accuracy"] = aggregate(rows, "correct")
    return out


# --------------------------------------------------------------------------------------------------------
# The run.


def run_locomo(config: LocomoConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Replay + evaluate one mode; returns the run's report (see ``bench_locomo --help``)."""

    from memory.gateways.embeddings import get_embedder
    from memory.services.consolidation import consolidation_planner
    from memory.thresholds import thresholds_for

    if config.mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    ablate = config.ablate if config.mode == "online" else ()  # layers of the product's consolidation only
    if config.consolidator not in CONSOLIDATORS:
        raise ValueError(f"consolidator must be one of {CONSOLIDATORS}")
    conversations = select_conversations(config)
    project_name = bench_project_name(f"locomo-{config.mode}")
    answerer = None
    if config.llm_base_url:
        answerer = Answerer(base_url=config.llm_base_url, model=config.llm_model, judge_model=config.judge_model,
                            api_key=config.llm_api_key)
    started = time.perf_counter()
    with bench_settings(mode=config.mode, consolidator=config.consolidator, theta_sim=config.theta_sim,
                        llm_base_url=config.llm_base_url, llm_model=config.llm_model,
                        llm_api_key=config.llm_api_key, salience=config.salience,
                        flat_plain=config.flat_plain) as env, consolidation_planner(ablation_planner(ablate)):
        embedder = get_embedder()
        thresholds = thresholds_for(embedder.model_id)
        log(f"LoCoMo {config.mode} ({config.consolidator if config.mode != 'flat' else 'no consolidation'}), "
            f"{len(conversations)} conversation(s), embedder {embedder.model_id}, θ_sim={thresholds.theta_sim}, "
            f"θ_count={thresholds.theta_count}, project {project_name}")
        try:
            replayed = [replay_conversation(project_name=project_name, conversation=c, log=log,
                                            flush=config.mode == "online", seed=config.seed,
                                            eager=config.mode == "eager")
                        for c in conversations]
            ingest_seconds = time.perf_counter() - started
            exchanges = sum(r.exchanges for r in replayed)
            construction = construction_stats(project_name=project_name, exchanges=exchanges)
            if config.consolidator == "extractive" and config.mode == "online":
                construction["llm_equivalent"] = llm_equivalent_prompt_tokens(project_name=project_name)
            configs = search_configs(config)
            search_started = time.perf_counter()
            rows: dict[str, list[dict[str, Any]]] = {c.name: [] for c in configs}
            for r in replayed:
                for name, conv_rows in evaluate_conversation(replayed=r, configs=configs,
                                                             mask_queries=config.mask_queries,
                                                             answerer=answerer, blocks=config.details).items():
                    rows[name].extend(conv_rows)
            search_seconds = time.perf_counter() - search_started
        finally:
            if not config.keep_data:
                project_delete(project_name)
        endpoint = env["llm_endpoint"]

    retrieval = {name: summarise_rows(r, with_answers=answerer is not None) for name, r in rows.items()}
    report: dict[str, Any] = {
        "benchmark": "locomo",
        "mode": config.mode,
        "consolidator": config.consolidator if config.mode != "flat" else "none",
        "label": run_label(config),
        "data": str(config.data),
        "conversations": [r.conversation.sample_id for r in replayed],
        "turns": sum(r.conversation.turn_count for r in replayed),
        "exchanges": exchanges,
        "pairing": "A turn + following B turn (speaker A = user, speaker B = assistant); unpaired turns alone",
        "questions_scored": len(next(iter(rows.values()), [])),
        "unresolved_evidence_dropped": sum(r.conversation.unresolved_evidence for r in replayed),
        "embedding_model": embedder.model_id,
        "thresholds": asdict(thresholds),
        "llm_endpoint": endpoint,
        "llm_model": recmem_config().llm.model if endpoint != "none" else "",
        "mask_queries": config.mask_queries,
        "seed": config.seed,
        "variant": config.variant,
        "ablate": list(ablate),
        "flat_plain": config.flat_plain if config.mode == "flat" else None,
        "search_settings": {"lexical_weight": recmem_config().search.lexical_weight,
                            "experience_floor": recmem_config().search.experience_floor,
                            "expand": recmem_config().search.expand,
                            "registry_gazetteer": recmem_config().privacy.registry_gazetteer},
        "salience": config.salience,
        "search_token_budget": recmem_config().search.token_budget,
        "construction": construction,
        "retrieval": retrieval,
        "primary": configs[-1].name if config.mode == "flat" else configs[0].name,
        "search_variants": {f"{configs[0].name}@{name}": dict(o) for name, o in config.search_variants},
        "wall_seconds": {"total": round(time.perf_counter() - started, 1), "ingest": round(ingest_seconds, 1),
                         "search": round(search_seconds, 1),
                         "ingest_ms_per_exchange": round(ingest_seconds * 1000 / exchanges, 1) if exchanges else 0},
        "token_counting": token_counting_note(endpoint, config.consolidator, config.mode),
    }
    if answerer is not None:
        report["answer_llm"] = {"model": answerer.answer_llm.model, "judge_model": answerer.judge_llm.model,
                                "usage": dict(answerer.usage), "errors": answerer.errors}
    if config.details:
        report["details"] = rows
    return report


def ablation_planner(ablate: Iterable[str]) -> Any:
    """The product's consolidation without the named layers (``episodes``, ``semantic``, ``merge``), as a planner
    its runs take: the ablations are the bench's, the product has no setting for them."""
    from memory.services.consolidation import Planner

    ablate = set(ablate)
    unknown = ablate - set(ABLATIONS)
    if unknown:
        raise ValueError(f"unknown ablation(s) {sorted(unknown)}; choose from {list(ABLATIONS)}")
    return Planner(episodes="episodes" not in ablate, semantic="semantic" not in ablate,
                   merge="merge" not in ablate)


def run_label(config: LocomoConfig) -> str:
    if config.mode == "flat":
        return "flat"
    label = f"{config.mode}-{config.consolidator}"
    if not config.salience and config.mode == "online":
        label += "-nosalience"
    return f"{label}-theta{config.theta_sim:g}" if config.theta_sim else label


def token_counting_note(endpoint: str, consolidator: str, mode: str) -> str:
    if mode == "flat":
        return "no construction: no LLM calls"
    if endpoint == "fake":
        return ("fake OpenAI-compatible server in-process: prompt tokens counted offline on the real prompts with "
                "memory.gateways.tokens (regex-approx-cl100k); completion tokens are the fake responder's replies "
                "counted the same way (not representative of a real model)")
    if endpoint == "given":
        return "tokens as reported by the endpoint's usage (counted offline only where the endpoint omits usage)"
    return ("extractive consolidator: zero LLM calls; construction.llm_equivalent estimates what the LLM "
            "consolidator would be sent for the same batches (real prompts, counted offline)")


def cost_ratios(online: dict[str, Any], eager: dict[str, Any]) -> dict[str, Any]:
    o, e = online["construction"], eager["construction"]
    e_total = e["prompt_tokens"] + e["completion_tokens"]
    return {
        "online": online["label"],
        "llm_calls_ratio": round(o["llm_calls_per_100"] / e["llm_calls_per_100"], 4)
        if e["llm_calls_per_100"] else None,
        "prompt_tokens_ratio": round(o["prompt_tokens_per_100"] / e["prompt_tokens_per_100"], 4)
        if e["prompt_tokens_per_100"] else None,
        "total_tokens_ratio": round((o["prompt_tokens_per_100"] + o["completion_tokens_per_100"])
                                    / ((e["prompt_tokens_per_100"] + e["completion_tokens_per_100"]) or 1), 4)
        if e_total else None,
        "goal": "<= 0.15 for LLM calls and for prompt tokens",
    }


def compare(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Online ÷ eager cost ratios (per online LLM run) and recall side by side, for the runs present."""
    by_label = {r["label"]: r for r in runs}
    out: dict[str, Any] = {}
    eager = next((r for r in runs if r["mode"] == "eager" and r["consolidator"] == "llm"), None)
    onlines = [r for r in runs if r["mode"] == "online" and r["consolidator"] == "llm"]
    if eager and onlines:
        ratios = {r["label"]: cost_ratios(r, eager) for r in onlines}
        main = by_label.get("online-llm") or onlines[0]
        out["online_vs_eager"] = ratios[main["label"]]
        out["online_vs_eager_by_run"] = ratios
    out["evidence_recall"] = {
        f"{label}:{name}": stats["evidence_recall"]["overall"]
        for label, r in by_label.items() for name, stats in r["retrieval"].items()}
    out["context_tokens_per_query"] = {
        f"{label}:{name}": stats["context_tokens_per_query"]
        for label, r in by_label.items() for name, stats in r["retrieval"].items()}
    return out


def run_sweep(config: LocomoConfig, thetas: list[float], log: Callable[[str], None] = print) -> dict[str, Any]:
    """θ_sim trade-off curve for the configured embedding model: one online replay per value."""
    points = []
    for theta in thetas:
        cfg = replace(config, theta_sim=theta, mode="online", details=False)
        report = run_locomo(cfg, log=log)
        c = report["construction"]
        primary = report["retrieval"][report["primary"]]
        points.append({
            "theta_sim": theta,
            "trigger_rate_per_100": c["trigger_rate_per_100"],
            "salience_rate_per_100": c["salience_rate_per_100"],
            "batches": c["batches"],
            "consolidated_share": c["consolidated_share"],
            "llm_calls_per_100": c["llm_calls_per_100"],
            "prompt_tokens_per_100": c["prompt_tokens_per_100"],
            "completion_tokens_per_100": c["completion_tokens_per_100"],
            "evidence_recall": primary["evidence_recall"]["overall"],
            "answer_recall": primary["answer_recall"]["overall"],
            "context_tokens_per_query": primary["context_tokens_per_query"],
            "wall_seconds": report["wall_seconds"]["total"],
        })
        log(f"  θ_sim={theta}: {points[-1]}")
    return {"benchmark": "locomo_sweep", "consolidator": config.consolidator,
            "embedding_model": report["embedding_model"] if points else "", "conversations": config.conversations,
            "theta_count": report["thresholds"]["theta_count"] if points else None, "points": points}
