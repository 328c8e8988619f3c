"""Migration governance/0007 chains the audit events that existed before the chain (per project, in time order)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from governance.selectors import audit_chain_verify

BEFORE = [("governance", "0004_llmcall_from_memory"), ("agents", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_existing_events_are_chained_by_the_migration():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    project = old.get_model("agents", "Project").objects.create(name="legacy")
    events = old.get_model("governance", "AuditEvent").objects
    for i in range(3):
        events.create(project=project, action="read", object_type="search", reason=f"old {i}",
                      data={"n": i, "f": 0.25}, source_ids=[str(i)])
    events.create(action="read", object_type="search", reason="no project")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from governance.models import AuditEvent

    chained = list(AuditEvent.objects.filter(project_id=project.pk).order_by("seq"))
    assert [(e.seq, e.reason) for e in chained] == [(1, "old 0"), (2, "old 1"), (3, "old 2")]
    assert audit_chain_verify(project_id=project.pk).ok
    assert audit_chain_verify(project_id=None).ok and AuditEvent.objects.get(project=None).seq == 1
