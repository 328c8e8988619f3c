"""Admin of memory and of the acts on it: consolidation batches (rollback, retry), the review queue, read-only rows."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from agents import admin as agents_admin
from agents.models import Project
from core.errors import ApplicationError
from governance.models import ConsolidationBatch
from memory.models import Candidate, Episode, Exchange, Experience, MemoryVersion, ReviewItem, Session
from memory.quotas import daily_token_quota, exchange_quota, tokens_today
from memory.services.recovery import batch_retry
from memory.services.review import review_approve, review_dismiss, review_reject
from memory.services.rollback import batch_rollback


class ReadOnlyAdmin(admin.ModelAdmin):
    """Memory rows change only through services (consolidation, edits, rollback), never by hand."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ["id", "external_id", "project", "owner_agent", "scope", "status", "started_at", "next_turn_index"]
    list_filter = ["status", "scope", "project"]
    search_fields = ["external_id", "id"]


@admin.register(Exchange)
class ExchangeAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "project", "owner_agent", "scope", "state", "salience", "occurred_at", "hit_count"]
    list_filter = ["state", "scope", "project"]
    search_fields = ["user_text", "assistant_text"]
    exclude = ["embedding"]


@admin.register(Candidate)
class CandidateAdmin(ReadOnlyAdmin):
    list_display = ["id", "agent", "reason", "status", "attempts", "batch", "created_at"]
    list_filter = ["status", "reason"]


class VersionInline(admin.TabularInline):
    model = MemoryVersion
    extra = 0
    fields = ["version", "reason", "batch", "created_at", "snapshot"]
    readonly_fields = fields
    can_delete = False


@admin.register(Episode)
class EpisodeAdmin(ReadOnlyAdmin):
    list_display = ["title", "project", "scope", "status", "version", "started_at", "ended_at", "hit_count"]
    list_filter = ["status", "scope", "project"]
    search_fields = ["title", "narrative"]
    exclude = ["embedding"]
    inlines = [VersionInline]


@admin.register(Experience)
class ExperienceAdmin(ReadOnlyAdmin):
    list_display = ["statement", "type", "project", "scope", "status", "confidence", "version", "hit_count"]
    list_filter = ["type", "status", "scope", "project"]
    search_fields = ["statement", "subject"]
    exclude = ["embedding"]
    inlines = [VersionInline]


@admin.register(ConsolidationBatch)
class ConsolidationBatchAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "agent", "mode", "consolidator", "status", "attempts", "llm_call_count",
                    "prompt_tokens", "completion_tokens", "created_at", "worker", "lease_expires_at"]
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
            except ApplicationError as exc:
                self.message_user(request, f"{batch}: {exc.message}", messages.ERROR)

    @admin.action(description="Retry now (failed or stalled batches)")
    def retry(self, request, queryset):
        for batch in queryset:
            try:
                batch_retry(batch=batch, actor_user=request.user)
                self.message_user(request, f"Queued {batch} for a worker with fresh attempts; refresh to follow it.")
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.WARNING)


class ReviewDecisionForm(forms.Form):
    statement = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 100}), required=False,
                                help_text="edit before approving / keeping the new one (leave as is to keep it)")
    reason = forms.CharField(required=False, help_text="required to reject / to keep the old one")


