from django.core.management.base import BaseCommand, CommandError

from agents.keys import key_parse_prefix
from agents.selectors import api_key_get_by_prefix
from governance.services.agent_admin import agent_key_revoke


class Command(BaseCommand):
    help = "Revoke an API key, given the whole key or its 8-character prefix."

    def add_arguments(self, parser):
        parser.add_argument("key", help="the raw key or its prefix")
        parser.add_argument("--reason", default="", help="why (kept in the audit trail)")

    def handle(self, *args, key, reason, **options):
        prefix = key_parse_prefix(key) or key
        api_key = api_key_get_by_prefix(prefix=prefix)
        if api_key is None:
            raise CommandError(f"no key with prefix {prefix!r}")
        agent_key_revoke(api_key=api_key, actor_label="cli:revoke_key", reason=reason)
        self.stdout.write(f"revoked {api_key.prefix} ({api_key.agent})")
