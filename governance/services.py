"""Governance writes: audit trail, privacy masking with the vault, consolidation batches and their rollback."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from agents.models import Agent, Project
from governance.models import AuditEvent, ConsolidationBatch, PrivacyPolicy, VaultEntry

# --- audit ----------------------------------------------------------------------


def _audit_row(*, action: str, object_type: str, object_id: Any = "", project: Project | None = None,
               project_id: Any = None, actor_agent: Agent | None = None, actor_user=None, actor_label: str = "",
               scope: str = "", reason: str = "", source_ids: Iterable[Any] = (), batch=None,
               data: dict | None = None) -> AuditEvent:
    return AuditEvent(
        action=action, object_type=object_type, object_id=str(object_id or ""),
        project_id=project.pk if project is not None else project_id,
        actor_agent=actor_agent, actor_user=actor_user, actor_label=actor_label, scope=scope, reason=reason[:300],
        source_ids=[str(s) for s in source_ids], batch=batch, data=data or {},
    )


def audit_record(**fields: Any) -> AuditEvent:
    """Append one audit event (see AuditEvent for the fields). Audit rows are never updated or deleted."""
    event = _audit_row(**fields)
    event.save()
    return event


def audit_record_many(events: Sequence[dict[str, Any]]) -> list[AuditEvent]:
    """Append many audit events in one statement (bulk ingest and search)."""
    return AuditEvent.objects.bulk_create([_audit_row(**e) for e in events])


# --- privacy ----------------------------------------------------------------------


def privacy_policy_get(*, project: Project) -> PrivacyPolicy:
    """The project's policy, created with the default masking policy on first use."""
    from governance.privacy.engine import MaskingPolicy

    policy = PrivacyPolicy.objects.filter(project=project).first()
    if policy is not None:
        return policy
    default = MaskingPolicy.default()
    policy, _ = PrivacyPolicy.objects.get_or_create(
        project=project,
        defaults={"mask_entities": sorted(default.mask_entities),
                  "pseudonymise_entities": sorted(default.pseudonymise_entities),
                  "score_threshold": default.score_threshold},
    )
    return policy


def _masking_policy(policy: PrivacyPolicy):
    from governance.privacy.engine import MaskingPolicy

    default = MaskingPolicy.default()
    return MaskingPolicy(mask_entities=frozenset(policy.mask_entities),
                         pseudonymise_entities=frozenset(policy.pseudonymise_entities),
                         never_mask=default.never_mask, score_threshold=policy.score_threshold)


def texts_mask(*, project: Project, texts: Sequence[str]) -> list[str]:
    """Mask PII and secrets in ``texts`` with the project's policy; keep encrypted originals in the vault.

    The only way text enters memory: the raw text never reaches the database, the embedder or an LLM.
    """
    from governance.privacy.engine import mask_many
    from governance.vault import encrypt_value

    if not texts:
        return []
    policy = privacy_policy_get(project=project)
    results = mask_many(list(texts), policy=_masking_policy(policy), key=bytes.fromhex(policy.hmac_key))
    vault_key = settings.RECMEM_VAULT_KEY
    if policy.vault_enabled and vault_key:
        originals: dict[str, tuple[str, str]] = {}
        for result in results:
            for entity in result.entities:
                if not entity.is_secret and entity.placeholder not in originals:
                    originals[entity.placeholder] = (entity.entity_type, entity.original)
        if originals:
            known = set(VaultEntry.objects.filter(project=project, placeholder__in=list(originals))
                        .values_list("placeholder", flat=True))
            VaultEntry.objects.bulk_create(
                [VaultEntry(project=project, placeholder=ph, entity_type=etype,
                            ciphertext=encrypt_value(value, vault_key))
                 for ph, (etype, value) in originals.items() if ph not in known],
                ignore_conflicts=True,
            )
    return [r.text for r in results]


