"""A whole search through the API: the sizes the caller leaves out come from the typed settings."""

import pytest

from memory.tests.factories import at, post_exchanges, post_session

pytestmark = pytest.mark.django_db


def _search(client, holder, **body):
    response = client.post("/api/v1/search", {"query": "What did I cook?", **body}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


def test_k_sub_left_out_is_the_setting(api_client, make_agent, settings):
    holder = make_agent()
    session = post_session(api_client, holder)
    post_exchanges(api_client, holder, session["id"], [
        {"user": f"On day {i} I cooked {dish}", "assistant": "Sounds good.", "occurred_at": at(days=i)}
        for i, dish in enumerate(["risotto", "ramen", "paella", "curry", "lasagne", "tacos", "goulash"])])
    assert settings.RECMEM.search.k_sub > 3
    assert len(_search(api_client, holder)["exchanges"]) == 7  # the default k (10) takes them all

    settings.RECMEM = settings.RECMEM.replace(search__k_sub=3)
    assert len(_search(api_client, holder)["exchanges"]) == 3
    assert len(_search(api_client, holder, k_sub=5)["exchanges"]) == 5  # given: the caller's k wins

    settings.RECMEM = settings.RECMEM.replace(search__k_sub=0)
    assert _search(api_client, holder)["exchanges"] == []


def test_a_query_takes_the_sizes_it_leaves_out_from_the_settings(settings):
    from memory.search.query import SearchQuery

    settings.RECMEM = settings.RECMEM.replace(search__k_sub=4, search__k_epi=2, search__k_sem=7,
                                              search__token_budget=900)
    resolved = SearchQuery(query="q", k_epi=0).resolved()
    assert (resolved.k_sub, resolved.k_epi, resolved.k_sem, resolved.token_budget) == (4, 0, 7, 900)
    assert SearchQuery(query="q", k_sub=1, token_budget=60).resolved().token_budget == 60
