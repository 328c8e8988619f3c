"""OpenTelemetry behind RECMEM_TRACING: one trace per ingest request (Django → ingest → mask → embed → store →
trigger, with the SQL), one per consolidation batch (plan → LLM calls with their HTTP requests → write), recorded
with an in-memory exporter. Off by default: nothing is instrumented and RecMem's spans cost a flag check."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from core import tracing
from memory.models import Candidate
from memory.services.consolidation import consolidation_run
from memory.tests.factories import at, post_exchanges, post_session
from recmem_site import tracing as site_tracing
from testing.scenarios import MARATHON

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def spans():
    exporter = InMemorySpanExporter()
    assert site_tracing.setup(role="test", exporter=exporter)
    try:
        yield exporter
    finally:
        site_tracing.teardown()


def _by_name(finished) -> dict[str, list]:
    found = defaultdict(list)
    for span in finished:
        found[span.name].append(span)
    return found


def _parent(span, finished):
    return next((s for s in finished if span.parent and s.context.span_id == span.parent.span_id), None)


def test_tracing_is_off_by_default(settings):
    assert settings.RECMEM.tracing.mode == "off"
    assert site_tracing.setup(role="test") is False
    assert not tracing.enabled()
    assert not any("opentelemetry" in m for m in settings.MIDDLEWARE)


def test_an_ingest_request_is_one_trace(transactional_db, spans, api_client, make_agent):
    from django.db import connections

    connections.close_all()  # as in a fresh web worker: connections opened after setup carry the SQL spans
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    spans.clear()
    post_exchanges(api_client, holder, session, [{"user": "Mail me at ann@example.org", "assistant": "Sure."}])
    finished = spans.get_finished_spans()
    names = _by_name(finished)
    [server] = [s for s in finished if s.kind == SpanKind.SERVER]
    assert "exchanges" in server.name and server.attributes.get("http.response.status_code",
                                                                 server.attributes.get("http.status_code")) == 201
    assert len({s.context.trace_id for s in finished}) == 1, "one request, one trace"
    [ingest] = names["recmem.ingest"]
    assert _parent(ingest, finished) is server and ingest.attributes["recmem.exchanges"] == 1
    [store] = names["recmem.store"]
    [trigger] = names["recmem.trigger"]
    assert _parent(store, finished) is ingest and _parent(trigger, finished) is store
    assert names["recmem.mask"] and all(_parent(s, finished) is ingest for s in names["recmem.mask"])
    [embed] = names["recmem.embed"]
    assert _parent(embed, finished) is ingest
    # order of the steps: mask → embed → store (trigger inside store)
    assert max(s.end_time for s in names["recmem.mask"]) <= embed.start_time <= embed.end_time <= store.start_time
    sql = [s for s in finished if s.attributes.get("db.system") == "postgresql"
           or s.attributes.get("db.system.name") == "postgresql"]
    assert sql and any(_parent(s, finished) in (store, trigger) for s in sql)
    # masked text never reaches a span: the statement is not recorded with its values
    assert not any("ann@example.org" in str(s.attributes) for s in finished)


def test_a_consolidation_batch_is_one_trace_with_its_llm_calls(spans, api_client, make_agent, fake_llm,
                                                              settings, django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle")  # candidates wait; we run the batch
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    post_exchanges(api_client, holder, session,
                   [{"user": u, "assistant": a, "occurred_at": at(days=i)} for i, (u, a) in enumerate(MARATHON)])
    assert Candidate.objects.filter(agent=holder.agent, status=Candidate.Status.PENDING).exists()
    spans.clear()
    batch = consolidation_run(agent_id=holder.agent.pk)
    assert batch is not None and batch.status == "succeeded" and batch.llm_call_count >= 1
    finished = spans.get_finished_spans()
    names = _by_name(finished)
    [root] = names["recmem.consolidation"]
    assert root.parent is None and root.attributes["recmem.batch_id"] == str(batch.pk)
    assert len({s.context.trace_id for s in finished}) == 1, "one batch, one trace"
    assert names["recmem.consolidation.plan"] and names["recmem.consolidation.write"]
    llm = names["recmem.llm"]
    assert len(llm) == batch.llm_call_count
    assert all(_parent(s, finished).name == "recmem.consolidation.plan" for s in llm)
    http = [s for s in finished if s.kind == SpanKind.CLIENT and _parent(s, finished) in llm]
    assert len(http) >= len(llm)
    assert all(str(s.attributes.get("url.full", s.attributes.get("http.url", ""))).endswith("/chat/completions")
               for s in http)
    [write] = names["recmem.consolidation.write"]
    assert _parent(write, finished) is root and write.start_time >= max(s.end_time for s in llm)


def test_the_web_entry_point_instruments_django_when_tracing_is_on(tmp_path):
    env = {**os.environ, "RECMEM_TRACING": "console", "RECMEM_HOME": str(tmp_path),
           "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base"}
    code = ("import recmem_site.wsgi\nfrom django.conf import settings\nfrom core import tracing\n"
            "print(tracing.enabled(), any('opentelemetry' in m for m in settings.MIDDLEWARE))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["True", "True"]
