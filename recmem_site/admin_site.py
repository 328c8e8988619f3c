"""The admin site: its landing page is the governance dashboard (memory/dashboard.py), the model list below it."""

from django.contrib import admin


class RecMemAdminSite(admin.AdminSite):
    site_header = "RecMem governance"
    site_title = "RecMem"
    index_title = "Dashboard"
    index_template = "admin/recmem_dashboard.html"

    def index(self, request, extra_context=None):
        from memory.dashboard import dashboard_context

        context = dashboard_context(project_name=request.GET.get("project"))
        return super().index(request, extra_context={**context, **(extra_context or {})})
