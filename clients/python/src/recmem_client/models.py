"""Typed requests and responses of the RecMem REST API.

One model per schema object of ``/api/schema/``; ``clients/python/tests/test_schema_sync.py`` walks every operation of
the live server's schema and fails when a property, its type, whether it is required or nullable, an enum, a query
parameter or a path differs from what is declared here and in :mod:`recmem_client._operations`.

Responses ignore properties they do not know (a newer server stays readable); requests refuse unknown ones.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

ExperienceType = Literal["fact", "event", "preference", "constraint", "lesson", "pattern", "procedure"]
ScopeName = Literal["personal", "module", "project"]
MetricScope = Literal["personal", "module", "project", "all"]
ExchangeSource = Literal["conversation", "tool", "agent_note", "import"]
EntityKind = Literal["placeholder", "subject"]


class Response(BaseModel):
    """A response object: immutable, unknown properties ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class Request(BaseModel):
    """A request body: unknown properties refused before anything is sent."""

    model_config = ConfigDict(extra="forbid")

    def body(self) -> dict[str, Any]:
        """The JSON body: properties left unset are not sent (the server applies its defaults)."""
        return self.model_dump(mode="json", exclude_unset=True)


# --- the calling agent ---------------------------------------------------------------------------------------------

class Project(Response):
    id: uuid.UUID
    name: str


class Module(Response):
    id: uuid.UUID
    name: str


class ApiKeyInfo(Response):
    prefix: str
    name: str
    expires_at: datetime | None


class AgentMe(Response):
    id: uuid.UUID
    name: str
    roles: list[str]
    project: Project
    modules: list[Module]
    key: ApiKeyInfo
    created_at: datetime


# --- sessions and exchanges ----------------------------------------------------------------------------------------

class SessionCreate(Request):
    external_id: str = Field(default="", max_length=200)
    started_at: datetime | None = None
    module: str | None = Field(default=None, min_length=1, max_length=200)
    metadata: dict[str, Any] | None = None


class Session(Response):
    id: uuid.UUID
    external_id: str
    scope: str
    module: str | None = None
    status: str
    started_at: datetime
    closed_at: datetime | None
    metadata: dict[str, Any]
    exchange_count: int
    owner_agent: uuid.UUID


class ExchangeIn(Request):
    """One exchange to store: a user turn and the assistant's answer (one of them may be empty, not both)."""

    user: str = ""
    assistant: str = ""
    occurred_at: datetime | None = None
    metadata: dict[str, Any] | None = None
    #: what the texts are: a conversation (the default), a tool's output (name it in ``tool``), the agent's own note,
    #: an import; it sets the trust the exchange earns as evidence
    source: ExchangeSource | None = None
    tool: str | None = None


class ExchangesIn(Request):
    """The batch form of ``POST /sessions/{id}/exchanges``; the client always sends this form."""

    exchanges: list[ExchangeIn]


class Exchange(Response):
    id: uuid.UUID
    session: uuid.UUID
    turn_index: int
    user: str
    assistant: str
    occurred_at: datetime
    metadata: dict[str, Any]
    scope: str
    state: str
    candidate: bool
    salience: str
    consolidated_batch: uuid.UUID | None
    source: str
    tool: str
    #: what it earns as evidence: user, assistant or tool
    trust: str
    #: held for review: only its author sees it
    quarantined: bool
    quarantine_reason: str
    created_at: datetime


class ExchangesCreated(Response):
    exchanges: list[Exchange]


# --- consolidated memory -------------------------------------------------------------------------------------------

class Provenance(Response):
    exchange_ids: list[uuid.UUID]
    session_ids: list[uuid.UUID]
    first_at: datetime | None
    last_at: datetime | None
    batch: uuid.UUID | None


class Episode(Response):
    id: uuid.UUID
    title: str
    narrative: str
    scope: str
    status: str
    started_at: datetime | None
    ended_at: datetime | None
    version: int
    hit_count: int
    #: reviewed > corroborated > user > assistant > tool
    trust: str
    quarantined: bool
    provenance: Provenance
    updated_at: datetime


class Experience(Response):
    id: uuid.UUID
    type: str
    subject: str
    statement: str
    scope: str
    status: str
    confidence: float
    verified: bool
    #: reviewed > corroborated > user > assistant > tool
    trust: str
    #: held for review: only its author sees it
    quarantined: bool
    needs_revalidation: bool
    tags: list[str]
    valid_from: datetime | None
    valid_to: datetime | None  # when it stopped holding (superseded, or an end it stated); None: it still holds
    last_corroborated_at: datetime  # when it was last said again (freshness in ranking)
    superseded_by: uuid.UUID | None
    episode: uuid.UUID | None
    version: int
    hit_count: int
    provenance: Provenance
    updated_at: datetime


class ExperienceUpdate(Request):
    """``verified`` is not here: only a person sets it (the server refuses it, 400 ``field_not_allowed``)."""

    statement: str | None = Field(default=None, min_length=1, max_length=5000)
    subject: str | None = Field(default=None, min_length=1, max_length=300)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    reason: str = Field(default="", max_length=300)


class EditProposal(Response):
    """202 of PATCH / DELETE /experiences/{id} on a shared (module or project) item: the change or deletion waits in
    the review queue for a person; the item is unchanged until it is approved."""

    review_item: uuid.UUID
    kind: Literal["change", "deletion"]
    status: str
    experience: uuid.UUID


class ExperienceDelete(Request):
    """The body of DELETE /experiences/{id}: the reason of the delete."""

    reason: str = Field(default="", max_length=300)


