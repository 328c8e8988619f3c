"""Provenance and trust: where an exchange's text came from, and the trust an item's evidence earns.

The one rule (everything that labels or compares trust reads it from here):

    reviewed  >  corroborated  >  user  >  assistant  >  tool

* **reviewed** — a person approved it in the review queue (``Experience.verified``).
* **corroborated** — independent support from at least two distinct agents (:data:`CORROBORATING_AGENTS`), counted
  over evidence that may corroborate: not tool output, not imports, not quarantined, bursts counted once
  (memory.services.consolidation.pattern_evidence).
* otherwise the *weakest* evidence decides (conservative: one tool output among the evidence is enough to make an item
  "tool" — the consolidator may have drawn the statement from it):
  * **user** — a conversation exchange with a user side: one agent's user statements;
  * **assistant** — an assistant-only conversation exchange, or an agent's own note;
  * **tool** — a tool's output, or an import (provenance unknown to the platform).

An *episode* earns the weakest of its sources and never *corroborated* (:func:`episode_trust`): its narrative is its
sources' sentences, each one agent's word.

An exchange's source kind is declared by the agent (``source`` on ingest). The default, ``conversation``, claims no
more than "one agent's user said it": it can never earn *corroborated* or *reviewed* alone, and the quarantine detector
reads every exchange whatever its declared source — declaring a tool output a conversation hides nothing from it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from django.db import models
from django.db.models import F, Func, Q, Value


class Source(models.TextChoices):
    CONVERSATION = "conversation", "conversation (user text said by the user, assistant text by the assistant)"
    TOOL = "tool", "tool output"
    AGENT_NOTE = "agent_note", "agent note"
    IMPORT = "import"


class Trust(models.TextChoices):
    REVIEWED = "reviewed"
    CORROBORATED = "corroborated", "corroborated (≥ 2 agents)"
    USER = "user", "one agent's user statements"
    ASSISTANT = "assistant", "assistant statements"
    TOOL = "tool", "tool output"


#: higher is more trusted
RANK: dict[str, int] = {Trust.TOOL: 0, Trust.ASSISTANT: 1, Trust.USER: 2, Trust.CORROBORATED: 3, Trust.REVIEWED: 4}

#: Another agent's raw exchange is searched (and injected into a context block) only as evidence of a reviewed item,
#: or once a reviewer released it: one agent's unreviewed words — its user's, a page its tool fetched — are what a
#: poisoner writes, and a detector cannot be relied on to see every attack (RECMEM_SEARCH_PEER_EXCHANGES). Evidence of
#: a *corroborated* item is not enough: corroboration vouches for the item's statement, not for everything else its
#: evidence says — one attacker restating an honest agent's rule with a payload appended makes the item corroborated
#: by two agents and the payload rides along (round 33's piggyback cases: 2 of 6 reached that way).
PEER_RAW_TRUST = frozenset({Trust.REVIEWED})

#: With RECMEM_SEARCH_PEER_ITEMS=trusted, another agent's consolidated item is searched only at one of these levels
#: (or drawn only from the reader's own or vouched-for exchanges); an episode (a narrative of raw sentences) only when
#: all it was drawn from is the reader's own or vouched for.
PEER_ITEM_TRUST = frozenset({Trust.CORROBORATED, Trust.REVIEWED})

#: With RECMEM_SEARCH_PEER_ITEMS=reviewed, only a person's approval shares an item: two agents agreeing is what two
#: colluding agents (or one user talking to two agents) can always produce, and no content rule tells a plainly
#: worded weakened rule from a team's real one (bench_poison round 41: every case left reaching under ``trusted``).
PEER_ITEM_TRUST_REVIEWED = frozenset({Trust.REVIEWED})

# What a statement is about when two agents' word is not enough to share it (RECMEM_SEARCH_PEER_ITEMS=guarded, the
# default): where a poisoned rule does its harm, not how an attack is worded — credentials, access and approvals, a
# safeguard or its switching off, a destination outside the team (a host, a URL, an address, a bucket, a webhook),
# money and identity papers, code fetched and run. Written for PostgreSQL's regular expressions (``\y``: a word's
# edge), matched case-insensitively by the database alone (``Experience.sensitive``, a generated column: every write
# path keeps it right).
_SENSITIVE_TERMS = r"""
pass(?:word|phrase|wd|code)s? | tokens? | api[\s-]?keys? | secrets? | credentials? | creds |
(?:private|ssh|signing)[\s-]keys? | 2fa | mfa | otps? | log-?ins? | sign-?ins? | cookies? |
approv\w* | sign-?offs? | permissions? | access | admins? | administrator\w* | root(?!\s+caus) | sudo | superusers? |
privileg\w* | rights | grant\w* | allow-?lists? | whitelist\w* | exempt\w* | bypass\w* | overrid\w* | waiv\w* |
skip\w* | disabl\w* | (?:turn|switch)(?:s|es|ed|ing)?[\s-]off | no[\s-]longer[\s-](?:required|needed|necessary) |
ignor\w* | tls | ssl | mtls | pinning | verif\w* | certs? | certificates? | firewalls? | vpns? | ports? | csrf |
auth(?:entic\w*|ori[sz]\w*|n|z)? | signatures? | signed | signing | audit\w* | encrypt\w* | decrypt\w* |
webhooks? | buckets? | upload\w* | forward(?:s|ed|ing) | mirror\w* | exfiltrat\w* | paste\w* | public(?:ly)? |
ibans? | banks? | banking | salar\w* | payroll | wire[\s-]transfers? | refunds? | payouts? | ssns? | passports? |
e-?mail[\s-]address\w* | phone[\s-]numbers? | home[\s-]address\w* | personal[\s-]data | customer[\s-](?:lists?|data) |
curl | wget | (?:pip|npm|gem|cargo)[\s-]install | powershell | iex | chmod | binar(?:y|ies) | download\w* |
passwort\w* | kennw[oö]rt\w* | zugangsdaten | zugriff\w* | genehmig\w* | freigabe\w* | deaktivier\w* |
mots?[\s-]de[\s-]passe | identifiants? | accès | approuv\w* | désactiv\w* | contraseñas? | acceso | aprob\w* |
desactiv\w* | senhas? | acesso | aprova\w* | credenziali | accesso | approva\w* | disattiv\w* | wachtwoord\w* |
toegang | goedgekeur\w* | uitgeschakeld | hasł\w* | dostęp\w* | парол\w* | доступ\w* | токен\w*
"""


def _sensitive_pattern(file_extensions: Iterable[str]) -> str:
    documents = {"md", "rst", "txt", "csv", "tsv", "html", "htm", "xml", "pdf", "log", "lock", "ini", "env", "cfg"}
    extensions = "|".join(sorted({e for e in file_extensions if e.isalnum()} | documents))
    # a host is labels and a top-level label that is no file's extension ("pyproject.toml", "README.md" are files)
    host = r"\y[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?!(?:" + extensions + r")\y)[a-z]{2,24}\y"
    destination = r"[a-z][a-z0-9+.-]*://|\S@[a-z0-9-]+\.|\y\d{1,3}(?:\.\d{1,3}){3}\y|<(?:EMAIL|SECRET|IP_ADDRESS|URL)"
    return r"\y(?:" + re.sub(r"\s+", "", _SENSITIVE_TERMS) + r")\y|" + host + "|" + destination


@functools.cache
def sensitive_pattern() -> str:
    """The PostgreSQL regular expression (``~*``) of a statement two agents' word does not share (above)."""
    from governance.privacy.vocabulary import file_extensions

    return _sensitive_pattern(file_extensions())


