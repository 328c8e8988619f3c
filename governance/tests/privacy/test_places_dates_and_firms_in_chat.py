"""Families of false masks in team chat, each with the cases that must stay masked beside it. Round 55's:

* a country, or a group of countries, in a sentence about nobody is a market, a team's or a holiday's country —
  too large a place to point at a person on its own; with a person, a pronoun or a word of a person's travel or home
  in the sentence it stays masked;
* a month's name that is a given name too ("Jan", "May", "June") in a date is the month, a range of weekdays
  ("Tue–Thu") is no name;
* two capitalised words joined by "&" before what only a firm has (or after a noun of trade) are a firm.

And round 56's:

* a city that names the organisation's own premises or units — an office, a site, a warehouse, a team, a desk, a
  meeting room, an environment's location — in a text about nobody is the organisation's place, not a person's;
  the small model's person guess on a whole place name no list holds as a name ("the Kraków office") is a place's;
* the words the place rules read as people's are the ones the masker keeps as people: a product it drops ("the Robin
  app"), a festival ("the Ramadan schedule"), a release that "is live" or a version pinned with "@" name no one;
* a bot named at the start of a message right before "bot" is the bot;
* a firm named after people (two names or more) right before what no person has (its tenant, its security
  questionnaire) is a firm;
* a one-word name given as a codename ("codename for 6.0 is Paris, 6.1 will be Quebec") is the release's;
* a name right before a noun of mathematics is a method's ("Shannon entropy", "Kalman filter"); a word alone in
  backticks beside other code is a tool's; a name before "RFC", "stage" or "flavour" names the document or build;
* a language's name with one of its locale codes in the sentence ("Spanish (es-MX)") or before its writing direction
  ("Arabic RTL") is the software's language; what runs "in us-central1" is a service.
"""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.vocabulary import country_names, place_names

KEY = b"project-secret-1"


def test_the_country_names_come_from_libphonenumber_with_short_forms_and_groups():
    names = country_names()
    assert {"brazil", "united kingdom", "south korea", "japan", "uk", "us", "benelux", "apac"} <= names
    assert "berlin" not in names and "tokyo" not in names  # cities are not countries


def test_place_names_hold_whole_names_of_cities_and_countries():
    names = place_names()
    assert {"rotterdam", "kraków", "são paulo", "ashburn", "jakarta", "new york", "brazil", "uk"} <= names
    assert "redis" not in names and "kubernetes" not in names


