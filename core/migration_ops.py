"""Helpers for hand-written migrations."""

from __future__ import annotations


def move_content_type(old_app: str, new_app: str, model: str):
    """A RunPython function relabelling ``model``'s content type when the model moves from one app to another, so
    permissions granted on it (and admin log entries) are kept. Nothing happens on a fresh database, where content
    types are created after the migrations."""

    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        if not ContentType.objects.filter(app_label=new_app, model=model).exists():
            ContentType.objects.filter(app_label=old_app, model=model).update(app_label=new_app)

    return move
