"""The client's models and operation table against the live server's ``/api/schema/``, operation by operation.

Compared: the set of operations (nothing missing, nothing extra), method and path, the success status, query
parameters (names and enums), request bodies and responses walked property by property (name, type and format,
required, nullable, enum, nested objects and arrays), pagination envelopes, documented error bodies, the
Idempotency-Key header and the auth scheme. Component names are not compared (a rename is not a change of shape).
When the API changes, this fails and names each difference; the client follows by editing ``models.py`` and
``_operations.py``.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
import uuid
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from recmem_client import models as m
from recmem_client._base import IDEMPOTENCY_HEADER
from recmem_client._operations import OPERATIONS

pytestmark = pytest.mark.integration

# Request properties the client deliberately does not send, with the reason.
NOT_SENT = {
    # The single-exchange form of POST /sessions/{id}/exchanges: the client always sends the batch form.
    m.ExchangesIn: {"user", "assistant", "occurred_at", "metadata", "source", "tool"},
}


@pytest.fixture(scope="module")
def schema(recmem_server) -> dict[str, Any]:
    response = httpx.get(recmem_server.url + "/api/schema/", params={"format": "json"}, timeout=60)
    response.raise_for_status()
    return response.json()


def _operations(schema: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    found = {}
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                found[op["operationId"]] = (method.upper(), path, op)
    return found


class Walker:
    """Compares a schema node with a Python annotation; collects every difference with its location."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.components = schema["components"]["schemas"]
        self.problems: list[str] = []

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while True:
            if "$ref" in node:
                node = {**self.components[node["$ref"].rsplit("/", 1)[1]],
                        **{k: v for k, v in node.items() if k != "$ref"}}
            elif "allOf" in node and len(node["allOf"]) == 1:
                node = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
            else:
                return node

    def model(self, where: str, node: dict[str, Any], model: type[BaseModel], *, request: bool) -> None:
        node = self.resolve(node)
        choices = None if "properties" in node else node.get("oneOf") or node.get("anyOf")
        if choices:  # a union: the client's model must be exactly one of the documented forms (an anyOf beside
            # properties only constrains them, e.g. "user or assistant")
            attempts = []
            for choice in choices:
                trial = Walker({"components": {"schemas": self.components}})
                trial.model(where, choice, model, request=request)
                attempts.append(trial.problems)
            best = min(attempts, key=len)
            self.problems.extend(best)
            return
        if node.get("type", "object") != "object" or "properties" not in node:
            self.problems.append(f"{where}: the schema has {node.get('type')}, the client a {model.__name__} object")
            return
        documented = set(node["properties"])
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        skipped = NOT_SENT.get(model, set()) if request else set()
        for name in sorted(documented - set(fields) - skipped):
            self.problems.append(f"{where}.{name}: documented, not in {model.__name__}")
        for name in sorted(set(fields) - documented):
            self.problems.append(f"{where}.{name}: in {model.__name__}, not documented")
        required = set(node.get("required", []))
        for name in sorted(documented & set(fields)):
            field, prop = fields[name], self.resolve(node["properties"][name])
            if request:
                # The client may always send what the server takes as optional, never omit what it requires.
                if name in required and not field.is_required():
                    self.problems.append(f"{where}.{name}: required in the schema, optional in {model.__name__}")
            elif name in required and not field.is_required():
                self.problems.append(f"{where}.{name}: always present in the schema, optional in {model.__name__}")
            elif name not in required and field.is_required():
                self.problems.append(f"{where}.{name}: may be absent in the schema, required in {model.__name__}")
            self.value(f"{where}.{name}", prop, field.annotation, request=request,
                       optional=request and name not in required)

    def value(self, where: str, node: dict[str, Any], annotation: Any, *, request: bool, optional: bool) -> None:
        node = self.resolve(node)
        inner, allows_none = _strip_none(annotation)
        if inner is Any:  # deliberately free in the client (an error's details): anything the schema says fits
            return
        if node.get("nullable") and not allows_none:
            self.problems.append(f"{where}: nullable in the schema, not in the client")
        if allows_none and not node.get("nullable") and not optional:
            self.problems.append(f"{where}: never null in the schema, Optional in the client")
        kind, fmt = node.get("type"), node.get("format")
        if "enum" in node:
            values = set(typing.get_args(inner)) if typing.get_origin(inner) is typing.Literal else None
            if values is not None and values != set(node["enum"]) - {None}:
                self.problems.append(f"{where}: enum {sorted(node['enum'])} in the schema, {sorted(values)} in "
                                     f"the client")
        if "properties" not in node and kind in (None, "object"):  # free JSON, or a free JSON object
            typed = {"integer": int, "number": float, "string": str, "boolean": bool}.get(
                (node.get("additionalProperties") or {}).get("type") if isinstance(
                    node.get("additionalProperties"), dict) else None)
            if typed is not None and inner == dict[str, typed]:  # a map whose values the schema types
                return
            if inner not in (Any, dict[str, Any]) and not (kind is None and inner is Any):
                self.problems.append(f"{where}: free JSON in the schema, {inner} in the client")
            return
        if kind == "object" or "properties" in node:
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                self.model(where, node, inner, request=request)
            else:
                self.problems.append(f"{where}: an object in the schema, {inner} in the client")
            return
        if kind == "array":
            if typing.get_origin(inner) is not list:
                self.problems.append(f"{where}: an array in the schema, {inner} in the client")
                return
            self.value(f"{where}[]", node["items"], typing.get_args(inner)[0], request=request, optional=False)
            return
        expected = {("string", "uuid"): uuid.UUID, ("string", "date-time"): dt.datetime, ("string", "date"): dt.date,
                    ("integer", None): int, ("integer", "int64"): int, ("integer", "int32"): int,
                    ("number", "double"): float, ("number", "float"): float, ("number", None): float,
                    ("boolean", None): bool}.get((kind, fmt))
        if kind == "string" and expected is None:
            expected = str
        if typing.get_origin(inner) is typing.Literal:
            inner = type(typing.get_args(inner)[0])
        if expected is None or inner is not expected:
            self.problems.append(f"{where}: {kind}/{fmt} in the schema, {inner} in the client")


