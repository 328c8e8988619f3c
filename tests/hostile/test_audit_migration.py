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


@pytest.mark.django_db(transaction=True)
def test_the_checkpoint_migration_anchors_existing_chains_and_reverses():
    from governance.models import AuditCheckpoint, AuditEvent
    from governance.services.audit import audit_record

    project = AuditEvent._meta.get_field("project").related_model.objects.create(name="anchored")
    for i in range(3):
        audit_record(action="read", object_type="search", project_id=project.pk, reason=f"r {i}")
    executor = MigrationExecutor(connection)
    executor.migrate([("governance", "0010_allowed_terms")])
    assert "governance_auditcheckpoint" not in connection.introspection.table_names()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    checkpoint = AuditCheckpoint.objects.get(chain=str(project.pk))
    head = AuditEvent.objects.filter(project_id=project.pk).order_by("-seq").first()
    assert (checkpoint.length, checkpoint.head_hash) == (3, head.hash)
    assert audit_chain_verify(project_id=project.pk).ok
