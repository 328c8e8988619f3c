"""Allow a term for a project (never masked as a name, place or group), or withdraw it; audited."""

from django.core.management.base import BaseCommand, CommandError

from governance.selectors import project_find
from governance.services.privacy import allowed_term_add, allowed_term_remove


class Command(BaseCommand):
    help = ("Allow TERM for a project: the name and place models may no longer claim it (e-mail addresses, numbers "
            "and secrets are masked whatever is allowed). --remove withdraws it. Every change is audited.")

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="project name or id")
        parser.add_argument("term", nargs="+", help="the term (several words are one term)")
        parser.add_argument("--remove", action="store_true", help="withdraw the term")

    def handle(self, *args, **o):
        project = project_find(name_or_id=o["project"])
        if project is None:
            raise CommandError(f"no project {o['project']!r}")
        term = " ".join(o["term"])
        if o["remove"]:
            if not allowed_term_remove(project=project, term=term, actor_label="cli:allow_term"):
                raise CommandError(f"{term!r} is not allowed in {project.name}")
            self.stdout.write(f"withdrawn: {term!r} in {project.name}")
        else:
            entry = allowed_term_add(project=project, term=term, actor_label="cli:allow_term")
            self.stdout.write(f"allowed: {entry.term!r} in {project.name}")
