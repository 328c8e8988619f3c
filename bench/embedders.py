"""Embedder backends side by side: speed, retrieval quality, neighbour agreement, trigger calibration.

``python manage.py bench_embedders --json embedders.json`` embeds the LoCoMo dev set's exchanges (the bench's
pairing and text form) and questions with each backend in one process, one after the other, and reports:

- **speed**: texts per second over every exchange form (one ``embed`` call, the backend's batching), query latency
  p50/p95 (``embed_one`` per question), and the ingest bound ``1 / (1/embedding + 1/masking)`` with the masking-only
  rate measured in the same run;
- **retrieval quality**: flat exact retrieval over each conversation's exchanges (raw text, no masking: the
  embedders are compared, not the pipeline; ``bench_locomo --mode flat`` measures the pipeline), evidence
  recall@10 and @25, on the tuning conversations (conv-26, -30, -41, -42) and, beside, the untuned ones
  (conv-43, -44, -47);
- **neighbour agreement** with the torch vectors: overlap of each exchange's 10 nearest exchanges;
- **thresholds**: θ_sim calibrated on the tuning conversations so that the same share of units can make a topic
  ripe as the reference model at its θ_sim (``memory.calibration``: the (θ_count−1)-th neighbour), and the merge,
  dedup and related cut-offs mapped at equal selectivity (the same share of 10-nearest-neighbour similarities
  above them); the untuned conversations' ripe share at those values shows whether the calibration transfers;
- **the marathon scenario** of ``testing/scenarios.py`` (the e2e consolidation flow's): the similarities among its
  five recurring units and to its chatter, and whether the fifth unit makes the topic ripe at the backend's θ_sim;
- **two stages**: the static model's top-N as candidates, re-scored with the reference model's vectors (quality
  only: the re-scoring needs the reference vector of every stored unit and of the query, so it cannot be cheaper
  than the reference alone; see the report's note).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench.locomo import conversation_exchanges, load_locomo, percentile
from testing.scenarios import CHATTER as E2E_CHATTER
from testing.scenarios import MARATHON, ONE_OFF

TUNE = ("conv-26", "conv-30", "conv-41", "conv-42")
UNTUNED = ("conv-43", "conv-44", "conv-47")
BACKENDS = ("local", "onnx", "onnx-int8", "static")
TWO_STAGE_CANDIDATES = (50, 100)

# The e2e scenario's texts: a topic that recurs five times among chatter (its one-off question included).
CHATTER = [*E2E_CHATTER, ONE_OFF]


class Corpus:
    """Each conversation's exchange text forms with the dia_ids they cover, and its scored questions."""

    def __init__(self, data: Path) -> None:
        from memory.textform import unit_text_form

        self.conversations: dict[str, dict[str, Any]] = {}
        for conversation in load_locomo(data):
            forms, covers = [], []
            for session, pairs in conversation_exchanges(conversation):
                for pair in pairs:
                    forms.append(unit_text_form(occurred_at=session.started_at, user=pair.user,
                                                assistant=pair.assistant))
                    covers.append(set(pair.dia_ids))
            questions = [q for q in conversation.qa if q.category in (1, 2, 3, 4) and q.evidence]
            self.conversations[conversation.sample_id] = {
                "forms": forms, "covers": covers, "questions": [q.question for q in questions],
                "evidence": [set(q.evidence) for q in questions]}

    def names(self, split: Sequence[str]) -> list[str]:
        return [n for n in split if n in self.conversations]

    @property
    def forms(self) -> list[str]:
        return [f for c in self.conversations.values() for f in c["forms"]]

    @property
    def questions(self) -> list[str]:
        return [q for c in self.conversations.values() for q in c["questions"]]


def _split(flat: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    return np.split(flat, np.cumsum(sizes)[:-1]) if sizes else []


def evidence_recall(corpus: Corpus, names: list[str], forms: dict[str, np.ndarray], queries: dict[str, np.ndarray],
                    k: int, rescore: tuple[dict[str, np.ndarray], dict[str, np.ndarray], int] | None = None) -> float:
    """Mean share of each question's evidence turns covered by its k nearest exchanges (exact search within the
    conversation). ``rescore = (forms, queries, n)``: take the n nearest by these vectors, re-rank by those."""
    recalls = []
    for name in names:
        conv = corpus.conversations[name]
        sims = queries[name] @ forms[name].T
        if rescore is not None:
            r_forms, r_queries, n = rescore
            candidates = np.argsort(-sims, axis=1)[:, :n]
            second = np.take_along_axis(r_queries[name] @ r_forms[name].T, candidates, axis=1)
            top = np.take_along_axis(candidates, np.argsort(-second, axis=1)[:, :k], axis=1)
        else:
            top = np.argsort(-sims, axis=1)[:, :k]
        for row, evidence in zip(top, conv["evidence"], strict=True):
            covered = set().union(*(conv["covers"][i] for i in row))
            recalls.append(len(evidence & covered) / len(evidence))
    return round(float(np.mean(recalls)), 4) if recalls else None


def _nearest(vectors: np.ndarray, k: int) -> np.ndarray:
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1)[:, :k]


