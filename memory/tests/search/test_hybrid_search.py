"""Hybrid search (vectors alone ranked chit-chat above the exchange that answers): the full-text half in PostgreSQL
beside the vectors, under the same visibility filter; placeholders as single terms; the experience floor; context
expansion with session neighbours."""

from __future__ import annotations

import pytest
from django.contrib.postgres.search import SearchQuery as PgQuery

from agents.services import agent_create
from agents.visibility import agent_visibility
from memory.informativeness import informativeness
from memory.models import Exchange, Experience
from memory.search.lexical import query_lexemes
from memory.search.query import SearchQuery
from memory.search.selectors import memory_search
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.tests.factories import exchanges_bulk

pytestmark = pytest.mark.django_db

# Chit-chat about shopping lies closer to the question by cosine than the one exchange that answers it (MiniLM:
# 0.62 and 0.63 against 0.46): the LoCoMo failure the full-text half fixes, in small.
CHITCHAT = [
    "I went shopping yesterday and bought so many things, it was such a fun day out!",
    "Do you like shopping? What did you buy last time?",
    "Shopping always cheers me up after a long week at work.",
    "I should buy new shoes soon, mine are falling apart.",
    "We spent the whole afternoon at the mall, my feet hurt now.",
    "What do you usually buy when you go out on weekends?",
    "Did you buy anything nice for your birthday?",
    "I want to buy a present for my mum, any ideas?",
    "We can buy snacks on the way to the cinema.",
    "They always buy too much food for parties.",
]
ANSWER = "Found a vintage typewriter at the flea market, can't wait to use it."
QUESTION = "What did I buy at the flea market?"


def _store(agent, texts, *, session="s"):
    s = session_create(agent=agent, external_id=session)
    return exchanges_ingest(agent=agent, session=s, items=[ExchangeIn(user=t, assistant="Nice!") for t in texts]
                            ).exchanges


def _rank(found, pk) -> int | None:
    ids = [h.obj.pk for h in found.exchanges]
    return ids.index(pk) if pk in ids else None


def test_a_question_with_concrete_words_finds_the_exchange_that_holds_them(settings):
    agent = agent_create(project_name="hybrid", name="a")
    stored = _store(agent, [*CHITCHAT[:3], ANSWER, *CHITCHAT[3:]])
    answer = stored[3].pk
    settings.RECMEM = settings.RECMEM.replace(search__lexical_weight=0.0, search__experience_floor=0.0,
                                              search__expand=0)
    vector_only = memory_search(agent=agent, query=SearchQuery(query=QUESTION, k_sub=3, k_epi=0, k_sem=0))
    assert _rank(vector_only, answer) is None  # by cosine alone the answer is not among the 3 best
    settings.RECMEM = settings.RECMEM.replace(search__lexical_weight=0.3)
    hybrid = memory_search(agent=agent, query=SearchQuery(query=QUESTION, k_sub=3, k_epi=0, k_sem=0))
    assert _rank(hybrid, answer) == 0
    assert hybrid.exchanges[0].relevance > hybrid.exchanges[0].similarity  # the lexical match added to it


def test_the_full_text_half_never_reaches_rows_the_agent_may_not_see(settings):
    reader = agent_create(project_name="hybrid", name="reader")
    other = agent_create(project_name="hybrid", name="other")
    _store(reader, CHITCHAT)
    foreign = _store(other, [ANSWER])[0]  # another agent's personal memory, the only row with the words
    assert Exchange.objects.filter(pk=foreign.pk, search_vector=PgQuery("flea", config="english")).exists()
    found = memory_search(agent=reader, query=SearchQuery(query=QUESTION, k_sub=10))
    assert foreign.pk not in {h.obj.pk for h in found.exchanges}
    assert "typewriter" not in found.context


def test_a_placeholder_is_one_term_that_matches_itself_only():
    assert query_lexemes("Did <PERSON_3f2a9c> meet <PERSON_0b1c2d> in <LOCATION_aa00ff>?") == [
        "ph3f2a9c", "meet", "ph0b1c2d", "phaa00ff"]
    agent = agent_create(project_name="hybrid", name="a")
    s = session_create(agent=agent, external_id="s")
    # Placeholders the gateway wrote are registered; stored text carries them like this.
    rows = exchanges_bulk(agent, s, ["Lunch with <PERSON_3f2a9c> today.", "Lunch with <PERSON_0b1c2d> today."])
    match = Exchange.objects.filter(search_vector=PgQuery("'ph3f2a9c'", search_type="raw", config="english"))
    assert list(match.values_list("pk", flat=True)) == [rows[0].pk]
    person = Exchange.objects.filter(search_vector=PgQuery("person", config="english"), session=s)
    assert not person.exists()  # the type is not a term: every masked name would match every other


