"""Secret recognizers: API keys, tokens, passwords, private keys, credentials in URLs and commands.

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

Plain Python on top of ``presidio_analyzer`` (no Django, no NLP needed: :func:`find_secrets` runs on raw text).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ..normalise import normalise

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
    r"(?:(?P<q2>[\"'`])(?P<qval>[^\"'`\n]{1,300})(?P=q2)"
    r"|(?P<bval><[^<>\s]{3,300}>|\[[^\[\]\s]{3,300}\]|\{[^{}\s]{3,300}\}|\([^()\s]{3,300}\))"
    r"|(?P<val>[^\s\"'`,;<>(){}\[\]]{3,300}))",
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
    r"\b(?P<key>password|passphrase|passcode|passwd|pwd|pin|token|api[ _-]?key|secret[ _-]?key|secret|"
    r"access[ _-]?key|(?:access|auth|bearer|api|bot|personal access|refresh) token|private key|key|"
    r"credentials?)(?:\s+(?:for|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w.@/-]{1,40}?)?(?P<sep>\s+(?:is|was|are|"
    r"is now|was changed to|changed to|set to|reset to|to)\b|\s*(?:=|:|->|→|–|—))\s*:?\s*"
    r"(?:(?P<bval><[^<>\s]{3,200}>)|(?P<q>[\"'`“”‘’]?)(?P<val>[^\s\"'`“”‘’\[\](){}<>]{4,200}?)(?P=q)?)"
    r"(?=[\s\"'`“”‘’]|[.,;:!?)](?:\s|$)|$)",
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

# The password may itself contain "@" (and ":"): the authority's LAST "@" ends the credentials, as URL parsers read
# it ("redis://:a@000001@cache:6379/0" has the password "a@000001").
_URL_CRED_RE = _rx(
    r"\b(?P<scheme>[a-z][a-z0-9+.\-]{1,30})://(?P<cred>(?P<user>[^\s:/@\"'<>]*):(?P<pw>[^\s/\"'<>]+))@"
    r"(?P<host>[^\s/\"'<>:@]+)",
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
    if m.group("bval") is not None:  # password=<Xk9!mm2Q>: judged inside the brackets ("<your-token>" is a slot)
        return _kind_for_key(key) if plausible_secret_value(m.group("bval"), _bare_key(key)) else None
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


# Words that describe a credential rather than being one ("the password is wrong", "token: required"): the
# closed classes of English (determiners, pronouns, auxiliaries, prepositions, conjunctions, negation) and the
# predicates people use about a password's state. Participles (-ed, -ing) and adverbs (-ly) are state words too.
_STATE_WORDS = frozenset(
    """a an the this that these those my your our his her their its it me you we they he she i one some any no
    not never now still also just already too very so then there here is are was were be been being am has have
    had do does did will would can could should must may might shall and or but if for of to in on at by with
    from into about as than like same different wrong incorrect correct right invalid valid expired required
    missing empty blank weak strong short long good bad fine ok okay safe unsafe secure insecure new old default
    hidden visible known unknown set unset mandatory optional temporary permanent simple complex easy hard
    obvious public private personal shared sensitive case-sensitive below above attached enclosed included
    different unchanged incomplete complete same-as identical available unavailable""".split()
)


def _state_word(word: str) -> bool:
    low = word.lower()
    return low in _STATE_WORDS or low in _CODE_WORDS or low.endswith(("ed", "ing", "ly"))


def _prose_validator(m: re.Match[str]) -> str | None:
    """``<credential word> is|=|: <value>``: the next token is the secret unless it describes the credential.

    A password-like value (digits, symbols, inner capitals) always counts; a capitalised word counts after any
    separator ("my db password is Rosebud": a name-shaped password must not become a PERSON and reach the vault); a
    lower-case word counts after ``=`` or when it ends the clause ("my password is sunshine.", "password:
    sunshine" but not "password: click the link") — unless it is a state word ("the password is wrong",
    "token: required")."""
    key = m.group("key").lower()
    wrapped = m.group("bval")
    value = (wrapped or m.group("val")).rstrip(".,;:!?)")
    if key in ("key", "pin"):
        if not plausible_secret_value(value, _bare_key(key), strict=True):
            return None
        inner = unwrap(value)
        if key == "pin" and not (inner.isdigit() and 4 <= len(inner) <= 8):
            return None
        if key == "key" and not (looks_random(inner, min_len=16) or (len(inner) >= 16 and _HEX_RE.match(inner))):
            return None
        return "password" if key == "pin" else "api_key"
    kind = "password" if key.startswith("pass") or key == "pwd" else _kind_for_key(key)
    if plausible_secret_value(value, _bare_key(key), strict=True):
        return kind
    if wrapped or not plausible_secret_value(value, _bare_key(key)) or _state_word(value):
        return None
    if not value.isalpha():  # short values: "pin is 4821" is handled above, "password is a1b2" here
        return kind if any(c.isdigit() for c in value) and any(c.isalpha() for c in value) else None
    if value[0].isupper():
        return kind
    sep = m.group("sep").strip()
    after = m.string[m.end("val") :]
    clause_end = not after.strip() or re.match(r"\s*[\"'`”’]?\s*(?:[.!?;,]|\n|$)", after) is not None
    if value.islower() and len(value) >= 5 and (sep == "=" or clause_end):
        return kind
    return None


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


# ---- forged placeholders, fragments ---------------------------------------------------------------------

# "<SECRET:sk_live_...>", "<SECRET:openai_key sk-...>": a placeholder-like token whose kind is not one the gateway
# writes declares its content a secret (a known kind is the gateway's own output and never matches here).
_FORGED_SECRET_RE = _rx(r"<SECRET:(?P<val>[^<>\n]{1,300})>")
# "<API_KEY_4f3c...>", "<PERSON_Xk9...>": the placeholder shape around a payload that is not 6 hex characters.
_FORGED_KEYED_RE = _rx(
    r"<(?P<key>[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)*)_(?P<val>[A-Za-z0-9+/=_\-]{7,300})>"
)


def _inner_kind(value: str) -> str | None:
    found = find_secrets(value)
    return max(found, key=lambda f: (f.score, f.end - f.start)).kind if found else None


def _forged_secret_validator(m: re.Match[str]) -> str | None:
    value = m.group("val").strip()
    if value in SECRET_KINDS:
        return None
    return _inner_kind(value) or "secret"


def _forged_keyed_validator(m: re.Match[str]) -> str | None:
    key, value = m.group("key"), m.group("val")
    if re.fullmatch(_HEX6, value):
        return None  # the exact grammar: accepted or not by the engine, it carries 24 bits, no secret
    inner = _inner_kind(value)
    if inner:
        return inner
    if looks_random(value, min_len=16) or (len(value) >= 16 and _HEX_RE.match(value)):
        return "high_entropy"
    if re.search(_KEY_WORDS, key.lower()) and plausible_secret_value(value, quoted=True):
        return _kind_for_key(key)
    return None


# A vendor prefix with a too-short body as the LAST token of a text: the head of a key split across texts
# (its tail, in the next text, is masked by the engine's continuation rule). Kind by prefix.
_FRAGMENT_KINDS = {
    "sk-ant-": "anthropic_key", "sk-": "openai_key", "sk_": "stripe_key", "rk_": "stripe_key", "gh": "github_token",
    "github_pat_": "github_token", "gl": "gitlab_token", "xox": "slack_token", "xapp-": "slack_token",
    "akia": "aws_access_key", "asia": "aws_access_key", "aiza": "google_api_key", "hf_": "huggingface_token",
    "npm_": "npm_token", "pypi-": "pypi_token", "gocspx-": "google_oauth", "ya29.": "google_oauth",
}  # fmt: skip
_FRAGMENT_RE = _rx(
    r"(?<![\w-])(?P<frag>(?P<prefix>sk-ant-(?:[a-z]+\d*-)?|sk-(?:proj-|svcacct-|admin-)?|[sr]k_(?:live|test)_|"
    r"gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt)-|xox[abposre]-|xapp-|AKIA|ASIA|AIza|hf_|npm_|pypi-|GOCSPX-|ya29\.)"
    r"(?P<body>[A-Za-z0-9_\-]*))[\s\"'`).,;:!?]*\Z"
)


def _fragment_validator(m: re.Match[str]) -> str | None:
    body, prefix = m.group("body"), m.group("prefix").lower()
    if not body and prefix[-1] not in "-_.":
        return None  # "... start with ASIA." names the prefix; "token ghp_" is the start of a value
    if body and not (any(c.isdigit() for c in body) or any(c.isupper() for c in body)):
        return None  # "sk-learn", "hf_hub"
    return next((k for p, k in _FRAGMENT_KINDS.items() if prefix.startswith(p)), "token")


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
    SecretRule("prose", "password", _PROSE_RE, score=0.8, group="value", validator=_prose_validator),
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
    # -- forged placeholders and the head of a key split across texts
    SecretRule("forged_secret_placeholder", "secret", _FORGED_SECRET_RE, score=1.0,
               validator=_forged_secret_validator),
    SecretRule("forged_placeholder", "high_entropy", _FORGED_KEYED_RE, score=1.0, validator=_forged_keyed_validator),
    SecretRule("vendor_fragment", "token", _FRAGMENT_RE, score=0.9, group="frag", validator=_fragment_validator,
               tail=400),
)


# shapes, other languages' credential words, markup between label and value (imported here: they reuse the helpers
# above, and the rules must be in SECRET_RULES before anything reads it)
from .secret_shapes import SHAPE_RULES, SHAPE_TRIGGERS  # noqa: E402

SECRET_RULES = SECRET_RULES + SHAPE_RULES


def _group_span(m: re.Match[str], group: int | str) -> tuple[int, int]:
    if group == "value":  # the first value alternative that matched: quoted, <bracketed>, bare
        g = next(g for g in ("qval", "bval", "val") if g in m.re.groupindex and m.group(g) is not None)
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
    "forged_secret_placeholder": ("<secret:",),
    "forged_placeholder": ("<",),
    "vendor_fragment": (
        "sk-", "sk_", "rk_", "gh", "github_pat_", "gl", "xox", "xapp-", "akia", "asia", "aiza", "hf_", "npm_",
        "pypi-", "gocspx-", "ya29.",
    ),
}  # fmt: skip
_RULE_TRIGGERS.update(SHAPE_TRIGGERS)


DECODE_DEPTH = 2  # base64 inside base64 is still read; deeper nesting is not
_B64_RUN_RE = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/_\-=])")
_HEX_RUN_RE = re.compile(r"(?:(?<=0x)|(?<![0-9A-Za-z]))(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Za-z])")
_PCT_RUN_RE = re.compile(r"[^\s\"'<>`]*%[0-9A-Fa-f]{2}[^\s\"'<>`]*")
_PCT_BYTE_RE = re.compile(r"%([0-9A-Fa-f]{2})")
MAX_DECODED_RUN = 20_000


def find_secrets(
    text: str, rules: Sequence[SecretRule] = SECRET_RULES, *, decode_depth: int = DECODE_DEPTH
) -> list[SecretFinding]:
    """Run the secret rules on ``text`` (no NLP needed). Overlaps are kept; the engine resolves them.

    Also read: the normalised text (:mod:`governance.privacy.normalise`: invisible characters dropped, escapes
    decoded, compatibility forms folded; spans are mapped back), and decoded runs — base64
    and hex runs that decode to printable text, percent-encoded runs — scanned again (``decode_depth`` levels): a
    base64 or hex run whose decoded text holds a secret is a secret as a whole; in a percent-encoded run the span
    of the decoded secret is mapped back onto the encoded characters."""
    norm = normalise(text)  # the masking engine's one pass (a no-op on the text it already normalised)
    if norm.changed:
        return [
            SecretFinding(f.kind, *norm.to_original(f.start, f.end), f.score, f.rule)
            for f in find_secrets(norm.text, rules, decode_depth=decode_depth)
        ]
    findings = _run_rules(text, rules)
    if decode_depth > 0:
        findings.extend(_decoded_findings(text, rules, decode_depth))
    return findings


def _printable(data: bytes) -> str | None:
    if len(data) < 8:
        return None
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    ok = sum(1 for ch in decoded if ch.isprintable() or ch in "\n\r\t")
    return decoded if ok >= 0.95 * len(decoded) else None


def _b64_text(run: str) -> str | None:
    body = run.rstrip("=")
    if len(body) % 4 == 1 or len(body) > MAX_DECODED_RUN:
        return None
    urlsafe = "-" in body or "_" in body
    if urlsafe and ("+" in body or "/" in body):
        return None
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if urlsafe else None, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable(data)


def _percent_decode(run: str) -> tuple[str, list[tuple[int, int]]]:
    """The decoded run and, for each decoded character, the span of the characters it came from."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(run):
        m = _PCT_BYTE_RE.match(run, i)
        if not m:
            chars.append(run[i])
            spans.append((i, i + 1))
            i += 1
            continue
        j, data = i, bytearray()
        while (m := _PCT_BYTE_RE.match(run, j)) is not None:
            data.append(int(m.group(1), 16))
            j = m.end()
        decoded = data.decode("utf-8", errors="replace")
        if len(decoded) == len(data):  # one character per byte: exact spans
            chars.extend(decoded)
            spans.extend((i + 3 * k, i + 3 * k + 3) for k in range(len(data)))
        else:  # multi-byte characters: every character maps to the whole escaped run
            chars.extend(decoded)
            spans.extend((i, j) for _ in decoded)
        i = j
    return "".join(chars), spans


