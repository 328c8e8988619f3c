"""What django-axes keeps of an admin login attempt: keyed digests of the username and of the attacker-controlled
headers, never their clear text. Apart from ``security.py`` (the lockout answer), which imports the error module
whose outermost middleware calls :func:`admin_headers_digest`."""

from __future__ import annotations


def _digest(purpose: str, value: str) -> str:
    from django.utils.crypto import salted_hmac

    return salted_hmac(f"recmem.axes.{purpose}", value, algorithm="sha256").hexdigest()[:32]


def admin_username_digest(request, credentials=None) -> str:
    """What the admin lockout table (django-axes) keeps of an attempted username: an HMAC under the deployment's
    secret key, case-folded — the lockout still counts per username, and a mistyped password typed into the username
    field (or an e-mail address) is never stored in clear. ``manage.py axes_reset_username`` takes this digest."""
    from django.conf import settings

    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    username = (credentials or {}).get(field) if credentials else None
    if username is None:
        username = getattr(request, "POST", {}).get(field) if request is not None else None
    if not username:
        return ""
    return "u:" + _digest("username", str(username).strip().casefold())


def admin_headers_digest(request) -> None:
    """Before django-axes records an admin login attempt: the User-Agent and Accept headers (attacker-controlled text)
    are replaced by a digest, so the lockout table never keeps them in clear. Called by the outermost middleware
    (``recmem_site.errors.RequestIdMiddleware``; a middleware of its own would deepen every request's stack)."""
    if request.path.startswith("/admin/"):
        for header in ("HTTP_USER_AGENT", "HTTP_ACCEPT"):
            if request.META.get(header):
                request.META[header] = "h:" + _digest(header, request.META[header])
