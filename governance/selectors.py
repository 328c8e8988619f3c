"""Governance reads: walking the audit chains, the audit events an export asks for, batches whose lease expired, and
the pseudonym registry (keyed digests, never originals)."""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Now

from agents.models import Project
from core.config import config
from governance.models import AuditCheckpoint, AuditEvent, ConsolidationBatch, PrivacyPolicy, PseudonymEntry, VaultEntry
from governance.services.audit import chain_key, chain_of, checkpoint_signature, event_hash, reason_digest


@dataclass(frozen=True)
class ChainBreak:
    """One broken link: where (``seq``; the event's id, None when the break is in the chain's anchor) and what."""

    seq: int
    event_id: int | None
    problem: str


@dataclass(frozen=True)
class ChainReport:
    """One chain walked: ``ok``, or every broken link found (``breaks``, in chain order)."""

    project_id: Any
    project_name: str
    events: int
    head_seq: int
    head_hash: str
    breaks: tuple[ChainBreak, ...] = ()
    checkpoint_length: int | None = None  # None: the chain has no checkpoint

    @property
    def ok(self) -> bool:
        return not self.breaks

    @property
    def broken_seq(self) -> int | None:
        return self.breaks[0].seq if self.breaks else None

    @property
    def broken_event_id(self) -> int | None:
        return self.breaks[0].event_id if self.breaks else None

    @property
    def problem(self) -> str:
        return self.breaks[0].problem if self.breaks else ""


def _checkpoint_problem(checkpoint: AuditCheckpoint | None, *, chain: str, head_seq: int,
                        hashes: dict[int, str]) -> ChainBreak | None:
    """The chain's anchor against the events walked (``hashes``: seq → stored hash of each event walked)."""
    if checkpoint is None:
        if head_seq:
            return ChainBreak(head_seq, None, "the chain's checkpoint is missing (deleted)")
        return None
    expected = checkpoint_signature(chain=chain, length=checkpoint.length, head_hash=checkpoint.head_hash)
    if not hmac.compare_digest(expected, checkpoint.signature):
        return ChainBreak(checkpoint.length, None, "the chain's checkpoint does not match its signature (edited; "
                                                   "or RECMEM_AUDIT_KEY is not the key it was written with)")
    if head_seq < checkpoint.length:
        first = head_seq + 1
        what = (f"the whole chain ({checkpoint.length} events) is missing" if head_seq == 0 else
                f"event {first} is missing" if first == checkpoint.length else
                f"events {first}-{checkpoint.length} are missing")
        return ChainBreak(checkpoint.length, None, f"{what} (deleted): the checkpoint records {checkpoint.length}")
    if checkpoint.length and hashes.get(checkpoint.length) != checkpoint.head_hash:
        return ChainBreak(checkpoint.length, None, "the event at the checkpoint's head does not match the "
                                                   "checkpoint's hash (replaced)")
    return None


