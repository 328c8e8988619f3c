"""Walk the audit hash chains and their signed checkpoints and name every broken link (exit status 1 when any
chain is broken)."""

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
                first = report.breaks[0]
                where = f"event id {first.event_id}" if first.event_id is not None else "checkpoint"
                self.stdout.write(f"BROKEN  {report.project_name}: {len(report.breaks)} broken link(s); first broken "
                                  f"link at seq {first.seq} ({where}): {first.problem}; {report.events} events "
                                  f"verified")
                for more in report.breaks[1:]:
                    where = f"event id {more.event_id}" if more.event_id is not None else "checkpoint"
                    self.stdout.write(f"          also at seq {more.seq} ({where}): {more.problem}")
        if broken:
            raise CommandError(f"{broken} of {len(chains)} audit chain(s) broken")
        self.stdout.write(f"{len(chains)} audit chain(s) intact")
