"""Privacy writes: the project's masking policy, masking with the vault of originals, audited reveals."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from django.db import transaction

from agents.models import Project
from core.batching import Coalescer
from core.config import config
from core.errors import ApplicationError, NotAllowed, NotFound
from core.tracing import traced
from governance.models import AllowedTerm, AuditEvent, AuditObject, PrivacyPolicy, PseudonymEntry, VaultEntry
from governance.services.audit import audit_record

# ``masker(texts, *, policy, key, known_placeholders) -> [MaskResult]``: the engine's ``mask_many`` unless a caller
# passes another (the scale benchmark memoises it per text during a fast fill).
Masker = Callable[..., list[Any]]


def _mask_many_batch(key: tuple, items: list[tuple[str, Any]]) -> list[Any]:
    from governance.privacy.engine import mask_many

    policy, hmac_key, _ = key
    # One project per batch (the key holds its HMAC key), so any caller's registry answers for all of them.
    return mask_many([text for text, _ in items], policy=policy, key=hmac_key, known_placeholders=items[0][1])


# Concurrent requests of one process with the same policy and key are analysed in one spaCy pass: the pass's fixed cost
# is paid once for all of them.
_MASKING = Coalescer(_mask_many_batch)


def mask_coalesced(texts: Sequence[str], *, policy: Any, key: bytes,
                   known_placeholders: Callable[[set[str]], Any] | None = None) -> list[Any]:
    """The engine's ``mask_many``, shared with the concurrent callers of this process (``core.batching``)."""
    return _MASKING((policy, key, known_placeholders is None), [(text, known_placeholders) for text in texts])


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
                         never_mask=default.never_mask, score_threshold=policy.score_threshold,
                         phone_region=policy.phone_region or config().privacy.phone_region,
                         allowed_terms=allowed_terms_of(project_id=policy.project_id))


def allowed_terms_of(*, project_id: Any) -> frozenset[str]:
    """The project's allowed terms, normalised (case-folded, whitespace collapsed)."""
    return frozenset(_term_key(t) for t in AllowedTerm.objects.filter(project_id=project_id)
                     .values_list("term", flat=True))


def _term_key(term: str) -> str:
    from governance.privacy.normalise import normalise

    return " ".join(normalise(term).text.split()).casefold()


@transaction.atomic
def allowed_term_add(*, project: Project, term: str, user=None, actor_label: str = "") -> AllowedTerm:
    """Allow ``term`` for the project: never masked as a name, place or group again (audited)."""
    key = _term_key(term)
    if not key or len(key) > 200:
        raise ApplicationError("a term is 1-200 characters", code="invalid_term")
    entry, created = AllowedTerm.objects.get_or_create(project=project, term=key)
    if created:
        audit_record(action=AuditEvent.Action.CREATE, object_type=AuditObject.ALLOWED_TERM, object_id=entry.pk,
                     project=project, actor_user=user if getattr(user, "pk", None) else None,
                     actor_label=actor_label, data={"term": key})
    return entry


@transaction.atomic
def allowed_term_remove(*, project: Project, term: str, user=None, actor_label: str = "") -> bool:
    """Withdraw an allowed term (audited); False when it was not allowed."""
    key = _term_key(term)
    entry = AllowedTerm.objects.filter(project=project, term=key).first()
    if entry is None:
        return False
    pk = entry.pk
    entry.delete()
    audit_record(action=AuditEvent.Action.DELETE, object_type=AuditObject.ALLOWED_TERM, object_id=pk, project=project,
                 actor_user=user if getattr(user, "pk", None) else None, actor_label=actor_label,
                 data={"term": key})
    return True


def _registered(project: Project) -> Callable[[set[str]], Any]:
    """The pseudonym registry as the engine asks it: which of these keyed placeholders did the gateway write?"""
    def known(placeholders: set[str]):
        return PseudonymEntry.objects.filter(project=project, placeholder__in=sorted(placeholders)).values_list(
            "placeholder", flat=True)
    return known


