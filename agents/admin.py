from django.contrib import admin

from agents.models import Agent, ApiKey, Module, Project
from agents.services import project_archive


class ModuleInline(admin.TabularInline):
    model = Module
    extra = 0
    can_delete = False  # see ModuleAdmin.has_delete_permission


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    """Quota usage columns are added by memory's admin (memory/admin.py), which knows what is stored."""

    list_display = ["name", "created_at", "exchange_quota", "daily_token_quota", "archived_at"]
    search_fields = ["name"]
    readonly_fields = ["archived_at"]
    inlines = [ModuleInline]
    actions = ["archive"]

    @admin.action(description="Archive selected projects (their API keys stop working; the audit trail stays)")
    def archive(self, request, queryset):
        for project in queryset:
            project_archive(project=project)
        self.message_user(request, f"Archived {queryset.count()} project(s).")


@admin.register(Module)
class ModuleAdmin(admin.ModelAdmin):
    list_display = ["name", "project", "created_at"]
    list_filter = ["project"]
    search_fields = ["name", "project__name"]

    def has_delete_permission(self, request, obj=None) -> bool:
        # Deleting a module would set the module of its memory rows to nothing, unaudited, and leave module-scoped
        # rows nobody may see (tests/test_audit_coverage.py found it): a module is renamed, never deleted, here.
        return False


class ApiKeyInline(admin.TabularInline):
    model = ApiKey
    extra = 0
    can_delete = False
    fields = ["prefix", "name", "created_at", "expires_at", "revoked_at", "last_used_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # keys are issued with the "Issue a new API key" action so the raw key can be shown once


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ["name", "project", "roles", "is_active", "last_write_at", "created_at"]
    list_filter = ["project", "is_active"]
    search_fields = ["name", "project__name"]
    filter_horizontal = ["modules"]
    inlines = [ApiKeyInline]
    # the actions that write (keys, roles) and the audited add/edit: governance/agent_admin.py


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["prefix", "agent", "name", "created_at", "expires_at", "revoked_at", "last_used_at"]
    list_filter = ["agent__project"]
    search_fields = ["prefix", "agent__name", "name"]
    readonly_fields = ["prefix", "key_hash", "agent", "created_at", "revoked_at", "last_used_at"]

    def has_add_permission(self, request) -> bool:
        return False
