"""End to end through the REST API: recurrence → one batch → episode + typed experiences with evidence; a one-off
stays raw and searchable; a preference change supersedes the old preference; a failed LLM reply loses nothing.

Run twice: with the LLM consolidator against the fake OpenAI-compatible server over HTTP (real `openai` client),
and with the extractive consolidator (no endpoint configured).
"""

from __future__ import annotations

import pytest

from governance.models import ConsolidationBatch, LLMCall
from memory.gateways.llm import clear_llm_cache
from memory.models import Candidate, Episode, Exchange, Experience
from memory.tests.factories import at, post_exchanges, post_session
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder
from testing.scenarios import CHATTER, MARATHON_WAVE_1, MARATHON_WAVE_2, ONE_OFF

pytestmark = pytest.mark.django_db


def _items(pairs, day0):
    return [{"user": u, "assistant": a, "occurred_at": at(days=day0 + i)} for i, (u, a) in enumerate(pairs)]


@pytest.fixture(params=["llm", "extractive"])
def consolidator(request, settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    if request.param == "extractive":
        clear_llm_cache()
        settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
        return {"kind": "extractive", "server": None}
    return {"kind": "llm", "server": request.getfixturevalue("fake_llm")}


def _ingest(client, holder, session_id, pairs, day0, capture):
    with capture(execute=True):
        return post_exchanges(client, holder, session_id, _items(pairs, day0))


def test_recurring_topic_consolidates_once(api_client, make_agent, consolidator,
                                           django_capture_on_commit_callbacks):
    holder = make_agent(roles=["writer", "reader", "operator"])
    s1 = post_session(api_client, holder)["id"]
    s2 = post_session(api_client, holder)["id"]
    s3 = post_session(api_client, holder)["id"]
    stored = []
    # marathon units spread over three sessions with unrelated chatter between them
    stored += _ingest(api_client, holder, s1, MARATHON_WAVE_1[:2], 0, django_capture_on_commit_callbacks)
    stored += _ingest(api_client, holder, s1, CHATTER[:1], 2, django_capture_on_commit_callbacks)
    stored += _ingest(api_client, holder, s2, MARATHON_WAVE_1[2:4], 3, django_capture_on_commit_callbacks)
    stored += _ingest(api_client, holder, s2, CHATTER[1:], 5, django_capture_on_commit_callbacks)
    one_off = _ingest(api_client, holder, s3, [ONE_OFF], 7, django_capture_on_commit_callbacks)[0]
    assert ConsolidationBatch.objects.count() == 0  # nothing ripe yet: zero LLM tokens so far
    last = _ingest(api_client, holder, s3, MARATHON_WAVE_1[4:], 8, django_capture_on_commit_callbacks)[0]
    assert last["candidate"] is True  # the response tells the writer its unit made the topic ripe
    # online mode: consolidated right after the commit (the queue runs synchronously in unit tests)
    assert Exchange.objects.get(pk=last["id"]).state == "consolidated"

    batches = list(ConsolidationBatch.objects.all())
    assert len(batches) == 1, [(b.status, b.error) for b in batches]
    batch = batches[0]
    assert batch.status == "succeeded", batch.error
    assert batch.consolidator == consolidator["kind"]
    marathon_ids = {e["id"] for e in stored if "marathon" in e["user"]} | {last["id"]}
    assert set(Exchange.objects.filter(state="consolidated").values_list("id", flat=True)) == \
        {__import__("uuid").UUID(i) for i in marathon_ids}
    chatter = Exchange.objects.exclude(pk__in=marathon_ids)
    assert all(e.state == "raw" for e in chatter)

    episode = Episode.objects.get()
    assert episode.batch_id == batch.pk and "marathon" in episode.narrative.lower()
    assert {str(i) for i in episode.sources.values_list("id", flat=True)} == marathon_ids
    experiences = list(Experience.objects.filter(status="active"))
    assert experiences and all(x.batch_id == batch.pk for x in experiences)
    assert {x.type for x in experiences} <= {"fact", "event", "preference", "constraint", "lesson", "pattern",
                                             "procedure"}
    for x in experiences:
        assert set(map(str, x.evidence.values_list("id", flat=True))) <= marathon_ids
    if consolidator["kind"] == "llm":
        calls = LLMCall.objects.filter(batch=batch)
        assert [c.purpose for c in calls] == ["topic_consolidate"]  # one call: episode and typed items
        assert batch.llm_call_count == calls.count() and batch.prompt_tokens > 0 and batch.completion_tokens > 0
        assert consolidator["server"].calls_by_path().get("/v1/chat/completions") == calls.count()
    else:
        assert batch.llm_call_count == 0 and batch.prompt_tokens == 0

    # the API shows the batch with what it wrote
    detail = api_client.get(f"/api/v1/consolidations/{batch.pk}", **holder.headers).json()
    assert detail["summary"]["episodes_created"] == [str(episode.pk)]
    assert set(detail["summary"]["exchanges"]) == marathon_ids

    # the one-off triggered nothing and is still found by search
    assert Exchange.objects.get(pk=one_off["id"]).state == "raw"
    result = api_client.post("/api/v1/search", {"query": "capital of Australia"}, format="json",
                             **holder.headers).json()
    assert result["exchanges"][0]["id"] == one_off["id"]
    marathon = api_client.post("/api/v1/search", {"query": "marathon training plan"}, format="json",
                               **holder.headers).json()
    assert marathon["episodes"][0]["id"] == str(episode.pk)
    assert set(marathon["episodes"][0]["provenance"]["exchange_ids"]) == marathon_ids
    assert marathon["experiences"] and "marathon" in marathon["context"].lower()

    # second wave: the preference changes; the new preference supersedes the old one
    old_pref = [x for x in experiences if x.type == "preference" and "morning" in x.statement.lower()]
    s4 = post_session(api_client, holder)["id"]
    _ingest(api_client, holder, s4, MARATHON_WAVE_2, 20, django_capture_on_commit_callbacks)
    assert ConsolidationBatch.objects.filter(status="succeeded").count() == 2
    assert Episode.objects.filter(status="active").count() >= 1
    if old_pref:
        old = Experience.objects.get(pk=old_pref[0].pk)
        assert old.status == "superseded", (old.statement, list(Experience.objects.values_list("statement",
                                                                                              "status")))
        assert old.superseded_by is not None and "evening" in old.superseded_by.statement.lower()
        found = api_client.post("/api/v1/search", {"query": "when do I prefer to run?", "types": ["preference"]},
                                format="json", **holder.headers).json()
        assert str(old.pk) not in {x["id"] for x in found["experiences"]}
    else:
        pytest.fail(f"no morning preference extracted: {[(x.type, x.statement) for x in experiences]}")


def test_failed_llm_reply_keeps_candidates_pending(api_client, make_agent, settings,
                                                    django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    clear_llm_cache()
    with FakeOpenAIServer() as server:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url=server.base_url)
        settings.RECMEM = settings.RECMEM.replace(llm__api_key="k")
        settings.RECMEM = settings.RECMEM.replace(llm__max_retries=0)
        settings.RECMEM = settings.RECMEM.replace(llm__timeout=10)
        server.script("this is not json", "still {not json")  # the reply and its one repair attempt
        holder = make_agent()
        session = post_session(api_client, holder)["id"]
        with django_capture_on_commit_callbacks(execute=True):
            stored = post_exchanges(api_client, holder, session, _items(MARATHON_WAVE_1, 0))
        batch = ConsolidationBatch.objects.get()
        assert batch.status == "failed" and "Invalid" in batch.error or "invalid" in batch.error.lower()
        assert batch.llm_call_count == 2 and LLMCall.objects.filter(batch=batch, ok=False).exists()
        candidate = Candidate.objects.get()
        assert candidate.status == "pending" and candidate.attempts == 1 and candidate.last_error
        assert Episode.objects.count() == 0 and Experience.objects.count() == 0
        assert Exchange.objects.filter(state="candidate").count() == len(stored)  # nothing lost
        from django_q.models import Schedule

        assert Schedule.objects.filter(name__startswith=f"retry:{batch.pk}").exists()  # bounded retry queued

        # the retry (here run at once) succeeds with a working endpoint and reuses the same batch
        server.responder = consolidation_responder
        from memory.services.recovery import batch_retry

        with django_capture_on_commit_callbacks(execute=True):  # queued for a worker (here: run in-process)
            batch_retry(batch=batch)
        retried = ConsolidationBatch.objects.get()
        assert retried.pk == batch.pk and retried.status == "succeeded" and retried.attempts == 2
        assert Exchange.objects.filter(state="consolidated").count() == len(stored)
        assert Candidate.objects.get().status == "done"
    clear_llm_cache()
