"""Every operation of the REST API, spelled once: method, path, request and response models, query parameters.

The sync and async clients build their requests from this table, and the schema-sync test compares it with the live
server's ``/api/schema/`` operation by operation (by ``operationId``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from recmem_client import models as m

LIST_FILTERS = ("status", "scope", "since", "until")
MEMORY_FILTERS = ("as_of", "entity")  # what was current then; only rows about one entity
EXCHANGE_FILTERS = ("scope", "since", "until", "session", "state")  # exchanges have a state, not a status
PAGING = ("limit", "offset")


@dataclass(frozen=True)
class Operation:
    id: str
    method: str
    path: str
    status: int
    request: type[m.Request] | None = None
    response: type[m.Response] | None = None
    query: tuple[str, ...] = ()
    paginated: bool = False
    # A second success: 202 with this body when the server queued the request for a person instead (an edit of a
    # shared item goes to the review queue).
    accepted: type[m.Response] | None = None

    def url(self, **path_params: Any) -> str:
        return "/api/v1" + self.path.format(**{k: str(v) for k, v in path_params.items()})

    @property
    def writes(self) -> bool:
        """Writes carry an Idempotency-Key, one per logical call, reused by every retry of it."""
        return self.method in ("POST", "PATCH", "DELETE")


_OPS = [
    Operation("agents_me", "GET", "/agents/me", 200, response=m.AgentMe),
    Operation("sessions_create", "POST", "/sessions", 201, request=m.SessionCreate, response=m.Session),
    Operation("sessions_list", "GET", "/sessions", 200, response=m.Session, query=(*PAGING, *LIST_FILTERS),
              paginated=True),
    Operation("sessions_retrieve", "GET", "/sessions/{session_id}", 200, response=m.Session),
    Operation("sessions_close", "POST", "/sessions/{session_id}/close", 200, response=m.Session),
    Operation("sessions_forget", "DELETE", "/sessions/{session_id}", 200, request=m.ForgetReason,
              response=m.ForgetResult),
    Operation("sessions_exchanges_create", "POST", "/sessions/{session_id}/exchanges", 201, request=m.ExchangesIn,
              response=m.ExchangesCreated),
    Operation("exchanges_list", "GET", "/exchanges", 200, response=m.Exchange,
              query=(*PAGING, *EXCHANGE_FILTERS, *MEMORY_FILTERS), paginated=True),
    Operation("exchanges_retrieve", "GET", "/exchanges/{exchange_id}", 200, response=m.Exchange),
    Operation("episodes_list", "GET", "/episodes", 200, response=m.Episode,
              query=(*PAGING, *LIST_FILTERS, *MEMORY_FILTERS), paginated=True),
    Operation("episodes_retrieve", "GET", "/episodes/{episode_id}", 200, response=m.Episode),
    Operation("experiences_list", "GET", "/experiences", 200, response=m.Experience,
              query=(*PAGING, *LIST_FILTERS, *MEMORY_FILTERS, "type", "tag"), paginated=True),
    Operation("experiences_retrieve", "GET", "/experiences/{experience_id}", 200, response=m.Experience),
    Operation("experiences_update", "PATCH", "/experiences/{experience_id}", 200, request=m.ExperienceUpdate,
              response=m.Experience, accepted=m.EditProposal),
    Operation("experiences_delete", "DELETE", "/experiences/{experience_id}", 204,
              request=m.ExperienceDelete, accepted=m.EditProposal),
    Operation("entities_list", "GET", "/entities", 200, response=m.Entity, query=(*PAGING, "kind"),
              paginated=True),
    Operation("forget", "POST", "/forget", 200, request=m.ForgetRequest, response=m.ForgetResult),
    Operation("export_retrieve", "GET", "/export", 200),  # JSON Lines, streamed: RecMem.export()
    Operation("search", "POST", "/search", 200, request=m.SearchRequest, response=m.SearchResult),
    Operation("feedback_create", "POST", "/feedback", 200, request=m.FeedbackRequest, response=m.Feedback),
    Operation("metrics_list", "GET", "/metrics", 200, response=m.Metrics, query=("scope", "since", "until")),
    Operation("consolidations_list", "GET", "/consolidations", 200, response=m.Batch, query=(*PAGING, "status"),
              paginated=True),
    Operation("consolidations_retrieve", "GET", "/consolidations/{batch_id}", 200, response=m.BatchDetail),
    Operation("consolidations_request", "POST", "/consolidations/run", 202, response=m.ConsolidationQueued),
]

OPERATIONS: dict[str, Operation] = {op.id: op for op in _OPS}


def delete_reason(reason: str) -> dict[str, Any]:
    """Keyword arguments of the client's ``_call`` that carry a delete's reason: a JSON body (never the URL, which
    ends up in access logs)."""
    return {"body": m.ExperienceDelete(reason=reason)} if reason else {}


def query_params(op: Operation, values: dict[str, Any]) -> dict[str, str]:
    """The query string of ``op``: given values only, each named by the operation, dates in ISO 8601."""
    unknown = set(values) - set(op.query)
    if unknown:
        raise TypeError(f"{op.id} takes no query parameter {sorted(unknown)}")
    out: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        if hasattr(value, "isoformat"):
            value = value.isoformat()
        out[name] = str(value).lower() if isinstance(value, bool) else str(value)
    return out
