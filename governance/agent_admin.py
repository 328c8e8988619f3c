"""The admin of agents and keys with its audit trail: agents' admin (agents/admin.py) shows them, and since agents
sits below governance, the writes a person makes there (adding an agent, editing it, changing its roles, issuing and
revoking keys) are re-registered here to go through ``governance.services.agent_admin``."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse

from agents import admin as agents_admin
from agents.models import Agent, AgentRole, ApiKey
from core.errors import ApplicationError
from governance.services.agent_admin import (
    agent_changes_record,
    agent_key_issue,
    agent_key_revoke,
    agent_register,
    agent_roles_set,
)


class RolesForm(forms.Form):
    roles = forms.MultipleChoiceField(choices=AgentRole.choices, widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(max_length=300, widget=forms.TextInput(attrs={"size": 80}),
                             help_text="Why; kept in the audit trail.")


class AuditedAgentAdmin(agents_admin.AgentAdmin):
    actions = ["issue_key", "set_roles"]

    def get_readonly_fields(self, request, obj=None):
        # roles change through the "Set roles" action, which asks a reason
        return [*super().get_readonly_fields(request, obj), *(["roles"] if obj is not None else [])]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # an agent with an audit trail stays; deactivate it (is_active) instead

    def save_model(self, request, obj, form, change):
        if not change:
            agent = agent_register(project_name=obj.project.name, name=obj.name, roles=obj.roles,
                                   module_names=[m.name for m in form.cleaned_data.get("modules", [])],
                                   actor_user=request.user, reason="added in the admin")
            obj.pk, obj.created_at = agent.pk, agent.created_at
            obj._state.adding, obj._state.db = False, agent._state.db
            return
        before = Agent.objects.get(pk=obj.pk)
        changed = {f: {"before": str(getattr(before, f)), "after": str(getattr(obj, f))}
                   for f in form.changed_data if f in {"name", "is_active", "project"}}
        super().save_model(request, obj, form, change)
        request._agent_changes = changed
        request._agent_modules_before = sorted(before.modules.values_list("name", flat=True))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            return
        changed = dict(getattr(request, "_agent_changes", {}))
        modules_before = getattr(request, "_agent_modules_before", [])
        modules_after = sorted(form.instance.modules.values_list("name", flat=True))
        if modules_before != modules_after:
            changed["modules"] = {"before": modules_before, "after": modules_after}
        agent_changes_record(agent=form.instance, changed=changed, actor_user=request.user,
                             reason="edited in the admin")

    @admin.action(description="Issue a new API key (shown once)")
    def issue_key(self, request, queryset):
        for agent in queryset:
            issued = agent_key_issue(agent=agent, name=f"admin:{request.user.get_username()}",
                                     actor_user=request.user, reason="issued in the admin")
            self.message_user(request, f"New key for {agent}: {issued.raw_key} — copy it now, it is not stored.",
                              messages.WARNING)

    @admin.action(description="Set the roles of selected agents (asks a reason)")
    def set_roles(self, request, queryset):
        form = RolesForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            for agent in queryset:
                try:
                    agent_roles_set(agent=agent, roles=form.cleaned_data["roles"], actor_user=request.user,
                                    reason=form.cleaned_data["reason"])
                except ApplicationError as exc:
                    self.message_user(request, f"{agent}: {exc.message}", messages.ERROR)
                    return None
            self.message_user(request, f"Roles of {queryset.count()} agent(s) set to "
                                       f"{', '.join(form.cleaned_data['roles'])}.")
            return None
        context = {**self.admin_site.each_context(request), "agents": list(queryset), "form": form,
                   "title": "Set roles", "opts": self.model._meta}
        return TemplateResponse(request, "admin/agents/agent/set_roles.html", context)


class AuditedApiKeyAdmin(agents_admin.ApiKeyAdmin):
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "name", "expires_at"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # revoke instead: the key's row is what its audit events point at

    @admin.action(description="Revoke selected keys")
    def revoke(self, request, queryset):
        for key in queryset.select_related("agent"):
            agent_key_revoke(api_key=key, actor_user=request.user, reason="revoked in the admin")
        self.message_user(request, f"Revoked {queryset.count()} key(s).")


admin.site.unregister(Agent)
admin.site.register(Agent, AuditedAgentAdmin)
admin.site.unregister(ApiKey)
admin.site.register(ApiKey, AuditedApiKeyAdmin)
