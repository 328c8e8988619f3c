"""Scopes and the one place that decides what an agent may see.

Every memory row (session, exchange, episode, experience) is *scoped*: ``personal`` (its owner agent only),
``module`` (the agents attached to its module) or ``project`` (every agent of the project). Reads go through
:meth:`ScopedQuerySet.visible_to`; a query that deliberately does not is named ``…_unscoped`` and says why.

The scope rule (what consolidation may write) lives here too: a scope is *narrower* than another when everyone who
may see the first may also see the second (personal to X ⊑ module m when X is a member of m ⊑ project). Sources
may be merged only when their scopes are pairwise comparable (a chain), and what is written from them lives in the
narrowest one (:func:`scope_narrowest`), so its readers may see every source. Scopes widen only through review.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from agents.models import Agent


class Scope(models.TextChoices):
    PERSONAL = "personal"
    MODULE = "module"
    PROJECT = "project"


T = TypeVar("T")


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


def scope_narrower_or_equal(a: ScopeKey, b: ScopeKey, *, visibility: Visibility) -> bool:
    """Whether everyone who may see scope ``a`` may also see scope ``b``. ``visibility`` is the agent whose personal
    scope is involved: its modules decide personal ⊑ module. Another agent's personal scope is comparable only with
    itself and the project (its modules are not known here: not comparable is the safe answer)."""
    if a.project_id != b.project_id:
        return False
    if a == b or b.scope == Scope.PROJECT:
        return True
    return (a.scope == Scope.PERSONAL and b.scope == Scope.MODULE and a.owner_agent_id == visibility.agent_id
            and b.module_id in visibility.module_ids)


def scopes_comparable(a: ScopeKey, b: ScopeKey, *, visibility: Visibility) -> bool:
    return scope_narrower_or_equal(a, b, visibility=visibility) or scope_narrower_or_equal(b, a, visibility=visibility)


class IncomparableScopes(ValueError):
    """Sources whose scopes do not form a chain (module m1 and module m2): they cannot be merged."""


def scope_narrowest(keys: Iterable[ScopeKey], *, visibility: Visibility) -> ScopeKey:
    """The scope of anything written from sources in ``keys``: the narrowest of them. Raises
    :class:`IncomparableScopes` unless the keys are pairwise comparable."""
    distinct = list(dict.fromkeys(keys))
    if not distinct:
        raise IncomparableScopes("no sources")
    for i, a in enumerate(distinct):
        for b in distinct[i + 1:]:
            if not scopes_comparable(a, b, visibility=visibility):
                raise IncomparableScopes(f"{a.scope} and {b.scope} sources cannot be merged")
    return next(k for k in distinct if all(scope_narrower_or_equal(k, o, visibility=visibility) for o in distinct))


def scope_chain(items: Iterable[T], *, key: Callable[[T], ScopeKey], visibility: Visibility) -> list[T]:
    """The items (in their order, the first one always) whose scopes stay pairwise comparable with those already
    taken: what may be merged with the first item."""
    taken: list[T] = []
    keys: list[ScopeKey] = []
    for item in items:
        k = key(item)
        if all(scopes_comparable(k, other, visibility=visibility) for other in keys):
            taken.append(item)
            keys.append(k)
    return taken


def comparable_q(key: ScopeKey, visibility: Visibility) -> Q:
    """A Q for the rows (of what ``visibility`` sees) whose scope is comparable with ``key``."""
    project = Q(project_id=key.project_id, scope=Scope.PROJECT)
    if key.scope == Scope.PROJECT:
        return Q(project_id=key.project_id)
    if key.scope == Scope.PERSONAL:
        if key.owner_agent_id == visibility.agent_id:
            return key.q() | project | Q(project_id=key.project_id, scope=Scope.MODULE,
                                         module_id__in=list(visibility.module_ids))
        return key.q() | project
    q = key.q() | project
    if key.module_id in visibility.module_ids:
        q |= ScopeKey.for_scope(project_id=key.project_id, scope=Scope.PERSONAL,
                                owner_agent_id=visibility.agent_id).q()
    return q


def visible_throughout_q(key: ScopeKey) -> Q:
    """A Q for the rows every reader of scope ``key`` may see: the scopes that contain it. What consolidation shows
    its consolidator for an output in ``key`` (an LLM may copy anything it is shown into the output)."""
    project = Q(project_id=key.project_id, scope=Scope.PROJECT)
    if key.scope == Scope.PROJECT:
        return project
    if key.scope == Scope.MODULE:
        return key.q() | project
    from agents.models import Module  # agents.models does not import this module; no cycle at call time

    modules = Module.objects.filter(project_id=key.project_id, agents__id=key.owner_agent_id).values("id")
    return key.q() | project | Q(project_id=key.project_id, scope=Scope.MODULE, module_id__in=modules)


def visibility_q(visibility: Visibility, *, prefix: str = "") -> Q:
    """A Q restricting a scoped model (fields project, scope, owner_agent, module) to what is visible:
    personal to its owner, module to the module's members, project to everyone in the project."""
    p = f"{prefix}__" if prefix else ""
    return Q(**{f"{p}project_id": visibility.project_id}) & (
        Q(**{f"{p}scope": Scope.PERSONAL, f"{p}owner_agent_id": visibility.agent_id})
        | Q(**{f"{p}scope": Scope.MODULE, f"{p}module_id__in": list(visibility.module_ids)})
        | Q(**{f"{p}scope": Scope.PROJECT})
    )


