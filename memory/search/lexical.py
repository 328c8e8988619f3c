"""The full-text half of hybrid search (vectors alone ranked chit-chat near a question above the one exchange that
answered it): a ``tsvector`` per row, computed by PostgreSQL in the same statement that stores the row (a stored
generated column, GIN-indexed), and an IDF-weighted match score of the query's lexemes, read under the same visibility
filter as the vector half.

Placeholders are single terms: ``<PERSON_3f2a9c>`` becomes the lexeme ``ph3f2a9c`` in rows and queries alike (the
default parser would split it into ``person`` and ``3f2a9c``, and every masked name would match every other), so a
pseudonym matches itself and nothing else.
"""

from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import BooleanField, F, FloatField, Func, Model, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce

TEXT_SEARCH_CONFIG = "english"
# Same grammar as the gateway's keyed placeholders (governance/privacy/recognizers/secret_base.py: PLACEHOLDER_RE).
_PLACEHOLDER_PATTERN = r"<[A-Z][A-Z0-9_]*_([0-9a-f]{6})>"
_PLACEHOLDER_TERM = r" ph\1 "
# Query terms kept (the rarest first): a question has a dozen content words at most; a pasted page must not
# become a query of hundreds of OR-ed lexemes.
MAX_QUERY_TERMS = 16
# Up to this many visible rows, document frequencies are counted exactly in those rows and every row holding a
# query term is a lexical candidate. Beyond it (a large store) both would read every matching row — at 1M
# exchanges 56k rows per question on average and ~0.8 s per search (bench_scale) — so the frequencies
# come from the table's statistics and the candidates are bounded. Finding out costs a count of up to this many
# rows (at 1M, 14 ms per layer for 5,000); LoCoMo's stores (≤ 1,100 visible rows) stay exact.
EXACT_MAX_ROWS = 2000
# Lexical candidates in a large store: rows holding the query's rarest terms first (they carry the most IDF), at
# most this many in all, found through the GIN index (at 1M: 1,000 cost 30–45 ms per layer, mostly heap reads).
LARGE_STORE_CANDIDATES = 200
# A term the statistics do not list as common is taken as this share of the rows' minimum listed frequency (as
# PostgreSQL's own selectivity estimate for tsvector matches does).
_UNLISTED_FREQUENCY_SHARE = 0.5
_STATS_SECONDS = 300.0


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


# A placeholder's lexeme (``ph3f2a9c``), as _PLACEHOLDER_TERM writes it.
PLACEHOLDER_LEXEME_RE = re.compile(r"^ph[0-9a-f]{6}$")


def _tsvector_of(text_sql: str) -> str:
    """The SQL of a text's tsvector as rows get it (same configuration, same placeholder rule)."""
    return (f"to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, regexp_replace({text_sql}, "
            f"'{_PLACEHOLDER_PATTERN}', '{_PLACEHOLDER_TERM}', 'g'))")


def query_lexemes(text: str) -> list[str]:
    """The query's lexemes as PostgreSQL derives them for rows (same configuration, same placeholder rule)."""
    if not text or not text.strip():
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT lexeme FROM unnest({_tsvector_of('%s')}) AS t(lexeme, positions, weights) "
                       "ORDER BY positions[1]", [text[:4000]])
        return [row[0] for row in cursor.fetchall()]


def lexemes_held(texts: list[str], lexemes: list[str]) -> list[set[str]]:
    """Per text, which of ``lexemes`` it holds, stemmed as rows are; one statement for all texts."""
    found: list[set[str]] = [set() for _ in texts]
    if not texts or not lexemes:
        return found
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT t.k, v.lexeme FROM unnest(%s::text[]) WITH ORDINALITY AS t(s, k), "
                       f"LATERAL unnest({_tsvector_of('t.s')}) AS v(lexeme, positions, weights) "
                       "WHERE v.lexeme = ANY(%s)", [texts, list(lexemes)])
        for k, lexeme in cursor.fetchall():
            found[k - 1].add(lexeme)
    return found


def _quoted(lexeme: str) -> str:
    # One term for to_tsquery, never parsed as an operator (lexemes come from to_tsvector, but a quote inside one
    # must still not end the literal).
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _column(model: type[Model]) -> str:
    return f"{connection.ops.quote_name(model._meta.db_table)}.{connection.ops.quote_name('search_vector')}"


