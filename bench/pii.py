"""Scoring of the masking engine against labelled records (used by the ``bench_pii`` command).

Record format (presidio-research, e.g. ``synth_pii_dev.json``; the secrets set uses the same one)::

    [{"full_text": "...", "spans": [{"entity_type": "PERSON", "entity_value": "...",
                                     "start_position": 15, "end_position": 22}, ...],
      "metadata": {...} | null, ...}, ...]

Matching is by OVERLAP:

* a gold span is *found* when any predicted span of the same (mapped) type overlaps it;
* a predicted span is a *true positive* when it overlaps a gold span of the same (mapped) type.

A gold value (6+ characters) that still appears verbatim in the masked text (when the masker returns
``MaskResult``) is counted in ``leaked_verbatim``: overlap matching alone would hide a partial mask.

Recall = found / gold, precision = true positives / predictions, F2 = 5PR / (4P + R), per type and
micro-averaged over the scored types (``overall``).

Label mapping (:data:`LABEL_MAPPING`, dataset type -> our type)
    PERSON, PER, NAME, FIRST_NAME, LAST_NAME, MIDDLE_NAME           -> PERSON
    LOCATION, LOC, GPE, FAC, STREET_ADDRESS, ADDRESS, STREET, CITY,
    COUNTRY, STATE, BUILDING_NUMBER, SECONDARY_ADDRESS               -> LOCATION
    NRP, NORP                                                        -> NRP
    EMAIL_ADDRESS, EMAIL / PHONE_NUMBER, PHONE / CREDIT_CARD /
    IBAN_CODE, IBAN / US_SSN, SSN / IP_ADDRESS / US_DRIVER_LICENSE /
    US_PASSPORT / US_ITIN / US_BANK_NUMBER / UK_NHS / CRYPTO /
    MEDICAL_LICENSE                                                  -> same name
    ORGANIZATION, ORG                                                -> ORGANIZATION  (excluded, see below)
    DOMAIN_NAME, URL                                                 -> URL           (excluded)
    DATE_TIME, DATE, TIME                                            -> DATE_TIME     (excluded)
    SECRET                                                           -> SECRET (any ``SECRET_*`` prediction)
    TITLE, AGE, ZIP_CODE (and any type not listed)                   -> unmapped

Excluded / unmapped types are not scored: their gold spans are counted and reported under
``excluded`` / ``unmapped`` with the reason. DATE_TIME is never masked (memory needs dates); ORGANIZATION and
plain URLs are kept by the default policy; job titles, ages and bare postcodes have no recognizer.
Predictions of a scored type that overlap only such gold spans still count as false positives.

Dev-read and dev-unread (:func:`dev_part`)
    The dev set is split once, deterministically, by *template*: a record belongs to the **unread** part when
    ``int(sha256("recmem-dev-split/" + str(template_id)), 16) % 100 < 40`` (records without a ``template_id`` are
    split by their text instead). Rules may be written while reading the misses of the **read** part only; the
    unread part is scored but never looked at record by record (``bench_pii`` keeps no missed examples for it),
    and the goals apply to it. Splitting by template rather than by record means the unread part holds sentence
    templates no rule was written against, which is what "unseen text" means for a template-generated set. The
    salt and the 40 % were chosen (before any of the masking rules was written) so that every contact/identity type of
    the dev set except the 5 US_DRIVER_LICENSE records appears in the unread part; the choice looked at type counts
    only, never at a score.

Secrets: records with ``entity_type: "SECRET"`` spans are positives; records with no span at all are
hard negatives. ``negatives.secret_fp_rate`` is the share of negative records with any ``SECRET_*``
prediction. If records carry ``metadata.kind``, recall is also reported per kind (``by_kind``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SECRET_GROUP = "SECRET"

LABEL_MAPPING: dict[str, str | None] = {
    # people
    "PERSON": "PERSON",
    "PER": "PERSON",
    "NAME": "PERSON",
    "FIRST_NAME": "PERSON",
    "LAST_NAME": "PERSON",
    "MIDDLE_NAME": "PERSON",
    # places
    "LOCATION": "LOCATION",
    "LOC": "LOCATION",
    "GPE": "LOCATION",
    "FAC": "LOCATION",
    "STREET_ADDRESS": "LOCATION",
    "ADDRESS": "LOCATION",
    "STREET": "LOCATION",
    "CITY": "LOCATION",
    "COUNTRY": "LOCATION",
    "STATE": "LOCATION",
    "BUILDING_NUMBER": "LOCATION",
    "SECONDARY_ADDRESS": "LOCATION",
    # groups
    "NRP": "NRP",
    "NORP": "NRP",
    # contact and identity numbers
    "EMAIL_ADDRESS": "EMAIL_ADDRESS",
    "EMAIL": "EMAIL_ADDRESS",
    "PHONE_NUMBER": "PHONE_NUMBER",
    "PHONE": "PHONE_NUMBER",
    "CREDIT_CARD": "CREDIT_CARD",
    "IBAN_CODE": "IBAN_CODE",
    "IBAN": "IBAN_CODE",
    "US_SSN": "US_SSN",
    "SSN": "US_SSN",
    "IP_ADDRESS": "IP_ADDRESS",
    "US_DRIVER_LICENSE": "US_DRIVER_LICENSE",
    "US_PASSPORT": "US_PASSPORT",
    "US_ITIN": "US_ITIN",
    "US_BANK_NUMBER": "US_BANK_NUMBER",
    "UK_NHS": "UK_NHS",
    "CRYPTO": "CRYPTO",
    "MEDICAL_LICENSE": "MEDICAL_LICENSE",
    # kept by the default policy (excluded from scoring)
    "ORGANIZATION": "ORGANIZATION",
    "ORG": "ORGANIZATION",
    "DOMAIN_NAME": "URL",
    "URL": "URL",
    "DATE_TIME": "DATE_TIME",
    "DATE": "DATE_TIME",
    "TIME": "DATE_TIME",
    # secrets set
    "SECRET": SECRET_GROUP,
    # no recognizer
    "TITLE": None,
    "AGE": None,
    "ZIP_CODE": None,
}

#: our type -> why it is not scored by default
DEFAULT_EXCLUDED: dict[str, str] = {
    "DATE_TIME": "never masked: memory needs dates (policy never_mask)",
    "ORGANIZATION": "not masked by the default policy (company names carry meaning for memory)",
    "URL": "plain URLs/domains are not masked by the default policy (credentials inside URLs are secrets)",
}

UNMAPPED_REASON = "no recognizer / not masked (job titles, ages, bare postcodes, unknown types)"


@dataclass(frozen=True)
class GoldSpan:
    entity_type: str
    start: int
    end: int
    value: str = ""


@dataclass(frozen=True)
class Record:
    text: str
    spans: tuple[GoldSpan, ...]
    metadata: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)
    template_id: Any = field(default=None, compare=False, hash=False)

    @property
    def is_negative(self) -> bool:
        return not self.spans


def _records_from(data: Iterable[Mapping[str, Any]]) -> list[Record]:
    out = []
    for i, item in enumerate(data):
        text = item.get("full_text", item.get("text"))
        if not isinstance(text, str):
            raise ValueError(f"record {i}: no full_text")
        spans = []
        for sp in item.get("spans") or []:
            start, end = int(sp["start_position"]), int(sp["end_position"])
            if not 0 <= start < end <= len(text):
                raise ValueError(f"record {i}: span {start}:{end} outside the text")
            spans.append(
                GoldSpan(str(sp["entity_type"]), start, end, str(sp.get("entity_value", text[start:end])))
            )
        meta = item.get("metadata")
        out.append(
            Record(text=text, spans=tuple(spans), metadata=meta if isinstance(meta, Mapping) else None,
                   template_id=item.get("template_id"))
        )
    return out


DEV_SPLIT_SALT = "recmem-dev-split/"
DEV_UNREAD_PERCENT = 40


def dev_part(record: Record) -> str:
    """``"unread"`` or ``"read"`` (see the module docstring): by a hash of the record's template (or text)."""
    key = str(record.template_id) if record.template_id is not None else record.text
    digest = hashlib.sha256((DEV_SPLIT_SALT + key).encode("utf-8")).hexdigest()
    return "unread" if int(digest, 16) % 100 < DEV_UNREAD_PERCENT else "read"


