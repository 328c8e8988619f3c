"""WSGI entry point (gunicorn in `recmem run`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")

from recmem_site.tracing import setup as tracing_setup  # noqa: E402 - needs the settings module named above

tracing_setup(role="web")  # before the application loads its middleware (RECMEM_TRACING; off by default)
from recmem_site.wsgi_body import ChunkedBodyMiddleware  # noqa: E402

application = ChunkedBodyMiddleware(get_wsgi_application())
