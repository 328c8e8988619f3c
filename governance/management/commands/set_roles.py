from django.core.management.base import BaseCommand, CommandError

from agents.selectors import agent_get_by_name
from core.errors import ApplicationError
from governance.services.agent_admin import agent_roles_set


class Command(BaseCommand):
    help = "Replace an existing agent's roles (audited with the roles before and after)."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--agent", required=True)
        parser.add_argument("--role", action="append", required=True, dest="roles",
                            help="writer, reader, operator, reviewer; repeat for several")
        parser.add_argument("--reason", default="", help="why (kept in the audit trail)")

    def handle(self, *args, project, agent, roles, reason, **options):
        found = agent_get_by_name(project_name=project, name=agent)
        if found is None:
            raise CommandError(f"no agent {agent!r} in project {project!r}")
        before = list(found.roles)
        try:
            agent_roles_set(agent=found, roles=roles, actor_label="cli:set_roles", reason=reason)
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        change = "unchanged" if before == list(found.roles) else f"was {before}"
        self.stdout.write(f"{found}: roles {list(found.roles)} ({change})")