@traced("recmem.mask", attributes=lambda kw: {"recmem.texts": len(kw["texts"])})
def texts_mask(*, project: Project, texts: Sequence[str], masker: Masker | None = None,
               conversation_before: Sequence[str] | None = None, conversation: Sequence[str] = ()) -> list[str]:
    """Mask PII and secrets in ``texts`` with the project's policy; register the pseudonyms and keep encrypted
    originals of non-secret values in the vault.

    The only way text enters memory: the raw text never reaches the database, the embedder or an LLM. A placeholder
    in the input is left alone only when the gateway wrote it for this project (the registry); anything else in
    angle brackets is analysed. With ``conversation_before`` (the session's last stored texts, oldest first, possibly
    empty) ``texts`` are consecutive turns of one session, and the tail of a secret split across turns is masked
    too (:func:`governance.privacy.engine.continue_secrets`). ``conversation`` (the session's recent stored texts)
    is where a name masked once is the same name again even when it is also a technology word ("a puppy named
    Shadow", then "Shadow already sits": :func:`governance.privacy.gazetteer.registered_spans`).
    """

    if not texts:
        return []
    policy = privacy_policy_get(project=project)
    results = (masker or mask_coalesced)(list(texts), policy=_masking_policy(policy),
                                         key=policy.pseudonym_key, known_placeholders=_registered(project))
    if conversation_before is not None:
        results = _continued(list(texts), results, conversation_before)
    _remember(project=project, policy=policy, results=results)
    _remember_secrets(project=project, key=policy.pseudonym_key, texts=texts, results=results)
    masked = _aliased(project=project, results=results)
    masked = _registered_secrets(project=project, key=policy.pseudonym_key, texts=masked)
    masked = _registered_phones(project=project, key=policy.pseudonym_key, texts=masked)
    if config().privacy.registry_gazetteer and policy.pseudonymise_entities:
        masked = _registered_values(project=project, policy=policy, texts=masked, conversation=conversation)
    return masked


def _registered_values(*, project: Project, policy: PrivacyPolicy, texts: list[str],
                       conversation: Sequence[str] = ()) -> list[str]:
    """One name, one placeholder: values pseudonymised before in the project (this call's texts included) get
    their placeholder wherever they appear again, also where the NER model missed them (keyed digests only)."""
    from governance.privacy.gazetteer import apply_registered
    from governance.selectors import pseudonyms_by_digest

    return apply_registered(texts, entity_types=policy.pseudonymise_entities, key=policy.pseudonym_key,
                            lookup=lambda digests: pseudonyms_by_digest(project=project, digests=digests),
                            allowed=allowed_terms_of(project_id=project.pk), conversation=conversation)


# A secret masked once (after its label, by its shape) is masked wherever the same value comes back without either,
# in a later request or another session: "the staging admin password is x", then "staging admin uses x". Kept as
# the pseudonym registry keeps names: a keyed digest (the project's key lives outside the database), never the value.
_SECRET_TOKEN_RE = re.compile(r"[^\s\"'`<>()\[\]{},;|]{8,200}")
_TRAILING = ".,:;!?)"


def _secret_like(value: str) -> bool:
    """Eight characters or more that read as a chosen password (:func:`password_like`: a digit, a symbol or an inner
    capital): a word of the language is never registered, so a password that is one ("sunshine", "Sunshine") cannot
    erase that word from every later text."""
    from governance.privacy.recognizers.secret_base import password_like

    return " " not in value and password_like(value, min_len=8)


