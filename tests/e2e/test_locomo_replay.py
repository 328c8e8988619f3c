"""Replay one LoCoMo dev conversation (conv-30, the shortest) through the REST API in online mode with the LLM
consolidator against the fake OpenAI-compatible server, then ask every category 1-4 question through /search.

Prints a report (exchanges, batches, LLM calls and tokens, evidence recall at 10/5/10) — summarised in the README.
Skipped only when the shared dataset is not present next to the repository.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from bench.locomo import (
    conversation_exchanges,
    covered_dia_ids,
    evidence_recall,
    load_locomo,
)
from core.config import config
from governance.models import ConsolidationBatch, LLMCall
from memory.gateways.llm import clear_llm_cache
from memory.models import Exchange
from testing.fake_openai import FakeOpenAIServer
from testing.fake_responder import consolidation_responder

DATA = config().datasets
LOCOMO = DATA / "locomo" / "locomo_dev.json"


@pytest.mark.skipif(not LOCOMO.exists(), reason=f"LoCoMo dev set not found at {LOCOMO}")
@pytest.mark.django_db
def test_replay_one_locomo_conversation_online(api_client, make_agent, settings,
                                               django_capture_on_commit_callbacks):
    conversation = next(c for c in load_locomo(LOCOMO) if c.sample_id == "conv-30")
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online")
    clear_llm_cache()
    started = time.perf_counter()
    with FakeOpenAIServer(responder=consolidation_responder) as server:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url=server.base_url, llm__api_key="k")
        settings.RECMEM = settings.RECMEM.replace(llm__model="fake-gpt")
        holder = make_agent(project="locomo", name=conversation.sample_id)
        dia_map: dict[str, tuple[str, ...]] = {}
        for session, pairs in conversation_exchanges(conversation):
            created = api_client.post("/api/v1/sessions", {"external_id": f"session_{session.number}",
                                                           "started_at": session.started_at.isoformat()},
                                      format="json", **holder.headers)
            assert created.status_code == 201
            items = [{"user": p.user, "assistant": p.assistant,
                      "occurred_at": session.started_at.isoformat(), "metadata": {"dia_ids": list(p.dia_ids)}}
                     for p in pairs]
            with django_capture_on_commit_callbacks(execute=True):
                response = api_client.post(f"/api/v1/sessions/{created.json()['id']}/exchanges",
                                           {"exchanges": items}, format="json", **holder.headers)
            assert response.status_code == 201, response.content
            for row, pair in zip(response.json()["exchanges"], pairs, strict=True):
                dia_map[row["id"]] = pair.dia_ids
            api_client.post(f"/api/v1/sessions/{created.json()['id']}/close", **holder.headers)
        ingest_seconds = time.perf_counter() - started

        rows = []
        for qa in conversation.qa:
            if qa.category not in (1, 2, 3, 4) or not qa.evidence:
                continue
            found = api_client.post("/api/v1/search", {"query": qa.question, "k_sub": 10, "k_epi": 5, "k_sem": 10},
                                    format="json", **holder.headers).json()
            covered = covered_dia_ids(
                exchange_ids=[e["id"] for e in found["exchanges"]],
                episode_source_ids=[i for ep in found["episodes"] for i in ep["provenance"]["exchange_ids"]],
                experience_evidence_ids=[i for x in found["experiences"] for i in x["provenance"]["exchange_ids"]],
                dia_map=dia_map)
            rows.append((qa.category, evidence_recall(qa.evidence, covered), found["context_tokens"]))
        requests = server.calls_by_path().get("/v1/chat/completions", 0)
    clear_llm_cache()

    batches = ConsolidationBatch.objects.all()
    calls = LLMCall.objects.all()
    exchanges = Exchange.objects.count()
    prompt_tokens = sum(c.prompt_tokens for c in calls)
    completion_tokens = sum(c.completion_tokens for c in calls)
    overall = sum(r[1] for r in rows) / len(rows)
    by_category = {c: round(sum(r[1] for r in rows if r[0] == c) / sum(1 for r in rows if r[0] == c), 3)
                   for c in (1, 2, 3, 4) if any(r[0] == c for r in rows)}
    print(f"\nLoCoMo {conversation.sample_id} via the API, online mode, fake LLM server:\n"
          f"  exchanges {exchanges} ({conversation.turn_count} turns), batches {batches.count()} "
          f"({batches.filter(status='succeeded').count()} succeeded), trigger rate "
          f"{100 * batches.count() / exchanges:.1f} per 100 exchanges\n"
          f"  LLM calls {calls.count()} ({100 * calls.count() / exchanges:.1f} per 100 exchanges), prompt tokens "
          f"{prompt_tokens}, completion tokens {completion_tokens}\n"
          f"  by purpose {dict(Counter(c.purpose for c in calls))}\n"
          f"  questions {len(rows)}, evidence recall@10/5/10 {overall:.3f}, by category {by_category}, "
          f"context tokens/query {sum(r[2] for r in rows) / len(rows):.0f}\n"
          f"  consolidated exchanges {Exchange.objects.filter(state='consolidated').count()}, "
          f"ingest {ingest_seconds:.1f}s, total {time.perf_counter() - started:.1f}s")

    assert exchanges == len(dia_map) and batches.exists()
    assert not batches.exclude(status="succeeded").exists()
    assert calls.count() == requests and prompt_tokens > 0 and completion_tokens > 0
    assert calls.count() < 2 * exchanges  # fewer calls than an eager baseline's two per exchange
    assert overall > 0.5, by_category
