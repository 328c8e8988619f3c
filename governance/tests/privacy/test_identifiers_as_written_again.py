"""Round 45, read on the tune half of the leak set: an identifier written again in another case, a bank's code beside
an account, Mexico's RFC after its cue, a surname that opens place names ("Costa"), and a surname first in capitals
("NGUYEN Thi Lan"). Each with what must stay as it is."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


@pytest.mark.parametrize(("text", "values"), [
    ("the code we filed was bkrpm4827l in lowercase, it should be BKRPM4827L.", ["bkrpm4827l", "BKRPM4827L"]),
    ("IBAN DE89370400440532013000, or as the bank wrote it de89370400440532013000", ["de89370400440532013000"]),
])
def test_a_value_found_once_is_masked_wherever_the_text_repeats_it(text, values):
    masked = mask(text, key=KEY)
    assert all(v not in masked.text for v in values), masked.text
    # one value, one placeholder: the repeat is the same person's number
    assert len({e.placeholder for e in masked.entities}) == 1, masked.entities


@pytest.mark.parametrize(("text", "value"), [
    ("Pay the freelancer invoice to Tom, sort code 40-11-62, acct no 31926819 (HSBC).", "40-11-62"),
    ("BSB 062-000, account 1234 5678 at CommBank", "062-000"),
    ("routing number 021000021 for the wire", "021000021"),
    ("IFSC HDFC0001234 for the NEFT transfer", "HDFC0001234"),
    ("su CURP y el RFC GOML850412K7A. Please attach both to the SAT form.", "GOML850412K7A"),
])
def test_a_bank_code_or_a_tax_id_after_its_cue_is_masked(text, value):
    assert value not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    "the build took 40-11-62 seconds",  # no cue: six digits are anything
    "ticket GOML850412K7A is a test id",  # an RFC's shape without its cue
    "routing number 021000022 is a typo",  # the ABA check fails (other recognizers may still read a number)
    "the RFC 7231 section on caching",  # the cue, but no RFC's shape
])
def test_the_same_shapes_without_their_cue_or_check_are_no_bank_code_or_tax_id(text):
    masked = mask(text, key=KEY)
    assert not any(e.entity_type in ("BANK_CODE", "NATIONAL_ID") for e in masked.entities), masked.text


@pytest.mark.parametrize(("text", "name"), [
    ("Dados para o seguro: Beatriz Costa, nascida em Lisboa.", "Costa"),
    ("Ana Costa called about the invoice.", "Costa"),
    ("Minh Ho joined the standup.", "Ho"),
    ("Training roster (surname first): NGUYEN Thi Lan, TRAN Van Minh.", "NGUYEN"),
    ("KOWALSKA Anna Maria signed the form.", "KOWALSKA"),
])
def test_surnames_that_open_places_and_surnames_first_in_capitals_are_names(text, name):
    assert name not in mask(text, key=KEY).text


@pytest.mark.parametrize(("text", "kept"), [
    ("the AWS Lambda function calls the HTTP Server", ["AWS Lambda", "HTTP Server"]),
    ("BROWN Fox Labs shipped the SDK", ["Labs"]),
    ("LEE Street is closed for the marathon", ["Street"]),
    ("we flew to Costa Rica for the offsite", ["Costa"]),  # a place (masked as one, not as a name)
])
def test_capitals_and_place_words_that_are_no_names_stay_what_they_are(text, kept):
    masked = mask(text, key=KEY)
    assert all(k in masked.text for k in kept) or any(e.entity_type == "LOCATION" for e in masked.entities), \
        masked.text
    assert not any(e.entity_type == "PERSON" for e in masked.entities), masked.entities
