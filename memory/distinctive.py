"""What a scope's exchanges rarely say: the terms that tell one of its points from its neighbours.

Two texts of one module share much of their vocabulary ("build", "commit", "release", "monorepo"); a point is told
apart by the few words its own paraphrases keep (the product, the value, the object: "pnpm", "Bazel", "cherry-pick",
"Conventional Commits"). Similarity of whole texts (MiniLM at θ_corroborate_unit) does not see the difference:
"the monorepo's JavaScript dependencies are managed with pnpm" is 0.52 similar to "the monorepo is Bazel end to end",
so a broad item gathered the paraphrases of its neighbours and folded their items into it.

A term is *distinctive* in a scope when at most :data:`DISTINCTIVE_SHARE` of the scope's recent exchanges say it
(:data:`SAMPLE` of them; the content words of :func:`~memory.services.consolidation.canonical_form`, crudely
stemmed, placeholders whole). On the read paraphrase teams (eight scenarios, 12 facts of 4 paraphrases among ~25
fillers each, a scenario's exchanges as the scope), 89 % of the pairs of one fact's paraphrases share a distinctive
term, 11 % of the pairs of two facts'.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable

from agents.visibility import ScopeKey

#: at most this share of the scope's exchanges may say a term for it to tell a point apart
DISTINCTIVE_SHARE = 0.06
#: the scope's most recent exchanges the shares are counted on
SAMPLE = 2000
#: below this many exchanges a scope has no vocabulary of its own to speak of: every term is distinctive
MIN_EXCHANGES = 20


class Rarity:
    """Document frequencies of a set of texts' terms."""

    def __init__(self, forms: Iterable[frozenset[str]]):
        self.df: Counter = Counter()
        self.n = 0
        for form in forms:
            self.df.update(form)
            self.n += 1

    def distinctive(self, form: frozenset[str]) -> frozenset[str]:
        if self.n < MIN_EXCHANGES:
            return form
        limit = max(1.0, DISTINCTIVE_SHARE * self.n)
        return frozenset(t for t in form if self.df[t] <= limit)


_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def scope_rarity(scope: ScopeKey, *, form: Callable[[str], frozenset[str]]) -> Rarity:
    """The scope's :class:`Rarity`, over its :data:`SAMPLE` most recent exchanges; kept while the project's count of
    exchanges (:class:`~memory.models.ExchangeCount`, a few rows) stays the same — a consolidation pass asks for it
    once per topic and per unit it weighs."""
    from django.db.models import Sum

    from memory.models import Exchange, ExchangeCount

    count = ExchangeCount.objects.filter(project_id=scope.project_id).aggregate(n=Sum("exchanges"))["n"]
    key = (scope, count)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    recent = Exchange.objects.in_scope(scope).order_by("-occurred_at").values_list("user_text", "assistant_text")
    rarity = Rarity(form(f"{u} {a}") for u, a in recent[:SAMPLE])
    with _LOCK:
        _CACHE[key] = rarity
        while len(_CACHE) > 32:
            _CACHE.popitem(last=False)
    return rarity


def share_a_distinctive_term(a: str, b: str, *, rarity: Rarity, form: Callable[[str], frozenset[str]]) -> bool:
    """``a`` and ``b`` say one of the scope's rare terms in common (or one of them says none: nothing tells it
    apart)."""
    da, db = rarity.distinctive(form(a)), rarity.distinctive(form(b))
    return not da or not db or bool(da & db)