def _term(lexeme: str) -> SearchQuery:
    return SearchQuery(_quoted(lexeme), search_type="raw", config=TEXT_SEARCH_CONFIG)


def _any(lexemes: list[str]) -> SearchQuery:
    query = _term(lexemes[0])
    for lexeme in lexemes[1:]:
        query = query | _term(lexeme)
    return query


@dataclass
class LexicalQuery:
    """The query's terms with their IDF in one layer's visible rows, rarest first; ``score`` of a row is the IDF of
    the terms it holds divided by the IDF of all terms (0–1: the share of the query's information the row matches).
    ``bounded``: a large store, whose lexical candidates are limited (``matching``)."""

    terms: list[tuple[str, float]]
    model: type[Model]  # the layer's model: the scores name its table's column
    bounded: bool = False
    # The IDF of the query's terms no visible row of the layer holds: no row matches them, but they are part of
    # what the query asks. Left out of the share, a question's name alone scored 1.0 in a layer holding none of its
    # other words ("What book is <PERSON_x> reading?": every short statement about <PERSON_x>).
    unmatched: float = 0.0

    @property
    def total(self) -> float:
        return (sum(w for _, w in self.terms) + self.unmatched) or 1.0

    def score_expression(self):
        """The row's score (0–1) as one SQL expression. Written out rather than built from ORM expressions: a
        question's 16 terms made ~30 nested expressions to compile twice per layer and search (bench_scale: ~1/4 of a
        1M search's Python time). The same SQL as ``search_vector @@ to_tsquery(<term>)`` per term."""
        column = _column(self.model)
        cases, params = [], []
        for lexeme, weight in self.terms:
            cases.append(f"CASE WHEN {column} @@ to_tsquery('{TEXT_SEARCH_CONFIG}'::regconfig, %s) "
                         "THEN %s::float8 ELSE 0::float8 END")
            params += [_quoted(lexeme), float(weight)]
        return RawSQL(f"(({' + '.join(cases)}) / %s::float8)", [*params, float(self.total)],
                      output_field=FloatField())

    def matching(self, qs: QuerySet) -> QuerySet:
        """The rows of ``qs`` that are lexical candidates: every row holding a term, or in a large store at most
        ``LARGE_STORE_CANDIDATES`` of them, those holding the rarest terms first."""
        if not self.bounded:
            return qs.filter(search_vector=_any([lexeme for lexeme, _ in self.terms]))
        # Per term in turn (rarest first), the ids of visible rows holding it; the LIMIT stops the walk once the
        # rarer terms filled it, so a common term's rows are read only if they left room. One statement compiled
        # once, whatever the number of terms.
        column = _column(qs.model)
        holding = RawSQL(f"{column} @@ to_tsquery('{TEXT_SEARCH_CONFIG}'::regconfig, terms.term)", [],
                         output_field=BooleanField())
        inner, params = qs.filter(holding).order_by().values("pk")[:LARGE_STORE_CANDIDATES].query.sql_with_params()
        return qs.filter(pk__in=RawSQL(
            f"SELECT candidates.* FROM unnest(%s::text[]) WITH ORDINALITY AS terms(term, n) "
            f"CROSS JOIN LATERAL ({inner}) AS candidates LIMIT {LARGE_STORE_CANDIDATES}",
            [[_quoted(lexeme) for lexeme, _ in self.terms], *params]))


