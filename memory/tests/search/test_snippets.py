"""An episode in the context block: its title and the narrative's sentences that name the query's words (a whole
multi-topic narrative took a third of a 600-token block while one sentence held the answer)."""

from __future__ import annotations

import pytest

from agents.services import agent_create
from memory.gateways.embeddings import get_embedder
from memory.models import Episode, EpisodeSource
from memory.search.lexical import query_lexemes
from memory.search.query import SearchQuery
from memory.search.selectors import memory_search
from memory.search.snippets import episode_snippets, narrative_sentences
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create

pytestmark = pytest.mark.django_db

NARRATIVE = (
    "On 2023-05-02, the user finished a pottery class. "
    "Later that day, the user said the kiln was broken again. "
    "On 2023-05-09, the user adopted a puppy named <PERSON_77aa11> from the shelter. "
    "Later that day, the assistant replied: \"That is lovely news!\" "
    "On 2023-05-20, the user ran a 5K charity race in the park. "
    "Later that day, the user booked a trip to the coast."
)


def test_a_sentence_that_continues_a_day_is_given_that_day():
    sentences = [s.text for s in narrative_sentences(NARRATIVE)]
    assert len(sentences) == 6
    assert sentences[1] == "On 2023-05-02, the user said the kiln was broken again."
    assert sentences[5] == "On 2023-05-20, the user booked a trip to the coast."
    assert sentences[3] == 'On 2023-05-09, the assistant replied: "That is lovely news!"'  # its closing quote kept


def test_the_sentences_holding_the_query_words_are_shown_in_order_with_gaps_marked():
    lexemes = query_lexemes("When did the user adopt the puppy, and what race did they run?")
    [shown] = episode_snippets([NARRATIVE], lexemes, 3)
    # stemmed like the full-text half ("adopt" finds "adopted"); "user", in five of the six sentences, tells none apart
    assert shown == ("… On 2023-05-09, the user adopted a puppy named <PERSON_77aa11> from the shelter. … "
                     "On 2023-05-20, the user ran a 5K charity race in the park. …")
    # the kiln, the reply and the trip are not what was asked
    assert "kiln" not in shown and "coast" not in shown


def test_words_come_before_a_name_the_narrative_repeats():
    narrative = ("On 2023-01-02, <PERSON_5b158c>: the user went to the gym. "
                 "On 2023-01-03, <PERSON_5b158c>: the user felt tired. "
                 "On 2023-01-04, the user started a blog about education. "
                 "On 2023-01-05, <PERSON_5b158c>: the user baked bread.")
    [shown] = episode_snippets([narrative], query_lexemes("What does <PERSON_5b158c> blog about?"), 1)
    assert shown == "… On 2023-01-04, the user started a blog about education. …"


def test_a_short_narrative_no_words_or_no_limit_show_the_narrative_whole():
    lexemes = query_lexemes("the puppy")
    assert episode_snippets(["On 2023-05-09, the user adopted a puppy. They walk it daily."], lexemes, 3) == [None]
    assert episode_snippets([NARRATIVE], lexemes, 0) == [None]
    assert episode_snippets([NARRATIVE], [], 3) == [None]
    # matched by meaning only: its first sentence says what it is about
    [shown] = episode_snippets([NARRATIVE], query_lexemes("dog"), 3)
    assert shown == "On 2023-05-02, the user finished a pottery class. …"


def test_the_block_shows_the_episode_by_its_relevant_sentences_and_the_response_keeps_it_whole(settings):
    agent = agent_create(project_name="snippets", name="a")
    session = session_create(agent=agent, external_id="s")
    [exchange] = exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user="We adopted a puppy from the shelter.", assistant="Lovely!")]).exchanges
    embedder = get_embedder()
    episode = Episode.objects.create(
        title="Pottery, a puppy and a race", narrative=NARRATIVE, embedding=embedder.embed_one(NARRATIVE),
        embedding_model=embedder.model_id, started_at=exchange.occurred_at, ended_at=exchange.occurred_at,
        project_id=exchange.project_id, owner_agent_id=exchange.owner_agent_id, module_id=exchange.module_id,
        scope=exchange.scope)
    EpisodeSource.objects.create(episode=episode, exchange=exchange)
    query = SearchQuery(query="When did the user adopt the puppy?", k_sub=1, k_epi=1, k_sem=0, token_budget=2000)
    found = memory_search(agent=agent, query=query)
    assert found.episodes[0].obj.narrative == NARRATIVE  # the response: the whole episode
    [line] = [x for x in found.context.splitlines() if x.startswith("- [episode")]
    assert "Pottery, a puppy and a race: … On 2023-05-09, the user adopted a puppy" in line
    assert "kiln" not in line and "coast" not in line
    settings.RECMEM = settings.RECMEM.replace(search__episode_sentences=0)
    whole = memory_search(agent=agent, query=query)
    assert "kiln" in whole.context and "coast" in whole.context
