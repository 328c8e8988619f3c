"""No write path outside the audit (issue 30): every API operation and every admin path that changes memory rows leaves
an audit event naming what it changed. How: the audited tables (every table of the ``memory`` app, its many-to-many
tables included, the consolidation batches, agents, their keys and module memberships) are fingerprinted row by row
(``md5`` of the whole row, in SQL) before and after each request. Every row a request inserted, updated or deleted
must be accounted for by the audit events the request appended: a row of a *named* table (sessions, exchanges,
episodes, experiences, review items, batches, validity samples, agents, keys) by an event naming its id (object id,
source ids, batch, or an id in the event's data) or the batch the row points at (a rollback names its batch); a row
of any other audited table (versions, evidence links, candidates, search logs, counters) by at least one event of
the request. What is walked is found, not listed: the API's operations in the OpenAPI schema and the URL resolver,
the admin's registered models, their actions and their own pages; one found without a request here fails the test,
so a new path cannot slip past it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.db import connection, models
from django.test import RequestFactory
from django.urls import URLResolver
from drf_spectacular.generators import SchemaGenerator

from agents.models import Agent, ApiKey, Module
from governance.models import AllowedTerm, AuditEvent, ConsolidationBatch, VaultEntry
from memory.models import (
    Candidate,
    Episode,
    Exchange,
    Experience,
    MemoryStatus,
    ReviewItem,
    Session,
    ValiditySample,
)
from memory.review.services import review_item_create
from memory.services.validity import validity_sample_draw
from memory.tests.factories import make_memories, post_exchanges, post_session
from tests.api_routes import api_operations

pytestmark = pytest.mark.django_db

# --- what is audited ---------------------------------------------------------------------------------------------

# Columns that move on every authenticated request (the key's last use, the agent's last write): bookkeeping of the
# authentication, not a change of what is remembered.
VOLATILE = {"agents_apikey": {"last_used_at"}, "agents_agent": {"last_write_at"}}
NAMED = {Session, Exchange, Episode, Experience, ReviewItem, ConsolidationBatch, ValiditySample, Agent, ApiKey}


def audited_models() -> list[type[models.Model]]:
    found = list(apps.get_app_config("memory").get_models(include_auto_created=True))
    found += [ConsolidationBatch, Agent, ApiKey, Agent.modules.through]
    return found


def _snapshot() -> dict[str, dict[str, str]]:
    """Per audited table: primary key → md5 of the row (volatile columns left out)."""
    out = {}
    with connection.cursor() as cursor:
        for model in audited_models():
            table = model._meta.db_table
            columns = [f.column for f in model._meta.concrete_fields if f.column not in VOLATILE.get(table, ())]
            row = ", ".join(connection.ops.quote_name(c) for c in columns)
            pk = connection.ops.quote_name(model._meta.pk.column)
            cursor.execute(f"SELECT {pk}::text, md5(ROW({row})::text) FROM {connection.ops.quote_name(table)}")
            out[table] = dict(cursor.fetchall())
    return out


def _changes(before: dict, after: dict) -> dict[str, set[str]]:
    changed = {}
    for table, rows in after.items():
        old = before[table]
        ids = {pk for pk in rows.keys() | old.keys() if rows.get(pk) != old.get(pk)}
        if ids:
            changed[table] = ids
    return changed


def _strings(value: Any):
    if isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif value is not None:
        yield str(value)


def _unaccounted(changed: dict[str, set[str]], events: list[AuditEvent]) -> dict[str, set[str]]:
    named_tables = {m._meta.db_table for m in NAMED}
    named: set[str] = set()
    for e in events:
        named |= {e.object_id, str(e.batch_id or ""), *map(str, e.source_ids), *_strings(e.data)}
    missing = {}
    for table, ids in changed.items():
        if not events:
            missing[table] = ids
        elif table in named_tables and ids - named:
            unnamed = _outside_named_batches(table, ids - named, named)
            if unnamed:
                missing[table] = unnamed
    return missing


def _outside_named_batches(table: str, ids: set[str], named: set[str]) -> set[str]:
    """Of ``ids``, the rows not linked to a batch an event names: an act on a whole batch (rollback) names the batch,
    and the rows it changed are the ones that point at it (what it wrote, what it holds back)."""
    model = next(m for m in audited_models() if m._meta.db_table == table)
    links = [f.attname for f in model._meta.concrete_fields if f.is_relation and f.related_model is ConsolidationBatch]
    if not links:
        return ids
    linked = {str(row[0]) for row in model._base_manager.filter(pk__in=ids).values_list("pk", *links)
              if any(str(b) in named for b in row[1:] if b)}
    return ids - linked


@dataclass
class Checked:
    """What one path changed and whether its audit events account for it."""

    label: str
    changed: dict[str, set[str]] = field(default_factory=dict)
    unaccounted: dict[str, set[str]] = field(default_factory=dict)


def audited(label: str, act: Callable[[], Any]) -> tuple[Any, Checked]:
    before, last = _snapshot(), AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    result = act()
    changed = _changes(before, _snapshot())
    events = list(AuditEvent.objects.filter(id__gt=last))
    return result, Checked(label, changed, _unaccounted(changed, events))


def assert_all_accounted(checks: list[Checked]) -> None:
    failures = {c.label: c.unaccounted for c in checks if c.unaccounted}
    assert not failures, f"memory rows changed without an audit event naming them: {failures}"


# --- a world with real ids ---------------------------------------------------------------------------------------

@dataclass
class World:
    agent: Any  # AgentWithKey: writer, reader, operator, member of module ops
    personal_session: str
    module_session: str
    close_session: str
    exchange: str
    episode: str
    personal_items: list[str]
    module_items: list[str]
    batch: str
    ids: dict[str, Any] = field(default_factory=dict)  # filled by the requests (search_id, …)


def _world(api_client, make_agent) -> World:
    holder = make_agent(name="lead-bot", modules=["ops"], roles=("writer", "reader", "operator"))
    personal = post_session(api_client, holder)["id"]
    module = post_session(api_client, holder, module="ops")["id"]
    close = post_session(api_client, holder)["id"]
    mine = post_exchanges(api_client, holder, personal, [
        {"user": f"Note {i}: my colleague Jan de Vries runs the nightly backup at 02:00.", "assistant": "Noted."}
        for i in range(2)])
    shared = post_exchanges(api_client, holder, module, [
        {"user": f"Rule {i}: the ops team deploys on Thursdays only.", "assistant": "Ok."} for i in range(2)])
    personal_items, module_items, episode = [], [], None
    for stored, into in ((mine, personal_items), (shared, module_items)):
        for row in stored:
            episode, experience = make_memories(Exchange.objects.get(pk=row["id"]))
            into.append(str(experience.pk))
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    return World(agent=holder, personal_session=personal, module_session=module, close_session=close,
                 exchange=mine[0]["id"], episode=str(episode.pk), personal_items=personal_items,
                 module_items=module_items, batch=str(batch.pk))


# --- the API -----------------------------------------------------------------------------------------------------

def _resolver_operations() -> set[tuple[str, str]]:
    """(path as the schema spells it, method) for every API view method in the URL configuration."""
    return {(route, method) for _name, route, method, _view in api_operations()}


def _schema_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {(path, method) for path, item in schema["paths"].items() for method in item
            if method in ("get", "post", "put", "patch", "delete")}


# Per operation the requests that exercise it, in this order (later ones use what earlier ones returned):
# (method, path, body, the statuses that mean it did its work).
def _api_requests(w: World) -> dict[tuple[str, str], list[tuple[str, str, Any, set[int]]]]:
    s, x = w.personal_session, w.exchange
    return {
        ("/api/v1/agents/me", "get"): [("get", "/api/v1/agents/me", None, {200})],
        ("/api/v1/sessions", "get"): [("get", "/api/v1/sessions", None, {200})],
        ("/api/v1/sessions", "post"): [("post", "/api/v1/sessions", {"external_id": "run-7"}, {201}),
                                       ("post", "/api/v1/sessions", {"module": "ops"}, {201})],
        ("/api/v1/sessions/{session_id}", "get"): [("get", f"/api/v1/sessions/{s}", None, {200})],
        ("/api/v1/sessions/{session_id}/exchanges", "post"): [
            ("post", f"/api/v1/sessions/{s}/exchanges",
             {"exchanges": [{"user": f"Again: Jan de Vries runs the nightly backup at 02:00 ({i}).",
                             "assistant": "Noted."} for i in range(3)]}, {201}),
            ("post", f"/api/v1/sessions/{w.module_session}/exchanges",
             {"user": "The ops team deploys on Thursdays, never on Fridays.", "assistant": "Ok."}, {201})],
        ("/api/v1/sessions/{session_id}/close", "post"): [
            ("post", f"/api/v1/sessions/{w.close_session}/close", {}, {200})],
        ("/api/v1/exchanges", "get"): [("get", "/api/v1/exchanges?state=candidate", None, {200})],
        ("/api/v1/exchanges/{exchange_id}", "get"): [("get", f"/api/v1/exchanges/{x}", None, {200})],
        ("/api/v1/episodes", "get"): [("get", "/api/v1/episodes", None, {200})],
        ("/api/v1/episodes/{episode_id}", "get"): [("get", f"/api/v1/episodes/{w.episode}", None, {200})],
        ("/api/v1/experiences", "get"): [("get", "/api/v1/experiences", None, {200})],
        ("/api/v1/experiences/{experience_id}", "get"): [
            ("get", f"/api/v1/experiences/{w.personal_items[0]}", None, {200})],
        ("/api/v1/experiences/{experience_id}", "patch"): [
            ("patch", f"/api/v1/experiences/{w.personal_items[0]}",
             {"statement": "Jan de Vries runs the nightly backup at 03:00.", "reason": "moved"}, {200}),
            ("patch", f"/api/v1/experiences/{w.module_items[0]}",
             {"statement": "The ops team deploys on Wednesdays only.", "reason": "changed"}, {202})],
        ("/api/v1/experiences/{experience_id}", "delete"): [
            ("delete", f"/api/v1/experiences/{w.personal_items[1]}", {"reason": "wrong"}, {204}),
            ("delete", f"/api/v1/experiences/{w.module_items[1]}", {"reason": "obsolete"}, {202})],
        ("/api/v1/entities", "get"): [("get", "/api/v1/entities", None, {200})],
        ("/api/v1/search", "post"): [("post", "/api/v1/search", {"query": "who runs the backup?"}, {200})],
        ("/api/v1/feedback", "post"): [("post", "/api/v1/feedback", "FEEDBACK", {200})],
        ("/api/v1/metrics", "get"): [("get", "/api/v1/metrics", None, {200})],
        ("/api/v1/export", "get"): [("get", "/api/v1/export", None, {200})],
        ("/api/v1/consolidations", "get"): [("get", "/api/v1/consolidations", None, {200})],
        ("/api/v1/consolidations/{batch_id}", "get"): [("get", f"/api/v1/consolidations/{w.batch}", None, {200})],
        ("/api/v1/consolidations/run", "post"): [("post", "/api/v1/consolidations/run", {}, {200, 202})],
        # last: they delete what the requests above used
        ("/api/v1/forget", "post"): [
            # the whole name: masked as one since round 40 (before, "de Vries" was stored in clear)
            ("post", "/api/v1/forget", {"subject": "Jan de Vries", "reason": "erasure request"}, {200}),
            ("post", "/api/v1/forget", {"session_ids": [w.module_session], "reason": "obsolete"}, {200})],
        ("/api/v1/sessions/{session_id}", "delete"): [
            ("delete", f"/api/v1/sessions/{s}", {"reason": "the user asked"}, {200})],
    }


def test_the_walk_covers_every_api_operation(api_client, make_agent):
    """The schema and the URL resolver agree, and every operation has its requests below."""
    schema, resolved = _schema_operations(), _resolver_operations()
    assert schema == resolved, {"schema only": schema - resolved, "resolver only": resolved - schema}
    fake = World(agent=None, personal_session="s", module_session="m", close_session="c", exchange="x", episode="e",
                 personal_items=["p", "p"], module_items=["m", "m"], batch="b")
    assert set(_api_requests(fake)) == schema, {"no request for": schema - set(_api_requests(fake))}


def test_every_api_operation_audits_what_it_changes(api_client, make_agent):
    w = _world(api_client, make_agent)
    checks, writes = [], 0
    for requests in _api_requests(w).values():
        for method, path, body, statuses in requests:
            if body == "FEEDBACK":
                body = {"search_id": w.ids["search_id"], "used_ids": w.ids["returned"][:1], "helpful": True}
            call = getattr(api_client, method)
            send = (partial(call, path, body, format="json", **w.agent.headers) if body is not None
                    else partial(call, path, **w.agent.headers))
            response, check = audited(f"{method.upper()} {path}", send)
            assert response.status_code in statuses, (method, path, response.status_code, response.content[:500])
            if path == "/api/v1/search":
                data = response.json()
                w.ids["search_id"] = data["search_id"]
                w.ids["returned"] = [h["id"] for layer in ("exchanges", "episodes", "experiences") for h in data[layer]]
            writes += bool(check.changed)
            checks.append(check)
    assert writes >= 10, "the requests changed too little for the check to mean anything"
    if os.environ.get("RECMEM_AUDIT_COVERAGE_SHOW"):
        print("\n".join(f"{c.label}: {sorted((t, len(i)) for t, i in c.changed.items())}" for c in checks))
    assert_all_accounted(checks)


# --- the admin ---------------------------------------------------------------------------------------------------

AUDITED_TABLES = {m._meta.db_table for m in audited_models()}
# Admin models that are not memory rows: what they are, and why the admin may write them.
NOT_MEMORY = {
    "auth.user": "people (Django's own)", "auth.group": "people (Django's own)",
    "agents.project": "a project: deleting one with memory is refused (its audit events PROTECT it); archive it",
    "agents.module": "a module: renamed here; never deleted here (memory rows would lose their scope)",
    "governance.privacypolicy": "configuration, edited by hand",
    "governance.allowedterm": "allowed terms: added and removed through audited services",
    "governance.pseudonymentry": "read only", "governance.vaultentry": "read only; reveal is audited",
    "governance.llmcall": "read only", "governance.metricday": "read only", "governance.auditevent": "read only",
    "django_q.schedule": "the task queue", "django_q.success": "the task queue", "django_q.failure": "the task queue",
    "django_q.ormq": "the task queue",
    "axes.accessattempt": "login lockout records", "axes.accessfailurelog": "login lockout records",
    "axes.accesslog": "login lockout records",
}
# Audited rows whose admin still adds or edits them, each through an audited service.
EDITED_THROUGH_SERVICES = {"agents.agent": "agent_register / agent_changes_record (governance/agent_admin.py)",
                           "agents.apikey": "read only but for the revoke action"}


def _label(model) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


@pytest.fixture
def superuser_request(db):
    user = User.objects.create_superuser("auditor", "auditor@example.com", "pw-123456")
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def test_no_admin_model_offers_an_unaudited_write(superuser_request):
    """Every registered admin model is a memory row (no add, change or delete from the admin, not even for a
    superuser) or is named above with what it is."""
    for model, model_admin in admin.site._registry.items():
        label = _label(model)
        if model._meta.db_table in AUDITED_TABLES:
            assert not model_admin.has_delete_permission(superuser_request), label
            assert "delete_selected" not in model_admin.get_actions(superuser_request), label
            if label not in EDITED_THROUGH_SERVICES:
                assert not model_admin.has_add_permission(superuser_request), label
                assert not model_admin.has_change_permission(superuser_request), label
            for inline in model_admin.get_inline_instances(superuser_request):
                # a formset deletes only with both
                assert not (inline.can_delete and inline.has_delete_permission(superuser_request)), (label, inline)
        else:
            assert label in NOT_MEMORY, f"{label}: a new admin model — a memory row, or say here what it is"


def _reaches_audited(model, seen=None) -> set[str]:
    """The audited tables a delete of ``model`` rows would change (cascades, SET_NULL), by the model graph."""
    seen = seen if seen is not None else set()
    reached = set()
    for rel in model._meta.related_objects:
        related = rel.related_model if not rel.many_to_many else (rel.through or rel.field.remote_field.through)
        if related is None or related in seen:
            continue
        if rel.many_to_many:
            through = rel.field.remote_field.through
            if through._meta.db_table in AUDITED_TABLES:
                reached.add(through._meta.db_table)
            continue
        if rel.on_delete in (models.PROTECT, models.RESTRICT, models.DO_NOTHING):
            continue
        if related._meta.db_table in AUDITED_TABLES:
            reached.add(related._meta.db_table)
        if rel.on_delete is models.CASCADE:
            seen.add(related)
            reached |= _reaches_audited(related, seen)
    return reached


def _admin_world(api_client, make_agent, admin_user):
    w = _world(api_client, make_agent)
    holder = w.agent.agent
    project = holder.project
    batch = ConsolidationBatch.objects.get(pk=w.batch)
    Experience.objects.filter(pk=w.module_items[0]).update(batch=batch)
    Exchange.objects.filter(pk=w.exchange).update(consolidated_batch=batch)
    Exchange.objects.filter(session_id=w.personal_session).update(consolidated_batch=batch)  # held by its rollback
    source = Exchange.objects.get(pk=w.exchange)
    # one pending promotion per decision path (bulk approve, reject, needs evidence; the decide and bulk pages)
    # (of another batch: the rollback closes the pending items of its own)
    other = ConsolidationBatch.objects.create(project=project, agent=holder, status="succeeded")
    promotions = [review_item_create(experience=make_memories(source)[1], batch=other, sessions=3) for _ in range(5)]
    # one agent's shared item, for the vouch and its withdrawal
    vouchable = make_memories(Exchange.objects.filter(session_id=w.module_session).first())[1]
    assert vouchable.scope == "module" and not vouchable.verified
    Experience.objects.filter(pk=vouchable.pk).update(batch=other)
    failed = ConsolidationBatch.objects.create(project=project, agent=holder, status="failed")
    Candidate.objects.create(project=project, agent=holder, trigger_id=w.exchange, batch=failed, status="failed")
    archived = Experience.objects.get(pk=w.personal_items[1])
    Experience.objects.filter(pk=archived.pk).update(status=MemoryStatus.ARCHIVED)
    Episode.objects.filter(pk=w.episode).update(status=MemoryStatus.ARCHIVED)
    samples = validity_sample_draw(project=project, size=4)
    from memory.services.validity import validity_judge

    validity_judge(sample=samples[-1], verdict="accurate", user=admin_user)  # the judge's user is in the trail
    AllowedTerm.objects.create(project=project, term="Kubernetes")
    forgettable = post_session(api_client, w.agent)["id"]
    for row in post_exchanges(api_client, w.agent, forgettable, [
            {"user": "My colleague Ada Quist asked about the invoice.", "assistant": "Noted."},
            {"user": "The printer on floor 2 jams every morning.", "assistant": "Ok."}]):
        make_memories(Exchange.objects.get(pk=row["id"]))
    return {"forgettable": Session.objects.get(pk=forgettable),
            "world": w, "batch": batch, "promotions": promotions, "failed": failed, "samples": samples,
            "archived": archived, "module": Module.objects.get(project=project, name="ops"), "project": project,
            "agent": holder, "key": ApiKey.objects.filter(agent=holder).first(), "judge": admin_user,
            "vouchable": vouchable}


# Per (model, action): the row it is run on, and the form of its second step (a page that asks for a reason).
def _action_runs(ctx) -> dict[tuple[str, str], tuple[Any, dict | None]]:
    w = ctx["world"]
    return {
        ("agents.project", "export_memory"): (ctx["project"], None),
        ("agents.project", "archive"): (ctx["project"], None),
        ("agents.project", "delete_selected"): (ctx["project"], {"post": "yes"}),
        ("agents.module", "delete_selected"): (ctx["module"], {"post": "yes"}),
        ("agents.agent", "issue_key"): (ctx["agent"], None),
        ("agents.agent", "set_roles"): (ctx["agent"], {"apply": "1", "roles": ["reader", "writer"],
                                                        "reason": "least privilege"}),
        ("agents.apikey", "revoke"): (ctx["key"], None),
        ("memory.exchange", "release"): (Exchange.objects.get(pk=w.exchange), None),
        ("memory.episode", "restore"): (Episode.objects.get(pk=w.episode), None),
        ("memory.experience", "restore"): (ctx["archived"], None),
        ("memory.experience", "vouch"): (ctx["vouchable"], None),
        ("memory.experience", "withdraw_vouch"): (ctx["vouchable"], None),  # runs after the vouch
        ("memory.reviewitem", "bulk_approve"): (ctx["promotions"][0], None),
        ("memory.reviewitem", "bulk_reject"): (ctx["promotions"][1], None),
        ("memory.reviewitem", "bulk_needs_evidence"): (ctx["promotions"][2], None),
        ("memory.validitysample", "mark_accurate"): (ctx["samples"][0], None),
        ("memory.validitysample", "mark_stale"): (ctx["samples"][1], None),
        ("memory.validitysample", "mark_wrong"): (ctx["samples"][2], None),
        ("memory.session", "forget"): (ctx["forgettable"], {"apply": "1", "reason": "erasure request"}),
        ("governance.consolidationbatch", "rollback"): (ctx["batch"], None),
        ("governance.consolidationbatch", "retry"): (ctx["failed"], None),
        ("governance.consolidationbatch", "release"): (ctx["batch"], None),
        ("governance.auditevent", "export_csv"): (AuditEvent.objects.first(), None),
        ("governance.auditevent", "export_jsonl"): (AuditEvent.objects.first(), None),
        ("governance.allowedterm", "delete_selected"): (AllowedTerm.objects.first(), {"post": "yes"}),
        ("auth.user", "delete_selected"): (ctx["judge"], {"post": "yes"}),
    }


# Actions of the admin's other apps that never write an audited table themselves.
OTHER_ACTIONS = {
    ("django_q.success", "resubmit_task"): "queues a stored task again; the task (memory/tasks.py) runs the audited "
                                           "services like any run",
    ("django_q.failure", "resubmit_task"): "as above",
    ("axes.accessattempt", "cleanup_expired_attempts"): "login lockout records",
}


STANDARD_PAGES = re.compile(r"_(changelist|add|change|delete|history)$|^(index|login|logout|password_change"
                            r"|password_change_done|jsi18n|view_on_site|autocomplete|app_list)$")


def _own_pages() -> set[str]:
    names = set()

    def walk(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            elif p.name and not STANDARD_PAGES.search(p.name):
                names.add(p.name)
    walk(admin.site.get_urls())
    return names


def _page_runs(ctx) -> dict[str, tuple[str, dict]]:
    """Per custom admin page: the address and the form that makes it act."""
    w, promotion, batch = ctx["world"], ctx["promotions"][3], ctx["batch"]
    entry = VaultEntry.objects.filter(project=ctx["project"]).first()
    return {
        "memory_reviewitem_decide": (f"/admin/memory/reviewitem/{promotion.pk}/decide/",
                                     {"statement": promotion.proposed_statement, "reason": "ok", "approve": "1"}),
        "memory_reviewitem_bulk": ("/admin/memory/reviewitem/bulk/",
                                   {"ids": str(ctx["promotions"][4].pk), "decision": "reject",
                                    "reason": "not shared"}),
        "governance_consolidationbatch_rollback": (f"/admin/governance/consolidationbatch/{batch.pk}/rollback/",
                                                   {"reason": "bad batch", "cascade": "on"}),
        "governance_vaultentry_reveal": (f"/admin/governance/vaultentry/{entry.pk}/reveal/", {"reason": "audit"}),
        "memory_session_forget_subject": ("/admin/memory/session/forget-subject/",
                                          {"project": str(ctx["project"].pk), "subject": "Ada Quist",
                                           "reason": "erasure request"}),
        "agents_agent_recall": ("/admin/agents/agent/recall/",
                                {"agent": str(w.agent.agent.pk), "query": "who runs the backup?"}),
    }


def test_every_admin_action_and_page_audits_what_it_changes(client, api_client, make_agent):
    user = User.objects.create_superuser("lead", "lead@example.com", "pw-123456")
    client.force_login(user)
    request = RequestFactory().get("/admin/")
    request.user = user
    ctx = _admin_world(api_client, make_agent, user)
    runs, pages = _action_runs(ctx), _page_runs(ctx)

    found = {(_label(m), name) for m, a in admin.site._registry.items() for name in a.get_actions(request)}
    # A delete that cannot reach an audited table (by the model graph) needs no run; one that can is run below.
    harmless = {(_label(m), "delete_selected") for m in admin.site._registry if not _reaches_audited(m)}
    unrun = found - set(runs) - harmless - set(OTHER_ACTIONS)
    assert not unrun, {"actions without a run": unrun}
    assert _own_pages() == set(pages), {"pages without a run": _own_pages() - set(pages)}

    checks = []
    # The pages first: the rollback page holds exchanges back, which the release actions then let go.
    for name, (url, form) in pages.items():
        response, check = audited(f"admin page {name}", lambda: client.post(url, form))  # noqa: B023
        assert response.status_code in (200, 302), (name, response.status_code, response.content[:300])
        checks.append(check)
    for (label, action), (row, second) in runs.items():
        if (label, action) not in found:
            continue
        url = f"/admin/{label.replace('.', '/')}/"
        form = {"action": action, "_selected_action": [str(row.pk)]}
        response, check = audited(f"admin {label} {action}", lambda: client.post(url, form))  # noqa: B023
        assert response.status_code in (200, 302), (label, action, response.status_code)
        checks.append(check)
        if second is not None:
            response, check = audited(f"admin {label} {action} (confirmed)",
                                      lambda: client.post(url, {**form, **second}))  # noqa: B023
            assert response.status_code in (200, 302), (label, action, response.status_code)
            checks.append(check)
        if response.status_code == 302 and "/bulk/" in response["Location"]:
            ids = str(row.pk)
            _, check = audited(f"admin {label} {action} (bulk page)", lambda: client.post(  # noqa: B023
                "/admin/memory/reviewitem/bulk/", {"ids": ids, "decision": action.removeprefix("bulk_"),  # noqa: B023
                                                   "reason": "decided in bulk"}))
            checks.append(check)
    assert sum(bool(c.changed) for c in checks) >= 8, "the admin paths changed too little to mean anything"
    if os.environ.get("RECMEM_AUDIT_COVERAGE_SHOW"):
        print("\n".join(f"{c.label}: {sorted((t, len(i)) for t, i in c.changed.items())}" for c in checks))
    assert_all_accounted(checks)
