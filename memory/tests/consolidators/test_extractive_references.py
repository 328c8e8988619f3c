"""Statements that read on their own: a subject "it"/"they" becomes what an earlier sentence of the same text named,
one that names nothing stays as said; a "must" that guesses is no rule."""

from __future__ import annotations

import pytest

from memory.consolidators.extractive import ExtractiveConsolidator
from memory.consolidators.extractive.anaphora import reference

from .conftest import make_unit


@pytest.fixture(scope="module")
def extractive() -> ExtractiveConsolidator:
    return ExtractiveConsolidator()


def _candidates(extractive, text: str):
    return extractive.candidates(extractive._parse_units([make_unit("u", 0, text)])[0])


def _statements(extractive, text: str) -> list[str]:
    return [c.statement for c in _candidates(extractive, text)]


def _last_reference(extractive, text: str):
    """The reference of the text's last sentence."""
    return reference(extractive._parse_units([make_unit("u", 0, text)])[0].user_sentences[-1].span)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I just joined a writers group last month. It's unbelievable, such inspirational people who get my writing.",
         "The writers group is unbelievable"),
        ("I went on a mountaineering trip with some workmates. It was great and helped clear my head.",
         "The mountaineering trip"),
        ("My art is about expressing my experience. It's my way of helping people understand the community.",
         "The user's art is the user's way of helping people understand the community."),
        ("Books guide me and motivate me. They're a huge part of my journey and keep me going.",
         "Books are a huge part of the user's journey"),
        ("I'm definitely carrying on volunteering at the youth center. It's an important part of my life now.",
         "is an important part of the user's life now."),
    ],
)
def test_a_subject_pronoun_becomes_what_the_sentence_before_named(extractive, text, expected):
    statements = _statements(extractive, text)
    assert any(expected in s for s in statements), statements
    assert not any(s.startswith(("It ", "It's", "They ", "They're")) for s in statements), statements


@pytest.mark.parametrize(
    "text",
    [
        "A few times. It's one of my favorites!",  # what "it" is was said by the other speaker
        "I make it with almond flour and raspberries. It's my favorite.",  # a chain: "it" was never named
        "My grandma knitted it for me. They say it's the warmest thing I own.",  # "they": no plural named
    ],
)
def test_a_pronoun_that_names_nothing_stays_as_said(extractive, text):
    ref = _last_reference(extractive, text)
    assert ref is None or ref.words is None


@pytest.mark.parametrize(
    "text",
    [
        "I went to a fair to show off my studio, it was both stressful and great!",  # its referent is in the sentence
        "I adopted two cats last year. It's great to have them around when I work from home.",  # "it" anticipates
        "My sister visited us last week. It sounds like she really enjoyed the city.",
    ],
)
def test_a_pronoun_that_is_not_an_anaphor_is_left_alone(extractive, text):
    assert _last_reference(extractive, text) is None


def test_it_never_stands_for_a_person(extractive):
    statements = _statements(extractive, "My grandma gave me this necklace. It's super special to me and reminds "
                                          "me of my roots.")
    assert any(s.startswith("This necklace is super special") for s in statements), statements


@pytest.mark.parametrize(
    "text",
    ["Wow, that must've been breathtaking at the summit!", "It must have felt great to help out at the shelter.",
     "It must feel great to be recognized for your gaming skills."],
)
def test_a_must_that_guesses_is_no_constraint(extractive, text):
    assert all(c.type != "constraint" for c in _candidates(extractive, text))


@pytest.mark.parametrize(
    "text",
    ["Every migration must be reviewed by two people.", "You must be on the VPN to deploy to staging.",
     "Deploys must have passed the smoke tests before noon."],
)
def test_a_must_that_obliges_stays_a_constraint(extractive, text):
    candidates = _candidates(extractive, text)
    assert any(c.type == "constraint" for c in candidates), [(c.type, c.statement) for c in candidates]
