"""Precision on technical text: the technology vocabulary (built from package data), the registry's confidence rule,
the project's allowed terms (service, command, admin; audited), and the decision that cities stay masked."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from agents.services import agent_create
from governance.models import AllowedTerm, AuditEvent, PseudonymEntry
from governance.privacy import vocabulary
from governance.privacy.engine import MaskingPolicy, _candidates, mask, pseudonym, pseudonym_digest
from governance.privacy.recognizers import PersonHeuristicRecognizer
from governance.services.privacy import (
    allowed_term_add,
    allowed_term_remove,
    json_mask,
    privacy_policy_get,
    texts_mask,
)

KEY = b"project-secret-1"

TECHNICAL = [
    "Our Jenkins pipeline pushes to the Redis cache and Kafka lag grows.",
    "Redis, Kafka and Gemini handle the load now.",
    "Jenkins failed again; check the Jenkins job logs.",
    "Edit postgresql.conf and restart the server.",
    "It only runs on Windows and Linux.",
    "We moved to Kafka last year and never looked back.",
    "The CI publishes JSON reports to the Django admin.",
    "Deploy via Ansible to Ubuntu hosts; Grafana shows Prometheus metrics.",
    "Nginx proxies to Gunicorn, which runs the Flask app.",
    "Terraform provisions the Kubernetes cluster before the charts are installed.",
    "Copy settings.yaml next to docker-compose.yml before you run it.",
]


@pytest.mark.parametrize("text", TECHNICAL)
def test_technology_words_are_not_names_or_places(text):
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text", [
    "Lesson: always run database migrations against a copy of production before the release.",
    "- Takeaway: quarantine flaky tests the same day.\nLesson: never deploy on a Friday.",
    "The payments service is written in Go.",
    "We ported the parser to C last year.",
    "Please call me tomorrow about the release.",
])
def test_labels_short_words_and_times_are_not_names_or_places(text):
    """A word opening a line before a colon is a label, a one- or two-letter word outside an address is no place,
    and "call her tomorrow" names a time: the small model's guess alone does not make any of them a pseudonym."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text", [
    "snmpget -v2c -c public host 1.3.6.1.2.1.1.3.0 returns sysUpTime",  # an OID, not two addresses
    "Pin the tool to 4.2.1.7.3 until the fix ships.",
    "git clone git@github.com:acme/payments.git and run make",  # an scp-style remote of the code host
    "Wiz flagged the public S3 bucket acme-assets; move the downloads from S3 to R2.",  # no licence is two letters
    "terraform/modules/vpc/main.tf hardcodes 10.40.0.0/16, which collides with the office VPN range",  # a network
])
def test_technical_identifiers_are_not_personal_data(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize("text", [
    "psql -h db -U postgres -d app",
    "createdb -U postgres -O app appdb",
    "ipmitool -I lanplus -H bmc01 -U admin chassis status",
    "pg_dump -U backup app > app.sql",
])
def test_a_commands_flags_are_no_name_or_group(text):
    """The small model reads "-U" as a group and "db -U postgres -d" as a person: a name never holds a flag."""
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize("text", [
    "git log --author Maria Gonzalez --since 2024-01-01",
    "ssh -l Maria Gonzalez host",
])
def test_a_name_between_a_commands_flags_stays_masked(text):
    assert "Maria Gonzalez" not in mask(text, key=KEY).text


@pytest.mark.parametrize("text,value", [
    ("my home IP is 81.2.69.160, ping it", "81.2.69.160"),
    ("my laptop is 192.168.1.23/24 on the office LAN", "192.168.1.23"),
    ("write to git@example.com: thanks", "git@example.com"),
    ("my licence is S1234567", "S1234567"),
])
def test_the_same_shapes_as_personal_data_stay_masked(text, value):
    assert value not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", ["3060", "seq 3060", "Retry 3060 of the nightly job failed."])
def test_a_bare_number_is_no_place(text):
    """Observed (fault bench): a metadata sequence number 3060 came back as a LOCATION placeholder — the small model
    reads that number as a place, and the registry would re-apply it project-wide. Numbers that carry a person
    (phones, cards, national ids) have recognizers of their own; the model alone never makes a letterless span a
    name, place or group."""
    assert mask(text, key=KEY).text == text


@pytest.mark.django_db
def test_a_number_in_metadata_keeps_its_type():
    agent = agent_create(project_name="numbers", name="a")
    assert json_mask(project=agent.project, values=[{"seq": 3060}]) == [{"seq": 3060}]


@pytest.mark.parametrize(("text", "value"), [
    ("Alice: I moved to Berlin.\nBob: nice, see you there.", "Alice"),  # a transcript's speakers
    ("Ship to: 12 Main Street, Springfield, IL 62701", "Springfield"),
    ("My colleague Jo wrote the Go service.", "Jo"),  # a cue makes a short word a name
])
def test_real_names_and_places_beside_those_shapes_stay_masked(text, value):
    assert value not in mask(text, key=KEY).text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Mr. Jenkins called about the invoice.", "Jenkins"),  # honorific
        ("My colleague Jenkins approved it.", "Jenkins"),  # relation
        ("Hello, my name is Jenkins.", "Jenkins"),  # introduction
        ("Mary Jenkins said the build is green.", "Mary Jenkins"),  # a first word outside the vocabulary
    ],
)
def test_strong_evidence_still_makes_a_vocabulary_word_a_person(text, name):
    result = mask(text, key=KEY)
    assert "Jenkins" not in result.text, result.text
    assert any(e.entity_type == "PERSON" for e in result.entities)


@pytest.mark.parametrize(("text", "word"), [
    ("Play Console rejected the AAB: the new Lottie version is missing the 64-bit native libs", "Lottie"),
    ("Nomad job for the batch exporter is pending because the client nodes lack the docker driver", "Nomad"),
    ("no update, still deep in the Cosmos DB partition key migration", "Cosmos DB"),
])
def test_a_word_before_a_software_artefact_noun_is_a_product(text, word):
    """A capitalised word the model alone takes for a name or place, used as an attribute of a generic artefact noun
    (version, job, DB, migration …), names a product (techchat sentences the model got wrong; no vocabulary entry
    explains them)."""
    assert word in mask(text, key=KEY).text


