"""Change statements: how a team tells its agents that something changed, and sentences with change words that
change nothing -- scored on the statements the extractive consolidator draws from each sentence alone.

Why: in the team scenarios a change said without a first person or a name ("The team standup moved: it is at 10:00
now instead of 9:30", "Standup now starts at 10 in the morning") drew no statement, so the old value stayed the only
item. Those scenarios hold two changes each; this set holds 80, so a fix is measured on the family, not on the
example.

``bench/data/change_statements.json`` was written blind in round 31 by a helper session that read no code, scenario
or dataset of the project: 80 ``changes`` (the statement before, the change, the new value and the old one; a third
of the changes do not name the old value; many forms: "from now on", "X moved: it is Y now instead of Z", "got bumped
from … to", "has been renamed to", "we don't use Z anymore", "deploys -> Thursdays now", passives, bare nouns and
pronouns after a colon) and 60 ``non_changes`` (one-off requests, what someone is doing now, questions,
hypotheticals, finished stories, a task's progress).

Split: :func:`part` puts a sentence in ``"held"`` when ``sha256("recmem-changes-v1:" + text) % 100 < 50``, else
``"read"``. Only the read half's misses were looked at while the extraction was changed (round 31); the held half is
reported, never read.

Scores per half: ``changes_drawn`` -- changes from which a statement naming the new value is drawn;
``non_changes_drawn`` -- non-changes from which any statement is drawn (a lower bound of harm: some are legitimate
events, "back in 2019 we switched from SVN to Git").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "change_statements.json"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def part(text: str) -> str:
    return "held" if int(hashlib.sha256(f"recmem-changes-v1:{text}".encode()).hexdigest(), 16) % 100 < 50 else "read"


def load(path: Path = DATA) -> dict[str, Any]:
    return json.loads(Path(path).read_text())


def score(statements: Callable[[str], list[str]], data: dict[str, Any]) -> dict[str, Any]:
    """``statements(text)``: the statements drawn from one user turn."""
    out: dict[str, Any] = {}
    for half in ("read", "held"):
        changes = [c for c in data["changes"] if part(c["change"]) == half]
        others = [t for t in data["non_changes"] if part(t) == half]
        drawn = sum(any(c["new_value"].lower() in s.lower() for s in statements(c["change"])) for c in changes)
        false = sum(bool(statements(t)) for t in others)
        out[half] = {"changes": len(changes), "changes_drawn": drawn, "non_changes": len(others),
                     "non_changes_drawn": false}
    return out


def extractive_statements() -> Callable[[str], list[str]]:
    from memory.consolidators.extractive import ExtractiveConsolidator
    from memory.consolidators.types import Unit

    consolidator = ExtractiveConsolidator(embedder=None)

    def statements(text: str) -> list[str]:
        unit = Unit(id="c", session_id="s", turn_index=0, occurred_at=T0, user=text, assistant="Noted.",
                    session_started_at=T0)
        return consolidator.statements(unit)

    return statements
