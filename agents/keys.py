"""API key format and hashing.

A key looks like ``rmk_<prefix>_<secret>``: the prefix (8 url-safe chars) is stored in clear to find the row and
to show operators which key is which; the whole key is stored only as a SHA-256 digest (keys are 256-bit random,
so a slow password hash adds nothing but latency on every request).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

KEY_PREFIX = "rmk"
_KEY_RE = re.compile(r"^rmk_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{40,})$")


def key_generate() -> tuple[str, str]:
    """Return ``(raw_key, prefix)`` for a new key."""
    prefix = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(8))
    return f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}", prefix


def key_hash(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode()).hexdigest()


def key_parse_prefix(raw_key: str) -> str | None:
    """The prefix of a well-formed key, or None for a malformed one."""
    match = _KEY_RE.match(raw_key)
    return match.group(1) if match else None


def key_matches(raw_key: str, stored_hash: str) -> bool:
    return hmac.compare_digest(key_hash(raw_key), stored_hash)
