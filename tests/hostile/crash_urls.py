"""A URL configuration for tests: the real one plus views that crash (unexpected exceptions must never leak)."""

from django.urls import path
from rest_framework.views import APIView

from recmem_site.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401


class CrashApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    def get(self, request):
        raise RuntimeError("internal detail: password=hunter2 at /srv/secret/path.py")


def crash_view(request):
    raise KeyError("internal detail: password=hunter2")


urlpatterns = [*urlpatterns, path("crash/api", CrashApi.as_view()), path("crash/plain", crash_view)]
