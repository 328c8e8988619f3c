"""The full-text half of hybrid search (issue 15): a ``tsvector`` per row, computed by PostgreSQL in the same
statement that stores the row (a stored generated column, GIN-indexed), and an IDF-weighted match score of the
query's lexemes, read under the same visibility filter as the vector half.

Placeholders are single terms: ``<PERSON_3f2a9c>`` becomes the lexeme ``ph3f2a9c`` in rows and queries alike (the
default parser would split it into ``person`` and ``3f2a9c``, and every masked name would match every other), so a
pseudonym matches itself and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import Case, F, FloatField, Func, QuerySet, Value, When
from django.db.models.functions import Coalesce

TEXT_SEARCH_CONFIG = "english"
# Same grammar as the gateway's keyed placeholders (governance/privacy/recognizers/secrets.py: PLACEHOLDER_RE).
_PLACEHOLDER_PATTERN = r"<[A-Z][A-Z0-9_]*_([0-9a-f]{6})>"
_PLACEHOLDER_TERM = r" ph\1 "
# Query terms kept (the rarest first): a question has a dozen content words at most; a pasted page must not
# become a query of hundreds of OR-ed lexemes.
MAX_QUERY_TERMS = 16
# How many matching rows are counted for a term's document frequency: beyond it a term is common anyway, and the
# count stays bounded on a large store.
DF_SAMPLE_ROWS = 5000


class LexicalVector(Func):
    """``to_tsvector('english', <fields joined by spaces, placeholders as single terms>)``: immutable, so it can be
    a stored generated column."""

    def __init__(self, *fields: str) -> None:
        parts: list = []
        for name in fields:
            if parts:
                parts.append(Value(" "))
            parts.append(Coalesce(F(name), Value("")))
        super().__init__(*parts)

    def as_sql(self, compiler, connection, **extra_context):
        args = []
        params: list = []
        for expression in self.source_expressions:
            sql, p = compiler.compile(expression)
            args.append(sql)
            params.extend(p)
        joined = " || ".join(f"({a})" for a in args)
        sql = (f"to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, regexp_replace({joined}, "
               f"'{_PLACEHOLDER_PATTERN}', '{_PLACEHOLDER_TERM}', 'g'))")
        return sql, params


def query_lexemes(text: str) -> list[str]:
    """The query's lexemes as PostgreSQL derives them for rows (same configuration, same placeholder rule)."""
    if not text or not text.strip():
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT lexeme FROM unnest(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, regexp_replace(%s, "
            f"'{_PLACEHOLDER_PATTERN}', '{_PLACEHOLDER_TERM}', 'g'))) AS t(lexeme, positions, weights) "
            "ORDER BY positions[1]", [text[:4000]])
        return [row[0] for row in cursor.fetchall()]


def _term(lexeme: str) -> SearchQuery:
    # ``raw`` with the lexeme quoted: one term, never parsed as an operator (lexemes come from to_tsvector, but a
    # quote inside one must still not end the literal).
    quoted = "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"
    return SearchQuery(quoted, search_type="raw", config=TEXT_SEARCH_CONFIG)


def _any(lexemes: list[str]) -> SearchQuery:
    query = _term(lexemes[0])
    for lexeme in lexemes[1:]:
        query = query | _term(lexeme)
    return query


@dataclass
class LexicalQuery:
    """The query's terms with their IDF in one layer's visible rows; ``score`` of a row is the IDF of the terms it
    holds divided by the IDF of all terms (0–1: the share of the query's information the row matches)."""

    terms: list[tuple[str, float]]

    @property
    def total(self) -> float:
        return sum(w for _, w in self.terms) or 1.0

    def score_expression(self):
        whens = [Case(When(search_vector=_term(lexeme), then=Value(weight)), default=Value(0.0),
                      output_field=FloatField()) for lexeme, weight in self.terms]
        total = whens[0]
        for w in whens[1:]:
            total = total + w
        return total / Value(self.total)

    def matching(self, qs: QuerySet) -> QuerySet:
        return qs.filter(search_vector=_any([lexeme for lexeme, _ in self.terms]))


def lexical_query(qs: QuerySet, lexemes: list[str]) -> LexicalQuery | None:
    """IDF of each lexeme among the rows of ``qs`` (the visible, filtered rows of one layer); ``None`` when no
    lexeme occurs in them. The counts are bounded (``DF_SAMPLE_ROWS``), so a very common term reads as common."""
    if not lexemes:
        return None
    from django.db.models import Count, Q

    unique = list(dict.fromkeys(lexemes))
    sample = qs.filter(search_vector=_any(unique)).order_by()[:DF_SAMPLE_ROWS]
    counts = sample.aggregate(**{f"d{i}": Count("pk", filter=Q(search_vector=_term(lex)))
                                 for i, lex in enumerate(unique)})
    documents = max(qs.order_by()[:DF_SAMPLE_ROWS * 4].count(), 1)
    terms = []
    for i, lexeme in enumerate(unique):
        df = counts.get(f"d{i}") or 0
        if df:
            # BM25's IDF (never negative): a term in half the rows counts little, a rare one a lot.
            terms.append((lexeme, math.log(1 + (documents - df + 0.5) / (df + 0.5))))
    if not terms:
        return None
    terms.sort(key=lambda t: -t[1])
    return LexicalQuery(terms=terms[:MAX_QUERY_TERMS])
