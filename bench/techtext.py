"""Technical-text precision set: real technical prose, with the personal data in it labelled.

:func:`build` extracts sentences from the descriptions (README / long description) of the Python distributions
installed in the environment — prose about libraries, services, files and operating systems, the vocabulary an
engineering team's memory is made of — and inserts labelled personal data (a person's name, an e-mail address, a
phone number) into about one sentence in five, so recall is measured on the same text. Sentences that already carry
personal data of their own (an author line, an address, "thanks to ...") are left out, so an unlabelled mask is a
false mask. ``manage.py build_techtext`` writes ``bench/data/techtext.json``.

:func:`score` masks every sentence with the production engine and reports false masks per 1,000 tokens (a masked
span that overlaps no label), and the recall of PERSON, EMAIL_ADDRESS and PHONE_NUMBER labels. A part of the set,
chosen by a hash of the sentence (:func:`part`), is held back: scored and reported apart, its texts never printed.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).resolve().parent / "data" / "techtext.json"
HELD_BACK_PERCENT = 30
SPLIT_SALT = "recmem-techtext-v1:"
TARGET_SENTENCES = 420
INSERT_EVERY = 5  # one sentence in five gets personal data

# Personal data of people who do not exist (made up for the bench), inserted with their labels.
_FIRST = ["Maria", "Lukas", "Aisha", "Tomasz", "Chen", "Fatima", "Olivia", "Rahul", "Ingrid", "Diego", "Yuki",
          "Noah", "Priya", "Kwame", "Elena", "Mateo", "Hannah", "Sven", "Leila", "Oscar"]
_LAST = ["Kowalczyk", "Brennan", "Okonkwo", "Lindqvist", "Haddad", "Moreau", "Tanaka", "Fischer", "Castillo",
         "Novak", "Mensah", "Whitaker", "Delgado", "Sorensen", "Rahman", "Petrov", "Oyelaran", "Gallagher"]
_DOMAINS = ["example.com", "example.org", "mail.example.net", "corp.example.io"]
_TEMPLATES = [
    " Ask {name} ({email}) before changing it.",
    " {name} owns this part; reach them at {phone}.",
    " Questions go to {email}.",
    " My colleague {name} tested it on staging.",
    " Call {name} on {phone} if the deploy fails.",
    " Send the logs to {name} at {email}.",
    " Ping {name} when it is merged.",
    " The on-call number is {phone}.",
]

# Sentences with personal data of their own (unlabelled) are left out.
_SKIP_RE = re.compile(
    r"@|https?://|\bwww\.|copyright|\(c\)|©|author|maintainer|thanks?\b|contribut|written by|created by|"
    r"developed by|\bby [A-Z][a-z]+ [A-Z]|license|\b\d{5,}\b|\bMr\.|\bMrs\.|\bDr\.",
    re.I,
)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def part(text: str) -> str:
    """``"held"`` or ``"read"``, by a hash of the sentence."""
    digest = hashlib.sha256((SPLIT_SALT + text).encode("utf-8")).hexdigest()
    return "held" if int(digest, 16) % 100 < HELD_BACK_PERCENT else "read"


def _clean_lines(description: str) -> list[str]:
    """Prose paragraphs of a Markdown / reStructuredText description: no code blocks, tables, headings, lists of
    links, directives."""
    paragraphs, current, in_code = [], [], False
    for raw in description.splitlines():
        line = raw.rstrip()
        if line.strip().startswith("```"):
            in_code = not in_code
            continue
        if in_code or raw.startswith(("    ", "\t")) or re.match(r"\s*(?:[|+=#*>]|\.\. |:\w+:|-{3,}|={3,})", line):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        if not line.strip():
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def _sentences_of(description: str) -> list[str]:
    out = []
    for paragraph in _clean_lines(description):
        paragraph = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", paragraph)  # Markdown links: their text
        paragraph = re.sub(r"`+", "", paragraph)
        for sentence in _SENTENCE_RE.split(paragraph):
            sentence = " ".join(sentence.split())
            words = sentence.split()
            if not 8 <= len(words) <= 45 or not sentence.endswith((".", "!", "?")) or _SKIP_RE.search(sentence):
                continue
            letters = sum(c.isalpha() for c in sentence)
            if letters < 0.7 * len(sentence.replace(" ", "")):
                continue
            out.append(sentence)
    return out


def build(*, seed: int = 29, target: int = TARGET_SENTENCES) -> list[dict[str, Any]]:
    """The set: ``[{"text", "spans": [{"type", "start", "end"}], "source", "part"}]``."""
    import importlib.metadata as md

    pool: dict[str, str] = {}
    for dist in sorted(md.distributions(), key=lambda d: (d.metadata.get("Name") or "").lower()):
        name = dist.metadata.get("Name") or "?"
        if name.lower().startswith("recmem"):
            continue  # our own README: not prose we tune against
        description = str(dist.metadata.get_payload() or dist.metadata.get("Description") or "")
        for sentence in _sentences_of(description):
            pool.setdefault(sentence, name)
    # a stable, spread selection: at most 12 sentences from one distribution, ordered by a hash
    ranked = sorted(pool, key=lambda s: hashlib.sha256(s.encode()).hexdigest())
    per_source: dict[str, int] = {}
    chosen = []
    for sentence in ranked:
        source = pool[sentence]
        if per_source.get(source, 0) >= 12:
            continue
        per_source[source] = per_source.get(source, 0) + 1
        chosen.append(sentence)
        if len(chosen) >= target:
            break
    rng = random.Random(seed)
    records = []
    for i, sentence in enumerate(chosen):
        text, spans = sentence, []
        if i % INSERT_EVERY == 0:
            text, spans = _insert(sentence, rng)
        records.append({"text": text, "spans": spans, "source": pool[sentence], "part": part(sentence)})
    return records


def _insert(sentence: str, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    values = {
        "name": f"{first} {last}" if rng.random() < 0.6 else first,
        "email": f"{first.lower()}.{last.lower()}@{rng.choice(_DOMAINS)}",
        "phone": rng.choice([f"+1 415 555 {rng.randint(1000, 9999)}", f"+44 20 7946 {rng.randint(1000, 9999)}",
                             f"(212) 555-{rng.randint(1000, 9999)}", f"+49 30 {rng.randint(1000000, 9999999)}"]),
    }
    labels = {"name": "PERSON", "email": "EMAIL_ADDRESS", "phone": "PHONE_NUMBER"}
    template = rng.choice(_TEMPLATES)
    text, spans, pos = sentence, [], 0
    for m in re.finditer(r"\{(\w+)\}", template):
        text += template[pos : m.start()]
        value = values[m.group(1)]
        spans.append({"type": labels[m.group(1)], "start": len(text), "end": len(text) + len(value)})
        text += value
        pos = m.end()
    text += template[pos:]
    return text, spans


def write(records: Sequence[dict[str, Any]], path: Path = DATA_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load(path: Path = DATA_PATH) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


RECALL_TYPES = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER")


def score(records: Sequence[dict[str, Any]], masker: Callable[[list[str]], list[Any]], *,
          keep_examples: bool = True) -> dict[str, Any]:
    """False masks per 1,000 tokens and recall per labelled type (see the module docstring)."""
    results = []
    texts = [r["text"] for r in records]
    for i in range(0, len(texts), 32):
        results.extend(masker(texts[i : i + 32]))
    tokens = sum(len(t.split()) for t in texts)
    false_masks, examples = 0, []
    # per type and by evidence (a pattern or cue vs the NER model's guess on one word): counts only, so a blind
    # part says where its false masks come from without showing a sentence
    by_type: Counter = Counter()
    guesses = 0
    # label types beyond RECALL_TYPES (LOCATION in bench.techchat) are labels too: recall is reported for them and
    # a mask overlapping one is not a false mask
    types = [*RECALL_TYPES, *sorted({g["type"] for r in records for g in r["spans"]} - set(RECALL_TYPES))]
    found = dict.fromkeys(types, 0)
    total = dict.fromkeys(types, 0)
    for record, result in zip(records, results, strict=True):
        gold = record["spans"]
        for e in result.entities:
            if not any(e.start < g["end"] and g["start"] < e.end for g in gold):
                false_masks += 1
                by_type[e.entity_type] += 1
                guesses += not getattr(e, "confident", True)
                if keep_examples:
                    examples.append(f"{e.entity_type}: {record['text'][e.start:e.end]!r} in "
                                    f"{record['text'][:160]!r}")
        for g in gold:
            total[g["type"]] += 1
            if any(e.start < g["end"] and g["start"] < e.end for e in result.entities):
                found[g["type"]] += 1
    return {
        "sentences": len(records),
        "tokens": tokens,
        "false_masks": false_masks,
        "false_masks_per_1000_tokens": round(1000 * false_masks / tokens, 3) if tokens else 0.0,
        "false_masks_by_type": dict(sorted(by_type.items())),
        "false_masks_one_word_guesses": guesses,
        "recall": {t: (round(found[t] / total[t], 3) if total[t] else None) for t in types},
        "labels": total,
        "examples": examples[:40],
    }


def format_report(rep: dict[str, Any], title: str) -> str:
    recall = ", ".join(f"{t} {v if v is not None else '-'} (n={rep['labels'][t]})" for t, v in rep["recall"].items())
    kinds = ", ".join(f"{t} {n}" for t, n in rep.get("false_masks_by_type", {}).items())
    lines = [title, f"  false masks: {rep['false_masks']} in {rep['tokens']} tokens = "
                    f"{rep['false_masks_per_1000_tokens']} per 1,000 tokens; recall: {recall}",
             f"  false masks by type: {kinds or '-'}; of them the NER model's guess on one word: "
             f"{rep.get('false_masks_one_word_guesses', 0)}"]
    lines += [f"    {x}" for x in rep["examples"]]
    return "\n".join(lines)
