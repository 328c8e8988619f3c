"""Round 53: the personal data a new blind leak set (12) found in clear, by family.

A number written a digit at a time or cut by a line break, a number inside a chat link, a messenger's handle, the
person a record, a number or a home belongs to, a name after an apology or thanks, an initial before a surname, a
condition named in a message about someone unwell, and an address whose postcode and city follow the house number
without a comma. Each family has look-alikes a team writes that must stay as they are. The examples are written for
the tests, not copied from the measured sets."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


def masked(text: str) -> str:
    return mask(text, key=KEY).text


@pytest.mark.parametrize(("text", "secret"), [
    # a number written a digit at a time, to slip past a filter or read aloud
    ("my cell is 0 7 1 - 5 5 5 - 0 1 9 3, text first", "5 5 5 - 0 1 9 3"),
    ("call her on 0-6-1-2 3-4-5-6-7-8 after lunch", "3-4-5-6-7-8"),
    # a number a line break cut in two, led by its country code
    ("her number is +44 7700\n900 461, text only", "900 461"),
    # a chat link that dials a number
    ("just use https://wa.me/5511987654321?text=oi", "5511987654321"),
    ("my telegram is t.me/+5511987654321", "5511987654321"),
])
def test_numbers_in_unusual_layouts_are_masked(text, secret):
    out = masked(text)
    assert secret not in out
    assert "<PHONE_NUMBER_" in out


@pytest.mark.parametrize("text", [
    "run the sweep with seeds 1 2 3 4 5 6 7 8 9 tonight",
    "the tag is 2 0 2 4 1 2 0 1 for the release",
    "the config has 10 20 30 40 50 60 70 80 as thresholds",
])
def test_digit_runs_without_a_phone_stay(text):
    assert masked(text) == text


@pytest.mark.parametrize(("text", "handle"), [
    ('{"tel": "+20 10 0123 4567", "tg": "@karim_hassan"}', "karim_hassan"),
    ("DM me on discord, lotte#2231, Slack is muted", "lotte#2231"),
    ("her skype is live:.cid.4b1d2c3e and she is online", "live:.cid.4b1d2c3e"),
    ("his signal is just jonas.88, no phone", "jonas.88"),
])
def test_a_messengers_handle_is_masked(text, handle):
    out = masked(text)
    assert handle not in out
    assert "<PERSON_" in out


@pytest.mark.parametrize("text", [
    "the signal is sent to worker.py when the job ends",
    "the line is 42 in config.yaml",
    "our discord bot posts to #deploys",
])
def test_words_that_name_a_messenger_are_no_handle(text):
    assert masked(text) == text


@pytest.mark.parametrize(("text", "name"), [
    # the holder of a personal record
    ("new starter - Adaeze Okonkwo, DOB 1996-04-11, passport B12345678", "Adaeze Okonkwo"),
    ("refund to IT60X0542811101000000123456 intestato a Giulia Ferraro", "Giulia Ferraro"),
    # reached at a number
    ("reach Kagiso at 082 555 0147 tonight", "Kagiso"),
    # in brackets after a number it owns
    ("the number is 0 8 0 - 4 4 1 2 - 7 7 3 0 (Oluwaseun, lives in Ibadan)", "Oluwaseun"),
    # opening a line before a verb of living or moving
    ("Inês s'ha mudat: Carrer de Mallorca 401, 08013 Barcelona", "Inês"),
    # after an apology or thanks
    ("sorry Kwame, I rebased over your branch", "Kwame"),
    ("dziękuję Agnieszka, poprawka działa", "Agnieszka"),
    # an initial before a surname opening the message
    ("A. Wiśniewski reviewed the migration", "Wiśniewski"),
])
def test_the_owner_of_personal_data_is_masked(text, name):
    out = masked(text)
    assert name not in out
    assert "<PERSON_" in out


@pytest.mark.parametrize("text", [
    "call Redis at 6379 to check the keys",
    "reach Support at 0800 123 456",
    "error 500 on port 8080 (Staging)",
    "the cluster has 3 nodes (Kafka, ZooKeeper) with 128000 partitions",
    "sorry, the build is red again",
    "A. the first option is cheaper",
])
def test_look_alikes_of_owners_stay(text):
    assert "<PERSON_" not in masked(text)


@pytest.mark.parametrize(("text", "condition"), [
    ("out this week, my kid's asthma flared again", "asthma"),
    ("he's adjusting to new ADHD meds, mornings are rough", "ADHD"),
    ("off today, migraine again", "migraine"),
    ("IN HOSPITAL WITH APPENDICITIS, WON'T MAKE THE RELEASE", "APPENDICITIS"),
    ("slow today, depression's been bad this week", "depression"),
])
def test_a_condition_in_a_message_about_someone_unwell_is_masked(text, condition):
    out = masked(text)
    assert condition not in out
    assert "<MEDICAL_CONDITION_" in out


@pytest.mark.parametrize("text", [
    "the market depression hit our sales numbers again",
    "we had bad burnout after the launch",
    "the nostalgia of the old UI is real, I miss it",
    "cancer research dataset loads in 3 minutes",
])
def test_conditions_no_one_has_stay(text):
    assert "<MEDICAL_CONDITION_" not in masked(text)


@pytest.mark.parametrize(("text", "rest"), [
    ("send it to Via Roma 10 20121 Milano MI please", "20121"),
    ("new address Bahnhofstrasse 21 8001 Zürich from May", "8001"),
    ("wohnhaft Hauptstr. 5, 50667 Köln", "50667"),
])
def test_a_postcode_after_the_house_number_is_part_of_the_address(text, rest):
    out = masked(text)
    assert rest not in out
    assert "<LOCATION_" in out