def _remember_secrets(*, project: Project, key: bytes, texts: Sequence[str], results: Sequence[Any]) -> None:
    from governance.privacy.engine import pseudonym_digest

    rows: dict[str, str] = {}
    for text, result in zip(texts, results, strict=True):
        for entity in result.entities:
            if entity.is_secret and entity.end <= len(text or ""):
                value = text[entity.start : entity.end].strip().rstrip(_TRAILING)
                if _secret_like(value):
                    rows[pseudonym_digest(PseudonymEntry.SECRET, value, key)] = entity.placeholder
    if rows:
        PseudonymEntry.objects.bulk_create(
            [PseudonymEntry(project=project, entity_type=PseudonymEntry.SECRET, placeholder=ph, digest=d,
                            confident=True) for d, ph in rows.items()], ignore_conflicts=True)


def _registered_secrets(*, project: Project, key: bytes, texts: list[str]) -> list[str]:
    def secrets(text: str) -> Iterator[tuple[int, int]]:
        for m in _SECRET_TOKEN_RE.finditer(text):
            value = m.group(0).rstrip(_TRAILING)
            if _secret_like(value) and not value.startswith("<"):
                yield m.start(), m.start() + len(value)
    return _reapplied(project=project, key=key, texts=texts, entity_type=PseudonymEntry.SECRET, spans=secrets)


def _reapplied(*, project: Project, key: bytes, texts: list[str], entity_type: str,
               spans: Callable[[str], Iterable[tuple[int, int]]]) -> list[str]:
    """``texts`` with each span (``spans``) whose value the registry holds under ``entity_type`` replaced by its
    placeholder (keyed digests only)."""
    from governance.privacy.engine import pseudonym_digest

    candidates: list[list[tuple[int, int, str]]] = []
    for text in texts:
        candidates.append([(start, end, pseudonym_digest(entity_type, text[start:end], key))
                           for start, end in spans(text or "")])
    digests = {d for found in candidates for _, _, d in found}
    if not digests:
        return texts
    known = dict(PseudonymEntry.objects.filter(project=project, entity_type=entity_type,
                                               digest__in=sorted(digests)).values_list("digest", "placeholder"))
    if not known:
        return texts
    out = []
    for text, found in zip(texts, candidates, strict=True):
        for start, end, digest in reversed(found):
            if digest in known:
                text = text[:start] + known[digest] + text[end:]
        out.append(text)
    return out


# A phone number given once with its country code comes back in its national form ("+44 7400 908958", later
# "07400 908958, she prefers texts" with no phone word): the national form of a number registered with its code is
# registered beside it (a keyed digest, the same placeholder), and the phone-shaped runs of later texts are looked up.


def _aliased(*, project: Project, results: Sequence[Any]) -> list[str]:
    """The masked texts, each value under the placeholder the registry first gave it: a phone number's national form
    is registered with the placeholder of the number written with its country code, and the engine, which sees the
    national form alone, derives another from it."""
    # only a phone number has such a second row: no registry read for a request without one
    placeholders = {e.digest: e.placeholder for r in results for e in r.entities
                    if e.digest and e.entity_type == "PHONE_NUMBER"}
    texts = [r.text for r in results]
    if not placeholders:
        return texts
    first = {placeholders[d]: ph for d, ph in PseudonymEntry.objects.filter(
        project=project, digest__in=sorted(placeholders)).values_list("digest", "placeholder") if ph != placeholders[d]}
    for mine, theirs in first.items():
        texts = [t.replace(mine, theirs) for t in texts]
    return texts


def _registered_phones(*, project: Project, key: bytes, texts: list[str]) -> list[str]:
    from governance.privacy.recognizers.numbers import phone_spans

    return _reapplied(project=project, key=key, texts=texts, entity_type="PHONE_NUMBER", spans=phone_spans)


def _continued(texts: list[str], results: list[Any], before: Sequence[str]) -> list[Any]:
    from governance.privacy.engine import continue_secrets, conversation_windows

    chain = [i for i, t in enumerate(texts) if t and t.strip()]  # an empty side does not break a chain
    windows: list[list[int | str] | None] = [None] * len(texts)
    for position, refs in enumerate(conversation_windows(len(chain), before=[b for b in before if b])):
        windows[chain[position]] = [chain[r] if isinstance(r, int) else r for r in refs]
    return continue_secrets(texts, results, windows)


