from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from recmem_site import prometheus
from recmem_site.health import healthz
from recmem_site.home import home

api_v1 = [
    path("", include("agents.urls")),
    path("", include("memory.urls")),
]

prometheus.register()

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]),
         name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", authentication_classes=[],
                                                     permission_classes=[]), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema", authentication_classes=[],
                                                    permission_classes=[]), name="redoc"),
    # /metrics: Prometheus exposition (django-prometheus), with the governance figures; loopback or a token only.
    path("metrics", prometheus.metrics_view, name="prometheus-django-metrics"),
]

# Django's own error pages (URL not found, a body over the size limit, a crash outside DRF) as JSON error bodies.
handler400 = "recmem_site.errors.bad_request"
handler403 = "recmem_site.errors.permission_denied"
handler404 = "recmem_site.errors.page_not_found"
handler500 = "recmem_site.errors.server_error"
