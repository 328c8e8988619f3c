"""The stored-exchange counts PostgreSQL keeps per project (memory.models.ExchangeCount, migration 0022): equal to a
count of the rows after every kind of write, read by the quota check instead of that count (which cost 30–50 ms per
ingest at 1M exchanges)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from agents.models import Project
from agents.services import agent_create
from bench.locomo import project_delete
from memory.models import Exchange, ExchangeCount, Session
from memory.quotas import project_usage, stored_exchanges
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.tests.factories import exchanges_bulk

pytestmark = pytest.mark.django_db(transaction=True)


def _bulk(agent, session, n, start=0):
    return exchanges_bulk(agent, session, [f"note {i}" for i in range(n)], start=start)


def _agree(*projects):
    for project in projects:
        assert stored_exchanges(project) == Exchange.objects.filter(project=project).count()


def test_counts_follow_every_insert_and_delete_whichever_path_makes_it():
    a = agent_create(project_name="count-a", name="a")
    b = agent_create(project_name="count-b", name="b")
    session = session_create(agent=a, external_id="s")
    _bulk(a, session, 7)
    exchanges_ingest(agent=a, session=session_create(agent=a, external_id="api"),  # the service's own insert
                     items=[ExchangeIn(user="I walked to the market.", assistant="Nice.")])
    _bulk(b, session_create(agent=b, external_id="t"), 3)
    assert (stored_exchanges(a.project), stored_exchanges(b.project)) == (8, 3)
    assert project_usage(a.project).exchanges == 8

    Exchange.objects.filter(project=a.project, turn_index__lt=2).delete()  # a queryset delete
    _agree(a.project, b.project)
    Session.objects.filter(pk=session.pk).delete()  # a cascade from the session
    _agree(a.project, b.project)
    assert stored_exchanges(a.project) == 0 and stored_exchanges(b.project) == 3  # turn 0 of "api" went first

    project_delete(b.project.name)  # a project and everything it holds (the benchmarks' clean-up)
    assert not Project.objects.filter(pk=b.project.pk).exists()
    assert not ExchangeCount.objects.filter(project_id=b.project.pk).exists()


def test_the_migration_counts_what_was_stored_before_it_and_is_reversible():
    a = agent_create(project_name="count-old", name="a")
    _bulk(a, session_create(agent=a, external_id="s"), 5)
    executor = MigrationExecutor(connection)
    executor.migrate([("memory", "0021_hybrid_search")])  # the counts and their triggers gone
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'memory_exchange_count%%'")
        assert cursor.fetchone()[0] == 0
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert stored_exchanges(a.project) == 5
    _bulk(a, Session.objects.get(project=a.project), 2, start=5)  # and kept from then on
    _agree(a.project)
