from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from agents.selectors import agent_get_by_name
from core.errors import ApplicationError
from governance.services.agent_admin import agent_key_issue


class Command(BaseCommand):
    help = "Issue another API key for an existing agent; prints the key alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--agent", required=True)
        parser.add_argument("--name", default="")
        parser.add_argument("--expires-in-days", type=int, default=None)

    def handle(self, *args, project, agent, name, expires_in_days, **options):
        found = agent_get_by_name(project_name=project, name=agent)
        if found is None:
            raise CommandError(f"no agent {agent!r} in project {project!r}")
        expires_at = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
        try:
            issued = agent_key_issue(agent=found, name=name, expires_at=expires_at, actor_label="cli:create_key")
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"issued key {issued.api_key.prefix} for {found}")
        self.stdout.write(issued.raw_key)
