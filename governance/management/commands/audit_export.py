"""Export audit events as CSV or JSON Lines, filtered by project, actor, action and time."""

import itertools

from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime

from governance.export import FORMATS, export_lines
from governance.models import AuditEvent
from governance.selectors import audit_checkpoint_rows, audit_events, audit_export_rows, project_find


def _time(value: str | None, name: str):
    if not value:
        return None
    parsed = parse_datetime(value)
    if parsed is None or parsed.tzinfo is None:
        raise CommandError(f"--{name}: expected an ISO 8601 time with a zone, e.g. 2026-01-31T00:00:00Z")
    return parsed


class Command(BaseCommand):
    help = ("Export the audit trail (CSV or JSON Lines; JSON Lines keeps exact values, for checking hashes, and ends "
            "with each chain's signed checkpoint unless filtered by actor, action or --until).")

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=FORMATS, default="jsonl")
        parser.add_argument("--project", help="project name or id")
        parser.add_argument("--actor", help="agent name or id, username, or actor label (system:consolidation)")
        parser.add_argument("--action", choices=AuditEvent.Action.values)
        parser.add_argument("--since", help="ISO 8601, inclusive")
        parser.add_argument("--until", help="ISO 8601, exclusive")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, **o):
        project = None
        if o["project"]:
            project = project_find(name_or_id=o["project"])
            if project is None:
                raise CommandError(f"no project {o['project']!r}")
        qs = audit_events(project=project, actor=o["actor"] or "", action=o["action"] or "",
                          since=_time(o["since"], "since"), until=_time(o["until"], "until"))
        lines = export_lines(audit_export_rows(qs), o["format"])
        if o["format"] == "jsonl" and not (o["actor"] or o["action"] or o["until"]):
            # The chains' signed anchors last (an export that reaches the chains' heads): kept elsewhere, it shows
            # a chain later deleted whole, checkpoint and all.
            lines = itertools.chain(lines, export_lines(audit_checkpoint_rows(project=project), "jsonl"))
        if not o["output"]:
            for line in lines:
                self.stdout.write(line, ending="")
            return
        with open(o["output"], "w", encoding="utf-8", newline="") as out:
            out.writelines(lines)
        self.stderr.write(f"wrote {o['output']}")
