"""Every request field of the OpenAPI schema goes through the masking boundary (a field that skipped it would store
clear text).

The fields are enumerated from ``/api/schema/`` itself — path, query and header parameters and every property of a
JSON body, nested lists (``exchanges[].user``) and free-form objects (``metadata{}``: its keys and its values)
included. :data:`FIELDS` must name exactly these fields with the reason each one is safe, so a new endpoint or a
new field fails this test until someone decides how it is covered. Then every field is exercised: a canary — a
GitHub token and an e-mail address, fresh per case — is sent in that field alone, and it must appear in no
response body (success or error), nowhere in a full dump of the database, and not in the request target as the
access log writes it.

Categories (documentation; every field gets the same canary check):

* ``stored``: free text that is stored (masked first) — the request must succeed, so the canary really went in;
* ``kept``: kept with the request's first response (the Idempotency-Key, also when the request is refused);
* ``typed``: a UUID, date-time, number, boolean or enum — a canary is rejected or ignored, never echoed;
* ``filter`` / ``id`` / ``lookup``: used to find rows, never stored — unknown values answer 4xx without the value.
"""

from __future__ import annotations

import itertools
import secrets
import string
from urllib.parse import quote

import pytest

from governance.models import ConsolidationBatch
from memory.tests.factories import at, make_memories, post_exchanges, post_session
from recmem_site.log_redaction import redact_target
from testing.dump import database_dump

pytestmark = pytest.mark.django_db

LIST = {"query:limit": "typed", "query:offset": "typed", "query:scope": "typed", "query:since": "typed",
        "query:until": "typed", "query:status": "filter"}
# as_of is a date-time; entity is masked like a query before it finds rows (never stored, audited masked)
MEMORY = {"query:as_of": "typed", "query:entity": "filter"}
EXCHANGE = {"user": "stored", "assistant": "stored", "occurred_at": "typed", "metadata{}": "stored", "source": "typed",
            "tool": "stored"}
FIELDS: dict[str, dict[str, str]] = {
    "agents_me": {},
    "export_retrieve": {},
    "consolidations_list": {"query:limit": "typed", "query:offset": "typed", "query:status": "filter"},
    "consolidations_retrieve": {"path:batch_id": "id"},
    "consolidations_request": {},
    "entities_list": {"query:limit": "typed", "query:offset": "typed", "query:kind": "typed"},
    "episodes_list": {**LIST, **MEMORY},
    "episodes_retrieve": {"path:episode_id": "id"},
    "exchanges_list": {**{k: v for k, v in LIST.items() if k != "query:status"}, "query:session": "filter",
                       "query:state": "typed", **MEMORY},
    "exchanges_retrieve": {"path:exchange_id": "id"},
    "experiences_list": {**LIST, **MEMORY, "query:type": "typed", "query:tag": "filter"},
    "experiences_retrieve": {"path:experience_id": "id"},
    "experiences_update": {"path:experience_id": "id", "body:statement": "stored", "body:subject": "stored",
                           "body:confidence": "typed", "body:reason": "stored"},
    "experiences_delete": {"path:experience_id": "id", "body:reason": "stored"},
    "feedback_create": {"body:search_id": "lookup", "body:used_ids[]": "typed", "body:helpful": "typed"},
    "metrics_list": {"query:since": "typed", "query:until": "typed", "query:scope": "typed"},
    "search": {"body:query": "stored", "body:k_sub": "typed", "body:k_epi": "typed", "body:k_sem": "typed",
               "body:token_budget": "typed", "body:types[]": "typed", "body:tags[]": "filter", "body:since": "typed",
               "body:until": "typed", "body:session": "lookup", "body:as_of": "typed", "body:entity": "filter"},
    "sessions_list": LIST,
    "sessions_create": {"body:external_id": "stored", "body:started_at": "typed", "body:module": "lookup",
                        "body:metadata{}": "stored"},
    "sessions_retrieve": {"path:session_id": "id"},
    "sessions_forget": {"path:session_id": "id", "body:reason": "stored"},
    "forget": {"body:session_ids[]": "typed", "body:agent": "lookup", "body:subject": "lookup",
               "body:reason": "stored"},
    "sessions_close": {"path:session_id": "id"},
    "sessions_exchanges_create": {"path:session_id": "id",
                                  **{f"body:{k}": v for k, v in EXCHANGE.items()},
                                  **{f"body:exchanges[].{k}": v for k, v in EXCHANGE.items()}},
}

