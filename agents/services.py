"""Writes for projects, modules, agents and API keys.

These are the primitives: agents sits below governance and cannot write audit events itself, so every caller that
acts for a person (management commands, the admin, ``recmem run``) goes through the audited wrappers of
``governance.services.agent_admin`` instead."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from agents.keys import key_generate, key_hash
from agents.models import Agent, AgentRole, ApiKey, Module, Project
from core.errors import ApplicationError, Conflict


@dataclass(frozen=True)
class IssuedKey:
    """A freshly created key: ``raw_key`` exists only here, never in the database."""

    api_key: ApiKey
    raw_key: str


@transaction.atomic
def project_get_or_create(*, name: str) -> Project:
    """The project called ``name``, created when missing."""
    name = name.strip()
    if not name:
        raise ApplicationError("project name must not be empty", code="invalid_name")
    project, _ = Project.objects.get_or_create(name=name)
    return project


@transaction.atomic
def module_get_or_create(*, project: Project, name: str) -> Module:
    """The module ``name`` of ``project``, created when missing."""
    name = name.strip()
    if not name:
        raise ApplicationError("module name must not be empty", code="invalid_name")
    module, _ = Module.objects.get_or_create(project=project, name=name)
    return module


def _validate_roles(roles: Iterable[str]) -> list[str]:
    roles = list(dict.fromkeys(r.strip() for r in roles if r.strip()))
    unknown = [r for r in roles if r not in AgentRole.values]
    if unknown:
        raise ApplicationError(f"unknown roles {unknown}; known: {sorted(AgentRole.values)}", code="unknown_role")
    return roles


@transaction.atomic
def agent_create(
    *,
    project_name: str,
    name: str,
    module_names: Iterable[str] = (),
    roles: Iterable[str] = (AgentRole.WRITER, AgentRole.READER),
) -> Agent:
    """Create an agent in ``project_name`` (project and modules are created when missing)."""
    project = project_get_or_create(name=project_name)
    name = name.strip()
    if not name:
        raise ApplicationError("agent name must not be empty", code="invalid_name")
    if Agent.objects.filter(project=project, name=name).exists():
        raise Conflict(f"agent {name!r} already exists in project {project.name!r}", code="duplicate_agent")
    agent = Agent.objects.create(project=project, name=name, roles=_validate_roles(roles))
    modules = [module_get_or_create(project=project, name=m) for m in module_names]
    if modules:
        agent.modules.set(modules)
    return agent


@transaction.atomic
def agent_roles_update(*, agent: Agent, roles: Iterable[str]) -> list[str]:
    """Replace ``agent``'s roles; returns the roles it had before (audited by the callers above: see
    governance.services.agent_admin)."""
    new_roles = _validate_roles(roles)
    if not new_roles:
        raise ApplicationError("an agent needs at least one role", code="invalid_roles")
    before = list(agent.roles)
    if new_roles != before:
        agent.roles = new_roles
        agent.save(update_fields=["roles"])
    return before


@transaction.atomic
def api_key_create(*, agent: Agent, name: str = "", expires_at: datetime | None = None) -> IssuedKey:
    """Issue a new key for ``agent``; the raw key is returned once and only its digest is stored."""
    if expires_at is not None and expires_at <= timezone.now():
        raise ApplicationError("expiry must be in the future", code="invalid_expiry")
    raw_key, prefix = key_generate()
    while ApiKey.objects.filter(prefix=prefix).exists():  # 62^8 prefixes: a clash is rare but possible
        raw_key, prefix = key_generate()
    api_key = ApiKey.objects.create(agent=agent, name=name, prefix=prefix, key_hash=key_hash(raw_key),
                                    expires_at=expires_at)
    return IssuedKey(api_key=api_key, raw_key=raw_key)


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """Revoke a key (idempotent); revoked keys answer 401."""
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at"])
    return api_key


def api_key_touch(*, api_key: ApiKey) -> None:
    """Record use, at most once a minute per key (avoids a write on every request)."""
    now = timezone.now()
    if api_key.last_used_at is None or (now - api_key.last_used_at).total_seconds() > 60:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now


@transaction.atomic
def project_archive(*, project: Project) -> Project:
    """Archive instead of delete (a project with an audit trail cannot be deleted): its keys answer 401."""
    if project.archived_at is None:
        project.archived_at = timezone.now()
        project.save(update_fields=["archived_at"])
    return project
