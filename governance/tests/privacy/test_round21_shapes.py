"""Families found through the r18 tune half (round 21), each tested on values of our own: a Thai word no longer
changes under normalisation, identifiers of Thailand, Colombia, Pakistan and the GB driving licence, a patient's
identifiers and birth date in HL7 and FHIR, credential labels with an encoding suffix or a word before the
separator, a wallet's recovery phrase, the tail of a key split across sessions, a phone number in another country's
national layout."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.normalise import normalise

KEY = b"round21-shapes-key"


def _masked(text: str) -> str:
    return mask(text, key=KEY).text


def test_thai_sara_am_is_kept_by_normalisation():
    """NFKC splits ำ into two characters: every Thai word written with it (ประจำ, จำ, ทำ) stopped matching."""
    text = "เลขประจำตัวประชาชน ทำงาน"
    assert normalise(text).text == text


@pytest.mark.parametrize(("text", "value"), [
    ("เลขประจำตัวประชาชน 1-2345-67890-12-1", "67890"),  # Thai citizen id: cue, layout, mod-11 digit
    ("Thai ID 1-2345-67890-12-1 on the form", "67890"),
    ("Factura a nombre de la empresa, NIT 900.123.456-8", "123.456"),  # Colombia, DIAN check digit
    ("میرا شناختی کارڈ نمبر 42101-1234567-3 ہے", "1234567"),  # Pakistan CNIC after the Urdu cue
    ("CNIC 42101-1234567-3 attached", "1234567"),
    ("Hire car for the trip, driving licence MORGA753116SM9IJ", "MORGA753116SM9IJ"),  # GB licence
])
def test_more_national_identifiers(text, value):
    assert value not in _masked(text)


@pytest.mark.parametrize("text", [
    "The DIAN publishes the tax calendar; NIT registration opens on Monday.",
    "Release 1-2345-67890-12-2 of the firmware",  # a Thai id's layout with a wrong check digit, no cue
    "the build MORGA779999SM9IJ failed",  # no birth date in it (month 79), no cue
    "nit: rename the variable on line 120-1234567-3",
])
def test_identifier_look_alikes_stay(text):
    assert _masked(text) == text


def test_an_hl7_patient_segment_masks_its_identifiers_and_birth_date():
    text = ("MSH|^~\\&|LAB|HOSP|EHR|HOSP|202402011200||ORU^R01|88812|P|2.5\n"
            "PID|1||77123456^^^HOSP^MR||ROE^JANE||19790412|F\nOBX|1|ST|GLU^Glucose||5.4")
    out = _masked(text)
    assert "77123456" not in out and "19790412" not in out
    assert "202402011200" in out and "88812" in out  # the message header's time and control id are no patient data


def test_a_fhir_birth_date_field_is_masked():
    out = _masked('{"resourceType": "Patient", "birthDate": "1961-07-30", "gender": "female"}')
    assert "1961-07-30" not in out and '"gender": "female"' in out


@pytest.mark.parametrize(("text", "value"), [
    ("db_password_hex: 7a3f9c1e5b2d48f6a0c9e7d1b3f5a8c2", "7a3f9c1e5b2d48f6"),
    ("SMTP_PASS_B64=Zm9vYmFyMTIzIUAj", "Zm9vYmFyMTIzIUAj"),
    ("รหัสผ่าน wifi คือ Tq7#mPz2wLx9", "Tq7#mPz2wLx9"),  # a word between the Thai label and its separator
    ("wallet recovery phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
     "absorb abstract"),
    ("...and the key ends Rk82HdmQpLw03NzsYtVb", "Rk82HdmQpLw03NzsYtVb"),  # the head was said in another session
])
def test_more_secret_shapes(text, value):
    assert value not in _masked(text)


@pytest.mark.parametrize("text", [
    "the password value is shown in the docs",
    "We talked about the agent and the actual budget for april and also about the army of ants that act alone today.",
    "The second half of the migration ends with ReindexAllTables2024Job",
])
def test_secret_look_alikes_stay(text):
    assert _masked(text) == text


def test_a_phone_number_in_another_countrys_layout_beside_a_phone_word():
    assert "908123" not in _masked("My dentist is abroad, call her on 07700 908123 before six.")
    assert _masked("Order 01234 567890 shipped") == "Order 01234 567890 shipped"  # no phone word: an order number
