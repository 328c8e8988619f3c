"""Test settings: a throwaway embedded PostgreSQL per test run, synchronous queue, no secrets on disk.

Imported by pytest (``DJANGO_SETTINGS_MODULE=recmem_site.settings.test``). The throwaway home is created by
tests/conftest.py before Django is set up and passed in ``RECMEM_HOME``; it is never the developer's `.recmem/`.
"""

import os
import tempfile

if not os.environ.get("DATABASE_URL") and not os.environ.get("RECMEM_TEST_HOME_OK"):
    # A test run must never use the developer's data: force a private home unless conftest already chose one.
    os.environ["RECMEM_HOME"] = tempfile.mkdtemp(prefix="recmem-test-")
    os.environ["RECMEM_TEST_HOME_OK"] = "1"

os.environ.setdefault("DJANGO_SECRET_KEY", "test-secret-key-not-for-production-0123456789abcdef")

from recmem_site.settings.base import *  # noqa: E402,F403
from recmem_site.settings.base import MIDDLEWARE, Q_CLUSTER, RECMEM  # noqa: E402

DEBUG = False
RECMEM = RECMEM.replace(queue__sync=True)
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Static files are not collected in tests; whitenoise would warn about the missing folder on every request.
MIDDLEWARE = [m for m in MIDDLEWARE if not m.startswith("whitenoise.")]
