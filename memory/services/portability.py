"""Export and import of a project's memory, and an agent's own memory (data portability).

The format is JSON Lines: a header ``{"format": "recmem-export", "version": 1, ...}``, then one record per line
``{"kind": ..., "fields": {...}}`` in the order of :data:`KINDS`, then a trailer ``{"kind": "end", "counts": ...}``
(an import refuses a file without it: a truncated copy is not a smaller project).

Records are written from each model's own field list (every concrete field, generated columns left out: PostgreSQL
recomputes the full-text vectors), so a field added to a model is exported without touching this module, and an
import fills a field an older export lacks with the model's default. References are by UUID, or by natural key where
the row has no UUID (modules and agents by name, evidence links by their two ends, users by username).

What an export holds, and what it leaves out on purpose:
- masked text only. The vault (the originals behind placeholders) only with ``include_vault``, which needs the
  vault's view and reveal permissions and a reason, and is audited as a reveal.
- agents by name, roles and modules; never an API key or a key digest.
- the privacy policy with its pseudonym salt and the pseudonym registry (keyed digests, no values): with the same
  RECMEM_PSEUDONYM_KEY on the target, the same name masks to the same placeholder there, so queries find the same
  items. Allowed terms (masking configuration) too.
- consolidation batches (provenance: what created an item, what a rollback would revert), versions, review items
  and validity samples (decisions on the items, with the deciding user by username).
- not: the audit trail (``manage.py audit_export``, hash-chained per deployment), candidates (queue state), search
  logs, repetition checks, metrics, LLM calls, idempotency keys (all local bookkeeping, recomputed or not portable).

Embeddings are exported (base64 little-endian float32 with their ``embedding_model``): a target with the same
embedding model gets the very vectors and so the very same search results; a target with another model re-embeds
the texts on import.
"""

from __future__ import annotations

import base64
import io
import json
import math
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import IO, Any

import numpy as np
from django.contrib.auth import get_user_model
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from pgvector.django import VectorField

from agents.models import Agent, Module, Project
from agents.visibility import Scope
from core.config import config
from core.errors import ApplicationError, Conflict, NotAllowed
from core.limits import text_is_storable
from governance.models import (
    AllowedTerm,
    AuditEvent,
    AuditObject,
    ConsolidationBatch,
    PrivacyPolicy,
    PseudonymEntry,
    VaultEntry,
)
from governance.services.audit import audit_record
from memory.models import (
    EMBEDDING_DIMENSIONS,
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryVersion,
    ReviewItem,
    Session,
    ValiditySample,
)

FORMAT = "recmem-export"
VERSION = 1
MAX_LINE_BYTES = 8 * 1024 * 1024  # a memory version snapshot or an episode narrative is far smaller
MAX_LINES = 20_000_000
WHY = "an export or import covers every scope of the project"


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[models.Model]
    # the fields that identify a row whose primary key is not a UUID (kept across deployments)
    natural_key: tuple[str, ...] = ()
    exclude: frozenset[str] = frozenset()
    # many-to-many fields exported as a list of the related rows' ids
    many: tuple[str, ...] = ()


KINDS: tuple[Kind, ...] = (
    Kind("project", Project),
    Kind("privacy_policy", PrivacyPolicy, natural_key=("project",)),
    Kind("pseudonym", PseudonymEntry, natural_key=("project", "digest")),
    Kind("allowed_term", AllowedTerm, natural_key=("project", "term")),
    Kind("module", Module, natural_key=("project", "name")),
    Kind("agent", Agent, natural_key=("project", "name"), many=("modules",)),
    Kind("batch", ConsolidationBatch),
    Kind("session", Session),
    Kind("exchange", Exchange),
    # source_agent is derived (kept by triggers from the links, imported after their items): it does not travel
    Kind("episode", Episode, exclude=frozenset({"source_agent"})),
    Kind("episode_source", EpisodeSource, natural_key=("episode", "exchange")),
    Kind("experience", Experience, exclude=frozenset({"source_agent"})),
    Kind("experience_evidence", ExperienceEvidence, natural_key=("experience", "exchange")),
    Kind("memory_version", MemoryVersion),
    Kind("review_item", ReviewItem),
    Kind("validity_sample", ValiditySample),
)
KIND_BY_NAME = {k.name: k for k in KINDS}
KIND_BY_MODEL = {k.model: k for k in KINDS}
VAULT_KIND = "vault_entry"  # {"placeholder", "entity_type", "value"}: the only record with clear text
EMBEDDED_TEXT: dict[type[models.Model], Callable[[Any], str]] = {
    Exchange: lambda e: e.text_form,
    Episode: lambda e: f"{e.title}\n{e.narrative}",
    Experience: lambda e: f"{e.subject}: {e.statement}",
}


