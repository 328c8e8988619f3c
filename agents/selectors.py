"""Reads for agents and keys, and the one place that decides what an agent may see."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.keys import key_matches, key_parse_prefix
from agents.models import Agent, ApiKey, Module


class KeyRejected(Exception):
    """Why a presented key was refused; the message is safe to show to the caller."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def api_key_authenticate(*, raw_key: str) -> ApiKey:
    """The active key for ``raw_key`` (with its agent and project loaded) or KeyRejected."""
    prefix = key_parse_prefix(raw_key)
    if prefix is None:
        raise KeyRejected("malformed API key", "malformed_key")
    api_key = ApiKey.objects.select_related("agent", "agent__project").filter(prefix=prefix).first()
    if api_key is None or not key_matches(raw_key, api_key.key_hash):
        raise KeyRejected("unknown API key", "unknown_key")
    if api_key.is_revoked:
        raise KeyRejected("API key revoked", "revoked_key")
    if api_key.is_expired(timezone.now()):
        raise KeyRejected("API key expired", "expired_key")
    if not api_key.agent.is_active:
        raise KeyRejected("agent disabled", "agent_disabled")
    return api_key


def agent_get_by_name(*, project_name: str, name: str) -> Agent | None:
    return Agent.objects.select_related("project").filter(project__name=project_name, name=name).first()


def api_key_get_by_prefix(*, prefix: str) -> ApiKey | None:
    return ApiKey.objects.select_related("agent", "agent__project").filter(prefix=prefix).first()


def agent_modules(*, agent: Agent) -> QuerySet[Module]:
    return agent.modules.all().order_by("name")


@dataclass(frozen=True)
class Visibility:
    """What one agent may see: its project, itself, its modules.

    Every read of memory goes through :func:`visibility_filter`; nothing else decides visibility.
    """

    project_id: uuid.UUID
    agent_id: uuid.UUID
    module_ids: frozenset[uuid.UUID]


def agent_visibility(*, agent: Agent) -> Visibility:
    module_ids = frozenset(agent.modules.values_list("id", flat=True))
    return Visibility(project_id=agent.project_id, agent_id=agent.id, module_ids=module_ids)


def visibility_filter(visibility: Visibility, *, prefix: str = "") -> Q:
    """A Q object restricting a scoped model (fields project, scope, owner_agent, module) to what is visible.

    personal: owner only; module: members of the module; project: everyone in the project.
    """
    p = f"{prefix}__" if prefix else ""
    return Q(**{f"{p}project_id": visibility.project_id}) & (
        Q(**{f"{p}scope": "personal", f"{p}owner_agent_id": visibility.agent_id})
        | Q(**{f"{p}scope": "module", f"{p}module_id__in": list(visibility.module_ids)})
        | Q(**{f"{p}scope": "project"})
    )
