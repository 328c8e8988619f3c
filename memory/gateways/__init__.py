"""Gateways of the ``memory`` app to the outside world: embedding models, LLM endpoints, token counting.

Plain Python (no models), importable without configured Django settings so that tests, benchmarks and the
fake OpenAI server can use them stand-alone.
"""

from __future__ import annotations

from typing import Any


def _setting(name: str, default: Any) -> Any:
    """Read ``settings.<name>``, or ``default`` when it is unset or Django settings are not configured."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        return getattr(settings, name, default)
    except ImproperlyConfigured:
        return default
