"""What the secret rules share: kinds and entity names, the randomness and placeholder tests, :class:`SecretRule`.

Both rule modules (:mod:`.secret_rules`, :mod:`.secret_shapes`) build on it; :mod:`.secrets` runs them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

# --------------------------------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------------------------------

SECRET_PREFIX = "SECRET_"

#: kind -> human description. The entity type is ``SECRET_<KIND.upper()>``; the placeholder ``<SECRET:kind>``.
SECRET_KINDS: dict[str, str] = {
    "openai_key": "OpenAI API key (sk-..., sk-proj-...)",
    "anthropic_key": "Anthropic API key (sk-ant-...)",
    "aws_access_key": "AWS access key id (AKIA/ASIA...)",
    "aws_secret_key": "AWS secret access key (40 chars near aws/secret context)",
    "github_token": "GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_)",
    "gitlab_token": "GitLab token (glpat-, glptt-, gldt-, glrt-)",
    "slack_token": "Slack token (xoxb-/xoxp-/xoxa-/xoxr-/xoxs-/xapp-)",
    "slack_webhook": "Slack incoming webhook URL",
    "stripe_key": "Stripe key (sk_/rk_/pk_ live|test, whsec_)",
    "google_api_key": "Google API key (AIza...)",
    "google_oauth": "Google OAuth client secret / access token (GOCSPX-, ya29.)",
    "npm_token": "npm access token (npm_...)",
    "pypi_token": "PyPI upload token (pypi-...)",
    "huggingface_token": "Hugging Face token (hf_...)",
    "sendgrid_key": "SendGrid API key (SG.x.y)",
    "telegram_bot_token": "Telegram bot token (digits:35 chars)",
    "jwt": "JSON Web Token (eyJ...eyJ...sig)",
    "bearer_token": "Bearer token in an Authorization header or prose",
    "basic_auth": "HTTP Basic credentials (Authorization: Basic ..., curl -u user:pass)",
    "private_key": "PEM/OpenSSH/PGP private key block",
    "password": "password given in context (password=..., my password is ...)",
    "secret": "secret given in context (secret=..., client_secret: ...)",
    "token": "token given in context (token=..., access_token: ...)",
    "api_key": "API key given in context (api_key=..., X-API-Key: ...)",
    "url_credentials": "user:password@ inside a URL / connection string",
    "high_entropy": "random-looking token near a credential word",
    # shapes of .secret_shapes
    "provider_token": "another provider's token by its public format (Twilio, Shopify, Atlassian, DigitalOcean, ...)",
    "seed_phrase": "a wallet's recovery phrase (12-24 words of the BIP-39 list, beside a cue or with a valid checksum)",
    "discord_bot_token": "Discord bot token (base64 user id . timestamp . hmac)",
    "azure_key": "Azure storage account key / AD client secret",
    "url_signature": "signature or token in a URL query (X-Amz-Signature, sig=, token=)",
    "session_cookie": "session cookie value (Cookie/Set-Cookie, sessionid=, PHPSESSID, connect.sid)",
}

SECRET_ENTITIES: frozenset[str] = frozenset(SECRET_PREFIX + k.upper() for k in SECRET_KINDS)


def secret_entity(kind: str) -> str:
    return SECRET_PREFIX + kind.upper()


def is_secret_entity(entity_type: str) -> bool:
    return entity_type.startswith(SECRET_PREFIX)


def secret_kind(entity_type: str) -> str:
    """``SECRET_OPENAI_KEY`` -> ``openai_key``."""
    return entity_type[len(SECRET_PREFIX) :].lower()


# ---- helpers used by validators ------------------------------------------------------------------


def shannon_entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _char_class(ch: str) -> int:
    if ch.isdigit():
        return 0
    if ch.isupper():
        return 1
    if ch.islower():
        return 2
    return 3


def class_change_ratio(value: str) -> float:
    """Share of adjacent character pairs that change class (digit/upper/lower/other).

    Random base62 strings alternate ~60 % of the time, camelCase identifiers ~20-30 %.
    """
    if len(value) < 2:
        return 0.0
    changes = sum(1 for a, b in zip(value, value[1:], strict=False) if _char_class(a) != _char_class(b))
    return changes / (len(value) - 1)


_UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$")
_HEX_RE = re.compile(r"^[0-9a-fA-F]+$")


def looks_random(value: str, *, min_len: int = 20) -> bool:
    """True for machine-generated-looking tokens (keys); false for words, identifiers, hex digests, UUIDs."""
    core = value.strip("=")
    if len(core) < min_len:
        return False
    if _UUID_RE.match(core) or _HEX_RE.match(core):
        return False
    has_upper = any(c.isupper() for c in core)
    has_lower = any(c.islower() for c in core)
    digits = sum(c.isdigit() for c in core)
    if not (has_upper and has_lower and digits >= 1):
        return False
    if core.count("/") >= 2 and re.search(r"/[a-z]{3,}/", core):  # a path, not base64
        return False
    return shannon_entropy(core) >= 3.5 and class_change_ratio(core) >= 0.3


_CODE_WORDS = frozenset(
    """none null nil true false undefined required optional string str int integer bytes text bool boolean
    float number password passwd pass pwd secret secrets token tokens key keys value env environ getenv config
    settings self this input output empty blank hidden masked redacted removed omitted unset missing sensitive
    default generated random here same new old current str_ any object dict list type var let const function
    return yes no on off enabled disabled auto public private protected bearer basic oauth oauth2 jwt none_
    placeholder example sample dummy test todo fixme tbd n/a na unknown variable field param argument user
    username login email name""".split()
)

_PLACEHOLDER_RE = re.compile(
    r"(?i)^[<\[{]|^\$[A-Za-z_{(]|^[!@#%][A-Za-z_]+$|\$\{|\{\{|\}\}|\{[\w.]*\}|%\(\w+\)s|^%s$|your[_\- ]|"
    r"[_\-]here$|placeholder|redacted|xxxx|\*\*\*|^(?:my|the|a|an)[_\- ][a-z_\- ]*$|^\.\.\.$"
)
_CODE_REF_RE = re.compile(r"^\(|\(|\)|^(?:env|os|process|settings|config|secrets|vault|ENV)[.\[:]")
_CODE_ACCESS_RE = re.compile(r"\w[\[(]|[\])]$|^\w+(?:\.\w+)*\[|->|::|\.get$")
_DOTTED_REF_RE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_SNAKE_RE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
_CAMEL_RE = re.compile(r"^[a-z]+(?:[A-Z][a-z]+)+$")
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z_]*$")
# an unquoted value that is a file's path: the file holds the secret ("--from-file=token=./token.txt")
FILE_PATH_RE = re.compile(r"(?:~|\.{1,2})?/[\w.\-/]+")
# a setting whose value is no secret though its name ends in one: it names the object that holds the secret (Helm
# charts' "auth.existingSecret=pg-creds"), or it is a list call's cursor ("nextToken", "next_page_token")
NOT_A_SECRET_NAME_RE = re.compile(
    r"(?i)existing[\w.\-]*$|(?:next|page|continuation|resume|sync|cursor)[_.\-]?(?:page[_.\-]?)?token$")
# a value that says where the secret is read from: openssl's "-pass file:/root/.key", "env:VAR", "fd:3"
SOURCE_REFERENCE_RE = re.compile(r"(?i)(?:file|env|fd):")
#: Hex characters of a keyed placeholder (``<PERSON_3f2a9c>``): 4 collide after a few hundred values of one type
PSEUDONYM_HEX_CHARS = 6
#: The exact grammar of what the gateway writes: ``<SECRET:kind>`` and ``<TYPE_xxxxxx>`` (6 lower-case hex). Whether
#: a match is *accepted* as already masked (kind known; type known and, with a registry, registered) is decided by
#: the engine (:func:`governance.privacy.engine.accepted_placeholders`); anything else is analysed like any text.
_HEX6 = f"[0-9a-f]{{{PSEUDONYM_HEX_CHARS}}}"
PLACEHOLDER_RE = re.compile(
    r"<SECRET:(?P<kind>[a-z0-9_]{1,40})>|<(?P<etype>[A-Z][A-Z0-9_]{0,60}?)_(?P<hex>" + _HEX6 + ")>"
)
# the same grammar, restricted to known secret kinds (what a credential value may legitimately be replaced by)
_PLACEHOLDER_TOKEN_RE = re.compile(
    r"<SECRET:(?:" + "|".join(sorted(SECRET_KINDS, key=len, reverse=True)) + r")>"
    r"|<[A-Z][A-Z0-9_]{0,60}?_" + _HEX6 + ">"
)
# "<your-api-key>", "[PASSWORD]", "{token}": a template slot made of words, not a value
_TEMPLATE_SLOT_RE = re.compile(r"[A-Za-z][A-Za-z _.\-]{0,60}")
_WRAPPERS = {"<": ">", "[": "]", "{": "}", "(": ")"}


def unwrap(value: str) -> str:
    """The inside of one pair of wrapping brackets (``<x>``, ``[x]``, ``{x}``, ``(x)``), else ``value``."""
    if len(value) >= 3 and _WRAPPERS.get(value[0]) == value[-1] and value[1] not in "<[{(":
        return value[1:-1]
    return value


def _has_symbol(value: str) -> bool:
    return any(not c.isalnum() for c in value)


def password_like(value: str, *, min_len: int = 6) -> bool:
    """A value that looks like a chosen password rather than an English word."""
    if len(value) < min_len:
        return False
    has_digit = any(c.isdigit() for c in value)
    mixed = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return has_digit or _has_symbol(value) or mixed


def plausible_secret_value(
    value: str, key: str = "", *, strict: bool = False, code_style: bool = False, quoted: bool = False
) -> bool:
    """Reject code references, placeholders, types and ordinary words given as the value of a credential key.

    ``strict``: the value came from prose-like syntax (``password: X``) and must look like a password.
    ``code_style``: the assignment had spaces around ``=`` (``password = x``), so a bare identifier is a
    variable, not a secret. ``quoted``: the value is a string literal, so brackets and dots are just
    characters (code-reference checks are skipped; placeholder checks are not).
    """
    v = value.strip()
    if len(v) < 3 or "\n" in v:
        return False
    if _PLACEHOLDER_TOKEN_RE.search(v):
        return False
    inner = unwrap(v)
    if inner is not v:
        # a wrapped value: "<your-token>" is a template slot, "<Xk9!mm2Q>" a value in brackets
        if _TEMPLATE_SLOT_RE.fullmatch(inner):
            return False
        v = inner.strip()
        if len(v) < 3:
            return False
    low = v.lower()
    if low in _CODE_WORDS or low.strip("_") in _CODE_WORDS:
        return False
    if key and (low == key.lower() or low.endswith(key.lower()) and _IDENT_RE.match(v)):
        return False
    if _PLACEHOLDER_RE.search(v):
        return False
    if not quoted and (_CODE_REF_RE.search(v) or _CODE_ACCESS_RE.search(v)):
        return False
    if len(set(v)) == 1:  # ****, xxxx, ....
        return False
    if v.isdigit() and len(v) < 6:
        return False
    if not quoted and _DOTTED_REF_RE.match(v) and not any(c.isdigit() for c in v):
        return False
    if _SNAKE_RE.match(v) or _CAMEL_RE.match(v):
        return False
    if code_style and _IDENT_RE.match(v):
        return False
    if strict and not password_like(v):
        return False
    return True


# ---- rule model ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SecretRule:
    """One regex; ``group`` selects the secret part; ``validator(match) -> kind | None`` may veto/refine."""

    name: str
    kind: str
    pattern: re.Pattern[str]
    score: float = 0.95
    group: int | str = 0
    validator: Callable[[re.Match[str]], str | bool | tuple[str, int, int] | None] | None = None
    #: > 0: the pattern is anchored at the end of the text; only its last ``tail`` characters are searched
    tail: int = 0


def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)
