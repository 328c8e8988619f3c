"""Temporal validity: a supersede or a stated expiry ends an item (``valid_to``); ``as_of`` reads what was believed
at an instant; freshness counts from the last corroboration; the context block says since/until."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import quote

import pytest
from django.utils import timezone

from memory.models import Exchange, Experience, MemoryStatus
from memory.search.context import context_block
from memory.search.query import Hit, SearchResult
from memory.search.ranking import blended_score
from memory.search.selectors import experience_fresh_from
from memory.tests.factories import make_memories, post_exchanges, post_session
from testing.scenarios import MARATHON

pytestmark = pytest.mark.django_db

EVENING = ("I now prefer to do my marathon training runs in the evening after work instead of the morning.",
           "Evening runs are fine for your marathon plan.")


@pytest.fixture
def online(settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")


def _say(client, holder, pairs, capture):
    """Exchanges said now (no backdating: ``as_of`` compares with when the rows were written)."""
    session = post_session(client, holder)["id"]
    with capture(execute=True):
        return post_exchanges(client, holder, session, [{"user": u, "assistant": a} for u, a in pairs])


def _q(when: datetime) -> str:
    return quote(when.isoformat())


def test_as_of_on_a_supersede_chain(api_client, make_agent, online, django_capture_on_commit_callbacks):
    """v1 (morning runs) is superseded by v2 (evening runs): as of an instant between the two, search and the list
    give v1; after v2, and now, they give v2. The supersede set v1's end to where v2 starts."""
    holder = make_agent(roles=["writer", "reader", "operator"])
    _say(api_client, holder, MARATHON, django_capture_on_commit_callbacks)
    v1 = Experience.objects.get(status="active", type="preference", statement__icontains="morning")
    assert v1.valid_to is None
    between = timezone.now()
    _say(api_client, holder, [EVENING], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202
    v1.refresh_from_db()
    assert v1.status == MemoryStatus.SUPERSEDED
    v2 = v1.superseded_by
    assert v1.valid_to is not None and v1.valid_to == v2.valid_from and between < v1.valid_to
    after = timezone.now()

    def search(**extra):
        return api_client.post("/api/v1/search", {"query": "when do I do my marathon training runs", **extra},
                               format="json", **holder.headers)

    def listed(when=None):
        url = "/api/v1/experiences?type=preference" + (f"&as_of={_q(when)}" if when else "")
        return {x["id"] for x in api_client.get(url, **holder.headers).json()["results"]}

    found = {x["id"] for x in search(as_of=between.isoformat()).json()["experiences"]}
    assert str(v1.pk) in found and str(v2.pk) not in found
    assert str(v1.pk) in listed(between) and str(v2.pk) not in listed(between)
    for extra, when in (({"as_of": after.isoformat()}, after), ({}, None)):
        found = {x["id"] for x in search(**extra).json()["experiences"]}
        assert str(v2.pk) in found and str(v1.pk) not in found
        assert str(v2.pk) in listed(when) and str(v1.pk) not in listed(when)
    # the exchanges as of then: only those stored by then
    exchanges = api_client.get(f"/api/v1/exchanges?as_of={_q(between)}", **holder.headers).json()
    assert exchanges["count"] == len(MARATHON)
    # the answer shows the end
    body = search(as_of=between.isoformat()).json()
    [row] = [x for x in body["experiences"] if x["id"] == str(v1.pk)]
    assert row["valid_to"] is not None and row["status"] == "superseded"


def test_a_stated_expiry_ends_the_item(api_client, make_agent, online, django_capture_on_commit_callbacks):
    """"We must not deploy until Friday" (a rule: salient on its own): the item ends after that Friday (resolved
    against when it was said); past its end it is not returned, ``as_of`` before the end still finds it."""
    holder = make_agent(roles=["writer", "reader", "operator"])
    said = datetime.now(UTC) - timedelta(days=30)
    said = said - timedelta(days=(said.weekday() - 2) % 7)  # a Wednesday, a month ago
    session = post_session(api_client, holder)["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, session, [
            {"user": "We must not deploy to production until Friday: the deploy freeze lasts until then.",
             "assistant": "Understood, no releases until the freeze ends.", "occurred_at": said.isoformat()}])
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202
    [item] = [x for x in Experience.objects.filter(status="active") if "deploy" in x.statement]
    friday = (said + timedelta(days=2)).date()
    assert item.valid_to == datetime.combine(friday + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    assert item.status == MemoryStatus.ACTIVE  # expired, not superseded: the status stays

    query = {"query": "is there a deploy freeze"}
    now = api_client.post("/api/v1/search", query, format="json", **holder.headers).json()
    assert str(item.pk) not in {x["id"] for x in now["experiences"]}
    assert str(item.pk) not in {x["id"] for x in api_client.get("/api/v1/experiences", **holder.headers)
                                .json()["results"]}
    thursday = datetime.combine(friday - timedelta(days=1), datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    # as of Thursday noon it held (written since: as_of also needs it written by then, so move its creation back
    # to when it was said, as an import of that day would have written it)
    Experience.objects.filter(pk=item.pk).update(created_at=said)
    then = api_client.post("/api/v1/search", {**query, "as_of": thursday.isoformat()}, format="json",
                           **holder.headers).json()
    assert str(item.pk) in {x["id"] for x in then["experiences"]}
    assert f"until {friday.isoformat()}" in then["context"]
    listed = api_client.get(f"/api/v1/experiences?as_of={_q(thursday)}", **holder.headers).json()["results"]
    assert str(item.pk) in {x["id"] for x in listed}
    saturday = thursday + timedelta(days=2)
    later = api_client.post("/api/v1/search", {**query, "as_of": saturday.isoformat()}, format="json",
                            **holder.headers).json()
    assert str(item.pk) not in {x["id"] for x in later["experiences"]}


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01T00:00:00Z", "", "12345", "2026-02-30"])
def test_a_bad_as_of_is_400(api_client, make_agent, value):
    holder = make_agent()
    response = api_client.post("/api/v1/search", {"query": "x", "as_of": value}, format="json", **holder.headers)
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    for path in ("experiences", "episodes", "exchanges"):
        response = api_client.get(f"/api/v1/{path}?as_of={quote(value)}", **holder.headers)
        assert response.status_code == 400, (path, value)
        assert response.json()["error"]["code"] == "invalid"


def test_as_of_at_the_edges_of_time_is_clamped(api_client, make_agent):
    holder = make_agent()
    for value in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"):
        response = api_client.get(f"/api/v1/experiences?as_of={quote(value)}", **holder.headers)
        assert response.status_code == 200, response.content


def test_freshness_counts_from_the_last_corroboration(api_client, make_agent):
    """Two items equal but for their dates: the one started long ago and restated yesterday ranks above the one
    started recently and not said since (the freshness weight, 0.05, decides between otherwise equal items). Counted
    from ``valid_from`` the order was the other way round."""
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    rows = post_exchanges(api_client, holder, session, [
        {"user": "The staging cache is flushed every first Monday of the month.", "assistant": "Noted."},
        {"user": "The staging cache is flushed every first Monday of the month.", "assistant": "Noted."}])
    (_, old_restated), (_, recent_silent) = (make_memories(Exchange.objects.get(pk=r["id"])) for r in rows)
    now = timezone.now()
    Experience.objects.filter(pk=old_restated.pk).update(valid_from=now - timedelta(days=200),
                                                         last_corroborated_at=now - timedelta(days=1))
    Experience.objects.filter(pk=recent_silent.pk).update(valid_from=now - timedelta(days=60),
                                                          last_corroborated_at=now - timedelta(days=60))

    def order() -> list[str]:
        body = api_client.post("/api/v1/search", {"query": "when is the staging cache flushed"}, format="json",
                               **holder.headers).json()
        return [x["id"] for x in body["experiences"] if x["id"] in {str(old_restated.pk), str(recent_silent.pk)}]

    assert order() == [str(old_restated.pk), str(recent_silent.pk)]
    # the silent one is said again now: it moves up
    Experience.objects.filter(pk=recent_silent.pk).update(last_corroborated_at=timezone.now())
    assert order() == [str(recent_silent.pk), str(old_restated.pk)]
    # as of a past instant, a corroboration after it was not known then: its start counts
    item = Experience.objects.get(pk=recent_silent.pk)
    assert experience_fresh_from(item, now - timedelta(days=2)) == item.valid_from


def test_re_corroboration_in_consolidation_moves_last_corroborated_at(api_client, make_agent, online,
                                                                      django_capture_on_commit_callbacks):
    holder = make_agent(roles=["writer", "reader", "operator"])
    _say(api_client, holder, MARATHON, django_capture_on_commit_callbacks)
    item = Experience.objects.get(status="active", type="preference", statement__icontains="morning")
    first = item.last_corroborated_at
    _say(api_client, holder, [(MARATHON[-1][0], "Morning runs it is.")], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202
    item.refresh_from_db()
    assert item.status == MemoryStatus.ACTIVE and item.last_corroborated_at > first
    assert item.evidence.count() >= 2
    order = sorted([first, item.last_corroborated_at])
    assert blended_score(similarity=0.8, when=order[1], confidence=0.7, hits=0, now=timezone.now()) > \
        blended_score(similarity=0.8, when=order[0] - timedelta(days=30), confidence=0.7, hits=0, now=timezone.now())


def test_context_block_shows_since_and_until(make_agent):
    holder = make_agent()

    class Item:
        type, scope, confidence, statement = "constraint", "personal", 0.8, "No releases during the deploy freeze."
        valid_from = datetime(2026, 3, 1, 9, tzinfo=UTC)
        valid_to = datetime(2026, 3, 7, tzinfo=UTC)
        verified = needs_revalidation = False

    class Open(Item):
        valid_to = None

    text, used = context_block(SearchResult(experiences=[Hit(obj=Item(), similarity=0.9, score=0.9)]), 200)
    assert "since 2026-03-01 · until 2026-03-06" in text  # the last day it holds
    assert used > 0
    text_open, used_open = context_block(SearchResult(experiences=[Hit(obj=Open(), similarity=0.9, score=0.9)]), 200)
    assert "since 2026-03-01" in text_open and "until" not in text_open
    assert used_open < used  # the label is counted against the budget
    # a budget that fits the open line but not the longer one leaves the longer one out
    tight, _ = context_block(SearchResult(experiences=[Hit(obj=Item(), similarity=0.9, score=0.9)]), used - 1)
    assert tight == ""
    assert holder  # the database fixture: tokens are counted with the configured tokenizer
