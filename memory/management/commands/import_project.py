"""Import a project export (JSON Lines or a tar of them): checked whole first, then written in one transaction."""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from memory.services.portability import export_open, export_parse, project_import


class Command(BaseCommand):
    help = ("Import a project export. Every line is checked before anything is written; the import is all or "
            "nothing and idempotent (rows already there are kept: a second import creates nothing).")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export (JSON Lines or a tar from export_project --tar); - for stdin")
        parser.add_argument("--as-project", default="", help="import under this project name (default: the "
                                                             "exported one)")
        parser.add_argument("--merge", action="store_true",
                            help="allow importing into an existing project that is not the exported one")
        parser.add_argument("--user", default="", help="the person importing (username), for the audit trail")

    def handle(self, *args, **o):
        user = None
        if o["user"]:
            user = get_user_model().objects.filter(username=o["user"]).first()
            if user is None:
                raise CommandError(f"no user {o['user']!r}")
        try:
            with export_open(o["file"]) as stream:
                parsed = export_parse(stream)
            report = project_import(parsed=parsed, as_project=o["as_project"], merge=o["merge"], user=user,
                                    actor_label="cli:import_project")
        except (ApplicationError, OSError) as exc:
            raise CommandError(getattr(exc, "message", str(exc))) from None
        self.stdout.write(json.dumps({"project": report.project.name, "project_id": str(report.project.pk),
                                      "project_created": report.project_created, "created": report.created,
                                      "created_total": report.created_total, "existing": report.existing,
                                      "reembedded": report.reembedded}, indent=2))
