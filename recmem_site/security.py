"""Admin login lockout (django-axes) answered like every other error, and the client address both limiters use."""

from __future__ import annotations

from core.config import config
from recmem_site.errors import error_response


def client_ip(request) -> str:
    """REMOTE_ADDR, or with RECMEM_NUM_PROXIES the address the outermost trusted proxy saw (as DRF's throttles)."""
    proxies = config().server.num_proxies
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return request.META.get("REMOTE_ADDR", "")


def admin_lockout_response(request, original_response=None, credentials=None):
    minutes = config().limits.admin_lockout_minutes
    response = error_response(429, "login_locked", f"too many failed logins; try again in {minutes} minutes",
                              {"retry_after": minutes * 60})
    response["Retry-After"] = str(minutes * 60)
    return response
