"""Round 40: the families a blind set of personal data from many countries leaked through (phones in their own
country's layout, names cut short, birth dates in tables and other languages, an IBAN before a short word, health
numbers by other names). Every example here is written for its family, none is copied from the set."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.normalise import normalise
from governance.privacy.recognizers import grow_name_span
from governance.privacy.recognizers.national_ids import condition_spans

KEY = b"round-40"


def masked(text: str) -> str:
    return mask(text, key=KEY).text


@pytest.mark.parametrize(("text", "value"), [
    # the international prefix 00 is a "+": a number libphonenumber validates needs no phone word
    ("aus dem Ausland bitte 0033 6 12 34 56 78 wählen", "6 12 34 56 78"),
    ("from abroad it's +353 85 123 4567", "85 123 4567"),
    # a mobile in its own country's grouped layout, in parentheses after a name
    ("Aoife (085 123 4567) will meet the courier", "085 123 4567"),
    # "call me back" / "reach me" in other languages
    ("Può richiamarmi al 347 123 4567 per favore?", "347 123 4567"),
    ("Vous pouvez me joindre au 06 12 34 56 78", "06 12 34 56 78"),
    ("Bitte rufen Sie mich unter 030 12345678 zurück", "030 12345678"),
])
def test_phone_numbers_of_other_countries(text, value):
    assert value not in masked(text)


@pytest.mark.parametrize("text", [
    "order 0042 1337 shipped",                      # an order number after "00" is no valid number
    "the ticket range 0123 456 789 is reserved",    # grouped digits led by 0, valid nowhere as a mobile
])
def test_numbers_that_are_no_phone_stay(text):
    assert masked(text) == text


@pytest.mark.parametrize(("text", "kept"), [
    ("titular: Carmen Ibáñez Ruiz", "titular"),                     # a second surname after the model's span
    ("please invite Maarten van der Heijden to the review", "invite"),  # particles and a given name before
    ("Rajesh Pillai approved the refund", "approved"),                 # a given name no list holds, spelt like one
])
def test_a_name_is_masked_whole(text, kept):
    out = masked(text)
    assert kept in out
    for part in ("Ruiz", "Maarten", "Heijden", "Rajesh", "Pillai"):
        if part in text:
            assert part not in out, out


def test_growing_a_name_stops_at_words_and_greetings():
    text = "Hola Carmen Diaz, thanks Mark Will review it"
    start = text.index("Carmen")
    assert text[slice(*grow_name_span(text, start, start + len("Carmen")))] == "Carmen Diaz"
    text = "Woah Joanna, well done"
    start = text.index("Joanna")
    assert grow_name_span(text, start, start + len("Joanna")) == (start, start + len("Joanna"))


@pytest.mark.parametrize(("text", "value"), [
    ("id;name;birth_date\n7;Ana;1988-03-21\n8;Bo;1990-11-02", "1988-03-21"),   # a table's birth column
    ("id,name,dob\n1,Ana,12/03/1988\n2,Bo,1990-11-02\n", "1990-11-02"),
    ("BEGIN:VCARD\nFN:Ana Lima\nBDAY:1988-03-21\nEND:VCARD", "1988-03-21"),  # a vCard's birthday
    ("<person><fodelsedatum>1979-05-30</fodelsedatum></person>", "1979-05-30"),
    ("Jan Nowak, ur. 3 maja 1979, Kraków", "3 maja 1979"),                    # Polish "ur." (born)
    ("nascido a 2 de março de 1975 no Porto", "2 de março de 1975"),          # Portuguese "born on"
])
def test_dates_of_birth_in_tables_cards_and_other_languages(text, value):
    assert value not in masked(text)


def test_a_table_row_is_no_wrapped_number():
    # a row ending in a date and the next one opening with an id stay two lines (a wrapped phone number is joined)
    assert normalise("id,dob\n1,1991-08-14\n1043,x").text == "id,dob\n1,1991-08-14\n1043,x"
    assert normalise("ligue para (11) 962\n80-3852").text == "ligue para (11) 962 80-3852"


@pytest.mark.parametrize(("text", "value"), [
    ("overmaken naar NL91 ABNA 0417 1643 00 aub", "NL91 ABNA 0417 1643 00"),   # a short word after an IBAN
    ("op rekening BE71 0961 2345 6769 graag", "BE71 0961 2345 6769"),
])
def test_an_iban_before_a_short_word(text, value):
    assert value not in masked(text)


@pytest.mark.parametrize(("text", "value"), [
    ("Versichertennummer der Patientin Eva Maria Roth: K123456789", "K123456789"),  # four words before it
    ("IHI 8003 6012 3456 7890 on the referral", "8003 6012 3456 7890"),
    ("insurer ID Q55012348 for the refill", "Q55012348"),
    ("Patienten-ID 55-1234-9 laut Arztbrief", "55-1234-9"),
])
def test_health_numbers_by_other_names(text, value):
    assert value not in masked(text)


@pytest.mark.parametrize(("text", "values"), [
    ("INSERT INTO staff (id, first_name, last_name) VALUES (7, 'Dara', 'Holloway'), (8, 'Ines', 'Quaresma');",
     ("Dara", "Holloway", "Ines", "Quaresma")),                       # an SQL column list names the columns
    ("id;nachname;vorname\n1;Brandt;Ursula\n2;Kowalczyk;Piotr", ("Brandt", "Ursula", "Kowalczyk", "Piotr")),
])
def test_the_cells_of_a_name_column(text, values):
    out = masked(text)
    assert not any(v in out for v in values), out


def test_a_bare_name_column_is_anythings():
    assert masked("name,price\nWidget,3\nGadget,5") == "name,price\nWidget,3\nGadget,5"


@pytest.mark.parametrize(("text", "value"), [
    ("Referral for Mrs Okafor: suspected atrial fibrillation, please book cardiology", "atrial fibrillation"),
    ("refill of his antiretrovirals for the HIV infection, insurer says ok", "HIV infection"),
    ("she is 30 weeks with gestational diabetes and needs the referral", "gestational diabetes"),
    ("Krankmeldung: er fehlt wegen Burnout-Syndrom, sagt sein Arzt", "Burnout-Syndrom"),
])
def test_a_condition_named_by_its_form_in_a_text_about_care(text, value):
    assert value in [text[s:e] for s, e in condition_spans(text)]
    assert value not in masked(text)


@pytest.mark.parametrize("text", [
    "the malware infection spread through the VPN to the build hosts",
    "not-invented-here syndrome is why the ORM was rewritten",
    "Kafka lag disease again: the cluster is sick after the rebalance",
])
def test_conditions_of_machines_stay(text):
    assert condition_spans(text) == []
    assert masked(text) == text


def test_a_firm_before_in_is_no_machine():
    # "<product> in <place>" is where machines run; a firm's legal form before "in" is where the firm is
    assert "DUNMORE" not in masked("Alvir worked at Healthpocket Inc in DUNMORE for a year")
