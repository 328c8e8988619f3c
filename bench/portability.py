"""Export → import round trip on LoCoMo stores: the same questions searched before and after give the same results.

The source store is built as bench_locomo builds it (the real write path, online consolidation, django-q2 in sync
mode) in this process's database; it is exported to a file; a second process with its own RECMEM_HOME (a fresh
embedded PostgreSQL, migrated from nothing) imports it twice and searches the same questions. Both processes use
the same RECMEM_PSEUDONYM_KEY (a moved deployment keeps its keys outside the database), so a question that names a
person masks to the same placeholder on both sides. Compared per question: every layer's ranked ids and scores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

LAYERS = ("exchanges", "episodes", "experiences")


def search_all(*, agent: Any, questions: list[str]) -> list[dict[str, list[list[Any]]]]:
    """Per question, per layer: ``[id, score]`` in rank order, searched as the agent (nothing recorded)."""
    from memory.search.query import SearchQuery
    from memory.search.services import search_unrecorded

    out = []
    for question in questions:
        masked, result = search_unrecorded(agent=agent, query=SearchQuery(query=question))
        out.append({"masked": masked.query, **{layer: [[str(h.obj.pk), round(float(h.score), 6)]
                                                        for h in getattr(result, layer)] for layer in LAYERS}})
    return out


def _clear_text(project: Any) -> str:
    """Every text the database holds for the project's memory, as PostgreSQL prints the rows."""
    from django.db import connection

    tables = {"memory_session": "project_id", "memory_exchange": "project_id", "memory_episode": "project_id",
              "memory_experience": "project_id", "governance_reviewitem": "project_id"}
    parts = []
    with connection.cursor() as cursor:
        for table, column in tables.items():
            cursor.execute(f"SELECT coalesce(string_agg(t::text, ' '), '') FROM {table} t WHERE {column} = %s",
                           [project.pk])
            parts.append(cursor.fetchone()[0])
        cursor.execute("SELECT coalesce(string_agg(v.snapshot::text, ' '), '') FROM memory_memoryversion v "
                       "LEFT JOIN memory_experience x ON x.id = v.experience_id "
                       "LEFT JOIN memory_episode e ON e.id = v.episode_id "
                       "WHERE x.project_id = %s OR e.project_id = %s", [project.pk, project.pk])
        parts.append(cursor.fetchone()[0])
    return "\n".join(parts)


def clear_value_check(*, project: Any, export_text: str) -> dict[str, Any]:
    """The originals the masker replaced (the vault) against the export: none may be in the export unless the
    database itself held it in clear somewhere (a value the recogniser missed in another sentence)."""
    from core.config import config
    from governance.models import VaultEntry
    from governance.privacy.vault import decrypt_value

    key = config().privacy.vault_key
    values = sorted({decrypt_value(v.ciphertext, key) for v in VaultEntry.objects.filter(project=project)})
    db_text = _clear_text(project)
    in_export = [v for v in values if v in export_text]
    not_held = [v for v in in_export if v not in db_text]
    return {"vault_values": len(values), "in_export": len(in_export),
            "in_export_also_clear_in_db": len(in_export) - len(not_held), "in_export_not_clear_in_db": len(not_held)}


def compare(before: list[dict], after: list[dict]) -> dict[str, Any]:
    identical = sum(all(a[layer] == b[layer] for layer in LAYERS) for a, b in zip(before, after, strict=True))
    per_layer = {layer: sum(a[layer] == b[layer] for a, b in zip(before, after, strict=True)) for layer in LAYERS}
    ids_only = sum([[i for i, _ in a[layer]] for layer in LAYERS] == [[i for i, _ in b[layer]] for layer in LAYERS]
                   for a, b in zip(before, after, strict=True))
    return {"questions": len(before), "identical_top_k": identical, "identical_ids": ids_only,
            "identical_by_layer": per_layer,
            "same_masked_query": sum(a["masked"] == b["masked"] for a, b in zip(before, after, strict=True)),
            "differences": [{"question": i, "masked_before": a["masked"], "masked_after": b["masked"]}
                            for i, (a, b) in enumerate(zip(before, after, strict=True))
                            if any(a[layer] != b[layer] for layer in LAYERS)][:20]}


def run_target(*, export: Path, questions_file: Path, agent_names: list[str], out: Path) -> None:
    """The second process: import twice into its fresh database, search the same questions as the same agents."""
    from agents.models import Agent
    from memory.services.portability import export_open, export_parse, project_import

    started = time.perf_counter()
    with export_open(str(export)) as stream:
        parsed = export_parse(stream)
    first = project_import(parsed=parsed, actor_label="bench:portability")
    import_seconds = time.perf_counter() - started
    with export_open(str(export)) as stream:
        second = project_import(parsed=export_parse(stream), actor_label="bench:portability")
    questions = json.loads(questions_file.read_text())
    results = {}
    for name in agent_names:
        agent = Agent.objects.get(project=first.project, name=name)
        results[name] = search_all(agent=agent, questions=questions[name])
    out.write_text(json.dumps({
        "first_import": {"created": first.created, "created_total": first.created_total,
                         "reembedded": first.reembedded, "seconds": round(import_seconds, 2)},
        "second_import": {"created_total": second.created_total, "existing": second.existing},
        "results": results}))


def spawn_target(*, home: Path, env: dict[str, str], args: list[str], cwd: Path) -> None:
    command = [sys.executable, "manage.py", "bench_portability", "--phase", "target", *args]
    subprocess.run(command, cwd=cwd, env={**env, "RECMEM_HOME": str(home)}, check=True)
