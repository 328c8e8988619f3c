"""The governance figures as Prometheus metrics on /metrics (django-prometheus's exporter view).

One collector reads them from the database at scrape time, so every web process answers the same numbers
(per-process counters would differ between gunicorn workers). Names start with ``recmem_``.
"""

from __future__ import annotations

import logging

from prometheus_client.core import REGISTRY, GaugeMetricFamily

logger = logging.getLogger(__name__)

_METRIC_FIELDS = [
    ("hit_rate", "Retrieval hit rate: (used + cited) / returned items, latest day"),
    ("repetition_rate", "Exchanges restating an active preference or constraint, per 100 exchanges, latest day"),
    ("validity_rate", "Accurate share of the validity samples judged in the last 28 days"),
    ("validity_low", "Lower bound of the 95% Wilson interval of the validity rate"),
    ("validity_high", "Upper bound of the 95% Wilson interval of the validity rate"),
    ("prompt_tokens", "Prompt tokens of the batches finished on the latest day"),
    ("completion_tokens", "Completion tokens of the batches finished on the latest day"),
    ("batch_seconds", "Seconds spent in batches finished on the latest day"),
    ("exchanges_total", "Stored exchanges"),
    ("episodes_active", "Active episodes"),
    ("experiences_active", "Active experiences"),
]


class GovernanceCollector:
    def describe(self):
        # Without describe(), registering would call collect() (a database query) at import time.
        return []

    def collect(self):
        from memory.figures import governance_figures

        try:
            figures = governance_figures()
        except Exception:  # a scrape must never take the web process down; the error is logged
            logger.exception("governance figures unavailable for /metrics")
            return
        gauges = {
            "review_pending": GaugeMetricFamily("recmem_review_pending", "Review items waiting for a person",
                                                labels=["project", "kind"]),
            "batches_failed": GaugeMetricFamily("recmem_batches_failed", "Consolidation batches in state failed",
                                                labels=["project"]),
            "backlog": GaugeMetricFamily("recmem_candidates_pending", "Candidates waiting for consolidation",
                                         labels=["project"]),
            "validity_queue": GaugeMetricFamily("recmem_validity_samples_pending",
                                                "Validity samples waiting for a verdict", labels=["project"]),
            "held": GaugeMetricFamily("recmem_exchanges_held", "Exchanges held back by a rollback",
                                      labels=["project"]),
        }
        daily = {name: GaugeMetricFamily(f"recmem_{name}", doc, labels=["project", "scope"])
                 for name, doc in _METRIC_FIELDS}
        for p in figures["projects"]:
            gauges["review_pending"].add_metric([p["name"], "promotion"], p["pending_promotions"])
            gauges["review_pending"].add_metric([p["name"], "conflict"], p["pending_conflicts"])
            gauges["batches_failed"].add_metric([p["name"]], p["failed_batches"])
            gauges["backlog"].add_metric([p["name"]], p["backlog"])
            gauges["validity_queue"].add_metric([p["name"]], p["validity_pending"])
            gauges["held"].add_metric([p["name"]], p["held"])
            for scope, row in p["latest"].items():
                for name, _ in _METRIC_FIELDS:
                    value = getattr(row, name)
                    if value is not None:
                        daily[name].add_metric([p["name"], scope], float(value))
        queued = GaugeMetricFamily("recmem_queue_tasks", "Tasks waiting in the django-q2 queue (ORM broker)")
        queued.add_metric([], figures["queued_tasks"])
        yield from gauges.values()
        yield from daily.values()
        yield queued


_registered = False


def register() -> None:
    """Register the collector once per process."""
    global _registered
    if not _registered:
        REGISTRY.register(GovernanceCollector())
        _registered = True


def metrics_view(request):
    """``GET /metrics`` for a scraper: from the machine itself (a loopback address; with RECMEM_NUM_PROXIES the
    address the proxy saw), or with ``Authorization: Bearer $RECMEM_METRICS_TOKEN``. Anyone else gets 403: the
    figures name the projects and show their activity."""
    import hmac
    import ipaddress

    from django_prometheus.exports import ExportToDjangoView

    from core.config import config
    from recmem_site.errors import error_response
    from recmem_site.security import client_ip

    token = config().server.metrics_token
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return ExportToDjangoView(request)
    try:
        local = ipaddress.ip_address(client_ip(request)).is_loopback
    except ValueError:
        local = False
    if local:
        return ExportToDjangoView(request)
    return error_response(403, "metrics_forbidden", "the metrics are served to a loopback address or with "
                          "Authorization: Bearer <RECMEM_METRICS_TOKEN>")
