from django.core.management.base import BaseCommand, CommandError

from agents.services import agent_create, api_key_create
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Create an agent (and its project/modules when missing); prints the new API key alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--module", action="append", default=[], dest="modules")
        parser.add_argument("--role", action="append", default=[], dest="roles",
                            help="writer, reader, operator, reviewer (default: writer and reader)")

    def handle(self, *args, project, name, modules, roles, **options):
        try:
            agent = agent_create(project_name=project, name=name, module_names=modules,
                                 roles=roles or ["writer", "reader"])
            issued = api_key_create(agent=agent, name="create_agent")
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"created agent {agent} (id {agent.id}), roles {agent.roles}, "
                          f"modules {[m.name for m in agent.modules.all()]}; key prefix {issued.api_key.prefix}")
        self.stdout.write(issued.raw_key)
