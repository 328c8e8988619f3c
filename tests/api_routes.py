"""The API's operations as the URL configuration serves them: the walk the role matrix and the audit coverage share."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver


def api_operations() -> Iterator[tuple[str, str, str, type]]:
    """``(url name, path as the OpenAPI schema spells it, HTTP method, view class)`` for every API view method."""

    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and (prefix + str(p.pattern)).startswith("api/v1/"):
                view = p.callback.view_class
                route = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", prefix + str(p.pattern))
                for method in view.http_method_names:
                    if method not in ("options", "head", "trace") and hasattr(view, method):
                        yield p.name, route, method, view

    yield from walk(get_resolver().url_patterns, "")
