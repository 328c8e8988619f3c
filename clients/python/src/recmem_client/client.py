"""The synchronous client.

    from recmem_client import RecMem

    mem = RecMem("http://localhost:8000", api_key="rmk_...")          # or RECMEM_URL / RECMEM_API_KEY
    with mem.session(external_id="chat-1") as s:
        s.add("I am training for the Berlin marathon", "Great, let us plan it.")
    print(mem.search("what race am I training for?").context)
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from typing import Any

import httpx

from recmem_client import models as m
from recmem_client._base import Attempts, BaseClient, RetryPolicy, list_query
from recmem_client._base import given as _given
from recmem_client._operations import OPERATIONS, Operation, delete_reason, query_params
from recmem_client.errors import error_from_response
from recmem_client.sessions import BATCH_SIZE, SessionHandle, exchange_items

Id = str | uuid.UUID


class RecMem(BaseClient):
    """A RecMem agent's client: one API key, one connection pool; thread-safe like ``httpx.Client``.

    ``timeout``: seconds (or an ``httpx.Timeout``) per attempt; ``max_retries``: attempts after the first on
    connection errors, timeouts, 429 and 502–504 (writes keep their Idempotency-Key across attempts).
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float | httpx.Timeout | None = None, max_retries: int | None = None,
                 retry: RetryPolicy | None = None, headers: dict[str, str] | None = None,
                 http_client: httpx.Client | None = None) -> None:
        super().__init__(base_url, api_key, timeout=timeout, max_retries=max_retries, retry=retry, headers=headers)
        self._own_http = http_client is None
        self._http = http_client or httpx.Client(timeout=self.timeout)
        self.sessions = Sessions(self)
        self.exchanges = Exchanges(self)
        self.episodes = Episodes(self)
        self.experiences = Experiences(self)
        self.consolidations = Consolidations(self)

    # -- plumbing -------------------------------------------------------------------------------------------------

    def _call(self, op: Operation, *, path: dict[str, Any] | None = None, query: dict[str, Any] | None = None,
              body: m.Request | None = None, idempotency_key: str | None = None) -> Any:
        p = self._prepare(op, path=path, query=query_params(op, query or {}), body=body,
                          idempotency_key=idempotency_key)
        request = self._http.build_request(p.method, p.url, params=p.params, json=p.json,
                                           headers={**self._headers, **p.headers}, timeout=self.timeout)
        attempts = Attempts(self, op, request)
        while True:
            try:
                response = self._http.send(request)
            except httpx.TransportError as exc:
                time.sleep(attempts.after_error(exc))  # raises when no attempt is left
                continue
            delay = attempts.after_response(response)
            if delay is None:
                return attempts.result(response)
            response.close()
            time.sleep(delay)

    def _iterate(self, op: Operation, filters: dict[str, Any], page_size: int) -> Iterator[Any]:
        seen: set[Any] = set()
        offset = 0
        while True:
            page: m.Page[Any] = self._call(op, query=list_query(filters, limit=page_size, offset=offset))
            for item in page.results:
                # Offset paging: rows added to the front of a newest-first list while we page push older ones onto
                # the next page again; skip what was already yielded.
                if item.id not in seen:
                    seen.add(item.id)
                    yield item
            offset += len(page.results)
            if not page.results or page.next is None or offset >= page.count:
                return

    def close(self) -> None:
        if self._own_http:
            self._http.close()

    def __enter__(self) -> RecMem:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the calling agent, search, health ---------------------------------------------------------------------------

    def me(self) -> m.AgentMe:
        """The calling agent: project, roles, modules, key prefix."""
        return self._call(OPERATIONS["agents_me"])

    def search(self, query: str, *, k_sub: int | None = None, k_epi: int | None = None, k_sem: int | None = None,
               token_budget: int | None = None, types: list[m.ExperienceType] | None = None,
               tags: list[str] | None = None, since: datetime | None = None, until: datetime | None = None,
               session: Id | None = None, as_of: datetime | None = None,
               entity: str | None = None) -> m.SearchResult:
        """Ranked hits of the three layers (exchanges, episodes, experiences) and the ``context`` block."""
        body = m.SearchRequest(query=query, **_given(k_sub=k_sub, k_epi=k_epi, k_sem=k_sem, token_budget=token_budget,
                                                     types=types, tags=tags, since=since, until=until,
                                                     session=session, as_of=as_of, entity=entity))
        return self._call(OPERATIONS["search"], body=body)

    def feedback(self, search_id: Id, used_ids: list[Id], *, helpful: bool | None = None,
                 idempotency_key: str | None = None) -> m.Feedback:
        """Which hits of search ``search_id`` the agent used (and whether they helped): the retrieval hit rate."""
        body = m.FeedbackRequest(search_id=search_id, used_ids=used_ids, **_given(helpful=helpful))
        return self._call(OPERATIONS["feedback_create"], body=body, idempotency_key=idempotency_key)

    def metrics(self, *, scope: m.MetricScope | None = None, since: date | None = None,
                until: date | None = None) -> list[m.MetricDay]:
        """The project's daily governance metrics, oldest first (operator role)."""
        return self._call(OPERATIONS["metrics_list"], query=_given(scope=scope, since=since, until=until)).results

    def entities(self, *, kind: m.EntityKind | None = None, limit: int | None = None,
                 offset: int | None = None) -> m.Page[m.Entity]:
        """The people, organisations… (masked placeholders) and named subjects your visible memory mentions, most
        mentioned first, with counts over what you may see; give an entity's ``value`` back as ``entity=``."""
        return self._call(OPERATIONS["entities_list"], query=list_query({"kind": kind}, limit=limit, offset=offset))

    def iter_entities(self, *, kind: m.EntityKind | None = None, page_size: int = 100) -> Iterator[m.Entity]:
        return self._iterate(OPERATIONS["entities_list"], {"kind": kind}, page_size)

    def forget(self, *, reason: str, session_ids: list[Id] | None = None, agent: str | None = None,
               subject: str | None = None, idempotency_key: str | None = None) -> m.ForgetResult:
        """Forget sessions, every session of an agent, or everything about a subject (a placeholder or a value as it
        was said): exchanges removed, what was derived from them rebuilt or deleted, one audit event with counts.
        Your own personal memory needs ``writer``; shared rows, other agents and subjects need ``reviewer`` or
        ``operator``. Cannot be undone."""
        body = m.ForgetRequest(reason=reason, **_given(session_ids=session_ids, agent=agent, subject=subject))
        return self._call(OPERATIONS["forget"], body=body, idempotency_key=idempotency_key)

    def export(self) -> Iterator[dict[str, Any]]:
        """Your own memory as JSON Lines records (a header, records by kind, a trailer with counts), streamed: the
        data portability export of one agent. Masked text only."""
        import json

        op = OPERATIONS["export_retrieve"]
        with self._http.stream("GET", self.base_url + op.url(), headers=self._headers, timeout=self.timeout) as r:
            if r.status_code >= 400:
                r.read()
                raise error_from_response(r)
            for line in r.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def session(self, external_id: str = "", *, module: str | None = None, metadata: dict[str, Any] | None = None,
                started_at: datetime | None = None, session_id: Id | None = None,
                close: bool = True) -> SessionHandle:
        """A session as a context manager: created (or, with ``session_id``, resumed) on enter, closed on exit.

        ``with client.session(external_id="chat-1") as s: s.add(user, assistant)``
        """
        return SessionHandle(self, external_id=external_id, module=module, metadata=metadata, started_at=started_at,
                             session_id=session_id, close=close)

    def health(self) -> dict[str, Any]:
        """``GET /healthz`` (no key needed): 200 with each part's state, else :class:`ServerError` (503)."""
        response = self._http.get(self.base_url + "/healthz", timeout=self.timeout)
        if response.status_code >= 400:
            raise error_from_response(response)
        return response.json()


