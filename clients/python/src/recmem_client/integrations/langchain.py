"""LangChain / LangGraph: a retriever that reads RecMem and a chat history that writes to it.

    from recmem_client import RecMem
    from recmem_client.integrations.langchain import RecMemChatMessageHistory, RecMemRetriever

    mem = RecMem()
    retriever = RecMemRetriever(client=mem, token_budget=800)      # .invoke(query) -> Documents
    history = RecMemChatMessageHistory(mem, external_id="chat-42")  # .add_messages([...]) stores exchanges

``pip install "recmem-client[langchain]"``. Both also take an :class:`~recmem_client.AsyncRecMem` for ``ainvoke``
and ``aadd_messages``. In a LangGraph graph, call the retriever in the node before the model and the history in the
node after it (see ``examples/langgraph_agent.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from recmem_client import models as m
from recmem_client.async_client import AsyncRecMem
from recmem_client.client import RecMem


def documents(result: m.SearchResult, *, include_context: bool = False) -> list[Document]:
    """The hits as Documents, best score first (metadata: layer, id, score, similarity, scope, …); with
    ``include_context`` the context block comes first as its own Document (layer ``context``)."""
    docs = [Document(page_content=result.context, metadata={"layer": "context", "tokens": result.context_tokens})
            ] if include_context and result.context else []
    for hit in result.hits:
        meta: dict[str, Any] = {"id": str(hit.id), "score": hit.score, "similarity": hit.similarity,
                                "scope": hit.scope}
        if isinstance(hit, m.ExperienceHit):
            content = hit.statement
            meta.update(layer="experience", type=hit.type, subject=hit.subject, confidence=hit.confidence)
        elif isinstance(hit, m.EpisodeHit):
            content = f"{hit.title}\n{hit.narrative}"
            meta.update(layer="episode", started_at=_iso(hit.started_at), ended_at=_iso(hit.ended_at))
        else:
            content = f"user: {hit.user}\nassistant: {hit.assistant}"
            meta.update(layer="exchange", session=str(hit.session), turn_index=hit.turn_index,
                        occurred_at=_iso(hit.occurred_at))
        docs.append(Document(page_content=content, metadata=meta, id=str(hit.id)))
    return docs


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


class RecMemRetriever(BaseRetriever):
    """Search RecMem: experiences, episodes and exchanges the agent may see, as Documents."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: RecMem | None = None
    async_client: AsyncRecMem | None = None
    k_sub: int | None = None
    k_epi: int | None = None
    k_sem: int | None = None
    token_budget: int | None = None
    types: list[str] | None = None
    include_context: bool = False

    def _search_args(self) -> dict[str, Any]:
        return {"k_sub": self.k_sub, "k_epi": self.k_epi, "k_sem": self.k_sem, "token_budget": self.token_budget,
                "types": self.types}

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self.client is None:
            raise ValueError("RecMemRetriever needs client=RecMem(...) for invoke (async_client for ainvoke)")
        return documents(self.client.search(query, **self._search_args()), include_context=self.include_context)

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun) -> list[Document]:
        if self.async_client is None:
            return await super()._aget_relevant_documents(query, run_manager=run_manager)  # sync in a thread
        result = await self.async_client.search(query, **self._search_args())
        return documents(result, include_context=self.include_context)


class RecMemChatMessageHistory(BaseChatMessageHistory):
    """A RecMem session as LangChain chat history.

    A human message followed by an AI message becomes one exchange (masked, embedded, searchable at once). System
    and tool messages are not conversation memory and are not stored. ``messages`` reads the session back as
    stored (personal data masked). ``clear()`` closes the session and starts a new one on the next message: RecMem
    keeps what was said (it is audited and may be consolidated), so clearing never deletes.
    """

    def __init__(self, client: RecMem | AsyncRecMem, *, session_id: str | None = None, external_id: str = "",
                 module: str | None = None) -> None:
        self.client = client
        self.session_id = session_id
        self._create = {"external_id": external_id, "module": module}
        self._pending: str | None = None  # a human message waiting for its answer

    # -- sync --------------------------------------------------------------------------------------------------------

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        client = self._sync()
        stored = list(client.exchanges.iter(session=self.session_id)) if self.session_id else []
        return _as_messages(stored, self._pending)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        exchanges = self._pair(messages)
        if exchanges:
            client = self._sync()
            if self.session_id is None:
                self.session_id = str(client.sessions.create(**_given(self._create)).id)
            client.sessions.add_exchanges(self.session_id, exchanges)

    def clear(self) -> None:
        if self.session_id is not None:
            self._sync().sessions.close(self.session_id)
        self.session_id, self._pending = None, None

    # -- async -------------------------------------------------------------------------------------------------------

    async def aget_messages(self) -> list[BaseMessage]:
        if not isinstance(self.client, AsyncRecMem):
            return await super().aget_messages()
        stored = [e async for e in self.client.exchanges.iter(session=self.session_id)] if self.session_id else []
        return _as_messages(stored, self._pending)

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        if not isinstance(self.client, AsyncRecMem):
            return await super().aadd_messages(messages)
        exchanges = self._pair(messages)
        if exchanges:
            if self.session_id is None:
                self.session_id = str((await self.client.sessions.create(**_given(self._create))).id)
            await self.client.sessions.add_exchanges(self.session_id, exchanges)

    async def aclear(self) -> None:
        if not isinstance(self.client, AsyncRecMem):
            return await super().aclear()
        if self.session_id is not None:
            await self.client.sessions.close(self.session_id)
        self.session_id, self._pending = None, None

    # -- helpers -----------------------------------------------------------------------------------------------------

    def _sync(self) -> RecMem:
        if not isinstance(self.client, RecMem):
            raise TypeError("this history holds an AsyncRecMem: use aget_messages / aadd_messages / aclear")
        return self.client

    def _pair(self, messages: Sequence[BaseMessage]) -> list[m.ExchangeIn]:
        exchanges: list[m.ExchangeIn] = []
        for message in messages:
            text = str(message.text)  # the text parts of the content
            if isinstance(message, HumanMessage):
                if self._pending is not None:  # two questions in a row: the first stays unanswered
                    exchanges.append(m.ExchangeIn(user=self._pending))
                self._pending = text
            elif isinstance(message, AIMessage) and (text or self._pending):
                exchanges.append(m.ExchangeIn(user=self._pending or "", assistant=text))
                self._pending = None
        return exchanges


def _given(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v}


def _as_messages(stored: list[m.Exchange], pending: str | None) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for e in stored:
        if e.user:
            out.append(HumanMessage(e.user, id=f"{e.id}-user"))
        if e.assistant:
            out.append(AIMessage(e.assistant, id=f"{e.id}-assistant"))
    if pending is not None:
        out.append(HumanMessage(pending))
    return out
