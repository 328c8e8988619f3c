"""The asynchronous client: the same resources and methods as :class:`recmem_client.RecMem`, awaited.

    async with AsyncRecMem("http://localhost:8000", api_key="rmk_...") as mem:
        async with mem.session(external_id="chat-1") as s:
            await s.add("I am training for the Berlin marathon", "Great, let us plan it.")
        print((await mem.search("what race am I training for?")).context)
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterable
from datetime import date, datetime
from typing import Any

import httpx

from recmem_client import models as m
from recmem_client._base import Attempts, BaseClient, RetryPolicy, list_query
from recmem_client._base import given as _given
from recmem_client._operations import OPERATIONS, Operation, delete_reason, query_params
from recmem_client.errors import error_from_response
from recmem_client.sessions import BATCH_SIZE, AsyncSessionHandle, exchange_items

Id = str | uuid.UUID


class AsyncRecMem(BaseClient):
    """The asyncio twin of :class:`recmem_client.RecMem` (same arguments, same retries and timeouts)."""

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float | httpx.Timeout | None = None, max_retries: int | None = None,
                 retry: RetryPolicy | None = None, headers: dict[str, str] | None = None,
                 http_client: httpx.AsyncClient | None = None) -> None:
        super().__init__(base_url, api_key, timeout=timeout, max_retries=max_retries, retry=retry, headers=headers)
        self._own_http = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=self.timeout)
        self.sessions = AsyncSessions(self)
        self.exchanges = AsyncExchanges(self)
        self.episodes = AsyncEpisodes(self)
        self.experiences = AsyncExperiences(self)
        self.consolidations = AsyncConsolidations(self)

    # -- plumbing -------------------------------------------------------------------------------------------------

    async def _call(self, op: Operation, *, path: dict[str, Any] | None = None,
                    query: dict[str, Any] | None = None, body: m.Request | None = None,
                    idempotency_key: str | None = None) -> Any:
        p = self._prepare(op, path=path, query=query_params(op, query or {}), body=body,
                          idempotency_key=idempotency_key)
        request = self._http.build_request(p.method, p.url, params=p.params, json=p.json,
                                           headers={**self._headers, **p.headers}, timeout=self.timeout)
        attempts = Attempts(self, op, request)
        while True:
            try:
                response = await self._http.send(request)
            except httpx.TransportError as exc:
                await asyncio.sleep(attempts.after_error(exc))  # raises when no attempt is left
                continue
            delay = attempts.after_response(response)
            if delay is None:
                return attempts.result(response)
            await response.aclose()
            await asyncio.sleep(delay)

    async def _iterate(self, op: Operation, filters: dict[str, Any], page_size: int) -> AsyncIterator[Any]:
        seen: set[Any] = set()
        offset = 0
        while True:
            page: m.Page[Any] = await self._call(op, query=list_query(filters, limit=page_size, offset=offset))
            for item in page.results:
                if item.id not in seen:
                    seen.add(item.id)
                    yield item
            offset += len(page.results)
            if not page.results or page.next is None or offset >= page.count:
                return

    async def close(self) -> None:
        if self._own_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncRecMem:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the calling agent, search, health ---------------------------------------------------------------------------

    async def me(self) -> m.AgentMe:
        return await self._call(OPERATIONS["agents_me"])

    async def search(self, query: str, *, k_sub: int | None = None, k_epi: int | None = None,
                     k_sem: int | None = None, token_budget: int | None = None,
                     types: list[m.ExperienceType] | None = None, tags: list[str] | None = None,
                     since: datetime | None = None, until: datetime | None = None,
                     session: Id | None = None, as_of: datetime | None = None,
               entity: str | None = None) -> m.SearchResult:
        body = m.SearchRequest(query=query, **_given(k_sub=k_sub, k_epi=k_epi, k_sem=k_sem, token_budget=token_budget,
                                                     types=types, tags=tags, since=since, until=until,
                                                     session=session, as_of=as_of, entity=entity))
        return await self._call(OPERATIONS["search"], body=body)

    async def feedback(self, search_id: Id, used_ids: list[Id], *, helpful: bool | None = None,
                       idempotency_key: str | None = None) -> m.Feedback:
        body = m.FeedbackRequest(search_id=search_id, used_ids=used_ids, **_given(helpful=helpful))
        return await self._call(OPERATIONS["feedback_create"], body=body, idempotency_key=idempotency_key)

    async def metrics(self, *, scope: m.MetricScope | None = None, since: date | None = None,
                      until: date | None = None) -> list[m.MetricDay]:
        return (await self._call(OPERATIONS["metrics_list"], query=_given(scope=scope, since=since,
                                                                           until=until))).results

    async def entities(self, *, kind: m.EntityKind | None = None, limit: int | None = None,
                       offset: int | None = None) -> m.Page[m.Entity]:
        """See :meth:`recmem_client.client.RecMem.entities`."""
        return await self._call(OPERATIONS["entities_list"], query=list_query({"kind": kind}, limit=limit,
                                                                                offset=offset))

    async def forget(self, *, reason: str, session_ids: list[Id] | None = None, agent: str | None = None,
                     subject: str | None = None, idempotency_key: str | None = None) -> m.ForgetResult:
        """See :meth:`RecMem.forget`."""
        body = m.ForgetRequest(reason=reason, **_given(session_ids=session_ids, agent=agent, subject=subject))
        return await self._call(OPERATIONS["forget"], body=body, idempotency_key=idempotency_key)

    async def export(self) -> AsyncIterator[dict[str, Any]]:
        """See :meth:`RecMem.export`."""
        import json

        op = OPERATIONS["export_retrieve"]
        async with self._http.stream("GET", self.base_url + op.url(), headers=self._headers,
                                     timeout=self.timeout) as r:
            if r.status_code >= 400:
                await r.aread()
                raise error_from_response(r)
            async for line in r.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    def iter_entities(self, *, kind: m.EntityKind | None = None, page_size: int = 100) -> AsyncIterator[m.Entity]:
        return self._iterate(OPERATIONS["entities_list"], {"kind": kind}, page_size)

    def session(self, external_id: str = "", *, module: str | None = None, metadata: dict[str, Any] | None = None,
                started_at: datetime | None = None, session_id: Id | None = None,
                close: bool = True) -> AsyncSessionHandle:
        return AsyncSessionHandle(self, external_id=external_id, module=module, metadata=metadata,
                                  started_at=started_at, session_id=session_id, close=close)

    async def health(self) -> dict[str, Any]:
        response = await self._http.get(self.base_url + "/healthz", timeout=self.timeout)
        if response.status_code >= 400:
            raise error_from_response(response)
        return response.json()


class _AsyncResource:
    def __init__(self, client: AsyncRecMem) -> None:
        self._client = client


class AsyncSessions(_AsyncResource):
    async def create(self, external_id: str = "", *, module: str | None = None,
                     metadata: dict[str, Any] | None = None, started_at: datetime | None = None,
                     idempotency_key: str | None = None) -> m.Session:
        body = m.SessionCreate(external_id=external_id,
                               **_given(module=module, metadata=metadata, started_at=started_at))
        return await self._client._call(OPERATIONS["sessions_create"], body=body, idempotency_key=idempotency_key)

    async def get(self, session_id: Id) -> m.Session:
        return await self._client._call(OPERATIONS["sessions_retrieve"], path={"session_id": session_id})

    async def close(self, session_id: Id) -> m.Session:
        return await self._client._call(OPERATIONS["sessions_close"], path={"session_id": session_id})

    async def forget(self, session_id: Id, *, reason: str | None = None,
                     idempotency_key: str | None = None) -> m.ForgetResult | None:
        """See :meth:`Sessions.forget`."""
        body = m.ForgetReason(reason=reason) if reason else None
        return await self._client._call(OPERATIONS["sessions_forget"], path={"session_id": session_id}, body=body,
                                        idempotency_key=idempotency_key)

    async def add_exchanges(self, session_id: Id,
                            exchanges: Iterable[m.ExchangeIn | dict[str, Any] | tuple[str, str]], *,
                            idempotency_key: str | None = None) -> list[m.Exchange]:
        items = exchange_items(exchanges)
        if idempotency_key is not None and len(items) > BATCH_SIZE:
            raise ValueError(f"idempotency_key names one request: at most {BATCH_SIZE} exchanges")
        stored: list[m.Exchange] = []
        for start in range(0, len(items), BATCH_SIZE):
            created: m.ExchangesCreated = await self._client._call(
                OPERATIONS["sessions_exchanges_create"], path={"session_id": session_id},
                body=m.ExchangesIn(exchanges=items[start:start + BATCH_SIZE]), idempotency_key=idempotency_key)
            stored.extend(created.exchanges)
        return stored

    async def list(self, *, status: str | None = None, scope: m.ScopeName | None = None,
                   since: datetime | None = None, until: datetime | None = None, limit: int | None = None,
                   offset: int | None = None) -> m.Page[m.Session]:
        return await self._client._call(OPERATIONS["sessions_list"], query=list_query(
            {"status": status, "scope": scope, "since": since, "until": until}, limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, scope: m.ScopeName | None = None, since: datetime | None = None,
             until: datetime | None = None, page_size: int = 100) -> AsyncIterator[m.Session]:
        return self._client._iterate(OPERATIONS["sessions_list"],
                                     {"status": status, "scope": scope, "since": since, "until": until}, page_size)


class AsyncExchanges(_AsyncResource):
    async def get(self, exchange_id: Id) -> m.Exchange:
        return await self._client._call(OPERATIONS["exchanges_retrieve"], path={"exchange_id": exchange_id})

    async def list(self, *, session: Id | None = None, state: str | None = None,
                   scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
                   as_of: datetime | None = None, entity: str | None = None,
                   limit: int | None = None, offset: int | None = None) -> m.Page[m.Exchange]:
        return await self._client._call(OPERATIONS["exchanges_list"], query=list_query(
            {"session": session, "state": state, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, session: Id | None = None, state: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> AsyncIterator[m.Exchange]:
        return self._client._iterate(OPERATIONS["exchanges_list"], {
            "session": session, "state": state, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            page_size)


class AsyncEpisodes(_AsyncResource):
    async def get(self, episode_id: Id) -> m.Episode:
        return await self._client._call(OPERATIONS["episodes_retrieve"], path={"episode_id": episode_id})

    async def list(self, *, status: str | None = None, scope: m.ScopeName | None = None,
                   since: datetime | None = None, until: datetime | None = None, as_of: datetime | None = None,
                   entity: str | None = None, limit: int | None = None,
                   offset: int | None = None) -> m.Page[m.Episode]:
        return await self._client._call(OPERATIONS["episodes_list"], query=list_query(
            {"status": status, "scope": scope, "since": since, "until": until, "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, scope: m.ScopeName | None = None, since: datetime | None = None,
             until: datetime | None = None, as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> AsyncIterator[m.Episode]:
        return self._client._iterate(OPERATIONS["episodes_list"], {
            "status": status, "scope": scope, "since": since, "until": until, "as_of": as_of, "entity": entity},
            page_size)


class AsyncExperiences(_AsyncResource):
    async def get(self, experience_id: Id) -> m.Experience:
        return await self._client._call(OPERATIONS["experiences_retrieve"], path={"experience_id": experience_id})

    async def list(self, *, type: m.ExperienceType | None = None, tag: str | None = None,
                   status: str | None = None,
                   scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
                   as_of: datetime | None = None, entity: str | None = None,
                   limit: int | None = None, offset: int | None = None) -> m.Page[m.Experience]:
        return await self._client._call(OPERATIONS["experiences_list"], query=list_query(
            {"type": type, "tag": tag, "status": status, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, type: m.ExperienceType | None = None, tag: str | None = None, status: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> AsyncIterator[m.Experience]:
        return self._client._iterate(OPERATIONS["experiences_list"], {
            "type": type, "tag": tag, "status": status, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity}, page_size)

    async def update(self, experience_id: Id, *, statement: str | None = None, subject: str | None = None,
                     confidence: float | None = None, reason: str = "",
                     idempotency_key: str | None = None) -> m.Experience | m.EditProposal:
        """See :meth:`recmem_client.client.Experiences.update`."""
        body = m.ExperienceUpdate(**_given(statement=statement, subject=subject, confidence=confidence),
                                  **({"reason": reason} if reason else {}))
        return await self._client._call(OPERATIONS["experiences_update"], path={"experience_id": experience_id},
                                        body=body, idempotency_key=idempotency_key)

    async def delete(self, experience_id: Id, *, reason: str = "",
                     idempotency_key: str | None = None) -> m.EditProposal | None:
        return await self._client._call(OPERATIONS["experiences_delete"], path={"experience_id": experience_id},
                                 idempotency_key=idempotency_key, **delete_reason(reason))


class AsyncConsolidations(_AsyncResource):
    async def get(self, batch_id: Id) -> m.BatchDetail:
        return await self._client._call(OPERATIONS["consolidations_retrieve"], path={"batch_id": batch_id})

    async def list(self, *, status: str | None = None, limit: int | None = None,
                   offset: int | None = None) -> m.Page[m.Batch]:
        return await self._client._call(OPERATIONS["consolidations_list"],
                                        query=list_query({"status": status}, limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, page_size: int = 100) -> AsyncIterator[m.Batch]:
        return self._client._iterate(OPERATIONS["consolidations_list"], {"status": status}, page_size)

    async def request(self, *, idempotency_key: str | None = None) -> m.ConsolidationQueued:
        return await self._client._call(OPERATIONS["consolidations_request"], idempotency_key=idempotency_key)