def split_dev(records: Sequence[Record]) -> dict[str, list[Record]]:
    """``{"read": [...], "unread": [...]}`` in the records' order."""
    parts: dict[str, list[Record]] = {"read": [], "unread": []}
    for record in records:
        parts[dev_part(record)].append(record)
    return parts


def load_presidio_research(path: str | Path) -> list[Record]:
    """Load a presidio-research JSON file (a list of ``{full_text, spans[...]}`` records)."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if isinstance(data, Mapping):  # tolerate {"records": [...]}
        data = data.get("records") or data.get("data") or []
    return _records_from(data)


load_records = load_presidio_research


# --------------------------------------------------------------------------------------------------


def _pred_group(entity_type: str) -> str:
    return SECRET_GROUP if entity_type.startswith("SECRET_") else entity_type


def _pred_spans(result: Any) -> list[tuple[str, int, int]]:
    """Accept a MaskResult, a list of MaskedEntity / RecognizerResult, or (type, start, end) tuples."""
    items = getattr(result, "entities", result) or []
    out = []
    for it in items:
        if isinstance(it, tuple | list):
            etype, start, end = it[0], int(it[1]), int(it[2])
        elif isinstance(it, Mapping):
            etype, start, end = it["entity_type"], int(it["start"]), int(it["end"])
        else:
            etype, start, end = it.entity_type, int(it.start), int(it.end)
        out.append((_pred_group(str(etype)), start, end))
    return out


def _overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def _prf(tp: int, n_pred: int, found: int, n_gold: int) -> dict[str, Any]:
    precision = tp / n_pred if n_pred else None
    recall = found / n_gold if n_gold else None
    if precision is not None and recall is not None and (precision or recall):
        f2 = 5 * precision * recall / (4 * precision + recall)
    elif precision is not None and recall is not None:
        f2 = 0.0
    else:
        f2 = None
    return {
        "gold": n_gold,
        "found": found,
        "predicted": n_pred,
        "true_positive_predictions": tp,
        "precision": precision,
        "recall": recall,
        "f2": f2,
    }


TURN_SEPARATOR = "\n"


def _turns(record: Record) -> list[str] | None:
    """The turns of a conversation record (``metadata.turns``: user, assistant, next user, ... texts of one
    session, in order); its ``full_text`` is the turns joined by :data:`TURN_SEPARATOR`."""
    turns = record.metadata.get("turns") if record.metadata else None
    if not turns:
        return None
    if TURN_SEPARATOR.join(turns) != record.text:
        raise ValueError("a record's turns joined by a newline must equal its full_text")
    return list(turns)


class _Joined:
    """The results of masking the turns of one conversation, as one result over the joined text."""

    def __init__(self, turns: list[str], results: Sequence[Any]):
        self.entities = []
        texts = []
        offset = 0
        for turn, result in zip(turns, results, strict=True):
            for etype, start, end in _pred_spans(result):
                self.entities.append((etype, start + offset, end + offset))
            texts.append(getattr(result, "text", turn))
            offset += len(turn) + len(TURN_SEPARATOR)
        self.text = TURN_SEPARATOR.join(texts)


def _mask_turns(masker: Callable[..., Sequence[Any]], turns: list[str]) -> _Joined:
    """A conversation's turns masked as the ingest path masks them (``masker.conversation`` when the masker
    has it: the turns are one session's texts in order), else each turn on its own."""
    conversation = getattr(masker, "conversation", None)
    results = conversation(turns) if conversation is not None else masker(turns)
    return _Joined(turns, list(results))


