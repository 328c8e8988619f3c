"""Custom Presidio recognizers for RecMem: secrets, phone numbers, card numbers, person names.

Everything here is plain Python on top of ``presidio_analyzer`` (no Django).

Secrets
    One :class:`SecretRecognizer` runs a list of :class:`SecretRule` regexes. Every secret entity type is
    named ``SECRET_<KIND>`` (``SECRET_OPENAI_KEY``, ``SECRET_PASSWORD``, ...) and is masked as
    ``<SECRET:<kind>>``. Three families of rules:

    * *shape* rules for credentials with a recognisable format (provider prefixes, JWTs, PEM blocks);
    * *context* rules for values given next to a credential word (``password=...``, ``"api_key": "..."``,
      ``--token ...``, ``my password is ...``, ``user:pass@`` in URLs) with a validator that rejects code
      references, placeholders and ordinary words;
    * a *high-entropy* rule: a random-looking token (length >= 20, upper+lower+digits, Shannon entropy and
      character-class alternation thresholds) shortly after a credential word.

    Hard negatives that must not fire: UUIDs, hex digests (git commits, sha256), code identifiers, paths,
    prose about passwords, placeholders such as ``${DB_PASSWORD}`` or ``<your-token>``.

PII helpers
    :class:`LooseCardRecognizer` (Luhn-valid 12-19 digit numbers, incl. Mastercard 2-series, Maestro, JCB,
    Mir), :class:`LoosePhoneRecognizer` (international/local layouts that ``phonenumbers`` does not accept
    without a region, gated by context words), :class:`PersonHeuristicRecognizer` (improves the small spaCy
    model's PERSON recall with generic cues, see its docstring) and :class:`StreetAddressRecognizer`.

tldextract
    Presidio's e-mail recognizer validates matches with ``tldextract.extract``, whose default extractor tries
    to download the public suffix list and hangs without network. :func:`ensure_offline_tldextract` installs
    an extractor that only uses tldextract's bundled snapshot (see the function).
"""

from __future__ import annotations

import math
import re
import threading
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from presidio_analyzer import EntityRecognizer, RecognizerResult

# --------------------------------------------------------------------------------------------------
# tldextract: bundled snapshot only
# --------------------------------------------------------------------------------------------------

_TLD_LOCK = threading.Lock()
_OFFLINE_EXTRACTOR = None


def ensure_offline_tldextract():
    """Make every tldextract call in this process use the bundled public-suffix snapshot (no network).

    Presidio's ``EmailRecognizer.validate_result`` calls the module-level ``tldextract.extract``, which uses
    ``tldextract.tldextract.TLD_EXTRACTOR``; that default extractor fetches the public suffix list over HTTP
    on first use and hangs when there is no network. We build ``TLDExtract(suffix_list_urls=(),
    cache_dir=None)`` (never fetches, never writes a cache, falls back to the snapshot shipped in the wheel)
    and install it

    * as ``tldextract.tldextract.TLD_EXTRACTOR`` (used by ``tldextract.extract`` for every caller), and
    * as the ``tldextract`` name inside presidio's ``email_recognizer`` module (a small namespace whose
      ``extract`` is the offline extractor), so presidio is safe even if someone rebinds the global again.

    Idempotent and thread-safe; returns the offline extractor.
    """
    global _OFFLINE_EXTRACTOR
    if _OFFLINE_EXTRACTOR is not None:
        return _OFFLINE_EXTRACTOR
    with _TLD_LOCK:
        if _OFFLINE_EXTRACTOR is not None:
            return _OFFLINE_EXTRACTOR
        import tldextract
        import tldextract.tldextract as tld_module

        extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
        extractor("warm.example.com")  # load the snapshot now, not inside the first analysis
        tld_module.TLD_EXTRACTOR = extractor

        from presidio_analyzer.predefined_recognizers.generic import email_recognizer

        email_recognizer.tldextract = types.SimpleNamespace(
            extract=extractor, TLDExtract=tldextract.TLDExtract
        )
        _OFFLINE_EXTRACTOR = extractor
        return extractor


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
    r"[_\-]here$|placeholder|redacted|xxxx|\*\*\*|^(?:my|the|a|an)[_\- ]|^\.\.\.$"
)
_CODE_REF_RE = re.compile(r"^\(|\(|\)|^(?:env|os|process|settings|config|secrets|vault|ENV)[.\[:]")
_CODE_ACCESS_RE = re.compile(r"\w[\[(]|[\])]$|^\w+(?:\.\w+)*\[|->|::|\.get$")
_DOTTED_REF_RE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_SNAKE_RE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
_CAMEL_RE = re.compile(r"^[a-z]+(?:[A-Z][a-z]+)+$")
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z_]*$")
_PLACEHOLDER_TOKEN_RE = re.compile(r"<SECRET:[a-z0-9_]+>|<[A-Z][A-Z0-9_]*_[0-9a-f]{4,8}>")


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


def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# Credential words used by the context rules. Longest first so the alternation prefers specific names.
_KEY_WORDS = (
    r"(?:client[_\-.]?secret|app[_\-.]?secret|consumer[_\-.]?secret|webhook[_\-.]?secret|jwt[_\-.]?secret|"
    r"shared[_\-.]?secret|secret[_\-.]?access[_\-.]?key|secret[_\-.]?key|secret|(?:access|refresh|auth|"
    r"session|bearer|id|api|private|personal[_\-.]?access|bot|deploy|csrf|xsrf|oauth)?[_\-.]?token|(?:api|"
    r"access|private|app|application|consumer|signing|encryption|master|license|account|shared[_\-.]?access|"
    r"subscription|service|ssh|deploy|admin|client|auth|storage)[_\-.]?key|apikey|x-api-key|pass(?:word|wd|"
    r"phrase|code)?|pwd|credentials?|auth)"
)

_KV_RE = _rx(
    r"(?<![A-Za-z0-9_.\-])(?P<key>[A-Za-z0-9_.\-]{0,60}?" + _KEY_WORDS + r")(?P<q1>[\"'`]?)"
    r"(?P<sp1>[ \t]*)(?P<sep>=>|:=|=|:)(?![=/])(?P<sp2>[ \t]*)"
    r"(?:(?P<q2>[\"'`])(?P<qval>[^\"'`\n]{1,300})(?P=q2)|(?P<val>[^\s\"'`,;<>(){}\[\]]{3,300}))",
    re.IGNORECASE,
)

_XML_KV_RE = _rx(r"<(?P<key>[A-Za-z_:\-]*" + _KEY_WORDS + r")>(?P<val>[^<\n]{3,300})</(?P=key)>", re.I)

_CLI_RE = _rx(
    r"(?<![\w-])--?(?P<key>(?:db-|admin-|root-)?(?:password|passwd|pass|token|api-key|apikey|secret|"
    r"client-secret|auth-token|access-token|private-token))(?:=|[ \t]+)"
    r"(?P<q>[\"']?)(?P<val>[^\s\"']{3,300})(?P=q)",
    re.I,
)