def _remember(*, project: Project, policy: PrivacyPolicy, results: Sequence[Any]) -> None:
    """Register every keyed placeholder (digest, no original) and vault the originals; never a secret."""
    entries: dict[str, Any] = {}
    for result in results:
        for entity in result.entities:
            if entity.is_secret:
                continue
            if entity.placeholder not in entries or (entity.confident and not entries[entity.placeholder].confident):
                entries[entity.placeholder] = entity
    if not entries:
        return
    from governance.privacy.engine import pseudonym_digest
    from governance.privacy.recognizers.numbers import national_forms

    # first, so that a number given in both forms in one request keeps the placeholder of the one with its code
    national = [PseudonymEntry(project=project, entity_type="PHONE_NUMBER", placeholder=ph, confident=e.confident,
                               digest=pseudonym_digest("PHONE_NUMBER", form, policy.pseudonym_key))
                for ph, e in entries.items() if e.entity_type == "PHONE_NUMBER" for form in national_forms(e.original)]
    if national:
        PseudonymEntry.objects.bulk_create(national, ignore_conflicts=True)
    PseudonymEntry.objects.bulk_create(
        [PseudonymEntry(project=project, entity_type=e.entity_type, placeholder=ph, digest=e.digest,
                        confident=e.confident)
         for ph, e in entries.items() if e.digest],
        ignore_conflicts=True,
    )
    # a value first guessed by the model alone and now masked with strong evidence becomes re-appliable
    sure = [e.digest for e in entries.values() if e.digest and e.confident]
    if sure:
        PseudonymEntry.objects.filter(project=project, digest__in=sure, confident=False).update(confident=True)
    vault_key = config().privacy.vault_key
    if policy.vault_enabled and vault_key:
        from governance.privacy.vault import encrypt_value

        known = set(VaultEntry.objects.filter(project=project, placeholder__in=list(entries))
                    .values_list("placeholder", flat=True))
        VaultEntry.objects.bulk_create(
            [VaultEntry(project=project, placeholder=ph, entity_type=e.entity_type,
                        ciphertext=encrypt_value(e.original, vault_key))
             for ph, e in entries.items() if ph not in known],
            ignore_conflicts=True,
        )


@traced("recmem.mask", attributes=lambda kw: {"recmem.values": len(kw["values"])})
def json_mask(*, project: Project, values: Sequence[Any], masker: Masker | None = None,
              conversation_before: Sequence[str] | None = None, conversation: Sequence[str] = ()) -> list[Any]:
    """Mask JSON values (metadata): agent input like any other text — object keys as well as values, and values of
    every JSON type. Numbers and booleans are analysed as their JSON text (a card number sent as a number is still
    a card number) and replaced by the masked text only when masking changes them; ``null`` carries nothing. Two
    keys that mask to the same text are both kept (the second gets a `` (2)`` suffix): nothing is lost. With
    ``conversation_before`` (masked texts the values came with) the strings are read as one chain after those of the
    texts that leave a secret open, so the tail of a key split between a text and its metadata (or between two
    metadata values) is masked too; ``conversation`` as for :func:`texts_mask`."""
    strings: list[str] = []
    if conversation_before is not None:
        from governance.privacy.engine import CONTINUATION_WINDOW, open_secret

        conversation_before = [t for t in conversation_before if open_secret(t)][-CONTINUATION_WINDOW:]

    def scalar_text(value: Any) -> str | None:
        if isinstance(value, str):
            return value
        if isinstance(value, bool | int | float):
            return json.dumps(value)
        return None

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                strings.append(str(key))
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        else:
            text = scalar_text(value)
            if text is not None:
                strings.append(text)

    for value in values:
        collect(value)
    if not strings:
        return list(values)
    masked = iter(texts_mask(project=project, texts=strings, masker=masker, conversation_before=conversation_before,
                             conversation=conversation))

    def rebuild(value: Any) -> Any:
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for _key, item in value.items():
                new_key = next(masked)
                item = rebuild(item)
                unique, n = new_key, 2
                while unique in out:
                    unique, n = f"{new_key} ({n})", n + 1
                out[unique] = item
            return out
        if isinstance(value, list):
            return [rebuild(v) for v in value]
        text = scalar_text(value)
        if text is None:
            return value
        result = next(masked)
        return value if result == text else result

    return [rebuild(v) for v in values]


