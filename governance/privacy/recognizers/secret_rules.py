"""The English-syntax secret rules: provider shapes, credential words beside a value, high-entropy tokens.

More rules (other languages, markup, reversed and split shapes) are in :mod:`.secret_shapes`; :mod:`.secrets` runs
both lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .secret_base import (
    _CODE_WORDS,
    _HEX_RE,
    _IDENT_RE,
    _PLACEHOLDER_RE,
    FILE_PATH_RE,
    NOT_A_SECRET_NAME_RE,
    SOURCE_REFERENCE_RE,
    SecretRule,
    _rx,
    looks_random,
    password_like,
    plausible_secret_value,
    unwrap,
)

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
    # what the credential is for may take a few words: "the sudo password on the build box is …", "wifi password
    # for the guest network: …"; a hint that gives the value away is the value ("password hint: it's …")
    r"credentials?)(?:\s+(?:hint|phrase|words?))?"
    # who chose it: "the password we set on the old printer is …"
    r"(?:\s+(?:that\s+)?(?:they|we|you|i|he|she)\s+(?:sent|got|gave|chose|set|picked|use|used|need|entered|typed|"
    r"created|made|shared?)(?:\s+(?:me|us|you|him|her|them))?)?"
    r"(?:\s+(?:for|of|on|to|at|in|from)\s+(?:(?:the|my|our|your|his|her|their|this|that)\s+)?"
    r"(?:[\w.@/-]{1,30}\s+){0,4}?[\w.@/-]{1,40}?)?(?P<sep>\s+(?:is|was|are|"
    r"is now|was changed to|changed to|set to|reset to|to)\b|\s*(?:=|:|->|→|–|—))\s*:?\s*(?:it'?s\s+|it\s+is\s+)?"
    # a passphrase of several words is quoted: "river otter moonlight 1911"
    r"(?:[\"“](?P<qval>[^\"“”\n]{2,80}\s[^\"“”\n]{2,80})[\"”]|(?P<bval><[^<>\s]{3,200}>)|"
    r"(?P<q>[\"'`“”‘’]?)(?P<val>[^\s\"'`“”‘’\[\](){}<>]{4,200}?)(?P=q)?)"
    r"(?=[\s\"'`“”‘’]|[.,;:!?)](?:\s|$)|$)",
    re.I,
)
# "login admin / password s3cr3t!", "password hunter2!": a password-like word right after the word password
_BARE_PASSWORD_RE = _rx(
    # an escaped line break starts a line too: printf '…\npassword x\n' > ~/.msmtprc
    r"(?:\b|(?<=\\[nrt]))(?P<key>password|passwd|pwd|pw|passphrase)[ \t]+(?P<val>[^\s\"'`()\[\]{}<>]{6,200})", re.I
)
# password flags of common tools: sshpass -p, zip/unzip -P, 7z -p, openssl -passin pass:,
# Samba's -U user%pass
_TOOL_PW_RE = _rx(
    # (7-Zip's password is glued to its -p: "-p" alone asks for one)
    r"\b(?:sshpass[ \t]+-p|(?:un)?zip\b[^\n]*?[ \t]-P|7za?\b[^\n]*?[ \t]-p(?=[^\s\-])|openssl\b[^\n]*?[ \t]-pass(?:in|"
    r"out)[ \t]+pass:|"
    # Samba's tools all take "-U user%pass": smbclient, net, rpcclient, smbcacls, smbget, winexe, samba-tool
    r"\b(?:smbclient|net|rpcclient|smbcacls|smbget|smbtree|winexe|samba-tool|pdbedit)\b[^\n]*?[ \t]"
    r"(?:-U|--user(?:name)?=?)[ \t]*[^\s%]+%)[ \t]*(?P<q>[\"']?)(?P<val>[^\s\"']{3,200})(?P=q)"
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
    if m.start() > 0 and m.string[m.start() - 1] == "\\" and key[:1] in "nrt":
        key = key[1:]  # "…\npassword=x\n" in a printf: the key starts after the escaped line break
    if not _key_boundary_ok(key) or NOT_A_SECRET_NAME_RE.search(key):
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
    if not quoted and FILE_PATH_RE.fullmatch(value):
        return None  # "--from-file=token=./token.txt": a file that holds it
    escape = re.search(r"\\[nrt]", value) if not quoted else None
    if escape and escape.start() >= 3:
        value = value[:escape.start()]  # printf '…password=x\n' | git credential approve: the escape ends it
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
        if SOURCE_REFERENCE_RE.match(value) or not plausible_secret_value(value, _bare_key(key), strict=strict):
            return None
        return _kind_for_key(key)

    return validate


def _attr_validator(m: re.Match[str]) -> str | None:
    key = m.group("key")
    if not _key_boundary_ok(key) or not plausible_secret_value(m.group("val"), _bare_key(key), quoted=True):
        return None
    return _kind_for_key(key)


def _bare_password_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    """``password <word>`` without separator: only values with a digit or inner capitals (no paths, words)."""
    value = re.split(r"\\[nrt]", m.group("val"), maxsplit=1)[0].rstrip(".,;:!?")  # "x\n": the escape ends it
    if not plausible_secret_value(value, "password", strict=True):
        return None
    inner_caps = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    if not (any(c.isdigit() for c in value) or inner_caps):
        return None
    return "password", m.start("val"), m.start("val") + len(value)


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


def _quoted_phrase_kind(key: str, phrase: str) -> str | None:
    """A quoted value of several words after a password word: a passphrase ("river otter moonlight 1911"), unless
    its words describe the credential ("the same as before", "ask Ops") or it is a placeholder."""
    if not key.startswith(("pass", "pwd", "secret", "credential")):
        return None
    words = phrase.split()
    if not 2 <= len(words) <= 10 or _PLACEHOLDER_RE.search(phrase):
        return None
    described = sum(_state_word(w.strip(".,;:!?")) for w in words)
    if described > 1 or (len(words) < 3 and not any(password_like(w) for w in words)):
        return None
    return "password" if key.startswith(("pass", "pwd")) else _kind_for_key(key)


def _prose_validator(m: re.Match[str]) -> str | None:
    """``<credential word> is|=|: <value>``: the next token is the secret unless it describes the credential.

    A password-like value (digits, symbols, inner capitals) always counts; a capitalised word counts after any
    separator ("my db password is Rosebud": a name-shaped password must not become a PERSON and reach the vault); a
    lower-case word counts after ``=`` or when it ends the clause ("my password is sunshine.", "password:
    sunshine" but not "password: click the link") — unless it is a state word ("the password is wrong",
    "token: required")."""
    key = m.group("key").lower()
    if m.group("qval") is not None:
        return _quoted_phrase_kind(key, m.group("qval"))
    wrapped = m.group("bval")
    value = (wrapped or m.group("val")).rstrip(".,;:!?)")
    if not wrapped and FILE_PATH_RE.fullmatch(value.split(",", 1)[0]):
        return None  # "--from-file=password=./pg-password.txt", "credentials=/root/.smbcredentials,vers=3.0"
    if key == "pin":  # digits only: the one credential that plausible_secret_value's number check must not veto
        inner = unwrap(value).rstrip("#")
        return "password" if inner.isdigit() and 4 <= len(inner) <= 8 and len(set(inner)) > 1 else None
    if key == "key":
        if not plausible_secret_value(value, _bare_key(key), strict=True):
            return None
        inner = unwrap(value)
        if not (looks_random(inner, min_len=16) or (len(inner) >= 16 and _HEX_RE.match(inner))):
            return None
        return "api_key"
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


_PUBLIC_KEY_LABEL_RE = re.compile(r"(?i)(?:^|[^a-z])pub(?:lic)?[ _\-.]?key[\"'`]?[ \t]*[:=]?[ \t]*[\"'`]?$")


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
    if not _CONTEXT_WORD_RE.search(window) or _PUBLIC_KEY_LABEL_RE.search(window):
        return None  # no credential word before it, or it is named a public key (WireGuard's "PublicKey = …")
    if _DIGEST_PREFIX_RE.search(m.string[max(0, m.start() - 24) : m.start()]):
        return None  # SHA256:<base64> fingerprints, ssh-ed25519 AAAA... public keys, sha512-<b64> integrity
    return "high_entropy"


# ---- the head of a key split across texts ---------------------------------------------------------------------

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


CORE_RULES: tuple[SecretRule, ...] = (
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
    # -- the head of a key split across texts
    SecretRule("vendor_fragment", "token", _FRAGMENT_RE, score=0.9, group="frag", validator=_fragment_validator,
               tail=400),
)
