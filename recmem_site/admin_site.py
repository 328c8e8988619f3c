"""The admin site: its landing page is the governance dashboard (memory/dashboard.py), the model list below it."""

from django.contrib import admin


class RecMemAdminSite(admin.AdminSite):
    site_header = "RecMem governance"
    site_title = "RecMem"
    index_title = "Dashboard"
    index_template = "admin/recmem_dashboard.html"
    # Django's navigation sidebar takes ~300 px of every list page: at 1400 px the audit list with its filters then
    # scrolled sideways (actor, scope and reason out of view). The dashboard and the breadcrumbs lead everywhere.
    enable_nav_sidebar = False

    def index(self, request, extra_context=None):
        from memory.dashboard import dashboard_context

        context = dashboard_context(project_name=request.GET.get("project"))
        return super().index(request, extra_context={**context, **(extra_context or {})})