class SensitiveMatch(Func):
    """``<field> ~* <pattern>`` (:func:`sensitive_pattern`): immutable, so a stored generated column
    (``Experience.sensitive``) — the search reads one boolean per row instead of running the expression on every
    row its vector and full-text scans visit (2.1× the retrieval time on an 8,000-item store, round 45)."""

    output_field = models.BooleanField()

    def __init__(self, field: str, pattern: str) -> None:
        super().__init__(F(field), Value(pattern))

    def as_sql(self, compiler, connection, **extra_context):
        (text, text_params), (pattern, pattern_params) = (compiler.compile(e) for e in self.source_expressions)
        return f"({text} ~* {pattern})", [*text_params, *pattern_params]


def peer_item_reach_q(setting: str) -> Q | None:
    """Which of another agent's experiences a search returns under ``RECMEM_SEARCH_PEER_ITEMS`` = ``setting``
    (besides those drawn only from the reader's own or vouched-for words); ``None``: every one (``all``).

    * ``guarded`` (the default): reviewed, or corroborated by two agents and about nothing of
      :func:`sensitive_pattern` — two colluding agents (or one user talking to two agents) can always corroborate, so
      a rule about credentials, access, safeguards, destinations, money or code to run waits for a person;
    * ``trusted``: reviewed or corroborated; ``reviewed``: reviewed only."""
    if setting == "all":
        return None
    if setting == "reviewed":
        return Q(trust__in=PEER_ITEM_TRUST_REVIEWED)
    if setting == "trusted":
        return Q(trust__in=PEER_ITEM_TRUST)
    return Q(trust=Trust.REVIEWED) | Q(trust=Trust.CORROBORATED, sensitive=False)


#: distinct agents whose (corroborating) evidence makes an item "corroborated"
CORROBORATING_AGENTS = 2

#: sources whose exchanges never corroborate (count toward independent sessions or agents)
NON_CORROBORATING = frozenset({Source.TOOL, Source.IMPORT})


def exchange_trust(*, source: str, user_text: str = "") -> str:
    """The trust one exchange carries as evidence."""
    if source in NON_CORROBORATING:
        return Trust.TOOL
    if source == Source.AGENT_NOTE:
        return Trust.ASSISTANT
    return Trust.USER if (user_text or "").strip() else Trust.ASSISTANT


def weakest(levels: Iterable[str]) -> str | None:
    levels = list(levels)
    return min(levels, key=RANK.__getitem__) if levels else None


def item_trust(*, reviewed: bool, independent_agents: int, evidence: Iterable[str]) -> str:
    """An item's trust: ``reviewed`` (a person approved it), else ``corroborated`` with at least
    :data:`CORROBORATING_AGENTS` independent agents, else the weakest of its ``evidence`` (exchange trusts; none
    known: ``assistant``, what a consolidator wrote without a source)."""
    if reviewed:
        return Trust.REVIEWED
    if independent_agents >= CORROBORATING_AGENTS:
        return Trust.CORROBORATED
    return weakest(evidence) or Trust.ASSISTANT


def episode_trust(*, evidence: Iterable[str]) -> str:
    """An episode's trust: the weakest of its sources' (exchange trusts; none: ``assistant``). Never *corroborated*:
    its narrative is its sources' sentences, each one agent's word, and two agents among the sources vouch for none
    of them — one attacker's turns beside an honest agent's would lend its sentences the honest one's support. Never
    *reviewed*: episodes are not proposed."""
    return weakest(evidence) or Trust.ASSISTANT


def may_corroborate(*, source: str, quarantined: bool) -> bool:
    """Whether an exchange counts as independent support (sessions, agents): not tool output or imports, not held in
    quarantine."""
    return source not in NON_CORROBORATING and not quarantined
