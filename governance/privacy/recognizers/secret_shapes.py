"""More secret rules: shapes beyond English syntax (appended to :data:`.secrets.SECRET_RULES`).

* *label, markup, value*: a credential word of the major European languages and Russian (``Passwort``, ``mot de
  passe``, ``contraseña``, ``senha``, ``wachtwoord``, ``hasło``, ``пароль``, ``lösenord``, ``salasana``...) or English,
  then any separators and markup (``**Passwort**:``, ``<td>password</td><td>``, ``| password | x |``, ``"senha" =>``),
  then a value that looks like a password; the word may end a setting's name (``DbPasswort=``, ``smtpSenha:``,
  ``<add key="Kennwort" value="x"/>``);
* *table columns*: a markdown table whose header names a credential column: every cell of that column;
* *command lines and code*: ``-u admin -p x``, ``/p:x``, ``-Password x``, ``--db-passwort=x``, ``setPassword("x")``,
  ``auth=("user", "x")``, typed assignments (``password: str = "x"``);
* *provider formats*: Twilio, Shopify, Atlassian, DigitalOcean, Heroku, Mailgun, Discord and other prefixed tokens,
  Azure keys;
* *URLs*: signatures and tokens in query strings, ``user:password@host`` without a scheme or with an IPv6 host;
* *structure*: JWTs whose header decodes to JSON with ``alg`` (whatever the base64 flavour), PEM bodies without
  their header (base64 blocks that decode to a DER private key, or long ones after a key word);
* *session cookies*: ``Cookie``/``Set-Cookie`` values, ``sessionid=``, ``PHPSESSID=``, ``connect.sid=``...;
* *disguised keys*: a vendor key written backwards, or with Cyrillic/Greek look-alike letters (folded to ASCII here,
  after the engine's NFKC), and a key given in parts in any order within one text.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re

from .secret_base import (
    _PLACEHOLDER_RE,
    FILE_PATH_RE,
    NOT_A_SECRET_NAME_RE,
    SOURCE_REFERENCE_RE,
    SecretRule,
    _rx,
    looks_random,
    password_like,
    plausible_secret_value,
)
from .secret_rules import _STATE_WORDS, CORE_RULES

# --------------------------------------------------------------------------------------------------
# Credential words, any language
# --------------------------------------------------------------------------------------------------

_PASSWORD_WORDS = (
    r"pass(?:word|wd|phrase|code)?|pwd|passwort|kennwort|mot[ _\-]?de[ _\-]?passe|mdp|contrase[ñn]a|clave|"
    r"senha|palavra[ _\-]?passe|wachtwoord|has[łl]o|пароль|л[öo]senord|l[öo]senord|salasana|adgangskode|passord|"
    r"heslo|jelsz[óo]|parola|parol[ăa]|κωδικ[όο]ς(?:[ _]πρόσβασης)?|[şs]ifre|lozinka|geslo|slapta[žz]odis|"
    r"parool|contrasenya|salasõna|parole|пин(?:-?код)?|код[ _]доступа|pin(?:[ _\-]?code)?|[šs]ifra|лозинка|"
    r"парола|гасло|nenosiri|wagwoord|lykilor[ðd]|pasahitza|contrasinal|құпия[ _]сөз"
)
# (also "auth" ending a setting's name: REDIS_AUTH, SMTP_AUTH — its value judged like any password)
_TOKEN_WORDS = (r"token|jeton|токен|gettone|(?:ключ|kunci|kl[íi][čc]|klucz|anahtar)[ _]api|"
                r"api[ _\-.]?(?:key|schl[üu]ssel|cl[ée]|chiave|clave|chave|sleutel)|auth")
_SECRET_WORDS = (
    # (a dotted property's too: Hadoop's "fs.s3a.secret.key")
    r"secret|geheimnis|secreto|segredo|segreto|geheim|секрет|client[ _\-.]?secret|secret[ _\-.]?key|"
    r"access[ _\-.]?key|private[ _\-.]?key|zugangsdaten|identifiants|credenciales|credenziali|credenciais|"
    r"credentials?|учетные[ _]данные"
)
_LABEL = f"(?:{_PASSWORD_WORDS}|{_TOKEN_WORDS}|{_SECRET_WORDS})"

# separators and markup between a label and its value; at least one real separator ("is" in a language, ":", "=",
# a table border, a closing tag, the next attribute of a setting: key="Passwort" value="…")
_SOFT = r"(?:[ \t]|\r?\n|&nbsp;|<[^<>\n]{0,60}>|[*_\"'`]|\\[nt])"
_HARD = (
    r"(?:[:=：|>→]+|=>|:=|</[a-z]+>|-{1,2}>|[–—]|\bvalue[ \t]*=|\b(?:is|ist|est|es|é|è|är|er|on|je|jest|was|are|"
    r"sont|sind|son|s[ãa]o|era|war|était|это|–|"
    # "is" in more languages: el, ru, uk, bg/mk, lv, lt, tl, id/ms, ro
    r"είναι|ειναι|ήταν|есть|є|е|ir|yra|ay|adalah|ialah|este|sunt)\b)"
)
# the label ends a name: after "_", "." or "-" (db_passwort), or camel-cased (DbPasswort, smtpSenha, DBKENNWORT)
_LABEL_VALUE_RE = _rx(
    r"(?<![\w\-])(?:[A-Za-z0-9]+[_.\-]){0,3}(?:[A-Za-z0-9]*[a-z0-9](?-i:(?=[A-Z])))?(?P<key>" + _LABEL + r")"
    # how the value is written may follow the word: db_password_hex, smtp_pass_b64, API_KEY_ENCODED
    r"(?:[_.\-](?:hex|b64|base64|enc|encoded|encrypted|raw|plain|txt|str|utf8|bytes|value|val))?"
    r"(?:[ \t]+(?:for|of|f[üu]r|de|del|du|des|do|da|dos|das|di|della|dello|voor|van|dla|f[öo]r|для|от|к|від|до|za|"
    r"pro|için|untuk|ng|till|til)"
    r"(?:[ \t]+[\w.\-@]{1,30}){1,3}?)?"
    # a possessive written after the noun (Malay/Indonesian, Tagalog): "kata sandi saya", "password ko"
    r"(?:[ \t]+(?:saya|kami|kita|anda|ku|ko|namin|natin|mo))?"
    r"[ \t]*(?:[\"'`*_]+|</?[a-z][^<>\n]{0,40}>)*[ \t]*(?P<sep>" + _HARD + r")" + _SOFT + r"*"
    r"(?P<val>[^\s\"'`<>|]{4,200})",
    re.I,
)

# markdown table cells (the header names the column)
_CELL_RE = _rx(r"(?<=\|)[ \t]*(?P<val>[^|\n]*?\S)[ \t]*(?=\|)")
_LABEL_ONLY_RE = _rx(r"^[\s*_`]*(?:[\w\- ]{0,20}[ _\-])?" + _LABEL + r"[\s*_`]*$", re.I)
_TABLE_RULE_RE = _rx(r"^\s*\|?\s*:?-{3,}")


def _kind_for_label(word: str) -> str:
    w = word.lower()
    if re.match(_TOKEN_WORDS, w, re.I):
        return "token" if "key" not in w and "ключ" not in w else "api_key"
    if re.match(_PASSWORD_WORDS, w, re.I):
        return "password"
    return "secret"


def _label_value_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    start, end = m.span("val")
    if m.string[start - 1] in "*_":  # "**Passwort:** *x*": markdown emphasis around the value is not part of it
        while end > start and m.string[end - 1] in "*_":
            end -= 1
    value = m.string[start:end].rstrip(".,;:!?)")
    if re.fullmatch(_LABEL, value, re.I):
        return None  # "| password | passwort |": a header row
    quoted = m.string[m.start("val") - 1] in "\"'`"
    if NOT_A_SECRET_NAME_RE.search(m.string[max(0, m.start("key") - 40) : m.end("key")]):
        return None  # "auth.existingSecret=pg-credentials", "nextToken=…": an object's name, a list's cursor
    if not quoted and FILE_PATH_RE.fullmatch(value.split(",", 1)[0]):
        return None  # '"$VAULT_PASS" > ~/.vault_pass.txt', "credentials=/root/.smbcredentials,vers=3.0": a file
    # judged without the brackets that close a JSON object or list around it ('"SessionToken": null}')
    core = value if quoted else value.rstrip("]}")
    if not plausible_secret_value(core, m.group("key"), quoted=quoted, code_style=" = " in m.group(0)):
        return None
    sep = m.group("sep").lower()
    explicit = sep[0] in ":=：|>→<-–—" or sep.startswith(("</", "value"))
    if not password_like(core, min_len=5 if explicit else 6):
        return None
    return _kind_for_label(m.group("key")), start, end


def _table_cell_validator(m: re.Match[str]) -> str | None:
    text = m.string
    value = m.group("val")
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.start())
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    column = line[: m.start() - line_start].count("|") - (1 if line.lstrip().startswith("|") else 0)
    # walk up to the separator row, the header is the row above it
    lines = text[:line_start].split("\n")[:-1]
    for k in range(len(lines) - 1, 0, -1):
        if _TABLE_RULE_RE.match(lines[k]):
            header = lines[k - 1].strip().strip("|").split("|")
            if column < len(header) and _LABEL_ONLY_RE.match(header[column]):
                if plausible_secret_value(value, quoted=True) and password_like(value, min_len=5):
                    return _kind_for_label(re.search(_LABEL, header[column], re.I).group(0))
            return None
        if "|" not in lines[k]:
            return None
    return None


# Credential words of languages written without spaces between words (CJK) or in other scripts (Korean, Thai,
# Arabic, Hebrew, Hindi, Vietnamese, Malay/Indonesian): the word may be glued to the words around it ("DBのパスワードは
# x です", "服务器密码：x"), the separator may be a particle (は, 是, 는, là, adalah, هي, היא, है) and the value — in
# ASCII, as passwords are — ends where the script of the sentence resumes.
_SCRIPT_PASSWORD_WORDS = (
    "パスワード", "暗証番号", "暗号鍵", "密码", "密碼", "口令", "비밀번호", "비번", "암호", "패스워드", "รหัสผ่าน",
    "كلمة المرور", "كلمة السر", "رمز المرور", "סיסמה", "סיסמא", "पासवर्ड", "कूटशब्द", "mật khẩu", "kata sandi",
    "kata laluan", "kata kunci", "رمز عبور", "کلمه عبور", "گذرواژه", "پاس ورڈ", "پاسورڈ", "পাসওয়ার্ড",
    "கடவுச்சொல்", "పాస్వర్డ్", "ಪಾಸ್ವರ್ಡ್", "പാസ്‌വേഡ്", "ពាក្យសម្ងាត់", "ລະຫັດຜ່ານ", "စကားဝှက်", "პაროლი", "գաղտնաբառ",
    "የይለፍ ቃል",
)
_SCRIPT_TOKEN_WORDS = ("トークン", "令牌", "토큰", "โทเค็น", "APIキー", "API キー", "API密钥", "API 密钥", "API 키")
_SCRIPT_SECRET_WORDS = ("シークレット", "秘密鍵", "密钥", "秘钥", "金鑰", "비밀 키", "시크릿", "مفتاح سري", "מפתח סודי")
_SCRIPT_LABEL = "|".join(re.escape(w) for w in (*_SCRIPT_PASSWORD_WORDS, *_SCRIPT_TOKEN_WORDS, *_SCRIPT_SECRET_WORDS))
_SCRIPT_SEPARATOR = r"(?:[:=：＝|]|は|が|を|是|为|為|는|은|이|가|คือ|\blà\b|\badalah\b|\bialah\b|هي|هو|היא|הוא|है)"
_SCRIPT_LABEL_VALUE_RE = _rx(
    # what the password is for may stand between the word and its separator, in ASCII ("รหัสผ่าน wifi คือ x")
    r"(?P<key>" + _SCRIPT_LABEL + r")(?:[ \t]+[A-Za-z][\w.\-]{0,20}(?=[ \t]*" + _SCRIPT_SEPARATOR + r"))?"
    r"[ \t]*(?:" + _SCRIPT_SEPARATOR + r"|[ \t])+[ \t\"'`「『“]*(?P<val>[!-~]{4,200})",
    re.I,
)


def _script_label_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    start, end = m.span("val")
    while end > start and m.string[end - 1] in ".,;:!?)\"'`":
        end -= 1
    value = m.string[start:end]
    if not plausible_secret_value(value, quoted=True) or not password_like(value, min_len=5):
        return None
    key = m.group("key")
    kind = "token" if key in _SCRIPT_TOKEN_WORDS else "secret" if key in _SCRIPT_SECRET_WORDS else "password"
    return kind, start, end


# Positional credential lines: a field is the password because of where it stands. ~/.pgpass
# "host:port:database:user:password" (the port a number or *), and an Oracle-style "user/password@service" after
# the tools that take it (sqlplus, rman, expdp, impdp, sqlldr, exp, imp), and wherever Oracle reads one with its
# "@service": SQL*Plus's CONNECT, a parameter file's userid=, the thin and OCI JDBC URLs.
_PGPASS_RE = _rx(
    r"(?<![^\s\"'`])(?:[\w.\-*]+|\[[0-9A-Fa-f:]+\]):(?:\d{1,5}|\*):[\w.\-*]+:[\w.\-*@]+:"
    r"(?P<val>(?:\\.|[^\s:\\]){4,200})(?=[\s\"'`]|$)")
_ORACLE_LOGIN_RE = _rx(
    r"\b(?:sqlplus|rman|expdp|impdp|sqlldr|exp|imp|dgmgrl)(?:[ \t]+-\w+)*[ \t]+[\w$#]+/(?P<val>[^\s@/\"']{3,200})"
    r"(?=@|[ \t]|$)"
    r"|(?:\bjdbc:oracle:\w+:|\b(?:conn(?:ect)?[ \t]+|userid[ \t]*=[ \t]*))[\w$#]+/(?P<svc>[^\s@/\"']{3,200})(?=@)",
    re.I)


# Wi-Fi network credentials as a QR code or a phone shares them ("WIFI:T:WPA;S:home;P:secret;;") and in the
# configuration files of access points and clients (hostapd's wpa_passphrase=, wpa_supplicant's psk="…")
_WIFI_RE = _rx(
    r"(?:\bWIFI:(?:[^;\n]*;){0,4}?P:|\b(?:wpa_passphrase|wpa_psk|psk|pre[ _\-]?shared[ _\-]?key|wifi[ _\-]?"
    r"(?:pass\w*|key|psk))[ \t]*[=:][ \t]*[\"']?)(?P<val>(?:\\[;,:\\\"]|[^;\s\"'])+)", re.I)


# Credentials in the grammar of a tool rather than after a label: SQL's IDENTIFIED BY, -w of the OpenLDAP clients,
# Kerberos's kadmin and Samba's smbpasswd, the
# SNMP tools' community string (-c), and "log in … with <value>" in prose
_TOOL_CRED_RE = _rx(
    r"\bIDENTIFIED[ \t]+BY[ \t]+(?:PASSWORD[ \t]+|VALUES[ \t]+)?[\"'`]?(?P<sql>[^\s\"'`;]{4,200})|"
    r"\b(?:ldap(?:search|modify|add|delete|whoami|passwd|compare|exop|url)?|kadmin(?:\.local)?|smbpasswd)\b"
    r"[^\n]{0,200}?[ \t]-w[ \t]+[\"']?"
    r"(?P<ldap>[^\s\"']{4,200})|"
    r"\bsnmp(?:walk|get|getnext|bulkwalk|bulkget|set|table|trap|check|netstat)\b[^\n]{0,200}?[ \t](?-i:-[cAX])"
    r"[ \t]+[\"']?"
    r"(?P<snmp>[^\s\"']{4,200})|"
    r"\b(?:log(?:[ \-]?in(?:to)?)?|sign(?:[ \-]?in(?:to)?)?|authenticate|unlock|connect)\b[^.\n]{0,50}?\bwith[ \t]+"
    r"(?:the[ \t]+(?:password|passphrase|pin)[ \t]+)?[\"'`]?(?P<with>[^\s\"'`]{8,200})",
    re.I)


def _tool_cred_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = next(g for g in ("sql", "ldap", "snmp", "with") if m.group(g))
    start, end = m.span(group)
    value = m.string[start:end].rstrip(".,;:!?)")
    if group == "with":  # prose: only a value that looks like a password, never "with Google" or "with SSO"
        if not (password_like(value, min_len=8) and sum(c.isdigit() for c in value) >= 1
                and any(not c.isalnum() for c in value)):
            return None
    elif not plausible_secret_value(value, quoted=True) or value.lower() in ("public", "private"):
        return None
    elif group == "snmp" and re.search(r"-[AX][ \t]+[\"']?$", m.string[max(0, start - 6):start]) \
            and not password_like(value, min_len=8):
        return None  # SNMPv3 passphrases have eight characters at least: "the -A option takes …" names none
    return ("password" if group != "snmp" else "secret"), start, start + len(value)


def _wifi_validator(m: re.Match[str]) -> str | None:
    value = m.group("val")
    return "password" if len(value) >= 8 and plausible_secret_value(value, quoted=True) else None


def _positional_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = "val" if m.group("val") is not None else "svc"
    value = m.group(group)
    if value.isdigit() or not plausible_secret_value(value, quoted=True):
        return None  # "12:30:45:100:200" is a timestamp, not a pgpass line
    if group == "svc" and not password_like(value, min_len=4):
        return None  # "connect app/v2@…": a path, not a login
    return "password", *m.span(group)


# --------------------------------------------------------------------------------------------------
# Command lines and code
# --------------------------------------------------------------------------------------------------

_CLI_ANY_RE = _rx(
    r"(?<![\w-])(?:--?|/)(?P<key>[\w\-]*(?:" + _PASSWORD_WORDS + r"|token|secret|api-?key|apikey|access-?key|"
    r"auth|credential)[\w\-]*)(?:[=:]|[ \t]+)(?P<q>[\"']?)(?P<val>[^\s\"']{3,200})(?P=q)",
    re.I,
)
_USER_P_RE = _rx(
    r"(?<![\w-])(?:-u[ \t]*[^\s\-][^\s]*[ \t]+-p|-[uU][ \t]*[^\s\-][^\s]*[ \t]+-P(?![ \t]*[\"']?[\w\-]+=))"
    r"[ \t]*(?P<q>[\"']?)"
    # "-U sa -P x" too: sqlcmd, ipmitool, bcp (psql's "-P pager=off" is no password)
    r"(?P<val>[^\s\"']{3,200})(?P=q)"
)
_WIN_P_RE = _rx(
    r"(?:(?<![\w])/p(?:assword)?:|(?<![\w])/RP[ \t]+|\bnet[ \t]+use\b[^\n]*?/user:[^\s]+[ \t]+)(?P<q>[\"']?)"
    r"(?P<val>[^\s\"'/][^\s\"']{2,200})(?P=q)", re.I)
_SETTER_RE = _rx(
    r"(?:set|with|use|put)_?(?:password|passwd|secret|token|api_?key|access_?key|credentials?|auth_?token)"
    r"[ \t]*\([ \t]*(?:[^()\"']{0,40},[ \t]*)?(?P<q>[\"'])(?P<val>[^\"'\n]{3,200})(?P=q)",
    re.I,
)
_AUTH_TUPLE_RE = _rx(
    r"\bauth[ \t]*=[ \t]*[(\[][ \t]*(?P<q1>[\"'])[^\"'\n]{1,80}(?P=q1)[ \t]*,[ \t]*(?P<q>[\"'])(?P<val>[^\"'\n]{3,200})"
    r"(?P=q)"
)
_TYPED_ASSIGN_RE = _rx(
    r"(?<![\w])(?P<key>[\w]*(?:password|passwd|secret|token|api_?key|apikey|access_?key)[\w]*)[ \t]*:[ \t]*"
    r"[\w\[\]., |]{1,40}?[ \t]*=[ \t]*(?P<q>[\"'`])(?P<val>[^\"'`\n]{3,200})(?P=q)",
    re.I,
)
_PORTISH_RE = re.compile(r"^\d+(?::\d+)*(?:/\w+)?$|^[./~]|^\d+[kmg]?$", re.I)


_NOT_VALUE_FLAGS_RE = re.compile(r"(?i)^no-|(?:-|_|(?<=password)|(?<=passwd))(?:file|stdin|env|path|prompt|command|cmd|"
                                 r"length|policy|reset|hash|"
                                 r"header|name|field|var|min|max|len|size|store|helper|manager)$")


def _cli_validator(m: re.Match[str]) -> str | None:
    value = m.group("val")
    key = m.groupdict().get("key") or ""
    if value.startswith(("-", "(", "$(")) or _NOT_VALUE_FLAGS_RE.search(key) or SOURCE_REFERENCE_RE.match(value):
        # "--no-password --verbose", "--password-file /run/secrets/db", "-Password (ConvertTo-SecureString …)",
        # openssl's "-passout file:…": another flag, a file or an expression (whose own literal a rule below reads)
        return None
    if _PORTISH_RE.match(value) or not plausible_secret_value(value, m.groupdict().get("key") or "", quoted=True):
        return None
    if not password_like(value, min_len=4) and not m.group("q"):
        return None
    key = (m.groupdict().get("key") or "password").lower()
    if "token" in key:
        return "token"
    if "key" in key:
        return "api_key"
    if "secret" in key:
        return "secret"
    return "password"


# Credentials in the grammar of commands and code, where the value has a slot rather than a separator:
# - a credential-named setting and its value after a space: Dockerfile ``ENV DB_PASSWORD x``, ``setx API_SECRET "x"``,
#   csh ``setenv``, rclone's ``secret_access_key x``: the name is an identifier (``_``, ``.`` or ``-`` inside), so
#   prose ("password Hunter2") stays with the prose rules;
_SPACED_SETTING_RE = _rx(
    r"(?<![\w.\-])(?P<key>(?:[A-Za-z0-9]+[_.])+(?:password|passwd|pass|pwd|secret|token|key|apikey|credentials?|"
    r"auth)|_auth(?:token)?|rootpw|bindpw|(?-i:[A-Z][A-Z0-9]*(?:PASSWORD|PASSWD|SECRET|TOKEN|APIKEY))|"
    r"(?-i:(?:[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z][a-z]))+(?:Password|Passwd|Secret|Token|Pw)))[ \t]+(?P<q>[\"']?)"
    r"(?P<val>[A-Za-z0-9][^\s\"'`]{7,200})"
    r"(?P=q)(?![^\s;,)])",
    re.I,
)


def _spaced_setting_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    value = m.group("val").rstrip(".,;:)*")
    if not (any(c.isdigit() for c in value) or re.search(r"[^\w\-.]", value)) or "=" in value:
        return None  # "DB_PASSWORD variable", "api_key=…" (the key-value rule's)
    if "://" in value or "…" in value or len(value) < 8 or re.match(r"(?i)(?:exec|file|env|vault|op|keyring):", value):
        return None  # nginx's "proxy_pass http://…", "revoke_key rmk_abcdefgh_…": an address, an elided example
    if not plausible_secret_value(value, m.group("key"), quoted=True) or not password_like(value, min_len=8):
        return None
    runs = [run for run in re.split(r"[\d_\-.]+", value) if run]
    if runs and all(_CAMEL_WORDS_RE.fullmatch(run) for run in runs) and not re.search(r"[^\w\-.]", value):
        return None  # another identifier ("SECRET_KEY_BASE64 DecodeSecret2"), not a value
    return _kind_for_label(m.group("key")), m.start("val"), m.start("val") + len(value)


# - a UUID named a key or a token with no separator: "heroku api key 8f14e45f-ceea-…" (Heroku's keys are UUIDs)
_UUID_KEY_RE = _rx(
    r"\b(?:api[ _\-]?key|access[ _\-]?key|auth[ _\-]?token|(?:access|api|bearer|refresh)[ _\-]token|secret)"
    r"[ \t]+(?:is[ \t]+)?(?P<val>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w\-])",
    re.I,
)


# - a secret fed to a command that reads it from its input: ``echo 'x' | docker login --password-stdin``,
#   ``echo "user:x" | chpasswd``, ``printf 'x\n' | sudo -S …``, ``passwd --stdin``, ``kinit``, a here-string
_PIPED_SECRET_RE = _rx(
    # the feeder: echo, printf (after its format string, if any), yes; the reader: a flag or a tool that reads a
    # password or token from its input (--password-stdin, --with-token, "password=-", chpasswd, sudo -S, kinit …)
    r"\b(?:echo|printf(?:[ \t]+(?P<fq>[\"'])%s(?:\\n)?(?P=fq))?|yes)(?:[ \t]+-[neE]+)*[ \t]+(?:\$?(?P<q>[\"'])"
    r"(?P<val>[^\"'\n]{3,200})(?P=q)|(?P<bval>[^\s\"'|$<>&;-][^\s|;&]{5,100}))[ \t]*\|[ \t]*"
    # one filter may stand between ("yes x | head -2 | smbpasswd -s -a jdoe")
    r"(?:(?:head|tail|tr|sed)\b[^\n|]{0,40}\|[ \t]*)?"
    r"(?:sudo[ \t]+(?!-S))?[^\n|]{0,120}?(?:(?<![\w\-])--?[\w\-]*stdin[\w]*\b|--with-token\b|"
    r"\b(?:password|passwd|token|secret)=-(?!\w)|"
    r"\bchpasswd\b|\bsudo[ \t]+-S\b|\bkinit\b|-pass(?:in|out)?[ \t]+stdin|\bsmbpasswd\b|\bpasswd\b|"
    # tools that prompt for a password and take it from a pipe: keytool, jarsigner, cryptsetup; gpg's
    # --passphrase-fd 0, htpasswd -i, any reader of /dev/stdin, "vault login -"
    r"\b(?:keytool|jarsigner|cryptsetup)\b|--passphrase-fd[ \t=]+0\b|\bhtpasswd[ \t]+-[A-Za-z]*i|/dev/stdin\b|"
    r"\bsecret[ \t]+create[ \t]+\S+[ \t]+-(?![\w\-])|\bpass[ \t]+(?:insert|add)\b|"
    r"\blogin[ \t]+-(?![\w\-]))"
    r"|(?:\b(?:smbpasswd|passwd|chpasswd|kinit|mysql|psql|keytool|cryptsetup)\b|--[\w\-]*stdin\b|--with-token\b|"
    r"--passphrase-fd[ \t=]+0\b)"
    r"[^\n]{0,80}?<<<[ \t]*(?:\$?(?P<hq>[\"'])(?P<hval>[^\"'\n]{3,200})(?P=hq)|(?P<hbare>[^\s\"'$<>-][^\s;&|]{5,200}))",
    re.I,
)


def _piped_secret_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = next(g for g in ("val", "bval", "hval", "hbare") if m.group(g) is not None)
    start, end = m.span(group)
    value = m.string[start:end]
    if _PLACEHOLDER_RE.search(value):
        return None  # "$DOCKER_PASSWORD", "<your password>": a reference, not the value
    core = re.sub(r"\\n.*$", "", value)  # "x\nx": typed twice
    if re.search(r"\s", core):
        return None  # "echo 'build finished' | …": words, not a password
    if ":" in core and "chpasswd" in m.group(0).lower():  # "user:password"
        start += core.index(":") + 1
        core = core.split(":", 1)[1]
    if not plausible_secret_value(core, quoted=True) or not password_like(core, min_len=6):
        return None
    return "password", start, end


# - a Terraform variable named for a credential, its default the value; a SQL role's ``PASSWORD 'x'``;
#   ``ConvertTo-SecureString "x" -AsPlainText``; ``htpasswd -b file user x``; ``net user name x``; Redis ``AUTH x``
_CODE_SLOT_RE = _rx(
    r"\bvariable[ \t]+\"[\w\-]*(?:password|passwd|secret|token|key|credential)[\w\-]*\"[ \t]*\{[^}]{0,200}?"
    r"\bdefault[ \t]*=[ \t]*\"(?P<tf>[^\"\n]{4,200})\""
    r"|\bPASSWORD[ \t]+(?P<sq>['\"])(?P<sql>[^'\"\n]{4,200})(?P=sq)"
    r"|\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?P<pq>[\"'])(?P<ps>[^\"'\n]{3,200})(?P=pq)"
    r"|\b(?:htpasswd|mosquitto_passwd)[ \t]+(?:-[A-Za-z]+[ \t]+)*?-[A-Za-z]*b[A-Za-z]*[ \t]+(?:-[A-Za-z]+[ \t]+)*"
    r"\S+[ \t]+\S+[ \t]+[\"']?(?P<ht>[^\s\"']{4,200})"
    r"|\bnet[ \t]+user[ \t]+[^\s/]+[ \t]+(?P<nu>[^\s/*\"'][^\s\"']{3,200})"
    # commands whose grammar puts a secret at a place: MinIO's "mc alias set NAME URL ACCESS SECRET",
    # "rabbitmqctl add_user|change_password USER PASS", "wpa_passphrase SSID PASS", "rclone obscure PASS",
    # "net use [X:] \\share PASS", "lftp -u user,PASS", "vault login TOKEN"
    r"|\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+[\"']?"
    r"(?P<mc>[^\s\"']{4,200})"
    r"|\brabbitmqctl[ \t]+(?:\S+[ \t]+)*?(?:add_user|change_password)[ \t]+[\"']?[^\s\"']+[\"']?[ \t]+[\"']?"
    r"(?P<rq>[^\s\"']{4,200})"
    r"|\bwpa_passphrase[ \t]+(?:\"[^\"\n]+\"|'[^'\n]+'|\S+)[ \t]+[\"']?(?P<wp>[^\s\"']{8,63})"
    r"|\brclone[ \t]+obscure[ \t]+[\"']?(?P<ro>[^\s\"'\-][^\s\"']{3,200})"
    r"|\bnet[ \t]+use[ \t]+(?:[A-Za-z]:[ \t]+|\*[ \t]+)?\\\\\S+[ \t]+(?P<nuse>[^\s/*\"'][^\s\"']{2,200})"
    r"|\blftp\b[^\n]{0,80}?[ \t]-u[ \t]+[^\s,]+,(?P<lf>[^\s\"']{3,200})"
    r"|\bvault[ \t]+login[ \t]+(?P<vl>[^\s\"'=\-][^\s\"'=]{7,200})(?![^\n]*=)"
    # "netsh wlan … key=X", "ssh-keygen … -N X" (a key's new passphrase), macOS "security add-generic-password … -w X",
    # openvpn's "--auth-user-pass <(printf 'user\npass')", expect's 'send "x\r"' after a password prompt
    r"|\bnetsh\b[^\n]{0,120}?\bkey(?:material)?=[\"']?(?P<nk>[^\s\"']{8,63})"
    r"|\bssh-keygen\b[^\n]{0,120}?[ \t](?-i:-[NP])[ \t]+[\"']?(?P<sk>[^\s\"']{4,200})"
    r"|\bsecurity[ \t]+(?:add|set)-(?:generic|internet)-password\b[^\n]{0,160}?[ \t]-w[ \t]+[\"']?"
    r"(?P<sw>[^\s\"']{4,200})"
    r"|--auth-user-pass[ \t]+<\([ \t]*(?:printf|echo[ \t]+-e)[ \t]+[\"'][^\\\"'\n]+\\n(?P<ov>[^\\\"'\n]{4,200})"
    r"|\bexpect\b[^\n]{0,200}?(?:pass|assword|secret|token|pin\b)[^\n]{0,80}?"
    r"\bsend[ \t]+(?:--[ \t]+)?\\?\"(?P<ex>[^\"\\\n]{4,200})\\r"
    # DB2's "connect to DB user U using P", Redis Sentinel's "auth-pass P" / "masterauth P", macOS
    # "dscl . -passwd /Users/u P", Bitwarden's "bw unlock P", HTTPie's "-a user:P", ESXi's "esxcli … -p P"
    r"|\buser[ \t]+\S+[ \t]+using[ \t]+[\"']?(?P<db2>[^\s\"';]{4,200})"
    r"|\b(?:auth-pass|masterauth|requirepass)[ \t]+[\"']?(?P<rs>[^\s\"']{4,200})"
    r"|\bdscl\b[^\n]{0,60}?-passwd[ \t]+\S+[ \t]+(?:\S+[ \t]+)?[\"']?(?P<ds>[^\s\"']{4,200})(?=[ \t]*(?:$|[;&|\n]))"
    r"|\bbw[ \t]+unlock[ \t]+[\"']?(?P<bw>[^\s\"'\-$][^\s\"']{3,200})"
    r"|\b(?:http|https|httpie)[ \t]+(?:-\S+[ \t]+)*?(?:-a|--auth)[ \t=]+[^\s:]+:(?P<hp>[^\s\"']{4,200})"
    r"|\besxcli\b[^\n]{0,80}?[ \t](?:-p|--password)[ \t=]+[\"']?(?P<esx>[^\s\"']{4,200})"
    # a password file given as a process substitution: restic's "--password-file <(printf '%s' 'x')"
    r"|--?[\w\-]*(?:pass|secret|token|key)[\w\-]*[ \t=]+<\([ \t]*(?:printf(?:[ \t]+[\"']%s(?:\\n)?[\"'])?|"
    r"echo(?:[ \t]+-[neE]+)?)[ \t]+[\"']?(?P<psub>[^\s\"')]{4,200})"
    r"|(?-i:\bAUTH)[ \t]+(?:[\w.\-]+[ \t]+)?(?P<ra>[^\s]{6,200})"
    # Redis's ACL grammar (ACL SETUSER, users.acl): ">x" adds the password x among the user's rules
    r"|(?:\bACL[ \t]+SETUSER|(?m:^)[ \t]*user)[ \t]+\S+[ \t]+(?:(?:on|off|reset\w*|nopass|all\w+|[~%&+\-#<]\S*)"
    r"[ \t]+)*>(?P<acl>[^\s]{4,200})"
    # a password stored in the clear under its scheme's name (Dovecot, OpenLDAP userPassword): "{PLAIN}x"
    r"|\{(?:PLAIN|CLEARTEXT|CLEAR|PLAINTEXT)\}(?P<sch>[^\s:\"']{4,200})"
    # ZooKeeper's "addauth digest user:x", samba-tool's "user create NAME x", a proxy's or a stats page's
    # "user:x" after auth/login (HAProxy "stats auth u:x", Squid "login=u:x")
    r"|\baddauth[ \t]+digest[ \t]+[^\s:]+:(?P<zk>[^\s\"']{4,200})"
    r"|\bsamba-tool[ \t]+user[ \t]+(?:create|add)[ \t]+\S+[ \t]+(?P<st>[^\s\"'\-][^\s\"']{3,200})"
    r"|\b(?:auth|login)(?:[ \t]+|[ \t]*=[ \t]*)[\"']?[\w.\-@]{1,64}:(?P<up>[^\s\"':@/,;]{4,200})"
    # a connection call's user and password as its last two literals: getConnection(url, "u", "x"),
    # new PDO(dsn, 'u', 'x'), bmemcached.Client([…], 'u', 'x'), NetworkCredential("u", "x"), smtp.login('u', 'x')
    # (the user may be an expression ending in a literal, os.environ["SID"]; a literal may be converted, Rust's
    # "x".to_owned())
    r"|\b(?:getConnection|PDO|mysqli(?:_connect)?|mysql_connect|mssql_connect|oci_connect|pg_connect|Client|connect|"
    r"Connection|login|NetworkCredential|PasswordAuthentication|UsernamePasswordCredentials|HTTPBasicAuth|"
    r"HTTPDigestAuth|BasicAuth|Credentials(?:::new)?|FTP(?:_TLS)?|IMAP4(?:_SSL)?|POP3(?:_SSL)?)[ \t]*\([^()\n]{0,200}?"
    r"(?P<cq1>[\"'])[^\"'\n]{1,80}(?P=cq1)(?:\.\w+\(\))?\]?[ \t]*,[ \t]*(?P<cq>[\"'])(?P<call>[^\"'\n]{4,200})(?P=cq)"
    r"(?:\.\w+\(\))?[ \t]*(?:\)|,[ \t]*[^\"'\s])"
    # a call that sets a setting named for a credential to a literal: PHP's define('DB_PASSWORD', 'x'),
    # System.setProperty("javax.net.ssl.keyStorePassword", "x"), os.environ.setdefault("API_TOKEN", "x")
    r"|\b[\w.]+[ \t]*\([ \t]*(?P<dq>[\"'])(?:[A-Za-z0-9]+[_.\-]){0,5}(?:[A-Za-z0-9]*[a-z0-9](?-i:(?=[A-Z])))?"
    r"(?:" + _LABEL + r")(?P=dq)[ \t]*,[ \t]*(?P<dq2>[\"'])(?P<def>[^\s\"']{4,200})(?P=dq2)",
    re.I,
)


# - a credential word glued to the name before it, neither "_" nor a capital between: T-SQL's "@rmtpassword='x'",
#   "dbpassword=x", "masterpassword: x", "clientsecret=x" (a word that only ends in "pass" — bypass, compass — is
#   never one, and a token glued to a word of paging — nextToken, pageToken — is a cursor)
_GLUED_LABEL_RE = _rx(
    r"(?<![\w\-])@?(?P<key>(?!(?:next|page|continuation|sync|resume|cursor|start|last|prev)token|existing)[a-z]{2,14}"
    r"(?:password|passwd|passwort|secret|token))[ \t]*[=:][ \t]*N?(?P<q>[\"']?)(?P<val>[^\s\"',;]{4,200})(?P=q)",
    re.I)

# - text written into a credential file: "echo 'x' > ~/.vault_pass", "printf 'user\npass\n' | sudo tee
#   /etc/openvpn/auth.txt" — the file's name says what it holds, the last line written is the secret
_CREDENTIAL_FILE_RE = _rx(
    r"\b(?:printf|echo(?:[ \t]+-[neE]+)*)[ \t]+(?P<q>[\"'])(?P<body>[^\"'\n]{4,300})(?P=q)[ \t]*"
    r"(?:>>?|\|[ \t]*(?:sudo[ \t]+)?tee(?:[ \t]+-a)?)[ \t]*(?P<path>[^\s;&|]+)",
    re.I)
_CREDENTIAL_PATH_RE = re.compile(r"(?i)(?:pass|pwd|secret|token|cred|auth|\.netrc|apikey|api[_\-]key)[^/]*$")


def _glued_label_validator(m: re.Match[str]) -> str | None:
    if m.group("key")[:1] != "@" and m.string[max(0, m.start() - 1):m.start()] == "@":
        return None
    return _cli_validator(m)


def _credential_file_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    path = m.group("path").strip("\"'")
    if not _CREDENTIAL_PATH_RE.search(path) or re.search(r"(?i)\.pub$|known_hosts|\.log$", path):
        return None  # "echo 'done' > /var/log/deploy.txt", a public key
    body = m.group("body")
    lines = [part for part in re.split(r"\\n", body) if part]
    if not lines:
        return None
    value = lines[-1]
    if re.search(r"\s", value) or not plausible_secret_value(value, quoted=True) or not password_like(value, min_len=6):
        return None  # "echo 'build finished' > …", "$VAULT_PASS": words or a reference
    start = m.start("body") + body.rindex(value)
    return "password", start, start + len(value)


# the value groups of _CODE_SLOT_RE; all but the quoted ones (Terraform, SQL, PowerShell) must look like a password
_SLOTS = ("tf", "sql", "ps", "ht", "nu", "ra", "mc", "rq", "wp", "ro", "nuse", "lf", "vl", "nk", "sk", "sw", "ov", "ex",
          "db2", "rs", "ds", "bw", "hp", "esx", "psub", "acl", "sch", "zk", "st", "up", "call", "def")


# - network gear and VPN peers: Cisco "username x secret 0 X" / "enable password 7 X", "crypto isakmp key X
#   address …", Junos "pre-shared-key ascii-text "X"", "authentication-key X", strongSwan's ipsec.secrets
#   '… : PSK "X"', wpa_cli "set_network 0 psk '"X"'", "tacacs-server key X", "snmp-server community X RO"
_DEVICE_KEY_RE = _rx(
    r"\b(?:secret|password)[ \t]+[0-9][ \t]+(?P<ios>[^\s\"']{6,200})"
    r"|\b(?:enable|username[ \t]+\S+(?:[ \t]+privilege[ \t]+\d+)?)[ \t]+(?:secret|password)[ \t]+"
    r"(?P<en>[^\s\"'0-9][^\s\"']{5,200})"
    r"|\bisakmp[ \t]+key[ \t]+(?:[0-9][ \t]+)?(?P<ike>[^\s\"']{6,200})"
    r"|\b(?:pre-shared-key|authentication-key|tacacs-server[ \t]+key|radius-server[ \t]+key|key-string)"
    r"[ \t]+(?:(?:ascii-text|hexadecimal|[0-9])[ \t]+)?[\"']?(?P<psk>[^\s\"']{6,200})"
    r"|:[ \t]*PSK[ \t]+[\"'](?P<ips>[^\"'\n]{6,200})[\"']"
    r"|\bset_network[ \t]+\d+[ \t]+(?:psk|password|wep_key\d)[ \t]+'?\"?(?P<wpa>[^\s\"']{6,200})"
    r"|\bsnmp-server[ \t]+community[ \t]+(?P<snmp>[^\s\"']{6,200})"
    # any vendor's order: "radius-server host 10.2.2.2 key X", "set system radius-server 10.3.3.3 secret X",
    # "set psksecret X", "pre-shared-key key X", "user admin … password plaintext X", "set-key ascii 0 X"
    r"|\b(?:key|secret|password|psksecret|set-key|passphrase)[ \t]+(?:(?:[0-9]|ascii(?:-text)?|plain-?text|"
    r"clear(?:text)?|hexadecimal|unencrypted|key)[ \t]+){0,2}[\"']?(?P<dev>[^\s\"';]{6,200})",
    re.I,
)

# the configuration words that make "key X" / "secret X" a device's key
_DEVICE_CONTEXT_RE = re.compile(
    r"(?i)\b(?:radius|tacacs|ike|ipsec|isakmp|vpn|psk|wpa|bgp|ospf|snmp|ntp|hsrp|vrrp|set[ \t]+system|"
    r"set[ \t]+security|set[ \t]+network|config[ \t]+(?:vpn|system|user)|user[ \t]+\S+[ \t]+group|phase1|"
    r"aaa|crypto|wlan|ssid)\b")


def _device_key_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = next(g for g in ("ios", "en", "ike", "psk", "ips", "wpa", "snmp", "dev") if m.group(g) is not None)
    start, end = m.span(group)
    line_start = m.string.rfind("\n", 0, start) + 1
    line_end = m.string.find("\n", end)
    if group == "dev" and not _DEVICE_CONTEXT_RE.search(m.string[line_start:line_end if line_end >= 0 else None]):
        return None  # "the secret is out", "key metrics": no device's configuration around it
    value = m.string[start:end].rstrip(".,;:)")
    if "=" in value or not plausible_secret_value(value, quoted=True) or not password_like(value, min_len=6):
        return None  # "enable secret <password>", "pre-shared-key ascii-text $PSK", "authby=secret keyexchange=…"
    return ("secret" if group == "snmp" else "password"), start, start + len(value)


def _code_slot_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = next(g for g in _SLOTS if m.group(g) is not None)
    start, end = m.span(group)
    value = m.string[start:end].rstrip(".,;:)")
    if not plausible_secret_value(value, quoted=True):  # "$REDIS_PASSWORD", "<password>", "***": no value
        return None
    if group not in ("tf", "sql", "ps") and not password_like(value, min_len=4):
        return None  # "net user bob /add", "AUTH required"
    if group == "ra" and not re.search(r"redis|valkey|keydb", m.string[max(0, start - 120) : end + 80], re.I):
        return None  # Redis's AUTH command: another protocol's "AUTH" is not known to take a password there
    return "password", start, start + len(value)


# --------------------------------------------------------------------------------------------------
# Provider formats
# --------------------------------------------------------------------------------------------------

_PROVIDER_RE = _rx(
    r"(?<![A-Za-z0-9_\-])(?P<tok>"
    r"SK[0-9a-f]{32}|AC[0-9a-f]{32}(?=[^0-9a-f]{0,40}(?:auth|token|secret))|"  # Twilio key / SID beside its token
    r"shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}|"  # Shopify
    r"ATATT3[A-Za-z0-9_\-]{20,}=?[0-9A-Fa-f]{8}|ATCTT3[A-Za-z0-9_\-=]{20,}|"  # Atlassian
    r"do[opr]_v1_[0-9a-f]{64}|"  # DigitalOcean
    r"HRKU-AA[A-Za-z0-9_\-]{40,}|"  # Heroku
    r"key-[0-9a-z]{32}|"  # Mailgun
    r"lin_(?:api|oauth)_[A-Za-z0-9]{40}|dapi[0-9a-h]{32}(?:-\d)?|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|"  # Linear, Databricks,
    # Postman
    r"gl(?:sa|c)_[A-Za-z0-9_+/=\-]{32,}|NRAK-[A-Z0-9]{27}|sntry[su]_[A-Za-z0-9+/=_\-]{40,}|"  # Grafana, New Relic,
    # Sentry
    r"hv[sbr]\.[A-Za-z0-9_\-]{24,}|AGE-SECRET-KEY-1[0-9A-Z]{58}|"
    r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_\-]{1,40}\.)?[A-Za-z0-9]{40,}|"  # Vault, age,
    # Doppler
    r"pul-[0-9a-f]{40}|sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,}|EAAA[A-Za-z0-9_\-]{60}|"  # Pulumi, Square
    r"sl\.[A-Za-z0-9_\-]{130,}|secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,}|"  # Dropbox, Notion
    r"gsk_[A-Za-z0-9]{48,}|r8_[A-Za-z0-9]{37}|xai-[A-Za-z0-9]{60,}|pplx-[A-Za-z0-9]{40,}|"  # Groq, Replicate,
    # xAI, Perplexity
    r"fo1_[A-Za-z0-9_\-]{40,}|FlyV1 [A-Za-z0-9+/=_,\-]{40,}|ops_eyJ[A-Za-z0-9+/=]{100,}|"  # Fly, 1Password
    r"rubygems_[0-9a-f]{48}|dckr_pat_[A-Za-z0-9_\-]{27,}|CCIPAT_[A-Za-z0-9]{20,}|"  # RubyGems, Docker, CircleCI
    r"tfp_[A-Za-z0-9]{40,}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}|"  # Terraform
    r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}|"  # Azure AD client secret
    r"sbp_[0-9a-f]{40}|tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}|"  # Supabase, Tailscale
    r"\d{8,10}:AA[A-Za-z0-9_\-]{33}|pat[A-Za-z0-9]{14}\.[0-9a-f]{64}|"  # Telegram bot, Airtable
    r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,}|nfp_[A-Za-z0-9]{36,}|rnd_[A-Za-z0-9]{32,}|"  # PlanetScale, Netlify,
    # Render
    r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}|"  # Dynatrace
    r"sk\.eyJ[A-Za-z0-9_\-]{40,}\.[A-Za-z0-9_\-]{20,}"  # Mapbox secret token
    r")(?![A-Za-z0-9_\-])"
)


def _provider_validator(m: re.Match[str]) -> str | None:
    tok = m.group("tok")
    if tok.startswith(("SK", "AC", "key-", "dapi", "pul-")) and len(set(tok)) < 10:
        return None
    if "Q~" in tok[3:6]:
        return "azure_key" if any(c.isdigit() for c in tok) and any(c.isupper() for c in tok) else None
    if tok.startswith("key-") and not (any(c.isdigit() for c in tok[4:]) and any(c.isalpha() for c in tok[4:])):
        return None
    return "provider_token"


# Discord bot token: base64 of the bot's numeric id . 6-char timestamp . 27-38 char HMAC
_DISCORD_RE = _rx(r"(?<![A-Za-z0-9_\-.])(?P<id>[A-Za-z0-9_\-]{23,28})\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}"
                  r"(?![A-Za-z0-9_\-.])")


def _discord_validator(m: re.Match[str]) -> str | None:
    head = m.group("id")
    try:
        raw = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
    except (binascii.Error, ValueError):
        return None
    return "discord_bot_token" if raw.isdigit() and 15 <= len(raw) <= 21 else None


# Azure storage keys: 88 base64 characters ending "==" (64 random bytes) after AccountKey= or a storage word
_AZURE_KEY_RE = _rx(r"(?<![A-Za-z0-9+/])(?P<val>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])")


def _azure_validator(m: re.Match[str]) -> str | None:
    # 64 random bytes: a SHA-512 digest has the same shape, so only an Azure/storage word decides
    before = m.string[max(0, m.start() - 80) : m.start()].lower()
    if re.search(r"sha\d*-$|integrity|digest|hash|checksum", before):
        return None
    if any(w in before for w in ("accountkey", "azure", "storage", "account key", "sharedaccess", "key")):
        return "azure_key"
    return None


# --------------------------------------------------------------------------------------------------
# URLs
# --------------------------------------------------------------------------------------------------

_URL_PARAM_RE = _rx(
    r"[?&;#](?P<key>x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|"
    r"x-ms-signature|sig|signature|token|access_token|id_token|refresh_token|auth_token|api_key|apikey|api-key|"
    r"key|auth|client_secret|password|passwd|pwd|pass|secret|session|sessionid|sid|code|hmac|otp|jwt|"
    r"private_token|personal_access_token|p|pw)=(?P<val>[^&#\s\"'<>]{6,})",
    re.I,
)


def _url_param_validator(m: re.Match[str]) -> str | None:
    key, value = m.group("key").lower(), m.group("val")
    if value.startswith(("%7b", "%7B", "{", "$", "<")) or value.lower() in ("true", "false", "null", "none"):
        return None
    if key in ("x-amz-signature", "x-goog-signature", "x-ms-signature", "sig", "signature", "hmac"):
        return "url_signature"
    if key in ("x-amz-credential", "x-goog-credential", "x-amz-security-token"):
        return "url_signature"
    if key in ("p", "pw"):  # InfluxDB's "?u=user&p=x": a short name is the password only beside its user
        url_start = max(m.string.rfind(c, 0, m.start()) for c in " \t\n\"'") + 1
        if not re.search(r"[?&;](?:u|user|username|login)=", m.string[url_start : m.start() + 1]):
            return None
        return "password" if plausible_secret_value(value, quoted=True) and password_like(value) else None
    if key in ("password", "passwd", "pwd", "pass"):
        return "password" if plausible_secret_value(value, quoted=True) else None
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if key in ("key", "code", "otp", "session", "sid", "auth"):
        # a shorter value passes when it is drawn like a key: letters of both cases and digits, nothing else
        ok = (len(value) >= 16 and has_digit and has_alpha) or looks_random(value, min_len=16) or (
            len(value) >= 10 and value.isalnum() and password_like(value) and has_digit
            and any(c.isupper() for c in value) and any(c.islower() for c in value))
    else:
        ok = len(value) >= 8 and has_digit and has_alpha
    if not ok:
        return None
    return "session_cookie" if key in ("session", "sessionid", "sid") else "token"


# user:password@host without a scheme ("psql admin:pw@db.internal:5432/app"), or with one and an IPv6 host
_HOST = r"(?:\[[0-9A-Fa-f:.%\w]+\]|[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9\-]+)*)"
_BARE_CRED_RE = _rx(
    r"(?<![\w/:@.%+\-])(?:(?P<scheme>[a-z][a-z0-9+.\-]{1,30}):)?(?://)?(?P<cred>(?P<user>[A-Za-z0-9._%+\-~]{0,64}):"
    r"(?P<pw>[^\s:/@\"'<>]{3,128}))@(?P<host>" + _HOST + r")(?::\d{2,5})?",
    re.I,
)
_NOT_USERS = frozenset("mailto sip sips tel xmpp urn data javascript news".split())


def _bare_cred_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    user, pw = m.group("user"), m.group("pw")
    if user.lower() in _NOT_USERS or (m.group("scheme") or "").lower() in _NOT_USERS:
        return None
    if not plausible_secret_value(pw, user, quoted=True) or not (password_like(pw, min_len=4) or len(pw) >= 8):
        return None  # "postgres:postgres@", "access_key_id:secret_access_key@": documentation templates
    host = m.group("host")
    if host.lower().startswith(("sha", "md5", "blake")):
        return None  # "python:3.11-slim@sha256:...": an image reference
    if "." not in host and not host.startswith("[") and host.lower() not in ("localhost", "db", "redis", "postgres",
                                                                             "mysql", "mongo", "cache", "rabbitmq"):
        if not password_like(pw, min_len=6):
            return None
    s, e = m.span("cred")
    return "url_credentials", s, e


# --------------------------------------------------------------------------------------------------
# Structure: JWTs and key material without its header
# --------------------------------------------------------------------------------------------------

_JWT_ANY_RE = _rx(
    r"(?<![A-Za-z0-9_\-+/.])(?P<h>e[A-Za-z0-9_\-+/]{9,}={0,2})\.(?P<p>[A-Za-z0-9_\-+/]{4,}={0,2})"
    r"(?:\.[A-Za-z0-9_\-+/]*={0,2}){1,3}(?![A-Za-z0-9_\-+/=])"
)


def _b64_json(part: str) -> dict | None:
    body = part.rstrip("=").replace("+", "-").replace("/", "_")
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        value = json.loads(data.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def _jwt_validator(m: re.Match[str]) -> str | None:
    header = _b64_json(m.group("h"))
    if header is None or not ({"alg", "enc"} & set(header)):
        return None
    return "jwt"


_PEM_BODY_RE = _rx(
    r"(?<![A-Za-z0-9+/=])(?P<body>(?:[A-Za-z0-9+/]{40,120}={0,2}[ \t]*(?:\r?\n|\\n)[ \t]*){2,}"
    r"[A-Za-z0-9+/]{4,120}={0,2}|[A-Za-z0-9+/]{200,}={0,2})(?![A-Za-z0-9+/=])"
)
_PUBLIC_RE = _rx(r"(?i)public|certificate|ssh-(?:rsa|ed25519|dss)\s*$|ecdsa-sha2-\S+\s*$|authorized_keys|known_hosts")
_KEY_CONTEXT_RE = _rx(r"(?i)private|\bkey\b|pem|rsa|ssh|pkcs|\bec\b|ed25519|secret|credential|-----")


def _pem_body_validator(m: re.Match[str]) -> str | None:
    body = re.sub(r"\s|\\n", "", m.group("body"))
    if body.startswith("b3BlbnNzaC1rZXktdjE"):  # "openssh-key-v1"
        return "private_key"
    try:
        der = base64.b64decode(body[: len(body) - len(body) % 4] or "", validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) >= 8 and der[0] == 0x30:
        i = 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)
        if der[i : i + 2] == b"\x02\x01" and der[i + 2] in (0, 1):
            return "private_key"  # SEQUENCE { INTEGER version 0|1 ...: PKCS#1/#8 and EC private keys
    before = m.string[max(0, m.start() - 80) : m.start()]
    if _PUBLIC_RE.search(before):
        return None  # a public key or a certificate is not a secret
    if len(body) >= 200 and _KEY_CONTEXT_RE.search(before) and looks_random(body[:200], min_len=40):
        return "private_key"
    return None


# --------------------------------------------------------------------------------------------------
# Session cookies
# --------------------------------------------------------------------------------------------------

_SESSION_NAMES = (
    r"[\w.\-]*sess(?:ion)?(?:[_\-.]?(?:id|token|key))?|[\w.\-]*sid|phpsessid|jsessionid|connect\.sid|"
    r"asp\.net_sessionid|[\w.\-]*auth[_\-]?token|remember[_\-]?(?:token|me|web)[\w\-]*|[\w.\-]*session-token|"
    r"_gh_sess|user_session|laravel_session|ci_session|_csrf|csrftoken|xsrf-token"
)
# no spaces around "=": "session = boto3.Session(...)" is code
_SESSION_RE = _rx(r"(?<![\w.\-])(?P<key>" + _SESSION_NAMES + r")=(?P<val>[^;\s,\"'<>()]{8,})(?![(\w])", re.I)
_COOKIE_PAIR_RE = _rx(r"(?<![\w.\-%$])(?P<key>[\w.\-%$]{1,80})=(?P<val>[^;\s,\"']{12,})")
_COOKIE_LINE_RE = re.compile(r"(?im)^[ \t>\"'`-]*(?:set-)?cookie[ \t]*:|\bcookie:|--cookie|-b[ \t]+[\"']")


def _session_validator(m: re.Match[str]) -> str | None:
    value = m.group("val")
    if value.startswith(("$", "{", "<", "%7B")) or value.lower() in ("true", "false", "null", "none", "deleted"):
        return None
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if not (has_digit and has_alpha) and not looks_random(value, min_len=16):
        return None
    return "session_cookie"


def _cookie_pair_validator(m: re.Match[str]) -> str | None:
    text = m.string
    line_start = text.rfind("\n", 0, m.start()) + 1
    line = text[line_start : m.start()]
    if not _COOKIE_LINE_RE.search(line):
        return None
    key = m.group("key").lower()
    if key in ("path", "domain", "expires", "max-age", "samesite", "priority"):
        return None
    return _session_validator(m)


# --------------------------------------------------------------------------------------------------
# Disguised vendor keys: reversed, look-alike letters, parts in any order
# --------------------------------------------------------------------------------------------------

_VENDOR_HEADS = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk_live_", "sk_test_", "rk_live_",
                 "sk-ant-", "sk-proj-", "sk-", "xoxb-", "xoxp-", "xapp-", "AKIA", "ASIA", "AIza", "hf_", "npm_",
                 "pypi-", "SG.", "shpat_", "dop_v1_", "GOCSPX-", "ya29.", "whsec_", "glsa_", "hvs.")
_REVERSED_HEADS = tuple(h[::-1] for h in _VENDOR_HEADS)
_LONG_TOKEN_RE = _rx(r"(?<![A-Za-z0-9_\-.])[A-Za-z0-9_\-.]{20,300}(?![A-Za-z0-9_\-])")

# Cyrillic and Greek letters that look like Latin ones (what NFKC leaves alone)
_CONFUSABLES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ɡ": "g", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H",
    "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
    "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "ι": "i", "α": "a", "ѵ": "v", "ԛ": "q", "ԝ": "w", "ӏ": "l",
})
_MIXED_SCRIPT_TOKEN_RE = _rx(r"(?<![\w\-.])[\w\-.]{16,300}(?![\w\-])")


_VENDOR_RULES = frozenset({
    "anthropic", "openai", "aws_access_key_id", "github_pat_fine", "github_token", "gitlab_token", "slack_token",
    "stripe", "google_api_key", "google_oauth", "npm", "pypi", "huggingface", "sendgrid", "telegram", "jwt",
    "provider_token",
})


def _vendor_kind(token: str) -> str | None:
    vendor = [r for r in CORE_RULES + SHAPE_RULES if r.name in _VENDOR_RULES]
    best = None
    for rule in vendor:
        for m in rule.pattern.finditer(token):
            if rule.validator is not None:
                verdict = rule.validator(m)
                if not verdict:
                    continue
            if m.end() - m.start() >= len(token) * 0.6:
                best = rule.kind
    return best


def _reversed_validator(m: re.Match[str]) -> str | None:
    token = m.group(0)
    if not token.endswith(_REVERSED_HEADS):
        return None
    return _vendor_kind(token[::-1])


def _confusable_validator(m: re.Match[str]) -> str | None:
    if m.group(0).isascii():
        return None
    folded = m.group(0).translate(_CONFUSABLES)
    if not folded.isascii():
        return None
    return _vendor_kind(folded)


# "the second half is 9fKq2..., the first half ghp_Ab3": a short vendor head anywhere, and key-like parts beside it
_HEAD_ANYWHERE_RE = _rx(
    r"(?<![\w\-])(?P<frag>(?:sk-ant-(?:[a-z]+\d*-)?|sk-(?:proj-)?|[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|"
    r"gl(?:pat|ptt|dt|rt)-|xox[abposre]-|xapp-|AKIA|ASIA|AIza|hf_|npm_|pypi-|GOCSPX-|shpat_|dop_v1_)"
    r"[A-Za-z0-9_\-]{0,30})(?![\w\-])"
)
_SPLIT_WORDS_RE = _rx(
    r"(?i)\b(?:part|half|halves|first|second|third|rest|remaining|remainder|suffix|prefix|begins|starts|ends|"
    r"continued|continues|append|concat\w*|join|glue|followed by|then|teil|hälfte|partie|moitié|parte|mitad|часть)\b"
)
_CAMEL_WORDS_RE = _rx(r"[A-Z]*[a-z]{2,}(?:[A-Z]+[a-z]{2,}|[A-Z][a-z])*[A-Z]*")  # DataFrameGroupBy, XMLHttpRequest
_PART_RE = _rx(r"(?<![\w\-/.])(?P<part>[A-Za-z0-9_\-]{6,80})(?![\w\-/.])")


def _head_anywhere_validator(m: re.Match[str]) -> str | None:
    text = m.string
    window = text[max(0, m.start() - 160) : m.end() + 160]
    if not _SPLIT_WORDS_RE.search(window):
        return None
    body = re.sub(r"^(?:sk-ant-(?:[a-z]+\d*-)?|sk-(?:proj-)?|[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|"
                  r"gl(?:pat|ptt|dt|rt)-|xox[abposre]-|xapp-|AKIA|ASIA|AIza|hf_|npm_|pypi-|GOCSPX-|shpat_|"
                  r"dop_v1_)", "", m.group("frag"))
    if len(body) < 4 or not (any(c.isdigit() for c in body) or any(c.isupper() for c in body)):
        return None  # "tokens start with ghp_", "ours start with ASIA": a prefix named in prose
    return "token"


def _part_validator(m: re.Match[str]) -> str | None:
    part = m.group("part")
    if not any(c.isalpha() for c in part):
        return None
    mixed = any(c.isupper() for c in part) and any(c.islower() for c in part)
    if any(c.isdigit() for c in part):
        if not mixed and len(part) < 12:
            return None
    elif not (mixed and len(part) >= 12 and part.isalpha() and not _CAMEL_WORDS_RE.fullmatch(part)):
        # a key's part may hold no digit by chance (one 20-character base62 run in 30); its letters are then no
        # words written together (after each capital run two lower-case letters or more, or one capital and one)
        return None
    text = m.string
    window = text[max(0, m.start() - 200) : m.end() + 200]
    heads = [h for h in _HEAD_ANYWHERE_RE.finditer(window) if h.group("frag") != part]
    if heads and _SPLIT_WORDS_RE.search(window):
        return "token"
    # the other part was said elsewhere (another session, another field): a key-like part right after "it ends",
    # "the rest is", "second half:" is one on its own — letters of both cases and digits, 16 characters or more
    near = text[max(0, m.start() - 40) : m.start()]
    if mixed and len(part) >= 16 and any(c.isdigit() for c in part) and _SPLIT_WORDS_RE.search(near):
        # words written together around numbers are an identifier ("ReindexAllTables2024Job"), not key material
        if not all(not run or _CAMEL_WORDS_RE.fullmatch(run) for run in re.split(r"[\d_\-]+", part)):
            return "token"
    return None


# A wallet's recovery phrase (BIP-39): twelve to twenty-four words of its 2,048-word list, in order. The words are
# ordinary English ("angry apart april …"), so a run of them is a secret only beside a cue, or when its checksum holds.
_SEED_RUN_RE = _rx(r"(?<![\w\-])(?P<val>[a-z]{3,8}(?:[ \t]+(?:\d{1,2}[.)][ \t]*)?[a-z]{3,8}){11,23})(?![\w\-])")
_SEED_CUE_RE = _rx(r"(?i)seed|recovery|mnemonic|backup (?:words|phrase)|secret (?:words|phrase)|wallet|"
                   r"\b(?:12|24)[ \-]words?|bip-?39|phrase|frase|semilla|wiederherstellung|récupération")


@functools.lru_cache(maxsize=1)
def _bip39() -> tuple[object, frozenset[str]]:
    """The English BIP-39 list and its checker, read once per process."""
    from mnemonic import Mnemonic

    mnemonic = Mnemonic("english")
    return mnemonic, frozenset(mnemonic.wordlist)


def _seed_phrase_validator(m: re.Match[str]) -> str | None:
    words = re.findall(r"[a-z]+", m.group("val"))
    mnemonic, wordlist = _bip39()
    if len(words) not in (12, 15, 18, 21, 24) or not wordlist.issuperset(words):
        return None
    if _SEED_CUE_RE.search(m.string, max(0, m.start() - 120), m.start()):
        return "seed_phrase"
    return "seed_phrase" if mnemonic.check(" ".join(words)) else None


# --------------------------------------------------------------------------------------------------
# Credentials said the way people say them
# --------------------------------------------------------------------------------------------------

# A number that opens something, named by what it opens: "my PIN for the card is 4921", "the door code is 7315#",
# "OTP 882 104", "backup codes: 4829-1734 9921-0045", "recovery codes are 8f3k-2m9q, 7x4p-1n6w". Digits are never a
# password elsewhere (too many numbers are not), so only these cues make them one.
_CODE_CUE = (
    r"pin(?:[ \-]?(?:code|number|no\.?))?|puk|cvv2?|cvc2?|passcode|otp|totp|combination|"
    r"(?:door|gate|alarm|entry|entrance|keypad|lock|locker|safe|garage|building|access|security|verification|"
    r"confirmation|one[ \-]time|login|log[ \-]?in|sign[ \-]?in|2fa|mfa|sms|authenticator|backup|recovery|unlock|"
    r"disarm|wallet)[ \-](?:pass)?codes?"
)
_ONE_CODE = r"(?:[A-Za-z0-9]{2,10}(?:-[A-Za-z0-9]{2,10}){0,2}#?)"
_CODE_RE = _rx(
    r"\b(?P<key>" + _CODE_CUE + r")\b"
    r"(?:[ \t]+(?:for|of|on|to|at)[ \t]+(?:(?:the|my|our|your|his|her|their)[ \t]+)?(?:[\w'\-]{1,30}[ \t]+){0,2}?"
    r"[\w'\-]{1,30}?)?"
    # who gave or chose it: "the one-time code they sent was …", "the PIN I picked is …"
    r"(?:[ \t]+(?:that[ \t]+)?(?:they|we|you|i|he|she|it|the[ \t]+\w+)[ \t]+(?:sent|got|gave|received|texted|"
    r"e-?mailed|chose|set|picked|use|used|need|entered|typed|read)(?:[ \t]+(?:me|us|you|him|her|them))?)?"
    r"(?P<sep>[ \t]+(?:(?:is|was|has been)[ \t]+(?:now[ \t]+)?(?:changed|set|reset)[ \t]+to|is|was|are|were|is now|"
    r"changed to|set to|reset to)\b[ \t]*:?|[ \t]*(?:[:=→–—]|->)|)[ \t]*"
    r"[\"'`“‘]?(?<![A-Za-z0-9])(?P<val>" + _ONE_CODE
    + r"(?:[ \t]*[,;/][ \t]*(?:and[ \t]+)?" + _ONE_CODE + r"|[ \t]+(?:and[ \t]+)?" + _ONE_CODE + r"){0,15})",
    re.I,
)
_UNIT_AFTER_RE = _rx(r"[ \t]*(?:%|ms\b|s\b|secs?\b|seconds?\b|min\b|minutes?\b|hours?\b|days?\b|times\b|px\b|"
                     r"of\b|x\b|users?\b|accounts?\b|digits?\b|characters?\b|chars?\b|[kmgtµ]?[bgl]\b|mg\b|ml\b|"
                     r"[kcm]?m\b|usd\b|eur\b|gbp\b|€|\$|£|rpm\b|hz\b|mhz\b|ghz\b|items?\b|rows?\b|requests?\b)", re.I)


def _code_shape(code: str, *, letters: bool) -> bool:
    bare = code.rstrip("#").replace(" ", "").replace("-", "")
    digits = sum(c.isdigit() for c in bare)
    if not bare.isalnum() or digits == 0 or len(set(bare)) < 2:
        return False
    if bare.isdigit():
        return 4 <= len(bare) <= 12
    # letters too: a backup or recovery code ("8f3k-2m9q"), never a word with a number ("v2", "build 7")
    return letters and len(bare) >= 6 and digits >= 2 and sum(c.isalpha() for c in bare) >= 2


def _code_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    key = m.group("key").lower()
    if key == "combination" and not m.group("sep").strip():
        return None  # "the combination of 2 drugs 1500 mg": a combination is a code only when said to be one
    letters = key.startswith(("backup", "recovery", "security", "wallet", "unlock"))
    min_digits = 3 if key.startswith(("cvv", "cvc")) else 4
    start = m.start("val")
    parts = list(re.finditer(r"[A-Za-z0-9#]+(?:-[A-Za-z0-9#]+){0,2}", m.group("val")))
    if len(parts) >= 2 and all(p.group(0).isdigit() and len(p.group(0)) == 3 for p in parts[:2]):
        # "OTP 882 104": the two halves of one code are one piece
        if not _code_shape(m.group("val")[: parts[1].end()], letters=False):
            return None
        end, parts = start + parts[1].end(), parts[2:]
    else:
        end = start
    # the codes of a list, one by one: the run ends at the first that has no code's shape
    for part in parts:
        piece = part.group(0)
        if not _code_shape(piece, letters=letters) and not (
            piece.isdigit() and len(piece) >= min_digits and len(set(piece)) > 1
        ):
            break
        end = start + part.end()
    if end == start or _UNIT_AFTER_RE.match(m.string, end):
        return None
    value = m.string[start:end]
    if re.fullmatch(r"(?:19|20)\d\d", value) and not key.startswith(("pin", "door", "gate", "alarm")):
        return None  # "the login code 2024 rollout": a year
    return "password", start, end


# A user and a password said together: "DB creds are svc_app / Wint3r!sC0ming2026", "creds: admin / Sunflower#2024",
# "you can log in with mkowalski and Zebra2Cross!", "SMTP relay uses user noreply and Kw8#pLz2qR". The user name is
# left (it is no secret); the second value is one when it has a digit or a symbol.
_PAIR_RE = _rx(
    r"\b(?:creds|credentials?|log(?:[ \-]?in|on)|sign[ \-]?in|user(?:name)?|account)\b"
    r"(?:[ \t]+(?:is|are|was|were|with|as|for[ \t]+(?:the[ \t]+)?[\w.\-]{1,30}))?[ \t]*[:=]?[ \t]*"
    r"(?:(?:is|are|with|as|user(?:name)?)[ \t]+)?[\"'`]?(?P<user>[\w.@+\-]{2,60})[\"'`]?[ \t]*"
    r"(?:/|\||,|\band\b|\bwith\b)[ \t]*(?:(?:the[ \t]+)?(?:pass(?:word|phrase)?|pw|pwd|secret|key|token)[ \t]*"
    r"[:=]?[ \t]*)?"
    r"[\"'`]?(?P<val>[^\s\"'`]{6,100})",
    re.I,
)


def _pair_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    start = m.start("val")
    value = m.group("val").rstrip(".,;:!?)")
    symbol_and_capital = re.search(r"[^\w\-.]", value) and any(c.isupper() for c in value)
    if value.isdigit() or not (any(c.isdigit() for c in value) or symbol_and_capital):
        return None  # "net user administrator /active:yes": a switch, not a password
    if "://" in value or "@" in value or "/" in value or "=" in value:
        return None  # an address, a path or a query's next parameter ("user=bob&step=2"), not a password
    if not plausible_secret_value(value, quoted=True) or not password_like(value, min_len=6):
        return None
    return "password", start, start + len(value)


# A Wi-Fi key or a password said without a separator: "WPA key Blue-Falcon-77", "wifi pass MangoTree88"
_WIFI_BARE_RE = _rx(
    r"\b(?:wpa[23]?|wpa2?[ \-]psk|wi-?fi|wlan|network|router|hotspot)[ \t]+(?:key|pass(?:word|phrase)?|pw|psk|code)"
    r"[ \t]+[\"'`]?(?P<val>[^\s\"'`]{8,100})",
    re.I,
)


def _wifi_bare_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    start = m.start("val")
    value = m.group("val").rstrip(".,;:!?)")
    if not (any(c.isdigit() for c in value) or re.search(r"[^\w\-.]", value)):
        return None
    if not plausible_secret_value(value, quoted=True) or not password_like(value, min_len=8):
        return None
    return "password", start, start + len(value)


# The answer to a security question opens an account as a password does: "the secret answer to the security
# question is "Buttercup"", "mother's maiden name: Kowalczyk", "memorable word is dachshund"
_ANSWER_RE = _rx(
    r"\b(?:(?:secret|security)[ \t]+answer|answer[ \t]+(?:to|for)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?"
    r"(?:security|secret)[ \t]+questions?|mother'?s[ \t]+maiden[ \t]+name|memorable[ \t]+(?:word|phrase))"
    r"(?:[ \t]+(?:to|for|on)[ \t]+(?:the[ \t]+|my[ \t]+)?(?:[\w'\-]{1,30}[ \t]+){0,2}?[\w'\-]{1,30}?)?"
    r"(?:[ \t]+(?:is|was|are)\b[ \t]*:?|[ \t]*[:=–—])[ \t]*"
    r"(?:[\"“'‘](?P<qval>[^\"“”'’\n]{2,60})[\"”'’]|(?P<val>[^\s\"'`“”‘’,.;!?]{3,60}))",
    re.I,
)


def _answer_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    group = "qval" if m.group("qval") is not None else "val"
    value = m.group(group)
    if value.lower() in _STATE_WORDS or _PLACEHOLDER_RE.search(value):
        return None
    return "password", m.start(group), m.end(group)




# A secret spelled out one character at a time after its label: "the secret is spelled out: x k 9 q 2 m 7 v …"
_SPELLED_RE = _rx(r"(?<![\w-])(?P<val>[A-Za-z0-9!@#$%^&*+=?](?:[ \t]*[\-,.·][ \t]*|[ \t]+)(?:[A-Za-z0-9!@#$%^&*+=?]"
                  r"(?:[ \t]*[\-,.·][ \t]*|[ \t]+)){6,62}[A-Za-z0-9!@#$%^&*+=?])(?![\w-])")
_SPELLED_CUE_RE = _rx(r"\b(?:pass(?:word|phrase|code)?|pwd|pin|secret|token|(?:api|access|secret|private)[ \-]?key|"
                      r"key|code|credentials?|spell(?:ed|s)?(?:[ \-]out)?|letter[ \-]by[ \-]letter|"
                      r"char(?:acter)?[ \-]by[ \-]char(?:acter)?)\b", re.I)


def _spelled_validator(m: re.Match[str]) -> str | None:
    chars = re.findall(r"[A-Za-z0-9!@#$%^&*+=?]", m.group("val"))
    digits, letters = sum(c.isdigit() for c in chars), sum(c.isalpha() for c in chars)
    if len(chars) < 8 or digits < 2 or letters < 2 or len(set(chars)) < 5:
        # "a, b, c, d": options; "7, 3, 7, 9, 0, 5": a list of counts; a spelled secret mixes letters and digits
        return None
    before = m.string[max(0, m.start() - 60) : m.start()]
    return "password" if _SPELLED_CUE_RE.search(before) else None


# --------------------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------------------

# A setting given as a name and a value in two fields: Kubernetes/compose ``- name: DB_PASSWORD`` then ``value: x``,
# JSON ``{"Name": "db_password", "Value": "x"}``, AWS ``ParameterKey``/``ParameterValue``: the credential word is in
# the name field, the secret in the value field that follows it (same object, next line).
_NAME_VALUE_RE = _rx(
    r"(?P<nf>\b(?:name|key|parameter_?key|variable|var|setting))[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:[A-Za-z0-9]+[_.\-]){0,4}(?:[A-Za-z0-9]*[a-z0-9](?-i:(?=[A-Z])))?(?P<key>" + _LABEL + r")"
    r"[\"']?[ \t]*,?[ \t]*(?:\r?\n[ \t]*-?[ \t]*)?[\"']?(?:value|parameter_?value|val)[\"']?[ \t]*[:=][ \t]*"
    r"(?:[\"'][ \t]*)?(?P<val>[^\s\"'`<>,}]{4,200})",
    re.I,
)


def _name_value_validator(m: re.Match[str]) -> tuple[str, int, int] | None:
    start, end = m.span("val")
    value = m.string[start:end].rstrip(".,;:!?)]")
    quoted = m.string[start - 1] in "\"'"
    if not plausible_secret_value(value, m.group("key"), quoted=quoted) or not password_like(value, min_len=5):
        return None
    return _kind_for_label(m.group("key")), start, start + len(value)


SHAPE_RULES: tuple[SecretRule, ...] = (
    SecretRule("name_value_fields", "password", _NAME_VALUE_RE, score=0.85, group="val",
               validator=_name_value_validator),
    SecretRule("provider_token", "provider_token", _PROVIDER_RE, score=1.0, group="tok",
               validator=_provider_validator),
    SecretRule("discord_bot_token", "discord_bot_token", _DISCORD_RE, score=0.95, validator=_discord_validator),
    SecretRule("azure_storage_key", "azure_key", _AZURE_KEY_RE, score=0.9, group="val", validator=_azure_validator),
    SecretRule("jwt_structure", "jwt", _JWT_ANY_RE, score=0.95, validator=_jwt_validator),
    SecretRule("pem_body", "private_key", _PEM_BODY_RE, score=0.95, group="body", validator=_pem_body_validator),
    SecretRule("seed_phrase", "seed_phrase", _SEED_RUN_RE, score=0.9, group="val", validator=_seed_phrase_validator),
    SecretRule("url_param", "token", _URL_PARAM_RE, score=0.9, group="val", validator=_url_param_validator),
    SecretRule("bare_url_credentials", "url_credentials", _BARE_CRED_RE, score=0.9, validator=_bare_cred_validator),
    SecretRule("label_value_script", "password", _SCRIPT_LABEL_VALUE_RE, score=0.85, group="val",
               validator=_script_label_validator),
    SecretRule("wifi_credentials", "password", _WIFI_RE, score=0.9, group="val", validator=_wifi_validator),
    SecretRule("wifi_bare", "password", _WIFI_BARE_RE, score=0.85, group="val", validator=_wifi_bare_validator),
    SecretRule("code_digits", "password", _CODE_RE, score=0.85, group="val", validator=_code_validator),
    SecretRule("credential_pair", "password", _PAIR_RE, score=0.85, group="val", validator=_pair_validator),
    SecretRule("security_answer", "password", _ANSWER_RE, score=0.85, validator=_answer_validator),
    SecretRule("spelled_out", "password", _SPELLED_RE, score=0.85, group="val", validator=_spelled_validator),
    SecretRule("tool_credentials", "password", _TOOL_CRED_RE, score=0.85, validator=_tool_cred_validator),
    SecretRule("pgpass_line", "password", _PGPASS_RE, score=0.85, group="val", validator=_positional_validator),
    SecretRule("oracle_login", "password", _ORACLE_LOGIN_RE, score=0.85, validator=_positional_validator),
    SecretRule("label_value", "password", _LABEL_VALUE_RE, score=0.85, group="val",
               validator=_label_value_validator),
    SecretRule("table_column", "password", _CELL_RE, score=0.85, group="val", validator=_table_cell_validator),
    SecretRule("cli_any_flag", "password", _CLI_ANY_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("spaced_setting", "password", _SPACED_SETTING_RE, score=0.85, group="val",
               validator=_spaced_setting_validator),
    SecretRule("piped_secret", "password", _PIPED_SECRET_RE, score=0.85, validator=_piped_secret_validator),
    SecretRule("uuid_key", "api_key", _UUID_KEY_RE, score=0.85, group="val"),
    SecretRule("code_slot", "password", _CODE_SLOT_RE, score=0.85, validator=_code_slot_validator),
    SecretRule("glued_label", "password", _GLUED_LABEL_RE, score=0.85, group="val", validator=_glued_label_validator),
    SecretRule("credential_file", "password", _CREDENTIAL_FILE_RE, score=0.85, validator=_credential_file_validator),
    SecretRule("device_key", "password", _DEVICE_KEY_RE, score=0.85, validator=_device_key_validator),
    SecretRule("user_p_flag", "password", _USER_P_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("windows_p_flag", "password", _WIN_P_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("setter_call", "password", _SETTER_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("auth_tuple", "password", _AUTH_TUPLE_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("typed_assignment", "password", _TYPED_ASSIGN_RE, score=0.85, group="val", validator=_cli_validator),
    SecretRule("session_cookie", "session_cookie", _SESSION_RE, score=0.85, group="val",
               validator=_session_validator),
    SecretRule("cookie_header", "session_cookie", _COOKIE_PAIR_RE, score=0.85, group="val",
               validator=_cookie_pair_validator),
    SecretRule("reversed_key", "token", _LONG_TOKEN_RE, score=0.9, validator=_reversed_validator),
    SecretRule("confusable_key", "token", _MIXED_SCRIPT_TOKEN_RE, score=0.95, validator=_confusable_validator),
    SecretRule("split_head", "token", _HEAD_ANYWHERE_RE, score=0.85, group="frag", validator=_head_anywhere_validator),
    SecretRule("split_part", "token", _PART_RE, score=0.8, group="part", validator=_part_validator),
)

_LABEL_TRIGGERS = (
    "pass", "pwd", "kennwort", "salas",
    "mdp", "contrase", "clave", "senha", "wachtwoord", "hasło", "haslo", "пароль", "senord", "salasana",
    "adgangskode", "heslo", "jelsz", "parol", "κωδικ", "ifre", "lozinka", "geslo", "slapta", "pin", "код", "token",
    "jeton", "токен", "gettone", "ключ", "key", "schl", "clé", "cle", "chiave", "chave", "sleutel", "secret", "geheim",
    "secreto", "segredo", "segreto", "секрет", "credential", "zugangsdaten", "identifiants", "credencia", "credenzia",
    "учетные", "auth", "ifra", "лозинка", "парола", "гасло", "nenosiri", "wagwoord", "lykilor", "pasahitza",
    "contrasinal", "құпия", "kunci", "klucz", "anahtar",
)
SHAPE_TRIGGERS: dict[str, tuple[str, ...]] = {
    "provider_token": ("sk", "ac", "shp", "atatt3", "atctt3", "_v1_", "hrku-", "key-", "lin_", "dapi", "pmak-", "gls",
                       "glc_", "nrak-", "sntry", "hv", "age-secret", "dp.", "pul-", "sq0", "eaaa", "sl.", "secret_",
                       "ntn_", "gsk_", "r8_", "xai-", "pplx-", "fo1_", "flyv1", "ops_", "rubygems_", "dckr_", "ccipat_",
                       "tfp_", "atlasv1", "q~", "sbp_", ":aa", "pat", "pscale_", "nfp_", "rnd_", "dt0c01."),
    "name_value_fields": ("value", "val"),
    "discord_bot_token": (".",),
    "azure_storage_key": ("==",),
    "jwt_structure": ("ey", "ew"),  # a JSON object's "{" is always base64 "e"
    "pem_body": ("",),
    # a cue, or (checksum case) any text: a run of twelve short words is cheap to rule out
    "seed_phrase": ("",),
    "url_param": ("=",),
    "bare_url_credentials": ("@",),
    "label_value": _LABEL_TRIGGERS,
    "label_value_script": tuple(w.lower() for w in (*_SCRIPT_PASSWORD_WORDS, *_SCRIPT_TOKEN_WORDS,
                                                    *_SCRIPT_SECRET_WORDS)),
    "wifi_credentials": ("wifi:", "psk", "wpa_", "shared", "wifi"),
    "wifi_bare": ("wpa", "wifi", "wi-fi", "wlan", "network", "router", "hotspot"),
    "code_digits": ("pin", "puk", "cvv", "cvc", "code", "otp", "combination"),
    "credential_pair": ("cred", "log", "sign", "user", "account"),
    "security_answer": ("answer", "maiden", "memorable"),
    "spelled_out": ("pass", "pwd", "pin", "secret", "token", "key", "code", "credential", "spell", "letter", "char"),
    "tool_credentials": ("identified", "ldap", "snmp", "with", "kadmin", "smbpasswd"),
    "pgpass_line": (":",),
    "oracle_login": ("sqlplus", "rman", "expdp", "impdp", "sqlldr", "exp", "imp", "dgmgrl", "jdbc:oracle", "conn",
                     "userid"),
    "table_column": ("|",),
    "cli_any_flag": _LABEL_TRIGGERS + ("auth",),
    "spaced_setting": ("pass", "pw", "secret", "token", "key", "cred", "auth"),
    "piped_secret": ("echo", "printf", "yes", "<<<"),
    "device_key": ("secret", "password", "isakmp", "key", "psk", "set_network", "community"),
    "uuid_key": ("key", "token", "secret"),
    "code_slot": ("variable", "password", "securestring", "htpasswd", "net user", "auth", "mosquitto_passwd", "mc ",
                  "rabbitmqctl", "wpa_passphrase", "rclone", "net use", "lftp", "vault", "netsh", "ssh-keygen",
                  "security", "auth-user-pass", "expect", "using", "auth-pass", "masterauth", "requirepass", "dscl",
                  "bw ", "http", "esxcli", "<(", "setuser", "user", "{plain}", "{clear",
                  "addauth", "samba-tool", "login", "connect", "pdo", "client", "credential", "basicauth", "digestauth",
                  "ftp", "imap4", "pop3", "(\"", "('"),
    "glued_label": ("password", "passwd", "passwort", "secret", "token"),
    "credential_file": ("echo", "printf"),
    "user_p_flag": ("-p",),
    "windows_p_flag": ("/p", "/user:", "/rp"),
    "setter_call": ("(",),
    "auth_tuple": ("auth",),
    "typed_assignment": ("pass", "secret", "token", "key"),
    "session_cookie": ("sess", "sid", "auth", "remember", "csrf", "xsrf"),
    "cookie_header": ("cookie",),
    "reversed_key": tuple(h.lower() for h in _REVERSED_HEADS),
    "confusable_key": ("",),
    "split_head": ("sk-", "sk_", "rk_", "gh", "gl", "xox", "xapp-", "akia", "asia", "aiza", "hf_", "npm_", "pypi-",
                   "gocspx-", "shpat_", "dop_v1_"),
    "split_part": ("sk-", "sk_", "rk_", "gh", "gl", "xox", "xapp-", "akia", "asia", "aiza", "hf_", "npm_", "pypi-",
                   "gocspx-", "shpat_", "dop_v1_", "ends", "rest", "half", "remaining", "remainder", "suffix",
                   "continue", "part"),
}