# what each family leaves as written: countries of a text about nobody and about work, months and weekdays of a date,
# firms of two names joined by "&"
NOT_PERSONAL = {
    "country": [
        "GROW-88 A/B test: Statsig experiment `pricing_page_teal` vs control, 50/50 in US and Canada",
        "Saffron (search ranking v2) A/B results: +3.1% add-to-cart in Spain, flat in Italy",
        "statuspage updated: degraded performance for Brazil and Mexico card payments via Adyen",
        "TestFlight build 4.2.0 (812) is up, includes the Japan-only PayPay wallet flag",
        "reminder: office closed Monday for the bank holiday in the UK, US offices open",
        "we launched in Germany and Austria last week, conversion is flat",
        "The Netherlands team ships the iDEAL flow on Thursday",
        "Twilio SMS delivery in Brazil degraded per their status page, not us",
        # a date's month and a firm of two names elsewhere in the text are nobody (found with `make run`)
        "Checkout A/B results: +3.1% add-to-cart in Spain, flat in Italy; the freeze runs Jan 3 to Jan 10. "
        "Sterling & Vance renewal is blocked on the SOC 2 report",
    ],
    "date": [
        "Christmas change freeze 18 Dec – 3 Jan, exceptions via CAB",
        "freeze runs Jan 3 to Jan 10, hotfixes only",
        "the Mercado Pago workshop runs Tue–Thu in the big room",
        "support hours are Mon-Fri, weekends go to the pager",
    ],
    "firm": [
        "Johnson & Johnson SSO uses Ping, SAML metadata attached to SUP-3321",
        "Sterling & Vance renewal blocked on the SOC 2 Type II report",
        "our vendor Marks & Spencer wants SSO before the pilot",
    ],
    # round 56
    "organisation": [
    # premises and units (a team is the organisation's unit as its office is: round 56 moved that line)
    "the Tokyo team sees latency spikes on the checkout API",
    "Seattle team owns the recommendations service now, reassigning alerts",
    "Toronto data team wants read access to the `finance_mart` schema",
    "Eid holiday for the Dubai team next week, UAE region changes need someone else to approve",
    "Easter Monday is a holiday for the Dublin office, deploy window shifts to Tuesday",
    "Eid al-Fitr holiday Apr 10 for the Cairo and Istanbul sites",
    "heads up, the Ramadan schedule means Dubai support desk shifts start at 9",
    "Zoom Rooms in the 'Lisbon' meeting room has no audio, the Logitech Rally mic is blinking red",
    "UniFi U6 Enterprise APs in the Lisbon office are dropping 6 GHz clients after the 6.6.55 firmware.",
    "the Boston office moves to the new floor in June, desks assigned via the Robin app",
    # the model's person guess on a place
    "Synology NAS in the Kraków office shows 2 failing disks, TrueNAS migration planned",
    "deploy bot: `payments-gateway@a1f93c2` → production (Ashburn), duration 6m41s, status ✅",
    "Iris (notification fan-out) 3.1.0 is live in us-east-2 and sa-east-1, São Paulo traffic looks normal",
    # machines between places
    "Harbor replication from Frankfurt to the Dublin registry failing with 401",
    # a bot
    "Jarvis bot didn't post the deploy summary to #releases again",
    # a language with its locale code or its writing direction is the software's language
    "Portuguese (pt-BR) copy for the onboarding flow is in review",
    "Typesense returns 0 hits for Turkish dotless ı in the tr-TR storefront",
    "the Hebrew RTL layout breaks the sidebar",
    # a firm named after people, before what no person has
    "our Jaguar Land Rover tenant keeps hitting the export cap",
    "Goldman Sachs security questionnaire is due Monday, 180 questions",
    # a codename given in a sentence about codenames
    "release codename for 7.0 is Lisbon, 7.1 will be Madrid",
    "the project is codenamed Kestrel until launch",
    # a method named after its author, a tool in backticks beside other code, a document, a build stage or flavour
    "Shannon entropy check in the secrets scanner is too noisy on base64 fixtures",
    "Kalman filter smoothing for the GPS pings in the courier app",
    "why does `Jasmine` skip my spec when I use `fdescribe` in a Karma run?",
    "my only blocker on the Lancelot RFC is the missing backfill plan",
    "the pipeline timed out at the Cypress stage again",
    "Bitrise builds for the Mango flavour fail at codesign",
    # a service in a cloud region, load balancers
    "Memorystore in us-central1 has maintenance tonight",
    "Nova and Neutron done, Octavia load balancers next",
    ],
}
# ... and what stays masked beside them: a person, a journey or an address with the country, a name that is a
# country or a month too, two people joined by "&"
STAYS_MASKED = [
    ("I'm flying to Brazil next week", "Brazil"),
    ("Lena moved to Canada in May", "Canada"),
    ("Roya relocates to Canada next month, her laptop ships there", "Canada"),
    ("Trip to Japan next week, back on the 14th", "Japan"),
    ("Hannah is in Leeds for her sister's wedding, UK mobile 07700 900123", "Leeds"),
    ("I moved to Brazil, so the storefront reviews wait", "Brazil"),
    ("We moved here from Norway", "Norway"),  # people who came from somewhere (presidio-research's templates)
    ("The Princess Royal arrived at Hasle this morning from Denmark.", "Denmark"),
    ("Harry Sheppard  515 385 Gemsbok St  Apt. 460  Pietersburg  South Africa 89082", "South Africa"),  # an address
    # the lexicon leaves the names of countries out as places, the dictionary of first names has them ("Jordan is in
    # Lagos …" lost its mask in a first draft)
    ("Georgia will review the PR after lunch", "Georgia"),
    ("Jordan is in Lagos for the fintech summit, their laptop still needs the VPN client", "Jordan"),
    ("India approved the rollout plan this morning", "India"),
    ("Jan said the build is green", "Jan"),
    ("Anna & Ben are pairing on the Kafka fix", "Anna"),
    ("Anna & Ben's PR is green", "Ben"),
    # round 56
    ("Kenji from the Tokyo team sees latency spikes on the checkout API", "Tokyo"),
    ("I'm on the Tokyo team now", "Tokyo"),
    ("I live in Berlin and the Berlin office is nice", "Berlin"),
    ("Anna from the Berlin office asked for access", "Berlin"),
    ("the Berlin office: ping anna@example.com for keys", "Berlin"),
    ("we now live in Lisbon, the Lisbon team is great", "Lisbon"),
    ("Budi Santoso from the Jakarta office asked for Grafana access to the Borealis dashboards", "Jakarta"),
    ("moving to the Berlin office next month", "Berlin"),
    ("Marta is live in Paris tonight, the Paris team watches", "Paris"),
    ("she lives in Porto, the Porto site is close", "Porto"),
    ("Anna's old team in Berlin", "Berlin"),
    ("Tom wrote a bot for the deploy summary", "Tom"),
    ("Ask Maria, the bot is down", "Maria"),
    ("Kraków is lovely this time of year, I'm visiting my family", "Kraków"),
    ("she is a French citizen, the fr-FR locale does not matter", "French"),
    ("the Spanish team ships es-MX next week", "Spanish"),
    ("Maria Lopez's tenant moved out, the lease ends in May", "Maria"),
    ("the codename is Tom, ask Maria for details", "Maria"),
    ("Shannon's filter broke again, ask her", "Shannon"),
    ("thanks `Maria` for the fix", "Maria"),
    ("Maria in us-east-1 is on call", "Maria"),
]


@pytest.mark.parametrize("text", [pytest.param(t, id=f"{family}-{i}") for family, texts in NOT_PERSONAL.items()
                                  for i, t in enumerate(texts)])
def test_a_country_date_firm_or_place_of_the_organisation_is_not_personal_data(text):
    result = mask(text, key=KEY)
    assert result.text == text, result.text


@pytest.mark.parametrize(("text", "word"), STAYS_MASKED)
def test_a_person_beside_them_stays_masked(text, word):
    result = mask(text, key=KEY)
    assert word not in result.text, result.text