def drafts_remask(*, project: Project, episodes: Sequence[Any], items: Sequence[Any]) -> None:
    """Mask what consolidation is about to write (episode titles and narratives, experience subjects and
    statements), in place, before it is embedded or stored: a rewriter can turn an encoded value it read into its
    plain form, and an LLM can decode one. The gateway's own placeholders pass through unchanged."""
    fields = [(d, name) for d in episodes for name in ("title", "narrative")]
    fields += [(d, name) for d in items for name in ("subject", "statement")]
    todo = [(d, name) for d, name in fields if getattr(d, name, None)]
    if not todo:
        return
    masked = texts_mask(project=project, texts=[getattr(d, name) for d, name in todo])
    for (d, name), text in zip(todo, masked, strict=True):
        setattr(d, name, text)


def vault_reveal(*, project: Project, placeholder: str, user, reason: str) -> str:
    """The original value behind ``placeholder``; needs the vault's view and reveal permissions and a reason, and every
    reveal is audited — a refused one too (``reveal_refused``, with why), in its own transaction so the refusal cannot
    roll it back."""
    try:
        return _vault_reveal(project=project, placeholder=placeholder, user=user, reason=reason)
    except ApplicationError as exc:
        audit_record(action=AuditEvent.Action.REVEAL_REFUSED, object_type=AuditObject.VAULT_ENTRY, project=project,
                     actor_user=user if getattr(user, "pk", None) else None, reason=reason,
                     data={"placeholder": placeholder, "refused": exc.code})
        raise


@transaction.atomic
def _vault_reveal(*, project: Project, placeholder: str, user, reason: str) -> str:
    from governance.privacy.vault import decrypt_value

    if not (user.has_perm("governance.view_vaultentry") and user.has_perm("governance.reveal_vaultentry")):
        raise NotAllowed("revealing needs the 'view_vaultentry' and 'reveal_vaultentry' permissions",
                         code="permission_denied")
    if not reason.strip():
        raise ApplicationError("a reason is required to reveal a value", code="reason_required")
    if not config().privacy.vault_key:
        raise ApplicationError("no RECMEM_VAULT_KEY configured: placeholders are irreversible", code="no_vault_key")
    entry = VaultEntry.objects.filter(project=project, placeholder=placeholder).first()
    if entry is None:
        raise NotFound("no vault entry for this placeholder")
    value = decrypt_value(entry.ciphertext, config().privacy.vault_key)
    audit_record(action=AuditEvent.Action.REVEAL, object_type=AuditObject.VAULT_ENTRY, object_id=entry.pk,
                 project=project, actor_user=user, reason=reason, data={"placeholder": placeholder})
    return value


@transaction.atomic
def subject_forget(*, project: Project, placeholders: set[str]) -> dict[str, int]:
    """A purge's part in governance: the vault entries and registry rows behind ``placeholders`` are deleted (the
    original can no longer be revealed; the same value masked again gets the same placeholder, keyed, not stored)."""
    vault, _ = VaultEntry.objects.filter(project=project, placeholder__in=placeholders).delete()
    registry, _ = PseudonymEntry.objects.filter(project=project, placeholder__in=placeholders).delete()
    return {"vault_entries_deleted": vault, "registry_entries_deleted": registry}