class _Resource:
    def __init__(self, client: RecMem) -> None:
        self._client = client


class Sessions(_Resource):
    def create(self, external_id: str = "", *, module: str | None = None, metadata: dict[str, Any] | None = None,
               started_at: datetime | None = None, idempotency_key: str | None = None) -> m.Session:
        body = m.SessionCreate(external_id=external_id,
                               **_given(module=module, metadata=metadata, started_at=started_at))
        return self._client._call(OPERATIONS["sessions_create"], body=body, idempotency_key=idempotency_key)

    def get(self, session_id: Id) -> m.Session:
        return self._client._call(OPERATIONS["sessions_retrieve"], path={"session_id": session_id})

    def close(self, session_id: Id) -> m.Session:
        """Close (idempotent); a closed session answers 409 to new exchanges."""
        return self._client._call(OPERATIONS["sessions_close"], path={"session_id": session_id})

    def forget(self, session_id: Id, *, reason: str | None = None,
               idempotency_key: str | None = None) -> m.ForgetResult | None:
        """Forget one session: its exchanges and what was derived from them only (cannot be undone)."""
        body = m.ForgetReason(reason=reason) if reason else None
        return self._client._call(OPERATIONS["sessions_forget"], path={"session_id": session_id}, body=body,
                                  idempotency_key=idempotency_key)

    def add_exchanges(self, session_id: Id, exchanges: Iterable[m.ExchangeIn | dict[str, Any] | tuple[str, str]], *,
                      idempotency_key: str | None = None) -> list[m.Exchange]:
        """Store exchanges (masked, embedded, searchable at once). Batches of more than ``BATCH_SIZE`` are sent in
        several requests, each with its own Idempotency-Key (``idempotency_key`` applies to a single batch only)."""
        items = exchange_items(exchanges)
        if idempotency_key is not None and len(items) > BATCH_SIZE:
            raise ValueError(f"idempotency_key names one request: at most {BATCH_SIZE} exchanges")
        stored: list[m.Exchange] = []
        for start in range(0, len(items), BATCH_SIZE):
            created: m.ExchangesCreated = self._client._call(
                OPERATIONS["sessions_exchanges_create"], path={"session_id": session_id},
                body=m.ExchangesIn(exchanges=items[start:start + BATCH_SIZE]), idempotency_key=idempotency_key)
            stored.extend(created.exchanges)
        return stored

    def list(self, *, status: str | None = None, scope: m.ScopeName | None = None, since: datetime | None = None,
             until: datetime | None = None, limit: int | None = None, offset: int | None = None) -> m.Page[m.Session]:
        return self._client._call(OPERATIONS["sessions_list"], query=list_query(
            {"status": status, "scope": scope, "since": since, "until": until}, limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, scope: m.ScopeName | None = None, since: datetime | None = None,
             until: datetime | None = None, page_size: int = 100) -> Iterator[m.Session]:
        return self._client._iterate(OPERATIONS["sessions_list"],
                                     {"status": status, "scope": scope, "since": since, "until": until}, page_size)


class Exchanges(_Resource):
    def get(self, exchange_id: Id) -> m.Exchange:
        return self._client._call(OPERATIONS["exchanges_retrieve"], path={"exchange_id": exchange_id})

    def list(self, *, session: Id | None = None, state: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             limit: int | None = None, offset: int | None = None) -> m.Page[m.Exchange]:
        return self._client._call(OPERATIONS["exchanges_list"], query=list_query(
            {"session": session, "state": state, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, session: Id | None = None, state: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> Iterator[m.Exchange]:
        return self._client._iterate(OPERATIONS["exchanges_list"], {
            "session": session, "state": state, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            page_size)


class Episodes(_Resource):
    def get(self, episode_id: Id) -> m.Episode:
        return self._client._call(OPERATIONS["episodes_retrieve"], path={"episode_id": episode_id})

    def list(self, *, status: str | None = None, scope: m.ScopeName | None = None,
             since: datetime | None = None, until: datetime | None = None, as_of: datetime | None = None,
             entity: str | None = None, limit: int | None = None,
             offset: int | None = None) -> m.Page[m.Episode]:
        return self._client._call(OPERATIONS["episodes_list"], query=list_query(
            {"status": status, "scope": scope, "since": since, "until": until, "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, scope: m.ScopeName | None = None, since: datetime | None = None,
             until: datetime | None = None, as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> Iterator[m.Episode]:
        return self._client._iterate(OPERATIONS["episodes_list"], {
            "status": status, "scope": scope, "since": since, "until": until, "as_of": as_of, "entity": entity},
            page_size)


class Experiences(_Resource):
    def get(self, experience_id: Id) -> m.Experience:
        return self._client._call(OPERATIONS["experiences_retrieve"], path={"experience_id": experience_id})

    def list(self, *, type: m.ExperienceType | None = None, tag: str | None = None, status: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             limit: int | None = None, offset: int | None = None) -> m.Page[m.Experience]:
        return self._client._call(OPERATIONS["experiences_list"], query=list_query(
            {"type": type, "tag": tag, "status": status, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity},
            limit=limit, offset=offset))

    def iter(self, *, type: m.ExperienceType | None = None, tag: str | None = None, status: str | None = None,
             scope: m.ScopeName | None = None, since: datetime | None = None, until: datetime | None = None,
             as_of: datetime | None = None, entity: str | None = None,
             page_size: int = 100) -> Iterator[m.Experience]:
        return self._client._iterate(OPERATIONS["experiences_list"], {
            "type": type, "tag": tag, "status": status, "scope": scope, "since": since, "until": until,
             "as_of": as_of, "entity": entity}, page_size)

    def update(self, experience_id: Id, *, statement: str | None = None, subject: str | None = None,
               confidence: float | None = None, reason: str = "",
               idempotency_key: str | None = None) -> m.Experience | m.EditProposal:
        """Edit your own personal item (the previous version is kept; the item as it is now), or propose a change of a
        shared (module or project) item to a person (an :class:`EditProposal`; the item is unchanged until
        approved)."""
        body = m.ExperienceUpdate(**_given(statement=statement, subject=subject, confidence=confidence),
                                  **({"reason": reason} if reason else {}))
        return self._client._call(OPERATIONS["experiences_update"], path={"experience_id": experience_id},
                                  body=body, idempotency_key=idempotency_key)

    def delete(self, experience_id: Id, *, reason: str = "",
               idempotency_key: str | None = None) -> m.EditProposal | None:
        """Delete your own personal item (kept for audit, never retrieved again; None), or propose the deletion of a
        shared (module or project) item to a person (an :class:`EditProposal`; it stays active until approved)."""
        return self._client._call(OPERATIONS["experiences_delete"], path={"experience_id": experience_id},
                           idempotency_key=idempotency_key, **delete_reason(reason))


class Consolidations(_Resource):
    def get(self, batch_id: Id) -> m.BatchDetail:
        return self._client._call(OPERATIONS["consolidations_retrieve"], path={"batch_id": batch_id})

    def list(self, *, status: str | None = None, limit: int | None = None,
             offset: int | None = None) -> m.Page[m.Batch]:
        return self._client._call(OPERATIONS["consolidations_list"],
                                  query=list_query({"status": status}, limit=limit, offset=offset))

    def iter(self, *, status: str | None = None, page_size: int = 100) -> Iterator[m.Batch]:
        return self._client._iterate(OPERATIONS["consolidations_list"], {"status": status}, page_size)

    def request(self, *, idempotency_key: str | None = None) -> m.ConsolidationQueued:
        """(operator role) Consolidate this agent's pending candidates now."""
        return self._client._call(OPERATIONS["consolidations_request"], idempotency_key=idempotency_key)
