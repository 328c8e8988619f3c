"""Round 52: a product whose name some list holds as a person's or a place's, told apart by what the sentence does
with it.

Many tools, codenames and feature branches are named like people or places ("Lottie", "Jasmine", "Mollie",
"Vivaldi", "Rosetta", "Hazel", "Penelope"). The vocabulary leaves such words out (a name of any list stays a name),
so an engineering team's sentence lost its subject: "the Lottie loader", "Shopify + Mollie", "moved from Jasmine to
Vitest", "fails in Vivaldi only", "please don't merge Hazel" were masked. What the sentence does with the word says
it is a thing: a software part named after it (loader, writer, design system, box), a technology word it is set
against or moved to, a platform slot the clause closes on, a verb only code takes (merge, revert, deploy). The same
words doing what people do stay masked. The examples are written for the tests, not copied from the measured sets."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


def masked(text: str) -> str:
    return mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    # a software part named after the word
    "we replaced the Lottie loader with a plain SVG",
    "the Penelope design system has a new colour scale",
    "Jackson deserialisation fails on the new date format",
    "the Kali box needs a bigger disk",
    "our Sienna event bus keeps dropping messages",
    # set against, stacked with or moved to a technology word
    "WooCommerce + Mollie refunds return 422",
    "Jasmine vs Vitest for the new repo?",
    "we moved from Jasmine to Vitest in the spring",
    "we're switching from Mollie to Stripe next quarter",
    # a platform slot that the clause closes on
    "the date picker renders badly in Vivaldi only",
    "the build crashes under Rosetta on the M1 runners",
    # an item of a list of tools, a link of a chain of services
    "supported: Chrome, Edge, Firefox and Safari",
    "start order: Zookeeper → Kafka → Schema Registry → Connect",
    # a festival in a sentence where no one keeps it: a date
    "no schema changes during Diwali peak traffic",
    "no releases during Eid al-Fitr this year",
    # a verb only code takes
    "please don't merge Hazel before the freeze",
    "please revert Hazel before the demo",
    "rebasing Sienna onto main now",
    "deploying Sienna to staging now",
])
def test_a_product_named_like_a_person_or_a_place_is_kept(text):
    out = masked(text)
    assert "<PERSON_" not in out and "<LOCATION_" not in out and "<NRP_" not in out, out


@pytest.mark.parametrize(("text", "name"), [
    # the same words doing what people do
    ("Hazel reviewed the loader change", "Hazel"),
    ("Lottie is on leave, ask Jasmine instead", "Lottie"),
    ("Lottie is on leave, ask Jasmine instead", "Jasmine"),
    ("thanks Sienna for the design system review", "Sienna"),
    ("please ask Hazel to merge it", "Hazel"),
    ("revert Sienna's change please", "Sienna"),
    ("merge request from Hazel is ready", "Hazel"),
    ("I deployed it together with Sienna", "Sienna"),
    ("the app crashes on Oliver's phone", "Oliver"),
    ("running on Mateus time again", "Mateus"),
    ("Maria, Tom and Priya are on call this week", "Tom"),
    # a noun a person is too names no product: a writer, a producer, a handler
    ("Felix, the new producer, joins on Monday", "Felix"),
    ("ask Hana, our technical writer, for the wording", "Hana"),
    ("Maria → Tom → Priya is the review order", "Priya"),
    # a person's move, a move between people, a move to a firm
    ("we moved the ticket from Maria to Tom", "Tom"),
    ("Maria vs Tom in the table-tennis final", "Tom"),
])
def test_the_same_words_doing_what_people_do_stay_masked(text, name):
    out = masked(text)
    assert name not in out, out


@pytest.mark.parametrize(("text", "place"), [
    ("I moved from Lisbon to Berlin last year", "Lisbon"),
    ("Maria moved from Porto to the Kafka team in March", "Porto"),
    ("she moved from Madrid to Docker Inc in 2020", "Madrid"),
    ("Tom and Jasmine moved from Leeds to York", "Leeds"),
])
def test_a_persons_move_keeps_its_places_masked(text, place):
    out = masked(text)
    assert place not in out, out


@pytest.mark.parametrize(("text", "word"), [
    ("I'm fasting for Ramadan this month", "Ramadan"),
    ("we celebrate Diwali with my grandparents", "Diwali"),
])
def test_a_festival_someone_keeps_stays_masked(text, word):
    out = masked(text)
    assert word not in out, out
