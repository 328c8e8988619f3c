"""Admin of memory and of the acts on it: consolidation batches (rollback with preview, retry, release), the review
queue (decide page, bulk decisions), the validity sampling queue, read-only rows.

Every memory admin is a ``ReadOnlyAdmin``: no add, change or delete by hand, not even for a superuser; every
delete of a memory row goes through the services (with a reason and an audit event).
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Value, When
from django.http import HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from agents import admin as agents_admin
from agents.models import Project
from core.config import config
from core.errors import ApplicationError
from governance.admin_base import ReadOnlyAdmin
from governance.models import ConsolidationBatch
from memory.figures import one_agents_word_q, peer_reach_q
from memory.models import (
    Candidate,
    Episode,
    Exchange,
    Experience,
    ReviewItem,
    Session,
    ValiditySample,
)
from memory.quotas import daily_token_quota, exchange_quota, tokens_today
from memory.review.history import item_history
from memory.review.rollback import batch_rollback, batch_rollback_plan, held_exchanges_release
from memory.review.selectors import (
    review_item_current_text,
    review_item_details,
    review_next_pending,
    review_status_label,
)
from memory.review.services import (
    quarantine_target,
    review_approve,
    review_decide_many,
    review_dismiss,
    review_needs_evidence,
    review_reject,
)
from memory.review.vouch import experiences_vouch, experiences_vouch_withdraw
from memory.services.forget import forget
from memory.services.lifecycle import memories_restore
from memory.services.portability import project_export
from memory.services.recovery import batch_retry
from memory.services.validity import validity_judge


def short_link(obj, label: str | None = None):
    """An object's first 8 id characters, linked to its admin page (full id in the tooltip)."""
    if obj is None:
        return "—"
    meta = obj._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}" title="{}"><code>{}</code></a>', url, str(obj.pk), label or str(obj.pk)[:8])


class ForgetForm(forms.Form):
    reason = forms.CharField(max_length=300, help_text="why (audited; never what is forgotten)")


class ForgetSubjectForm(ForgetForm):
    project = forms.ModelChoiceField(queryset=Project.objects.order_by("name"))
    subject = forms.CharField(min_length=3, max_length=300,
                              help_text="a placeholder (<PERSON_3f2a1b>) or the value as it was said")
    field_order = ["project", "subject", "reason"]