# Every POST and DELETE takes an Idempotency-Key, which is kept (hashed) with the first response: stored agent input.
for _operation in ("consolidations_request", "feedback_create", "search", "sessions_create", "sessions_close",
                   "sessions_exchanges_create", "experiences_delete", "sessions_forget", "forget"):
    FIELDS[_operation]["header:Idempotency-Key"] = "kept"

# operationId -> (method, path template, base body): a valid request the canary is put into
REQUESTS: dict[str, tuple[str, str, dict]] = {
    "agents_me": ("get", "/api/v1/agents/me", {}),
    "export_retrieve": ("get", "/api/v1/export", {}),
    "consolidations_list": ("get", "/api/v1/consolidations", {}),
    "consolidations_retrieve": ("get", "/api/v1/consolidations/{batch_id}", {}),
    "consolidations_request": ("post", "/api/v1/consolidations/run", {}),
    "entities_list": ("get", "/api/v1/entities", {}),
    "episodes_list": ("get", "/api/v1/episodes", {}),
    "episodes_retrieve": ("get", "/api/v1/episodes/{episode_id}", {}),
    "exchanges_list": ("get", "/api/v1/exchanges", {}),
    "exchanges_retrieve": ("get", "/api/v1/exchanges/{exchange_id}", {}),
    "experiences_list": ("get", "/api/v1/experiences", {}),
    "experiences_retrieve": ("get", "/api/v1/experiences/{experience_id}", {}),
    "experiences_update": ("patch", "/api/v1/experiences/{experience_id}", {"confidence": 0.5}),
    "experiences_delete": ("delete", "/api/v1/experiences/{experience_id}", {}),
    "feedback_create": ("post", "/api/v1/feedback", {"search_id": "00000000-0000-4000-8000-000000000000",
                                                     "used_ids": []}),
    "metrics_list": ("get", "/api/v1/metrics", {}),
    "search": ("post", "/api/v1/search", {"query": "deploy"}),
    "sessions_list": ("get", "/api/v1/sessions", {}),
    "sessions_create": ("post", "/api/v1/sessions", {}),
    "sessions_retrieve": ("get", "/api/v1/sessions/{session_id}", {}),
    "sessions_forget": ("delete", "/api/v1/sessions/{session_id}", {}),
    "forget": ("post", "/api/v1/forget", {"subject": "fridays", "reason": "asked"}),
    "sessions_close": ("post", "/api/v1/sessions/{session_id}/close", {}),
    "sessions_exchanges_create": ("post", "/api/v1/sessions/{session_id}/exchanges",
                                  {"user": "hello", "assistant": "hi"}),
}


def _schema_fields() -> dict[str, set[str]]:
    from django.test import Client

    schema = Client().get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]

    def resolve(node: dict) -> dict:
        while "$ref" in node:
            node = components[node["$ref"].rsplit("/", 1)[1]]
        return node

    def walk(node: dict, prefix: str, out: set[str]) -> None:
        node = resolve(node)
        for alternative in node.get("oneOf", []):  # e.g. one exchange or a batch of them
            walk(alternative, prefix, out)
        for name, prop in (node.get("properties") or {}).items():
            prop = resolve(prop)
            if prop.get("type") == "array" and "properties" in resolve(prop.get("items", {})):
                walk(prop["items"], f"{prefix}{name}[].", out)
            elif prop.get("type") == "array":
                out.add(f"{prefix}{name}[]")
            elif prop.get("type") == "object" and "properties" in prop:
                walk(prop, f"{prefix}{name}.", out)
            elif prop.get("type") == "object" or not prop.get("type") and "format" not in prop and "enum" not in prop:
                out.add(f"{prefix}{name}{{}}")  # free-form JSON: keys and values are agent input
            else:
                out.add(f"{prefix}{name}")

    fields: dict[str, set[str]] = {}
    for path, operations in schema["paths"].items():
        for op in operations.values():
            if not path.startswith("/api/v1/"):
                continue
            found = {f"{p['in']}:{p['name']}" for p in op.get("parameters", [])}
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                names: set[str] = set()
                walk(body, "", names)
                found |= {f"body:{n}" for n in names}
            fields[op["operationId"]] = found
    return fields