@pytest.mark.parametrize(("text", "name"), [
    ("Ask Caroline about the version.", "Caroline"),
    ("the John Smith app crashed again", "John Smith"),  # a full name before the noun is the person's
    ("I flew to Berlin last week.", "Berlin"),
    ("Mary Jenkins said the build is green.", "Mary Jenkins"),
])
def test_names_near_artefact_nouns_stay_masked(text, name):
    assert name not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    "the Sydney region (ap-southeast-2) has no GPU capacity",
    "Cloudflare Workers in the Frankfurt colo time out on the KV reads",
    "after the outage our Nuremberg nodes were fine",
    "we moved the project to the Paris data center last year",
    "Azure UK South has no capacity for the VMs, we fall back to West Europe",
    "we moved the Canadian region to the new cluster last night",  # a nationality before the noun: round 36
    "latency to the Australian region is back under 40 ms",
    "the Brazilian mirror of the package registry is stale again",
    "our Irish subnet ran out of IP addresses during the autoscale",
])
def test_where_machines_run_is_not_personal_data(text):
    """A place or a nationality before a noun of where machines run (region, colo, nodes, data center, mirror,
    subnet) or a cloud's region name is a data centre, not where a person is or what a person is."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text, word", [
    ("Canadian customers get billed in CAD, said Maria", "Canadian"),
    ("she is Canadian and moved to Lisbon last year", "Canadian"),
    ("the Irish engineer on the team runs the nodes", "Irish"),
])
def test_a_nationality_said_of_people_stays_masked(text, word):
    assert word not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    "Airflow tasks sit in Queued until the scheduler restarts",  # a state
    "Harbor mirrors the base images, Quay keeps the legacy tags",
    "the g5 quota is gone in eu-west-1, so try Dublin or Frankfurt next week",  # beside a cloud's region id
    "move the bucket to eu-central-1 in Frankfurt before the audit",
    "the old zone in Route 53 still answers for staging",  # a product with its version number
    "Corretto 21 on the agents vs Liberica locally",  # products compared
    "we benchmarked Tokio vs Glommio for the proxy",
    "Podman vs Colima on the M2 laptops",
])
def test_words_states_regions_versions_and_comparisons_are_not_names_or_places(text):
    """Team chat the small model misreads (round 27): a word of prose that names nobody and nowhere in any list
    ("Queued", "Quay"), a city in the sentence of a cloud's region id, a product with a version number and products
    compared with "vs", "versus" or "+"."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text", [
    "latency from Singapore to the Tokyo origin doubled after the peering change",
    "egress costs from Vermont to Ohio are eating the budget",
    "Jakarta requests time out because the nearest region is Singapore",
    "failover from Dublin to Frankfurt took eleven minutes in the game day",  # a weak name guess goes too
    "the nightly job runs at 02:00 Singapore time",
    "set TZ=Europe/Berlin in the container or the cron fires an hour early",
    "the scheduler uses America/Sao_Paulo so the DST change broke it",
    "Kyiv time is UTC+2 in winter, adjust the maintenance window",
    # a country as a market or a jurisdiction of the product, a language as a locale
    "the Brazil storefront needs the CPF field on checkout",
    "the Brazil storefront needs the CPF field; set TZ=America/Sao_Paulo in the job",  # found in `make run`
    "VAT for Norway is calculated wrong in the invoice service",
    "French translations are missing on the settings page",
    "Egypt and Morocco share the Arabic locale",
])
def test_a_place_of_machines_or_clocks_is_not_personal_data(text):
    """A city in a sentence about machines and about nobody names a data centre; a city before "time", a zone id of
    the time-zone database and a UTC offset name a clock (round 34: the team-chat held part's false masks were
    cities more than names)."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text", [
    "Keep it in UTC: so all models stay in UTC and conversion happens only in the BI layer.",
    "we stay in CET for the cron schedules, the DB stays in UTC",
    "the standup is at 10:00 PST, the retro at 18:00 CEST",
    "the team prefers it rewritten as named CTEs, one step per CTE",
    "we keep two APIs, named PRs get merged first",
])
def test_a_zone_abbreviation_or_an_acronym_plural_is_no_place_or_name(text):
    """A time zone's abbreviation of the time-zone database ("stay in UTC" after a place cue) is a clock, and an
    acronym's plural ("named CTEs" after a name cue) is nobody's name (round 44, found in a team's consolidation:
    the registry then masked every later "UTC" and "CTEs" of the project)."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize("text", [
    "the Nairobi office lost internet, the deploy waits",
    "the Boston office moves to the new floor in June",
    "pfSense box in the Leeds office is EOL, replacing with a FortiGate 60F",
    "@channel the Dublin office wifi SSID changed to `CorpNet-5G`, creds in 1Password",
    "Web Vitals INP regression on the Cairo site after we added the Intercom widget",
])
def test_the_organisations_premises_are_not_personal_data(text):
    """A place right before a noun of the organisation's premises (office, site, campus, HQ, warehouse …) in a
    sentence about nobody — "@channel" calls the channel, "in June" is a month — is where the company is (round
    45: the chat sets' place guesses). With a person in the sentence it is where they are (above)."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


def test_a_place_beside_a_zone_abbreviation_stays_masked():
    result = mask("I live in Berlin and we stay in CET", key=KEY)
    assert "Berlin" not in result.text and "CET" in result.text, result.text


@pytest.mark.parametrize(("text", "place"), [
    ("I'm flying to Singapore, latency there is awful", "Singapore"),
    ("Lena's replica in Lisbon is lagging", "Lisbon"),
    ("my timezone is Europe/Berlin so standups at 9 are fine", "Europe/Berlin"),
    ("the Nairobi office lost internet, I wait for the deploy", "Nairobi"),  # round 45: a person, so theirs
    ("Ahmed will be at the Cairo office Monday through Wednesday", "Cairo"),
    ("Omar from the Amman office joins the incident bridge", "Amman"),
    ("@maria the Dublin office wifi changed", "Dublin"),  # a person's handle
    ("our customers in Paris report timeouts on the upload endpoint", "Paris"),
    ("Kenji from the Tokyo team sees latency spikes on the checkout API", "Tokyo"),  # (the team alone: round 56)
    ("America said the deploy is fine", "America"),  # found in `make run`: the model reads no name there at all
    ("I moved to Brazil, so the storefront reviews wait", "Brazil"),
    ("she is a French citizen, the locale does not matter", "French"),
])
def test_a_place_beside_a_person_stays_masked_in_machine_talk(text, place):
    """A personal pronoun, a name of the lexicon, or a word of where people are (office, customer, flying) makes
    the place someone's."""
    result = mask(text, key=KEY)
    assert place not in result.text, result.text