def _strip_none(annotation: Any) -> tuple[Any, bool]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) < len(typing.get_args(annotation)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return annotation, False


def _json_schema(content: dict[str, Any] | None) -> dict[str, Any] | None:
    if not content:
        return None
    for media, body in content.items():
        if "json" in media and "ndjson" not in media:  # JSON Lines are a stream of documents, not one body
            return body.get("schema")
    return None


def test_every_operation_of_the_schema_is_in_the_client_and_nothing_else(schema):
    documented = set(_operations(schema))
    assert documented - set(OPERATIONS) == set(), "operations the client does not implement"
    assert set(OPERATIONS) - documented == set(), "operations the client implements that the schema does not have"


def test_methods_paths_and_success_statuses(schema):
    problems = []
    for op_id, (method, path, op) in _operations(schema).items():
        mine = OPERATIONS[op_id]
        if (mine.method, "/api/v1" + mine.path) != (method, path):
            problems.append(f"{op_id}: {method} {path} in the schema, {mine.method} /api/v1{mine.path} in the client")
        successes = sorted(int(code) for code in op["responses"] if code.startswith("2"))
        if successes != sorted({mine.status, *([202] if mine.accepted else [])}):
            problems.append(f"{op_id}: success {successes} in the schema, {mine.status} in the client")
    assert not problems, "\n".join(problems)


def test_query_parameters(schema):
    problems = []
    for op_id, (_method, _path, op) in _operations(schema).items():
        documented = {p["name"]: p for p in op.get("parameters", []) if p["in"] == "query"}
        mine = set(OPERATIONS[op_id].query)
        if set(documented) != mine:
            problems.append(f"{op_id}: query {sorted(documented)} in the schema, {sorted(mine)} in the client")
    assert not problems, "\n".join(problems)


def test_query_enums_match_the_client_types(schema):
    literal = {"scope": m.ScopeName, "type": m.ExperienceType}
    own = {("metrics_list", "scope"): m.MetricScope}  # metrics add the whole project ("all") to the three scopes
    problems = []
    for op_id, (_method, _path, op) in _operations(schema).items():
        for p in op.get("parameters", []):
            enum = p.get("schema", {}).get("enum")
            expected = own.get((op_id, p["name"]), literal.get(p["name"]))
            if enum and expected is not None and set(enum) != set(typing.get_args(expected)):
                problems.append(f"{op_id}.{p['name']}: {sorted(enum)} in the schema")
    assert not problems, "\n".join(problems)


def test_request_bodies(schema):
    walker = Walker(schema)
    for op_id, (_method, _path, op) in _operations(schema).items():
        body = _json_schema(op.get("requestBody", {}).get("content"))
        mine = OPERATIONS[op_id].request
        if body is None and mine is not None:
            walker.problems.append(f"{op_id}: no body in the schema, {mine.__name__} in the client")
        elif body is not None and mine is None:
            walker.problems.append(f"{op_id}: a body in the schema, none in the client")
        elif body is not None and mine is not None:
            walker.model(f"{op_id} request", body, mine, request=True)
    assert not walker.problems, "\n".join(walker.problems)


def test_responses(schema):
    walker = Walker(schema)
    for op_id, (_method, _path, op) in _operations(schema).items():
        mine = OPERATIONS[op_id]
        node = _json_schema(op["responses"].get(str(mine.status), {}).get("content"))
        if node is None:
            if mine.response is not None:
                walker.problems.append(f"{op_id}: no response body in the schema, {mine.response.__name__} in "
                                       f"the client")
            continue
        if mine.response is None:
            walker.problems.append(f"{op_id}: a response body in the schema, none in the client")
            continue
        node = walker.resolve(node)
        if mine.paginated:
            if node.get("type") == "array":
                # Documented as a bare array (the schema did not show the envelope the server sends); the items
                # must still match. Once the envelope is documented it is compared with Page below.
                walker.value(f"{op_id} response[]", node["items"], mine.response, request=False, optional=False)
            else:
                walker.model(f"{op_id} response", node, m.Page[mine.response], request=False)  # type: ignore[name-defined]
        else:
            walker.model(f"{op_id} response", node, mine.response, request=False)
    for op_id, (_method, _path, op) in _operations(schema).items():
        mine = OPERATIONS[op_id]
        if mine.accepted is not None:  # the second success: queued for a person (202)
            node = _json_schema(op["responses"].get("202", {}).get("content"))
            if node is None:
                walker.problems.append(f"{op_id}: no 202 body in the schema, {mine.accepted.__name__} in the client")
            else:
                walker.model(f"{op_id} response 202", node, mine.accepted, request=False)
    assert not walker.problems, "\n".join(walker.problems)


def test_documented_error_bodies_match_the_client_errors(schema):
    walker = Walker(schema)
    for op_id, (_method, _path, op) in _operations(schema).items():
        for code, response in op["responses"].items():
            node = _json_schema(response.get("content"))
            if code[0] in "45" and node is not None and walker.resolve(node).get("properties"):
                walker.model(f"{op_id} {code}", node, m.ErrorBody, request=False)  # (a bare object states nothing)
    assert not walker.problems, "\n".join(walker.problems)


def test_documented_headers_are_the_ones_the_client_sends(schema):
    problems = []
    for op_id, (method, _path, op) in _operations(schema).items():
        for p in op.get("parameters", []):
            if p["in"] != "header":
                continue
            if p["name"].lower() == IDEMPOTENCY_HEADER.lower():
                if not OPERATIONS[op_id].writes:
                    problems.append(f"{op_id}: {method} documents {p['name']}, the client sends none on it")
            else:
                problems.append(f"{op_id}: header {p['name']} documented, not sent by the client")
    assert not problems, "\n".join(problems)


def test_bearer_auth(schema):
    schemes = schema["components"].get("securitySchemes", {})
    assert any(s.get("type") == "http" and s.get("scheme") == "bearer" for s in schemes.values()), schemes


def _component(schema, op_id: str, *, request: bool = False) -> str:
    """The component name behind an operation's request body or success response (through arrays and envelopes)."""
    _method, _path, op = _operations(schema)[op_id]
    content = op["requestBody"]["content"] if request else op["responses"][str(OPERATIONS[op_id].status)]["content"]
    node = _json_schema(content)
    while True:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            results = schema["components"]["schemas"][name].get("properties", {}).get("results")
            if results is None:
                return name
            node = results
        else:
            node = node["items"] if "items" in node else node["allOf"][0]


def test_the_comparison_catches_drift(schema):
    """The guard itself: a copy of the schema with typical changes is reported, change by change."""
    import copy

    drifted = copy.deepcopy(schema)
    components = drifted["components"]["schemas"]
    ops = _operations(drifted)
    session, exchange = _component(drifted, "sessions_retrieve"), _component(drifted, "exchanges_retrieve")
    search_request, batch = _component(drifted, "search", request=True), _component(drifted, "consolidations_list")
    components[session]["properties"]["archived"] = {"type": "boolean"}
    components[session]["required"].append("archived")
    components[exchange]["properties"]["turn_index"] = {"type": "string"}
    components[session]["properties"]["closed_at"].pop("nullable")
    components[search_request].setdefault("required", []).append("k_sub")
    components["Drifted"] = {"type": "object", "required": ["count", "results"], "properties": {
        "count": {"type": "integer"},
        "results": {"type": "array", "items": {"$ref": f"#/components/schemas/{batch}"}}}}
    _method, path, op = ops["consolidations_list"]
    op["responses"]["200"]["content"]["application/json"]["schema"] = {"$ref": "#/components/schemas/Drifted"}
    walker = Walker(drifted)
    for op_id in ("sessions_retrieve", "exchanges_retrieve", "search", "consolidations_list"):
        _method, _path, op = _operations(drifted)[op_id]
        mine = OPERATIONS[op_id]
        node = walker.resolve(_json_schema(op["responses"][str(mine.status)]["content"]))
        model = m.Page[mine.response] if mine.paginated and node.get("type") != "array" else mine.response
        walker.model(op_id, node, model, request=False)  # type: ignore[arg-type]
        if mine.request is not None:
            walker.model(op_id, _json_schema(op["requestBody"]["content"]), mine.request, request=True)
    found = "\n".join(walker.problems)
    for expected in ("sessions_retrieve.archived: documented, not in Session",
                     "exchanges_retrieve.turn_index: string/None in the schema",
                     "sessions_retrieve.closed_at: never null in the schema",
                     "search.k_sub: required in the schema, optional in SearchRequest",
                     "consolidations_list.next: in Page[Batch], not documented",
                     "consolidations_list.previous: in Page[Batch], not documented"):
        assert expected in found, f"not reported: {expected}\n{found}"
