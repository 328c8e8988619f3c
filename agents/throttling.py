"""Rate limits on the API (DRF throttles on the shared cache: the database cache, or Redis with REDIS_URL).

- per API key (``RECMEM_RATE_AGENT``): a DRF throttle class, after authentication;
- per client address (``RECMEM_RATE_IP``), over every API request, checked first in the authenticator so that
  requests with bad or no keys count too;
- failed key attempts per address (``RECMEM_RATE_FAILED_AUTH``, stricter): once reached, that address gets 429
  before any key is looked up, even for a valid key, until the window ends.

A sliding-window counter: one counter per client and window, the estimate ``previous × (share of the previous
window still inside the last period) + current`` must stay under N (a fixed window would let 2N through across a
boundary; DRF's own sliding log rewrites up to N timestamps into the cache on every request). Refused requests do
not count. The database cache's increment is not atomic: concurrent workers may let a few requests more through.
"""

from __future__ import annotations

import math

from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

from core.config import config


class WindowRateThrottle(SimpleRateThrottle):
    """A DRF throttle whose rate is a field of the configuration (empty: off) and whose cache holds a counter."""

    setting = ""
    wait_seconds: float | None = None

    def get_rate(self) -> str | None:
        return getattr(config(), self.setting) or None

    def keys(self, ident: str) -> list[str]:
        """This window's and the previous window's counter keys (this one is remembered for the hit)."""
        self.now = self.timer()
        window, fraction = divmod(self.now, self.duration)
        self.fraction = fraction / self.duration
        self.key, self.previous_key = f"{ident}:{int(window)}", f"{ident}:{int(window) - 1}"
        return [self.key, self.previous_key]

    def _estimate(self, ident: str, counts: dict | None = None) -> float:
        """The sliding estimate of requests in the last period; ``counts``: the two counters, already read."""
        keys = self.keys(ident)
        if counts is None:
            counts = self.cache.get_many(keys)
        self.current, self.previous = counts.get(self.key, 0), counts.get(self.previous_key, 0)
        return self.previous * (1 - self.fraction) + self.current

    def _hit(self) -> None:
        timeout = 2 * self.duration + 1
        if isinstance(caches["default"], DatabaseCache):
            # Its incr is a read and a write anyway: write what was just read plus one (3 queries instead of 4).
            self.cache.set(self.key, self.current + 1, timeout)
            return
        try:
            self.cache.incr(self.key)  # Redis: atomic
        except ValueError:  # no counter yet in this window
            if not self.cache.add(self.key, 1, timeout):
                self.cache.incr(self.key)

    def _wait(self) -> float:
        """Seconds until the estimate drops under N again."""
        n, d = self.num_requests, self.duration
        if self.current >= n:  # not before the next window, then until the carried-over share is small enough
            wait = (1 - self.fraction) * d + (1 - (n - 1) / self.current) * d
        else:
            wait = (1 - (n - self.current) / self.previous - self.fraction) * d if self.previous else 0
        return max(1, math.ceil(wait))

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        ident = self.get_cache_key(request, view)
        if ident is None:
            return True
        if self._estimate(ident) >= self.num_requests:
            self.wait_seconds = self._wait()
            return False
        self._hit()
        return True

    def wait(self) -> float | None:
        return self.wait_seconds


class ApiKeyRateThrottle(WindowRateThrottle):
    """Per API key (each key of an agent has its own budget)."""

    scope = "key"
    setting = "rate_agent"

    def get_cache_key(self, request, view) -> str | None:
        api_key = getattr(request, "auth", None)
        if api_key is None or getattr(api_key, "pk", None) is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": api_key.pk}


class AddressRateThrottle(WindowRateThrottle):
    """Per client address (the proxy-supplied one with RECMEM_NUM_PROXIES)."""

    scope = "ip"
    setting = "rate_ip"

    def get_cache_key(self, request, view) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class FailedKeyThrottle(AddressRateThrottle):
    """Failed key attempts per client address: checked before a key is looked up, counted on each failure."""

    scope = "failed_key"
    setting = "rate_failed_auth"

    def blocked_for(self, request) -> float | None:
        """Seconds until this address may try again, or None."""
        if self.rate is None:
            return None
        if self._estimate(self.get_cache_key(request, None)) >= self.num_requests:
            return self._wait()
        return None

    def record(self, request) -> None:
        if self.rate is not None:
            self._estimate(self.get_cache_key(request, None))
            self._hit()


def throttled(wait: float, what: str) -> exceptions.Throttled:
    return exceptions.Throttled(wait=wait, detail=f"{what}; try again in {math.ceil(wait)} s")


def address_guard(request) -> None:
    """Every API request counts against its address; too many failed key attempts close the address for a while.
    Both throttles' counters are read in one cache call."""
    address, failed = AddressRateThrottle(), FailedKeyThrottle()
    on = [t for t in (address, failed) if t.rate is not None]
    keys = [k for t in on for k in t.keys(t.get_cache_key(request, None))]
    counts = address.cache.get_many(keys) if keys else {}
    if failed.rate is not None and failed._estimate(failed.get_cache_key(request, None), counts) >= \
            failed.num_requests:
        raise throttled(failed._wait(), "too many failed API key attempts from this address")
    if address.rate is not None:
        if address._estimate(address.get_cache_key(request, None), counts) >= address.num_requests:
            raise throttled(address._wait(), "too many requests from this address")
        address._hit()


def failed_key_record(request) -> None:
    FailedKeyThrottle().record(request)