def score(
    records: Sequence[Record],
    masker: Callable[[list[str]], Sequence[Any]],
    *,
    label_mapping: Mapping[str, str | None] = LABEL_MAPPING,
    excluded: Mapping[str, str] = DEFAULT_EXCLUDED,
    only_types: Iterable[str] | None = None,
    batch_size: int = 512,
    keep_examples: bool = True,
) -> dict[str, Any]:
    """Run ``masker`` over the record texts and compute overlap-matched precision / recall / F2.

    ``masker(list_of_texts)`` returns one result per text (see :func:`_pred_spans` for accepted shapes),
    e.g. ``make_masker()`` (``mask_many`` with the default policy). ``only_types`` restricts scoring to
    those of our types (e.g. ``{"SECRET"}`` for the secrets set); other predictions are then ignored.
    Throughput is measured around the ``masker`` calls only. ``keep_examples=False`` keeps no text of any record
    in the report (the dev-unread part: scored, never read record by record).
    """
    records = list(records)
    texts = [r.text for r in records]
    predictions: list[Any] = [None] * len(records)
    elapsed = 0.0
    plain = [i for i, r in enumerate(records) if not _turns(r)]
    for i in range(0, len(plain), batch_size):
        idx = plain[i : i + batch_size]
        chunk = [texts[j] for j in idx]
        t0 = time.perf_counter()
        out = list(masker(chunk))
        elapsed += time.perf_counter() - t0
        if len(out) != len(chunk):
            raise ValueError("masker returned a different number of results than texts")
        for j, res in zip(idx, out, strict=True):
            predictions[j] = res
    for j, rec in enumerate(records):
        turns = _turns(rec)
        if turns:
            t0 = time.perf_counter()
            predictions[j] = _mask_turns(masker, turns)
            elapsed += time.perf_counter() - t0

    only = {_pred_group(t) for t in only_types} if only_types is not None else None
    gold_n: dict[str, int] = defaultdict(int)
    gold_found: dict[str, int] = defaultdict(int)
    pred_n: dict[str, int] = defaultdict(int)
    pred_tp: dict[str, int] = defaultdict(int)
    fp_on_unscored: dict[str, int] = defaultdict(int)
    excluded_counts: dict[str, int] = defaultdict(int)
    unmapped_counts: dict[str, int] = defaultdict(int)
    leaked: dict[str, int] = defaultdict(int)
    by_kind: dict[str, dict[str, int]] = defaultdict(lambda: {"gold": 0, "found": 0})
    negatives = 0
    negatives_with_secret = 0
    negatives_with_any = 0
    negative_examples: list[dict[str, Any]] = []
    missed_examples: list[dict[str, Any]] = []

    for rec, result in zip(records, predictions, strict=True):
        preds = _pred_spans(result)
        scored_gold: list[tuple[str, int, int]] = []
        unscored_gold: list[tuple[int, int]] = []
        for g in rec.spans:
            mapped = label_mapping.get(g.entity_type)
            if mapped is None:
                unmapped_counts[g.entity_type] += 1
                unscored_gold.append((g.start, g.end))
            elif mapped in excluded or (only is not None and mapped not in only):
                excluded_counts[f"{g.entity_type}->{mapped}"] += 1
                unscored_gold.append((g.start, g.end))
            else:
                scored_gold.append((mapped, g.start, g.end))

        scored_preds = [p for p in preds if p[0] not in excluded and (only is None or p[0] in only)]
        if rec.is_negative:
            negatives += 1
            has_secret = any(p[0] == SECRET_GROUP for p in preds)
            negatives_with_secret += has_secret
            negatives_with_any += bool(scored_preds)
            if keep_examples and has_secret and len(negative_examples) < 20:
                negative_examples.append(
                    {"text": rec.text[:300], "predicted": [(t, rec.text[s:e]) for t, s, e in preds]}
                )

        out_text = getattr(result, "text", None)
        if isinstance(out_text, str):
            for g in rec.spans:
                mapped = label_mapping.get(g.entity_type)
                if mapped is not None and mapped not in excluded and (only is None or mapped in only):
                    value = rec.text[g.start : g.end]
                    if len(value) >= 6 and value in out_text:
                        leaked[mapped] += 1
        kind = str(rec.metadata.get("kind")) if rec.metadata and rec.metadata.get("kind") else None
        for mtype, gs, ge in scored_gold:
            gold_n[mtype] += 1
            hit = any(p[0] == mtype and _overlaps(p[1], p[2], gs, ge) for p in scored_preds)
            gold_found[mtype] += hit
            if kind:
                by_kind[kind]["gold"] += 1
                by_kind[kind]["found"] += hit
            if keep_examples and not hit and len(missed_examples) < 500:
                missed_examples.append({"type": mtype, "value": rec.text[gs:ge], "text": rec.text[:300]})
        for ptype, ps, pe in scored_preds:
            pred_n[ptype] += 1
            if any(g[0] == ptype and _overlaps(ps, pe, g[1], g[2]) for g in scored_gold):
                pred_tp[ptype] += 1
            elif any(_overlaps(ps, pe, us, ue) for us, ue in unscored_gold):
                fp_on_unscored[ptype] += 1

    types = sorted(set(gold_n) | set(pred_n))
    per_type = {}
    for t in types:
        row = _prf(pred_tp[t], pred_n[t], gold_found[t], gold_n[t])
        row["fp_overlapping_unscored_gold"] = fp_on_unscored[t]
        row["leaked_verbatim"] = leaked[t]
        per_type[t] = row
    overall = _prf(
        sum(pred_tp.values()), sum(pred_n.values()), sum(gold_found.values()), sum(gold_n.values())
    )
    report: dict[str, Any] = {
        "records": len(records),
        "per_type": per_type,
        "overall": overall,
        "excluded": {"counts": dict(sorted(excluded_counts.items())), "reasons": dict(excluded)},
        "unmapped": {"counts": dict(sorted(unmapped_counts.items())), "reason": UNMAPPED_REASON},
        "negatives": {
            "records": negatives,
            "with_secret_prediction": negatives_with_secret,
            "secret_fp_rate": (negatives_with_secret / negatives) if negatives else None,
            "with_any_scored_prediction": negatives_with_any,
            "examples": negative_examples,
        },
        "missed_examples": missed_examples,
        "timing": {
            "seconds": elapsed,
            "texts_per_second": (len(records) / elapsed) if elapsed > 0 else None,
            "mean_chars": (sum(len(t) for t in texts) / len(texts)) if texts else 0,
        },
    }
    if by_kind:
        report["by_kind"] = {
            k: {**v, "recall": v["found"] / v["gold"] if v["gold"] else None}
            for k, v in sorted(by_kind.items())
        }
    return report


