from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from recmem_site.health import healthz

api_v1 = [
    path("", include("agents.urls")),
    path("", include("memory.urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]),
         name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", authentication_classes=[],
                                                     permission_classes=[]), name="docs"),
]
