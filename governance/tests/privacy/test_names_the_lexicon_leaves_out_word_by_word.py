"""Round 51: whole names whose words the lexicon leaves out one by one, and the name an e-mail address spells.

East Asian names are made of syllables that are technology or prose words too ("Kim", "Yang", "Kai", "Park", "Lee",
"Tan"), and a given name may be a product ("Sam", "Ray", "Iris", "Sage", "Patience"). The lexicon leaves each such
word out, so "I met Hana Kim yesterday" and "Sam Park joined the team" stayed in clear although the model read them
as people: every word was a technology word, or a technology word beside a word of prose. Now a guess on two or three
title-case words, the first a given name of some list and the last a surname of the lists (`surname_words.txt`:
the surnames that are words too), is a name; a product is not named so ("Echo Dot", "Ray Tune", "Delta Lake").
And a name written beside its owner's e-mail address is masked when the address spells it, word by word or by
initials ("Sunny Park from Acme Retail (sunny.park@…)", "Ayesha Siddiqui — ayesha.s@…"); a team's mailbox names
no one ("Billing — billing@acme.com"). The examples are written for the tests, not copied from the measured sets."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


def masks_names(text: str, *names: str) -> None:
    masked = mask(text, key=KEY).text
    assert "<PERSON_" in masked, masked
    for name in names:
        assert name not in masked.replace("<PERSON_", ""), masked


def names_no_one(text: str) -> None:
    masked = mask(text, key=KEY).text
    assert "<PERSON_" not in masked, masked


@pytest.mark.parametrize(("text", "name"), [
    ("I met Hana Kim yesterday.", "Hana Kim"),
    ("Kai Yang will review the PR.", "Kai Yang"),
    ("Sam Park joined the team.", "Sam Park"),
    ("Ray Kim approved the change.", "Ray Kim"),
    ("ping Iris Yang about the rollout", "Iris Yang"),
    ("Adam Tan from finance asked for the report.", "Adam Tan"),
    ("Kim Yang and Sam Lee are pairing on it.", "Sam Lee"),
    ("Kim Yang and Sam Lee are pairing on it.", "Kim Yang"),
    ("Patience Asante reported the bug.", "Patience Asante"),
    ("Sage Patel approved the budget.", "Sage Patel"),
    ("Sam Page is out today.", "Sam Page"),
    ("Hana Kim presenting at 3pm in room 4", "Hana Kim"),
])
def test_a_given_name_and_a_surname_that_are_words_too_are_masked(text, name):
    masks_names(text, name)


@pytest.mark.parametrize("text", [
    "We moved the Ruby Gems mirror to S3.",
    "Ray Tune runs the sweep on the GPU nodes.",
    "The Julia Lang docs are out of date.",
    "Amazon Echo Dot support was dropped.",
    "Athena Query costs doubled last month.",
    "Hermes Engine crashes on Android 14.",
    "Delta Lake tables are vacuumed nightly.",
    "Sage Maker endpoints are slow.",
    "Jenkins Master node is down again.",
    "Mac Mini runners are offline.",
    "Ray Data pipelines run nightly.",
    "Iris Case management moved to Jira.",
    "Ray workers are working from the new image.",
    "Redis is back after the failover.",
])
def test_products_of_name_words_stay(text):
    names_no_one(text)


@pytest.mark.parametrize(("text", "name"), [
    ("Ticket from Hana Kim, hkim@acme.io, about the SSO loop", "Hana Kim"),
    ("Contact: Sam Park, sam.park@corp.kr, ext 4411", "Sam Park"),
    ("Élodie Martin — emartin@acme.fr — owns the fr-FR strings", "Élodie Martin"),
    ("ping Sunny about it, her address is sunny.l@acme.com", "Sunny"),
    ("Tan Wei Ming — weiming.tan@acme.sg — asked for a refund", "Tan Wei Ming"),
    ("Sunny Park from Acme Retail (sunny.park@acmeretail.kr) wants the fix backported", "Sunny Park"),
])
def test_the_name_an_address_spells_is_masked(text, name):
    masks_names(text, name)


@pytest.mark.parametrize(("text", "kept"), [
    ("Billing — billing@acme.com", "Billing"),
    ("Send it to Support (support@acme.com) by Friday", "Support"),
    ("Acme Security Team — security@acme.com", "Acme Security Team"),
    ("Release Notes — release-notes@acme.io", "Release Notes"),
    ("Grafana alerts go to grafana@acme.io and to Grafana OnCall", "Grafana OnCall"),
])
def test_a_teams_mailbox_names_no_one(text, kept):
    masked = mask(text, key=KEY).text
    assert kept in masked, masked
    assert "<PERSON_" not in masked, masked


@pytest.mark.parametrize(("text", "name"), [
    ("Sunny will be working from Manila until the 14th", "Sunny"),
    ("Julia is relocating to Lisbon next month", "Julia"),
    ("Ray is presenting the benchmark on Friday", "Ray"),
    ("Julia will present the roadmap", "Julia"),
])
def test_a_product_name_doing_what_only_a_person_does_is_a_person(text, name):
    masks_names(text, name)


@pytest.mark.parametrize(("text", "names"), [
    ("ahmed is in Cairo this week visiting family, slow on Slack", ["ahmed"]),
    ("priya is working from home today", ["priya"]),
    ("jamal and tyler are pairing on the flaky checkout test", ["jamal", "tyler"]),
])
def test_a_lower_case_name_opening_a_line_where_a_person_is(text, names):
    masks_names(text, *names)


@pytest.mark.parametrize("text", [
    "nginx is in Docker now",
    "redis is at 90% memory",
    "julia is in Beta for the new release",
])
def test_a_lower_case_tool_where_it_runs_stays(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize(("text", "name"), [
    ("Min-jun Choi will cover the on-call shift.", "Min-jun"),
    ("Seo-yeon Park reviewed the migration.", "Seo-yeon Park"),
    ("Ji-hoon Lee merged the hotfix.", "Ji-hoon"),
    ("Jae-won Kim is the release captain this week.", "Jae-won Kim"),
    ("Kim Min-jun asked for the logs.", "Min-jun"),
    ("Ji-woo is on leave until Monday.", "Ji-woo"),
])
def test_a_korean_given_name_beside_a_surname_or_doing_what_a_person_does(text, name):
    masks_names(text, name)


@pytest.mark.parametrize("text", [
    "The Set-up Kim wrote is fine.",
    "Check-in is on the second floor.",
    "Re-run the job after the Pop-up closes.",
    "Log-in Kim page needs a retry button.",
])
def test_hyphenated_words_spelt_with_korean_syllables_stay(text):
    names_no_one(text)


@pytest.mark.parametrize(("text", "names"), [
    ("Incident commander: Chidi Okafor; comms: Laura Becker; scribe: Ray", ["Ray"]),
    ("DRI: Hana", ["Hana"]),
    ("on-call this week: Iris, backup: Sage", ["Iris", "Sage"]),
    ("assigned to Julia", ["Julia"]),
    ("attendees: Sam, Ray and Priya.", ["Sam", "Ray", "Priya"]),
    ("Call notes — our side: Raj; their side: Tomás Ferreira", ["Raj"]),
])
def test_the_holders_of_a_role_only_a_person_holds(text, names):
    masks_names(text, *names)


@pytest.mark.parametrize("text", [
    "owner: Redis cluster team",
    "reviewer: @backend-leads",
    "DRI: SRE",
    "assigned to Renovate",
    "on-call: PagerDuty rotation",
    "reviewers: Platform, Security",
    "backup: Velero nightly",
])
def test_a_role_a_team_or_a_tool_holds_names_no_one(text):
    names_no_one(text)


@pytest.mark.parametrize(("text", "name"), [
    ("Morning Sam! the deploy is green", "Sam"),
    ("Cheers Ray, that fixed it", "Ray"),
    ("gm Kai, standup in 5", "Kai"),
    ("Welcome Sage, glad to have you", "Sage"),
    ("congrats Iris on the promotion!", "Iris"),
    ("good luck Ray with the migration", "Ray"),
    ("happy birthday Hana 🎉", "Hana"),
    ("shoutout to Sunny for the quick fix", "Sunny"),
    ("Ray's laptop died during the demo", "Ray"),
    ("thanks!\n— Sam", "Sam"),
    ("Ship it.\n\n-- Kai\n", "Kai"),
])
def test_a_product_name_greeted_owning_or_signing_is_a_person(text, name):
    masks_names(text, name)


@pytest.mark.parametrize("text", [
    "Good morning team",
    "Morning standup moved to 10:00",
    "Welcome Redis 7 to the fleet",
    "Thanks Kubernetes for nothing",
    "Ray's scheduler is faster now",
    "Julia's type system is great",
    "- Redis\n- Sage",
    "deps:\n- Ruby",
])
def test_greetings_lists_and_products_own_things_stay(text):
    names_no_one(text)


@pytest.mark.parametrize(("text", "name"), [
    ("1:1 with Sam at 3pm", "Sam"),
    ("pairing with Kai on the flaky test", "Kai"),
    ("meeting with Hana tomorrow about the roadmap", "Hana"),
    ("lunch with Iris on Friday", "Iris"),
    ("reviewed by Julia yesterday", "Julia"),
    ("thanks sam!", "sam"),
    ("hi kai, the build is red", "kai"),
])
def test_a_product_name_met_reviewing_or_thanked_is_a_person(text, name):
    masks_names(text, name)


@pytest.mark.parametrize("text", [
    "powered by Ray under the hood",
    "integrate with Ray for the training jobs",
    "cc dev team on this",
    "thanks page for loading",
])
def test_a_product_integrated_or_a_lower_case_word_stays(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize(("text", "name"), [
    ("Sam (they/them) is leading the retro", "Sam"),
    ("Ray (he/him) owns billing", "Ray"),
    ("Oluwadamilare (he/him) is leading the retro", "Oluwadamilare"),
    ("Sam joined #incidents", "Sam"),
    ("Kai reacted with :+1:", "Kai"),
    ("Sam set the channel topic: deploy freeze", "Sam"),
    ("Iris accepted: Weekly sync", "Iris"),
    ("added by Ray", "Ray"),
])
def test_the_pronouns_a_person_gives_and_what_a_chat_writes_of_its_users(text, name):
    masks_names(text, name)


@pytest.mark.parametrize("text", [
    "Dependabot joined #deps",
    "Jenkins reacted with :x:",
    "PagerDuty set the channel topic: SEV2 open",
    "Zoom accepted: Weekly sync",
    "Ruby (v3.3) is the default now",
])
def test_bots_and_products_in_a_chats_system_lines_stay(text):
    names_no_one(text)


@pytest.mark.parametrize(("text", "name"), [
    ("Kim's mobile is 010-1234-5678", "Kim"),
    ("Hana's home address is on the HR sheet", "Hana"),
    ("text Sam at (415) 555-0132 when it is done", "Sam"),
])
def test_a_name_whose_personal_data_is_given_is_a_person(text, name):
    masks_names(text, name)


@pytest.mark.parametrize(("text", "plate"), [
    ("her plate is AB12 CDE, parked in bay 4", "AB12 CDE"),
    ("Kennzeichen B-MW 1234 steht im Hof", "B-MW 1234"),
    ("immatriculation AB-123-CD pour le parking", "AB-123-CD"),
    ("license plate 7ABC123 was towed", "7ABC123"),
    ("his car reg is WN67 DFO", "WN67 DFO"),
    ("number plate: KA 01 AB 1234", "KA 01 AB 1234"),
])
def test_a_vehicle_registration_after_its_cue_is_masked(text, plate):
    masked = mask(text, key=KEY).text
    assert plate not in masked and "<VEHICLE_REGISTRATION_" in masked, masked


@pytest.mark.parametrize("text", [
    "the plate of the heat exchanger is rated 120 C",
    "registration number 12345 for the conference",
    "registration is open until May 3",
    "bump the number plate widget to v2 in the app",
])
def test_plates_and_registrations_that_are_no_vehicles_stay(text):
    assert "<VEHICLE_REGISTRATION_" not in mask(text, key=KEY).text