def lexical_query(qs: QuerySet, lexemes: list[str]) -> LexicalQuery | None:
    """IDF of each lexeme among the rows of ``qs`` (the visible, filtered rows of one layer). Counted exactly up to
    ``EXACT_MAX_ROWS`` visible rows (``None`` when no lexeme occurs in them); beyond, estimated from the table's
    statistics (``pg_stats``), and the query is ``bounded``."""
    if not lexemes:
        return None
    from django.db.models import Count, Q

    unique = list(dict.fromkeys(lexemes))
    documents = _visible_rows(qs)
    frequencies = _table_frequencies(qs.model._meta.db_table) if documents > EXACT_MAX_ROWS else None
    if frequencies is not None:
        # No check that a term occurs at all (a statement per layer at 1M): where none does, the candidates are
        # none and every score is 0, which ranks as the vector half alone.
        listed, unlisted, rows = frequencies
        terms = [(lexeme, _idf(listed.get(lexeme, unlisted) * rows, rows)) for lexeme in unique]
        unmatched = 0.0  # estimated, every term is taken to occur
    else:
        counts = qs.filter(search_vector=_any(unique)).order_by()[:EXACT_MAX_ROWS].aggregate(
            **{f"d{i}": Count("pk", filter=Q(search_vector=_term(lex))) for i, lex in enumerate(unique)})
        terms = [(lexeme, _idf(counts[f"d{i}"], max(documents, 1))) for i, lexeme in enumerate(unique)
                 if counts.get(f"d{i}")]
        unmatched = _idf(0, max(documents, 1)) * (len(unique) - len(terms))
    if not terms:
        return None
    terms.sort(key=lambda t: -t[1])
    return LexicalQuery(terms=terms[:MAX_QUERY_TERMS], model=qs.model, bounded=documents > EXACT_MAX_ROWS,
                        unmatched=unmatched)


# A filter (visibility, layer, time range) already seen to admit more than EXACT_MAX_ROWS rows: the bounded count is
# not repeated for it during this long (at 1M it was a statement per layer and search). Visible rows only shrink by
# a rollback or deletion; until the entry expires such a filter keeps the bounded plan, which is valid at any size.
_LARGE_SECONDS = 60.0
_LARGE_ENTRIES = 4096
_large: dict[tuple, float] = {}
_large_lock = threading.Lock()


def _visible_rows(qs: QuerySet) -> int:
    """The rows of ``qs``, counted up to ``EXACT_MAX_ROWS`` + 1 (more is just "large"); a filter found large within
    the last minute is taken as large without counting again."""
    sql, params = qs.order_by().values("pk").query.sql_with_params()
    key = (connection.alias, sql, tuple(map(str, params)))
    now = time.monotonic()
    with _large_lock:
        seen = _large.get(key)
    if seen is not None and now - seen < _LARGE_SECONDS:
        return EXACT_MAX_ROWS + 1
    documents = qs.order_by()[:EXACT_MAX_ROWS + 1].count()
    if documents > EXACT_MAX_ROWS:
        with _large_lock:
            if len(_large) >= _LARGE_ENTRIES:
                _large.clear()
            _large[key] = now
    return documents


def lexical_cache_clear() -> None:
    """Forget the filters seen large and the table statistics (tests; after a bulk deletion)."""
    with _large_lock:
        _large.clear()
    with _stats_lock:
        _stats.clear()


def _idf(df: float, documents: float) -> float:
    # BM25's IDF (never negative): a term in half the rows counts little, a rare one a lot.
    return math.log(1 + (documents - df + 0.5) / (df + 0.5))


_stats: dict[str, tuple[float, tuple[dict[str, float], float, float] | None]] = {}
_stats_lock = threading.Lock()


def _table_frequencies(table: str) -> tuple[dict[str, float], float, float] | None:
    """The share of ``table``'s rows holding each common lexeme, the share taken for any other, and the table's
    estimated row count, from the statistics ANALYZE keeps (re-read every few minutes); ``None`` before the table
    has been analysed."""
    now = time.monotonic()
    with _stats_lock:
        cached = _stats.get(table)
        if cached is not None and now - cached[0] < _STATS_SECONDS:
            return cached[1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, c.reltuples "
                       "FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename "
                       "AND c.relnamespace = to_regnamespace(s.schemaname) "
                       "WHERE s.schemaname = current_schema() AND s.tablename = %s AND s.attname = 'search_vector'",
                       [table])
        row = cursor.fetchone()
    value = None
    if row and row[0] and row[1] and row[2] and row[2] > 0:
        elements, freqs, rows = row
        # most_common_elem_freqs: one per element, then the minimum, the maximum and the null share
        value = (dict(zip(elements, freqs[:len(elements)], strict=True)),
                 freqs[len(elements)] * _UNLISTED_FREQUENCY_SHARE, float(rows))
    with _stats_lock:
        _stats[table] = (now, value)
    return value