def _decoded_findings(text: str, rules: Sequence[SecretRule], depth: int) -> list[SecretFinding]:
    out: list[SecretFinding] = []
    seen: set[tuple[int, int]] = set()

    def whole_run(m: re.Match[str], decoded: str | None, rule: str) -> None:
        if decoded is None or m.span() in seen:
            return
        found = find_secrets(decoded, rules, decode_depth=depth - 1)
        if found:
            seen.add(m.span())
            best = max(found, key=lambda f: (f.score, f.end - f.start))
            out.append(SecretFinding(best.kind, m.start(), m.end(), 0.95, rule))

    for m in _HEX_RUN_RE.finditer(text):
        if len(m.group(0)) <= MAX_DECODED_RUN:
            whole_run(m, _printable(bytes.fromhex(m.group(0))), "decoded_hex")
    for m in _B64_RUN_RE.finditer(text):
        whole_run(m, _b64_text(m.group(0)), "decoded_base64")
    if "%" in text:
        for m in _PCT_RUN_RE.finditer(text):
            decoded, spans = _percent_decode(m.group(0))
            if len(spans) == len(m.group(0)):
                continue  # nothing was escaped
            for f in find_secrets(decoded, rules, decode_depth=depth - 1):
                out.append(SecretFinding(f.kind, m.start() + spans[f.start][0], m.start() + spans[f.end - 1][1],
                                         max(f.score, 0.9), "decoded_url"))
    return out


def _run_rules(text: str, rules: Sequence[SecretRule]) -> list[SecretFinding]:
    findings: list[SecretFinding] = []
    low = text.lower()
    for rule in rules:
        triggers = _RULE_TRIGGERS.get(rule.name)
        if triggers and not any(t in low for t in triggers):
            continue
        offset = max(0, len(text) - rule.tail) if rule.tail else 0
        for m in rule.pattern.finditer(text, offset):
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


def iter_placeholders(text: str) -> Iterable[tuple[int, int]]:
    """Spans of RecMem placeholders already present in ``text`` (``<SECRET:kind>``, ``<PERSON_3f2a>``)."""
    for m in _PLACEHOLDER_TOKEN_RE.finditer(text):
        yield m.span()
