"""The rest of the console's observations: Swagger UI and ReDoc from local assets, the idle tick keeps no task result
per tick, a root page at /, the audit list fitted to the screen with short linked ids and filters."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.utils import timezone
from django_q.brokers import get_broker
from django_q.models import Schedule, Success
from django_q.scheduler import scheduler

from governance.services.audit import audit_record
from memory.services.scheduling import IDLE_TICK_TASK
from memory.tests.factories import make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _local_assets(html: str) -> list[str]:
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls
    return urls


def test_swagger_ui_loads_its_assets_from_our_static_files(client):
    """Observed: Swagger UI was a blank page offline (its assets came from a CDN)."""
    html = client.get("/api/docs/").content.decode()
    assets = [u for u in _local_assets(html) if u.endswith((".js", ".css"))]
    assert assets and all(u.startswith("/static/") for u in assets), assets
    for url in assets:  # and they exist among the project's static files
        assert finders.find(url.removeprefix("/static/")), url
    # No remote origin anywhere in the page (the CSRF token is random text, so no bare substring test).
    remote = re.findall(r"(?:https?:)?//([a-z0-9.-]+)", html, flags=re.IGNORECASE)
    assert not [host for host in remote if host not in {"testserver", "localhost", "127.0.0.1"}], remote


def test_redoc_from_local_assets(client):
    html = client.get("/api/redoc/").content.decode()
    scripts = [u for u in _local_assets(html) if u.endswith(".js")]
    assert scripts and all(u.startswith("/static/") and finders.find(u.removeprefix("/static/")) for u in scripts)


def test_the_root_page_links_to_the_docs_and_the_admin(client):
    """Observed: "View site" linked to /, which was a 404."""
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    for link in ('href="/admin/"', 'href="/api/docs/"', 'href="/api/redoc/"', 'href="/healthz"', 'href="/metrics"'):
        assert link in body


def test_the_idle_tick_keeps_no_result_per_tick():
    """Observed: the django-q "successful tasks" list was flooded by the idle tick (one every ~30 s)."""
    Schedule.objects.exclude(func=IDLE_TICK_TASK).update(next_run=timezone.now() + timedelta(days=1))
    tick = Schedule.objects.get(func=IDLE_TICK_TASK)
    tick.next_run = timezone.now() - timedelta(minutes=1)
    tick.save()
    scheduler(broker=get_broker())
    tick.refresh_from_db()
    assert tick.task  # it ran
    assert not Success.objects.filter(func=IDLE_TICK_TASK).exists()


def test_the_audit_list_fits_with_short_linked_ids_and_filters(client, make_agent, api_client):
    """Observed: actor, scope and reason off-screen at 1400 px, UUIDs wrapping to 4 lines, ids not links, no filter
    by agent or user."""
    user = User.objects.create_superuser("auditor", "a@example.com", "pw-123456")
    client.force_login(user)
    holder = make_agent(name="planner")
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], [{"user": "hello", "assistant": "hi"}])
    from memory.models import Exchange

    _, experience = make_memories(Exchange.objects.get(pk=stored[0]["id"]))
    audit_record(action="update", object_type="experience", object_id=str(experience.pk),
                 project_id=holder.agent.project_id, actor_agent=holder.agent, scope="personal",
                 reason="a long reason " * 20)
    audit_record(action="review", object_type="review_item", object_id=str(uuid.uuid4()),
                 project_id=holder.agent.project_id, actor_user=user, reason="approved")
    page = client.get("/admin/governance/auditevent/").content.decode()
    link = f'/admin/memory/experience/{experience.pk}/change/'
    assert link in page and f"<code>{str(experience.pk)[:8]}</code>" in page
    assert f">{experience.pk}<" not in page  # the full id only in the tooltip
    assert f'/admin/memory/session/{session["id"]}/change/' in page  # the session's create event links too
    for filter_param in ("actor_agent__id__exact", "actor_user__id__exact", "action__exact", "?scope=personal"):
        assert filter_param in page, filter_param
    # Few, narrow columns; that they fit a 1400 px screen is measured in a real browser
    # (tests/browser/test_reviewer_paths.py::test_the_audit_list_fits_the_screen).
    table = page[page.index('<table id="result_list">'):]
    header = table[:table.index("</thead>")]
    columns = re.findall(r'<th scope="col" class="[^"]*column-(\w+)', header)
    assert columns == ["created_at", "action", "object_link", "project", "seq", "actor", "scope", "reason_short"]
    assert "a long reason a long reason a long reason a long…" in page or "…" in page
    filtered = client.get(f"/admin/governance/auditevent/?actor_agent__id__exact={holder.agent.pk}")
    assert filtered.status_code == 200
    assert str(uuid.UUID(str(experience.pk)))[:8] in filtered.content.decode()
