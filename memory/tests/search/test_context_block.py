"""The context block: hits chosen across layers by similarity within the token budget, printed layer by layer."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from memory.gateways.tokens import count_tokens
from memory.search.context import context_block
from memory.search.query import Hit, SearchResult

T = datetime(2023, 5, 8, 9, 0, tzinfo=UTC)


def _experience(statement, sim):
    obj = SimpleNamespace(type="fact", statement=statement, valid_from=T, confidence=0.9)
    return Hit(obj=obj, similarity=sim, score=sim)


def _episode(title, narrative, sim):
    return Hit(obj=SimpleNamespace(title=title, narrative=narrative, started_at=T, ended_at=T), similarity=sim,
               score=sim)


def _exchange(user, sim):
    return Hit(obj=SimpleNamespace(occurred_at=T, user_text=user, assistant_text="OK."), similarity=sim, score=sim)


def _result():
    return SearchResult(
        experiences=[_experience("The user lives in Lisbon.", 0.5)],
        episodes=[_episode("Moving house", "On 2023-05-01 the user packed boxes. " * 60, 0.4)],
        exchanges=[_exchange("I adopted a kitten called Ash on 2023-05-07.", 0.8),
                   _exchange("The weather was nice.", 0.2)],
    )


def test_a_long_weak_episode_does_not_crowd_out_the_best_exchange():
    text, used = context_block(_result(), 120)
    assert "kitten called Ash" in text  # the most similar hit is in, although its layer comes last
    assert "Moving house" not in text  # ~500 tokens of a weaker match do not fit
    assert "lives in Lisbon" in text and "weather" in text  # smaller hits still fill what is left
    assert text.index("Known facts") < text.index("Related past exchanges")  # layers keep their order
    assert used <= 120


def test_everything_fits_in_layer_order_and_the_count_is_of_what_is_shown():
    text, used = context_block(_result(), 5000)
    lines = text.splitlines()
    assert lines[0] == "Known facts, preferences and rules:" and "Episodes:" in lines
    assert lines.index("Episodes:") < lines.index("Related past exchanges:")
    exchanges = lines[lines.index("Related past exchanges:") + 1:]
    assert "kitten" in exchanges[0] and "weather" in exchanges[1]  # the search's order inside a layer
    assert used == sum(count_tokens(line) + 1 for line in lines if line)


def test_nothing_fits():
    assert context_block(_result(), 3) == ("", 0)
