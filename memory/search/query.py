"""What a search is asked and what it returns."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from core.config import config


@dataclass
class SearchQuery:
    query: str
    # None: the typed settings decide (RECMEM_SEARCH_K_SUB / _K_EPI / _K_SEM / _TOKEN_BUDGET), see ``resolved``.
    k_sub: int | None = None
    k_epi: int | None = None
    k_sem: int | None = None
    token_budget: int | None = None
    types: list[str] | None = None
    tags: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    # What was believed then: items current at that instant (superseded or expired since included), exchanges
    # stored by then. None: what holds now.
    as_of: datetime | None = None
    # Only rows about this entity (memory.entities.Entity: placeholders and/or a subject, already resolved).
    entity: Any = None

    def resolved(self) -> SearchQuery:
        """This query with every size the caller left out taken from the settings."""
        settings = config()
        return replace(
            self,
            k_sub=settings.search.k_sub if self.k_sub is None else self.k_sub,
            k_epi=settings.search.k_epi if self.k_epi is None else self.k_epi,
            k_sem=settings.search.k_sem if self.k_sem is None else self.k_sem,
            token_budget=self.token_budget or settings.search.token_budget)


@dataclass
class Hit:
    obj: Any
    similarity: float  # cosine of the query and the item's vector
    score: float  # the ranking blend (relevance, freshness, confidence, hits)
    # cosine + RECMEM_SEARCH_LEXICAL_WEIGHT × the lexical match (hybrid search); what the context block orders by
    relevance: float | None = None
    expanded_from: Any = None  # a session neighbour brought in by this exchange hit (context expansion)
    # What the context block shows of the item instead of its whole text (an episode's sentences that name the
    # query's words: memory.search.snippets); None: the whole text
    shown: str | None = None

    def __post_init__(self) -> None:
        if self.relevance is None:
            self.relevance = self.similarity


@dataclass
class SearchResult:
    exchanges: list[Hit] = field(default_factory=list)
    episodes: list[Hit] = field(default_factory=list)
    experiences: list[Hit] = field(default_factory=list)
    # Context expansion: session neighbours of the best exchange hits, offered to the context block only (the
    # exchange list keeps its k); each ranked just below the hit that brought it.
    neighbours: list[Hit] = field(default_factory=list)
    context: str = ""
    context_tokens: int = 0
    context_budget: int = 0  # the token budget the block was built within


@dataclass
class Nearest:
    obj: Any
    similarity: float
    lexical: float = 0.0  # share of the query's IDF the row's words match (0 in vector-only search)