FORGET_PERMISSION = "memory.delete_session"  # the reviewers' and operators' group holds it


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    """Read only; forgetting (selected sessions, or a subject across a project) asks a reason and cannot be undone."""

    list_display = ["id", "external_id", "project", "owner_agent", "scope", "status", "started_at", "next_turn_index"]
    list_filter = ["status", "scope", "project"]
    search_fields = ["external_id", "id"]
    actions = ["forget"]

    def _may_forget(self, request) -> bool:
        return request.user.has_perm(FORGET_PERMISSION)

    @admin.action(description="Forget the selected sessions for good (asks a reason)…")
    def forget(self, request, queryset):
        if not self._may_forget(request):
            raise PermissionDenied
        form = ForgetForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            by_project: dict = {}
            for session in queryset:
                by_project.setdefault(session.project, []).append(session.pk)
            total: dict[str, int] = {}
            try:
                for project, ids in by_project.items():
                    counts = forget(project=project, actor=request.user, session_ids=ids,
                                    reason=form.cleaned_data["reason"])
                    total = {k: total.get(k, 0) + v for k, v in counts.items()}
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
                return None
            self.message_user(request, "Forgotten: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                                                 for k, v in total.items() if v))
            return None
        context = {**self.admin_site.each_context(request), "sessions": list(queryset), "form": form,
                   "title": "Forget sessions", "opts": self.model._meta}
        return TemplateResponse(request, "admin/memory/session/forget.html", context)

    def get_urls(self):
        return [path("forget-subject/", self.admin_site.admin_view(self.forget_subject_view),
                     name="memory_session_forget_subject"), *super().get_urls()]

    def forget_subject_view(self, request):
        """Forget everything about one subject in a project: its exchanges, what was built on them, its vault and
        registry rows, its mentions in the audit trail."""
        if not self._may_forget(request):
            raise PermissionDenied
        form = ForgetSubjectForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                counts = forget(project=data["project"], actor=request.user, subject=data["subject"],
                                reason=data["reason"])
                self.message_user(request, "Forgotten: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                                                     for k, v in counts.items() if v))
                return redirect("admin:memory_session_changelist")
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Forget a subject",
                   "opts": self.model._meta}
        return render(request, "admin/memory/session/forget_subject.html", context)


@admin.register(Exchange)
class ExchangeAdmin(ReadOnlyAdmin):
    # hit count is on the exchange's page: with the source and quarantine columns the list must still fit 1,280 px
    list_display = ["__str__", "project", "owner_agent", "scope", "state", "salience", "source", "quarantined",
                    "occurred_at"]
    list_filter = ["state", "scope", "source", "quarantined", "project"]
    search_fields = ["user_text", "assistant_text", "=id"]
    exclude = ["embedding"]
    actions = ["release"]

    @admin.action(description="Release selected held exchanges (consolidate them again)")
    def release(self, request, queryset):
        released = held_exchanges_release(exchanges=list(queryset), actor_user=request.user,
                                          reason="released from the admin")
        self.message_user(request, f"Released {released} held exchanges.")


@admin.register(Candidate)
class CandidateAdmin(ReadOnlyAdmin):
    list_display = ["id", "agent", "reason", "status", "attempts", "batch", "created_at"]
    list_filter = ["status", "reason"]


class HistoryMixin:
    """The item's version timeline (who, when, why, word diff, fields that moved) instead of raw snapshots: an
    auditor reads changes, not JSON with a 384-number vector."""

    @admin.display(description="history")
    def history(self, obj):
        steps = item_history(obj=obj) if obj is not None and obj.pk else []
        if not steps:
            return "no change since it was written"
        rows = []
        for step in steps:
            diff = format_html_join(" ", "{}", (
                (format_html("<del>{}</del>", words) if op == "delete" else
                 format_html("<ins>{}</ins>", words) if op == "insert" else words,) for op, words in step.diff))
            changes = format_html_join(mark_safe("<br>"), "{}: {} → {}", step.changes)
            rows.append(format_html(
                '<tr><td>v{}</td><td>{}</td><td>{}</td><td>{}</td><td class="rm-diff">{}</td><td>{}</td></tr>',
                step.version, step.at.strftime("%Y-%m-%d %H:%M"), step.who, step.why, diff or "—", changes or "—"))
        return format_html(
            '<table class="rm-history"><thead><tr><th>before</th><th>when</th><th>who</th><th>why</th><th>text</th>'
            "<th>fields</th></tr></thead><tbody>{}</tbody></table>", format_html_join("", "{}", ((r,) for r in rows)))


class RestoreArchivedMixin:
    """Archived items (beyond RECMEM_MAX_MEMORIES per scope) come back to active here."""

    @admin.action(description="Restore the selected archived items (back to active, searched again)")
    def restore(self, request, queryset):
        if not request.user.has_perm(f"memory.change_{queryset.model._meta.model_name}"):
            raise PermissionDenied
        restored = memories_restore(items=list(queryset.filter(status="archived")), user=request.user)
        self.message_user(request, f"Restored {restored} archived items.")


class TagFilter(admin.SimpleListFilter):
    title = "tag"
    parameter_name = "tag"

    def lookups(self, request, model_admin):
        tags = sorted({t for row in Experience.objects.values_list("tags", flat=True)[:5000] for t in row})
        return [(t, t) for t in tags[:200]]

    def queryset(self, request, queryset):
        return queryset.filter(tags__contains=[self.value()]) if self.value() else queryset


class PeerReachFilter(admin.SimpleListFilter):
    """Who retrieves a shared item under the RECMEM_SEARCH_PEER_ITEMS in force: its author only (not yet confirmed:
    one agent's word, or with ``reviewed`` anything no person vouched for), or every agent of its scope."""

    title = "retrieved by"
    parameter_name = "reach"

    def lookups(self, request, model_admin):
        return [("author", "its author only (not yet confirmed)"), ("scope", "every agent of its scope")]

    def queryset(self, request, queryset):
        if self.value() == "author":
            return queryset.filter(pk__in=one_agents_word_q().values("pk"))
        if self.value() == "scope":
            return queryset.filter(peer_reach_q())
        return queryset


@admin.register(Episode)
class EpisodeAdmin(HistoryMixin, RestoreArchivedMixin, ReadOnlyAdmin):
    list_display = ["title", "project", "scope", "status", "trust", "quarantined", "version", "started_at",
                    "ended_at", "hit_count"]
    list_filter = ["status", "scope", "trust", "quarantined", "project"]
    search_fields = ["title", "narrative"]
    exclude = ["embedding"]
    readonly_fields = ["history"]
    actions = ["restore"]


@admin.register(Experience)
class ExperienceAdmin(HistoryMixin, RestoreArchivedMixin, ReadOnlyAdmin):
    # version and hit count are on the item's page (its history shows every version)
    list_display = ["statement", "type", "project", "scope", "status", "trust", "quarantined", "needs_revalidation",
                    "tag_list", "confidence"]
    list_filter = ["type", "status", "scope", "trust", PeerReachFilter, "sensitive", "quarantined",
                   "needs_revalidation", TagFilter, "project"]
    search_fields = ["statement", "subject", "=id"]
    exclude = ["embedding"]
    readonly_fields = ["history"]
    actions = ["restore", "vouch", "withdraw_vouch"]

    def _vouching(self, request, queryset, act, done_label: str):
        if not request.user.has_perm("memory.change_reviewitem"):  # a reviewer's decision, like the queue's
            raise PermissionDenied
        done, refused = act(experiences=list(queryset), user=request.user, reason="from the admin")
        self.message_user(request, f"{done_label} {done} item{'s' if done != 1 else ''}."
                          + (f" Not changed: {'; '.join(refused[:5])}" if refused else ""),
                          level=messages.WARNING if refused else messages.INFO)

    @admin.action(description="Vouch for the selected shared items (every agent of their scope retrieves them)")
    def vouch(self, request, queryset):
        self._vouching(request, queryset, experiences_vouch, "Vouched for")

    @admin.action(description="Withdraw the vouch for the selected items (one agent's word again)")
    def withdraw_vouch(self, request, queryset):
        self._vouching(request, queryset, experiences_vouch_withdraw, "Withdrew the vouch for")

    @admin.display(description="tags")
    def tag_list(self, obj) -> str:
        return ", ".join(obj.tags)


class RollbackForm(forms.Form):
    reason = forms.CharField(max_length=300, help_text="why (audited)")
    cascade = forms.BooleanField(required=False, label="Also undo the later changes listed above, in the same step")


@admin.register(ConsolidationBatch)
class ConsolidationBatchAdmin(ReadOnlyAdmin):
    """A record: its page is read only (rollback, retry and release are the acts on it)."""

    # Worker, lease and LLM call count are on the batch's page: with them the list did not fit 1,280 px.
    list_display = ["short_id", "project", "agent", "mode", "consolidator", "status", "attempts", "tokens",
                    "created_at", "rollback_link"]
    list_filter = ["status", "mode", "consolidator", "project"]
    search_fields = ["=id", "error"]
    readonly_fields = [f.name for f in ConsolidationBatch._meta.fields]
    actions = ["rollback", "retry", "release"]

    @admin.display(description="id")
    def short_id(self, obj):
        return short_link(obj)

    @admin.display(description="tokens (prompt / completion)")
    def tokens(self, obj):
        return f"{obj.prompt_tokens} / {obj.completion_tokens}"

    @admin.display(description="rollback")
    def rollback_link(self, obj):
        if obj.status != ConsolidationBatch.Status.SUCCEEDED:
            return "—"
        return format_html('<a href="{}">preview rollback…</a>',
                           reverse("admin:governance_consolidationbatch_rollback", args=[obj.pk]))

    @admin.action(description="Roll back the selected batch (preview first)…")
    def rollback(self, request, queryset):
        batches = list(queryset[:2])
        if len(batches) != 1:
            self.message_user(request, "Select one batch: each rollback is previewed and confirmed on its own.",
                              messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:governance_consolidationbatch_rollback", args=[batches[0].pk]))

    @admin.action(description="Retry now (failed or stalled batches)")
    def retry(self, request, queryset):
        for batch in queryset:
            try:
                batch_retry(batch=batch, actor_user=request.user)
                self.message_user(request, f"Queued {batch} for a worker with fresh attempts; refresh to follow it.")
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.WARNING)

    @admin.action(description="Release the exchanges the selected rolled-back batches hold")
    def release(self, request, queryset):
        released = sum(held_exchanges_release(batch=b, actor_user=request.user, reason="released from the admin")
                       for b in queryset.filter(status=ConsolidationBatch.Status.ROLLED_BACK))
        self.message_user(request, f"Released {released} held exchanges: they may be consolidated again.")

    def get_urls(self):
        return [path("<uuid:pk>/rollback/", self.admin_site.admin_view(self.rollback_view),
                     name="governance_consolidationbatch_rollback"), *super().get_urls()]

    def rollback_view(self, request, pk):
        """Preview (what is removed, restored, re-activated; what depends on it), then the confirmation."""
        if not request.user.has_perm("governance.change_consolidationbatch"):
            raise PermissionDenied
        batch = get_object_or_404(ConsolidationBatch, pk=pk)
        form = RollbackForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                batch_rollback(batch=batch, actor_user=request.user, reason=form.cleaned_data["reason"],
                               cascade=form.cleaned_data["cascade"])
                self.message_user(request, f"Rolled back {batch}"
                                  + (" with its dependents." if form.cleaned_data["cascade"] else "."))
                return redirect("admin:governance_consolidationbatch_changelist")
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        plan = batch_rollback_plan(batch=batch) if batch.status == ConsolidationBatch.Status.SUCCEEDED else None
        context = {**self.admin_site.each_context(request), "batch": batch, "plan": plan, "form": form,
                   "title": f"Roll back batch {str(batch.pk)[:8]}", "opts": self.model._meta}
        return render(request, "admin/memory/consolidationbatch/rollback.html", context)


class ReviewDecisionForm(forms.Form):
    statement = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 100}), required=False,
                                help_text="edit before approving / keeping the new one (leave as is to keep it)")
    reason = forms.CharField(required=False, max_length=2000,
                             help_text="required to reject / to keep the old one")


class BulkDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", "approve (conflicts: keep the new one)"),
                                          ("reject", "reject (conflicts: keep the old one)"),
                                          ("needs_evidence", "needs more evidence")])
    reason = forms.CharField(required=False, max_length=2000, help_text="one reason for all (required to reject)")


@admin.register(ReviewItem)
class ReviewItemAdmin(ReadOnlyAdmin):
    """Every field is read only: the change page has no Save. Decisions go through the decide page."""

    # Open items first (pending, then set aside for evidence), newest first within each; the statement is the
    # item's current text (an edit approved with the decision, or an agent's later edit, shows, not the proposal).
    list_display = ["statement_link", "kind", "proposers", "scopes", "status_label", "sessions", "created_at"]
    list_display_links = None  # the statement links to the decide page (a change-page link around it would nest)
    list_filter = ["kind", "status", "proposed_scope", "experience__type", "project"]
    search_fields = ["proposed_statement", "experience__statement", "other_experience__statement",
                     "decision_reason"]
    list_select_related = ["project", "experience", "decided_by", "approved_experience", "proposed_by",
                           "proposed_module", "exchange", "episode"]
    readonly_fields = ["project", "kind", "experience", "exchange", "episode", "other_experience", "proposed_scope",
                       "proposed_module",
                       "proposed_statement", "status", "evidence_view", "other_evidence_view", "similar_view",
                       "corroborating_sessions", "batch", "decided_by", "decided_at", "decision_reason",
                       "approved_experience", "previous", "proposed_change", "proposed_by", "proposal_reason",
                       "created_at", "decide_link"]
    exclude = ["evidence", "other_evidence", "similar", "evidence_sessions"]
    actions = ["bulk_approve", "bulk_reject", "bulk_needs_evidence"]

    def _may_decide(self, request) -> bool:
        return request.user.has_perm("memory.change_reviewitem")

    def get_ordering(self, request):
        open_first = Case(When(status=ReviewItem.Status.PENDING, then=Value(0)),
                          When(status=ReviewItem.Status.NEEDS_EVIDENCE, then=Value(1)), default=Value(2))
        return [open_first.asc(), "-created_at"]

    @admin.display(description="statement (now)", ordering="proposed_statement")
    def statement_link(self, obj):
        url = reverse("admin:memory_reviewitem_decide", args=[obj.pk])
        return format_html('<a href="{}">{}</a> <span class="quiet">[{}]</span>', url,
                           review_item_current_text(obj)[:200], self._item_type(obj))

    @admin.display(description="proposed by")
    def proposers(self, obj):
        if obj.proposed_by_id:
            return obj.proposed_by.name
        agents = sorted({e.get("agent") or "?" for e in obj.evidence or []})
        return ", ".join(agents[:3]) + (f" +{len(agents) - 3}" if len(agents) > 3 else "") if agents else "—"

    @staticmethod
    def _item_type(obj) -> str:
        if obj.kind == ReviewItem.Kind.QUARANTINE:
            return "exchange" if obj.exchange_id else "episode" if obj.episode_id else obj.experience.type
        return obj.experience.type

    @admin.display(description="scope change")
    def scopes(self, obj):
        if obj.kind == ReviewItem.Kind.QUARANTINE:
            return f"held in {obj.proposed_scope}"
        target = obj.proposed_scope + (f" ({obj.proposed_module.name})" if obj.proposed_module_id else "")
        return f"{obj.experience.scope} → {target}"

    @admin.display(description="status", ordering="status")
    def status_label(self, obj):
        label = review_status_label(obj)
        return f"{label} by {obj.decided_by}" if obj.decided_by_id else label

    @admin.display(description="sessions", ordering="corroborating_sessions")
    def sessions(self, obj):
        return obj.corroborating_sessions

    @staticmethod
    def _evidence_html(evidence):
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} ({}, {}) — user: {} | assistant: {}</li>",
            ((e.get("occurred_at"), e.get("agent", "?"), e.get("scope", ""), e.get("user"), e.get("assistant"))
             for e in evidence)))

    @admin.display(description="evidence")
    def evidence_view(self, obj):
        return self._evidence_html(obj.evidence)

    @admin.display(description="evidence of the other item (conflict)")
    def other_evidence_view(self, obj):
        return self._evidence_html(obj.other_evidence) if obj.kind == ReviewItem.Kind.CONFLICT else "—"

    @admin.display(description="similar items in the proposed scope (at proposal time)")
    def similar_view(self, obj):
        if not obj.similar:
            return "no similar rule"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} (similarity {})</li>", ((s["statement"], s["similarity"]) for s in obj.similar)))

    @admin.display(description="decide")
    def decide_link(self, obj):
        if obj.status not in (ReviewItem.Status.PENDING, ReviewItem.Status.NEEDS_EVIDENCE):
            label = "Details"
        elif obj.kind == ReviewItem.Kind.CONFLICT:
            label = "Keep new / keep old / keep both"
        elif obj.kind in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.DELETION):
            label = f"Apply / reject the {obj.kind}"
        elif obj.kind == ReviewItem.Kind.QUARANTINE:
            label = "Release / keep quarantined"
        else:
            label = "Approve / edit / reject / needs more evidence"
        return format_html('<a class="button" href="{}">{}</a>',
                           reverse("admin:memory_reviewitem_decide", args=[obj.pk]), label)

    def get_urls(self):
        return [path("<uuid:pk>/decide/", self.admin_site.admin_view(self.decide_view),
                     name="memory_reviewitem_decide"),
                path("bulk/", self.admin_site.admin_view(self.bulk_view), name="memory_reviewitem_bulk"),
                *super().get_urls()]

    def _bulk(self, request, queryset, decision):
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return HttpResponseRedirect(f"{reverse('admin:memory_reviewitem_bulk')}?decision={decision}&ids={ids}")

    @admin.action(description="Approve selected (one reason)…")
    def bulk_approve(self, request, queryset):
        return self._bulk(request, queryset, "approve")

    @admin.action(description="Reject selected (one reason)…")
    def bulk_reject(self, request, queryset):
        return self._bulk(request, queryset, "reject")

    @admin.action(description="Selected need more evidence…")
    def bulk_needs_evidence(self, request, queryset):
        return self._bulk(request, queryset, "needs_evidence")

    def bulk_view(self, request):
        if not self._may_decide(request):
            raise PermissionDenied
        source = request.POST if request.method == "POST" else request.GET
        ids = [i for i in source.get("ids", "").split(",") if i]
        try:
            items = list(ReviewItem.objects.filter(pk__in=ids).select_related("experience", "project"))
        except Exception:  # a malformed id in the address: nothing selected
            items = []
        form = BulkDecisionForm(request.POST or None, initial={"decision": source.get("decision", "approve")})
        if request.method == "POST" and form.is_valid():
            try:
                done, errors = review_decide_many(items=items, decision=form.cleaned_data["decision"],
                                                  user=request.user, reason=form.cleaned_data["reason"])
            except ApplicationError as exc:
                done, errors = 0, [exc.message]
            if done:
                self.message_user(request, f"Decided {done} of {len(items)} items "
                                           f"({form.cleaned_data['decision'].replace('_', ' ')}).")
            for error in errors:
                self.message_user(request, error, messages.ERROR)
            return redirect("admin:memory_reviewitem_changelist")
        context = {**self.admin_site.each_context(request), "items": items, "form": form,
                   "ids": ",".join(str(i.pk) for i in items), "title": "Decide several review items",
                   "opts": self.model._meta}
        return render(request, "admin/memory/reviewitem/bulk.html", context)

    def _decide_next(self, request, decided: ReviewItem):
        """After a decision, the next pending item (same project first, oldest first: the queue's order of
        arrival), or the list when nothing is left."""
        following = review_next_pending(after=decided)
        if following is None:
            self.message_user(request, "Nothing else is pending.")
            return redirect("admin:memory_reviewitem_changelist")
        return redirect("admin:memory_reviewitem_decide", following.pk)

    def decide_view(self, request, pk):
        item = get_object_or_404(ReviewItem.objects.select_related(
            "experience", "experience__module", "proposed_by", "other_experience", "other_experience__module",
            "proposed_module", "exchange", "episode",
            "previous", "previous__decided_by", "decided_by", "batch"), pk=pk)
        if not self.has_view_permission(request, item):
            raise PermissionDenied
        conflict = item.kind == ReviewItem.Kind.CONFLICT
        edit = item.kind in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.DELETION)
        quarantine = item.kind == ReviewItem.Kind.QUARANTINE
        form = ReviewDecisionForm(request.POST or None, initial={"statement": item.proposed_statement})
        if request.method == "POST" and form.is_valid():
            if not self._may_decide(request):
                raise PermissionDenied
            where = f"{item.proposed_scope} scope" + (f" ({item.proposed_module.name})" if item.proposed_module else "")
            try:
                if "reject" in request.POST:
                    review_reject(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Kept the old item." if conflict
                                      else "Rejected: the item stays as it is." if edit
                                      else "Kept in quarantine." if quarantine else "Rejected.")
                elif quarantine:
                    review_approve(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, f"Released: retrievable in {where}.")
                elif "dismiss" in request.POST:
                    review_dismiss(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Kept both items.")
                elif "needs_evidence" in request.POST:
                    review_needs_evidence(item=item, user=request.user, reason=form.cleaned_data["reason"])
                    self.message_user(request, "Set aside until a new session corroborates it.")
                else:
                    review_approve(item=item, user=request.user, edited_statement=form.cleaned_data["statement"],
                                   reason=form.cleaned_data["reason"])
                    self.message_user(request, f"Kept the new statement: it now replaces the old item in {where}."
                                      if conflict else f"Applied the {item.kind} to the item in {where}." if edit
                                      else f"Approved: the statement is now in {where}.")
                return self._decide_next(request, item)
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        open_ = item.status in (ReviewItem.Status.PENDING, ReviewItem.Status.NEEDS_EVIDENCE)
        target = quarantine_target(item) if quarantine else None
        context = {**self.admin_site.each_context(request), "item": item, "form": form, "conflict": conflict,
                   "edit": edit, "quarantine": quarantine, "target": target,
                   "target_kind": type(target).__name__.lower() if target is not None else "",
                   "details": review_item_details(item=item),
                   "open": open_ and self._may_decide(request), "cutoff": config().governance.review_similar_min,
                   "title": "Review conflict" if conflict else f"Review {item.kind}" if edit
                   else "Review quarantine" if quarantine else "Review promotion",
                   "opts": self.model._meta}
        return render(request, "admin/memory/reviewitem/decide.html", context)


@admin.register(ValiditySample)
class ValiditySampleAdmin(ReadOnlyAdmin):
    """The validity sampling queue: a person marks each sampled item accurate, stale or wrong."""

    list_display = ["statement", "item_type", "item_scope", "project", "week", "reason", "verdict", "decided_by"]
    list_filter = ["verdict", "week", "reason", "project", "experience__scope"]
    search_fields = ["experience__statement"]
    list_select_related = ["experience", "project", "decided_by"]
    readonly_fields = ["project", "experience", "week", "reason", "verdict", "note", "decided_by", "decided_at",
                       "created_at"]
    actions = ["mark_accurate", "mark_stale", "mark_wrong"]

    @admin.display(description="statement")
    def statement(self, obj):
        return format_html('{} <span class="quiet">({})</span>', obj.experience.statement[:160],
                           short_link(obj.experience))

    @admin.display(description="type")
    def item_type(self, obj):
        return obj.experience.type

    @admin.display(description="scope")
    def item_scope(self, obj):
        return obj.experience.scope

    def _judge(self, request, queryset, verdict):
        if not request.user.has_perm("memory.change_validitysample"):
            raise PermissionDenied
        done = 0
        for sample in queryset.filter(verdict=ValiditySample.Verdict.PENDING):
            validity_judge(sample=sample, verdict=verdict, user=request.user)
            done += 1
        self.message_user(request, f"Marked {done} item{'s' if done != 1 else ''} {verdict}"
                          + ("; they are sent to revalidation." if verdict != "accurate" else "."))

    @admin.action(description="Mark selected accurate")
    def mark_accurate(self, request, queryset):
        self._judge(request, queryset, ValiditySample.Verdict.ACCURATE)

    @admin.action(description="Mark selected stale (sends to revalidation)")
    def mark_stale(self, request, queryset):
        self._judge(request, queryset, ValiditySample.Verdict.STALE)

    @admin.action(description="Mark selected wrong (sends to revalidation)")
    def mark_wrong(self, request, queryset):
        self._judge(request, queryset, ValiditySample.Verdict.WRONG)


# The project admin (agents) with what the project stores and spends against its quotas: memory knows the rows.
class ProjectWithUsageAdmin(agents_admin.ProjectAdmin):
    list_display = [*agents_admin.ProjectAdmin.list_display, "exchanges_stored", "tokens_used_today"]
    readonly_fields = [*agents_admin.ProjectAdmin.readonly_fields, "exchanges_stored", "tokens_used_today"]
    actions = [*agents_admin.ProjectAdmin.actions, "export_memory"]

    @admin.action(description="Export the memory of the selected project (JSON Lines, masked text only; audited)",
                  permissions=["change"])
    def export_memory(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one project to export.", level="warning")
            return None
        project = queryset.get()
        lines = project_export(project=project, user=request.user, reason="admin export")
        response = StreamingHttpResponse(lines, content_type="application/x-ndjson; charset=utf-8")
        stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
        response["Content-Disposition"] = f'attachment; filename="recmem-{project.pk}-{stamp}.jsonl"'
        return response

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

# The agent admin with "recall as agent X" (memory/admin_recall.py): it runs search, which governance cannot import.
from memory import admin_recall  # noqa: E402,F401
