"""Reads for agents and keys (what an agent may see is decided in :mod:`agents.visibility`)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.keys import key_matches, key_parse_prefix
from agents.models import Agent, ApiKey, Module
from core.errors import NotFound


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
    if api_key.agent.project.archived_at is not None:
        raise KeyRejected("project archived", "project_archived")
    return api_key


def agent_get_by_name(*, project_name: str, name: str) -> Agent | None:
    return Agent.objects.select_related("project").filter(project__name=project_name, name=name).first()


def api_key_get_by_prefix(*, prefix: str) -> ApiKey | None:
    return ApiKey.objects.select_related("agent", "agent__project").filter(prefix=prefix).first()


def agent_modules(*, agent: Agent) -> QuerySet[Module]:
    return agent.modules.all().order_by("name")


def agent_module_get(*, agent: Agent, name_or_id: str) -> Module:
    """One of the agent's modules, by name or id; anything else (another agent's module included) is refused."""
    found = next((m for m in agent.modules.all() if m.name == name_or_id or str(m.pk) == name_or_id), None)
    if found is None:
        # Like every object the agent may not see: 404 (another agent's module looks like no module at all).
        raise NotFound("unknown module (not one of the agent's modules)", code="unknown_module")
    return found


def agent_in_project_get(*, project_id: Any, name_or_id: str) -> Agent:
    """An agent of the project by name or id; anything else (another project's agent included) is refused."""
    rows = Agent.objects.filter(project_id=project_id)
    try:
        found = rows.filter(Q(name=name_or_id) | Q(pk=uuid.UUID(name_or_id))).first()
    except ValueError:
        found = rows.filter(name=name_or_id).first()
    if found is None:
        raise NotFound("unknown agent (not one of the project's agents)", code="agent_not_found")
    return found
