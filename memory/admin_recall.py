"""The admin's *recall as agent X*: a reviewer picks an agent and a question and sees what that agent would get from
search — the context block and the hits, with scores and the scope rule each passed.

The page runs the API's own search (``memory.search.services.search_unrecorded`` under the agent's visibility, what
``POST /search`` runs) without the agent's record (hit counts, search log), and audits the reviewer's read. It hangs
on the agent admin (``/admin/agents/agent/recall/``), re-registered over governance's audited agent admin the way
this app re-registers the project admin: governance sits below memory and cannot import search.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html

from agents.models import Agent, AgentRole, Module
from agents.visibility import Scope, agent_visibility, visible_because
from core.errors import ApplicationError
from governance.agent_admin import AuditedAgentAdmin
from memory.search.query import Hit, SearchQuery
from memory.search.services import recall_as_run

# The page shows memory rows of every scope of the agent's project: whoever may already read those rows in the admin
# (no permission of its own, so no migration; a superuser has them all).
RECALL_PERMISSIONS = ("agents.view_agent", "memory.view_exchange", "memory.view_episode", "memory.view_experience")


def may_recall(user) -> bool:
    return user.is_active and user.is_staff and user.has_perms(RECALL_PERMISSIONS)


class AgentChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Agent) -> str:
        return f"{obj.project.name} / {obj.name}" + ("" if obj.is_active else " (inactive)")


class RecallForm(forms.Form):
    """The API's bounds (``SearchApi.SearchInputSerializer``): a bad value is a form error, never a crash."""

    agent = AgentChoiceField(queryset=Agent.objects.select_related("project").order_by("project__name", "name"))
    query = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 3, "cols": 100}),
                            help_text="the question, as the agent would send it (masked before it is searched)")
    k_sub = forms.IntegerField(required=False, min_value=0, max_value=100, label="exchanges (k_sub)",
                               help_text="empty: the server's default, as for the agent")
    k_epi = forms.IntegerField(required=False, min_value=0, max_value=50, label="episodes (k_epi)")
    k_sem = forms.IntegerField(required=False, min_value=0, max_value=100, label="experiences (k_sem)")
    token_budget = forms.IntegerField(required=False, min_value=50, max_value=32000, label="token budget")

    def search_query(self) -> SearchQuery:
        data = self.cleaned_data
        return SearchQuery(query=data["query"], k_sub=data["k_sub"], k_epi=data["k_epi"], k_sem=data["k_sem"],
                           token_budget=data["token_budget"])


def _text(layer: str, obj) -> str:
    if layer == "experience":
        return f"[{obj.type}] {obj.statement}"
    if layer == "episode":
        return f"{obj.title}: {obj.narrative}"
    return f"user: {obj.user_text} | assistant: {obj.assistant_text}"


def _why(obj, agent: Agent, visibility, modules: dict) -> str:
    """Why the agent may see ``obj``, in words (the visibility rule's clause that let it through)."""
    because = visible_because(obj, visibility)
    if because == Scope.PERSONAL:
        return f"personal: {agent.name}'s own"
    if because == Scope.MODULE:
        return f"module {modules.get(obj.module_id, obj.module_id)}: {agent.name} is a member"
    if because == Scope.PROJECT:
        return f"project {agent.project.name}: every agent of the project"
    return "NOT VISIBLE to this agent (a bug: report it)"


def recall_rows(*, agent: Agent, hits: list[Hit], layer: str, visibility, modules: dict) -> list[dict]:
    return [{"n": i, "obj": h.obj, "layer": layer, "text": _text(layer, h.obj), "scope": h.obj.scope,
             "why": _why(h.obj, agent, visibility, modules), "score": h.score, "similarity": h.similarity,
             "relevance": h.relevance,
             "url": reverse(f"admin:memory_{layer}_change", args=[h.obj.pk])}
            for i, h in enumerate(hits, 1)]


class AgentWithRecallAdmin(AuditedAgentAdmin):
    list_display = [*AuditedAgentAdmin.list_display, "recall_link"]

    @admin.display(description="recall")
    def recall_link(self, obj):
        return format_html('<a href="{}?agent={}">recall as…</a>', reverse("admin:agents_agent_recall"), obj.pk)

    def get_urls(self):
        return [path("recall/", self.admin_site.admin_view(self.recall_view), name="agents_agent_recall"),
                *super().get_urls()]

    def recall_view(self, request):
        if not may_recall(request.user):
            raise PermissionDenied
        initial = {}
        if request.method == "GET" and request.GET.get("agent"):
            initial["agent"] = request.GET["agent"]  # shown preselected only if it is one of the choices
        form = RecallForm(request.POST or None, initial=initial)
        status, shown = 200, None
        if request.method == "POST":
            status = 400
            if form.is_valid():
                agent = form.cleaned_data["agent"]
                try:
                    shown = recall_as_run(reviewer=request.user, agent=agent, query=form.search_query())
                    status = 200
                except ApplicationError as exc:  # the query cannot be masked or stored as asked: a form error
                    form.add_error("query", exc.message)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Recall as agent",
                   "opts": self.model._meta}
        if shown is not None:
            agent = form.cleaned_data["agent"]
            visibility = agent_visibility(agent=agent)
            modules = dict(Module.objects.filter(pk__in=visibility.module_ids).values_list("pk", "name"))
            result = shown.result
            layers = [("experience", "experiences", "Experiences", result.experiences),
                      ("episode", "episodes", "Episodes", result.episodes),
                      ("exchange", "exchanges", "Exchanges", result.exchanges),
                      ("exchange", "neighbours",
                       "Session neighbours (context expansion: in the block only, not among the hits)",
                       result.neighbours)]
            context.update({
                "agent": agent, "query": shown.query, "result": result,
                "modules": sorted(modules.values()), "may_search": AgentRole.READER in agent.roles,
                "layers": [{"anchor": anchor, "title": title,
                            "rows": recall_rows(agent=agent, hits=hits, layer=key, visibility=visibility,
                                                modules=modules)}
                           for key, anchor, title, hits in layers if hits or anchor != "neighbours"],
            })
        return render(request, "admin/memory/recall.html", context, status=status)


admin.site.unregister(Agent)
admin.site.register(Agent, AgentWithRecallAdmin)
