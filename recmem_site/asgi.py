"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")

from recmem_site.tracing import setup as tracing_setup  # noqa: E402 - needs the settings module named above

tracing_setup(role="web")
application = get_asgi_application()
