"""The OpenAPI schema class (its own module: drf_spectacular.openapi imports DRF's views, which load the
authentication classes; defining it in agents.authentication would be a circular import)."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

from agents.authentication import KEY_ONLY


class RoleDocumentingSchema(AutoSchema):
    """The OpenAPI description of every operation says which role it needs (from the view's ``required_roles``)."""

    def get_operation(self, *args, **kwargs):
        # After extend_schema(description=...) has had its say: the note is appended to whatever description.
        operation = super().get_operation(*args, **kwargs)
        declared = getattr(self.view, "required_roles", {})
        method = self.method.lower()
        if operation is None or method not in declared:
            return operation
        role = declared[method]
        if isinstance(role, tuple):
            note = f"Needs the {' and '.join(f'`{r}`' for r in role)} roles (403 `missing_role` otherwise)."
        else:
            note = ("Needs a valid API key only." if role is KEY_ONLY
                    else f"Needs the `{role}` role (403 `missing_role` otherwise).")
        description = operation.get("description", "")
        operation["description"] = f"{description}\n\n{note}" if description else note
        return operation
