"""The benchmarks' management commands, and what they share."""

from __future__ import annotations

from collections.abc import Callable


def migrate_if_needed(log: Callable[[str], None]) -> None:
    """Apply pending migrations to the bench database first: a benchmark gets its own ``RECMEM_HOME``, and a new
    home's embedded server starts empty (the command failed on a missing table instead)."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        log(f"applying {len(plan)} pending migration(s) to the bench database")
        call_command("migrate", verbosity=0)
