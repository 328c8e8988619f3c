"""Episodes that stay one situation (merges only ever grow an episode, so it needs a bound): bounded sources and a
coherence check before a merge."""

from __future__ import annotations

import pytest

from agents.services import agent_create
from agents.visibility import ScopeKey
from memory.gateways.embeddings import get_embedder
from memory.models import Episode, EpisodeSource
from memory.services.consolidation import _centroid, _merge_target
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.thresholds import Thresholds

pytestmark = pytest.mark.django_db

MARATHON = ["I signed up for the Berlin marathon in September.", "My marathon training plan has four runs a week.",
            "The long marathon training run went well today.", "I bought new running shoes for the marathon."]
GARDEN = ["We planted tomatoes and basil in the garden.", "The garden hose leaks again, I need a new one.",
          "Slugs ate half of my lettuce in the garden.", "I built a raised bed for the garden."]
# θ_merge below the text similarity of these short texts (0.55): what is tested is the check of the sources.
THRESHOLDS = Thresholds(theta_sim=0.55, theta_count=5, merge=0.53, dedup=0.85)
TOPIC = " ".join(MARATHON)  # the narrative an extractive episode of the marathon would hold
# The new topic, as consolidation sees it: its units' vectors, centred.
NEW = ["Ran 30 km today, the longest marathon training run so far.", "Only six weeks left until the Berlin marathon."]


def _topic_vector(agent):
    session = session_create(agent=agent, external_id="new")
    stored = exchanges_ingest(agent=agent, session=session,
                              items=[ExchangeIn(user=t, assistant="OK.") for t in NEW]).exchanges
    return _centroid([e.embedding for e in stored])


def _episode(agent, sources_texts: list[str], *, narrative: str) -> tuple[Episode, ScopeKey]:
    session = session_create(agent=agent, external_id="s")
    stored = exchanges_ingest(agent=agent, session=session,
                              items=[ExchangeIn(user=t, assistant="OK.") for t in sources_texts]).exchanges
    embedder = get_embedder()
    episode = Episode.objects.create(title="Marathon", narrative=narrative, embedding=embedder.embed_one(narrative),
                                     embedding_model=embedder.model_id, project_id=agent.project_id,
                                     owner_agent_id=agent.pk, scope=stored[0].scope)
    EpisodeSource.objects.bulk_create([EpisodeSource(episode=episode, exchange=e) for e in stored])
    return episode, ScopeKey.of(stored[0])


def test_a_coherent_episode_with_room_takes_the_merge():
    agent = agent_create(project_name="bounds", name="a")
    episode, scope = _episode(agent, MARATHON, narrative=TOPIC)
    thresholds = THRESHOLDS
    found = _merge_target(scope=scope, vector=_topic_vector(agent), thresholds=thresholds)
    assert found is not None and found[0].pk == episode.pk


def test_a_full_episode_takes_no_more_merges(settings):
    agent = agent_create(project_name="bounds", name="a")
    _, scope = _episode(agent, MARATHON, narrative=TOPIC)
    settings.RECMEM = settings.RECMEM.replace(consolidation__episode_max_sources=len(MARATHON))
    thresholds = THRESHOLDS
    assert _merge_target(scope=scope, vector=_topic_vector(agent), thresholds=thresholds) is None


def test_an_episode_whose_sources_are_another_situation_opens_a_new_one():
    # Its text reads like the topic (it absorbed it once), its sources are about the garden: the merge would lump.
    agent = agent_create(project_name="bounds", name="a")
    _, scope = _episode(agent, GARDEN, narrative=TOPIC)
    thresholds = THRESHOLDS
    assert _merge_target(scope=scope, vector=_topic_vector(agent), thresholds=thresholds) is None