def test_every_request_field_of_the_schema_has_a_coverage_decision():
    fields = _schema_fields()
    assert set(fields) == set(FIELDS), "an endpoint was added or removed: decide how its fields are covered"
    for operation, names in fields.items():
        assert names == set(FIELDS[operation]), (
            f"{operation}: fields {sorted(names ^ set(FIELDS[operation]))} need a coverage decision in FIELDS")
    assert set(REQUESTS) == set(FIELDS)


CASES = [(op, field) for op, fields in sorted(FIELDS.items()) for field in sorted(fields)]
_counter = itertools.count()


def _canary() -> tuple[str, str]:
    token = "ghp_" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(36))
    return token, f"canary.{next(_counter)}@example.com"


def _inject(body: dict, field: str, value, token: str, email: str) -> dict:
    name = field.split(":", 1)[1]
    if name.startswith("exchanges[]."):
        item = {"user": "hello", "assistant": "hi"}
        return {"exchanges": [_inject(item, "body:" + name.split(".", 1)[1], value, token, email)]}
    if name.endswith("{}"):
        return {**body, name[:-2]: {f"{token} {email}": value, "note": value}}
    if name.endswith("[]"):
        return {**body, name[:-2]: [value]}
    return {**body, name: value}


@pytest.mark.parametrize("operation,field", CASES, ids=[f"{o}-{f}" for o, f in CASES])
def test_a_canary_in_any_field_is_never_stored_echoed_or_logged(api_client, make_agent, operation, field):
    holder = make_agent(roles=("writer", "reader", "operator"))
    session = post_session(api_client, holder)
    [stored] = post_exchanges(api_client, holder, session["id"], [{"user": "we deploy on fridays",
                                                                    "assistant": "noted", "occurred_at": at()}])
    from memory.models import Exchange

    episode, experience = make_memories(Exchange.objects.get(pk=stored["id"]))
    batch = ConsolidationBatch.objects.create(project=holder.agent.project, agent=holder.agent, status="succeeded")
    ids = {"session_id": session["id"], "exchange_id": stored["id"], "episode_id": episode.pk,
           "experience_id": experience.pk, "batch_id": batch.pk}

    token, email = _canary()
    text = f"note {token} for {email}"
    method, template, body = REQUESTS[operation]
    query, headers = "", dict(holder.headers)
    kind, name = field.split(":", 1)
    if kind == "header":  # the token alone: a well-formed key, so the request runs and the key is kept
        headers["HTTP_" + name.upper().replace("-", "_")] = token
    elif kind == "path":
        ids[name] = quote(token, safe="")
    elif kind == "query":
        query = f"?{name}={quote(text, safe='')}"
    else:
        body = _inject(body, field, text, token, email)
    url = template.format(**ids) + query
    call = getattr(api_client, method)
    response = call(url, body, format="json", **headers) if body or method != "get" else call(url, **headers)

    assert response.status_code < 500, response.content
    if FIELDS[operation][field] == "stored":
        assert 200 <= response.status_code < 300, response.content  # the canary went through the masking path
    content = response.content.decode()
    dump = database_dump()
    logged = redact_target(url)
    for needle in (token, email):
        assert needle not in content, f"{field} echoed in the response"
        assert needle not in dump, f"{field} stored in clear"
        assert needle not in logged, f"{field} written to the access log"
