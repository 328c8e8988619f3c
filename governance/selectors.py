"""Governance reads: the pseudonym registry (keyed digests, never originals)."""

from __future__ import annotations

from collections.abc import Iterable

from agents.models import Project
from governance.models import PrivacyPolicy, PseudonymEntry


def pseudonyms_registered(*, project: Project, placeholders: Iterable[str]) -> set[str]:
    """Which of ``placeholders`` the masking gateway wrote for ``project``."""
    return set(PseudonymEntry.objects.filter(project=project, placeholder__in=list(placeholders))
               .values_list("placeholder", flat=True))


def pseudonyms_by_digest(*, project: Project, digests: Iterable[str]) -> dict[str, str]:
    """digest → placeholder for the registered ones among ``digests`` (see :func:`pseudonym_lookup`)."""
    return dict(PseudonymEntry.objects.filter(project=project, digest__in=list(digests))
                .values_list("digest", "placeholder"))


def pseudonym_lookup(*, project: Project, entity_type: str, value: str) -> str | None:
    """The placeholder ``value`` got in ``project`` as ``entity_type``, if the gateway ever pseudonymised it.

    The lookup key is the keyed digest (HMAC under the project's key of the type and the normalised value), so the
    registry answers without holding the value; without the project's key nobody can test a guess against it."""
    from governance.privacy.engine import pseudonym_digest

    policy = PrivacyPolicy.objects.filter(project=project).first()
    if policy is None:  # nothing was ever masked in this project
        return None
    digest = pseudonym_digest(entity_type, value, bytes.fromhex(policy.hmac_key))
    return pseudonyms_by_digest(project=project, digests=[digest]).get(digest)
