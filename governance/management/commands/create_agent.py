from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from governance.services.agent_admin import agent_key_issue, agent_register


class Command(BaseCommand):
    help = "Create an agent (audited; its project/modules when missing); prints the new API key alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--module", action="append", default=[], dest="modules")
        parser.add_argument("--role", action="append", default=[], dest="roles",
                            help="writer, reader, operator, reviewer (default: writer and reader)")

    def handle(self, *args, project, name, modules, roles, **options):
        try:
            agent = agent_register(project_name=project, name=name, module_names=modules,
                                   roles=roles or ["writer", "reader"], actor_label="cli:create_agent")
            issued = agent_key_issue(agent=agent, name="create_agent", actor_label="cli:create_agent")
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"created agent {agent} (id {agent.id}), roles {agent.roles}, "
                          f"modules {[m.name for m in agent.modules.all()]}; key prefix {issued.api_key.prefix}")
        self.stdout.write(issued.raw_key)
