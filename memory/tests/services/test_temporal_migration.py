"""Migration memory/0025 gives the items superseded before it an end: where the successor starts (when after the
item's own start), else the supersede itself; backwards the column goes."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("memory", "0024_review_agent_change_proposals")]
T = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_superseded_items_get_their_end_and_the_migration_reverses():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    project = old.get_model("agents", "Project").objects.create(name="temporal")
    agent = old.get_model("agents", "Agent").objects.create(project=project, name="a")
    items = old.get_model("memory", "Experience").objects

    def item(statement, **fields):
        return items.create(project=project, owner_agent=agent, type="fact", subject="s", statement=statement,
                            embedding=[0.1] * 384, embedding_model="test", **fields)

    successor = item("v2", valid_from=T.replace(day=6), created_at=T.replace(day=7))
    dated = item("v1", valid_from=T, status="superseded", superseded_by=successor, updated_at=T.replace(day=7))
    won_on_other_grounds = item("older successor", valid_from=T.replace(day=1))
    undated_change = item("v0", valid_from=T.replace(day=2), status="superseded",
                          superseded_by=won_on_other_grounds, updated_at=T.replace(day=9))
    orphan = item("successor gone", valid_from=T, status="superseded", updated_at=T.replace(day=4))
    active = item("still holds", valid_from=T)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("memory", "0025_temporal")])
    from memory.models import Experience

    ends = dict(Experience.objects.values_list("statement", "valid_to"))
    assert ends[dated.statement] == T.replace(day=6)  # where v2 starts
    assert ends[undated_change.statement] == T.replace(day=9)  # the supersede itself
    assert ends[orphan.statement] == T.replace(day=4)
    assert ends[active.statement] is None and ends[successor.statement] is None

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(BEFORE)
    columns = [c.name for c in connection.introspection.get_table_description(connection.cursor(),
                                                                               "memory_experience")]
    assert "valid_to" not in columns
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