def audit_chain_verify(*, project_id: Any) -> ChainReport:
    """Walk one chain (``project_id`` None: the events without a project) in ``seq`` order and report every event
    whose number, link to the previous event or content hash does not hold, then check the chain's signed
    checkpoint (a deleted tail or a deleted chain). After a break the walk goes on from the broken event, so each
    tampering is reported where it is, not only the first."""
    name = "(no project)"
    if project_id is not None:
        name = Project.objects.filter(pk=project_id).values_list("name", flat=True).first() or str(project_id)
    chain = chain_key(project_id)
    # Read before the events: appends after this only make the walked chain longer than the checkpoint.
    checkpoint = AuditCheckpoint.objects.filter(chain=chain).first()
    breaks: list[ChainBreak] = []
    hashes: dict[int, str] = {}
    expected, prev, count, head_seq = 1, "", 0, 0
    for event in chain_of(project_id).order_by("seq", "id").iterator(chunk_size=2000):
        problem = ""
        if event.seq > expected:
            problem = (f"event {expected} is missing (deleted)" if event.seq == expected + 1 else
                       f"events {expected}-{event.seq - 1} are missing (deleted)")
        elif event.seq < expected:
            problem = "sequence number repeated or moved (inserted or re-ordered event)"
        elif event.prev_hash != prev:
            problem = "link to the previous event broken (an event was removed, inserted or re-ordered)"
        elif event_hash(event) != event.hash:
            problem = "content does not match its hash (edited" + (
                "; or RECMEM_AUDIT_KEY is not the key the chain was written with)" if expected == 1 else ")")
        elif event.reason_digest and not event.reason_purged and reason_digest(event.reason) != event.reason_digest:
            problem = "reason does not match its digest (edited)"
        if problem:
            breaks.append(ChainBreak(event.seq, event.pk, problem))
        else:
            count += 1
        if checkpoint is not None and event.seq == checkpoint.length:
            hashes[event.seq] = event.hash
        prev, expected, head_seq = event.hash, max(expected, event.seq) + 1, max(head_seq, event.seq)
    anchor = _checkpoint_problem(checkpoint, chain=chain, head_seq=head_seq, hashes=hashes)
    if anchor is not None:
        breaks.append(anchor)
    return ChainReport(project_id=project_id, project_name=name, events=count, head_seq=head_seq, head_hash=prev,
                       breaks=tuple(breaks), checkpoint_length=checkpoint.length if checkpoint else None)


def audit_chains() -> list[Any]:
    """Every chain's project id (None for the events without a project), projects by name first; chains whose
    events are all gone count too (their checkpoint remains)."""
    ids = set(AuditEvent.objects.values_list("project_id", flat=True).distinct())
    for chain in AuditCheckpoint.objects.values_list("chain", flat=True):
        ids.add(uuid.UUID(chain) if chain else None)
    names = dict(Project.objects.filter(pk__in=[i for i in ids if i is not None]).values_list("pk", "name"))
    return sorted(ids, key=lambda i: (i is None, names.get(i, "")))


def audit_checkpoint_rows(*, project: Project | None = None) -> Iterator[dict[str, Any]]:
    """The chains' anchors for an export (kept elsewhere, they show a chain deleted with its checkpoint)."""
    qs = AuditCheckpoint.objects.order_by("chain")
    if project is not None:
        qs = qs.filter(chain=chain_key(project.pk))
    for c in qs:
        yield {"checkpoint": c.chain, "length": c.length, "head_hash": c.head_hash, "signature": c.signature,
               "updated_at": c.updated_at.isoformat()}


def project_find(*, name_or_id: str) -> Project | None:
    try:
        return Project.objects.filter(pk=uuid.UUID(name_or_id)).first()
    except ValueError:
        return Project.objects.filter(name=name_or_id).first()


def audit_events(*, project: Project | None = None, actor: str = "", action: str = "",
                 since: datetime | None = None, until: datetime | None = None) -> QuerySet[AuditEvent]:
    """Events for an export, chain order (project, seq). ``actor``: an agent's name or id, a user's username, or an
    actor label such as ``system:consolidation``."""
    qs = AuditEvent.objects.all()
    if project is not None:
        qs = qs.filter(project=project)
    if actor:
        match = Q(actor_agent__name=actor) | Q(actor_user__username=actor) | Q(actor_label=actor)
        try:
            match |= Q(actor_agent_id=uuid.UUID(actor))
        except ValueError:
            pass
        qs = qs.filter(match)
    if action:
        qs = qs.filter(action=action)
    if since:
        qs = qs.filter(created_at__gte=since)
    if until:
        qs = qs.filter(created_at__lt=until)
    return qs.select_related("project", "actor_agent", "actor_user").order_by("project__name", "project_id", "seq")


EXPORT_FIELDS = ["id", "project", "project_name", "seq", "created_at", "action", "object_type", "object_id",
                 "scope", "actor_agent", "actor_agent_name", "actor_user", "actor_label", "reason", "source_ids",
                 "batch", "data", "prev_hash", "hash"]


