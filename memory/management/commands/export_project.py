"""Export a project's memory as JSON Lines (or a tar holding them): masked text only, audited."""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from governance.selectors import project_find
from memory.services.portability import export_write, project_export


class Command(BaseCommand):
    help = ("Export a project's memory (sessions, exchanges, episodes, experiences, provenance, versions, review "
            "items; vectors with their model) as JSON Lines. The audit trail is exported by audit_export.")

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="project name or id")
        parser.add_argument("--out", default="-", help="file to write; - (default): standard output")
        parser.add_argument("--tar", action="store_true", help="a tar holding export.jsonl instead of plain lines")
        parser.add_argument("--include-vault", action="store_true",
                            help="add the vault's originals in clear: needs --user with the vault's view and reveal "
                                 "permissions and --reason; audited as a reveal")
        parser.add_argument("--user", default="", help="the person exporting (username)")
        parser.add_argument("--reason", default="", help="why (kept in the audit trail)")

    def handle(self, *args, **o):
        project = project_find(name_or_id=o["project"])
        if project is None:
            raise CommandError(f"no project {o['project']!r}")
        user = None
        if o["user"]:
            user = get_user_model().objects.filter(username=o["user"]).first()
            if user is None:
                raise CommandError(f"no user {o['user']!r}")
        if o["include_vault"] and user is None:
            raise CommandError("--include-vault needs --user (a person with the vault's reveal permission)")
        try:
            lines = project_export(project=project, user=user, actor_label="cli:export_project",
                                   include_vault=o["include_vault"], reason=o["reason"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        if o["out"] == "-":
            export_write(lines, sys.stdout.buffer, tar=o["tar"])
            sys.stdout.buffer.flush()
            return
        with open(o["out"], "wb") as out:
            size = export_write(lines, out, tar=o["tar"])
        self.stderr.write(f"wrote {o['out']} ({size:,} bytes of JSON Lines)")
