from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from governance.models import AuditEvent, ConsolidationBatch, PrivacyPolicy, ReviewItem, VaultEntry
from governance.services import batch_rollback, review_approve, review_reject, vault_reveal


@admin.register(ConsolidationBatch)
class ConsolidationBatchAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "agent", "mode", "consolidator", "status", "attempts", "llm_call_count",
                    "prompt_tokens", "completion_tokens", "created_at"]
    list_filter = ["status", "mode", "consolidator", "project"]
    readonly_fields = [f.name for f in ConsolidationBatch._meta.fields]
    actions = ["rollback", "retry"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Roll back selected batches")
    def rollback(self, request, queryset):
        for batch in queryset:
            try:
                batch_rollback(batch=batch, actor_user=request.user, reason="admin action")
                self.message_user(request, f"Rolled back {batch}.")
            except ValidationError as exc:
                self.message_user(request, f"{batch}: {'; '.join(exc.messages)}", messages.ERROR)

    @admin.action(description="Retry selected failed batches now")
    def retry(self, request, queryset):
        from memory.services.consolidation import batch_retry

        for batch in queryset.filter(status=ConsolidationBatch.Status.FAILED):
            result = batch_retry(batch=batch)
            self.message_user(request, f"Retried {batch}: {result.status if result else 'nothing pending'}.")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Append-only: no add, change or delete, even for superusers."""

    list_display = ["created_at", "action", "object_type", "object_id", "project", "actor_agent", "actor_user",
                    "actor_label", "scope", "reason"]
    list_filter = ["action", "object_type", "project"]
    search_fields = ["object_id", "reason", "actor_label"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReviewDecisionForm(forms.Form):
    statement = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 100}), required=False,
                                help_text="edit before approving (leave as is to approve unchanged)")
    reason = forms.CharField(required=False, help_text="required to reject")


@admin.register(ReviewItem)
class ReviewItemAdmin(admin.ModelAdmin):
    list_display = ["proposed_statement", "project", "status", "corroborating_sessions", "created_at", "decided_by"]
    list_filter = ["status", "project"]
    readonly_fields = ["project", "experience", "proposed_scope", "proposed_statement", "status", "evidence_view",
                       "similar_view", "diff_view", "corroborating_sessions", "batch", "decided_by", "decided_at",
                       "decision_reason", "approved_experience", "created_at", "decide_link"]
    exclude = ["evidence", "similar"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="evidence")
    def evidence_view(self, obj):
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} — user: {} | assistant: {}</li>",
            ((e.get("occurred_at"), e.get("user"), e.get("assistant")) for e in obj.evidence)))

    @admin.display(description="similar project rules")
    def similar_view(self, obj):
        if not obj.similar:
            return "none"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} (similarity {})</li>", ((s["statement"], s["similarity"]) for s in obj.similar)))

    @admin.display(description="diff against the closest rule")
    def diff_view(self, obj):
        import difflib

        if not obj.similar:
            return "new rule"
        old, new = obj.similar[0]["statement"].split(), obj.proposed_statement.split()
        parts = []
        for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
            if op in ("delete", "replace"):
                parts.append(format_html("<del style='color:#b00'>{}</del>", " ".join(old[a1:a2])))
            if op in ("insert", "replace"):
                parts.append(format_html("<ins style='color:#070'>{}</ins>", " ".join(new[b1:b2])))
            if op == "equal":
                parts.append(" ".join(old[a1:a2]))
        return format_html_join(" ", "{}", ((p,) for p in parts))

    @admin.display(description="decide")
    def decide_link(self, obj):
        if obj.status != ReviewItem.Status.PENDING:
            return obj.status
        return format_html('<a class="button" href="{}">Approve / edit / reject</a>',
                           reverse("admin:governance_reviewitem_decide", args=[obj.pk]))

    def get_urls(self):
        return [path("<uuid:pk>/decide/", self.admin_site.admin_view(self.decide_view),
                     name="governance_reviewitem_decide"), *super().get_urls()]

    def decide_view(self, request, pk):
        item = get_object_or_404(ReviewItem, pk=pk)
        if not self.has_change_permission(request, item):
            raise PermissionDenied
        form = ReviewDecisionForm(request.POST or None, initial={"statement": item.proposed_statement})
        if request.method == "POST" and form.is_valid():
            try:
                if "reject" in request.POST:
                    review_reject(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Rejected.")
                else:
                    review_approve(item=item, user=request.user, edited_statement=form.cleaned_data["statement"],
                                   reason=form.cleaned_data["reason"])
                    self.message_user(request, "Approved: the rule is now project-wide.")
                return redirect("admin:governance_reviewitem_changelist")
            except ValidationError as exc:
                self.message_user(request, "; ".join(exc.messages), messages.ERROR)
        context = {**self.admin_site.each_context(request), "item": item, "form": form, "title": "Review promotion",
                   "opts": self.model._meta}
        return render(request, "admin/governance/reviewitem/decide.html", context)


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
            except PermissionDenied as exc:
                self.message_user(request, str(exc), messages.ERROR)
            except ValidationError as exc:
                self.message_user(request, "; ".join(exc.messages), messages.ERROR)
        context = {**self.admin_site.each_context(request), "entry": entry, "form": form, "value": value,
                   "title": f"Reveal {entry.placeholder}", "opts": self.model._meta}
        return render(request, "admin/governance/vaultentry/reveal.html", context)