_MYSQL_P_RE = _rx(
    r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?P<q>[\"']?)(?P<val>[^\s\"']{3,200})(?P=q)"
)

_PROSE_RE = _rx(
    r"\b(?P<key>password|passphrase|passcode|pwd|pin|token|api[ _-]?key|secret[ _-]?key|secret|"
    r"access[ _-]?key|(?:access|auth|bearer|api|bot|personal access|refresh) token|private key|key|"
    r"credentials?)(?:\s+(?:for|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w.@/-]{1,40}?)?(?:\s+(?:is|was|are|"
    r"is now|was changed to|changed to|set to|reset to|to)\b|\s*(?:=|:|->|→|–|—))\s*:?\s*"
    r"(?P<q>[\"'`“”‘’]?)(?P<val>[^\s\"'`“”‘’\[\](){}<>]{6,200}?)(?P=q)?(?=[\s\"'`“”‘’]|[.,;:!?)](?:\s|$)|$)",
    re.I,
)
# "login admin / password s3cr3t!", "password hunter2!": a password-like word right after the word password
_BARE_PASSWORD_RE = _rx(
    r"\b(?P<key>password|passwd|pwd|passphrase)[ \t]+(?P<val>[^\s\"'`()\[\]{}<>]{6,200})", re.I
)
# password flags of common tools: sshpass -p, zip/unzip -P, 7z -p, openssl -passin pass:,
# smbclient -U user%pass
_TOOL_PW_RE = _rx(
    r"\b(?:sshpass[ \t]+-p|(?:un)?zip\b[^\n]*?[ \t]-P|7za?\b[^\n]*?[ \t]-p|openssl\b[^\n]*?[ \t]-pass(?:in|"
    r"out)[ \t]+pass:|"
    r"smbclient\b[^\n]*?[ \t]-U[ \t]*[^\s%]+%)[ \t]*(?P<q>[\"']?)(?P<val>[^\s\"']{3,200})(?P=q)"
)
# <add key="DbPassword" value="..."/>, <param name="apiKey" value="..."/>
_ATTR_KV_RE = _rx(
    r"\b(?:key|name|id)[ \t]*=[ \t]*[\"'](?P<key>[\w.\-:]*" + _KEY_WORDS + r")[\"'][ \t]+value[ \t]*=[ \t]*"
    r"(?P<q>[\"'])(?P<val>[^\"'\n]{3,300})(?P=q)",
    re.I,
)
_NETRC_RE = _rx(r"\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+(?P<val>\S{3,200})")
_REDIS_CLI_RE = _rx(r"\bredis-cli\b[^\n]*?[ \t]-a[ \t]+(?P<q>[\"']?)(?P<val>[^\s\"']{3,200})(?P=q)")

_AUTH_HEADER_RE = _rx(
    r"\b(?P<scheme>bearer|token|basic|digest|apikey|api-key)\s+(?P<val>[^\s\"'`<>\[\](){},;]{6,})", re.I
)

_URL_CRED_RE = _rx(
    r"\b(?P<scheme>[a-z][a-z0-9+.\-]{1,30})://(?P<cred>(?P<user>[^\s:/@\"'<>]*):(?P<pw>[^\s@/\"'<>]+))@"
    r"(?P<host>[^\s/\"'<>:]+)",
    re.I,
)

_CURL_USER_RE = _rx(
    r"(?:\bcurl\b|\bwget\b|\bhttp\b|\bhttpie\b)[^\n]*?\s(?:-u|--user|--http-user|--auth)[ =]"
    r"(?P<q>[\"']?)(?P<cred>[^\s:\"']+:[^\s\"']+)(?P=q)",
)

_CONTEXT_WORD_RE = _rx(
    r"(?i)(?:key|secret|token|passw|pwd|credential|auth|bearer|api|access|login|signin|sign-in)"
)

_DIGEST_PREFIX_RE = _rx(
    r"(?i)(?:\b(?:sha\d*|md5|blake2\w*|fingerprint)[:\-]\s*|\b(?:ssh-(?:rsa|ed25519|dss)|"
    r"ecdsa-sha2-nistp\d+)\s+)$"
)
_HEX_CONTEXT_RE = _rx(r"(?i)\b(?:key|token|secret|password|credential)s?\b[^\n]{0,12}$")
_DIGEST_WORD_RE = _rx(
    r"(?i)sha\d*|md5|hash|digest|checksum|commit|fingerprint|\bid\b|etag|trace|span|blob|rev"
)
_ENTROPY_CANDIDATE_RE = _rx(r"(?<![A-Za-z0-9+/_\-=.])[A-Za-z0-9+/_\-]{20,300}={0,2}(?![A-Za-z0-9+/_\-=])")


def _kv_validator(m: re.Match[str]) -> str | tuple[str, int, int] | None:
    key = m.group("key")
    if not _key_boundary_ok(key):
        return None
    quoted = m.group("qval") is not None
    value = m.group("qval") if quoted else m.group("val")
    sep = m.group("sep")
    spaced = bool(m.group("sp1")) or bool(m.group("sp2"))
    if value is None:
        return None
    span = None
    if not quoted and "&" in value and m.start() > 0 and m.string[m.start() - 1] in "?&":
        value = value.split("&", 1)[0]  # ?api_key=...&format=csv: "&" starts the next query parameter
        span = (m.start("val"), m.start("val") + len(value))
    if not quoted and m.string[m.end("val") : m.end("val") + 1] in ("[", "(", "{", "<"):
        return None  # request.POST[...], get_token(...)
    # ``password == x`` / ``token => token`` in code; ``key: str`` annotations
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    prefix = m.string[line_start : m.start()]
    yaml_line = sep == ":" and prefix.strip() in ("", "-") and not quoted
    strict = sep == ":" and not quoted and not yaml_line
    code_style = sep in ("=", ":=") and spaced and not quoted and not key.isupper()
    if not plausible_secret_value(value, _bare_key(key), strict=strict, code_style=code_style, quoted=quoted):
        return None
    short_word = " " not in value and value.isalpha() and value.islower() and len(value) < 6
    if yaml_line and not quoted and short_word:
        return None
    if span is not None:
        return (_kind_for_key(key), *span)
    return _kind_for_key(key)


def _bare_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def _key_boundary_ok(key: str) -> bool:
    """The credential word must start at a name boundary: ``db_password``, ``dbPassword``, ``DBPASSWORD``."""
    k = key.strip("\"'`")
    low = k.lower()
    match = None
    for word_match in re.finditer(_KEY_WORDS, low):
        if word_match.end() == len(low):
            match = word_match
            break
    if match is None:
        return False
    i = match.start()
    if i == 0:
        return True
    before = k[i - 1]
    if before in "_-.":
        return True
    if k.isupper():  # environment variable style: PGPASSWORD, DBPASS
        return True
    return (before.islower() or before.isdigit()) and k[i].isupper()  # camelCase: dbPassword, jwtSecret


def _kind_for_key(key: str) -> str:
    low = key.lower()
    if re.search(r"pass|pwd", low):
        return "password"
    if "secret" in low and not re.search(r"key$", low):
        return "secret"
    if "token" in low or low.endswith("auth"):
        return "token"
    if "credential" in low:
        return "password"
    if low.endswith("key") or "secret" in low:
        return "api_key"
    return "secret"


def _simple_value_validator(strict: bool) -> Callable[[re.Match[str]], str | None]:
    def validate(m: re.Match[str]) -> str | None:
        key = m.groupdict().get("key") or "password"
        value = m.group("val").rstrip(".,;:!?")
        if not plausible_secret_value(value, _bare_key(key), strict=strict):
            return None
        return _kind_for_key(key)

    return validate


def _attr_validator(m: re.Match[str]) -> str | None:
    key = m.group("key")
    if not _key_boundary_ok(key) or not plausible_secret_value(m.group("val"), _bare_key(key), quoted=True):
        return None
    return _kind_for_key(key)


def _bare_password_validator(m: re.Match[str]) -> str | None:
    """``password <word>`` without separator: only values with a digit or inner capitals (no paths, words)."""
    value = m.group("val").rstrip(".,;:!?")
    if not plausible_secret_value(value, "password", strict=True):
        return None
    inner_caps = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    if not (any(c.isdigit() for c in value) or inner_caps):
        return None
    return "password"


def _prose_validator(m: re.Match[str]) -> str | None:
    key = m.group("key").lower()
    value = m.group("val").rstrip(".,;:!?)")
    if not plausible_secret_value(value, _bare_key(key), strict=True):
        return None
    if key in ("key", "pin"):
        if key == "pin" and not (value.isdigit() and 4 <= len(value) <= 8):
            return None
        if key == "key" and not looks_random(value, min_len=16):
            return None
        return "password" if key == "pin" else "api_key"
    if key.startswith("pass") or key == "pwd":
        return "password"
    return _kind_for_key(key)


_B64TOKEN_RE = re.compile(r"[A-Za-z0-9\-._~+/]+=*")


def _auth_header_validator(m: re.Match[str]) -> str | None:
    scheme = m.group("scheme").lower()
    value = m.group("val")
    if _PLACEHOLDER_RE.search(value) or value.lower() in _CODE_WORDS:
        return None
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    header = "authorization" in m.string[max(line_start, m.start() - 30) : m.start()].lower()
    if scheme == "bearer" and header:  # after "Authorization: Bearer" anything is a credential
        return "bearer_token"
    if not _B64TOKEN_RE.fullmatch(value):  # RFC 6750 token68 syntax elsewhere
        return None
    if scheme == "basic":
        return "basic_auth" if len(value) >= 8 else None
    if scheme == "bearer":
        if len(value) < 12 or (
            _IDENT_RE.match(value) and not any(c.isdigit() for c in value) and len(value) < 24
        ):
            return None  # "bearer authentication" prose
        return "bearer_token"
    # "token <x>" / "apikey <x>": only in a header-ish context
    if header and len(value) >= 12 and (looks_random(value, min_len=16) or any(c.isdigit() for c in value)):
        return "token"
    return None


def _url_cred_validator(m: re.Match[str]) -> str | None:
    pw = m.group("pw")
    user = m.group("user")
    if not pw or _PLACEHOLDER_RE.search(pw) and not pw.startswith("*") or pw.startswith("${"):
        return None
    if pw.isdigit() and not user:  # host:port@ is not a credential
        return None
    if len(set(pw)) == 1 and pw[0] in "*x":
        return None
    return "url_credentials"


def _curl_user_validator(m: re.Match[str]) -> str | None:
    cred = m.group("cred")
    _, _, pw = cred.partition(":")
    if not plausible_secret_value(pw, "password") and not pw.isdigit():
        return None
    return "basic_auth"


def _aws_secret_validator(m: re.Match[str]) -> str | None:
    value = m.group("val")
    if _HEX_RE.match(value):
        return None
    if not (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    ):
        return None
    start = m.start("val")
    window = m.string[max(0, start - 80) : start].lower()
    if re.search(r"aws|secret|amazon|s3|iam", window):
        return "aws_secret_key"
    return None


def _mixed_validator(min_len: int = 16) -> Callable[[re.Match[str]], bool]:
    """Tokens after a vendor prefix: reject ``sk-my-long-kebab-name`` style identifiers."""

    def validate(m: re.Match[str]) -> bool:
        body = m.group("body") if "body" in m.re.groupindex else m.group(0)
        if len(body) < min_len:
            return False
        if body.isalnum():  # one solid token this long after a vendor prefix is a key, however it looks
            return True
        has_digit = any(c.isdigit() for c in body)
        has_alpha = any(c.isalpha() for c in body)
        if not (has_digit and has_alpha):
            return False
        # kebab/snake identifiers of words: sk-this-is-a-long-name-2
        parts = [p for p in re.split(r"[-_]", body) if p]
        return not (len(parts) >= 3 and all(p.isalpha() and p.islower() for p in parts[:-1]))

    return validate


def _entropy_validator(m: re.Match[str]) -> str | None:
    value = m.group(0)
    if _HEX_RE.match(value) and len(value) >= 32 and "-" not in value:
        # 32+ hex chars right after "key"/"token"/"secret" (integration keys), unless it is named a digest
        near = m.string[max(0, m.start() - 24) : m.start()]
        if _HEX_CONTEXT_RE.search(near) and not _DIGEST_WORD_RE.search(
            m.string[max(0, m.start() - 60) : m.start()]
        ):
            return "high_entropy"
        return None
    if not looks_random(value):
        return None
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    window = m.string[max(line_start, m.start() - 40) : m.start()]
    if not _CONTEXT_WORD_RE.search(window):
        return None
    if _DIGEST_PREFIX_RE.search(m.string[max(0, m.start() - 24) : m.start()]):
        return None  # SHA256:<base64> fingerprints, ssh-ed25519 AAAA... public keys, sha512-<b64> integrity
    return "high_entropy"


SECRET_RULES: tuple[SecretRule, ...] = (
    # -- private key blocks (also with escaped "\n" inside JSON strings, and truncated blocks)
    SecretRule(
        "pem_private_key",
        "private_key",
        _rx(
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLO"
            r"CK)?-----|(?:\\n|\s|[A-Za-z0-9+/=:,\-])*)"
        ),
        score=1.0,
    ),
    SecretRule(
        "putty_private_key",
        "private_key",
        _rx(r"PuTTY-User-Key-File-\d:[^\n]*\n(?:[^\n]*\n){0,40}?Private-MAC:[^\n]*"),
        score=1.0,
    ),
    # -- vendor shapes
    SecretRule(
        "anthropic",
        "anthropic_key",
        _rx(r"(?<![\w-])sk-ant-(?:[a-z]+\d*-)?(?P<body>[A-Za-z0-9_\-]{20,})"),
        score=1.0,
        validator=_mixed_validator(20),
    ),
    SecretRule(
        "openai",
        "openai_key",
        _rx(
            r"(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?(?P<body>[A-Za-z0-9_\-]*T3BlbkFJ[A-Za-z0-"
            r"9_\-]+|[A-Za-z0-9_\-]{20,})"
        ),
        score=1.0,
        validator=_mixed_validator(20),
    ),
    SecretRule(
        "aws_access_key_id",
        "aws_access_key",
        _rx(
            r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|"
            r"A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"
        ),
        score=1.0,
    ),
    SecretRule(
        "aws_secret_access_key",
        "aws_secret_key",
        _rx(r"(?<![A-Za-z0-9/+])(?P<val>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
        score=0.9,
        group="val",
        validator=_aws_secret_validator,
    ),
    SecretRule(
        "github_pat_fine",
        "github_token",
        _rx(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}"),
        score=1.0,
    ),
    SecretRule(
        "github_token",
        "github_token",
        _rx(r"(?<![A-Za-z0-9_])gh[pousr]_(?P<body>[A-Za-z0-9]{30,255})(?![A-Za-z0-9])"),
        score=1.0,
        validator=_mixed_validator(30),
    ),
    SecretRule(
        "gitlab_token",
        "gitlab_token",
        _rx(
            r"(?<![A-Za-z0-9_\-])gl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent|"
            r"feed)-(?P<body>[A-Za-z0-9_\-]{20,})"
        ),
        score=1.0,
        validator=_mixed_validator(20),
    ),
    SecretRule(
        "slack_token",
        "slack_token",
        _rx(r"(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-(?P<body>[A-Za-z0-9\-]{10,})"),
        score=1.0,
        validator=_mixed_validator(10),
    ),
    SecretRule(
        "slack_webhook",
        "slack_webhook",
        _rx(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{10,}"),
        score=1.0,
    ),
    SecretRule(
        "discord_webhook",
        "slack_webhook",
        _rx(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}"),
        score=1.0,
    ),
    SecretRule(
        "stripe",
        "stripe_key",
        _rx(
            r"(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_(?P<body>[A-Za-z0-9]{10,})|"
            r"(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{20,}"
        ),
        score=1.0,
    ),
    SecretRule(
        "google_api_key",
        "google_api_key",
        _rx(r"(?<![A-Za-z0-9_\-])AIza[0-9A-Za-z_\-]{35}(?![A-Za-z0-9_\-])"),
        score=1.0,
    ),
    SecretRule(
        "google_oauth",
        "google_oauth",
        _rx(r"(?<![A-Za-z0-9_\-])(?:GOCSPX-[A-Za-z0-9_\-]{20,}|ya29\.[A-Za-z0-9_\-]{20,})"),
        score=1.0,
    ),
    SecretRule("npm", "npm_token", _rx(r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), score=1.0),
    SecretRule("pypi", "pypi_token", _rx(r"(?<![A-Za-z0-9_\-])pypi-[A-Za-z0-9_\-]{40,}"), score=1.0),
    SecretRule(
        "huggingface",
        "huggingface_token",
        _rx(r"(?<![A-Za-z0-9_])hf_(?P<body>[A-Za-z0-9]{30,})(?![A-Za-z0-9])"),
        score=1.0,
        validator=lambda m: (
            any(c.isupper() for c in m.group("body")) and any(c.islower() for c in m.group("body"))
        ),
    ),
    SecretRule(
        "sendgrid",
        "sendgrid_key",
        _rx(r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
        score=1.0,
    ),
    SecretRule(
        "telegram",
        "telegram_bot_token",
        _rx(r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_\-]{33}(?![\w-])"),
        score=1.0,
    ),
    SecretRule(
        "jwt",
        "jwt",
        _rx(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.(?:[A-Za-z0-9_\-]{8,})?"),
        score=1.0,
    ),
    # -- credentials in URLs and commands
    SecretRule(
        "url_credentials",
        "url_credentials",
        _URL_CRED_RE,
        score=0.95,
        group="cred",
        validator=_url_cred_validator,
    ),
    SecretRule(
        "curl_user", "basic_auth", _CURL_USER_RE, score=0.9, group="cred", validator=_curl_user_validator
    ),
    SecretRule(
        "auth_header",
        "bearer_token",
        _AUTH_HEADER_RE,
        score=0.9,
        group="val",
        validator=_auth_header_validator,
    ),
    # -- key/value context
    SecretRule("key_value", "password", _KV_RE, score=0.85, group="value", validator=_kv_validator),
    SecretRule(
        "xml_key_value",
        "password",
        _XML_KV_RE,
        score=0.85,
        group="val",
        validator=_simple_value_validator(False),
    ),
    SecretRule(
        "cli_flag", "password", _CLI_RE, score=0.85, group="val", validator=_simple_value_validator(False)
    ),
    SecretRule(
        "mysql_p", "password", _MYSQL_P_RE, score=0.85, group="val", validator=_simple_value_validator(False)
    ),
    SecretRule("prose", "password", _PROSE_RE, score=0.8, group="val", validator=_prose_validator),
    SecretRule(
        "bare_password",
        "password",
        _BARE_PASSWORD_RE,
        score=0.7,
        group="val",
        validator=_bare_password_validator,
    ),
    SecretRule(
        "tool_password_flag",
        "password",
        _TOOL_PW_RE,
        score=0.85,
        group="val",
        validator=_simple_value_validator(False),
    ),
    SecretRule("attr_key_value", "password", _ATTR_KV_RE, score=0.85, group="val", validator=_attr_validator),
    SecretRule(
        "netrc", "password", _NETRC_RE, score=0.85, group="val", validator=_simple_value_validator(False)
    ),
    SecretRule(
        "redis_cli",
        "password",
        _REDIS_CLI_RE,
        score=0.85,
        group="val",
        validator=_simple_value_validator(False),
    ),
    # -- random-looking token near a credential word
    SecretRule(
        "high_entropy", "high_entropy", _ENTROPY_CANDIDATE_RE, score=0.6, validator=_entropy_validator
    ),
)


def _group_span(m: re.Match[str], group: int | str) -> tuple[int, int]:
    if group == "value":
        g = "qval" if m.group("qval") is not None else "val"
        return m.span(g)
    return m.span(group)


@dataclass(frozen=True)
class SecretFinding:
    kind: str
    start: int
    end: int
    score: float
    rule: str

    @property
    def entity_type(self) -> str:
        return secret_entity(self.kind)


_KEYWORD_TRIGGERS = ("pass", "pwd", "secret", "token", "key", "credential", "auth")
#: rule name -> substrings (of the lower-cased text) without which the rule cannot match: a cheap pre-check
_RULE_TRIGGERS: dict[str, tuple[str, ...]] = {
    "pem_private_key": ("-----begin",),
    "putty_private_key": ("putty-user-key",),
    "anthropic": ("sk-ant-",),
    "openai": ("sk-",),
    "aws_access_key_id": (
        "akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca", "a3t",
    ),
    "aws_secret_access_key": ("aws", "secret", "amazon", "s3", "iam"),
    "github_pat_fine": ("github_pat_",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "gitlab_token": tuple(
        f"gl{p}-" for p in ("pat", "ptt", "dt", "rt", "cbt", "oas", "soat", "ft", "imt", "agent", "feed")
    ),
    "slack_token": ("xox", "xapp-"),
    "slack_webhook": ("hooks.slack.com",),
    "discord_webhook": ("discord",),
    "stripe": ("_live_", "_test_", "whsec_"),
    "google_api_key": ("aiza",),
    "google_oauth": ("gocspx-", "ya29."),
    "npm": ("npm_",),
    "pypi": ("pypi-",),
    "huggingface": ("hf_",),
    "sendgrid": ("sg.",),
    "telegram": (":aa",),
    "jwt": ("eyj",),
    "url_credentials": ("://",),
    "curl_user": ("curl", "wget", "http"),
    "auth_header": ("bearer", "token", "basic", "digest", "apikey", "api-key"),
    "key_value": _KEYWORD_TRIGGERS,
    "xml_key_value": _KEYWORD_TRIGGERS,
    "cli_flag": ("pass", "token", "key", "secret"),
    "mysql_p": ("mysql", "mariadb"),
    "prose": ("pass", "pwd", "pin", "token", "key", "secret", "credential"),
    "bare_password": ("pass", "pwd"),
    "tool_password_flag": ("sshpass", "zip", "7z", "openssl", "smbclient"),
    "attr_key_value": ("value",),
    "netrc": ("machine",),
    "redis_cli": ("redis-cli",),
    "high_entropy": (
        "key", "secret", "token", "passw", "pwd", "credential", "auth", "bearer", "api", "access", "login",
        "signin", "sign-in",
    ),
}  # fmt: skip


def find_secrets(text: str, rules: Sequence[SecretRule] = SECRET_RULES) -> list[SecretFinding]:
    """Run the secret rules on ``text`` (no NLP needed). Overlaps are kept; the engine resolves them."""
    findings: list[SecretFinding] = []
    low = text.lower()
    for rule in rules:
        triggers = _RULE_TRIGGERS.get(rule.name)
        if triggers and not any(t in low for t in triggers):
            continue
        for m in rule.pattern.finditer(text):
            kind: str | None = rule.kind
            start, end = _group_span(m, rule.group)
            if rule.validator is not None:
                verdict = rule.validator(m)
                if not verdict:
                    continue
                if isinstance(verdict, str):
                    kind = verdict
                elif isinstance(verdict, tuple):  # (kind, start, end): the validator narrowed the span
                    kind, start, end = verdict
            # trim sentence punctuation picked up by permissive value patterns ("is Hunter2." at the end of a
            # sentence), not characters inside a token ("user:pa55;x@host"); "!" and "?" stay (over-masking
            # a final "!" is harmless, leaking the last character of a password is not)
            if rule.group != 0 and (end == len(text) or text[end].isspace() or text[end] in "\"'`"):
                while end > start and text[end - 1] in ".,;:)":
                    end -= 1
            if end - start < 3:
                continue
            findings.append(SecretFinding(kind or rule.kind, start, end, rule.score, rule.name))
    return findings


class SecretRecognizer(EntityRecognizer):
    """Presidio recognizer for all ``SECRET_*`` entity types (see :data:`SECRET_RULES`)."""

    def __init__(self, rules: Sequence[SecretRule] = SECRET_RULES, supported_language: str = "en"):
        self.rules = tuple(rules)
        super().__init__(
            supported_entities=sorted(SECRET_ENTITIES),
            name="RecMemSecretRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:  # regexes are compiled at import time
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        wanted = set(entities) if entities else None
        results = []
        for f in find_secrets(text, self.rules):
            if wanted is not None and f.entity_type not in wanted:
                continue
            results.append(
                RecognizerResult(
                    f.entity_type,
                    f.start,
                    f.end,
                    f.score,
                    analysis_explanation=None,
                    recognition_metadata={
                        RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                        "rule": f.rule,
                    },
                )
            )
        return results


# --------------------------------------------------------------------------------------------------
# PII helpers: context windows
# --------------------------------------------------------------------------------------------------


def _window(text: str, start: int, end: int, before: int, after: int) -> tuple[str, str]:
    return text[max(0, start - before) : start].lower(), text[end : end + after].lower()


def _result(
    recognizer: EntityRecognizer, entity: str, start: int, end: int, score: float
) -> RecognizerResult:
    return RecognizerResult(
        entity,
        start,
        end,
        min(score, 1.0),
        analysis_explanation=None,
        recognition_metadata={
            RecognizerResult.RECOGNIZER_NAME_KEY: recognizer.name,
            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
        },
    )


# --------------------------------------------------------------------------------------------------
# Credit cards: Luhn-valid 12-19 digits (the stock recognizer misses Mastercard 2-series, Maestro, JCB 2131,
# Mir)
# --------------------------------------------------------------------------------------------------

_CARD_RE = re.compile(r"(?<![\d\w.\-/+])(?:\d[ \-]?){11,18}\d(?![\d\w]|[.\-/]\d)")
_CARD_CONTEXT = re.compile(
    r"card|credit|debit|\bcc\b|visa|master ?card|amex|american express|discover|jcb|diners|maestro|mir\b|"
    r"unionpay|payment|billing|\bpan\b|expir"
)
_CARD_IIN = re.compile(
    r"^(?:4|5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720|3[47]|6011|65|64[4-9]|35(?:2[89]|[3-8]\d)|"
    r"2131|1800|30[0-5]|36|38|5[06-9]|6\d|220[0-4])"
)


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


class LooseCardRecognizer(EntityRecognizer):
    """CREDIT_CARD: Luhn-valid 12-19 digit numbers. Known issuer prefix -> 0.5, card context words -> +0.4."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["CREDIT_CARD"],
            name="RecMemCardRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _CARD_RE.finditer(text):
            raw = m.group(0)
            digits = re.sub(r"\D", "", raw)
            if not (12 <= len(digits) <= 19) or not luhn_ok(digits) or len(set(digits)) < 2:
                continue
            groups = re.split(r"[ \-]", raw)
            if len(groups) > 1 and any(len(g) < 3 for g in groups):
                continue  # 12 34 56 ... looks like a phone number or a table, not a card
            # issuer prefix alone is enough for 14-19 digits; 12-13 digit numbers need a card word nearby
            score = 0.5 if _CARD_IIN.match(digits) and len(digits) >= 14 else 0.3
            before, after = _window(text, m.start(), m.end(), 60, 25)
            if _CARD_CONTEXT.search(before) or _CARD_CONTEXT.search(after):
                score += 0.4
            out.append(_result(self, "CREDIT_CARD", m.start(), m.end(), score))
        return out


# --------------------------------------------------------------------------------------------------
# Phone numbers in international / local layouts, gated by context
# --------------------------------------------------------------------------------------------------

_PHONE_RE = re.compile(
    r"(?<![\w+/.\-])(?:\+|00)?(?:\(\+?\d{1,4}\)|\d{1,5})(?:(?:[ .\-]|\s?\(0\)\s?)?(?:\(\d{1,5}\)|"
    r"\d{1,6})){0,6}(?:\s?(?:x|ext\.?|extension)\s?\d{1,6})?(?![\w]|[.\-/]\d)"
)
_PHONE_CONTEXT = re.compile(
    r"phone|\btel\b|tel\.|telephone|mobile|\bcell|\bfax\b|\bdesk\b|office|\bcall|\bring\b|\bdial|whatsapp|"
    r"signal|\bsms\b|\btext(?:ed|ing)?\b|message|contact|reach|answer|number|\bnr\b|\bno\.|hotline|landline|"
    r"extension"
)
_DATE_LIKE = re.compile(
    r"^(?:\d{4}[.\-/ ]\d{1,2}[.\-/ ]\d{1,2}|\d{1,2}[.\-/ ]\d{1,2}[.\-/ ]\d{2,4}|(?:19|20)\d\d[ \-](?:19|"
    r"20)\d\d|(?:19|20)\d\d)$"
)
_STREET_AHEAD_RE = re.compile(
    r"[ \t]+(?:[A-ZÀ-ÞĀ-ſ][\w'’\-]*[ \t]+){0,3}?(?:Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Lane|Ln|"
    r"Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|Crescent|Parkway|Highway)\b"
)
_IP_LIKE = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_VERSION_LIKE = re.compile(r"^\d+(?:\.\d+){1,3}$")


class LoosePhoneRecognizer(EntityRecognizer):
    """PHONE_NUMBER in layouts ``phonenumbers`` rejects without a region (``60-56-85-91``, ``467 3395``,
    ``+447700 921 916``, ``(37) 788-063``). 7-15 digits; ``+``/``00``/parentheses or 3+ groups give a base
    score, a phone-ish word within 40 characters before / 16 after adds 0.4. Dates, IPs, versions rejected.
    """

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["PHONE_NUMBER"],
            name="RecMemPhoneRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _PHONE_RE.finditer(text):
            raw = m.group(0).rstrip(" .-")
            main = re.split(r"\s?(?:x|ext\.?|extension)\s?\d", raw)[0]
            digits = re.sub(r"\D", "", main)
            if not 7 <= len(digits) <= 15:
                continue
            if _DATE_LIKE.match(main) or _IP_LIKE.match(main):
                continue
            if _VERSION_LIKE.match(main) and (
                len(main.split(".")[0]) < 2 or min(map(len, main.split("."))) < 2
            ):
                continue  # 10.0.19045 is a version, 259.735.7502 a phone number
            groups = [g for g in re.split(r"[ .\-()]+", main) if g]
            intl = main.startswith(("+", "00", "("))
            if intl or len(groups) >= 3:
                score = 0.35
            elif len(groups) == 2:
                score = 0.2
            else:
                score = 0.15
            if "." in main and not intl and len(groups) < 3:
                continue
            end = m.start() + len(raw)
            if _STREET_AHEAD_RE.match(text, end) and len(re.findall(r"\d+", main)) <= 2:
                continue  # "17031 2202 Rissik St": house numbers before a street name
            before, after = _window(text, m.start(), end, 40, 16)
            if _PHONE_CONTEXT.search(before) or _PHONE_CONTEXT.search(after):
                score += 0.4
            elif "+" in main or "(0)" in main:
                score += 0.1
            out.append(_result(self, "PHONE_NUMBER", m.start(), m.start() + len(raw), score))
        return out


# --------------------------------------------------------------------------------------------------
# Street addresses (LOCATION)
# --------------------------------------------------------------------------------------------------

_T = r"[A-ZÀ-ÞĀ-ſΑ-Ω][\w'’.\-]*"  # a capitalised word (Latin, Latin-extended, Greek capitals)
_STREET_TYPES = (
    r"Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|"
    r"Parkway|Pkwy|Highway|Hwy|Crescent|Close|Alley|Row|Plaza|Route|Trail|Gateway|Greens?|Mews|Walk|Hill|"
    r"Gardens|Park|Grove|Circle|Cir|Loop|Pike|Port|Union|Mill|Courts|Flat|Lodge|Estate|Bridge|str|utca|út|"
    r"tér|u\.|gate|vej|gade|vegen|veien|katu|tie|kuja|gatan|vägen|straat|laan|plein|strasse|straße|gasse|"
    r"weg|platz"
)
_TYPE_FIRST = (
    r"(?:Rua|Avenida|Av\.|Via|Viale|Vicolo|Piazza|Piazzetta|Largo|Calle|Carrer|Paseo|Plaza|Praça|Travessa|"
    r"Rue|Boulevard|Chemin|Allée|ul\.|ulica|Aleja|al\.|trg|Trg|C/)"
)
_STREET_SUFFIXED = (
    r"(?:strasse|straße|gasse|weg|platz|katu|kuja|tie|gatan|vägen|väg|vej|gade|veien|vegen|gata|straat|laan|"
    r"plein|utca|centret)"
)
_UNIT = r"(?:,?[ \t]+(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor|Fl\.?)[ \t]*#?[ \t]*\w{1,6}\.?){0,2}"
_CORE = (
    r"(?:\b\d{1,6}[A-Za-z]?,?[ \t]+(?:\d{1,5}[ \t]+)?(?:"
    + _T
    + r"[ \t]+){0,4}?(?:"
    + _STREET_TYPES
    + r")\b\.?(?:[ \t]+\d{1,5}[A-Za-z]?\b)?"
    r"|(?:\b\d{1,6}[ \t]+)?"
    + _TYPE_FIRST
    + r"[ \t]+(?:(?:"
    + _T
    + r"|de|da|do|dos|das|del|della|di|la|le|e|von|van|z|d')[ \t]+){0,6}?\d{1,5}[A-Za-z]?\b"
    r"|(?:\b\d{1,6}[ \t]+)?\b" + _T + _STREET_SUFFIXED + r"[ \t]+\d{1,5}[A-Za-z]?\b"
    r"|\b\d{1,6}[ \t]+(?:\d{1,5}[ \t]+)?(?:" + _T + r"[ \t]+){1,3}\d{1,5}[A-Za-z]?\b(?![.,]\d)"
    r"|\b(?:PSC|Unit|CMR)[ \t]+\d{3,5},?[ \t]+Box[ \t]+\d{3,5}"
    r"|\b(?:USNS|USNV|USS|USCGC)[ \t]+" + _T + r"|\b(?:APO|FPO|DPO)[ \t]+(?:AA|AE|AP)[ \t]+\d{5}"
    r"|\bP\.?[ \t]?O\.?[ \t]+Box[ \t]+\d{1,6})"
)
_TAIL = (
    r"(?:,[ \t]*"
    + _T
    + r"(?:[ \t]+(?:"
    + _T
    + r"|\("
    + _T
    + r"\)|[A-Z]{2}|de|del|la))*(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?){0,3}"
)
_STREET_RE = re.compile(_CORE + _UNIT + _TAIL)
# following lines of a postal block: "Suite 838", "Tujetsch", ", CO", "Uruguay 64677", "53650", "KNIVSTA, nan
# 18237"
_BLOCK_LINE_RE = re.compile(
    r"[ \t>]*(?:(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor)[ \t]*#?[ \t]*\w{1,6}\.?|"
    r",?[ \t]*[^\W\d_][\w'’.\-]*(?:[ \t]+(?:[^\W\d_][\w'’.\-]*|"
    r"\([^\W\d_]+\)))*,?(?:[ \t]+[A-Za-z]{2,3})?(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?|"
    r",?[ \t]*[A-Za-z]{2,3}|\d{4,6}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d)[ \t]*(?=\n|$)"
)


class StreetAddressRecognizer(EntityRecognizer):
    """LOCATION for street addresses and the postal block that follows them.

    A street line (``3482 Via Franscini 71 Suite 838``, ``Feldstrasse 42``, ``221B Baker Street``,
    ``PSC 7951, Box 9972``, ``PO Box 287``) optionally followed on the same line by ``, City, Country 12345``
    and, on the next lines, by short address lines (unit, city, region code, country + postcode). Score 0.9:
    within a detected address this beats the NER's guesses (spaCy tags street names as persons).
    """

    MAX_BLOCK_LINES = 5

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["LOCATION"],
            name="RecMemStreetRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _STREET_RE.finditer(text):
            s, e = m.start(), m.end()
            if "\n" in text[s:e]:
                continue
            out.append(_result(self, "LOCATION", s, e, 0.9))
            # postal block on the following lines (one blank line allowed)
            rest_start = text.find("\n", e)
            if rest_start < 0 or text[e:rest_start].strip(" \t,.") != "":
                continue
            pos = rest_start + 1
            blank = 0
            for _ in range(self.MAX_BLOCK_LINES):
                if pos >= len(text):
                    break
                line_end = text.find("\n", pos)
                line_end = len(text) if line_end < 0 else line_end
                line = text[pos:line_end]
                if not line.strip(" \t>"):
                    blank += 1
                    if blank > 1:
                        break
                    pos = line_end + 1
                    continue
                bm = _BLOCK_LINE_RE.fullmatch(line)
                if not bm or len(line.strip()) > 45 or ":" in line or "@" in line:
                    break
                out.append(_result(self, "LOCATION", pos, line_end, 0.9))
                pos = line_end + 1
        return out


# --------------------------------------------------------------------------------------------------
# PERSON heuristics on top of the spaCy NER
# --------------------------------------------------------------------------------------------------

# Words that make a capitalised span an organisation, a place or a heading rather than a person's name.
_NOT_NAME_WORDS = frozenset(
    w.lower()
    for w in """
Inc Inc. Corp Corp. Corporation Co Co. Company Ltd Ltd. LLC LLP PLC GmbH AG SA SAS BV NV Oy AB AS Pty Group
Groups
Holdings Bank Bancorp University College School Academy Institute Foundation Agency Associates Partners
Solutions
Systems Technologies Technology Tech Software Labs Lab Global International Services Service Consulting Media
Network Networks Weekly Daily Times News Journal Magazine Press Records Studios Studio Pictures Entertainment
Airlines Airways Motors Hospital Clinic Center Centre Church Council Committee Department Ministry Office
Association Society Club Team Union Party Fund Capital Ventures Industries Enterprises Insurance Energy Pharma
Pharmaceuticals Health Healthcare Analytics Data Digital Cloud Cycle Rapid Store Shop Market Markets Mart Bar
Cafe
Restaurant Hotel Hotels Resort Inn Airport Station Port Museum Library Gallery Theatre Theater Park Parks
Garden
Gardens Street St Road Rd Avenue Ave Lane Boulevard Drive Way Court Place Square Terrace Parkway Highway Route
Bridge Tower Building Hall House Mall City County State States Province Region District Republic Kingdom
Emirates Island Islands Isle Beach Bay Harbor Harbour Lake River Mountain Mountains Mount Valley Hills Hill
Springs
Falls Heights Creek Coast North South East West Northern Southern Eastern Western Central Upper Lower Greater
New
Old San Santa Santo Saint Los Las El La Le Del Da De Rio Sao São Fort Cape Costa Puerto Hong Kuala Buenos Abu
Tel
Sri Ho United America American Americas Europe European Asia Africa African Australia Canada Mexico China
Japan
India Germany France Spain Italy Russia Brazil Monday Tuesday Wednesday Thursday Friday Saturday Sunday
January
February March April May June July August September October November December Phone Mobile Fax Desk Email
E-mail
Website Address Info Information Personal Contact Details Note Notes Subject Summary Title Name Date Time
Directed Written Produced Action Adventure Animation Comedy Drama Kids Family Mystery Suspense Horror Romance
Music Song Songs Album Band Concert Tour Version Edition Series Season Episode Chapter Part Volume Page
Section
Error Warning Debug Trace Traceback Exception Step Task Todo Question Answer Example Output Input Result
Results
User Assistant System Agent Admin Customer Client Support Manager Director President Chairman CEO CTO CFO
Professor Doctor Sir Madam Mister Lord Lady King Queen Prince Princess General Captain Officer Agent Staff
Please Thanks Thank Hello Hi Hey Dear Regards Best Cheers Yes No Ok Okay The A An And Or Of In On At To For
With By From Is Are Was Were Be Been This That These Those It Its My Our Your Their His Her We You They I
Mr Mrs Ms Miss Dr Prof Amazon Google Microsoft Apple Facebook Meta Netflix Tesla Twitter Slack GitHub Linux
Windows Python Java Docker Kubernetes Postgres Django React API SDK CLI UI UX AI ML LLM OK FAQ
Everyone Everybody Someone Somebody Nobody Anyone Anybody Nothing Everything Something He She It They We
Him Them Who What When Where Why How Which Here There Now Then Today Tomorrow Yesterday Also But If So
Bot Chatbot Model Server Client Host Service Billing Shipping Account Order Invoice Payment Card
""".split()
)

_NOT_NAME_WORDS = _NOT_NAME_WORDS | frozenset(
    """later then meanwhile afterwards finally anyway actually unfortunately luckily sadly honestly maybe
    perhaps well oh ok okay sure yes no please thanks thank so now also still yet again first last
    next""".split()
)


def trim_name_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop leading/trailing words that are not name parts ("Later Elena Petrova" -> "Elena Petrova")."""
    words = list(re.finditer(r"\S+", text[start:end]))
    if len(words) < 2:
        return start, end

    def bare(m: re.Match[str]) -> str:
        return m.group(0).strip(".,;:!?\"'’()").lower()

    i, j = 0, len(words)
    while i < j - 1 and bare(words[i]) in _NOT_NAME_WORDS:
        i += 1
    while j - 1 > i and bare(words[j - 1]) in _NOT_NAME_WORDS:
        j -= 1
    return start + words[i].start(), start + words[j - 1].end()


_NAME_TOKEN_RE = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:[’'\-][^\W\d_]+)*")


def is_name_token(tok: str) -> bool:
    """Title-case alphabetic token (diacritics allowed), not a stop/designator word, or an initial."""
    if len(tok) == 1:
        return tok.isupper()
    if len(tok) == 2 and tok[1] == "." and tok[0].isupper():
        return True
    if not _NAME_TOKEN_RE.fullmatch(tok):
        return False
    if not (tok[0].isupper() and not tok.isupper()):
        return False
    parts = re.split(r"[’'\-]", tok)
    if any(p and not p[0].isupper() and p not in ("s",) for p in parts[1:]) and "-" in tok:
        return False
    return tok.lower() not in _NOT_NAME_WORDS


def _is_initial(tok: str) -> bool:
    return (len(tok) == 1 and tok.isupper()) or (len(tok) == 2 and tok[1] == "." and tok[0].isupper())


def name_shaped(words: Sequence[str], *, min_words: int = 1, max_words: int = 4) -> bool:
    """All tokens name-like, first and last not initials, at most one initial in between."""
    if not min_words <= len(words) <= max_words:
        return False
    if not all(is_name_token(w) for w in words):
        return False
    if _is_initial(words[0]) or _is_initial(words[-1]):
        return False
    return sum(_is_initial(w) for w in words) <= 1


_CUE_FLAGS = re.I

# honorific + name (one word is enough)
_HONORIFIC_CUE = re.compile(
    r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Madam|Mme|Mlle|Herr|Frau|Señor|Señora|Sr|Sra)\.?[ \t]+",
    _CUE_FLAGS,
)
# relation + name: "my son Lukas", "our colleague, Maria"
_RELATION_CUE = re.compile(
    r"\b(?:my|our|his|her|their|your)\s+(?:(?:little|older|younger|big|ex|late|new|best)[\s-])?(?:son|"
    r"daughter|kid|child|baby|wife|husband|spouse|partner|boyfriend|girlfriend|fiancée?|friend|colleague|"
    r"co-?worker|teammate|boss|manager|supervisor|brother|sister|sibling|mom|mum|mother|dad|father|grandma|"
    r"grandmother|grandpa|grandfather|grandson|granddaughter|uncle|aunt|cousin|nephew|niece|neighbou?r|"
    r"roommate|flatmate|landlord|landlady|tenant|teacher|tutor|doctor|dentist|therapist|lawyer|attorney|"
    r"accountant|assistant|client|customer|patient|student|intern|mentor|coach|nanny|"
    r"babysitter)[ \t]*,?[ \t]+",
    _CUE_FLAGS,
)
# introductions and sign-offs: one name word is enough
_STRONG_CUE = re.compile(
    r"(?:\b(?:my|his|her|their|your|maiden|first|last|full|middle|user|customer|contact)\s+name\s*(?:is|was|"
    r"'s|:)|\bname\s*:|\bcall(?:s|ed)? me|\bsigned,?|\bregards,?|\bthanks,|\bcheers,|\bdear|\bsincerely,?|"
    r"\bi'm|\bi am|\bthis is|\bnamed|\b(?:said|asked|told|shouted at|yelled at|replied to|wrote to|thanked|"
    r"texted|emailed|messaged|married|hired|invited|visited|congratulated|greeted|introduced|promoted|"
    r"according to|on behalf of|ask|tell|ping|cc:?))[ \t]+",
    _CUE_FLAGS,
)
# weaker cues: need a two- or three-word name
_WEAK_CUE = re.compile(
    r"\b(?:hi|hello|hey|assigned to|reported by|created by|written by|directed by:?|authored by|owned by|"
    r"approved by|reviewed by|sent by|submitted by|spoke (?:to|with)|talked (?:to|with)|meeting with|"
    r"call with|call|met with|met|meet|contact|remind|invite|thanks to|including|under|from|with|to|by|for|"
    r"and|of)[ \t]+",
    _CUE_FLAGS,
)
# "<Name> said", "<Name> is from ...": a name word right before a verb typical of people
_HUMAN_VERB_AFTER = re.compile(
    r"[ \t]+(?:said|says|asked|asks|replied|replies|shouted|yelled|whispered|wrote|writes|told|tells|thinks|"
    r"thought|explained|added|noted|mentioned|agreed|suggested|laughed|smiled|nodded|cried|is from|was born|"
    r"lives|lived|works|worked|joined|met|married|called|emailed|texted)\b"
)
# "<group of people>: A, B and C"
_GROUP_CUE = re.compile(
    r"\b(?:founders|co-?founders|partners|members|children|kids|sons|daughters|friends|people|guests|"
    r"attendees|participants|speakers|authors|students|colleagues|employees|reviewers|owners|parents|"
    r"siblings|grandchildren|winners|candidates|players|team members|invitees|recipients|"
    r"assignees)\b[^\n:]{0,20}:[ \t]*"
)
_SPEAKER_RE = re.compile(
    r"(?m)^[ \t>]*(?P<name>[^\W\d_][\w'’\-]*(?: [^\W\d_][\w'’\-]*)?)[ \t]*:[ \t]*(?=[\"“'‘]|\S)"
)
_NAME_LINE_RE = re.compile(
    r"(?m)^[ \t>]*(?P<name>[^\W\d_][\w'’.\-]*(?:[ \t]+[^\W\d_][\w'’.\-]*){1,3})[ \t]*$"
)
_LIST_ITEM_RE = re.compile(r"[^\W\d_][\w'’\-]*(?:[ \t]+(?!(?:and|or|und|et|y|&)\b)[^\W\d_][\w'’\-]*)?")
_LIST_SEP_RE = re.compile(r"^\s*(?:,|,?\s+and|,?\s+&|,?\s+or)\s+$")
_CONTACT_HINT_RE = re.compile(r"@|\d{3,}|\b(?:phone|mobile|tel|fax|e-?mail|address|suite|apt)\b", re.I)
_SPACE_RE = re.compile(r"[ \t]*")
_LOWER_STOP = frozenset(
    """a an the and or but so is are was were be been am i me my you your he she it we they him her them his
    their our this that these those in on at to for of from with by as not no yes ok please thanks thank hi
    hello hey here there now then just also too very really who what when where why how which everyone
    everybody someone somebody nobody anyone""".split()
)


def _words_after(text: str, pos: int, limit: int = 4) -> list[tuple[str, int, int]]:
    """Consecutive word tokens on one line starting at ``pos`` (a one-letter initial may carry a dot)."""
    out: list[tuple[str, int, int]] = []
    i = pos
    n = len(text)
    while len(out) < limit and i < n:
        j = _SPACE_RE.match(text, i).end()
        if out and j == i:  # no whitespace between tokens
            break
        wm = _NAME_TOKEN_RE.match(text, j)
        if not wm:
            break
        end = wm.end()
        word = wm.group(0)
        if end < n and text[end] == "." and len(word) == 1:
            end += 1
            word += "."
        out.append((word, j, end))
        i = end
    return out


def _leading_name(text: str, pos: int, *, min_words: int, max_words: int = 3) -> tuple[int, int] | None:
    words = _words_after(text, pos, max_words + 1)
    best = None
    for k in range(1, min(max_words, len(words)) + 1):
        chunk = [w for w, _, _ in words[:k]]
        if not is_name_token(chunk[-1]):
            break
        if k >= min_words and name_shaped(chunk, min_words=min_words, max_words=max_words):
            best = (words[0][1], words[k - 1][2])
    return best


def _lower_name_after(text: str, pos: int) -> tuple[int, int] | None:
    """``my name is borna jerković``: 1-2 lower-case words that are not function words."""
    words = _words_after(text, pos, 2)
    picked = []
    for w, s, e in words:
        if w.lower() in _LOWER_STOP or len(w) < 2:
            break
        picked.append((s, e))
    if not picked:
        return None
    return picked[0][0], picked[-1][1]


class PersonHeuristicRecognizer(EntityRecognizer):
    """Raise PERSON recall of the small spaCy model with generic, documented cues.

    All rules need name-shaped tokens (Title-case words, at most one middle initial, none of
    :data:`_NOT_NAME_WORDS` such as Inc/Street/New/Monday/Phone/Everyone):

    1. *relabel*: a spaCy ORG/GPE/LOC/FAC/PRODUCT/WORK_OF_ART/NORP span of 2-4 name-shaped words is re-read as
       PERSON (0.86, above spaCy's 0.85): the small model often calls unfamiliar names organisations;
    2. *cues*: a one-word name after an honorific (``Ms.``), a relation (``my son``, ``my colleague``), an
       introduction or sign-off (``my name is``, ``Dear``, ``regards,``), or a verb of talking to someone
       (``said``, ``told``, ``emailed``) (0.88-0.9: such a cue outranks spaCy's guess of a place); a
       two/three-word name after a weaker cue (``by``, ``with``,
       ``assigned to``, ``spoke to``, ``including``), unless spaCy calls it a place (0.7); a one-word name
       before such a verb (``<Name> said``, ``<Name> is from``) (0.7); lower-case names only after
       ``my name is`` / ``call me``;
    3. *initial*: ``First M. Last`` anywhere (0.7);
    4. *lists*: in ``A, B, C and D`` containing a PERSON, or introduced by a group of people (``founders:``,
       ``guests:``), the other name-shaped items are PERSON (0.86 / 0.75);
    5. *consistency*: a name-shaped word equal to a word of a PERSON found elsewhere in the text (0.86);
    6. *transcript*: in a text with at least two ``Name: utterance`` lines, the speaker names (0.9);
    7. *contact card*: a line that is only a 2-4 word name, in a multi-line text with contact details
       (e-mail, phone, address) (0.7).
    """

    RELABEL = {"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "NORP", "EVENT"}

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["PERSON"],
            name="RecMemPersonHeuristics",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        found: dict[tuple[int, int], float] = {}

        def add(start: int, end: int, score: float) -> None:
            start, end = _trim_span(text, start, end)
            if end - start < 2:
                return
            if found.get((start, end), 0) < score:
                found[(start, end)] = score

        person_spans: list[tuple[int, int]] = []
        places: list[tuple[int, int]] = []
        for start, end, label, ent_text in _raw_entities(nlp_artifacts):
            if label == "PERSON":
                person_spans.append((start, end))
                continue
            if label in ("GPE", "LOC", "FAC"):
                places.append((start, end))
            words = ent_text.replace("’s", "").replace("'s", "").split()
            if label in self.RELABEL and "\n" not in ent_text.strip() and name_shaped(words, min_words=2):
                add(start, end, 0.86)

        self._cues(text, add, places)

        for m in re.finditer(r"\b([^\W\d_][\w'’\-]+)[ \t]+([A-Z])\.?[ \t]+([^\W\d_][\w'’\-]+)", text):
            if name_shaped([m.group(1), m.group(2), m.group(3)], min_words=3):
                add(m.start(), m.end(), 0.7)

        speakers = [
            m for m in _SPEAKER_RE.finditer(text) if name_shaped(m.group("name").split(), max_words=2)
        ]
        if len(speakers) >= 2:
            for m in speakers:
                add(m.start("name"), m.end("name"), 0.9)

        if text.count("\n") >= 2 and _CONTACT_HINT_RE.search(text):
            for m in _NAME_LINE_RE.finditer(text):
                words = m.group("name").split()
                if name_shaped(words, min_words=2) and not any(
                    ps <= m.start("name") < pe for ps, pe in places
                ):
                    add(m.start("name"), m.end("name"), 0.7)

        self._lists(text, person_spans + list(found), add)
        self._consistency(text, person_spans + list(found), add)
        return [_result(self, "PERSON", s, e, score) for (s, e), score in found.items()]

    @staticmethod
    def _cues(text: str, add, places: list[tuple[int, int]]) -> None:
        for m in _HONORIFIC_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.9)
        for m in _RELATION_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1, max_words=2)
            if span:
                add(*span, 0.9)
        for m in _STRONG_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.88)
            elif re.search(r"name\s*(?:is|'s)|call(?:s|ed)? me", m.group(0), re.I):
                span = _lower_name_after(text, m.end())
                if span:
                    add(*span, 0.88)
        for m in _WEAK_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=2)
            if span and not any(s < span[1] and span[0] < e for s, e in places):
                add(*span, 0.7)
        for m in _HUMAN_VERB_AFTER.finditer(text):
            # the word right before the verb
            head = text[max(0, m.start() - 40) : m.start()]
            wm = re.search(r"([^\W\d_][\w'’\-]*)$", head)
            if not wm:
                continue
            start = m.start() - len(wm.group(1))
            if is_name_token(wm.group(1)) and len(wm.group(1)) >= 2:
                add(start, m.start(), 0.7)

    @staticmethod
    def _lists(text: str, persons: list[tuple[int, int]], add) -> None:
        group_starts = [m.end() for m in _GROUP_CUE.finditer(text)]
        for line_m in re.finditer(r"[^\n]+", text):
            line, off = line_m.group(0), line_m.start()
            items = list(_LIST_ITEM_RE.finditer(line))
            runs: list[list[re.Match[str]]] = []
            run: list[re.Match[str]] = []
            for it in items:
                if run and _LIST_SEP_RE.match(line[run[-1].end() : it.start()]):
                    run.append(it)
                else:
                    if len(run) >= 2:
                        runs.append(run)
                    run = [it]
            if len(run) >= 2:
                runs.append(run)
            for r in runs:
                spans = [(off + it.start(), off + it.end()) for it in r]
                has_person = any(any(s < pe and ps < e for ps, pe in persons) for s, e in spans)
                introduced = any(0 <= spans[0][0] - g <= 2 for g in group_starts)
                if not (has_person and len(r) >= 3) and not introduced:
                    continue
                for (s, e), it in zip(spans, r, strict=True):
                    if name_shaped(it.group(0).split(), max_words=2):
                        add(s, e, 0.86 if has_person else 0.75)

    @staticmethod
    def _consistency(text: str, persons: list[tuple[int, int]], add) -> None:
        names = set()
        for s, e in persons:
            full = " ".join(text[s:e].split())
            if " " in full and name_shaped(full.split(), min_words=2):
                names.add(full)  # the full name first (longest alternatives win), then its parts
            for w in text[s:e].split():
                w = w.strip(".,;:!?'’\"").removesuffix("'s").removesuffix("’s")
                if len(w) >= 3 and is_name_token(w):
                    names.add(w)
        if not names:
            return
        alternation = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
        for m in re.finditer(r"(?<![\w])(?:" + alternation + r")(?![\w])", text):
            if not any(s <= m.start() < e for s, e in persons):
                add(m.start(), m.end(), 0.86)


def _raw_entities(nlp_artifacts) -> list[tuple[int, int, str, str]]:
    """spaCy entities with spaCy's own labels: cached by the RecMem NLP engine, else read from the Doc."""
    cached = getattr(nlp_artifacts, "recmem_raw_entities", None)
    if cached is not None:
        return cached
    doc = getattr(nlp_artifacts, "tokens", None)
    if doc is None or not hasattr(doc, "ents"):
        return []
    return [(e.start_char, e.end_char, e.label_, e.text) for e in doc.ents]


def _trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?\"'’)"):
        end -= 1
    if text[start:end].endswith(("'s", "’s")):
        end -= 2
    while start < end and (text[start].isspace() or text[start] in "\"'‘(“"):
        start += 1
    return start, end


def build_custom_recognizers(supported_language: str = "en") -> list[EntityRecognizer]:
    return [
        SecretRecognizer(supported_language=supported_language),
        LooseCardRecognizer(supported_language=supported_language),
        LoosePhoneRecognizer(supported_language=supported_language),
        StreetAddressRecognizer(supported_language=supported_language),
        PersonHeuristicRecognizer(supported_language=supported_language),
    ]


def iter_placeholders(text: str) -> Iterable[tuple[int, int]]:
    """Spans of RecMem placeholders already present in ``text`` (``<SECRET:kind>``, ``<PERSON_3f2a>``)."""
    for m in _PLACEHOLDER_TOKEN_RE.finditer(text):
        yield m.span()
