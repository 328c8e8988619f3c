#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands whose work an operator traces (RECMEM_TRACING): the worker's consolidation batches, the dev server.
TRACED_COMMANDS = {"qcluster": "worker", "runserver": "web"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")
    from django.core.management import execute_from_command_line

    if len(sys.argv) > 1 and sys.argv[1] in TRACED_COMMANDS:
        from recmem_site.tracing import setup as tracing_setup

        tracing_setup(role=TRACED_COMMANDS[sys.argv[1]])
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