def _model_guess(text: str, word: str, etype: str = "PERSON"):
    from presidio_analyzer import RecognizerResult

    start = text.index(word)
    return RecognizerResult(etype, start, start + len(word), 0.85,
                            recognition_metadata={"recognizer_name": "SpacyRecognizer"})


@pytest.mark.parametrize(("text", "word", "etype", "kept"), [
    # one word between a determiner and a technology noun names a product ...
    ("after the Zitadel switch the tokens expire sooner", "Zitadel", "PERSON", False),
    ("our Kandji profile blocks the USB drives", "Kandji", "PERSON", False),
    # ... but not a name of the lexicon, a possessive or a word before a personal noun
    ("after the Maria switch the tokens expire sooner", "Maria", "PERSON", True),
    ("the Smith family visited the office", "Smith", "PERSON", True),
    ("the Dratchev paper on consensus is worth a read", "Dratchev", "PERSON", True),
    # plain words: "Pending" is no one's name; "Nice", "Grace" and a word after "in" / "near" may be
    ("Pending never clears on its own", "Pending", "PERSON", False),
    ("Bookworm ships OpenSSL 3", "Bookworm", "LOCATION", False),
    ("the build is stuck in Pending", "Pending", "LOCATION", False),  # a state after a verb of waiting (round 29)
    ("we are stuck in Reading until Monday", "Reading", "LOCATION", True),  # a town: no plain word
    ("we had dinner near Quarry last night", "Quarry", "LOCATION", True),
    ("Grace approved the release", "Grace", "PERSON", True),
    ("Nice is lovely in May", "Nice", "LOCATION", True),
    # a region id in another sentence says nothing of this place; a comparison across sentences neither
    ("Greetings from Melbourne! The us-east-1 outage hit us hard.", "Melbourne", "LOCATION", True),
    ("Maria vs Tom in the chess final tonight", "Maria vs Tom", "PERSON", True),
    ("Maria vs Tom in the chess final tonight", "Tom", "PERSON", True),  # a name compared is still a name
    ("It handles slices vs. Call Chen Fischer if it fails.", "Call Chen Fischer", "PERSON", True),
    ("Call Fatima on +44 20 7946 5608 if the deploy fails.", "Fatima", "PERSON", True),
    # a place and a number that is no version (a house number, a street) stays a place
    ("Ship it to Baker Street 221 please", "Baker Street 221", "LOCATION", True),
    ("the old zone in Route 53 still answers", "Route 53", "LOCATION", False),
    # round 29: codenames beside their line, technical slots, words declared to be things
    ("AMD EPYC Milan vs Genoa for the nodes", "Genoa", "PERSON", False),
    ("I am visiting Milan and Genoa in May", "Genoa", "LOCATION", True),  # no product line in the sentence
    ("Jessie moved the Debian Buster boxes to Bookworm", "Jessie", "PERSON", True),
    ("I'm in Genoa for the AMD EPYC Milan launch", "Genoa", "LOCATION", True),
    # a nationality keeps its mask even before a thing: presidio-research labels "an American company" (round 29
    # measured the rule for NRP: unread NRP recall 4/12 -> 1/12)
    ("the Nigerian card processor is down", "Nigerian", "NRP", True),
    ("ask the Oluwaseun team, they own it", "Oluwaseun", "PERSON", True),  # a noun of people after the modifier
    ("the Nigerian developers joined the call", "Nigerian", "NRP", True),
    ("log lines in Kibana", "Kibana", "LOCATION", False),
    ("the team in Lisbon owns it", "Lisbon", "LOCATION", True),
    ("the notes on Chidi are in the wiki", "Chidi", "PERSON", True),  # "on" a person is about her
    ("the build fails on Chidi's machine", "Chidi", "PERSON", True),
    ("Ana is running on Mateus time", "Mateus", "PERSON", True),
    ("Nightingale, Kestrel and Magnolia are sprint names", "Nightingale", "LOCATION", False),
    ("Magnolia is our staging cluster", "Magnolia", "PERSON", False),
    ("Priya and Ana are on the release", "Priya", "PERSON", True),
    ("Priya and Ana are staging releases today", "Priya", "PERSON", True),
    ("Wanjiru and Thabo are the new hires", "Thabo", "PERSON", True),
    ("Wanjiru and Thabo are first names", "Wanjiru", "PERSON", True),
    ("honestly Tunde is a tool", "Tunde", "PERSON", True),  # slang about a person, no thing named
])
def test_the_model_guess_is_kept_only_where_a_person_or_place_may_be(text, word, etype, kept):
    """The round-27 and round-29 rules on the small model's guess alone (the model's reading varies with the
    sentence, so the guess is given): a noun modifier before a technology word, plain words, a cloud's region id in
    the sentence, a product with its version, products compared; a codename of a line the sentence shows, a word in
    a technical slot, words declared to be things."""
    found = _candidates(text, [_model_guess(text, word, etype)], MaskingPolicy.default())
    assert bool(found) == kept, found


