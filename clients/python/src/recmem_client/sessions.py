"""Sessions as context managers: created (or resumed) on enter, closed on exit."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from recmem_client import models as m

if TYPE_CHECKING:
    from recmem_client.async_client import AsyncRecMem
    from recmem_client.client import RecMem

# Exchanges per request: well under the server's default limit (RECMEM_MAX_BATCH_EXCHANGES=500), and small enough
# that one request's masking and embedding finish well within the client's timeout.
BATCH_SIZE = 100


def exchange_items(exchanges: Iterable[m.ExchangeIn | dict[str, Any] | tuple[str, str]]) -> list[m.ExchangeIn]:
    """``ExchangeIn`` objects from models, dicts (``{"user": ..., "assistant": ...}``) or ``(user, assistant)``."""
    items: list[m.ExchangeIn] = []
    for item in exchanges:
        if isinstance(item, m.ExchangeIn):
            items.append(item)
        elif isinstance(item, dict):
            items.append(m.ExchangeIn(**item))
        elif isinstance(item, tuple) and len(item) == 2:
            items.append(m.ExchangeIn(user=item[0], assistant=item[1]))
        else:
            raise TypeError(f"an exchange is an ExchangeIn, a dict or a (user, assistant) pair, not {item!r}")
    if not items:
        raise ValueError("no exchanges given")
    return items


def _one(user: str, assistant: str, occurred_at: datetime | None, metadata: dict[str, Any] | None) -> m.ExchangeIn:
    values: dict[str, Any] = {"user": user, "assistant": assistant}
    if occurred_at is not None:
        values["occurred_at"] = occurred_at
    if metadata is not None:
        values["metadata"] = metadata
    return m.ExchangeIn(**values)


class _HandleBase:
    def __init__(self, *, external_id: str, module: str | None, metadata: dict[str, Any] | None,
                 started_at: datetime | None, session_id: str | uuid.UUID | None, close: bool) -> None:
        self._create = {"external_id": external_id, "module": module, "metadata": metadata, "started_at": started_at}
        self._session_id = session_id
        self._close_on_exit = close
        self.info: m.Session | None = None

    @property
    def id(self) -> uuid.UUID:
        if self.info is None:
            raise RuntimeError("the session is opened on entering the `with` block")
        return self.info.id


class SessionHandle(_HandleBase):
    """``with client.session(external_id="chat-1") as s: s.add("question", "answer")``"""

    def __init__(self, client: RecMem, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._client = client

    def open(self) -> SessionHandle:
        if self.info is None:
            self.info = (self._client.sessions.get(self._session_id) if self._session_id is not None
                         else self._client.sessions.create(**self._create))
        return self

    def add(self, user: str = "", assistant: str = "", *, occurred_at: datetime | None = None,
            metadata: dict[str, Any] | None = None, idempotency_key: str | None = None) -> m.Exchange:
        """Store one exchange; returns it as stored (masked), with its turn index and candidate state."""
        return self._client.sessions.add_exchanges(self.id, [_one(user, assistant, occurred_at, metadata)],
                                                   idempotency_key=idempotency_key)[0]

    def add_many(self, exchanges: Iterable[m.ExchangeIn | dict[str, Any] | tuple[str, str]]) -> list[m.Exchange]:
        return self._client.sessions.add_exchanges(self.id, exchanges)

    def exchanges(self, page_size: int = 100) -> Iterator[m.Exchange]:
        """This session's exchanges as stored, newest first."""
        return self._client.exchanges.iter(session=self.id, page_size=page_size)

    def close(self) -> m.Session:
        self.info = self._client.sessions.close(self.id)
        return self.info

    def __enter__(self) -> SessionHandle:
        return self.open()

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self._close_on_exit and self.info is not None:
            try:
                self.close()
            except Exception:
                if exc_type is None:
                    raise  # an error while closing must not hide the one that ended the block


class AsyncSessionHandle(_HandleBase):
    """``async with client.session(external_id="chat-1") as s: await s.add("question", "answer")``"""

    def __init__(self, client: AsyncRecMem, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._client = client

    async def open(self) -> AsyncSessionHandle:
        if self.info is None:
            self.info = (await self._client.sessions.get(self._session_id) if self._session_id is not None
                         else await self._client.sessions.create(**self._create))
        return self

    async def add(self, user: str = "", assistant: str = "", *, occurred_at: datetime | None = None,
                  metadata: dict[str, Any] | None = None, idempotency_key: str | None = None) -> m.Exchange:
        return (await self._client.sessions.add_exchanges(self.id, [_one(user, assistant, occurred_at, metadata)],
                                                          idempotency_key=idempotency_key))[0]

    async def add_many(self, exchanges: Iterable[m.ExchangeIn | dict[str, Any] | tuple[str, str]]
                       ) -> list[m.Exchange]:
        return await self._client.sessions.add_exchanges(self.id, exchanges)

    def exchanges(self, page_size: int = 100) -> AsyncIterator[m.Exchange]:
        return self._client.exchanges.iter(session=self.id, page_size=page_size)

    async def close(self) -> m.Session:
        self.info = await self._client.sessions.close(self.id)
        return self.info

    async def __aenter__(self) -> AsyncSessionHandle:
        return await self.open()

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self._close_on_exit and self.info is not None:
            try:
                await self.close()
            except Exception:
                if exc_type is None:
                    raise
