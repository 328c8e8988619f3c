"""Our own evasion cases by technique family (:mod:`.evasion_families`): nothing readable after masking."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

from .evasion_families import FAMILIES, leaked

KEY = b"evasion-families-key"

CASES = [pytest.param(text, needles, id=f"{group}/{case_id}")
         for group, cases in FAMILIES.items() for case_id, text, needles in cases]


@pytest.mark.parametrize("text,needles", CASES)
def test_no_value_survives_masking(text, needles):
    masked = mask(text, key=KEY).text
    assert not leaked(masked, needles), masked


@pytest.mark.parametrize("text", [
    "set width=400.5 and height=40.25 in the config",  # quoted-printable is read only where it makes an address
    "x=40\ny=41",
    "look at the data point ranges before the release",  # words for "." and "@" only in an address shape
    "the meeting at noon punto final",
    "他一共买了一百二十三本书。",  # numerals that count, not digits dictated one by one
    "Faktura 123-456-32-19 wysłana",  # a NIP layout whose check digit is wrong
    "order 99038744170 shipped",  # eleven digits, no cue, no layout of an identifier
    "ticket 1234 567890 closed",
    "printf '\\101\\102' prints AB",
])
def test_reading_through_evasions_does_not_invent_values(text):
    res = mask(text, key=KEY)
    assert not [e for e in res.entities if e.entity_type not in ("PERSON", "LOCATION", "NRP", "DATE_TIME")], res
