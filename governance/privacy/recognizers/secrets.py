"""Secret recognizers: API keys, tokens, passwords, private keys, credentials in URLs and commands.

One :class:`SecretRecognizer` runs a list of :class:`SecretRule` regexes (:data:`SECRET_RULES`: the rules of
:mod:`.secret_rules` and :mod:`.secret_shapes`, then the forged-placeholder rules kept here because they read a
placeholder's content with every rule). Every secret entity type is
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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ..normalise import Normalised, normalise
from .secret_base import (
    _HEX6,
    _HEX_RE,
    _PLACEHOLDER_TOKEN_RE,
    SECRET_ENTITIES,
    SECRET_KINDS,
    SecretRule,
    _rx,
    looks_random,
    password_like,
    plausible_secret_value,
    secret_entity,
)
from .secret_rules import _KEY_WORDS, CORE_RULES, _kind_for_key
from .secret_shapes import SHAPE_RULES, SHAPE_TRIGGERS

# ---- forged placeholders: they read their content with every rule, so they live beside the runner ---------------

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


#: every rule: the English-syntax ones, the shapes beyond them, the forged placeholders
SECRET_RULES: tuple[SecretRule, ...] = (
    CORE_RULES
    + SHAPE_RULES
    + (
        SecretRule("forged_secret_placeholder", "secret", _FORGED_SECRET_RE, score=1.0,
                   validator=_forged_secret_validator),
        SecretRule("forged_placeholder", "high_entropy", _FORGED_KEYED_RE, score=1.0,
                   validator=_forged_keyed_validator),
    )
)


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
    "bare_password": ("pass", "pwd", "pw"),
    "tool_password_flag": ("sshpass", "zip", "7z", "openssl", "%"),
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
    of the decoded secret is mapped back onto the encoded characters. The text as written is read too (see
    :func:`find_secrets_as_written`)."""
    norm = normalise(text)  # the masking engine's one pass (a no-op on the text it already normalised)
    if norm.changed:
        return [
            SecretFinding(f.kind, *norm.to_original(f.start, f.end), f.score, f.rule)
            for f in find_secrets(norm.text, rules, decode_depth=decode_depth)
        ] + find_secrets_as_written(norm, rules)
    findings = _run_rules(text, rules)
    if decode_depth > 0:
        findings.extend(_decoded_findings(text, rules, decode_depth))
    return findings


_DELIMITERS_RE = re.compile(r"[\s\"'`()\[\]{}<>]")


def find_secrets_as_written(norm: Normalised, rules: Sequence[SecretRule] = SECRET_RULES) -> list[SecretFinding]:
    """The rules on ``norm.original`` as written, without the normalisation pass. Decoding can cut a value in two —
    a password ``YoSwk%2730`` reads ``YoSwk'30``, and the quote ends it; ``Ab3＂x9`` folds to a quote too — so a
    secret is looked for in both readings. A value found only as written must still look like a secret once decoded,
    its delimiters aside: an escape alone makes a word look like a password ("the password isn%27t required")."""
    if not norm.changed:
        return []  # one reading
    out = []
    for f in _run_rules(norm.original, rules):
        span = norm.to_normalised(f.start, f.end)
        if span is None:
            continue
        value = _DELIMITERS_RE.sub("", norm.text[span[0] : span[1]])
        if password_like(value) or looks_random(value, min_len=16):
            out.append(f)
    return out


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


def decoded_runs(text: str) -> Iterable[tuple[int, int, str, str]]:
    """``(start, end, decoded, rule)`` for each hex or base64 run of ``text`` that decodes to printable text (a run
    both ways is read once, as hex)."""
    seen: set[tuple[int, int]] = set()
    for m in _HEX_RUN_RE.finditer(text):
        if len(m.group(0)) <= MAX_DECODED_RUN and (decoded := _printable(bytes.fromhex(m.group(0)))) is not None:
            seen.add(m.span())
            start = m.start() - 2 if text[max(0, m.start() - 2) : m.start()] in ("0x", "0X") else m.start()
            yield start, m.end(), decoded, "decoded_hex"  # with its "0x": the run is one word
    for m in _B64_RUN_RE.finditer(text):
        if m.span() not in seen and (decoded := _b64_text(m.group(0))) is not None:
            yield m.start(), m.end(), decoded, "decoded_base64"


def _decoded_findings(text: str, rules: Sequence[SecretRule], depth: int) -> list[SecretFinding]:
    out: list[SecretFinding] = []
    for start, end, decoded, rule in decoded_runs(text):
        found = find_secrets(decoded, rules, decode_depth=depth - 1)
        if found:  # a run that decodes to text holding a secret is a secret as a whole
            best = max(found, key=lambda f: (f.score, f.end - f.start))
            out.append(SecretFinding(best.kind, start, end, 0.95, rule))
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