@pytest.mark.parametrize(("text", "word", "etype", "kept"), [
    # a major version after a word no list holds as a name, or ending a clause; never a count
    ("the page renders fine in Brave 124 but not elsewhere", "Brave", "PERSON", False),
    ("we pinned the Corretto 21 image for the build", "Corretto", "NRP", False),
    ("Give Tom 3 tickets for the show.", "Tom", "PERSON", True),
    ("Ana flew to Lisbon 3 times this year", "Lisbon", "LOCATION", True),
    # a maker before a model's code, an edition's acronym before a version, a version inside the span
    ("a Kingston DC600M died in the backup box", "Kingston", "PERSON", False),
    ("is Thunderbird ESR 128 still supported?", "Thunderbird", "PERSON", False),
    ("since the Cosmos Serverless v2 switch the bill doubled", "Cosmos Serverless v2", "LOCATION", False),
    # an acronym inside a name of two words; a person's suffix is none
    ("Tidewater HSM partition is full", "Tidewater HSM", "PERSON", False),
    ("Nom: DUPONT Jean, passeport 12AB34567", "DUPONT Jean", "PERSON", True),  # a surname as forms write it
    ("Martin Luther King Jr was quoted in the talk", "Martin Luther King Jr", "PERSON", True),
    # a country or a people's adjective before what a product sells or handles there; a group of people stays
    ("iDEAL fails on the Belgium storefront", "Belgium", "LOCATION", False),
    ("the Austrian payroll group is rejected", "Austrian", "NRP", False),
    ("Stripe rejects the German IBANs", "German", "NRP", False),
    ("a German citizen asked for her data", "German", "NRP", True),
    ("I moved to Belgium last year", "Belgium", "LOCATION", True),
    # a noun that names what follows it; a possessive and a lower-case "project" do not
    ("Sprint Matterhorn retro notes are up", "Matterhorn", "PERSON", False),
    ("Release train Amber ships on Thursday", "Amber", "PERSON", False),
    ("cluster Aurelia shows memory pressure", "Aurelia", "PERSON", False),
    ("the project Amber leads is late", "Amber", "PERSON", True),
    ("You are doing a great job John, keep up the good work!", "John", "PERSON", True),
    ("great campaign Sarah!", "Sarah", "PERSON", True),
    # an edition or kind of product ends the name
    ("Jamf Pro is not pushing the profile", "Jamf Pro", "PERSON", False),
    ("Knox Manage blocks the broker", "Knox", "PERSON", False),
    ("Hartwell Foods saw duplicate invoices", "Hartwell Foods", "PERSON", False),
    ("Rowan is our staging environment for the EU shop", "Rowan", "PERSON", False),
    ("Rowan is our new lead for payments", "Rowan", "PERSON", True),
    # a ticket's key, "Hyper-V", a name with "+" are identifiers
    ("the config lives in OPS-1234", "OPS-1234", "LOCATION", False),
    ("the Hyper-V hosts still run SMBv1", "Hyper-V", "LOCATION", False),
    ("send it to Apt. 5, ALT-DIETMANNS, Austria", "ALT-DIETMANNS", "LOCATION", True),  # a town in capitals
    ("Command R+ for generation", "Command R+", "PERSON", False),
    # a data centre the model's span took with its noun; a city with "DC" stays a place
    ("stick tables full in the Utrecht DC", "the Utrecht DC", "LOCATION", False),
    ("I live in Washington DC now", "Washington DC", "LOCATION", True),
    # the noun modifier before a technology word now holds for places too, not before where people are
    ("Pulsar for the Zambezi event bus", "Zambezi", "LOCATION", False),
    ("see you at the Lisbon office", "Lisbon", "LOCATION", True),
    # products migrated between; how a page behaves in a browser
    ("the Lume → Brunch migration is done", "Lume", "PERSON", False),
    ("checkout fails in Opera only", "Opera", "PERSON", False),
    # an apposition that names a thing; a person's stays
    ("Quinn (the new checkout flow) is live", "Quinn", "PERSON", False),
    ("Quinn, the billing rewrite, slipped", "Quinn", "PERSON", False),
    ("Quinn, the new lead, joined today", "Quinn", "PERSON", True),
    # a name in quotes after a thing that is named; both sides of a comparison in one span
    ("the PDM vault 'Oberon' is slow", "Oberon", "LOCATION", False),
    ("Talkdesk vs Aircall for the support hub", "Talkdesk vs Aircall", "PERSON", False),
    # a time the model took into a name is trimmed, the name kept
    ("22:40 Jonas Berg paged the on-call", "22:40 Jonas Berg", "PERSON", True),
])
def test_round_39_product_market_and_codename_slots(text, word, etype, kept):
    """Round 39's rules on the small model's guess alone: versions and model codes, acronyms and editions in a
    product's name, markets, codenames named by their noun, identifiers, data centres, browsers and migrations."""
    found = _candidates(text, [_model_guess(text, word, etype)], MaskingPolicy.default())
    assert bool(found) == kept, found
    if kept and word.startswith("22:40"):
        assert text[found[0].start:found[0].end] == "Jonas Berg"


@pytest.mark.parametrize(("text", "word", "etype", "kept"), [
    # a technology, or what runs, before "in <place>": machines; a person's thing or a person's noun is not
    ("HAProxy in Montreal returns 502s since the reload", "Montreal", "LOCATION", False),
    ("the Celery worker in Marseille is stuck on the beat lock", "Marseille", "LOCATION", False),
    ("Lena's replica in Lisbon is lagging", "Lisbon", "LOCATION", True),
    ("she is visiting family in Haifa next week", "Haifa", "LOCATION", True),
    ("working from her parents' place in Oaxaca", "Oaxaca", "LOCATION", True),
    # a place the model called a person, before a noun of where machines run
    ("expect a spike on the Chennai shard tonight", "Chennai", "PERSON", False),
    ("Grafana shows the Manila bastion at 90% CPU", "Manila", "LOCATION", False),
    # what only a firm has; a name of any list keeps its own
    ("Vandelay's admin cannot reset the SSO", "Vandelay", "PERSON", False),
    ("Maria's admin rights were revoked", "Maria", "PERSON", True),
    ("Globex Enterprises reported the export bug", "Globex Enterprises", "PERSON", False),
    # a bot named like a person; a person's bot stays theirs
    ("the Agatha deploy bot posted twice", "Agatha", "PERSON", False),
    ("Clementine (our on-call chatbot) is down", "Clementine", "PERSON", False),
    ("Agatha's bot posted twice", "Agatha", "PERSON", True),
    # a holiday; "Doris Day" is a person
    ("no deploys on Thanksgiving Day", "Thanksgiving Day", "PERSON", False),
    ("Doris Day sang it", "Doris Day", "PERSON", True),
    # a date is no place, whoever read it as one
    ("freeze starts Fri 13 Dec 17:00 UTC", "13 Dec 17", "LOCATION", False),
    # one word spelt like no name, doing nothing a person does; a rare name stays, as does a word that acts
    ("Grafterm now ships the logs to Loki", "Grafterm", "PERSON", False),
    ("Gebremedhin is on call this week", "Gebremedhin", "PERSON", True),  # in no list, spelt like a name
    ("Oluwadamilare reviewed the migration", "Oluwadamilare", "PERSON", True),
])
def test_round_40_firms_bots_holidays_dates_and_machine_places(text, word, etype, kept):
    """Round 40's rules on a weak guess: where machines run, firms, bots, holidays, dates, and the name shape."""
    found = _candidates(text, [_model_guess(text, word, etype)], MaskingPolicy.default())
    assert bool(found) == kept, found


@pytest.mark.parametrize(("text", "word", "kept"), [
    # round 45: a noun of trade before it, or what only a customer has after it, makes a word no list holds a firm
    ("Enterprise customer Cyberdyne can't invite users", "Cyberdyne", False),
    ("our vendor Initech sent the new price list", "Initech", False),
    ("the Vandelay account was migrated last night", "Vandelay", False),
    # a name of any list stays a person, a possessive too
    ("customer Maria called about the invoice", "Maria", True),
    ("Maria's account was locked after three tries", "Maria", True),
])
def test_round_45_a_customer_or_a_vendor_is_a_firm(text, word, kept):
    found = _candidates(text, [_model_guess(text, word, "PERSON")], MaskingPolicy.default())
    assert bool(found) == kept, found