def _fields(model: type[models.Model], kind: Kind) -> list[models.Field]:
    """The fields a record carries: every concrete field but generated columns (and, for rows known by a natural
    key, their database-local integer id)."""
    out = []
    for f in model._meta.concrete_fields:
        if isinstance(f, models.GeneratedField) or f.name in kind.exclude:
            continue
        if kind.natural_key and f.primary_key and not isinstance(f, models.UUIDField | models.OneToOneField):
            continue
        out.append(f)
    return out


# --- export --------------------------------------------------------------------------------------------------

def _vector_dump(value) -> dict[str, str]:
    raw = np.asarray(value, dtype="<f4").tobytes()
    return {"f32": base64.b64encode(raw).decode("ascii")}


def _dump(f: models.Field, obj: models.Model, users: dict[int, str]) -> Any:
    if f.is_relation:
        value = getattr(obj, f.attname)
        if value is None:
            return None
        if f.related_model is get_user_model():
            return users.get(value)
        return str(value)
    value = getattr(obj, f.attname)
    if value is None:
        return None
    if isinstance(f, VectorField):
        return _vector_dump(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(f, models.JSONField | ArrayField) or isinstance(value, str | int | float | bool):
        return value
    return f.value_to_string(obj)


def _usernames() -> dict[int, str]:
    return dict(get_user_model().objects.values_list("pk", "username"))


def _line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


def _records(kind: Kind, qs: models.QuerySet, users: dict[int, str]) -> Iterator[str]:
    fields = _fields(kind.model, kind)
    if kind.many:
        qs = qs.prefetch_related(*kind.many)
    for obj in qs.iterator(chunk_size=500):
        record = {f.name: _dump(f, obj, users) for f in fields}
        for name in kind.many:
            record[name] = sorted(str(r.pk) for r in getattr(obj, name).all())
        yield _line({"kind": kind.name, "fields": record})


def _header(*, project: Project, scope: str, include_vault: bool, extra: dict | None = None) -> str:
    from memory.gateways.embeddings import get_embedder

    return _line({"format": FORMAT, "version": VERSION, "scope": scope,
                  "project": {"id": str(project.pk), "name": project.name},
                  "exported_at": timezone.now().isoformat(), "embedding_model": get_embedder().model_id,
                  "dimensions": EMBEDDING_DIMENSIONS, "includes_vault": include_vault,
                  "kinds": [k.name for k in KINDS] + ([VAULT_KIND] if include_vault else []), **(extra or {})})


def _project_querysets(project: Project) -> dict[str, models.QuerySet]:
    scoped = {m: m.objects.all_scopes_unscoped(why=WHY).filter(project=project)
              for m in (Session, Exchange, Episode, Experience)}
    return {
        "project": Project.objects.filter(pk=project.pk),
        "privacy_policy": PrivacyPolicy.objects.filter(project=project),
        "pseudonym": PseudonymEntry.objects.filter(project=project).order_by("id"),
        "allowed_term": AllowedTerm.objects.filter(project=project).order_by("id"),
        "module": Module.objects.filter(project=project).order_by("name"),
        "agent": Agent.objects.filter(project=project).order_by("name"),
        "batch": ConsolidationBatch.objects.filter(project=project).order_by("created_at", "id"),
        "session": scoped[Session].order_by("started_at", "id"),
        "exchange": scoped[Exchange].order_by("session_id", "turn_index"),
        "episode": scoped[Episode].order_by("created_at", "id"),
        "episode_source": EpisodeSource.objects.filter(episode__project=project).order_by("id"),
        "experience": scoped[Experience].order_by("created_at", "id"),
        "experience_evidence": ExperienceEvidence.objects.filter(experience__project=project).order_by("id"),
        "memory_version": MemoryVersion.objects.filter(
            models.Q(episode__project=project) | models.Q(experience__project=project)).order_by("created_at", "id"),
        "review_item": ReviewItem.objects.filter(project=project).order_by("created_at", "id"),
        "validity_sample": ValiditySample.objects.filter(project=project).order_by("created_at", "id"),
    }


def _stream(header: str, querysets: dict[str, models.QuerySet], vault: list[dict] | None,
            users: dict[int, str]) -> Iterator[str]:
    counts: dict[str, int] = {}
    yield header
    for kind in KINDS:
        qs = querysets.get(kind.name)
        if qs is None:
            continue
        n = 0
        for line in _records(kind, qs, users):
            n += 1
            yield line
        counts[kind.name] = n
    if vault is not None:
        for entry in vault:
            yield _line({"kind": VAULT_KIND, "fields": entry})
        counts[VAULT_KIND] = len(vault)
    yield _line({"kind": "end", "counts": counts})


def _vault_entries(*, project: Project, user, reason: str) -> list[dict]:
    """The project's vault in clear, for an export that asks for it: the reveal's permissions, reason and audit."""
    from governance.privacy.vault import decrypt_value

    refused = None
    if user is None or not (user.has_perm("governance.view_vaultentry")
                            and user.has_perm("governance.reveal_vaultentry")):
        refused = NotAllowed("exporting the vault needs a user with the 'view_vaultentry' and 'reveal_vaultentry' "
                             "permissions", code="permission_denied")
    elif not reason.strip():
        refused = ApplicationError("a reason is required to export the vault", code="reason_required")
    elif not config().privacy.vault_key or config().privacy.vault_key == "off":
        refused = ApplicationError("no RECMEM_VAULT_KEY configured: the vault cannot be read", code="no_vault_key")
    if refused is not None:
        audit_record(action=AuditEvent.Action.REVEAL_REFUSED, object_type=AuditObject.VAULT_ENTRY, project=project,
                     actor_user=user if getattr(user, "pk", None) else None, reason=reason,
                     data={"export": True, "refused": refused.code})
        raise refused
    key = config().privacy.vault_key
    entries = [{"placeholder": e.placeholder, "entity_type": e.entity_type, "value": decrypt_value(e.ciphertext, key)}
               for e in VaultEntry.objects.filter(project=project).order_by("placeholder")]
    audit_record(action=AuditEvent.Action.REVEAL, object_type=AuditObject.VAULT_ENTRY, project=project,
                 actor_user=user, reason=reason, data={"export": True, "entries": len(entries)})
    return entries


def project_export(*, project: Project, user=None, actor_label: str = "", include_vault: bool = False,
                   reason: str = "") -> Iterator[str]:
    """The lines of a whole project's export, to be streamed. The act is audited here, when it is asked for (the
    lines are read as they are consumed); the vault, if asked for, is checked and audited as a reveal first."""
    vault = None
    if include_vault:
        vault = _vault_entries(project=project, user=user, reason=reason)
    audit_record(action=AuditEvent.Action.READ, object_type=AuditObject.PROJECT, object_id=project.pk,
                 project=project, actor_user=user if getattr(user, "pk", None) else None,
                 actor_label=actor_label if not getattr(user, "pk", None) else "", scope=Scope.PROJECT,
                 reason=reason[:300], data={"export": "project", "version": VERSION, "includes_vault": include_vault})
    header = _header(project=project, scope="project", include_vault=include_vault)
    return _stream(header, _project_querysets(project), vault, _usernames())


def agent_export(*, agent: Agent) -> Iterator[str]:
    """One agent's own memory (what it sent and what is personal to it), to be streamed: its sessions and their
    exchanges, the personal episodes and experiences it owns with their evidence links (to its own exchanges only)
    and versions. Module and project items are left out even where its exchanges are among their evidence: they are
    shared memory, derived from other agents' exchanges too; the agent's part in them is its exchanges, which are
    here. Masked text only; no vault, no keys. Not importable as a project (its header says ``"scope": "agent"``)."""
    project = agent.project
    own = {m: m.objects.all_scopes_unscoped(why="an agent's export of what it owns").filter(
        project=project, owner_agent=agent) for m in (Session, Exchange, Episode, Experience)}
    episodes = own[Episode].filter(scope=Scope.PERSONAL)
    experiences = own[Experience].filter(scope=Scope.PERSONAL)
    querysets = {
        "agent": Agent.objects.filter(pk=agent.pk),
        "session": own[Session].order_by("started_at", "id"),
        "exchange": own[Exchange].order_by("session_id", "turn_index"),
        "episode": episodes.order_by("created_at", "id"),
        "episode_source": EpisodeSource.objects.filter(episode__in=episodes, exchange__in=own[Exchange]).order_by("id"),
        "experience": experiences.order_by("created_at", "id"),
        "experience_evidence": ExperienceEvidence.objects.filter(
            experience__in=experiences, exchange__in=own[Exchange]).order_by("id"),
        "memory_version": MemoryVersion.objects.filter(
            models.Q(episode__in=episodes) | models.Q(experience__in=experiences)).order_by("created_at", "id"),
    }
    audit_record(action=AuditEvent.Action.READ, object_type=AuditObject.AGENT, object_id=agent.pk, project=project,
                 actor_agent=agent, scope=Scope.PERSONAL,
                 data={"export": "agent", "version": VERSION,
                       "sessions": own[Session].count(), "exchanges": own[Exchange].count(),
                       "episodes": episodes.count(), "experiences": experiences.count()})
    header = _header(project=project, scope="agent", include_vault=False,
                     extra={"agent": {"id": str(agent.pk), "name": agent.name}})
    return _stream(header, querysets, None, {})


# --- import: reading and checking ----------------------------------------------------------------------------

def _bad(line: int, problem: str) -> ApplicationError:
    return ApplicationError(f"line {line}: {problem}", code="invalid_export", details={"line": line})


@dataclass
class Parsed:
    header: dict
    records: dict[str, list[tuple[int, dict]]] = field(default_factory=dict)
    vault: list[tuple[int, dict]] = field(default_factory=list)


_TYPES: list[tuple[type, tuple[type, ...], str]] = [
    (models.BooleanField, (bool,), "a boolean"),
    (models.FloatField, (int, float), "a number"),
    (models.IntegerField, (int,), "an integer"),
    (models.UUIDField, (str,), "a UUID string"),
    (models.DateTimeField, (str,), "an ISO 8601 time"),
    (models.DateField, (str,), "an ISO 8601 date"),
    (models.CharField, (str,), "a string"),
    (models.TextField, (str,), "a string"),
    (ArrayField, (list,), "a list"),
]


def _strings_storable(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not text_is_storable(v):
                return False
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def _vector_load(value: Any, line: int, name: str) -> list[float]:
    if not isinstance(value, dict) or set(value) != {"f32"} or not isinstance(value["f32"], str):
        raise _bad(line, f"{name}: expected {{\"f32\": base64}}")
    try:
        raw = base64.b64decode(value["f32"], validate=True)
    except ValueError as exc:
        raise _bad(line, f"{name}: not base64") from exc
    if len(raw) != EMBEDDING_DIMENSIONS * 4:
        raise _bad(line, f"{name}: expected {EMBEDDING_DIMENSIONS} float32 values, got {len(raw) / 4:g}")
    vector = np.frombuffer(raw, dtype="<f4")
    if not np.all(np.isfinite(vector)):
        raise _bad(line, f"{name}: not finite")
    return vector.astype(float).tolist()


def _value(f: models.Field, value: Any, line: int, kind: str) -> Any:
    where = f"{kind}.{f.name}"
    if value is None:
        if not f.null:
            raise _bad(line, f"{where} may not be null")
        return None
    if f.is_relation:
        if f.related_model is get_user_model():
            if not isinstance(value, str) or len(value) > 150:
                raise _bad(line, f"{where}: expected a username")
            return value
        if not isinstance(value, str):
            raise _bad(line, f"{where}: expected an id string")
        target = f.related_model._meta.pk
        try:
            return uuid.UUID(value) if isinstance(target, models.UUIDField) else target.to_python(value)
        except (ValueError, ValidationError) as exc:
            raise _bad(line, f"{where}: not a valid id") from exc
    if isinstance(f, VectorField):
        return _vector_load(value, line, where)
    if isinstance(f, models.JSONField):
        if not _strings_storable(value):
            raise _bad(line, f"{where}: contains a NUL character or an unpaired surrogate")
        return value
    for cls, types, wanted in _TYPES:
        if isinstance(f, cls):
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                raise _bad(line, f"{where}: expected {wanted}")
            break
    if isinstance(value, float) and not math.isfinite(value):
        raise _bad(line, f"{where}: not finite")
    if not _strings_storable(value):
        raise _bad(line, f"{where}: contains a NUL character or an unpaired surrogate")
    if isinstance(f, ArrayField) and f.base_field.choices:
        allowed = {c[0] for c in f.base_field.flatchoices}
        if any(v not in allowed for v in value):
            raise _bad(line, f"{where}: a value is not one of its choices")
    try:
        python = f.to_python(value)
        if isinstance(f, models.DateTimeField) and python is not None and timezone.is_naive(python):
            raise _bad(line, f"{where}: a time needs a zone")
        if f.choices and python not in {c[0] for c in f.flatchoices}:
            raise _bad(line, f"{where}: {str(value)[:40]!r} is not one of its choices")
        f.run_validators(python)
    except ValidationError as exc:
        raise _bad(line, f"{where}: {'; '.join(exc.messages)[:200]}") from exc
    return python


def _check_header(obj: Any) -> dict:
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise _bad(1, f"not a {FORMAT} file (the first line is its header)")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1 or version > VERSION:
        raise _bad(1, f"unsupported version {str(version)[:20]!r} (this RecMem reads 1..{VERSION})")
    if obj.get("scope") != "project":
        raise _bad(1, "only a project export can be imported (an agent's export is a copy for the agent)")
    project = obj.get("project")
    if not isinstance(project, dict) or not isinstance(project.get("name"), str) or not project["name"].strip():
        raise _bad(1, "header: project name missing")
    try:
        uuid.UUID(str(project.get("id")))
    except ValueError as exc:
        raise _bad(1, "header: project id is not a UUID") from exc
    if not isinstance(obj.get("includes_vault", False), bool):
        raise _bad(1, "header: includes_vault must be a boolean")
    return obj


def _check_record(kind: Kind, raw: Any, line: int) -> dict:
    if not isinstance(raw, dict):
        raise _bad(line, f"{kind.name}: 'fields' must be an object")
    fields = {f.name: f for f in _fields(kind.model, kind)}
    unknown = set(raw) - set(fields) - set(kind.many)
    if unknown:
        raise _bad(line, f"{kind.name}: unknown field {sorted(unknown)[0][:60]!r} (an export of a newer RecMem?)")
    missing = [f.name for f in fields.values() if f.name not in raw and not f.null and not f.has_default()
               and not isinstance(f, models.AutoField)]
    if missing:
        raise _bad(line, f"{kind.name}: {missing[0]} is missing")
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name in kind.many:
            if not isinstance(value, list) or len(value) > 10_000 or not all(isinstance(v, str) for v in value):
                raise _bad(line, f"{kind.name}.{name}: expected a list of ids")
            try:
                out[name] = [uuid.UUID(v) for v in value]
            except ValueError as exc:
                raise _bad(line, f"{kind.name}.{name}: not a valid id") from exc
            continue
        out[name] = _value(fields[name], value, line, kind.name)
    pk = kind.model._meta.pk
    if not kind.natural_key and pk.name not in out:
        raise _bad(line, f"{kind.name}: its id is missing")
    for name in kind.natural_key:
        if out.get(name) is None and name != "project":
            raise _bad(line, f"{kind.name}: {name} is missing")
    return out


def _check_vault(raw: Any, line: int) -> dict:
    if (not isinstance(raw, dict) or set(raw) != {"placeholder", "entity_type", "value"}
            or not all(isinstance(v, str) and v and len(v) <= 10_000 and text_is_storable(v) for v in raw.values())
            or len(raw["placeholder"]) > 120 or len(raw["entity_type"]) > 64):
        raise _bad(line, "vault_entry: expected placeholder, entity_type and value (strings)")
    return raw


def export_parse(stream: IO[bytes]) -> Parsed:
    """Read and check a whole export (untrusted input) before anything is written: every line one JSON object,
    the header's format and version, the kinds in their order, each field's type, size and choices, every
    reference to a row of the export, the trailer's counts. Raises ``ApplicationError`` naming the line."""
    parsed: Parsed | None = None
    order = {k.name: i for i, k in enumerate(KINDS)}
    last = -1
    ended = None
    for number, raw in enumerate(_lines(stream), start=1):
        if number > MAX_LINES:
            raise _bad(number, "too many lines")
        if ended is not None:
            raise _bad(number, "content after the trailer")
        if not raw.strip():
            raise _bad(number, "empty line")
        try:
            obj = json.loads(raw, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise _bad(number, f"not JSON ({str(exc)[:80]})") from exc
        if parsed is None:
            parsed = Parsed(header=_check_header(obj))
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
            raise _bad(number, "expected an object with a 'kind'")
        kind_name = obj["kind"]
        if kind_name == "end":
            ended = (number, obj.get("counts"))
            continue
        if set(obj) != {"kind", "fields"}:
            raise _bad(number, "a record has exactly 'kind' and 'fields'")
        if kind_name == VAULT_KIND:
            if not parsed.header.get("includes_vault"):
                raise _bad(number, "a vault entry in an export whose header says it has no vault")
            parsed.vault.append((number, _check_vault(obj["fields"], number)))
            last = len(KINDS)
            continue
        kind = KIND_BY_NAME.get(kind_name)
        if kind is None:
            raise _bad(number, f"unknown kind {kind_name[:40]!r}")
        if order[kind_name] < last:
            raise _bad(number, f"{kind_name} after a later kind (records come in the order of the schema)")
        last = order[kind_name]
        parsed.records.setdefault(kind_name, []).append((number, _check_record(kind, obj["fields"], number)))
    if parsed is None:
        raise _bad(1, "empty file")
    if ended is None:
        raise _bad(number + 1, "no trailer: the file is truncated")
    counts = ended[1]
    have = {k: len(v) for k, v in parsed.records.items()} | ({VAULT_KIND: len(parsed.vault)} if parsed.vault else {})
    if not isinstance(counts, dict) or {k: v for k, v in counts.items() if v} != have:
        raise _bad(ended[0], "the trailer's counts do not match the records")
    projects = parsed.records.get("project", [])
    if len(projects) != 1 or str(projects[0][1]["id"]) != parsed.header["project"]["id"]:
        raise _bad(projects[0][0] if projects else 2, "exactly one project record, the header's, is expected")
    _check_references(parsed)
    return parsed


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _lines(stream: IO[bytes]) -> Iterator[str]:
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise _bad(number, f"line longer than {MAX_LINE_BYTES} bytes")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _bad(number, "not UTF-8") from exc


def _check_references(parsed: Parsed) -> None:
    """Every reference names a row of the export (a user by username excepted: it may be missing on the target)."""
    ids: dict[type[models.Model], set] = {}
    for kind in KINDS:
        pk = kind.model._meta.pk.name
        ids[kind.model] = {r[pk] for _, r in parsed.records.get(kind.name, []) if pk in r}
    project_id = uuid.UUID(parsed.header["project"]["id"])
    for kind in KINDS:
        relations = [f for f in _fields(kind.model, kind) if f.is_relation and f.related_model is not get_user_model()]
        for number, record in parsed.records.get(kind.name, []):
            for f in relations:
                value = record.get(f.name)
                if value is None:
                    continue
                if f.related_model is Project:
                    if value != project_id:
                        raise _bad(number, f"{kind.name}.{f.name}: another project")
                elif value not in ids.get(f.related_model, ()):
                    raise _bad(number, f"{kind.name}.{f.name}: refers to a row that is not in the export")
            for name in kind.many:
                target = kind.model._meta.get_field(name).related_model
                if any(v not in ids.get(target, ()) for v in record.get(name, [])):
                    raise _bad(number, f"{kind.name}.{name}: refers to a row that is not in the export")


def export_open(path: str, stdin: IO[bytes] | None = None) -> IO[bytes]:
    """The JSON Lines of an export file: plain, or the ``export.jsonl`` member of a tar (``--tar``)."""
    import tarfile

    if path == "-":
        return io.BytesIO((stdin or sys.stdin.buffer).read())
    if tarfile.is_tarfile(path):
        archive = tarfile.open(path)
        member = next((m for m in archive.getmembers() if m.name == TAR_MEMBER and m.isfile()), None)
        if member is None:
            raise ApplicationError(f"the tar holds no {TAR_MEMBER}", code="invalid_export")
        return archive.extractfile(member)
    return open(path, "rb")  # noqa: SIM115 (the caller closes it)


TAR_MEMBER = "export.jsonl"


# --- import: writing -----------------------------------------------------------------------------------------

@dataclass
class ImportReport:
    project: Project
    project_created: bool
    created: dict[str, int]
    existing: dict[str, int]
    reembedded: int = 0

    @property
    def created_total(self) -> int:
        return sum(self.created.values())


def _target_project(*, parsed: Parsed, name: str, merge: bool) -> tuple[Project, bool]:
    """The project the export goes into, and whether it is new. A project of that name that is not the exported
    one (by id, or by the id a renamed copy gets) is refused unless ``merge``."""
    exported_id = uuid.UUID(parsed.header["project"]["id"])
    existing = Project.objects.filter(name=name).first()
    copy_id = uuid.uuid5(exported_id, f"recmem-import:{name}")
    if existing is not None:
        if existing.pk in (exported_id, copy_id) or merge:
            return existing, False
        raise Conflict(f"a project named {name!r} exists and is another project: import under another name "
                       "(--as-project) or merge into it explicitly (--merge)", code="project_exists")
    fields = dict(parsed.records["project"][0][1])
    project_id = exported_id if not Project.objects.filter(pk=exported_id).exists() else copy_id
    fields.update(id=project_id, name=name)
    return Project.objects.create(**fields), True


def _user_ids(parsed: Parsed) -> dict[str, int]:
    names = {v for kind in KINDS for _, r in parsed.records.get(kind.name, []) for f in _fields(kind.model, kind)
             if f.is_relation and f.related_model is get_user_model() and isinstance(v := r.get(f.name), str)}
    return dict(get_user_model().objects.filter(username__in=names).values_list("username", "pk"))


class _Mapper:
    """Exported ids → ids on the target. Into the exported project's own id every UUID is kept (a fresh database,
    or the same one again); into another project (a renamed copy beside the original, a merge) each UUID is mapped
    to a name-based UUID of (target project, old id): the same export maps the same way every time, so a second
    import finds what the first wrote. Modules and agents go by name."""

    def __init__(self, *, exported: uuid.UUID, target: Project):
        self.keep = exported == target.pk
        self.target = target
        self.named: dict[type[models.Model], dict[uuid.UUID, uuid.UUID]] = {Module: {}, Agent: {}}

    def __call__(self, model: type[models.Model], value):
        if value is None:
            return None
        if model is Project:
            return self.target.pk
        if model in self.named:
            return self.named[model][value]
        return value if self.keep else uuid.uuid5(self.target.pk, str(value))


@transaction.atomic
def project_import(*, parsed: Parsed, as_project: str = "", merge: bool = False, user=None,
                   actor_label: str = "") -> ImportReport:
    """Write a checked export (:func:`export_parse`) into the project ``as_project`` (default: the exported name)
    in one transaction: all of it or nothing. Rows already there (same id, or same natural key) are left as they
    are, so importing the same export again creates nothing. Vectors of another embedding model than the target's
    are re-embedded. Audited."""
    from memory.gateways.embeddings import get_embedder

    name = (as_project or parsed.header["project"]["name"]).strip()
    if not name or len(name) > Project._meta.get_field("name").max_length:
        raise ApplicationError("the project name must have 1..200 characters", code="invalid")
    project, created_project = _target_project(parsed=parsed, name=name, merge=merge)
    mapper = _Mapper(exported=uuid.UUID(parsed.header["project"]["id"]), target=project)
    users = _user_ids(parsed)
    embedder = get_embedder()
    created: dict[str, int] = {}
    existing: dict[str, int] = {}
    reembed: dict[type[models.Model], list[models.Model]] = {}
    salt = next((r.get("hmac_key") for _, r in parsed.records.get("privacy_policy", [])), None)
    for kind in KINDS[1:]:
        rows = parsed.records.get(kind.name, [])
        if not rows:
            continue
        fields = {f.name: f for f in _fields(kind.model, kind)}
        objs = []
        for _number, record in rows:
            values: dict[str, Any] = {}
            for fname, value in record.items():
                if fname in kind.many:
                    continue
                f = fields[fname]
                if f.is_relation and f.related_model is get_user_model():
                    values[f.attname] = users.get(value)
                elif f.is_relation:
                    values[f.attname] = mapper(f.related_model, value)
                elif f.primary_key:
                    # modules and agents are matched by name below, their exported id kept until then
                    values[f.attname] = value if kind.model in mapper.named else mapper(kind.model, value)
                else:
                    values[f.attname] = value
            objs.append((record, kind.model(**values)))
        new = _new_rows(kind, [o for _, o in objs], project=project, mapper=mapper, created_project=created_project,
                        salt=salt)
        for obj in new:
            model_name = getattr(obj, "embedding_model", None)
            if model_name is not None and obj.embedding_model != embedder.model_id:
                reembed.setdefault(kind.model, []).append(obj)
        try:
            kind.model.objects.bulk_create(new, batch_size=500)
        except IntegrityError as exc:
            raise Conflict(f"{kind.name}: a row of the export conflicts with one of the target "
                           f"({str(exc).splitlines()[0][:160]})", code="import_conflict") from exc
        created[kind.name] = len(new)
        existing[kind.name] = len(objs) - len(new)
        if kind.many:
            created[f"{kind.name}_links"] = _links(kind, objs, mapper)
    reembedded = _reembed(reembed, embedder)
    try:
        # references are checked at commit; checked now, a broken one is a clear refusal, not a failed commit
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    except IntegrityError as exc:
        raise Conflict(f"the export refers to rows the target lacks ({str(exc).splitlines()[0][:160]})",
                       code="import_conflict") from exc
    vault_created = _vault_import(parsed, project) if parsed.vault else 0
    if parsed.vault:
        created[VAULT_KIND] = vault_created
    report = ImportReport(project=project, project_created=created_project, created=created, existing=existing,
                          reembedded=reembedded)
    audit_record(action=AuditEvent.Action.CREATE, object_type=AuditObject.PROJECT, object_id=project.pk,
                 project=project, actor_user=user if getattr(user, "pk", None) else None,
                 actor_label=actor_label if not getattr(user, "pk", None) else "", scope=Scope.PROJECT,
                 data={"import": {"from_project": parsed.header["project"], "version": parsed.header["version"],
                                  "project_created": created_project, "created": created,
                                  "existing": existing, "reembedded": reembedded,
                                  "includes_vault": bool(parsed.vault)}})
    return report


def _new_rows(kind: Kind, objs: list[models.Model], *, project: Project, mapper: _Mapper,
              created_project: bool, salt: str | None) -> list[models.Model]:
    """Of ``objs``, the rows the target lacks; a row whose id is taken by another project's row is refused."""
    model = kind.model
    if kind.name == "pseudonym" and not created_project and not _same_salt(project, salt):
        return []  # digests under another project's key mean nothing here
    if kind.name == "privacy_policy":
        policy = objs[0]
        if created_project:
            # a new project gets the exported policy (its pseudonym salt: the same names, the same placeholders)
            PrivacyPolicy.objects.filter(project=project).delete()
            return [policy]
        return [] if PrivacyPolicy.objects.filter(project=project).exists() else [policy]
    if kind.natural_key:
        attnames = [model._meta.get_field(k).attname for k in kind.natural_key]
        have = {tuple(row) for row in model.objects.filter(**{
            f"{attnames[0]}__in": {getattr(o, attnames[0]) for o in objs}}).values_list(*attnames)}
        new = []
        for o in objs:
            key = tuple(getattr(o, a) for a in attnames)
            if key in have:
                if model in mapper.named:
                    mapper.named[model][o.pk] = model.objects.get(**{a: getattr(o, a) for a in attnames}).pk
                continue
            have.add(key)
            if model in mapper.named:
                old = o.pk
                o.pk = uuid.uuid5(project.pk, str(old)) if not mapper.keep or model.objects.filter(pk=old).exists() \
                    else old
                mapper.named[model][old] = o.pk
            new.append(o)
        return new
    pks = [o.pk for o in objs]
    found = dict(model._base_manager.filter(pk__in=pks).values_list(
        "pk", "project_id" if _has_project(model) else "pk"))
    if _has_project(model):
        foreign = [pk for pk, pid in found.items() if pid != project.pk]
        if foreign:
            raise Conflict(f"{kind.name} {foreign[0]} exists in another project", code="import_conflict")
    return [o for o in objs if o.pk not in found]


def _same_salt(project: Project, salt: str | None) -> bool:
    return bool(salt) and PrivacyPolicy.objects.filter(project=project, hmac_key=salt).exists()


def _has_project(model) -> bool:
    return any(f.name == "project" for f in model._meta.concrete_fields)


def _links(kind: Kind, objs: list[tuple[dict, models.Model]], mapper: _Mapper) -> int:
    n = 0
    for name in kind.many:
        through = kind.model._meta.get_field(name).remote_field.through
        target = kind.model._meta.get_field(name).related_model
        src = f"{kind.model._meta.model_name}_id"
        dst = f"{target._meta.model_name}_id"
        wanted = {(mapper(kind.model, rec_id), mapper(target, v))
                  for record, _obj in objs for rec_id in [record[kind.model._meta.pk.name]]
                  for v in record.get(name, [])}
        if not wanted:
            continue
        have = set(through.objects.filter(**{f"{src}__in": {a for a, _ in wanted}}).values_list(src, dst))
        rows = [through(**{src: a, dst: b}) for a, b in wanted - have]
        through.objects.bulk_create(rows)
        n += len(rows)
    return n


def _reembed(todo: dict[type[models.Model], list[models.Model]], embedder) -> int:
    n = 0
    for model, objs in todo.items():
        text = EMBEDDED_TEXT[model]
        vectors = embedder.embed([text(o) for o in objs])
        for o, v in zip(objs, vectors, strict=True):
            o.embedding, o.embedding_model = v, embedder.model_id
        model.objects.bulk_update(objs, ["embedding", "embedding_model"], batch_size=500)
        n += len(objs)
    return n


def _vault_import(parsed: Parsed, project: Project) -> int:
    from governance.privacy.vault import encrypt_value

    key = config().privacy.vault_key
    if not key or key == "off":
        raise ApplicationError("the export holds vault entries but no RECMEM_VAULT_KEY is configured here",
                               code="no_vault_key")
    have = set(VaultEntry.objects.filter(project=project).values_list("placeholder", flat=True))
    rows = [VaultEntry(project=project, placeholder=r["placeholder"], entity_type=r["entity_type"],
                       ciphertext=encrypt_value(r["value"], key))
            for _, r in parsed.vault if r["placeholder"] not in have]
    VaultEntry.objects.bulk_create(rows)
    return len(rows)


def export_write(lines: Iterable[str], out: IO[bytes], *, tar: bool = False) -> int:
    """Write export lines to a binary stream, as plain JSON Lines or a tar holding ``export.jsonl``."""
    import tarfile
    import tempfile

    if not tar:
        n = 0
        for line in lines:
            data = line.encode("utf-8")
            out.write(data)
            n += len(data)
        return n
    with tempfile.TemporaryFile() as spool:
        n = export_write(lines, spool)
        spool.seek(0)
        info = tarfile.TarInfo(TAR_MEMBER)
        info.size, info.mtime, info.mode = n, int(timezone.now().timestamp()), 0o600
        with tarfile.open(fileobj=out, mode="w|") as archive:
            archive.addfile(info, spool)
    return n


__all__ = ["FORMAT", "KINDS", "VERSION", "ImportReport", "agent_export", "export_open", "export_parse",
           "export_write", "project_export", "project_import"]
