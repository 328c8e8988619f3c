"""Admin of the governance records: audit trail, LLM calls, privacy policy, vault (reveal is audited).

Consolidation batches and review items are administered from memory (rollback, retry and review are acts on memory).
"""

from django import forms
from django.contrib import admin, messages
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from core.errors import ApplicationError
from governance.export import CONTENT_TYPES, export_lines
from governance.models import AuditEvent, LLMCall, PrivacyPolicy, VaultEntry
from governance.selectors import audit_export_rows
from governance.services.privacy import vault_reveal


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Append-only: no add, change or delete, even for superusers. Export: filter (project, action, date, search
    for an actor), select all, then an export action."""

    list_display = ["created_at", "action", "object_type", "object_id", "project", "seq", "actor_agent",
                    "actor_user", "actor_label", "scope", "reason"]
    list_filter = ["action", "object_type", "project"]
    list_select_related = ["project", "actor_agent", "actor_user"]
    search_fields = ["object_id", "reason", "actor_label", "actor_agent__name", "actor_user__username"]
    date_hierarchy = "created_at"
    readonly_fields = ["seq", "prev_hash", "hash"]
    actions = ["export_csv", "export_jsonl"]

    def _export(self, queryset, fmt: str):
        qs = queryset.select_related("project", "actor_agent", "actor_user").order_by("project__name", "project_id",
                                                                                      "seq")
        response = StreamingHttpResponse(export_lines(audit_export_rows(qs), fmt), content_type=CONTENT_TYPES[fmt])
        stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
        response["Content-Disposition"] = f'attachment; filename="audit-{stamp}.{fmt}"'
        return response

    @admin.action(description="Export selected events as CSV")
    def export_csv(self, request, queryset):
        return self._export(queryset, "csv")

    @admin.action(description="Export selected events as JSON Lines (exact values, hashes verifiable)")
    def export_jsonl(self, request, queryset):
        return self._export(queryset, "jsonl")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PrivacyPolicy)
class PrivacyPolicyAdmin(admin.ModelAdmin):
    list_display = ["project", "vault_enabled", "score_threshold", "updated_at"]
    readonly_fields = ["updated_at"]


class RevealForm(forms.Form):
    reason = forms.CharField(help_text="why you need the original value (audited)")


@admin.register(VaultEntry)
class VaultEntryAdmin(admin.ModelAdmin):
    list_display = ["placeholder", "entity_type", "project", "created_at", "reveal_link"]
    list_filter = ["entity_type", "project"]
    search_fields = ["placeholder"]
    readonly_fields = ["project", "placeholder", "entity_type", "created_at"]
    exclude = ["ciphertext"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="reveal")
    def reveal_link(self, obj):
        return format_html('<a href="{}">reveal…</a>', reverse("admin:governance_vaultentry_reveal", args=[obj.pk]))

    def get_urls(self):
        return [path("<uuid:pk>/reveal/", self.admin_site.admin_view(self.reveal_view),
                     name="governance_vaultentry_reveal"), *super().get_urls()]

    def reveal_view(self, request, pk):
        entry = get_object_or_404(VaultEntry, pk=pk)
        form = RevealForm(request.POST or None)
        value = None
        if request.method == "POST" and form.is_valid():
            try:
                value = vault_reveal(project=entry.project, placeholder=entry.placeholder, user=request.user,
                                     reason=form.cleaned_data["reason"])
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        context = {**self.admin_site.each_context(request), "entry": entry, "form": form, "value": value,
                   "title": f"Reveal {entry.placeholder}", "opts": self.model._meta}
        return render(request, "admin/governance/vaultentry/reveal.html", context)


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin):
    list_display = ["created_at", "purpose", "model", "prompt_tokens", "completion_tokens", "tokens_source", "ok",
                    "batch"]
    list_filter = ["purpose", "ok", "tokens_source"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