def test_boilerplate_experiences_stay_out_and_leave_fewer_than_k(settings):
    agent = agent_create(project_name="hybrid", name="a")
    [ex] = _store(agent, ["I adopted a kitten called Ash from the shelter on Elm Street."])
    from memory.gateways.embeddings import get_embedder

    embedder = get_embedder()
    scope = {"project_id": agent.project_id, "owner_agent_id": agent.pk, "module_id": None, "scope": ex.scope}
    statements = ["The user adopted a kitten called Ash from the shelter on Elm Street.",
                  "The user is so happy and thankful, you are amazing!", "I am always here for you."]
    for statement in statements:
        Experience.objects.create(type="fact", subject="pets", statement=statement,
                                  embedding=embedder.embed_one(statement), embedding_model=embedder.model_id,
                                  informativeness=informativeness(statement), **scope)
    assert informativeness(statements[0]) > 0.7 > 0.2 > max(informativeness(s) for s in statements[1:])
    found = memory_search(agent=agent, query=SearchQuery(query="Which pet did the user adopt?", k_sem=10))
    assert [h.obj.statement for h in found.experiences] == [statements[0]]
    settings.RECMEM = settings.RECMEM.replace(search__experience_floor=0.0)  # no floor: all three fill the slots
    assert len(memory_search(agent=agent, query=SearchQuery(query="Which pet did the user adopt?",
                                                            k_sem=10)).experiences) == 3


def test_session_neighbours_join_the_context_within_the_budget_not_the_hits(settings):
    agent = agent_create(project_name="hybrid", name="a")
    other = agent_create(project_name="hybrid", name="b")
    stored = _store(agent, ["We planned the trip for weeks.", "Flew to Lisbon with my sister on Friday.",
                            "She had never seen the ocean before."])
    _store(agent, [f"Unrelated note number {i} about groceries." for i in range(5)], session="t")
    _store(other, ["Lisbon was sunny."])
    settings.RECMEM = settings.RECMEM.replace(search__expand=1)
    found = memory_search(agent=agent, query=SearchQuery(query="When did I fly to Lisbon?", k_sub=1, k_epi=0,
                                                         k_sem=0))
    assert [h.obj.pk for h in found.exchanges] == [stored[1].pk]  # the hits keep their k
    assert {h.obj.pk for h in found.neighbours} == {stored[0].pk, stored[2].pk}  # ±1 in the same session
    assert all(h.expanded_from == stored[1].pk and h.relevance < found.exchanges[0].relevance
               for h in found.neighbours)
    assert "never seen the ocean" in found.context and "sunny" not in found.context
    tight = memory_search(agent=agent, query=SearchQuery(query="When did I fly to Lisbon?", k_sub=1, k_epi=0,
                                                         k_sem=0, token_budget=40))
    # Only where the budget allows, and never without the hit that brought it (a shorter neighbour would fit).
    assert "Flew to Lisbon" not in tight.context and "planned the trip" not in tight.context
    settings.RECMEM = settings.RECMEM.replace(search__expand=0)
    assert memory_search(agent=agent, query=SearchQuery(query="When did I fly to Lisbon?", k_sub=1)).neighbours == []


def test_hits_and_their_neighbours_are_read_in_one_statement_and_a_deleted_hit_takes_its_neighbours_along():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memory.search.query import Hit
    from memory.search.selectors import RANK_FIELDS, _exchanges_with_neighbours, _layer_querysets

    agent = agent_create(project_name="hybrid", name="a")
    first, middle, last, far = _store(agent, ["We planned the trip.", "Flew to Lisbon on Friday.",
                                              "She had never seen the ocean.", "Back home on Monday."])
    qs = _layer_querysets(agent_visibility(agent=agent))[0]

    def hit(exchange, relevance):  # as ranked: the rank columns only
        return Hit(obj=Exchange.objects.only(*RANK_FIELDS[Exchange]).get(pk=exchange.pk), similarity=relevance,
                   relevance=relevance, score=relevance)

    hits = [hit(middle, 0.9), hit(far, 0.5)]
    with CaptureQueriesContext(connection) as queries:
        kept, neighbours = _exchanges_with_neighbours(hits, qs, 1)
    assert len(queries.captured_queries) == 1
    assert [h.obj.pk for h in kept] == [middle.pk, far.pk] and kept[0].obj.user_text.startswith("Flew to ")
    assert {h.obj.pk for h in neighbours} == {first.pk, last.pk}  # of the n = 1 best hit only; `far` is a hit
    assert all(h.expanded_from == middle.pk and h.relevance < 0.9 for h in neighbours)
    ranked = [hit(middle, 0.9)]
    Exchange.objects.filter(pk=middle.pk).delete()  # between ranking and reading
    assert _exchanges_with_neighbours(ranked, qs, 1) == ([], [])


