"""Governance metrics (observed: no metrics anywhere): hit rate (feedback, and the citation proxy
without it), repetition rate, validity with its sampling queue and confidence interval, cost and growth — computed
by the periodic task into daily rows per project and scope, read through the API, a command, the dashboard and
/metrics."""

from __future__ import annotations

import io
import json
import random
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_q.models import Schedule

from governance.models import ConsolidationBatch, MetricDay
from memory.models import Candidate, Exchange, Experience, SearchLog, ValiditySample
from memory.services.metrics import metrics_compute, metrics_compute_day, wilson_interval
from memory.services.scheduling import METRICS_TASK
from memory.services.validity import validity_judge, validity_sample_draw, validity_sample_enqueue
from memory.tests.factories import make_memories, post_exchanges, post_session
from tests.console.conftest import stored_rule

pytestmark = pytest.mark.django_db

TEA = "The user prefers green tea over coffee in the afternoon."


def _now_items(pairs):
    return [{"user": u, "assistant": a} for u, a in pairs]  # stored now: today's metric row


def _search(api_client, holder, query, **extra):
    response = api_client.post("/api/v1/search", {"query": query, **extra}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def memories(api_client, make_agent):
    holder = make_agent(roles=["writer", "reader", "operator"])
    session = post_session(api_client, holder)
    stored = post_exchanges(api_client, holder, session["id"], _now_items([
        ("I am training for the Berlin marathon in September.", "Great, let us plan it."),
        ("My long runs are on Sunday mornings.", "Noted, Sunday long runs."),
    ]))
    for row in stored:
        make_memories(Exchange.objects.get(pk=row["id"]))
    return holder, session


def _row(project, scope=MetricDay.ALL):
    return MetricDay.objects.get(project=project, day=timezone.localdate(), scope=scope)


def test_search_returns_a_search_id_and_takes_feedback(api_client, memories, make_agent):
    holder, _ = memories
    body = _search(api_client, holder, "marathon training")
    log = SearchLog.objects.get(pk=body["search_id"])
    returned = [x["id"] for layer in ("exchanges", "episodes", "experiences") for x in body[layer]]
    assert [r["id"] for r in log.returned] == returned and len(returned) >= 4
    used = returned[:2]
    response = api_client.post("/api/v1/feedback", {"search_id": body["search_id"], "used_ids": used,
                                                    "helpful": True}, format="json", **holder.headers)
    assert response.status_code == 200 and response.json() == {"search_id": body["search_id"], "used": 2,
                                                                "returned": len(returned), "helpful": True}
    metrics_compute_day(project=holder.agent.project, day=timezone.localdate())
    row = _row(holder.agent.project)
    assert (row.searches, row.returned, row.used, row.returned_with_feedback) == (1, len(returned), 2,
                                                                                  len(returned))
    assert row.hit_rate == round(2 / len(returned), 4) and row.helpful_yes == 1
    personal = _row(holder.agent.project, "personal")
    assert personal.returned == len(returned)  # every returned item is personal here


def test_feedback_is_attacker_input(api_client, memories, make_agent):
    holder, _ = memories
    body = _search(api_client, holder, "marathon training")
    stranger = make_agent(project="other")
    for payload, status in (
        ({"search_id": body["search_id"], "used_ids": [str(uuid.uuid4())]}, 400),  # not returned by the search
        ({"search_id": "not-a-uuid", "used_ids": []}, 400),
        ({"search_id": body["search_id"], "used_ids": "everything"}, 400),
        ({"search_id": str(uuid.uuid4()), "used_ids": []}, 404),
    ):
        response = api_client.post("/api/v1/feedback", payload, format="json", **holder.headers)
        assert response.status_code == status, (payload, response.content)
        assert "error" in response.json()
    assert api_client.post("/api/v1/feedback", {"search_id": body["search_id"], "used_ids": []}, format="json",
                           **stranger.headers).status_code == 404  # someone else's search
    unknown = api_client.post("/api/v1/feedback", {"search_id": body["search_id"], "used_ids": [str(uuid.uuid4())]},
                              format="json", **holder.headers).json()
    assert unknown["error"]["details"]["unknown_ids"]
    assert SearchLog.objects.get(pk=body["search_id"]).feedback_at is None  # nothing changed


def test_hit_rate_proxy_without_feedback(api_client, memories):
    """Without feedback: the share of returned items that a later exchange of the same session restates."""
    holder, session = memories
    cited = _search(api_client, holder, "when are my long runs?", session=session["id"])
    post_exchanges(api_client, holder, session["id"], _now_items([
        ("So my long runs stay on Sunday mornings?", "Yes, your long runs are on Sunday mornings.")]))
    silent = _search(api_client, holder, "when are my long runs?")  # nothing said after it: nothing cited
    metrics_compute_day(project=holder.agent.project, day=timezone.localdate())
    row = _row(holder.agent.project)
    log = SearchLog.objects.get(pk=cited["search_id"])
    assert log.cited and set(log.cited) <= {r["id"] for r in log.returned}
    sunday = {x["id"] for layer in ("exchanges", "experiences") for x in cited[layer] if "Sunday" in str(x)}
    assert sunday & set(log.cited)
    assert SearchLog.objects.get(pk=silent["search_id"]).cited == []
    assert row.searches == 2 and row.cited == len(log.cited) and row.used == 0
    assert 0 < row.hit_rate < 1 and row.hit_rate == round(len(log.cited) / row.returned, 4)


def test_repetition_rate(api_client, make_agent):
    holder = make_agent()
    stored_rule(holder=holder, api_client=api_client, statement=TEA, user_texts=["I like green tea."],
                scope="personal", module=None, type_="preference")
    session = post_session(api_client, holder)["id"]
    post_exchanges(api_client, holder, session, _now_items([
        (TEA, "I know: green tea in the afternoon."),  # restates the active preference
        ("What's a good name for a grey kitten?", "Smokey."),
    ]))
    metrics_compute_day(project=holder.agent.project, day=timezone.localdate())
    row = _row(holder.agent.project)
    # Today's exchanges: the preference's own evidence (before the item existed), the restatement, the chatter.
    assert (row.exchanges, row.repetitions) == (3, 1)
    assert row.repetition_rate == round(100 / 3, 4)
    assert _row(holder.agent.project, "personal").repetitions == 1


def test_validity_sampling_queue_and_interval(api_client, make_agent, reviewer, admin_client):
    holder = make_agent()
    items = [stored_rule(holder=holder, api_client=api_client, statement=f"Fact {i}: server {i} runs Debian.",
                         user_texts=[f"server {i}"], scope="personal", module=None, type_="fact") for i in range(6)]
    drawn = validity_sample_draw(project=holder.agent.project, size=5, rng=random.Random(7))
    assert len(drawn) == 5 and validity_sample_draw(project=holder.agent.project, size=5) == []  # once a week
    assert validity_sample_enqueue(items=[drawn[0].experience], reason="needs_revalidation") == []  # no duplicate
    samples = list(ValiditySample.objects.all())
    for sample in samples[:4]:
        validity_judge(sample=sample, verdict="accurate", user=reviewer)
    # The last one through the admin queue: marked wrong, which sends the item to revalidation.
    response = admin_client.post("/admin/memory/validitysample/", {"action": "mark_wrong",
                                                                   "_selected_action": [samples[4].pk]}, follow=True)
    assert "sent to revalidation" in str([str(m) for m in response.context["messages"]])
    assert Experience.objects.get(pk=samples[4].experience_id).needs_revalidation
    assert not Experience.objects.get(pk=samples[0].experience_id).needs_revalidation
    metrics_compute_day(project=holder.agent.project, day=timezone.localdate())
    row = _row(holder.agent.project)
    low, high = wilson_interval(4, 5)
    assert (row.validity_judged, row.validity_accurate, row.validity_rate) == (5, 4, 0.8)
    assert (row.validity_low, row.validity_high) == (round(low, 4), round(high, 4))
    assert 0.37 < low < 0.38 and 0.96 < high < 0.97
    assert len(items) == 6


def test_cost_growth_and_backlog(api_client, memories):
    holder, _ = memories
    project = holder.agent.project
    now = timezone.now()
    for tokens, failed in ((1000, False), (500, True)):
        ConsolidationBatch.objects.create(project=project, agent=holder.agent,
                                          status="failed" if failed else "succeeded", prompt_tokens=tokens,
                                          completion_tokens=tokens // 10, started_at=now - timedelta(seconds=4),
                                          finished_at=now)
    Candidate.objects.create(project=project, agent=holder.agent, trigger=Exchange.objects.first(),
                             reason="recurrence")
    metrics_compute_day(project=project, day=timezone.localdate())
    row = _row(project)
    assert (row.batches, row.batches_failed, row.prompt_tokens, row.completion_tokens) == (2, 1, 1500, 150)
    assert row.batch_seconds == pytest.approx(8.0, abs=0.01) and row.backlog == 1
    assert (row.exchanges_total, row.episodes_active, row.experiences_active) == (2, 2, 2)
    assert _row(project, "personal").experiences_active == 2


def test_the_periodic_task_writes_daily_rows_and_is_scheduled(api_client, memories):
    from django.utils.module_loading import import_string

    schedule = Schedule.objects.get(name="recmem:governance-metrics")
    assert schedule.func == METRICS_TASK and schedule.schedule_type == "H" and "'save': False" in schedule.kwargs
    written = import_string(METRICS_TASK)()
    project = memories[0].agent.project
    assert written == 8 and MetricDay.objects.filter(project=project).count() == 8  # 4 scopes × today, yesterday
    assert ValiditySample.objects.filter(project=project).count() == 2  # the week's sample of its 2 items
    metrics_compute(days=2)  # recomputing replaces, never duplicates
    assert MetricDay.objects.filter(project=project).count() == 8


def test_the_metrics_api_and_command(api_client, memories, make_agent):
    holder, _ = memories
    metrics_compute(days=1)
    body = api_client.get("/api/v1/metrics?scope=all", **holder.headers).json()
    [row] = body["results"]
    assert row["scope"] == "all" and row["exchanges"] == 2 and "hit_rate" in row and "validity_low" in row
    assert api_client.get("/api/v1/metrics?scope=everything", **holder.headers).status_code == 400
    reader = make_agent(roles=["reader"])
    assert api_client.get("/api/v1/metrics", **reader.headers).status_code == 403
    out = io.StringIO()
    call_command("governance_metrics", "--project", holder.agent.project.name, "--json", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["project"] == holder.agent.project.name and lines[0]["exchanges"] == 2
    out = io.StringIO()
    call_command("governance_metrics", "--compute", stdout=out, stderr=io.StringIO())
    assert "hit rate" in out.getvalue() and holder.agent.project.name in out.getvalue()


def test_the_dashboard_is_the_admins_landing_page(admin_client, api_client, memories):
    """Observed: the admin index had no pending-review count, no backlog, no cost or growth view."""
    holder, _ = memories
    _search(api_client, holder, "marathon")
    metrics_compute(days=2)
    page = admin_client.get("/admin/").content.decode()
    for text in ('id="governance-dashboard"', "promotions to review", "conflicts to decide", "failed batches",
                 "candidates waiting", "validity samples to judge", "Hit rate", "Repetition rate",
                 "Memory validity", "Consolidation cost per day", "Store growth", holder.agent.project.name):
        assert text in page, text
    assert page.count("<svg") >= 6 and "<polyline" in page or "<circle" in page
    assert "cdn" not in page.lower() and 'src="http' not in page and "<script src=\"//" not in page


def test_prometheus_metrics(client, api_client, memories, reviewer):
    holder, _ = memories
    from memory.review.services import review_item_create

    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="failed")
    review_item_create(experience=Experience.objects.first(), batch=batch, sessions=3)
    metrics_compute(days=1)
    body = client.get("/metrics").content.decode()
    name = holder.agent.project.name
    assert f'recmem_review_pending{{kind="promotion",project="{name}"}} 1.0' in body
    assert f'recmem_batches_failed{{project="{name}"}} 1.0' in body
    assert f'recmem_exchanges_total{{project="{name}",scope="all"}} 2.0' in body
    assert "recmem_queue_tasks" in body and "recmem_validity_rate" in body


def test_prometheus_metrics_only_for_the_machine_itself_or_a_token(client, memories):
    from core.config import config_override

    remote = {"REMOTE_ADDR": "203.0.113.7"}
    refused = client.get("/metrics", **remote)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "metrics_forbidden"
    assert b"recmem_" not in refused.content
    with config_override(server__metrics_token="scrape-secret-1"):
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong", **remote).status_code == 403
        allowed = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-secret-1", **remote)
        assert allowed.status_code == 200 and b"recmem_exchanges_total" in allowed.content
    assert client.get("/metrics").status_code == 200  # the test client's 127.0.0.1