def audit_export_rows(qs: QuerySet[AuditEvent]) -> Iterator[dict[str, Any]]:
    """One flat dict per event (the hash fields included: an export can be checked against the chain)."""
    for e in qs.iterator(chunk_size=2000):
        yield {
            "id": e.pk, "project": str(e.project_id or ""), "project_name": e.project.name if e.project else "",
            "seq": e.seq, "created_at": e.created_at.isoformat(), "action": e.action, "object_type": e.object_type,
            "object_id": e.object_id, "scope": e.scope, "actor_agent": str(e.actor_agent_id or ""),
            "actor_agent_name": e.actor_agent.name if e.actor_agent else "",
            "actor_user": e.actor_user.get_username() if e.actor_user else "", "actor_label": e.actor_label,
            "reason": e.reason, "source_ids": e.source_ids, "batch": str(e.batch_id or ""), "data": e.data,
            "prev_hash": e.prev_hash, "hash": e.hash,
        }


def pseudonyms_registered(*, project: Project, placeholders: Iterable[str]) -> set[str]:
    """Which of ``placeholders`` the masking gateway wrote for ``project``."""
    return set(PseudonymEntry.objects.filter(project=project, placeholder__in=list(placeholders))
               .values_list("placeholder", flat=True))


def pseudonyms_by_digest(*, project: Project, digests: Iterable[str]) -> dict[str, str]:
    """digest → placeholder for the registered ones among ``digests`` that were masked with strong evidence (a model's
    guess on one word is registered, so its placeholder is accepted back, but never re-applied elsewhere)."""
    return dict(PseudonymEntry.objects.filter(project=project, digest__in=list(digests), confident=True)
                .values_list("digest", "placeholder"))


def pseudonym_lookup(*, project: Project, entity_type: str, value: str) -> str | None:
    """The placeholder ``value`` got in ``project`` as ``entity_type``, if the gateway ever pseudonymised it.

    The lookup key is the keyed digest (HMAC under the project's key of the type and the normalised value), so the
    registry answers without holding the value; without the project's key nobody can test a guess against it."""
    from governance.privacy.engine import pseudonym_digest

    policy = PrivacyPolicy.objects.filter(project=project).first()
    if policy is None:  # nothing was ever masked in this project
        return None
    digest = pseudonym_digest(entity_type, value, policy.pseudonym_key)
    return pseudonyms_by_digest(project=project, digests=[digest]).get(digest)


def placeholders_for_subject(*, project: Project, value: str) -> set[str]:
    """The placeholders that stand for ``value`` in ``project`` (a purge): ``value`` itself when it is a placeholder,
    else every placeholder the registry maps it to (any entity type) and every vault entry whose original it is."""
    from governance.privacy.recognizers import PLACEHOLDER_RE

    value = value.strip()
    if PLACEHOLDER_RE.fullmatch(value):
        return {value}
    # a secret's registry row stands for every secret of its kind ("<SECRET:password>"): never a subject's placeholder
    found = {p for t in PseudonymEntry.objects.filter(project=project).exclude(entity_type=PseudonymEntry.SECRET)
             .values_list("entity_type", flat=True).distinct()
             if (p := pseudonym_lookup(project=project, entity_type=t, value=value))}
    if config().privacy.vault_key:  # originals not in the registry (older rows): compare the decrypted vault entries
        from governance.privacy.vault import Vault

        vault = Vault(config().privacy.vault_key)
        wanted = value.casefold()
        for placeholder, ciphertext in VaultEntry.objects.filter(project=project).values_list("placeholder",
                                                                                            "ciphertext"):
            try:
                if vault.decrypt(ciphertext).strip().casefold() == wanted:
                    found.add(placeholder)
            except Exception:  # noqa: BLE001 - an entry under another key cannot be the value
                continue
    return found


def batches_lease_expired() -> QuerySet[ConsolidationBatch]:
    """Running batches whose process stopped renewing their lease (on the database's clock)."""
    return ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.RUNNING, lease_expires_at__lt=Now())