def visible_because(row: Any, visibility: Visibility) -> str | None:
    """Which clause of :func:`visibility_q` lets ``visibility`` see ``row``: ``"personal"`` (its own), ``"module"``
    (a module it belongs to), ``"project"`` (its project's); None when none does. For explaining a read that went
    through ``visible_to`` (the admin's *recall as agent*), never for deciding one."""
    if row.project_id != visibility.project_id:
        return None
    if row.scope == Scope.PERSONAL and row.owner_agent_id == visibility.agent_id:
        return Scope.PERSONAL
    if row.scope == Scope.MODULE and row.module_id in visibility.module_ids:
        return Scope.MODULE
    if row.scope == Scope.PROJECT:
        return Scope.PROJECT
    return None


def quarantine_q(visibility: Visibility | None) -> Q:
    """The quarantine rule (memory/quarantine/): a row held for review is seen by its author only (labelled as
    held), in whatever scope, until a reviewer releases it; ``None``: by nobody (what every reader of a scope sees)."""
    held = Q(quarantined=True)
    if visibility is None:
        return ~held
    return ~held | Q(owner_agent_id=visibility.agent_id)


def _holds(qs: models.QuerySet) -> bool:
    return any(f.name == "quarantined" for f in qs.model._meta.concrete_fields)


class ScopedQuerySet(models.QuerySet):
    def visible_to(self, agent: Agent | Visibility) -> ScopedQuerySet:
        """What ``agent`` may see (pass a :class:`Visibility` to reuse one computed for several queries): its scopes,
        less what is held in quarantine for someone else's review."""
        visibility = agent if isinstance(agent, Visibility) else agent_visibility(agent=agent)
        qs = self.filter(visibility_q(visibility))
        return qs.filter(quarantine_q(visibility)) if _holds(qs) else qs

    def mergeable_with(self, key: ScopeKey, visibility: Visibility) -> ScopedQuerySet:
        """What ``visibility`` sees whose scope is comparable with ``key`` (may be merged with a row of ``key``)."""
        return self.visible_to(visibility).filter(comparable_q(key, visibility))

    def visible_throughout(self, key: ScopeKey) -> ScopedQuerySet:
        """Rows every reader of scope ``key`` may see (``key`` and the scopes containing it; nothing held in
        quarantine)."""
        qs = self.filter(visible_throughout_q(key))
        return qs.filter(quarantine_q(None)) if _holds(qs) else qs

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