def json_mask(*, project: Project, values: Sequence[Any]) -> list[Any]:
    """Mask every string inside JSON values (metadata): free text from agents is text like any other."""
    strings: list[str] = []

    def collect(value: Any) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for value in values:
        collect(value)
    if not strings:
        return list(values)
    masked = iter(texts_mask(project=project, texts=strings))

    def rebuild(value: Any) -> Any:
        if isinstance(value, str):
            return next(masked)
        if isinstance(value, dict):
            return {k: rebuild(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rebuild(v) for v in value]
        return value

    return [rebuild(v) for v in values]


@transaction.atomic
def vault_reveal(*, project: Project, placeholder: str, user, reason: str) -> str:
    """The original value behind ``placeholder``; needs the reveal permission, and every reveal is audited."""
    from governance.vault import decrypt_value

    if not user.has_perm("governance.reveal_vaultentry"):
        raise PermissionDenied("revealing needs the 'reveal_vaultentry' permission")
    if not reason.strip():
        raise ValidationError({"reason": "a reason is required to reveal a value"})
    if not settings.RECMEM_VAULT_KEY:
        raise ValidationError({"vault": "no RECMEM_VAULT_KEY configured: placeholders are irreversible"})
    entry = VaultEntry.objects.filter(project=project, placeholder=placeholder).first()
    if entry is None:
        raise VaultEntry.DoesNotExist(placeholder)
    value = decrypt_value(entry.ciphertext, settings.RECMEM_VAULT_KEY)
    audit_record(action=AuditEvent.Action.REVEAL, object_type="vault_entry", object_id=entry.pk, project=project,
                 actor_user=user, reason=reason, data={"placeholder": placeholder})
    return value


# --- consolidation batches ----------------------------------------------------------------------


@transaction.atomic
def batch_start(*, batch_id: uuid.UUID | None = None, project: Project, agent: Agent, mode: str,
                consolidator: str) -> ConsolidationBatch:
    """Create (or restart for a retry) a batch in status running."""
    batch = ConsolidationBatch.objects.select_for_update().filter(pk=batch_id).first() if batch_id else None
    if batch is None:
        batch = ConsolidationBatch(project=project, agent=agent, mode=mode)
    batch.consolidator = consolidator
    batch.status = ConsolidationBatch.Status.RUNNING
    batch.attempts += 1
    batch.started_at = timezone.now()
    batch.error = ""
    batch.save()
    return batch


def batch_record_calls(*, batch: ConsolidationBatch, calls: Sequence[Any]) -> None:
    """Persist LLM call records (LLMCallRecord) against the batch and add them to its totals."""
    from memory.models import LLMCall

    if not calls:
        return
    LLMCall.objects.bulk_create([
        LLMCall(batch=batch, project_id=batch.project_id, purpose=c.purpose, model=c.model,
                prompt_tokens=c.prompt_tokens, completion_tokens=c.completion_tokens,
                tokens_source=getattr(c, "tokens_source", "api"), latency_ms=c.latency_ms, ok=c.ok,
                error=(c.error or "")[:2000])
        for c in calls
    ])
    by_purpose = dict(batch.tokens_by_purpose or {})
    for c in calls:
        entry = by_purpose.setdefault(c.purpose, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        entry["calls"] += 1
        entry["prompt_tokens"] += c.prompt_tokens
        entry["completion_tokens"] += c.completion_tokens
    batch.tokens_by_purpose = by_purpose
    batch.llm_call_count += len(calls)
    batch.prompt_tokens += sum(c.prompt_tokens for c in calls)
    batch.completion_tokens += sum(c.completion_tokens for c in calls)
    ConsolidationBatch.objects.filter(pk=batch.pk).update(
        tokens_by_purpose=batch.tokens_by_purpose, llm_call_count=batch.llm_call_count,
        prompt_tokens=batch.prompt_tokens, completion_tokens=batch.completion_tokens)


@transaction.atomic
def batch_fail(*, batch: ConsolidationBatch, error: str, timings_ms: dict | None = None) -> ConsolidationBatch:
    batch.status = ConsolidationBatch.Status.FAILED
    batch.error = error[:4000]
    batch.finished_at = timezone.now()
    batch.timings_ms = timings_ms or batch.timings_ms
    batch.save(update_fields=["status", "error", "finished_at", "timings_ms"])
    audit_record(action=AuditEvent.Action.CONSOLIDATE, object_type="consolidation_batch", object_id=batch.pk,
                 project_id=batch.project_id, actor_label="system:consolidation", batch=batch,
                 reason=f"failed: {error[:200]}")
    return batch


# --- rollback ----------------------------------------------------------------------


def _restore(obj, snapshot: dict) -> None:
    from datetime import datetime

    for key, value in snapshot.items():
        if key in ("superseded_by", "module"):
            setattr(obj, f"{key}_id", value or None)
        elif key in ("valid_from", "started_at", "ended_at"):
            setattr(obj, key, datetime.fromisoformat(value) if value else None)
        elif key != "version":
            setattr(obj, key, value)


@transaction.atomic
def batch_rollback(*, batch: ConsolidationBatch, actor_user=None, actor_agent: Agent | None = None,
                   reason: str = "") -> ConsolidationBatch:
    """Revert a whole consolidation batch (DESIGN §5): created items leave retrieval, changed and superseded items
    return to their state before the batch, merged episodes are restored, exchanges become unconsolidated.

    Changes that later batches made on top of this one are not undone (their own rollback does that).
    """
    from governance.models import ReviewItem
    from memory.models import (
        Candidate,
        Episode,
        EpisodeSource,
        Exchange,
        Experience,
        ExperienceEvidence,
        MemoryStatus,
        MemoryVersion,
    )

    batch = ConsolidationBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.status == ConsolidationBatch.Status.ROLLED_BACK:
        raise ValidationError({"batch": "batch is already rolled back"})
    if batch.status != ConsolidationBatch.Status.SUCCEEDED:
        raise ValidationError({"batch": f"only a succeeded batch can be rolled back (status {batch.status})"})
    now = timezone.now()
    counts = {}
    # Oldest snapshot per object wins: it is the state before this batch touched it.
    restored = 0
    seen: set[tuple[str, Any]] = set()
    for version in MemoryVersion.objects.filter(batch=batch).order_by("created_at"):
        target = version.episode or version.experience
        key = (type(target).__name__, target.pk)
        if key in seen:
            continue
        seen.add(key)
        target = type(target).objects.select_for_update().get(pk=target.pk)
        _restore(target, version.snapshot)
        target.version += 1
        target.updated_at = now
        target.save()
        restored += 1
    counts["restored"] = restored
    counts["episodes_removed"] = Episode.objects.filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    counts["experiences_removed"] = Experience.objects.filter(batch=batch).exclude(
        status=MemoryStatus.ROLLED_BACK).update(status=MemoryStatus.ROLLED_BACK, updated_at=now)
    # Links this batch added to items that stay (merges, dedup) go away with it.
    EpisodeSource.objects.filter(batch=batch).exclude(episode__batch=batch).delete()
    ExperienceEvidence.objects.filter(batch=batch).exclude(experience__batch=batch).delete()
    counts["exchanges_unconsolidated"] = Exchange.objects.filter(consolidated_batch=batch).update(
        state=Exchange.State.RAW, consolidated_batch=None)
    Candidate.objects.filter(batch=batch).update(status=Candidate.Status.DONE)
    ReviewItem.objects.filter(batch=batch, status=ReviewItem.Status.PENDING).update(
        status=ReviewItem.Status.REJECTED, decided_at=now, decision_reason="batch rolled back")
    batch.status = ConsolidationBatch.Status.ROLLED_BACK
    batch.rolled_back_at = now
    batch.save(update_fields=["status", "rolled_back_at"])
    audit_record(action=AuditEvent.Action.ROLLBACK, object_type="consolidation_batch", object_id=batch.pk,
                 project_id=batch.project_id, actor_user=actor_user, actor_agent=actor_agent, batch=batch,
                 reason=reason, data=counts)
    return batch


# --- review queue ----------------------------------------------------------------------


@transaction.atomic
def review_approve(*, item, user, edited_statement: str | None = None, reason: str = ""):
    """Approve a promotion: the rule becomes a project-scope experience (optionally edited); the proposing item
    is superseded by it, so search returns the project rule once."""
    from governance.models import ReviewItem
    from memory.gateways.embeddings import get_embedder
    from memory.models import Experience, ExperienceEvidence, MemoryStatus, Scope

    item = ReviewItem.objects.select_for_update().select_related("experience").get(pk=item.pk)
    if item.status != ReviewItem.Status.PENDING:
        raise ValidationError({"status": f"review item is already {item.status}"})
    source = item.experience
    statement = item.proposed_statement
    if edited_statement and edited_statement.strip() and edited_statement.strip() != statement:
        statement = texts_mask(project=item.project, texts=[edited_statement.strip()])[0]
    embedding = (source.embedding if statement == source.statement
                 else get_embedder().embed_one(f"{source.subject}: {statement}"))
    rule = Experience.objects.create(
        project_id=item.project_id, owner_agent_id=source.owner_agent_id, module=None, scope=Scope.PROJECT,
        type=source.type, subject=source.subject, statement=statement, embedding=embedding,
        embedding_model=source.embedding_model, confidence=max(source.confidence, 0.9), verified=True,
        valid_from=source.valid_from, episode=source.episode)
    ExperienceEvidence.objects.bulk_create(
        [ExperienceEvidence(experience=rule, exchange_id=ev.exchange_id) for ev in
         ExperienceEvidence.objects.filter(experience=source)], ignore_conflicts=True)
    if source.status == MemoryStatus.ACTIVE:
        from memory.services.consolidation import memory_version_save

        memory_version_save(obj=source, batch=None, reason="promoted")
        source.status, source.superseded_by = MemoryStatus.SUPERSEDED, rule
        source.version += 1
        source.save(update_fields=["status", "superseded_by", "version"])
    item.status = ReviewItem.Status.APPROVED
    item.decided_by, item.decided_at = user, timezone.now()
    item.decision_reason = reason
    item.approved_experience = rule
    item.save()
    audit_record(action=AuditEvent.Action.REVIEW, object_type="review_item", object_id=item.pk,
                 project_id=item.project_id, actor_user=user, scope="project", reason=reason or "approved",
                 source_ids=[source.pk, rule.pk],
                 data={"decision": "approved", "edited": statement != item.proposed_statement})
    return item


@transaction.atomic
def review_reject(*, item, user, reason: str):
    """Reject a promotion with a reason; the proposing item keeps its scope."""
    from governance.models import ReviewItem

    if not reason.strip():
        raise ValidationError({"reason": "a reason is required to reject"})
    item = ReviewItem.objects.select_for_update().get(pk=item.pk)
    if item.status != ReviewItem.Status.PENDING:
        raise ValidationError({"status": f"review item is already {item.status}"})
    item.status = ReviewItem.Status.REJECTED
    item.decided_by, item.decided_at, item.decision_reason = user, timezone.now(), reason
    item.save()
    audit_record(action=AuditEvent.Action.REVIEW, object_type="review_item", object_id=item.pk,
                 project_id=item.project_id, actor_user=user, reason=reason, data={"decision": "rejected"},
                 source_ids=[item.experience_id])
    return item
