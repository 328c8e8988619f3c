"""OpenAI Agents SDK: a RecMem-backed ``Session`` (conversation history) and a memory hook that puts what RecMem
recalls for the latest user message into the agent's instructions.

    from agents import Agent, RunConfig, Runner
    from recmem_client import AsyncRecMem
    from recmem_client.integrations.openai_agents import RecMemSession, recmem_memory

    mem = AsyncRecMem()
    result = await Runner.run(agent, "Where is my bike?", session=RecMemSession(mem, external_id="chat-42"),
                              run_config=RunConfig(call_model_input_filter=recmem_memory(mem)))

``pip install "recmem-client[openai-agents]"``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from agents.memory.session_settings import SessionSettings
from agents.run_config import CallModelData, ModelInputData

from recmem_client import models as m
from recmem_client.async_client import AsyncRecMem

MEMORY_HEADER = "Relevant long-term memory (from earlier conversations; may be incomplete):"


def _text(content: Any) -> str:
    """The text of an input or output message's content (a string or a list of text parts)."""
    if isinstance(content, str):
        return content
    parts = []
    for part in content or []:
        if isinstance(part, dict) and part.get("type") in ("input_text", "output_text", "text"):
            parts.append(str(part.get("text", "")))
    return "\n".join(p for p in parts if p)


def _role(item: Any) -> str | None:
    if not isinstance(item, dict):
        return None
    if item.get("type", "message") != "message":
        return None  # tool calls, tool outputs, reasoning: not conversation text
    return item.get("role")


class RecMemSession:
    """Conversation history in a RecMem session (implements the Agents SDK ``Session`` protocol).

    Each user message and the assistant's reply become one exchange, stored (masked, embedded, searchable) when the
    reply arrives; tool calls and reasoning items are not stored. ``get_items`` returns the stored exchanges as
    messages (as stored: personal data masked). RecMem keeps what was said: ``pop_item`` can take back only a user
    message not yet answered, and ``clear_session`` closes the RecMem session and starts a new one, deleting nothing.
    """

    session_settings: SessionSettings | None = None

    def __init__(self, client: AsyncRecMem, *, session_id: str | None = None, external_id: str = "",
                 module: str | None = None, session_settings: SessionSettings | None = None) -> None:
        self.client = client
        self._id = session_id
        self._external_id = external_id
        self._module = module
        self._pending: list[dict[str, Any]] = []  # user messages waiting for their answer
        self.session_settings = session_settings

    @property
    def session_id(self) -> str:
        return self._id or self._external_id or "recmem-pending"

    async def _ensure(self) -> str:
        if self._id is None:
            created = await self.client.sessions.create(external_id=self._external_id, module=self._module,
                                                        metadata={"source": "openai-agents"})
            self._id = str(created.id)
        return self._id

    async def get_items(self, limit: int | None = None) -> list[Any]:
        items: list[Any] = []
        if self._id is not None:
            async for e in self.client.exchanges.iter(session=self._id):
                if e.user:
                    items.append({"role": "user", "content": e.user})
                if e.assistant:
                    items.append({"role": "assistant", "content": e.assistant})
        items.extend(self._pending)
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        return items[-limit:] if limit else items

    async def add_items(self, items: list[Any]) -> None:
        exchanges: list[m.ExchangeIn] = []
        for item in items:
            role = _role(item)
            text = _text(item.get("content")) if role else ""
            if role == "user":
                self._pending.append({"role": "user", "content": text})
            elif role == "assistant" and (text or self._pending):
                user = "\n".join(p["content"] for p in self._pending)
                exchanges.append(m.ExchangeIn(user=user, assistant=text))
                self._pending = []
        if exchanges:
            await self.client.sessions.add_exchanges(await self._ensure(), exchanges)

    async def pop_item(self) -> Any | None:
        if self._pending:
            return self._pending.pop()
        raise NotImplementedError("RecMem keeps stored exchanges (they are audited); use clear_session() to start "
                                  "a new session instead")

    async def clear_session(self) -> None:
        if self._id is not None:
            await self.client.sessions.close(self._id)
        self._id, self._pending = None, []


def recmem_memory(client: AsyncRecMem, *, token_budget: int | None = None,
                  header: str = MEMORY_HEADER) -> Callable[[CallModelData[Any]], Awaitable[ModelInputData]]:
    """A ``RunConfig(call_model_input_filter=...)`` hook: before each model call, search RecMem with the latest
    user message and add the context block to the instructions (nothing is added when memory has nothing)."""

    async def hook(data: CallModelData[Any]) -> ModelInputData:
        query = next((_text(i.get("content")) for i in reversed(data.model_data.input) if _role(i) == "user"), "")
        if not query.strip():
            return data.model_data
        result = await client.search(query[:4000], token_budget=token_budget)
        if not result.context:
            return data.model_data
        instructions = data.model_data.instructions or ""
        memory = f"{header}\n{result.context}"
        return ModelInputData(input=data.model_data.input,
                              instructions=f"{instructions}\n\n{memory}" if instructions else memory)

    return hook