# --- search --------------------------------------------------------------------------------------------------------

class SearchRequest(Request):
    query: str = Field(min_length=1, max_length=4000)
    k_sub: int = Field(default=10, ge=0, le=100)
    k_epi: int = Field(default=5, ge=0, le=50)
    k_sem: int = Field(default=10, ge=0, le=100)
    token_budget: int | None = Field(default=None, ge=50, le=32000)
    types: list[ExperienceType] | None = None
    tags: list[str] | None = Field(default=None, min_length=1, max_length=5)
    since: datetime | None = None
    until: datetime | None = None
    session: uuid.UUID | None = None  # the session this search serves (the server's hit-rate proxy looks there)
    as_of: datetime | None = None  # what was believed then (items superseded or expired since included)
    entity: str | None = Field(default=None, max_length=300)  # a placeholder, a subject or a clear value


class ExchangeHit(Exchange):
    score: float
    similarity: float


class EpisodeHit(Episode):
    score: float
    similarity: float


class ExperienceHit(Experience):
    score: float
    similarity: float


class SearchResult(Response):
    """The three layers' hits, each ranked, and ``context``: the block to put in a prompt, within the budget."""

    exchanges: list[ExchangeHit]
    episodes: list[EpisodeHit]
    experiences: list[ExperienceHit]
    context: str
    context_tokens: int
    context_budget: int  # the budget the block was built within (it may use less: off-topic hits stay out)
    search_id: uuid.UUID  # give it back with :meth:`RecMem.feedback` (the retrieval hit rate)

    @property
    def hits(self) -> list[ExchangeHit | EpisodeHit | ExperienceHit]:
        """Every hit of the three layers, best score first."""
        return sorted([*self.exchanges, *self.episodes, *self.experiences], key=lambda h: h.score, reverse=True)


# --- entities ------------------------------------------------------------------------------------------------------

class Entity(Response):
    """A person, organisation, place… (``placeholder``: masked, one value one placeholder) or a named ``subject``
    the caller's visible memory mentions, with how many visible rows do; give ``value`` back as ``entity=``."""

    kind: EntityKind
    value: str
    exchanges: int
    episodes: int
    experiences: int

    @property
    def id(self) -> tuple[str, str]:
        """What tells two entities apart (paging skips an entity already yielded)."""
        return (self.kind, self.value)


# --- forget and export ---------------------------------------------------------------------------------------------

class ForgetRequest(Request):
    """The body of POST /forget: at least one of ``session_ids``, ``agent`` and ``subject``, and why."""

    session_ids: list[uuid.UUID] | None = Field(default=None, min_length=1, max_length=1000)
    agent: str | None = Field(default=None, min_length=1, max_length=200)
    subject: str | None = Field(default=None, min_length=3, max_length=300)
    reason: str = Field(min_length=1, max_length=300)


class ForgetReason(Request):
    """The optional body of DELETE /sessions/{id}: why (audited; never the forgotten text)."""

    reason: str = Field(default="session forgotten", min_length=1, max_length=300)


class ForgetResult(Response):
    """What a forget removed or rewrote, by kind (counts only: what was forgotten is not repeated)."""

    forgotten: dict[str, int]


# --- feedback and governance metrics -------------------------------------------------------------------------------

class FeedbackRequest(Request):
    search_id: uuid.UUID
    used_ids: list[uuid.UUID] = Field(max_length=500)
    helpful: bool | None = None


class Feedback(Response):
    search_id: uuid.UUID
    used: int
    returned: int
    helpful: bool | None


class MetricDay(Response):
    """The governance metrics of one day and scope (``all``: the whole project); rates are None when nothing was
    counted. Definitions: the server README's "Governance" section."""

    day: date
    scope: str
    searches: int
    returned: int
    returned_with_feedback: int
    used: int
    cited: int
    helpful_yes: int
    helpful_no: int
    hit_rate: float | None
    exchanges: int
    repetitions: int
    repetition_rate: float | None
    validity_judged: int
    validity_accurate: int
    validity_rate: float | None
    validity_low: float | None
    validity_high: float | None
    batches: int
    batches_failed: int
    prompt_tokens: int
    completion_tokens: int
    batch_seconds: float
    backlog: int
    exchanges_total: int
    episodes_active: int
    experiences_active: int
    computed_at: datetime


class Metrics(Response):
    results: list[MetricDay]


# --- consolidation batches -----------------------------------------------------------------------------------------

class LLMCall(Response):
    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    tokens_source: str
    latency_ms: float
    ok: bool
    error: str
    created_at: datetime


class Batch(Response):
    id: uuid.UUID
    status: str
    mode: str
    consolidator: str
    attempts: int
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    tokens_by_purpose: dict[str, Any]
    timings_ms: dict[str, Any]
    error: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    rolled_back_at: datetime | None


class BatchDetail(Batch):
    summary: dict[str, Any]
    calls: list[LLMCall]


class ConsolidationQueued(Response):
    queued: bool
    pending_candidates: int


# --- envelopes -----------------------------------------------------------------------------------------------------

T = TypeVar("T", bound=Response)


class Page(Response, Generic[T]):
    """One page of a list: ``count`` items in all, ``results`` of this page; ``next``/``previous`` are URLs."""

    count: int
    next: str | None
    previous: str | None
    results: list[T]


class ErrorDetail(Response):
    code: str
    message: str
    details: Any = None


class ErrorBody(Response):
    """Every 4xx (and the documented 5xx) answers ``{"error": {"code", "message", "details"?}}``."""

    error: ErrorDetail
