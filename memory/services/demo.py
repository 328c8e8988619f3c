"""Demo data for a first look at the console: a small engineering team's conversations replayed through the REST API.

``demo_project_create`` makes a project with three agents in two modules and replays sessions in which team topics
recur in other words, through the real write path (Django's test client against the API with each agent's key:
authentication, masking, embedding, the recurrence trigger), in online mode with the extractive consolidator and the
queue run inline, then asks for a manual run per agent as an operator would. What the console then shows was made by
consolidation itself, not inserted: a promotion proposal (a backend rule two agents hold across sessions), a conflict
(a backend member's personal note against the module's deploy day) and batches that can be rolled back (the
platform module's nightly rebuild, among others).
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.test.utils import override_settings
from django.utils import timezone

from agents.models import Project
from core.config import config_override
from core.errors import ApplicationError, Conflict
from governance.models import ConsolidationBatch
from governance.services.agent_admin import agent_key_issue, agent_register
from memory.models import Exchange, ReviewItem
from memory.review.rollback import RollbackPlan, batch_rollback_plan

ACTOR = "cli:demo_data"
ROLES = ["writer", "reader", "operator"]
#: agent → its module (each agent is in exactly one, so a personal note has one module to be proposed to)
AGENTS = {"ana": "backend", "ben": "backend", "cleo": "platform"}

# A session: (agent, module or None for a personal session, [(user, assistant), …]). Days are counted back from now,
# one session a day in this order. The wording changes on purpose: recurrence is found by meaning, not by words.
Session = tuple[str, str | None, list[tuple[str, str]]]
SESSIONS: list[Session] = [
    ("ana", "backend", [
        ("Reminder for the orders service: every database migration needs a rollback script before it is merged.",
         "Got it, I will write the down migration first."),
        ("Never deploy the backend to production on a Friday.", "Right, no Friday deploys."),
        ("Can you summarise the open pull requests on the orders service?", "There are four, two need review."),
    ]),
    ("cleo", "platform", [
        ("The staging cluster is rebuilt from scratch every night at 2 am.",
         "Noted, long-running jobs on staging must finish before 2 am."),
        ("Which Grafana dashboard shows the ingress latency?", "The one called Edge / Ingress."),
    ]),
    ("ben", "backend", [
        ("Before merging a schema change, make sure the migration ships with a rollback script.",
         "Right, no migration without its rollback."),
        ("Remember: we never push the backend to production on Fridays.", "Yes, it waits until Monday."),
        ("Lunch order for the team offsite is pizza.", "Enjoy!"),
    ]),
    ("cleo", "platform", [
        ("Remember that staging gets wiped and rebuilt every night at 2 am.",
         "Yes, the nightly rebuild at 2 am resets staging."),
        ("Please rename the alert channel to platform-alerts.", "Renamed."),
    ]),
    ("ana", "backend", [
        ("A migration without a rollback script must not be merged.", "Agreed, I will block the merge."),
        ("Backend releases never go to production on a Friday.", "Okay, Monday then."),
    ]),
    ("cleo", "platform", [
        ("Staging is torn down and recreated each night at 2 am.", "Right, staging is fresh every morning."),
        ("How many nodes does the staging cluster have?", "Six nodes at the moment."),
    ]),
    ("ben", "backend", [
        ("Team rule: each database migration comes with a tested rollback script before merge.",
         "Yes, the rollback script is part of the review."),
        ("The on-call rotation for the backend changes on Mondays.", "Noted."),
    ]),
    ("cleo", "platform", [
        ("The nightly rebuild of staging runs at 2 am every night.", "Okay, I will not schedule tests then."),
    ]),
    # Ana's own sessions: she has taken to deploying on Fridays, against the module's rule.
    ("ana", None, [
        ("I always deploy the backend to production on Fridays now.", "Noted, Friday deploys for you."),
    ]),
    ("ana", None, [
        ("These days I always ship the backend to production on Fridays.", "Okay, Fridays."),
    ]),
    ("ana", None, [
        ("My backend deploys always go to production on Fridays now.", "Understood."),
    ]),
    ("ana", None, [
        ("I always push my backend releases to production on Fridays now.", "Noted."),
    ]),
]


@dataclass
class DemoResult:
    project: Project
    keys: dict[str, str]  # agent name → raw API key (shown once)
    exchanges: int = 0
    replaced: str = ""  # the name the previous project of that name was archived under
    proposals: list[ReviewItem] = field(default_factory=list)
    conflicts: list[ReviewItem] = field(default_factory=list)
    # succeeded batches that created items, each with its rollback preview
    batches: list[tuple[ConsolidationBatch, RollbackPlan]] = field(default_factory=list)


@contextlib.contextmanager
def _sync_online() -> Iterator[None]:
    """Consolidation as the demo needs it: online (a ripe topic runs at once), extractive (no LLM, no network), and
    the queue inline, so every run the write path enqueues has finished when the request returns."""
    from django_q.conf import Conf

    previous = Conf.SYNC
    Conf.SYNC = True
    queue_log = logging.getLogger("django-q")
    level = queue_log.level
    queue_log.setLevel(logging.WARNING)  # inline, the queue logs five INFO lines a task: noise in the output
    try:
        with config_override(consolidation__mode="online", consolidation__consolidator="extractive",
                             llm__base_url=""), warnings.catch_warnings():
            # whitenoise, in the test client's middleware, warns when static files were never collected: not ours
            warnings.filterwarnings("ignore", message="No directory at")
            yield
    finally:
        Conf.SYNC = previous
        queue_log.setLevel(level)


class _Api:
    """The REST API in this process (Django's test client), with one agent's key per call."""

    def __init__(self, keys: dict[str, str]) -> None:
        from rest_framework.test import APIClient

        self.client = APIClient()
        self.keys = keys

    def post(self, agent: str, path: str, body: dict, expect: int) -> dict:
        # secure: a deployment's settings redirect plain HTTP to HTTPS
        response = self.client.post(f"/api/v1/{path}", body, format="json", secure=True,
                                    HTTP_AUTHORIZATION=f"Bearer {self.keys[agent]}")
        if response.status_code != expect:
            raise ApplicationError(f"demo data: POST {path} answered {response.status_code}: "
                                   f"{response.content[:300]!r}", code="demo_failed")
        return response.json() if response.content else {}


@transaction.atomic
def _project_make_room(*, name: str, replace: bool) -> str:
    """Free the name ``name``: refused when it is taken, unless ``replace``. A project with an audit trail is never
    deleted: the old one is archived (its keys stop working) and renamed, and stays in the console."""
    old = Project.objects.select_for_update().filter(name=name).first()
    if old is None:
        return ""
    if not replace:
        raise Conflict(f"project {name!r} already exists; pick another name (--project) or pass --replace to "
                       "archive it and start over", code="duplicate_project")
    old.name = f"{name}-replaced-{timezone.now():%Y%m%d-%H%M%S}"
    old.archived_at = old.archived_at or timezone.now()
    old.save(update_fields=["name", "archived_at"])
    return old.name


def demo_project_create(*, name: str = "demo", replace: bool = False,
                        log: Callable[[str], None] = lambda _: None) -> DemoResult:
    """Create the demo project ``name`` and replay the team's sessions into it (see the module docstring)."""
    replaced = _project_make_room(name=name, replace=replace)
    keys = {}
    for agent_name, module in AGENTS.items():
        agent = agent_register(project_name=name, name=agent_name, module_names=[module], roles=ROLES,
                               actor_label=ACTOR, reason="demo data")
        keys[agent_name] = agent_key_issue(agent=agent, name="demo", actor_label=ACTOR, reason="demo data").raw_key
    project = Project.objects.get(name=name)
    result = DemoResult(project=project, keys=keys, replaced=replaced)
    api = _Api(keys)
    # one session a day, each at nine, ending yesterday
    start = (timezone.now() - timedelta(days=len(SESSIONS) + 1)).replace(hour=9, minute=0, second=0, microsecond=0)
    # The test client's host; a deployment's DJANGO_ALLOWED_HOSTS need not list it, and nothing leaves the process.
    with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]), _sync_online():
        for n, (agent, module, turns) in enumerate(SESSIONS):
            began: datetime = start + timedelta(days=n)
            body = {"external_id": f"demo-{n + 1}", "started_at": began.isoformat()}
            if module:
                body["module"] = module
            session = api.post(agent, "sessions", body, 201)
            items = [{"user": u, "assistant": a, "occurred_at": (began + timedelta(minutes=4 * t)).isoformat()}
                     for t, (u, a) in enumerate(turns)]
            stored = api.post(agent, f"sessions/{session['id']}/exchanges", {"exchanges": items}, 201)["exchanges"]
            result.exchanges += len(stored)
            # A replayed history: stored when it happened, so each day's session counts on its own toward
            # corroboration (one agent's sessions stored within the burst window count once).
            Exchange.objects.filter(pk__in=[e["id"] for e in stored]).update(created_at=F("occurred_at"))
            api.post(agent, f"sessions/{session['id']}/close", {}, 200)
            log(f"  session {n + 1:2}/{len(SESSIONS)}: {agent} ({module or 'personal'}), {len(turns)} exchanges")
        for agent in AGENTS:  # "run now", as an operator would: the pending updates and the session pass
            api.post(agent, "consolidations/run", {}, 202)
    result.proposals = list(ReviewItem.objects.filter(experience__project=project, kind=ReviewItem.Kind.PROMOTION,
                                                      status=ReviewItem.Status.PENDING).select_related("experience"))
    result.conflicts = list(ReviewItem.objects.filter(experience__project=project, kind=ReviewItem.Kind.CONFLICT,
                                                      status=ReviewItem.Status.PENDING)
                            .select_related("experience", "other_experience"))
    for batch in (ConsolidationBatch.objects.filter(project=project, status=ConsolidationBatch.Status.SUCCEEDED)
                  .select_related("agent").order_by("created_at")):
        plan = batch_rollback_plan(batch=batch)
        if plan.removed:  # a batch that wrote something: its rollback preview has rows to show
            result.batches.append((batch, plan))
    return result