def _analyse():
    from django.db import connection

    from memory.search import lexical

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_exchange")
    lexical.lexical_cache_clear()  # statistics are re-read every few minutes: this test wants them now


def test_a_large_store_bounds_the_lexical_candidates_rarest_terms_first(monkeypatch):
    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    other = agent_create(project_name="hybrid", name="other")
    common = exchanges_bulk(agent, session_create(agent=agent, external_id="c"),
                            [f"Lunch today, note {i}." for i in range(8)])
    rare = exchanges_bulk(agent, session_create(agent=agent, external_id="r"),
                          ["Lunch at the flea market.", "The flea market opens early."])
    foreign = exchanges_bulk(other, session_create(agent=other, external_id="f"), ["A flea market lunch."])[0]
    _analyse()
    monkeypatch.setattr(lexical, "EXACT_MAX_ROWS", 4)  # 10 visible rows: a "large" store here
    monkeypatch.setattr(lexical, "LARGE_STORE_CANDIDATES", 3)
    visible = Exchange.objects.visible_to(agent_visibility(agent=agent))
    query = lexical.lexical_query(visible, query_lexemes("lunch at the flea"))
    assert query.bounded
    # from the table's statistics: "lunch" is in 10 of the 11 rows, "flea" in 3
    assert [t for t, _ in query.terms] == ["flea", "lunch"]  # rarest first
    assert query.terms[0][1] > 2 * query.terms[1][1]
    candidates = set(query.matching(visible).values_list("pk", flat=True))
    # at most 3 rows: the two holding the rare term first, then one holding the common one; never the foreign row
    assert len(candidates) == 3 and {r.pk for r in rare} <= candidates and foreign.pk not in candidates
    assert len(candidates & {r.pk for r in common}) == 1
    # a row's score is the share of the query's IDF its words hold
    scores = dict(visible.annotate(s=query.score_expression()).values_list("pk", "s"))
    assert scores[rare[0].pk] == pytest.approx(1.0)  # "lunch" and "flea"
    assert scores[rare[1].pk] == pytest.approx(query.terms[0][1] / query.total)  # "flea" only
    assert scores[common[0].pk] == pytest.approx(query.terms[1][1] / query.total)  # "lunch" only
    # a word no visible row holds: no statement to find that out, no candidates, every score 0
    absent = lexical.lexical_query(visible, query_lexemes("zebra"))
    assert absent.bounded and not absent.matching(visible).exists()
    assert all(score == 0 for score in visible.annotate(s=absent.score_expression()).values_list("s", flat=True))


def test_below_the_bound_every_matching_row_is_a_candidate_and_counts_are_exact(monkeypatch):
    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    rows = exchanges_bulk(agent, session_create(agent=agent, external_id="c"),
                          [f"Lunch today, note {i}." for i in range(8)] + ["Lunch at the flea market."])
    lexical.lexical_cache_clear()
    visible = Exchange.objects.visible_to(agent_visibility(agent=agent))
    query = lexical.lexical_query(visible, query_lexemes("lunch at the flea market"))
    assert not query.bounded
    weights = dict(query.terms)
    assert weights["flea"] == pytest.approx(lexical._idf(1, 9)) and weights["lunch"] == pytest.approx(
        lexical._idf(9, 9))
    assert set(query.matching(visible).values_list("pk", flat=True)) == {r.pk for r in rows}


