"""What consolidation writes is masked again before it is embedded or stored: a consolidator can decode what the
gateway stored encoded, or copy a value out of a placeholder's context."""

from __future__ import annotations

import re

import pytest

from governance.models import ConsolidationBatch
from memory.models import Episode, Experience
from memory.tests.factories import at, post_exchanges, post_session

pytestmark = pytest.mark.django_db

PHONE = "+1 415 555 0134"
EMAIL = "dana.whitlock@example.org"
_PLACEHOLDER_RE = re.compile(r"<[A-Z][A-Z0-9_]*_[0-9a-f]{6}>")


def _clear(text: str) -> str:
    """The text outside its placeholders: a placeholder's random hex may spell "0134" (it did, once, in CI)."""
    return _PLACEHOLDER_RE.sub("", text)


def test_consolidation_output_is_masked_before_storing(api_client, make_agent, settings, fake_llm,
                                                       django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")
    alice = make_agent(name="alice", roles=["writer", "reader", "operator"])
    session = post_session(api_client, alice)["id"]
    stored = post_exchanges(api_client, alice, session, [
        {"user": "From now on we must page the on-call lead at +1\u00a0415\u00a0555\u00a00134 before any deploy.",
         "assistant": "Understood: page the on-call lead before every deploy.", "occurred_at": at(days=1)}])
    assert "0134" not in _clear(stored[0]["user"])
    # The consolidator (a scripted reply, as a decoding LLM or a rewriter would produce) writes the plain forms.
    fake_llm.script({
        "same_situation": False,
        "episodes": [{"title": f"Paging {EMAIL}", "narrative": f"The lead is reached at {PHONE} or {EMAIL}.",
                      "unit_ids": [stored[0]["id"]]}],
        "items": [{"type": "constraint", "subject": f"on-call {EMAIL}", "confidence": 0.9,
                   "evidence": [stored[0]["id"]], "statement": f"Page the on-call lead at {PHONE} before a deploy.",
                   "contradicts": []}]})
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/v1/consolidations/run", **alice.headers)
    assert response.status_code == 202
    batch = ConsolidationBatch.objects.get(agent=alice.agent)
    assert batch.status == "succeeded", batch.error
    texts = [t for e in Episode.objects.all() for t in (e.title, e.narrative)]
    texts += [t for e in Experience.objects.all() for t in (e.subject, e.statement)]
    assert Experience.objects.exists()
    for text in texts:
        assert "0134" not in _clear(text) and "whitlock" not in _clear(text).lower(), text
    assert any("<PHONE_NUMBER_" in t for t in texts)