def test_the_name_shape_tells_names_from_product_words():
    """A character model of the name lists against the technology and prose words: names of the lists' cultures score
    high even when no list holds them; coined product words score low."""
    for name in ("Gebremedhin", "Oluwadamilare", "Wojciechowska", "Ifeanyichukwu"):  # in no list
        assert vocabulary.name_shape(name) > 0.5, name
    for word in ("Grafterm", "Runbook", "Kubeflow", "Flyway"):
        assert vocabulary.name_shape(word) < 0.05, word
    assert vocabulary.name_shape("Алексей") is None  # another script: no opinion


@pytest.mark.parametrize(("text", "name"), [
    ("@maria can you look at the flaky test?", "maria"),          # a handle led by a name of some list
    ("hey @river the retention change dropped the logs", "river"),
    ("vikram said the crash is gone on his phone", "vikram"),  # a chat line opening with what someone did
    ("ngozi said the test cards work again", "ngozi"),
    ("Sage pushed a hotfix for the recording rule", "Sage"),      # a given name that is a product too
    ("River mentioned the cluster is flapping again", "River"),
    ("Amber and Jasper both approved the chart bump", "Jasper"),
    ("Hope Adeyemi can't log into the dashboard", "Hope Adeyemi"),  # a surname of the lexicon after a name
    ("Anh is on leave, Thao covers the reviews", "Thao"),            # a clause opening with what someone does
    ("oncall: aditya rolled back the release, sneha confirmed the lag recovered", "sneha"),
])
def test_people_in_chat_slots_are_masked(text, name):
    assert name not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    "Kafka broke prod again after the rebalance",   # a technology word that is no given name
    "Jenkins fixed the flaky job after the restart",
    "nmcli --ask dev wifi connect HomeNet",          # "--ask" is a flag, "dev" no one
    "resource class large is enough, xlarge didn't speed up the shards",  # a word no list holds, doing a thing's act
    "@here the deploy is done",
])
def test_products_and_flags_in_those_slots_stay(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize("text", [
    # (a) a codename beside its product line, or among its siblings once the line shows
    "AMD EPYC Milan vs Genoa for the ClickHouse nodes: Genoa gives about 30% more QPS",
    "Debian Bullseye LTS ends in 2026 but Trixie is not released yet, we go to Bookworm now",
    "Debian 13 (Trixie) ships Python 3.13",
    "Jetson Orin Nano for edge inference, JetPack 6 comes with CUDA 12.2",
    "the Monterey Mac mini in the rack is stuck on Xcode 14.2, time to retire it",
    "macOS Ventura moved the toggle",
    "NVIDIA Hopper GPUs are sold out",
    "Intel Sapphire Rapids vs AMD Genoa for the OLAP nodes",
    "Alfred workflow for Jira keys still works on Sonoma",  # what software does on a platform
    # a generation's codename before a chip's model number (round 55)
    "Grace Hopper GH200 eval box arrived, benchmarking next week",
    "Ada Lovelace gen L40S cards are plenty for inference",
    "Blackwell B200 racks land in March",
    # (b) a word in a technical slot: a state, where data is shown, a nationality or a product modifying a thing
    "Prefect flow runs stuck in Pending because the work pool lost its workers after the ECS deploy",
    "Fluent Bit multiline parser splits the Java stack traces into separate log lines in Kibana",
    # (c) words the sentence itself declares to be no one
    "Nightingale, Kestrel and Magnolia are sprint names, not projects, in case the agent asks",
    "Magnolia and Kestrel are sprint names",
])
def test_codenames_technical_slots_and_declared_names_are_not_personal_data(text):
    """Round 29 (issue 29, techchat): families rather than words -- a codename of a product line the sentence shows,
    a capitalised word in a slot only a thing fills (a state, where data is shown, a platform), and a list the
    sentence says names sprints or hosts."""
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize(("text", "name"), [
    ("ask Priya to bump the Kafka client", "Priya"),
    ("@kenji can you check the Debian Trixie image?", "kenji"),
    ("ping Chidi on +234 803 555 0192 if the Nigerian card processor is down", "Chidi"),
    ("I'm in Milan this week", "Milan"),
    ("ask Catalina about the macOS build", "Catalina"),
    ("Milan said the EPYC nodes are fine", "Milan"),
    ("Orin will look at the Jetson board tomorrow", "Orin"),
    ("Jessie moved the Debian Buster boxes to Bookworm", "Jessie"),  # a codename that is a name needs its line beside
    ("Grace said the H100 quota is fine", "Grace"),  # a model number elsewhere in the sentence is no line beside
    ("ask Ada about the L40S order", "Ada"),
    ("I'm in Genoa for the AMD EPYC Milan launch", "Genoa"),  # a place after "in" keeps its mask
    ("Priya and Ana are on the release this week", "Ana"),
    ("Siobhan and Mateus are release captains this sprint", "Mateus"),
    ("the Nigerian developers joined the call", "Nigerian"),  # a nationality of people
    ("our Nigerian colleague fixed the build", "Nigerian"),
    ("the team in Lisbon owns the ingest pipeline", "Lisbon"),
    ("Maria is stuck in Denver because of the snow", "Denver"),  # a town after "stuck in" is where she is
    ("Ana is running on Mateus time", "Mateus"),
])
def test_names_beside_codenames_and_technical_slots_stay_masked(text, name):
    assert name not in mask(text, key=KEY).text


@pytest.mark.parametrize(("text", "name"), [
    ("Grzegorz and I are at the booth all week", "Grzegorz"),
    ("thanks Björn, the panel finally shows p99", "Björn"),
    ("the flag is at 50%, Yusuf watches the error budget", "Yusuf"),
    ("SentinelOne quarantined the jar on Beatriz's laptop", "Beatriz"),
    ("Aylin from the data team needs read access", "Aylin"),
    ("thanks zainab!! the flake was the intercept", "zainab"),  # lower case where a person is addressed
    ("dario pls approve the group PR when you're back", "dario"),
    ("@mei.lin can you send me the crash link?", "mei.lin"),  # a handle with a dot is no file name
    ("Approved by J.-P. Quermadec on behalf of the works council.", "Quermadec"),  # a compound initial leads
])
def test_given_names_the_model_misses_are_masked(text, name):
    result = mask(text, key=KEY)
    assert name not in result.text, result.text
    assert any(e.entity_type == "PERSON" for e in result.entities)


# Round 35: a word that is a product and a given name ("Ray", "Cassandra", "Julia", "Luigi", "Crystal") is a person
# where the sentence has it act as one, and a product elsewhere; a name before a version is a product
@pytest.mark.parametrize(("text", "name"), [
    ("Ray said the GPU nodes are back", "Ray"),
    ("Cassandra asked whether the compaction change can wait until Monday", "Cassandra"),
    ("Julia is on call this week for the data platform", "Julia"),
    ("Luigi and I rewrote the scheduler config together", "Luigi"),
    ("Ping Crystal before merging the proxy change", "Crystal"),
    ("Can Julia approve the precompile cache change?", "Julia"),
    ("me and Ray fixed the flaky suite", "Ray"),
])
def test_a_product_that_is_a_given_name_is_a_person_when_it_acts_as_one(text, name):
    result = mask(text, key=KEY)
    assert name not in result.text, result.text
    assert [e.entity_type for e in result.entities] == ["PERSON"]


@pytest.mark.parametrize("text", [
    "Cassandra compaction is falling behind on the events table",
    "Ray workers run out of memory on the GPU nodes",
    "Julia 1.10 takes ages to precompile the plotting packages",
    "Luigi tasks are stuck in pending since the scheduler restart",
    "We send the logs to Loki and the traces to Tempo",
    "Cassandra works fine with the new driver",  # a product works, joins, handles: no person's act
    "Hugo 0.120 changed how the image processing cache works",  # a given name before its version
    "Upgrade Hugo to v0.121 before the docs deploy",
])
def test_a_product_that_is_a_given_name_stays_a_product_elsewhere(text):
    assert mask(text, key=KEY).text == text


def test_the_name_terms_are_the_terms_that_are_given_names_too():
    assert vocabulary.name_terms_of(["ray", "kafka", "julia"], ["julia", "ray", "maria"]) == ["julia", "ray"]
    assert {"cassandra", "julia", "luigi", "ray"} <= vocabulary.name_term_set()
    assert vocabulary.is_name_term("Julia's") and not vocabulary.is_name_term("Kafka")
    assert vocabulary.name_term_set() <= vocabulary.tech_terms()
    assert not vocabulary.name_term_set() & vocabulary.given_names()  # the lexicon still leaves terms out


@pytest.mark.parametrize("text", ["npm i @types/node and @angular/core", "@platform-team please look",
                                  "the fix is in build.gradle, not in settings.py"])
def test_handles_of_teams_and_packages_and_file_names_stay(text):
    assert mask(text, key=KEY).text == text


def test_a_given_name_after_a_determiner_or_inside_a_place_is_not_a_person():
    text = "the São Paulo region is twice as expensive for egress"  # Paulo is a given name; here a data centre's
    assert mask(text, key=KEY).text == text
    found = []
    PersonHeuristicRecognizer._given_names("the Bruno collection holds the API tests", lambda *a: found.append(a), [],
                                           [])
    assert found == []


@pytest.mark.parametrize("text", ["I flew to Berlin last week.", "Berlin is where the office is.",
                                  "She lives in Paris now.", "I'm in the Berlin office this week.",
                                  "I live in Porto, so the early standup is fine."])
def test_cities_stay_masked_by_default(text):
    """The documented decision (README, privacy): a city says where a person is, so it stays pseudonymised; a
    project that talks about cities as subject matter allows them (allow_term)."""
    result = mask(text, key=KEY)
    assert any(e.entity_type == "LOCATION" for e in result.entities), result.text


def test_an_allowed_term_is_never_a_name_or_place_but_identifiers_still_are():
    policy = MaskingPolicy(mask_entities=MaskingPolicy.default().mask_entities,
                           pseudonymise_entities=MaskingPolicy.default().pseudonymise_entities,
                           never_mask=frozenset({"DATE_TIME"}), phone_region="US",
                           allowed_terms=frozenset({"Berlin"}))
    result = mask("I flew to Berlin; mail berlin@example.com", key=KEY, policy=policy)
    assert result.text.startswith("I flew to Berlin;")
    assert "berlin@example.com" not in result.text


def test_vocabulary_is_built_from_package_data(tmp_path: Path):
    pypi = tmp_path / "pypi.tsv"
    pypi.write_text("name\tversion\tmonth\trank_among_15000_most_downloaded\tsummary\n"
                    "zorblax-client\t1\t2025-01\t10\tA client for Zorblax and Quuxdb\n"
                    "zorblax-tools\t1\t2025-01\t11\tTools for Zorblax clusters\n"
                    "quuxdb\t1\t2025-01\t12\tQuuxdb driver\n"
                    "unranked-zzyzx\t1\t2025-01\t\tnot ranked\n"
                    "berlin-utils\t1\t2025-01\t13\tBerlin helpers\n", encoding="utf-8")
    status = tmp_path / "status"
    status.write_text("Package: quuxdb-server\nDescription: quuxdb server\n\nPackage: libzorblax2\n"
                      "Description: the zorblax library\n", encoding="utf-8")
    built = vocabulary.build(pypi_list=pypi, dpkg_status=status, dpkg_info=tmp_path)
    terms, extensions, common = built.terms, built.extensions, built.common
    assert "zorblax" in terms and "quuxdb" in terms
    assert "zzyzx" not in terms  # unranked rows are not read
    assert "berlin" not in terms  # a city of the time-zone database outweighs one package
    assert "django" in terms  # the installed distributions are read
    assert "py" in extensions
    assert "the" in common


def test_npm_debian_and_a_word_list_widen_the_vocabulary(tmp_path: Path):
    npm = tmp_path / "npm.tsv"
    npm.write_text("name\tversion\tdownloads_a_month\tsummary\n"
                   "@glorbix/core\t1\t500000\tCore of Glorbix apps\n"
                   "glorbix-plugin\t1\t300000\tA plugin for Glorbix\n"
                   "maria-helper\t1\t900000\thelps\n"
                   "maria-utils\t1\t900000\tutilities\n"
                   "rare-zyntrax\t1\t12\tZyntrax rarely used\n"
                   "other-zyntrax\t1\t15\tZyntrax rarely used\n", encoding="utf-8")
    packages = tmp_path / "Packages"
    packages.write_text("Package: vexlor-server\nDescription: Vexlor orchestrator\n\n"
                        "Package: vexlor-agent\nDescription: agent of the Vexlor cluster\n", encoding="utf-8")
    words = tmp_path / "words"
    words.write_text("Maria\nstaging\ngrace\nGrace\n", encoding="utf-8")
    built = vocabulary.build(pypi_list=None, dpkg_status=None, dpkg_info=None, npm_list=npm,
                             debian_packages=packages, word_list=words)
    terms, common = built.terms, built.common
    assert "glorbix" in terms and "vexlor" in terms
    assert "zyntrax" not in terms  # packages nobody downloads are not read
    assert "maria" not in terms  # a proper noun of the word list is never a term through package names
    assert "staging" in common and "grace" in common and "maria" not in common


def test_the_name_lexicon_is_built_from_name_lists_minus_words_and_terms(tmp_path: Path):
    """Given names and surnames of many countries (Faker's lists), never a word of prose ("Will", "Karma") or a
    term of the vocabulary."""
    words = tmp_path / "words"
    words.write_text("karma\nwill\nthe\n", encoding="utf-8")
    built = vocabulary.build(pypi_list=None, dpkg_status=None, dpkg_info=None, word_list=words)
    assert {"yusuf", "grzegorz", "olena"} <= set(built.given_names)
    assert "nowak" in built.surnames
    assert not {"karma", "will", "django"} & set(built.given_names)


def test_the_name_lexicon_holds_cyrillic_and_greek_names_in_latin_letters(tmp_path: Path):
    """Faker lists Russian, Ukrainian and Greek names in their own script; a team chat writes them in Latin letters.
    The build adds their readings (round 42), less the terms, the words of prose, the languages and the places."""
    assert vocabulary.with_latin_readings({"илья", "δήμητρα"}) >= {"илья", "ilya", "δήμητρα", "dimitra"}
    assert "ilya" not in vocabulary.with_latin_readings({"илья"}, {"ilya"})
    built = vocabulary.build(pypi_list=None, dpkg_status=None, dpkg_info=None, word_list=None)
    assert {"ilya", "dimitra", "giorgos", "oleksandr"} <= set(built.given_names)
    assert {"papadopoulou", "shevchenko"} <= set(built.surnames)
    assert not {"georgia", "jordan"} & set(built.given_names)  # countries before names, in either script
    # the committed lexicon holds them (`build_tech_vocabulary --name-readings-only`); not "Georgia"
    assert {"ilya", "dimitra", "giorgos", "oleksandr"} <= vocabulary.given_names()
    assert {"papadopoulou", "shevchenko", "sokolov"} <= vocabulary.surnames()
    assert "georgia" not in vocabulary.given_names()
    assert "ilya" in vocabulary.with_latin_readings({"илья"}, vocabulary.lexicon_exclusions())


@pytest.mark.parametrize(("text", "names"), [
    ("Handover: Reza is on call tonight, escalate Sev1s to him; backup is Ilya Sokolov.", ["Ilya", "Sokolov"]),
    ("Thanks Anastasia! The ClickHouse migration script worked first time. — Giorgos", ["Giorgos"]),
    ("sprint review: Dimitra Papadopoulou demoed the Keycloak realm import", ["Dimitra", "Papadopoulou"]),
    ("Oleksandr Shevchenko owns the billing exporter now", ["Oleksandr", "Shevchenko"]),
])
def test_slavic_and_greek_names_in_latin_letters_are_masked(text, names):
    result = mask(text, key=KEY)
    for name in names:
        assert name not in result.text, result.text


# Round 42: handles inside a model guess the engine refuses, and lower-case names after talking or working with
@pytest.mark.parametrize(("text", "names"), [
    ("cc @wei.zhang @fatima.b — Snowflake credits spiked 3x after the backfill", ["wei.zhang", "fatima.b"]),
    ("talked to rohan, he's working from his parents' place until Monday", ["rohan"]),
    ("paired with tyler on the Playwright flake", ["tyler"]),
    ("jordan and I paired on the Kyverno exception, PR incoming", ["jordan"]),
])
def test_names_in_chat_the_model_hides_or_misses_are_masked(text, names):
    result = mask(text, key=KEY)
    for name in names:
        assert name not in result.text, result.text


@pytest.mark.parametrize("text", ["thanks to caching and redis the p95 dropped", "met with legal about the DPA",
                                  "synced with upstream and rebased", "talked to support, they reopened it"])
def test_those_cues_before_a_word_no_list_holds_as_a_name_mask_nothing(text):
    assert mask(text, key=KEY).entities == []


def test_product_catalogues_add_their_products_but_never_a_name_or_a_place(tmp_path: Path):
    """A curated catalogue (simple-icons' JSON, a CNCF landscape YAML, tldr pages, a plain list) names products no
    package index holds; a word any list holds as a person or a place stays one, whatever product shares it."""
    icons = tmp_path / "simple-icons.json"
    icons.write_text(json.dumps([{"title": "Zorvexa", "hex": "000000"},
                                 {"title": "Hugo", "aliases": {"aka": ["Quandrix Pages"]}},
                                 {"title": "Café Lumora"}]), encoding="utf-8")
    landscape = tmp_path / "landscape.yml"
    landscape.write_text("landscape:\n  - category:\n    name: Security\n    subcategories:\n"
                         "      - subcategory:\n        name: Policy\n        items:\n"
                         "          - item:\n            name: Kyvorna\n            homepage_url: https://k.example\n"
                         "          - item:\n            name: Phoenix\n            homepage_url: https://p.example\n",
                         encoding="utf-8")
    pages = tmp_path / "pages" / "common"
    pages.mkdir(parents=True)
    (pages / "velrox.md").write_text("# velrox\n", encoding="utf-8")
    (tmp_path / "pages" / "linux").mkdir()
    (tmp_path / "pages" / "linux" / "velrox.md").write_text("# velrox\n", encoding="utf-8")
    plain = tmp_path / "names.txt"
    plain.write_text("Morgan Stanley\nGrelbo\n", encoding="utf-8")
    assert list(vocabulary.catalogue_names(tmp_path / "pages")) == ["velrox"]
    assert list(vocabulary.catalogue_names(landscape)) == ["Kyvorna", "Phoenix"]
    assert list(vocabulary.catalogue_names(icons)) == ["Zorvexa", "Hugo", "Quandrix Pages", "Café Lumora"]
    words = tmp_path / "words"
    words.write_text("Morgan\nthe\n", encoding="utf-8")
    built = vocabulary.build(pypi_list=None, dpkg_status=None, dpkg_info=None, word_list=words,
                             catalogues=[icons, landscape, tmp_path / "pages", plain, tmp_path / "missing.json"])
    terms = set(built.terms)
    assert {"zorvexa", "quandrix", "kyvorna", "velrox", "grelbo", "lumora"} <= terms
    assert "caf" not in terms  # whole words only
    # a given name (Faker), a proper noun of the word list, a city: never a term through a catalogue
    assert not {"hugo", "morgan", "stanley", "phoenix"} & terms
    assert "hugo" in built.given_names


def test_the_name_lexicon_reads_every_list_of_faker():
    """Romanised Japanese given names and surnames and the middle-name lists count too (round 34)."""
    given, family = vocabulary.faker_names()
    assert {"akira", "atsushi"} <= given
    assert {"sato", "tanaka"} <= family


def test_plain_words_are_common_words_that_name_nobody_and_nowhere(tmp_path: Path):
    """A common word is plain unless the word list spells it as a proper noun ("Nice"), Faker lists it as a given
    name, surname or place ("Baker", "Rose"), or it is a city of the time-zone database or a country ("Berlin")."""
    words = tmp_path / "words"
    words.write_text("pending\nnice\nNice\nbaker\nrose\nberlin\nquay\n", encoding="utf-8")
    plain = vocabulary.plain_words(["pending", "nice", "baker", "rose", "berlin", "quay"], word_list=words)
    assert plain == ["pending", "quay"]
    assert vocabulary.is_plain_word("Pending") and vocabulary.is_plain_word("Quay,")
    assert not vocabulary.is_plain_word("Grace") and not vocabulary.is_plain_word("Bath")


def test_committed_vocabulary_is_loaded():
    assert {"redis", "kafka", "jenkins", "django", "windows"} <= vocabulary.tech_terms()
    assert "conf" in vocabulary.file_extensions()
    assert vocabulary.is_tech_word("postgresql.conf") and vocabulary.is_tech_word("REDIS")
    assert not vocabulary.is_tech_word("Berlin") and not vocabulary.is_tech_word("Caroline")
    assert vocabulary.is_common_word("Will") and not vocabulary.is_common_word("Caroline")
    assert {"grzegorz", "olena", "yusuf", "aylin"} <= vocabulary.given_names()
    assert not {"will", "grace", "kafka", "berlin"} & vocabulary.given_names()


def test_model_only_guess_on_a_common_word_is_not_confident():
    result = mask("Yesterday Mark pushed the fix.", key=KEY)
    assert [(e.entity_type, e.confident) for e in result.entities] == [("PERSON", False)]
    result = mask("Yesterday Caroline pushed the fix.", key=KEY)
    assert [(e.entity_type, e.confident) for e in result.entities] == [("PERSON", True)]
    result = mask("Mail mark@example.com", key=KEY)
    assert all(e.confident for e in result.entities)


@pytest.mark.django_db
def test_the_registry_reapplies_only_confident_values():
    project = agent_create(project_name="vocab", name="a").project
    key = privacy_policy_get(project=project).pseudonym_key
    texts_mask(project=project, texts=["Yesterday Mark pushed the fix."])
    entry = PseudonymEntry.objects.get(project=project, digest=pseudonym_digest("PERSON", "Mark", key))
    assert entry.confident is False  # registered (its placeholder is accepted back) but not re-applied
    [later] = texts_mask(project=project, texts=["Mark the ticket as done."])
    assert later == "Mark the ticket as done."
    # a legacy entry made from a wrong guess on a technology word is not re-applied either
    PseudonymEntry.objects.create(project=project, entity_type="PERSON", placeholder=pseudonym("PERSON", "Redis", key),
                                  digest=pseudonym_digest("PERSON", "Redis", key), confident=True)
    [tech] = texts_mask(project=project, texts=["Flush Redis before the deploy."])
    assert "Redis" in tech


@pytest.mark.django_db
def test_allowed_terms_service_command_and_audit():
    project = agent_create(project_name="vocab", name="a").project
    [before] = texts_mask(project=project, texts=["I flew to Berlin last week."])
    assert "Berlin" not in before
    allowed_term_add(project=project, term="  BERLIN ", actor_label="test")
    assert list(AllowedTerm.objects.filter(project=project).values_list("term", flat=True)) == ["berlin"]
    [after] = texts_mask(project=project, texts=["I flew to Berlin last week."])
    assert after == "I flew to Berlin last week."
    assert allowed_term_remove(project=project, term="Berlin", actor_label="test")
    assert not allowed_term_remove(project=project, term="Berlin")
    events = list(AuditEvent.objects.filter(project=project, object_type="allowed_term").order_by("seq")
                  .values_list("action", "data"))
    assert events == [("create", {"term": "berlin"}), ("delete", {"term": "berlin"})]

    out = io.StringIO()
    call_command("allow_term", "--project", "vocab", "Acme", "Widget", stdout=out)
    assert AllowedTerm.objects.filter(project=project, term="acme widget").exists()
    call_command("allow_term", "--project", "vocab", "acme widget", "--remove", stdout=out)
    assert not AllowedTerm.objects.filter(project=project).exists()
    assert AuditEvent.objects.filter(project=project, object_type="allowed_term",
                                     actor_label="cli:allow_term").count() == 2


@pytest.mark.django_db
def test_admin_adds_and_deletes_allowed_terms_audited(admin_client):
    project = agent_create(project_name="vocab", name="a").project
    assert admin_client.get("/admin/governance/allowedterm/").status_code == 200
    response = admin_client.post("/admin/governance/allowedterm/add/", {"project": str(project.pk), "term": "Gemini"})
    assert response.status_code == 302, response.content[:500]
    entry = AllowedTerm.objects.get(project=project)
    assert entry.term == "gemini"
    response = admin_client.post(f"/admin/governance/allowedterm/{entry.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not AllowedTerm.objects.exists()
    assert list(AuditEvent.objects.filter(object_type="allowed_term").order_by("seq").values_list("action", flat=True)
                ) == ["create", "delete"]


def test_our_own_distributions_are_no_evidence():
    """RecMem's installed metadata carries the README, whose examples ("@maria", "maria-db") would otherwise turn
    names into words of prose: the build must not depend on our own documentation."""
    prose: Counter = Counter()
    counts, _ = vocabulary._installed_distributions(prose)
    assert counts["recmem"] == 0 and prose["recmem"] == 0  # "recmem" is all over our README and nowhere else
