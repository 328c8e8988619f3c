"""WSGI entry point (gunicorn in `recmem run`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")
application = get_wsgi_application()
