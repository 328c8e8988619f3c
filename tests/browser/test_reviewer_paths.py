"""The reviewer's and auditor's paths in a real browser (what a person clicks, not what a test client posts): the
dashboard, the decide page, bulk decisions, rollback preview and confirmation, vault reveal, Swagger UI — offline (every
outside request is refused), at 1400 × 900, with a screenshot of each page in tests/browser/screenshots/."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from governance.models import ConsolidationBatch, VaultEntry
from governance.services.audit import audit_record
from governance.services.privacy import texts_mask
from memory.models import Exchange, Experience, ExperienceEvidence, ReviewItem, SearchLog, ValiditySample
from memory.review.services import review_conflict_create, review_item_create
from memory.services.metrics import metrics_compute_day
from memory.services.validity import validity_judge, validity_sample_draw
from memory.tests.factories import make_memories, post_exchanges, post_session
from tests.browser.conftest import screenshot
from tests.console.conftest import stored_rule

pytestmark = pytest.mark.django_db(transaction=True)

PROPOSED = "Run the linter and the unit tests before every merge to main."
CLOSE = "Run the linter before every merge to main."
DAYS = 10


def _day(offset: int) -> datetime:
    return timezone.now() - timedelta(days=offset)


def _history(api_client, holder, reviewer_user):
    """Ten days of use: exchanges, searches (some with feedback), batches with tokens; metrics computed per day."""
    project = holder.agent.project
    session = post_session(api_client, holder, module="ops")["id"]
    for offset in range(DAYS - 1, -1, -1):
        stored = post_exchanges(api_client, holder, session, [
            {"user": PROPOSED if offset % 3 == 0 else f"Day {offset}: I ran the linter before merging.",
             "assistant": "Done."},
            {"user": f"Day {offset}: the staging deploy went fine.", "assistant": "Good."},
        ])
        body = api_client.post("/api/v1/search", {"query": "what do we run before a merge?", "session": session},
                               format="json", **holder.headers).json()
        returned = [x["id"] for layer in ("exchanges", "episodes", "experiences") for x in body[layer]]
        if offset % 2 == 0:
            api_client.post("/api/v1/feedback", {"search_id": body["search_id"],
                                                 "used_ids": returned[: 1 + offset % 3], "helpful": True},
                            format="json", **holder.headers)
        when = _day(offset)
        Exchange.objects.filter(pk__in=[s["id"] for s in stored]).update(created_at=when)
        SearchLog.objects.filter(pk=body["search_id"]).update(created_at=when)
        ConsolidationBatch.objects.create(project=project, agent=holder.agent, status="succeeded",
                                          prompt_tokens=2000 + 300 * offset, completion_tokens=400,
                                          started_at=when - timedelta(seconds=5 + offset), finished_at=when)
    samples = validity_sample_draw(project=project, size=4)
    for i, sample in enumerate(samples[:3]):  # one stays in the queue
        validity_judge(sample=sample, verdict="accurate" if i else "stale", user=reviewer_user)
    for offset in range(DAYS - 1, -1, -1):
        metrics_compute_day(project=project, day=timezone.localdate(_day(offset)))


@pytest.fixture
def governed(api_client, make_agent, logged_in):
    from django.contrib.auth.models import User

    holder = make_agent(name="planner", modules=["ops"])
    rule = stored_rule(holder=holder, api_client=api_client, statement=PROPOSED,
                       user_texts=[f"Merge {i}: linter and unit tests first." for i in range(3)])
    Experience.objects.filter(pk=rule.pk).update(created_at=_day(DAYS + 2))  # known before the history below
    stored_rule(holder=holder, api_client=api_client, statement=CLOSE, scope="project", module=None,
                user_texts=["the linter runs before merges"])
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded",
                                              started_at=timezone.now(), finished_at=timezone.now())
    Experience.objects.filter(pk=rule.pk).update(batch=batch)  # what the batch wrote
    ExperienceEvidence.objects.filter(experience=rule).update(batch=batch)
    Exchange.objects.filter(experiences=rule).update(consolidated_batch=batch)
    promotion = review_item_create(experience=rule, batch=batch, sessions=3, proposed_scope="project")
    others = [stored_rule(holder=holder, api_client=api_client, statement=f"Deploy window {i} is closed on Fridays.",
                          user_texts=[f"window {i} closed"]) for i in range(2)]
    bulk = [review_item_create(experience=o, batch=batch, sessions=3, proposed_scope="project") for o in others]
    personal = post_session(api_client, holder)["id"]
    note = post_exchanges(api_client, holder, personal, [{"user": "We deploy on Fridays now.", "assistant": "Ok."}])
    _, new = make_memories(Exchange.objects.get(pk=note[0]["id"]))
    review_conflict_create(experience=new, other=others[0], batch=batch)
    ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="failed",
                                      error="ConsolidationError: the LLM endpoint answered 503")
    _history(api_client, holder, User.objects.get(username="reviewer"))
    return {"holder": holder, "promotion": promotion, "bulk": bulk, "batch": batch}


def _messages(page) -> str:
    return page.inner_text("ul.messagelist")


def test_dashboard(governed, logged_in):
    page = logged_in
    page.goto("/admin/")
    assert page.inner_text("#tile-promotions .n") == "3"
    assert page.inner_text("#tile-conflicts .n") == "1"
    assert page.inner_text("#tile-failed .n") == "1"
    assert page.locator(".rm-chart svg").count() == 6
    assert page.locator(".rm-chart svg circle").count() > 20  # the ten days are plotted
    assert "acme" in page.inner_text("#project-table")
    # the page fits the screen: nothing wider than the 1400 px viewport
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    screenshot(page, "dashboard", readme_until="#governance-dashboard")
    page.click("#tile-promotions")
    page.wait_for_url("**/admin/memory/reviewitem/**")


def test_decide_with_an_edit(governed, logged_in):
    page, item = logged_in, governed["promotion"]
    page.goto(f"/admin/memory/reviewitem/{item.pk}/decide/")
    assert page.inner_text("#diff ins") == "and the unit tests"
    facts = page.inner_text(".rm-facts")
    for text in ("planner", "constraint", "module (ops)", "project"):
        assert text in facts
    assert page.locator(".rm-evidence a").count() >= 6  # sessions and exchanges, linked
    screenshot(page, "review", readme_until="#decide-form")
    page.fill("#id_statement", "Run the linter and all unit tests before every merge to main.")
    page.fill("#id_reason", "team-wide practice")
    page.click("input[name=approve]")
    # the next pending item of the queue opens, with the decision's message
    page.wait_for_url("**/admin/memory/reviewitem/*/decide/")
    assert str(item.pk) not in page.url
    assert "Approved" in _messages(page)
    item.refresh_from_db()
    assert item.status == "approved"
    assert item.approved_experience.statement == "Run the linter and all unit tests before every merge to main."


def test_the_decide_page_lists_conflicts_on_the_item(governed, logged_in):
    """A proposal whose item is in an open conflict shows that conflict, linked to its own decide page."""
    page, proposal = logged_in, governed["bulk"][0]
    conflict = ReviewItem.objects.get(kind="conflict", other_experience=proposal.experience)
    page.goto(f"/admin/memory/reviewitem/{proposal.pk}/decide/")
    listed = page.inner_text("#conflicts")
    assert "We deploy on Fridays now." in listed and "Deploy window 0 is closed on Fridays." in listed
    assert listed.startswith("Pending")
    page.click(f"#conflicts a[href='/admin/memory/reviewitem/{conflict.pk}/decide/']")
    page.wait_for_url(f"**/{conflict.pk}/decide/")
    assert page.inner_text("h1") == "Review conflict"
    page.goto(f"/admin/memory/reviewitem/{governed['bulk'][1].pk}/decide/")  # no conflict on this one
    assert page.locator("#conflicts").count() == 0


def test_the_audit_list_fits_the_screen(governed, logged_in):
    """Observed: at 1400 px actor, scope and reason were off-screen and UUIDs wrapped to 4 lines. Measured in the
    browser: the table is no wider than its box and the viewport (no horizontal scrollbar), every column is on
    screen, and each short id stays on one line."""
    page, holder = logged_in, governed["holder"]
    audit_record(action="update", object_type="experience", object_id=str(governed["promotion"].experience_id),
                 project_id=holder.agent.project_id, actor_agent=holder.agent, scope="module",
                 reason="a long reason that goes on " * 20)
    page.goto("/admin/governance/auditevent/")
    assert page.locator("#result_list tbody tr").count() >= 20
    viewport = page.evaluate("window.innerWidth")
    table = page.evaluate("""() => { const t = document.getElementById('result_list');
        return {scroll: t.scrollWidth, box: t.parentElement.clientWidth, right: t.getBoundingClientRect().right,
                page: document.documentElement.scrollWidth}; }""")
    assert table["scroll"] <= table["box"], table  # the list's own box does not scroll sideways
    assert table["right"] <= viewport and table["page"] <= viewport, table  # nor does the page
    for column in ("actor", "scope", "reason_short"):
        box = page.locator(f"#result_list thead th.column-{column}").bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport, column
    lines = page.eval_on_selector_all("#result_list td code", "els => els.map(e => e.getClientRects().length)")
    assert lines and max(lines) == 1  # short ids, one line each
    screenshot(page, "audit_list")


def test_bulk_decide(governed, logged_in):
    page, items = logged_in, governed["bulk"]
    page.goto("/admin/memory/reviewitem/?kind__exact=promotion&status__exact=pending")
    for item in items:
        page.check(f"input.action-select[value='{item.pk}']")
    page.select_option("select[name=action]", "bulk_reject")
    page.click("button[name=index]")
    page.wait_for_url("**/admin/memory/reviewitem/bulk/**")
    assert page.locator("#bulk-items li").count() == 2
    page.select_option("#id_decision", "reject")
    page.fill("#id_reason", "windows are decided per team")
    screenshot(page, "bulk_decide")
    page.click("#bulk-form input[type=submit]")
    page.wait_for_url("**/admin/memory/reviewitem/")
    assert "Decided 2 of 2" in _messages(page)
    assert {ReviewItem.objects.get(pk=i.pk).status for i in items} == {"rejected"}


def test_rollback_preview_and_confirm(governed, logged_in):
    page, batch = logged_in, governed["batch"]
    ReviewItem.objects.filter(batch=batch, kind="conflict").update(batch=None)  # keep this batch's dependents simple
    page.goto("/admin/governance/consolidationbatch/?status__exact=succeeded")
    page.click(f"a[href='/admin/governance/consolidationbatch/{batch.pk}/rollback/']")
    page.wait_for_url(f"**/{batch.pk}/rollback/")
    preview = page.inner_text("#rollback-preview")
    assert "will be held back" in preview and "pending review items of this batch will be closed" in preview
    assert "Removed (1)" in preview and PROPOSED[:40] in preview
    screenshot(page, "rollback_preview", readme_until="#rollback-form")
    page.fill("#id_reason", "the linter rule came from a bad run")
    page.click("#rollback-form input[type=submit]")
    page.wait_for_url("**/admin/governance/consolidationbatch/")
    assert "Rolled back" in _messages(page)
    batch.refresh_from_db()
    assert batch.status == "rolled_back"
    assert set(ReviewItem.objects.filter(batch=batch).values_list("status", flat=True)) == {"rolled_back"}


def test_vault_reveal(governed, logged_in):
    page, holder = logged_in, governed["holder"]
    masked = texts_mask(project=holder.agent.project, texts=["Call Jane Fonda tomorrow, please."])[0]
    entry = next(e for e in VaultEntry.objects.filter(project=holder.agent.project, entity_type="PERSON")
                 if e.placeholder in masked)
    page.goto("/admin/governance/vaultentry/")
    page.click(f"a[href='/admin/governance/vaultentry/{entry.pk}/reveal/']")
    page.fill("#id_reason", "the customer asked for their record")
    page.click("input[type=submit]")
    page.wait_for_selector("text=Original value")
    assert "Jane Fonda" in page.inner_text("#content")
    screenshot(page, "vault_reveal")


def test_validity_queue(governed, logged_in):
    page = logged_in
    page.goto("/admin/memory/validitysample/?verdict__exact=pending")
    sample = ValiditySample.objects.get(verdict="pending")
    assert sample.experience.statement[:40] in page.inner_text("#result_list")
    page.check(f"input.action-select[value='{sample.pk}']")
    page.select_option("select[name=action]", "mark_stale")
    screenshot(page, "validity_queue")
    page.click("button[name=index]")
    assert "sent to revalidation" in _messages(page)
    sample.refresh_from_db()
    assert sample.verdict == "stale" and sample.experience.needs_revalidation


def test_swagger_ui_renders_offline(page, transactional_db):
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "RecMem API" in page.inner_text(".swagger-ui .info .title")
    assert page.locator(".opblock").count() >= 15  # every operation is listed
    screenshot(page, "swagger_ui")


def test_redoc_renders_offline_grouped_by_resource(page, transactional_db):
    """ReDoc with nothing from outside (the fixture fails on any outside request): no web fonts, and its vendor logo
    refused by the page's policy before it is asked for. The operations are grouped by resource."""
    page.goto("/api/redoc/")
    page.wait_for_selector("h1")
    assert "RecMem API" in page.inner_text("h1")
    menu = page.inner_text("[role=menu]").lower()
    for tag in ("sessions", "exchanges", "search", "experiences", "consolidations", "agents"):
        assert tag in menu, menu
    assert "Open a session" in page.content()
    screenshot(page, "redoc")


def test_root_page_and_view_site(page, transactional_db):
    page.goto("/")
    page.click("text=API documentation")
    page.wait_for_selector(".swagger-ui .info .title")


def test_every_changelist_fits_1280_pixels(governed, logged_in):
    """Every model the admin lists, at 1,280 px: no horizontal scrollbar on the page, and no result table wider than
    its box (a link in a cut-off column is a link nobody can click)."""
    from django.contrib import admin

    page = logged_in
    page.set_viewport_size({"width": 1280, "height": 900})
    too_wide = {}
    for model in admin.site._registry:
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        page.goto(url)
        assert page.locator("#content").count() == 1, url
        sizes = page.evaluate("""() => { const t = document.getElementById('result_list');
            return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                    table: t ? t.scrollWidth : 0, box: t ? t.parentElement.clientWidth : 0}; }""")
        if sizes["page"] > sizes["view"] or sizes["table"] > sizes["box"]:
            too_wide[url] = sizes
        screenshot(page, f"list_1280_{model._meta.app_label}_{model._meta.model_name}")
    assert not too_wide, "\n".join(f"{u}: {s}" for u, s in too_wide.items())
