"""Admin of the governance records: audit trail, LLM calls, privacy policy, vault (reveal is audited).

Consolidation batches and review items are administered from memory (rollback, retry and review are acts on memory).
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django_q import admin as q_admin
from django_q.models import Schedule

from core.errors import ApplicationError
from governance.admin_base import ReadOnlyAdmin
from governance.export import CONTENT_TYPES, export_lines
from governance.models import (
    AllowedTerm,
    AuditEvent,
    AuditObject,
    LLMCall,
    MetricDay,
    PrivacyPolicy,
    PseudonymEntry,
    VaultEntry,
)
from governance.selectors import audit_export_rows
from governance.services.privacy import allowed_term_add, allowed_term_remove, vault_reveal

# object_type of an event -> the admin page of that object (by URL name: governance does not import memory).
_OBJECT_PAGES = {
    AuditObject.EXPERIENCE: "admin:memory_experience_change", AuditObject.EPISODE: "admin:memory_episode_change",
    AuditObject.EXCHANGE: "admin:memory_exchange_change", AuditObject.SESSION: "admin:memory_session_change",
    AuditObject.REVIEW_ITEM: "admin:memory_reviewitem_change",
    AuditObject.CONSOLIDATION_BATCH: "admin:governance_consolidationbatch_change",
    AuditObject.VALIDITY_SAMPLE: "admin:memory_validitysample_change",
    AuditObject.VAULT_ENTRY: "admin:governance_vaultentry_change",
}


def _short(value) -> str:
    return str(value)[:8]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """Append-only: no add, change or delete, even for superusers. The list fits a 1400 px screen: short ids that
    link to the objects (full id in the tooltip), one actor column, the reason cut with the full text on hover;
    filters by action, object type, scope, agent, user and project. Export: filter, select all, then an export
    action."""

    list_display = ["created_at", "action", "object_link", "project", "seq", "actor", "scope", "reason_short"]
    list_filter = ["action", "object_type", "scope", ("actor_agent", admin.RelatedOnlyFieldListFilter),
                   ("actor_user", admin.RelatedOnlyFieldListFilter), "project"]
    search_fields = ["object_id", "reason", "actor_label", "actor_agent__name", "actor_user__username"]
    list_select_related = ["project", "actor_agent", "actor_user"]
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

    class Media:
        css = {"all": ["recmem/console.css"]}

    @admin.display(description="object", ordering="object_type")
    def object_link(self, obj):
        if not obj.object_id:
            return obj.object_type
        page = _OBJECT_PAGES.get(obj.object_type)
        if page is None:
            return format_html('{} <code title="{}">{}</code>', obj.object_type, obj.object_id, _short(obj.object_id))
        try:
            url = reverse(page, args=[obj.object_id])
        except NoReverseMatch:
            return format_html('{} <code title="{}">{}</code>', obj.object_type, obj.object_id, _short(obj.object_id))
        return format_html('{} <a href="{}" title="{}"><code>{}</code></a>', obj.object_type, url, obj.object_id,
                           _short(obj.object_id))

    @admin.display(description="actor")
    def actor(self, obj):
        if obj.actor_agent_id:
            url = reverse("admin:agents_agent_change", args=[obj.actor_agent_id])
            return format_html('agent <a href="{}">{}</a>', url, obj.actor_agent.name)
        if obj.actor_user_id:
            return format_html("user <b>{}</b>", obj.actor_user.get_username())
        return obj.actor_label or "—"

    @admin.display(description="reason", ordering="reason")
    def reason_short(self, obj):
        if len(obj.reason) <= 60:
            return obj.reason
        return format_html('<span title="{}">{}…</span>', obj.reason, obj.reason[:60])


@admin.register(PrivacyPolicy)
class PrivacyPolicyAdmin(admin.ModelAdmin):
    """Configuration, not a record: edited by hand here (the one governance table the admin writes)."""

    list_display = ["project", "vault_enabled", "score_threshold", "updated_at"]
    readonly_fields = ["updated_at"]


@admin.register(PseudonymEntry)
class PseudonymEntryAdmin(ReadOnlyAdmin):
    """The pseudonym registry, read-only: placeholders and keyed digests, never an original value."""

    list_display = ["placeholder", "entity_type", "confident", "project", "created_at"]
    list_filter = ["entity_type", "confident", "project"]
    search_fields = ["placeholder"]


@admin.register(AllowedTerm)
class AllowedTermAdmin(admin.ModelAdmin):
    """Terms allowed per project (never masked as a name, place or group). Adding and deleting go through the
    services, so every change is audited; a term is not edited in place (delete it and add the new one)."""

    list_display = ["term", "project", "created_at"]
    list_filter = ["project"]
    search_fields = ["term"]
    fields = ["project", "term"]

    def get_readonly_fields(self, request, obj=None):
        return ["project", "term"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:
            return
        saved = allowed_term_add(project=obj.project, term=obj.term, user=request.user)
        obj.pk, obj.term, obj.created_at = saved.pk, saved.term, saved.created_at

    def delete_model(self, request, obj):
        allowed_term_remove(project=obj.project, term=obj.term, user=request.user)

    def delete_queryset(self, request, queryset):
        for obj in list(queryset):
            allowed_term_remove(project=obj.project, term=obj.term, user=request.user)


class RevealForm(forms.Form):
    reason = forms.CharField(help_text="why you need the original value (audited)")


@admin.register(VaultEntry)
class VaultEntryAdmin(ReadOnlyAdmin):
    """Originals are revealed through the audited reveal page and erased with their subject (``subject_forget``,
    audited); a delete here would erase one unaudited."""

    list_display = ["placeholder", "entity_type", "project", "created_at", "reveal_link"]
    list_filter = ["entity_type", "project"]
    search_fields = ["placeholder"]
    readonly_fields = ["project", "placeholder", "entity_type", "created_at"]
    exclude = ["ciphertext"]

    @admin.display(description="reveal")
    def reveal_link(self, obj):
        return format_html('<a href="{}">reveal…</a>', reverse("admin:governance_vaultentry_reveal", args=[obj.pk]))

    def get_urls(self):
        return [path("<uuid:pk>/reveal/", self.admin_site.admin_view(self.reveal_view),
                     name="governance_vaultentry_reveal"), *super().get_urls()]

    def reveal_view(self, request, pk):
        entry = get_object_or_404(VaultEntry, pk=pk)
        allowed = request.user.has_perm("governance.view_vaultentry")
        form = RevealForm(request.POST or None)
        value = None
        if request.method == "POST":
            # every attempt goes through the service, so a refused one is audited too
            try:
                value = vault_reveal(project=entry.project, placeholder=entry.placeholder, user=request.user,
                                     reason=form.cleaned_data["reason"] if form.is_valid() else "")
            except ApplicationError as exc:
                if not allowed:
                    raise PermissionDenied from exc
                self.message_user(request, exc.message, messages.ERROR)
        elif not allowed:
            raise PermissionDenied
        context = {**self.admin_site.each_context(request), "entry": entry, "form": form, "value": value,
                   "title": f"Reveal {entry.placeholder}", "opts": self.model._meta}
        return render(request, "admin/governance/vaultentry/reveal.html", context)


@admin.register(LLMCall)
class LLMCallAdmin(ReadOnlyAdmin):
    """The cost record; no delete either: the daily token quota sums these rows, so deleting one would lift it."""

    list_display = ["created_at", "purpose", "model", "prompt_tokens", "completion_tokens", "tokens_source", "ok",
                    "batch"]
    list_filter = ["purpose", "ok", "tokens_source"]


@admin.register(MetricDay)
class MetricDayAdmin(ReadOnlyAdmin):
    """The stored daily metrics (written by the periodic task; read here, on the dashboard, the API and /metrics)."""

    list_display = ["day", "project", "scope", "hit", "repetition", "validity", "batches",
                    "tokens", "backlog", "exchanges_total", "experiences_active"]
    list_filter = ["scope", "project"]
    date_hierarchy = "day"

    @admin.display(description="tokens (prompt / completion)")
    def tokens(self, obj):
        return f"{obj.prompt_tokens} / {obj.completion_tokens}"

    # Rates with two decimals (the stored value keeps its precision; the dashboard explains each formula).
    @admin.display(description="hit rate", ordering="hit_rate")
    def hit(self, obj):
        return _two_decimals(obj.hit_rate)

    @admin.display(description="repetition rate", ordering="repetition_rate")
    def repetition(self, obj):
        return _two_decimals(obj.repetition_rate)

    @admin.display(description="validity rate", ordering="validity_rate")
    def validity(self, obj):
        return _two_decimals(obj.validity_rate)


def _two_decimals(value) -> str:
    return "—" if value is None else f"{value:.2f}"


admin.site.unregister(Schedule)


@admin.register(Schedule)
class ScheduleAdmin(q_admin.ScheduleAdmin):
    # One cluster runs every schedule, so its column is always the same name; without it the list fits 1,280 px.
    list_display = tuple(c for c in q_admin.ScheduleAdmin.list_display if c != "cluster")


# agents' admin with audited writes (a module of its own: agents sits below governance)
from governance import agent_admin  # noqa: E402,F401
