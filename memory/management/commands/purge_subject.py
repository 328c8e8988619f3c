"""Forget a subject on request (a person's right to be forgotten): ``manage.py purge_subject --project acme
--value "Jane Roe"`` (an original value, looked up through the pseudonym registry and the vault) or ``--value
"<PERSON_3f2a1b>"`` (a placeholder). Every exchange, episode, version and review item mentioning it is rewritten,
every experience mentioning it deleted, its vault entries deleted; one audit event records the counts, never the
value (memory/services/lifecycle.py: subject_purge)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from governance.selectors import project_find
from memory.services.lifecycle import subject_purge


class Command(BaseCommand):
    help = "Purge a subject (a placeholder or an original value) from a project's memory."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="project name or id")
        parser.add_argument("--value", required=True, help="the original value, or its placeholder")
        parser.add_argument("--reason", default="", help="why (audited)")

    def handle(self, *args, project, value, reason, **options):
        found = project_find(name_or_id=project)
        if found is None:
            raise CommandError("no such project")
        try:
            counts = subject_purge(project=found, value=value, reason=reason)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        for key, n in counts.items():
            self.stdout.write(f"{key}: {n}")