def test_a_query_word_no_visible_row_holds_still_counts_in_the_share():
    """The share is of the query's information: a layer holding none of a question's content words does not give
    full marks to every row holding its one common word (a name, in practice: "What book is <PERSON_x> reading?"
    scored 1.0 for each short statement about <PERSON_x> in a layer without "book" or "read"). The estimate from
    the statistics counted such words already; the exact count now does too."""
    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    rows = exchanges_bulk(agent, session_create(agent=agent, external_id="c"),
                          ["Lunch at the flea market.", "The flea market opens early.", "Dinner was late."])
    lexical.lexical_cache_clear()
    visible = Exchange.objects.visible_to(agent_visibility(agent=agent))
    query = lexical.lexical_query(visible, query_lexemes("which book did I read at the flea market"))
    assert not query.bounded and {t for t, _ in query.terms} == {"flea", "market"}
    # "book" and "read" are in no row: each weighs as a word in none of the 3 rows, in the total only
    assert query.unmatched == pytest.approx(2 * lexical._idf(0, 3))
    scores = dict(visible.annotate(s=query.score_expression()).values_list("pk", "s"))
    held = sum(w for _, w in query.terms)
    assert scores[rows[0].pk] == pytest.approx(held / (held + query.unmatched)) and scores[rows[0].pk] < 0.5
    assert scores[rows[2].pk] == 0
    # a query all of whose words some row holds is unchanged: a row holding them all scores 1
    whole = lexical.lexical_query(visible, query_lexemes("flea market"))
    assert whole.unmatched == 0
    assert dict(visible.annotate(s=whole.score_expression()).values_list("pk", "s"))[rows[0].pk] == pytest.approx(1)
    # no word held anywhere: no lexical half at all (the vector half ranks alone)
    assert lexical.lexical_query(visible, query_lexemes("zebra")) is None


def test_a_large_store_not_yet_analysed_still_searches(monkeypatch):
    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    exchanges_bulk(agent, session_create(agent=agent, external_id="c"),
                   [f"Lunch at the market, note {i}." for i in range(6)])
    monkeypatch.setattr(lexical, "EXACT_MAX_ROWS", 4)
    monkeypatch.setattr(lexical, "_table_frequencies", lambda table: None)  # no statistics yet
    visible = Exchange.objects.visible_to(agent_visibility(agent=agent))
    query = lexical.lexical_query(visible, query_lexemes("market lunch"))
    assert query.bounded and {t for t, _ in query.terms} == {"market", "lunch"}
    assert visible.filter(pk__in=query.matching(visible).values("pk")).count() <= lexical.LARGE_STORE_CANDIDATES


def test_a_filter_seen_large_is_not_counted_again_but_a_small_one_always_is(monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    small = agent_create(project_name="hybrid", name="small")
    exchanges_bulk(agent, session_create(agent=agent, external_id="c"),
                   [f"Lunch at the market, note {i}." for i in range(6)])
    exchanges_bulk(small, session_create(agent=small, external_id="s"), ["Lunch at the market."])
    _analyse()
    monkeypatch.setattr(lexical, "EXACT_MAX_ROWS", 4)
    lexemes = query_lexemes("market lunch")

    def counts(visible):
        with CaptureQueriesContext(connection) as captured:
            query = lexical.lexical_query(visible, lexemes)
        return query, sum("COUNT(*)" in q["sql"] for q in captured.captured_queries)

    large = Exchange.objects.visible_to(agent_visibility(agent=agent))
    first, first_counts = counts(large)
    again, again_counts = counts(large)
    assert first.bounded and again.bounded and first_counts == 1 and again_counts == 0
    # another agent's filter is its own entry, and a small one is counted every time (its IDF needs the count)
    few = Exchange.objects.visible_to(agent_visibility(agent=small))
    assert [counts(few)[1] for _ in range(2)] == [1, 1] and not lexical.lexical_query(few, lexemes).bounded


def test_terms_with_quotes_backslashes_or_operators_are_never_parsed_as_operators():
    from memory.search import lexical

    agent = agent_create(project_name="hybrid", name="a")
    row = exchanges_bulk(agent, session_create(agent=agent, external_id="q"), ["A note about lunch."])[0]
    visible = Exchange.objects.visible_to(agent_visibility(agent=agent))
    # Lexemes come from to_tsvector, but nothing in one may end the quoted term or act as a tsquery operator:
    # "!lunch" is the word lunch, not "rows without lunch"; a quote or a backslash is no syntax error.
    for bounded in (True, False):
        query = lexical.LexicalQuery(terms=[("!lunch", 1.0), ("a\\'b", 1.0), ("zebra')", 2.0)], model=Exchange,
                                     bounded=bounded)
        assert set(query.matching(visible).values_list("pk", flat=True)) == {row.pk}
        assert visible.annotate(s=query.score_expression()).get().s == pytest.approx(0.25)
