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

from collections.abc import Iterable

from django.db import models


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

#: With RECMEM_SEARCH_PEER_ITEMS=trusted (the default), another agent's consolidated item is searched only at one of
#: these levels (or drawn only from the reader's own or vouched-for exchanges); an episode (a narrative of raw
#: sentences) only when all it was drawn from is the reader's own or vouched for.
PEER_ITEM_TRUST = frozenset({Trust.CORROBORATED, Trust.REVIEWED})

#: With RECMEM_SEARCH_PEER_ITEMS=reviewed, only a person's approval shares an item: two agents agreeing is what two
#: colluding agents (or one user talking to two agents) can always produce, and no content rule tells a plainly
#: worded weakened rule from a team's real one (bench_poison round 41: every case left reaching under ``trusted``).
PEER_ITEM_TRUST_REVIEWED = frozenset({Trust.REVIEWED})


def peer_item_trust(setting: str) -> frozenset[str] | None:
    """The trust levels at which another agent's experience is searched under ``RECMEM_SEARCH_PEER_ITEMS`` =
    ``setting``; ``None``: every level (``all``)."""
    return {"trusted": PEER_ITEM_TRUST, "reviewed": PEER_ITEM_TRUST_REVIEWED}.get(setting)

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
