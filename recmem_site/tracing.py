"""OpenTelemetry for operators: one trace per ingest request (Django → ingest → mask → embed → store → trigger, with
the SQL of each step) and one per consolidation batch (plan → each LLM call with its HTTP request → write).

Off by default. ``RECMEM_TRACING=otlp`` exports to ``RECMEM_OTLP_ENDPOINT`` (OTLP over HTTP; empty: the SDK's
``OTEL_EXPORTER_OTLP_*`` variables or http://localhost:4318), ``console`` prints spans to the log. Needs the ``otel``
extra (``pip install -e ".[otel]"``, which `make` installs). Called by ``wsgi.py``/``asgi.py`` (every gunicorn
worker) and ``manage.py`` (the qcluster; its forked workers inherit the provider).
"""

from __future__ import annotations

import logging
import os
import socket

from core import tracing
from core.config import config

logger = logging.getLogger(__name__)

_installed: list[object] = []


def setup(*, role: str, exporter=None) -> bool:
    """Install the tracer provider and the Django, psycopg and httpx instrumentations; True when tracing is on.

    ``exporter`` (tests: an in-memory exporter) overrides ``RECMEM_TRACING``. Idempotent within a process.
    """
    mode = config().tracing.mode
    if exporter is None and mode == "off":
        return False
    if tracing.enabled():
        return True
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor
    except ImportError as exc:
        raise RuntimeError(f"RECMEM_TRACING={mode} needs the otel extra (pip install -e '.[otel]'): {exc}") from None

    if exporter is not None:
        processor = SimpleSpanProcessor(exporter)
    elif mode == "console":
        processor = BatchSpanProcessor(ConsoleSpanExporter())
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        endpoint = config().tracing.otlp_endpoint
        processor = BatchSpanProcessor(
            OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces") if endpoint else OTLPSpanExporter())
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):  # the global provider can be set once per process
        provider = TracerProvider(resource=Resource.create({
            "service.name": config().tracing.service,
            "service.instance.id": f"{socket.gethostname()}:{os.getpid()}",
            "recmem.process": role}))
        trace.set_tracer_provider(provider)
    provider.add_span_processor(processor)

    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor

    instrumentors: list[object] = [DjangoInstrumentor(), PsycopgInstrumentor()]
    try:  # the openai client uses httpx2; plain httpx is instrumented too for anything else
        from opentelemetry.instrumentation.httpx import HTTPX2ClientInstrumentor, HTTPXClientInstrumentor

        instrumentors += [HTTPXClientInstrumentor(), HTTPX2ClientInstrumentor()]
    except ImportError:
        from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor

        instrumentors.append(HTTPXClientInstrumentor())
    for instrumentor in instrumentors:
        if not instrumentor.is_instrumented_by_opentelemetry:
            instrumentor.instrument()
            _installed.append(instrumentor)
    tracing.enable()
    logger.info("OpenTelemetry tracing on (%s) for %s", "test exporter" if exporter is not None else mode, role)
    return True


def teardown() -> None:
    """Undo :func:`setup` (tests): instrumentations removed, RecMem's spans off."""
    tracing.enable(False)
    while _installed:
        _installed.pop().uninstrument()
