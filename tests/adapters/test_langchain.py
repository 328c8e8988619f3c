"""The LangChain adapters with the real langchain-core against the live server: the retriever reads RecMem, the chat
history writes to it."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from recmem_client import AsyncRecMem, RecMem
from recmem_client.integrations.langchain import RecMemChatMessageHistory, RecMemRetriever

from ..clients.conftest import consolidate_marathon

pytestmark = pytest.mark.integration


@pytest.fixture
def mem(recmem_server, recmem_agent):
    with RecMem(recmem_server.url, api_key=recmem_agent.key, timeout=120) as client:
        yield client


def test_retriever_returns_every_layer_as_documents(mem):
    consolidate_marathon(mem)
    docs = RecMemRetriever(client=mem, include_context=True).invoke("how long is my Sunday long run?")
    assert all(isinstance(d, Document) for d in docs)
    assert docs[0].metadata["layer"] == "context" and "long run" in docs[0].page_content
    layers = {d.metadata["layer"] for d in docs[1:]}
    assert layers == {"exchange", "episode", "experience"}
    scores = [d.metadata["score"] for d in docs[1:]]
    assert scores == sorted(scores, reverse=True)
    exchange = next(d for d in docs if d.metadata["layer"] == "exchange")
    assert exchange.page_content.startswith("user: ") and exchange.metadata["session"]
    experience = next(d for d in docs if d.metadata["layer"] == "experience")
    assert experience.metadata["type"] and experience.id == experience.metadata["id"]


def test_retriever_options_reach_the_search(mem):
    with mem.session() as s:
        s.add_many([(f"note {i} about the garden shed", "ok") for i in range(6)])
    docs = RecMemRetriever(client=mem, k_sub=2, k_epi=0, k_sem=0).invoke("garden shed")
    assert [d.metadata["layer"] for d in docs] == ["exchange", "exchange"]


@pytest.mark.anyio
async def test_retriever_async(recmem_server, recmem_agent, mem):
    with mem.session() as s:
        s.add("The spare key is under the flower pot", "Got it.")
    async with AsyncRecMem(recmem_server.url, api_key=recmem_agent.key) as amem:
        docs = await RecMemRetriever(async_client=amem).ainvoke("where is the spare key?")
    assert "flower pot" in docs[0].page_content


def test_chat_history_pairs_messages_into_exchanges(mem):
    history = RecMemChatMessageHistory(mem, external_id="lc-1")
    assert history.messages == [] and history.session_id is None
    history.add_messages([SystemMessage("be brief"), HumanMessage("My favourite colour is teal"),
                          AIMessage("Teal it is.")])
    history.add_user_message("I also like mustard yellow")
    assert [type(m).__name__ for m in history.messages] == ["HumanMessage", "AIMessage", "HumanMessage"]
    history.add_ai_message("Noted: mustard yellow too.")
    stored = list(mem.exchanges.iter(session=history.session_id))
    assert [(e.user, e.assistant) for e in stored] == [("My favourite colour is teal", "Teal it is."),
                                                       ("I also like mustard yellow", "Noted: mustard yellow too.")]
    assert mem.sessions.get(history.session_id).external_id == "lc-1"
    assert "teal" in mem.search("what is my favourite colour?").context  # searchable at once


def test_chat_history_keeps_an_unanswered_question(mem):
    history = RecMemChatMessageHistory(mem)
    history.add_messages([HumanMessage("first?"), HumanMessage("second?"), AIMessage("answer to second")])
    stored = [(e.user, e.assistant) for e in mem.exchanges.iter(session=history.session_id)]
    assert stored == [("first?", ""), ("second?", "answer to second")]


def test_clear_closes_the_session_and_starts_a_new_one(mem):
    history = RecMemChatMessageHistory(mem)
    history.add_messages([HumanMessage("q1"), AIMessage("a1")])
    first = history.session_id
    history.clear()
    assert history.messages == []
    assert mem.sessions.get(first).status == "closed"
    assert [e.user for e in mem.exchanges.iter(session=first)] == ["q1"]  # nothing deleted
    history.add_messages([HumanMessage("q2"), AIMessage("a2")])
    assert history.session_id != first


@pytest.mark.anyio
async def test_chat_history_async(recmem_server, recmem_agent):
    async with AsyncRecMem(recmem_server.url, api_key=recmem_agent.key) as amem:
        history = RecMemChatMessageHistory(amem)
        await history.aadd_messages([HumanMessage("async q"), AIMessage("async a")])
        assert [m.content for m in await history.aget_messages()] == ["async q", "async a"]
        await history.aclear()
        assert history.session_id is None
