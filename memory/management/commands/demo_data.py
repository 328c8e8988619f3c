"""``manage.py demo_data``: a demo project with promotions to review, a conflict to decide and batches to roll back,
made by replaying a small team's conversations through the API (memory/services/demo.py)."""

from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError


class Command(BaseCommand):
    help = ("Create a demo project (three agents, two modules) from conversations replayed through the API: "
            "promotion proposals, a cross-scope conflict and batches to roll back, for a first look at the console.")

    def add_arguments(self, parser):
        parser.add_argument("--project", default="demo", help="the project's name (default: demo)")
        parser.add_argument("--replace", action="store_true",
                            help="if the project exists, archive it (renamed; its audit trail stays) and start over")

    def handle(self, *args, project, replace, **options):
        from memory.gateways.embeddings import get_embedder
        from memory.services.demo import AGENTS, demo_project_create

        out = self.stdout.write
        out(f"Replaying the demo team's conversations into project {project!r} (extractive consolidator, no LLM) ...")
        try:
            result = demo_project_create(name=project, replace=replace, log=out)
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        if result.replaced:
            out(f"The previous project {project!r} is archived as {result.replaced!r} (its keys no longer work).")
        out(f"\nProject {project!r}: agents {', '.join(f'{a} ({m})' for a, m in AGENTS.items())}; "
            f"{result.exchanges} exchanges stored.")
        out(f"Promotion proposals to review ({len(result.proposals)}):")
        for item in result.proposals:
            out(f"  {item.experience.statement}  [{item.experience.scope} -> {item.proposed_scope}]"
                f"  /admin/memory/reviewitem/{item.pk}/decide/")
        out(f"Conflicts to decide ({len(result.conflicts)}):")
        for item in result.conflicts:
            out(f"  {item.experience.statement} [{item.experience.scope}]  vs  {item.other_experience.statement} "
                f"[{item.other_experience.scope}]  /admin/memory/reviewitem/{item.pk}/decide/")
        out(f"Consolidation batches to roll back ({len(result.batches)}):")
        for batch, plan in result.batches:
            out(f"  {str(batch.pk)[:8]} by {batch.agent.name}: removes {len(plan.removed)} item(s)"
                f"{', with dependents' if plan.dependents else ''}"
                f"  /admin/governance/consolidationbatch/{batch.pk}/rollback/")
        if not (result.proposals and result.conflicts and result.batches):
            # The conversations are tuned for the default embedder's thresholds; another model may merge otherwise.
            self.stderr.write(f"Note: not everything above was produced with the embedding model "
                              f"{get_embedder().model_id}; the demo is tuned for the default (MiniLM).")
        out("\nOpen /admin/ (a login: manage.py createsuperuser). The agents' API keys, shown once:")
        for name, key in result.keys.items():
            out(f"  {name:5} {key}")