def neighbour_overlap(a: dict[str, np.ndarray], b: dict[str, np.ndarray], names: list[str], k: int = 10) -> float:
    shares = []
    for name in names:
        for x, y in zip(_nearest(a[name], k), _nearest(b[name], k), strict=True):
            shares.append(len(set(x) & set(y)) / k)
    return round(float(np.mean(shares)), 4)


def neighbour_similarities(vectors: dict[str, np.ndarray], names: list[str], k: int = 10) -> np.ndarray:
    """Similarities of every unit to its k nearest units (within its conversation)."""
    out = []
    for name in names:
        sims = vectors[name] @ vectors[name].T
        np.fill_diagonal(sims, -np.inf)
        out.append(-np.sort(-sims, axis=1)[:, :k].ravel())
    return np.concatenate(out)


def marathon(embedder: Any, theta_sim: float, theta_count: int) -> dict[str, Any]:
    from memory.textform import unit_text_form

    day = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    forms = [unit_text_form(occurred_at=day + timedelta(days=i), user=u, assistant=a)
             for i, (u, a) in enumerate(MARATHON + CHATTER)]
    vectors = np.asarray(embedder.embed(forms), dtype=np.float32)
    sims = vectors @ vectors.T
    n = len(MARATHON)
    within = sims[:n, :n][~np.eye(n, dtype=bool)]
    across = sims[:n, n:]
    # The fifth unit arrives last: its topic is ripe when θ_count − 1 earlier units are at least θ_sim alike.
    ripe = int((sims[n - 1, : n - 1] >= theta_sim).sum()) + 1 >= theta_count
    return {"within_topic_min": round(float(within.min()), 4), "within_topic_mean": round(float(within.mean()), 4),
            "to_chatter_max": round(float(across.max()), 4), "fifth_unit_neighbours_at_theta":
            int((sims[n - 1, : n - 1] >= theta_sim).sum()), "ripe_at_fifth_unit": bool(ripe)}


def masking_rate(corpus: Corpus, n: int = 300) -> float:
    """Exchanges per second of masking alone (both turns of an exchange), as the ingest path masks them."""
    from governance.privacy.engine import MaskingPolicy, mask_many

    texts = []
    for form in corpus.forms[:n]:
        texts += form.split("\n", 1)[1].split("\nassistant: ") if "\n" in form else [form]
    policy = MaskingPolicy.default()
    mask_many(texts[:4], policy=policy, key=b"k" * 32)
    started = time.perf_counter()
    mask_many(texts, policy=policy, key=b"k" * 32)
    return n / (time.perf_counter() - started)


