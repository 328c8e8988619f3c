"""Every management command of ours explains itself: ``--help`` is the first thing a new operator runs (bench_pii's
crashed on a bare "%" in its help text)."""

from __future__ import annotations

import pytest
from django.core.management import get_commands, load_command_class

OURS = sorted((name, app) for name, app in get_commands().items()
              if app.split(".")[0] in {"agents", "bench", "core", "governance", "memory", "recmem_site"})


def test_our_commands_are_found():
    assert {"bench_pii", "bench_locomo", "purge_subject", "create_agent"} <= {name for name, _ in OURS}


@pytest.mark.parametrize(("name", "app"), OURS, ids=[name for name, _ in OURS])
def test_help_renders(name, app):
    parser = load_command_class(app, name).create_parser("manage.py", name)
    assert parser.format_help().startswith("usage:")
