"""The one read-only admin base, for governance and memory (memory imports governance, never the reverse).

Rows shown through it change only through the services, which check the actor, keep a reason and write an audit
event; the admin's own add, change and delete would do none of that, so it offers none of them, not even to a
superuser. The acts the admin does offer (rollback, release, restore, review decisions, reveal) are admin actions
or pages that call those services.
"""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add, change or delete from the admin, even for superusers: view pages and service-backed actions only."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
