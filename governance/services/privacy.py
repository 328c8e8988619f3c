"""Privacy writes: the project's masking policy, masking with the vault of originals, audited reveals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from agents.models import Project
from core.batching import Coalescer
from core.config import config
from core.errors import ApplicationError, NotAllowed, NotFound
from core.tracing import traced
from governance.models import AuditEvent, PrivacyPolicy, VaultEntry
from governance.services.audit import audit_record

# ``masker(texts, *, policy, key) -> [MaskResult]``: the engine's ``mask_many`` unless a caller passes another
# (the scale benchmark memoises it per text during a fast fill).
Masker = Callable[..., list[Any]]


def _mask_many_batch(key: tuple, texts: list[str]) -> list[Any]:
    from governance.privacy.engine import mask_many

    policy, hmac_key = key
    return mask_many(texts, policy=policy, key=hmac_key)


# Concurrent requests of one process with the same policy and key are analysed in one spaCy pass (issue 19).
_MASKING = Coalescer(_mask_many_batch)


def mask_coalesced(texts: Sequence[str], *, policy: Any, key: bytes) -> list[Any]:
    """The engine's ``mask_many``, shared with the concurrent callers of this process (``core.batching``)."""
    return _MASKING((policy, key), texts)


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


@traced("recmem.mask", attributes=lambda kw: {"recmem.texts": len(kw["texts"])})
def texts_mask(*, project: Project, texts: Sequence[str], masker: Masker | None = None) -> list[str]:
    """Mask PII and secrets in ``texts`` with the project's policy; keep encrypted originals in the vault.

    The only way text enters memory: the raw text never reaches the database, the embedder or an LLM.
    """
    from governance.privacy.vault import encrypt_value

    if not texts:
        return []
    policy = privacy_policy_get(project=project)
    results = (masker or mask_coalesced)(list(texts), policy=_masking_policy(policy),
                                         key=bytes.fromhex(policy.hmac_key))
    vault_key = config().vault_key
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


@traced("recmem.mask", attributes=lambda kw: {"recmem.values": len(kw["values"])})
def json_mask(*, project: Project, values: Sequence[Any], masker: Masker | None = None) -> list[Any]:
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
    masked = iter(texts_mask(project=project, texts=strings, masker=masker))

    def rebuild(value: Any) -> Any:
        if isinstance(value, str):
            return next(masked)
        if isinstance(value, dict):
            return {k: rebuild(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rebuild(v) for v in value]
        return value

    return [rebuild(v) for v in values]


def vault_reveal(*, project: Project, placeholder: str, user, reason: str) -> str:
    """The original value behind ``placeholder``; needs the reveal permission, and every reveal is audited —
    a refused one too (``reveal_refused``, with why), in its own transaction so the refusal cannot roll it back."""
    try:
        return _vault_reveal(project=project, placeholder=placeholder, user=user, reason=reason)
    except ApplicationError as exc:
        audit_record(action=AuditEvent.Action.REVEAL_REFUSED, object_type="vault_entry", project=project,
                     actor_user=user if getattr(user, "pk", None) else None, reason=reason,
                     data={"placeholder": placeholder, "refused": exc.code})
        raise


@transaction.atomic
def _vault_reveal(*, project: Project, placeholder: str, user, reason: str) -> str:
    from governance.privacy.vault import decrypt_value

    if not user.has_perm("governance.reveal_vaultentry"):
        raise NotAllowed("revealing needs the 'reveal_vaultentry' permission", code="permission_denied")
    if not reason.strip():
        raise ApplicationError("a reason is required to reveal a value", code="reason_required")
    if not config().vault_key:
        raise ApplicationError("no RECMEM_VAULT_KEY configured: placeholders are irreversible", code="no_vault_key")
    entry = VaultEntry.objects.filter(project=project, placeholder=placeholder).first()
    if entry is None:
        raise NotFound("no vault entry for this placeholder")
    value = decrypt_value(entry.ciphertext, config().vault_key)
    audit_record(action=AuditEvent.Action.REVEAL, object_type="vault_entry", object_id=entry.pk, project=project,
                 actor_user=user, reason=reason, data={"placeholder": placeholder})
    return value
