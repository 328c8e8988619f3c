"""The admin as RecMem uses it: Django's admin with the governance dashboard as its landing page."""

from django.contrib.admin.apps import AdminConfig


class RecMemAdminConfig(AdminConfig):
    default_site = "recmem_site.admin_site.RecMemAdminSite"
