"""Scopes and the one place that decides what an agent may see.

Every memory row (session, exchange, episode, experience) is *scoped*: ``personal`` (its owner agent only),
``module`` (the agents attached to its module) or ``project`` (every agent of the project). Reads go through
:meth:`ScopedQuerySet.visible_to`; a query that deliberately does not is named ``…_unscoped`` and says why.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from agents.models import Agent


class Scope(models.TextChoices):
    PERSONAL = "personal"
    MODULE = "module"
    PROJECT = "project"


@dataclass(frozen=True)
class Visibility:
    """What one agent may see: its project, itself, its modules."""

    project_id: uuid.UUID
    agent_id: uuid.UUID
    module_ids: frozenset[uuid.UUID]


def agent_visibility(*, agent: Agent) -> Visibility:
    module_ids = frozenset(agent.modules.values_list("id", flat=True))
    return Visibility(project_id=agent.project_id, agent_id=agent.id, module_ids=module_ids)


@dataclass(frozen=True)
class ScopeKey:
    """One scope exactly: a project's personal space of one agent, one module, or the project itself."""

    project_id: uuid.UUID
    scope: str
    owner_agent_id: uuid.UUID | None = None
    module_id: uuid.UUID | None = None

    @classmethod
    def of(cls, obj: Any) -> ScopeKey:
        """The scope a scoped row (or anything with project_id, scope, owner_agent_id, module_id) lives in."""
        return cls.for_scope(project_id=obj.project_id, scope=obj.scope, owner_agent_id=obj.owner_agent_id,
                             module_id=obj.module_id)

    @classmethod
    def for_scope(cls, *, project_id, scope: str, owner_agent_id=None, module_id=None) -> ScopeKey:
        if scope == Scope.PERSONAL:
            return cls(project_id=project_id, scope=Scope.PERSONAL, owner_agent_id=owner_agent_id)
        if scope == Scope.MODULE:
            return cls(project_id=project_id, scope=Scope.MODULE, module_id=module_id)
        return cls(project_id=project_id, scope=Scope.PROJECT)

    def q(self) -> Q:
        q = Q(project_id=self.project_id, scope=self.scope)
        if self.scope == Scope.PERSONAL:
            q &= Q(owner_agent_id=self.owner_agent_id)
        elif self.scope == Scope.MODULE:
            q &= Q(module_id=self.module_id)
        return q


def visibility_q(visibility: Visibility, *, prefix: str = "") -> Q:
    """A Q restricting a scoped model (fields project, scope, owner_agent, module) to what is visible:
    personal to its owner, module to the module's members, project to everyone in the project."""
    p = f"{prefix}__" if prefix else ""
    return Q(**{f"{p}project_id": visibility.project_id}) & (
        Q(**{f"{p}scope": Scope.PERSONAL, f"{p}owner_agent_id": visibility.agent_id})
        | Q(**{f"{p}scope": Scope.MODULE, f"{p}module_id__in": list(visibility.module_ids)})
        | Q(**{f"{p}scope": Scope.PROJECT})
    )


class ScopedQuerySet(models.QuerySet):
    def visible_to(self, agent: Agent | Visibility) -> ScopedQuerySet:
        """What ``agent`` may see (pass a :class:`Visibility` to reuse one computed for several queries)."""
        visibility = agent if isinstance(agent, Visibility) else agent_visibility(agent=agent)
        return self.filter(visibility_q(visibility))

    def in_scope(self, key: ScopeKey) -> ScopedQuerySet:
        """Rows of exactly one scope. Narrower than any agent's visibility: consolidation compares, merges and
        writes within one scope, never across."""
        return self.filter(key.q())

    def owned_by(self, agent: Agent) -> ScopedQuerySet:
        """Rows the agent owns, whatever their scope (only the owner writes to a session)."""
        return self.filter(project_id=agent.project_id, owner_agent_id=agent.pk)

    def all_scopes_unscoped(self, *, why: str) -> ScopedQuerySet:
        """Every row, in every scope and project: for system acts that are not an agent's read (rollback of a
        batch, operator commands). ``why`` is required so each call site says why visibility does not apply."""
        if not why.strip():
            raise ValueError("say why this query is not restricted to what an agent may see")
        return self.all()
