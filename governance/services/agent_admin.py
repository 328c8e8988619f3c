"""Agent administration with its audit trail: creating agents, changing their roles, issuing and revoking keys.

The primitives live in ``agents.services``; agents sits below governance in the layering and cannot reach the audit
trail, so this thin layer above both is where every caller acting for a person goes (the management commands, the
admin's actions and forms, ``recmem run``'s demo agent). The raw key is never written to the trail, only its prefix.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction

from agents import services as agent_services
from agents.models import Agent, AgentRole, ApiKey
from agents.services import IssuedKey
from governance.models import AuditEvent, AuditObject
from governance.services.audit import audit_record


def _actor(actor_user, actor_label: str) -> dict:
    user = actor_user if getattr(actor_user, "pk", None) else None
    return {"actor_user": user, "actor_label": "" if user else (actor_label or "system")}


def _key_recorded(*, issued: IssuedKey, agent: Agent, actor_user, actor_label: str, reason: str) -> None:
    audit_record(action=AuditEvent.Action.CREATE, object_type=AuditObject.API_KEY, object_id=issued.api_key.pk,
                 project_id=agent.project_id, reason=reason, **_actor(actor_user, actor_label),
                 data={"agent": str(agent.pk), "prefix": issued.api_key.prefix, "name": issued.api_key.name,
                       "expires_at": issued.api_key.expires_at.isoformat() if issued.api_key.expires_at else None})


@transaction.atomic
def agent_register(
    *,
    project_name: str,
    name: str,
    module_names: Iterable[str] = (),
    roles: Iterable[str] = (AgentRole.WRITER, AgentRole.READER),
    actor_user=None,
    actor_label: str = "",
    reason: str = "",
) -> Agent:
    """Create an agent (``agents.services.agent_create``) and record who created it with which roles."""
    agent = agent_services.agent_create(project_name=project_name, name=name, module_names=module_names,
                                        roles=roles)
    audit_record(action=AuditEvent.Action.CREATE, object_type=AuditObject.AGENT, object_id=agent.pk,
                 project_id=agent.project_id, reason=reason, **_actor(actor_user, actor_label),
                 data={"name": agent.name, "roles": list(agent.roles),
                       "modules": sorted(agent.modules.values_list("name", flat=True))})
    return agent


@transaction.atomic
def agent_roles_set(*, agent: Agent, roles: Iterable[str], actor_user=None, actor_label: str = "",
                    reason: str = "") -> Agent:
    """Replace an agent's roles; a change (never a no-op) is recorded with the roles before and after."""
    before = agent_services.agent_roles_update(agent=agent, roles=roles)
    if before != list(agent.roles):
        audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.AGENT, object_id=agent.pk,
                     project_id=agent.project_id, reason=reason or "roles changed",
                     **_actor(actor_user, actor_label), data={"roles": {"before": before, "after": list(agent.roles)}})
    return agent


@transaction.atomic
def agent_changes_record(*, agent: Agent, changed: dict, actor_user=None, actor_label: str = "",
                         reason: str = "") -> None:
    """Record an edit of an agent made through a form (name, active flag, modules): ``changed`` maps each field to
    its value before and after."""
    if changed:
        audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.AGENT, object_id=agent.pk,
                     project_id=agent.project_id, reason=reason or "edited", **_actor(actor_user, actor_label),
                     data=changed)


@transaction.atomic
def agent_key_issue(*, agent: Agent, name: str = "", expires_at: datetime | None = None, actor_user=None,
                    actor_label: str = "", reason: str = "") -> IssuedKey:
    """Issue a key (``agents.services.api_key_create``) and record its prefix, never the key."""
    issued = agent_services.api_key_create(agent=agent, name=name, expires_at=expires_at)
    _key_recorded(issued=issued, agent=agent, actor_user=actor_user, actor_label=actor_label, reason=reason)
    return issued


@transaction.atomic
def agent_key_revoke(*, api_key: ApiKey, actor_user=None, actor_label: str = "", reason: str = "") -> ApiKey:
    """Revoke a key; only the revocation itself is recorded (revoking a revoked key changes nothing)."""
    was_revoked = api_key.revoked_at is not None
    agent_services.api_key_revoke(api_key=api_key)
    if not was_revoked:
        audit_record(action=AuditEvent.Action.UPDATE, object_type=AuditObject.API_KEY, object_id=api_key.pk,
                     project_id=api_key.agent.project_id, reason=reason or "revoked",
                     **_actor(actor_user, actor_label),
                     data={"agent": str(api_key.agent_id), "prefix": api_key.prefix, "revoked": True})
    return api_key


@transaction.atomic
def demo_agent_ensure(*, project_name: str = "demo", agent_name: str = "demo-agent",
                      actor_label: str = "cli:recmem_run") -> tuple[Agent, IssuedKey | None]:
    """``recmem run``'s demo agent, created and given a key (both recorded) only when it is new."""
    existing = Agent.objects.filter(project__name=project_name, name=agent_name).first()
    if existing is not None:
        return existing, None
    agent = agent_register(project_name=project_name, name=agent_name, module_names=["general"],
                           roles=[AgentRole.WRITER, AgentRole.READER, AgentRole.OPERATOR], actor_label=actor_label,
                           reason="demo agent")
    return agent, agent_key_issue(agent=agent, name="demo", actor_label=actor_label, reason="demo agent")