@admin.register(ReviewItem)
class ReviewItemAdmin(admin.ModelAdmin):
    list_display = ["proposed_statement", "kind", "project", "proposed_scope", "status", "corroborating_sessions",
                    "created_at", "decided_by"]
    list_filter = ["kind", "status", "project"]
    readonly_fields = ["project", "kind", "experience", "other_experience", "proposed_scope", "proposed_module",
                       "proposed_statement", "status", "evidence_view", "other_evidence_view", "similar_view",
                       "diff_view", "corroborating_sessions", "batch", "decided_by", "decided_at", "decision_reason",
                       "approved_experience", "created_at", "decide_link"]
    exclude = ["evidence", "other_evidence", "similar"]

    def has_add_permission(self, request) -> bool:
        return False

    @staticmethod
    def _evidence_html(evidence):
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} ({}) — user: {} | assistant: {}</li>",
            ((e.get("occurred_at"), e.get("scope", ""), e.get("user"), e.get("assistant")) for e in evidence)))

    @admin.display(description="evidence")
    def evidence_view(self, obj):
        return self._evidence_html(obj.evidence)

    @admin.display(description="evidence of the other item (conflict)")
    def other_evidence_view(self, obj):
        return self._evidence_html(obj.other_evidence) if obj.kind == ReviewItem.Kind.CONFLICT else "—"

    @admin.display(description="similar items in the proposed scope")
    def similar_view(self, obj):
        if not obj.similar:
            return "none"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} (similarity {})</li>", ((s["statement"], s["similarity"]) for s in obj.similar)))

    @admin.display(description="diff against the closest item (conflict: the old item)")
    def diff_view(self, obj):
        import difflib

        if obj.kind == ReviewItem.Kind.CONFLICT:
            closest = obj.other_experience.statement
        elif obj.similar:
            closest = obj.similar[0]["statement"]
        else:
            return "new rule"
        old, new = closest.split(), obj.proposed_statement.split()
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
        label = "Keep new / keep old / keep both" if obj.kind == ReviewItem.Kind.CONFLICT else "Approve / edit / reject"
        return format_html('<a class="button" href="{}">{}</a>', reverse("admin:memory_reviewitem_decide",
                                                                       args=[obj.pk]), label)

    def get_urls(self):
        return [path("<uuid:pk>/decide/", self.admin_site.admin_view(self.decide_view),
                     name="memory_reviewitem_decide"), *super().get_urls()]

    def decide_view(self, request, pk):
        item = get_object_or_404(ReviewItem.objects.select_related("experience", "other_experience",
                                                                   "proposed_module"), pk=pk)
        if not self.has_change_permission(request, item):
            raise PermissionDenied
        conflict = item.kind == ReviewItem.Kind.CONFLICT
        form = ReviewDecisionForm(request.POST or None, initial={"statement": item.proposed_statement})
        if request.method == "POST" and form.is_valid():
            where = f"{item.proposed_scope} scope" + (f" ({item.proposed_module.name})" if item.proposed_module else "")
            try:
                if "reject" in request.POST:
                    review_reject(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Kept the old item." if conflict else "Rejected.")
                elif "dismiss" in request.POST:
                    review_dismiss(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Kept both items.")
                else:
                    review_approve(item=item, user=request.user, edited_statement=form.cleaned_data["statement"],
                                   reason=form.cleaned_data["reason"])
                    self.message_user(request, f"Kept the new statement: it now replaces the old item in {where}."
                                      if conflict else f"Approved: the statement is now in {where}.")
                return redirect("admin:memory_reviewitem_changelist")
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        context = {**self.admin_site.each_context(request), "item": item, "form": form, "conflict": conflict,
                   "title": "Review conflict" if conflict else "Review promotion", "opts": self.model._meta}
        return render(request, "admin/memory/reviewitem/decide.html", context)


# The project admin (agents) with what the project stores and spends against its quotas: memory knows the rows.
class ProjectWithUsageAdmin(agents_admin.ProjectAdmin):
    list_display = [*agents_admin.ProjectAdmin.list_display, "exchanges_stored", "tokens_used_today"]
    readonly_fields = [*agents_admin.ProjectAdmin.readonly_fields, "exchanges_stored", "tokens_used_today"]

    @admin.display(description="exchanges stored / quota")
    def exchanges_stored(self, obj) -> str:
        quota, stored = exchange_quota(obj), Exchange.objects.filter(project_id=obj.pk).count()
        return f"{stored:,} / {quota:,}" if quota else f"{stored:,} (unlimited)"

    @admin.display(description="tokens today / quota")
    def tokens_used_today(self, obj) -> str:
        quota = daily_token_quota(obj)
        used = tokens_today(obj)
        return f"{used:,} / {quota:,}" if quota else f"{used:,} (unlimited)"


admin.site.unregister(Project)
admin.site.register(Project, ProjectWithUsageAdmin)
