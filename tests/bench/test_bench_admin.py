"""bench_admin on a small trail: every registered changelist and the item pages are requested and reported."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib import admin
from django.core.management import call_command

from governance.models import AuditEvent


@pytest.mark.django_db(transaction=True)
def test_bench_admin_small_trail(tmp_path):
    out = tmp_path / "out.json"
    stdout = io.StringIO()
    call_command("bench_admin", "--events", "300", "--repeats", "2", "--json", str(out), stdout=stdout)
    report = json.loads(out.read_text())
    assert report["benchmark"] == "admin_pages" and report["audit_events"] == 300
    assert AuditEvent.objects.count() >= 300
    pages = {p["page"] for p in report["pages"]}
    for model in admin.site._registry:
        assert f"list {model._meta.app_label}.{model._meta.model_name}" in pages
    assert {"dashboard", "experience page (history)", "review decide page", "rollback preview"} <= pages
    assert report["all_ok"], [p for p in report["pages"] if p["status"] != 200]
    assert all(p["queries"] > 0 for p in report["pages"])  # the count is real, not an empty log
    assert "Admin pages with 300 audit events" in stdout.getvalue()
