"""Logs never carry what an agent sent: request targets are written with their variable parts redacted.

A URL is agent input — path parameters (``/api/v1/sessions/<anything>``), query names and values (a ``?reason=``,
a filter) — and it is written to ``access.log`` by gunicorn and to the console by Django's ``django.request``
logger ("Not Found: /api/v1/…"). :func:`redact_target` keeps what cannot carry data and replaces the rest by ``…``:

* path segments: the literal words of the URL configuration (``api``, ``v1``, ``sessions``, admin app and model
  names) and UUIDs are kept, every other segment becomes ``…``;
* query: a parameter name is kept when it is one the API or the admin defines, its value when it is a number of at
  most five digits (six or more may be a phone, a card or an account), a UUID, an ISO date/time or one of the enum
  values of the API's filters; everything else becomes ``…``.

:class:`RedactRequestFilter` applies it to Django's request loggers; ``recmem_site.gunicorn_logger`` to gunicorn's
access and error logs (which also drop the user-agent, referer and Basic-auth user: headers are agent input too).
"""

from __future__ import annotations

import functools
import logging
import re
from urllib.parse import parse_qsl

REDACTED = "…"
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_SAFE_VALUE_RE = re.compile(
    r"-?\d{1,5}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
QUERY_NAMES = frozenset({"status", "scope", "type", "state", "session", "since", "until", "limit", "offset",
                         "reason", "format", "lang", "o", "p", "q", "all", "e", "next"})
_REQUEST_LINE_RE = re.compile(r"^(?P<method>[A-Z]{3,10}) (?P<target>\S+)(?P<rest> HTTP/\S+)?$")


@functools.cache
def _route_words() -> frozenset[str]:
    """Literal path words of the URL configuration, and the admin's app labels and model names."""
    words: set[str] = {"static", "admin", "api"}
    try:
        from django.apps import apps
        from django.urls import get_resolver
    except Exception:  # pragma: no cover - Django not configured
        return frozenset(words)

    def walk(patterns) -> None:
        for p in patterns:
            text = getattr(p.pattern, "_route", None) or str(p.pattern)
            for part in re.split(r"[/^$]", text):
                if part and not re.search(r"[<>()\[\]\\?*+|{}]", part):
                    words.add(part)
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns)

    try:
        walk(get_resolver().url_patterns)
        for model in apps.get_models():
            words.update({model._meta.app_label, model._meta.model_name})
    except Exception:  # pragma: no cover - apps not ready: the fixed words only
        return frozenset(words)
    return frozenset(words)


@functools.cache
def _enum_values() -> frozenset[str]:
    values = {"true", "false"}
    try:
        from agents.visibility import Scope
        from governance.models import ConsolidationBatch
        from memory.models import Exchange, ExperienceType, MemoryStatus, Session

        for enum in (Scope, MemoryStatus, ExperienceType, Exchange.State, Session.Status, ConsolidationBatch.Status):
            values.update(str(v) for v in enum.values)
    except Exception:  # pragma: no cover - apps not ready
        pass
    return frozenset(values)


def _segment(segment: str) -> str:
    if not segment or segment in _route_words() or _UUID_RE.fullmatch(segment):
        return segment
    return REDACTED


def redact_target(path: str, query: str = "") -> str:
    """``/api/v1/sessions/ghp_x/exchanges?reason=y&limit=5`` → ``/api/v1/sessions/…/exchanges?reason=…&limit=5``."""
    if "?" in path and not query:
        path, _, query = path.partition("?")
    out = "/".join(_segment(s) for s in path.split("/"))
    if query:
        pairs = []
        for name, value in parse_qsl(query, keep_blank_values=True):
            safe_name = name if name in QUERY_NAMES else REDACTED
            safe_value = value if _SAFE_VALUE_RE.fullmatch(value) or value in _enum_values() else REDACTED
            pairs.append(f"{safe_name}={safe_value}" if value else safe_name)
        out += "?" + "&".join(pairs)
    return out


# A number of six digits or more, also written with spaces, dots, dashes or brackets between its digits (a phone, a
# card, an account): never a count or a port, which stay.
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_LONG_NUMBER_RE = re.compile(r"(?<![\w])\+?\d(?:[\s().\-]{0,2}\d){5,}(?![\w])")


def redact_numbers(text: str) -> str:
    """``text`` with every number of six digits or more replaced by ``…``."""
    if not any(c.isdigit() for c in text):
        return text
    return _LONG_NUMBER_RE.sub(lambda m: m.group(0) if _DATE_RE.fullmatch(m.group(0)) else REDACTED, text)


def redact_text(text: str) -> str:
    """A log argument that is a request target or a request line, redacted; anything else with its long numbers
    (six digits or more) redacted."""
    if text.startswith("/"):
        return redact_target(text)
    m = _REQUEST_LINE_RE.match(text)
    if m and m.group("target").startswith("/"):
        return f"{m.group('method')} {redact_target(m.group('target'))}{m.group('rest') or ''}"
    return redact_numbers(text)


class RedactRequestFilter(logging.Filter):
    """Redacts the request target in the records of Django's request loggers (``django.request``, ``django.server``:
    "Not Found: /api/v1/sessions/…")."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith(("django.request", "django.server")) and record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact_text(a) if isinstance(a, str) else a for a in args)
        return True