def run_embedders(*, data: Path, backends: Sequence[str] = BACKENDS, reference: str = "local",
                  log: Callable[[str], None] = print) -> dict[str, Any]:
    from memory.calibration import coverage_curve, ripeness_similarities, theta_for_coverage
    from memory.gateways.embeddings import get_embedder
    from memory.thresholds import thresholds_for

    corpus = Corpus(data)
    tune, untuned = corpus.names(TUNE), corpus.names(UNTUNED)
    every = list(corpus.conversations)
    sizes = [len(c["forms"]) for c in corpus.conversations.values()]
    qsizes = [len(c["questions"]) for c in corpus.conversations.values()]
    report: dict[str, Any] = {
        "benchmark": "embedders", "data": str(data), "exchanges": sum(sizes), "questions": sum(qsizes),
        "tuning_conversations": tune, "untuned_conversations": untuned, "reference": reference,
        "cpus": os.cpu_count(), "load_average_start": list(os.getloadavg()), "backends": {},
        "method": "flat exact retrieval per conversation on raw text (no masking); θ_sim calibrated on the tuning "
                  "conversations by equal ripe share (memory.calibration), other cut-offs by equal selectivity",
    }
    started = time.perf_counter()
    report["masking_only_exchanges_per_second"] = round(masking_rate(corpus), 1)
    log(f"masking only: {report['masking_only_exchanges_per_second']} exchanges/s")
    vectors: dict[str, dict[str, np.ndarray]] = {}
    queries: dict[str, dict[str, np.ndarray]] = {}
    order = [reference] + [b for b in backends if b != reference]
    for backend in order:
        embedder = get_embedder(backend=backend)
        embedder.embed(corpus.forms[:16])  # load (and build, the first time) outside the timing
        t = time.perf_counter()
        flat = np.asarray(embedder.embed(corpus.forms), dtype=np.float32)
        embed_s = time.perf_counter() - t
        query_ms, qvectors = [], []
        for question in corpus.questions:
            t = time.perf_counter()
            qvectors.append(embedder.embed_one(question))
            query_ms.append((time.perf_counter() - t) * 1000)
        vectors[backend] = dict(zip(every, _split(flat, sizes), strict=True))
        queries[backend] = dict(zip(every, _split(np.asarray(qvectors, dtype=np.float32), qsizes), strict=True))
        rate = len(flat) / embed_s
        mask = report["masking_only_exchanges_per_second"]
        entry: dict[str, Any] = {
            "model_id": embedder.model_id, "texts_per_second": round(rate, 1),
            "query_p50_ms": round(percentile(query_ms, 50), 2), "query_p95_ms": round(percentile(query_ms, 95), 2),
            "embedding_plus_masking_exchanges_per_second": round(1 / (1 / rate + 1 / mask), 1),
            "retrieval": {split: {f"evidence_recall@{k}": evidence_recall(corpus, names, vectors[backend],
                                                                         queries[backend], k) for k in (10, 25)}
                          for split, names in (("tuning", tune), ("untuned", untuned))},
        }
        if backend != reference:
            entry["neighbour_overlap@10_with_reference"] = neighbour_overlap(vectors[backend], vectors[reference],
                                                                             every)
        report["backends"][backend] = entry
        log(f"{backend} ({embedder.model_id}): {entry['texts_per_second']} texts/s, query p50 "
            f"{entry['query_p50_ms']} ms, recall {entry['retrieval']}")

    # Thresholds: calibrated on the tuning conversations against the reference model's configured values.
    ref_thresholds = thresholds_for(get_embedder(backend=reference).model_id)
    count = ref_thresholds.theta_count
    ripeness = {b: ripeness_similarities([vectors[b][n] for n in tune], count) for b in order}
    ripeness_untuned = {b: ripeness_similarities([vectors[b][n] for n in untuned], count) for b in order}
    ref_share = float((ripeness[reference] >= ref_thresholds.theta_sim).mean())
    ref_neighbours = neighbour_similarities(vectors[reference], tune)
    for backend in order:
        embedder = get_embedder(backend=backend)
        configured = thresholds_for(embedder.model_id)
        neighbours = neighbour_similarities(vectors[backend], tune)

        def equal_selectivity(value: float, own: np.ndarray = neighbours) -> float:
            return round(float(np.quantile(own, float((ref_neighbours < value).mean()))), 3)

        calibrated = {"theta_sim": round(theta_for_coverage(ripeness[backend], ref_share), 3),
                      "merge": equal_selectivity(ref_thresholds.merge),
                      "dedup": equal_selectivity(ref_thresholds.dedup),
                      "related": equal_selectivity(ref_thresholds.related)}
        entry = report["backends"][backend]
        entry["thresholds"] = {
            "configured": {"theta_sim": configured.theta_sim, "theta_count": configured.theta_count,
                           "merge": configured.merge, "dedup": configured.dedup, "related": configured.related},
            "calibrated_on_tuning": calibrated,
            "ripe_share_tuning_at_configured": round(float((ripeness[backend] >= configured.theta_sim).mean()), 4),
            "ripe_share_untuned_at_configured": round(
                float((ripeness_untuned[backend] >= configured.theta_sim).mean()), 4),
            "coverage_curve_tuning": coverage_curve(ripeness[backend], [round(x, 2) for x in
                                                                         np.arange(0.30, 0.91, 0.05)]),
        }
        entry["marathon"] = marathon(embedder, configured.theta_sim, configured.theta_count)
        log(f"{backend}: thresholds {entry['thresholds']['calibrated_on_tuning']} (configured "
            f"{entry['thresholds']['configured']['theta_sim']}), marathon {entry['marathon']}")
    report["reference_ripe_share_tuning"] = round(ref_share, 4)

    if "static" in vectors and reference in vectors:
        report["two_stage"] = {
            f"static_top{n}_rescored_by_{reference}": {
                split: {f"evidence_recall@{k}": evidence_recall(corpus, names, vectors["static"], queries["static"],
                                                               k, rescore=(vectors[reference], queries[reference], n))
                        for k in (10, 25)} for split, names in (("tuning", tune), ("untuned", untuned))}
            for n in TWO_STAGE_CANDIDATES}
        report["two_stage_note"] = (
            "Re-scoring needs the reference vector of every stored unit (computed at ingest: the reference's cost, "
            "plus the static one) and of the query (the reference's query latency), so the two stages can only add "
            "cost to the reference alone on this architecture; re-embedding the candidates at query time instead "
            f"costs N texts of the reference per query (N={TWO_STAGE_CANDIDATES[0]}: N / texts_per_second).")
        log(f"two stages: {report['two_stage']}")
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    report["load_average_end"] = list(os.getloadavg())
    return report
