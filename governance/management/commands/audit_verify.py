"""Walk the audit hash chains and name the first broken link of each (exit status 1 when any is broken)."""

from django.core.management.base import BaseCommand, CommandError

from governance.selectors import audit_chain_verify, audit_chains, project_find


class Command(BaseCommand):
    help = "Verify the audit trail's hash chains (one per project); print each chain's head to keep elsewhere."

    def add_arguments(self, parser):
        parser.add_argument("--project", help="name or id of one project (default: every chain)")

    def handle(self, *args, project=None, **options):
        if project:
            found = project_find(name_or_id=project)
            if found is None:
                raise CommandError(f"no project {project!r}")
            chains = [found.pk]
        else:
            chains = audit_chains()
        broken = 0
        for project_id in chains:
            report = audit_chain_verify(project_id=project_id)
            if report.ok:
                self.stdout.write(f"OK      {report.project_name}: {report.events} events, head seq "
                                  f"{report.head_seq} hash {report.head_hash or '-'}")
            else:
                broken += 1
                self.stdout.write(f"BROKEN  {report.project_name}: first broken link at seq {report.broken_seq} "
                                  f"(event id {report.broken_event_id}): {report.problem}; "
                                  f"{report.events} events verified before it")
        if broken:
            raise CommandError(f"{broken} of {len(chains)} audit chain(s) broken")
        self.stdout.write(f"{len(chains)} audit chain(s) intact")