def combine(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One report from reports of disjoint record sets (counts summed, rates recomputed; no examples)."""
    per_type: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    count_keys = ("gold", "found", "predicted", "true_positive_predictions", "fp_overlapping_unscored_gold",
                  "leaked_verbatim")
    for rep in reports:
        for t, row in rep["per_type"].items():
            for k in count_keys:
                per_type[t][k] += row.get(k, 0)
    rows = {}
    for t in sorted(per_type):
        c = per_type[t]
        rows[t] = {**_prf(c["true_positive_predictions"], c["predicted"], c["found"], c["gold"]),
                   "fp_overlapping_unscored_gold": c["fp_overlapping_unscored_gold"],
                   "leaked_verbatim": c["leaked_verbatim"]}
    tot = {k: sum(r[k] for r in rows.values()) for k in ("true_positive_predictions", "predicted", "found", "gold")}
    negatives = sum(r["negatives"]["records"] for r in reports)
    with_secret = sum(r["negatives"]["with_secret_prediction"] for r in reports)
    seconds = sum(r["timing"]["seconds"] for r in reports)
    n = sum(r["records"] for r in reports)
    out: dict[str, Any] = {
        "records": n,
        "per_type": rows,
        "overall": _prf(tot["true_positive_predictions"], tot["predicted"], tot["found"], tot["gold"]),
        "negatives": {"records": negatives, "with_secret_prediction": with_secret,
                      "secret_fp_rate": with_secret / negatives if negatives else None,
                      "with_any_scored_prediction": sum(r["negatives"]["with_any_scored_prediction"]
                                                        for r in reports), "examples": []},
        "excluded": {"counts": {}, "reasons": {}}, "unmapped": {"counts": {}, "reason": UNMAPPED_REASON},
        "missed_examples": [],
        "timing": {"seconds": seconds, "texts_per_second": n / seconds if seconds > 0 else None, "mean_chars": 0},
    }
    kinds: dict[str, dict[str, int]] = defaultdict(lambda: {"gold": 0, "found": 0})
    for rep in reports:
        for k, v in (rep.get("by_kind") or {}).items():
            kinds[k]["gold"] += v["gold"]
            kinds[k]["found"] += v["found"]
    if kinds:
        out["by_kind"] = {k: {**v, "recall": v["found"] / v["gold"] if v["gold"] else None}
                          for k, v in sorted(kinds.items())}
    return out


def make_masker(policy: Any = None, key: bytes = b"recmem-bench") -> Callable[[list[str]], list[Any]]:
    """A ``masker`` for :func:`score`: :func:`~governance.privacy.engine.mask_many` with ``policy``; its
    ``conversation(turns)`` masks one session's turns in order (:func:`~governance.privacy.engine.continue_secrets`)."""
    from governance.privacy.engine import MaskingPolicy, continue_secrets, conversation_windows, mask_many

    pol = policy or MaskingPolicy.default()

    def run(texts: list[str]) -> list[Any]:
        return mask_many(texts, policy=pol, key=key)

    def conversation(turns: list[str]) -> list[Any]:
        """The turns of one session, masked as the ingest path masks them (a secret's tail in a later turn too)."""
        return continue_secrets(turns, mask_many(turns, policy=pol, key=key), conversation_windows(len(turns)))

    run.policy = pol  # type: ignore[attr-defined]
    run.conversation = conversation  # type: ignore[attr-defined]
    return run


def _fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def format_report(report: Mapping[str, Any], title: str = "") -> str:
    """A plain-text table of :func:`score` output."""
    lines = []
    if title:
        lines.append(title)
    lines.append(f"{'type':<22}{'gold':>6}{'found':>7}{'pred':>6}{'prec':>8}{'recall':>8}{'F2':>8}")
    for t, row in report["per_type"].items():
        lines.append(
            f"{t:<22}{row['gold']:>6}{row['found']:>7}{row['predicted']:>6}"
            f"{_fmt(row['precision']):>8}{_fmt(row['recall']):>8}{_fmt(row['f2']):>8}"
        )
    o = report["overall"]
    lines.append(
        f"{'OVERALL':<22}{o['gold']:>6}{o['found']:>7}{o['predicted']:>6}"
        f"{_fmt(o['precision']):>8}{_fmt(o['recall']):>8}{_fmt(o['f2']):>8}"
    )
    neg = report["negatives"]
    if neg["records"]:
        lines.append(
            f"negatives: {neg['records']} records, {neg['with_secret_prediction']} with a SECRET prediction "
            f"(FP rate {_fmt(neg['secret_fp_rate'])})"
        )
    if report.get("by_kind"):
        kinds = ", ".join(f"{k} {v['found']}/{v['gold']}" for k, v in report["by_kind"].items())
        lines.append(f"by kind: {kinds}")
    if report["excluded"]["counts"]:
        lines.append(f"excluded (not scored): {report['excluded']['counts']}")
    if report["unmapped"]["counts"]:
        lines.append(f"unmapped (not scored): {report['unmapped']['counts']}")
    tm = report["timing"]
    if tm["texts_per_second"]:
        lines.append(f"throughput: {tm['texts_per_second']:.1f} texts/s (mean {tm['mean_chars']:.0f} chars)")
    return "\n".join(lines)
