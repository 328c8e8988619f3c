"""``manage.py demo_data``: what it makes was made by the write path and consolidation (issue 30), not inserted."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from agents.models import Project
from governance.models import AuditEvent, ConsolidationBatch
from memory.models import Exchange, ReviewItem
from memory.review.rollback import batch_rollback_plan

pytestmark = pytest.mark.django_db(transaction=True)  # the write path consolidates on commit


def _demo(*args) -> str:
    out = StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()


def test_demo_data_makes_a_proposal_a_conflict_and_a_batch_to_roll_back(api_client):
    printed = _demo()
    project = Project.objects.get(name="demo")
    assert sorted(project.modules.values_list("name", flat=True)) == ["backend", "platform"]
    assert sorted(project.agents.values_list("name", flat=True)) == ["ana", "ben", "cleo"]
    # stored through the API: masked, embedded, each exchange's creation audited
    exchanges = Exchange.objects.filter(project=project)
    assert exchanges.count() == 21 and not exchanges.filter(embedding__isnull=True).exists()
    assert AuditEvent.objects.filter(project=project, object_type="exchange", action="create").count() == 21

    # a promotion proposal raised by a consolidation batch: a backend rule two agents hold across sessions
    proposal = ReviewItem.objects.get(kind="promotion", status="pending", experience__statement__icontains="migration")
    assert proposal.batch.status == "succeeded" and proposal.batch.project_id == project.pk
    assert (proposal.experience.scope, proposal.proposed_scope) == ("module", "project")
    assert proposal.experience.support_agents >= 2 and proposal.experience.support_sessions >= 3

    # a cross-scope conflict: Ana's personal note against the backend module's rule
    conflict = ReviewItem.objects.get(kind="conflict", status="pending")
    assert conflict.batch.status == "succeeded"
    assert (conflict.experience.scope, conflict.experience.owner_agent.name) == ("personal", "ana")
    assert (conflict.other_experience.scope, conflict.other_experience.module.name) == ("module", "backend")
    assert "Friday" in conflict.experience.statement and "Never" in conflict.other_experience.statement

    # a batch to roll back: it created items, and nothing depends on it yet
    staging = ConsolidationBatch.objects.get(project=project, experiences__statement__icontains="staging")
    plan = batch_rollback_plan(batch=staging)
    assert staging.status == "succeeded" and plan.removed and not plan.dependents

    # what it printed: the three, and keys that work
    for text in ("Promotion proposals to review", "Conflicts to decide (1)", "Consolidation batches to roll back",
                 f"/admin/memory/reviewitem/{conflict.pk}/decide/",
                 f"/admin/governance/consolidationbatch/{staging.pk}/rollback/"):
        assert text in printed
    keys = [line.split()[1] for line in printed.splitlines() if line.strip().startswith(("ana ", "ben ", "cleo "))]
    assert len(keys) == 3
    me = api_client.get("/api/v1/agents/me", HTTP_AUTHORIZATION=f"Bearer {keys[2]}")
    assert me.status_code == 200 and me.json()["name"] == "cleo"


def test_demo_data_refuses_an_existing_project_unless_replace(make_agent):
    make_agent(project="team")  # a project of that name exists already
    with pytest.raises(CommandError, match="already exists.*--replace"):
        call_command("demo_data", "--project", "team", stdout=StringIO())
    old = Project.objects.get(name="team")
    printed = _demo("--project", "team", "--replace")
    old.refresh_from_db()
    assert old.archived_at is not None and old.name.startswith("team-replaced-")  # kept, with its audit trail
    assert f"archived as {old.name!r}" in printed
    assert Project.objects.get(name="team").agents.count() == 3
