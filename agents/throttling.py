"""Rate limits on the API (DRF throttles on the shared cache: the database cache, or Redis with REDIS_URL).

- per API key (``RECMEM_RATE_AGENT``): a DRF throttle class, after authentication;
- per client address (``RECMEM_RATE_IP``), over every API request, checked first in the authenticator so that
  requests with bad or no keys count too;
- failed key attempts per address (``RECMEM_RATE_FAILED_AUTH``, stricter): once reached, that address gets 429
  before any key is looked up, even for a valid key, until the window ends.

A sliding-window counter: one counter per client and window, the estimate ``previous × (share of the previous
window still inside the last period) + current`` must stay under N (a fixed window would let 2N through across a
boundary; DRF's own sliding log rewrites up to N timestamps into the cache on every request). Refused requests do
not count. Counting is atomic: a request first increments its window's counter (one ``INSERT … ON CONFLICT DO
UPDATE … RETURNING`` on ``RateCounter`` with the database cache, ``incr`` with Redis) and is admitted only if the
count it got back keeps the estimate within N, else it takes its increment back. Concurrent requests each get their
own count, so at most N get through per period whatever the concurrency (a read then a write let 4 threads pass
twice the limit).
"""

from __future__ import annotations

import math
import random

from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connection
from django.db.models import F
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

from agents.models import RateCounter
from core.config import config


def _in_database() -> bool:
    return isinstance(caches["default"], DatabaseCache)


def counters_hit(key: str | None, *, read: list[str], timeout: int) -> tuple[int, dict[str, int]]:
    """Add one to counter ``key`` (None: none) and read the counters ``read``: (``key``'s new count, {counter:
    count} of those in ``read`` that exist). One statement with the database."""
    if not _in_database():
        cache = caches["default"]
        count = 0
        if key is not None:
            try:
                count = cache.incr(key)
            except ValueError:  # no counter yet in this window
                count = 1 if cache.add(key, 1, timeout) else cache.incr(key)
        return count, cache.get_many(read) if read else {}
    table = connection.ops.quote_name(RateCounter._meta.db_table)
    with connection.cursor() as cursor:
        if key is None:
            cursor.execute(f"SELECT key, count FROM {table} WHERE key = ANY(%s) AND expires_at > now()", [read])
            return 0, dict(cursor.fetchall())
        cursor.execute(
            f"WITH hit AS (INSERT INTO {table} AS c (key, count, expires_at) "
            f"VALUES (%s, 1, now() + make_interval(secs => %s)) ON CONFLICT (key) DO UPDATE SET "
            "count = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.count + 1 END, expires_at = EXCLUDED.expires_at "
            f"RETURNING c.key, c.count) SELECT key, count FROM hit "
            f"UNION ALL SELECT key, count FROM {table} WHERE key = ANY(%s) AND expires_at > now()",
            [key, timeout, read])
        counts = dict(cursor.fetchall())
        if random.random() < 0.001:  # now and then: forget the windows long past
            cursor.execute(f"DELETE FROM {table} WHERE expires_at < now()")
    return counts.pop(key), counts


def counter_undo(key: str) -> None:
    """Take back one count of ``key`` (a request refused after counting itself)."""
    if not _in_database():
        try:
            caches["default"].decr(key)
        except ValueError:
            pass
        return
    RateCounter.objects.filter(pk=key).update(count=F("count") - 1)


class WindowRateThrottle(SimpleRateThrottle):
    """A DRF throttle whose rate is a field of the configuration (empty: off) and whose counter is atomic."""

    setting = ""
    wait_seconds: float | None = None

    def get_rate(self) -> str | None:
        return getattr(config().limits, self.setting) or None

    @property
    def timeout(self) -> int:
        return 2 * self.duration + 1

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
            counts = counters_hit(None, read=keys, timeout=self.timeout)[1]
        self.current, self.previous = counts.get(self.key, 0), counts.get(self.previous_key, 0)
        return self.previous * (1 - self.fraction) + self.current

    def _admit(self, count: int, previous: int) -> bool:
        """After this request counted itself (``count``: its window's count now): within the limit? Else it takes
        its count back and ``wait_seconds`` says for how long to wait."""
        self.previous = previous
        if previous * (1 - self.fraction) + count - 1 < self.num_requests:  # the estimate before it, under N
            self.current = count
            return True
        counter_undo(self.key)
        self.current = count - 1
        self.wait_seconds = self._wait()
        return False

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
        self.keys(ident)
        count, counts = counters_hit(self.key, read=[self.previous_key], timeout=self.timeout)
        return self._admit(count, counts.get(self.previous_key, 0))

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
            self.keys(self.get_cache_key(request, None))
            counters_hit(self.key, read=[], timeout=self.timeout)


def throttled(wait: float, what: str) -> exceptions.Throttled:
    return exceptions.Throttled(wait=wait, detail=f"{what}; try again in {math.ceil(wait)} s")


def address_guard(request) -> None:
    """Every API request counts against its address; too many failed key attempts close the address for a while.
    One statement counts this request and reads the failed-key counters."""
    address, failed = AddressRateThrottle(), FailedKeyThrottle()
    failed_keys = failed.keys(failed.get_cache_key(request, None)) if failed.rate is not None else []
    hit = None
    if address.rate is not None:
        address.keys(address.get_cache_key(request, None))
        hit = address.key
    count, counts = 0, {}
    if hit or failed_keys:
        timeout = max(t.timeout for t in (address, failed) if t.rate is not None)
        count, counts = counters_hit(hit, read=[*failed_keys, *([address.previous_key] if hit else [])],
                                     timeout=timeout)
    if failed.rate is not None and failed._estimate(failed.get_cache_key(request, None), counts) >= \
            failed.num_requests:
        if hit:
            counter_undo(hit)
        raise throttled(failed._wait(), "too many failed API key attempts from this address")
    if hit and not address._admit(count, counts.get(address.previous_key, 0)):
        raise throttled(address.wait_seconds, "too many requests from this address")


def failed_key_record(request) -> None:
    FailedKeyThrottle().record(request)
