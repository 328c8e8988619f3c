"""The fresh adversarial set's generator (bench/pii_adversarial_fresh.py): no API run here — the cases are built,
their ids are unique and stable, their groups are the suite's, every canary is new and is in its payload (or is the
decoded form the case declares), the check digits follow the formats' own rules, and the report names no case."""

from __future__ import annotations

import json
import random
from collections import Counter

from bench import canaries as cn
from bench.pii_adversarial import GROUPS
from bench.pii_adversarial_fresh import deep_fold, deep_needle, generate_fresh_cases, summarise_fresh


def _text(payload) -> str:
    return payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)


def test_cases_have_unique_stable_ids_in_the_five_groups():
    cases = generate_fresh_cases(random.Random(1))
    again = generate_fresh_cases(random.Random(2))
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids))
    assert ids == [c.id for c in again]  # ids name techniques, never values
    assert 60 <= len(cases) <= 90
    assert set(Counter(c.group for c in cases)) == set(GROUPS)
    assert all(c.id.startswith(f"fresh/{c.group}/") for c in cases)
    assert not {v for c in cases for v in c.canaries} & {v for c in again for v in c.canaries}  # fresh canaries


def test_every_canary_is_in_its_payload_or_declared_decoded():
    for case in generate_fresh_cases(random.Random(3)):
        assert case.canaries, case.id
        hay = deep_fold(_text(case.payload))
        derived = set(case.extra["derived"])
        planted = [v for v in case.canaries if v not in derived]
        assert planted, case.id
        for value in planted:
            assert deep_needle(value).search(hay), (case.id, value)


def test_the_needle_reads_through_layouts_and_leaves_other_numbers_alone():
    email = "kalo.vimar@example.org"
    assert deep_needle(email).search(deep_fold("x" + "".join(chr(0xE0000 + ord(ch)) for ch in email)))
    assert deep_needle("+49 1512 6362055").search(deep_fold("call ④⑨ ①⑤①②-⑥③⑥②⓪⑤⑤"))
    assert deep_needle("4111111111111111").search(deep_fold("4\ufe0f\u20e3111 1111\u2011" "1111 1111"))
    assert not deep_needle("4111111111111111").search(deep_fold("[0.41111111111111111, 0.2]"))
    assert not deep_needle("12345678").search(deep_fold("rows 1234, 5678 and 123456789"))


def test_check_digits_follow_the_published_examples():
    assert cn.hetu_char("131052308") == "T"
    assert cn.no_fnr_digits("150765005") == "65"
    assert cn.dk_cpr_ok("0707614285")
    assert cn.be_nrn_check("850730033", False) == "28"
    assert cn.tr_tckn_digits("100000001") == "46"
    assert cn.cn_id_check("11010519491231002") == "X"
    assert cn.sg_nric_letter("S", "1234567") == "D"
    assert cn.hkid_check("A", "123456") == "3"
    assert cn.curp_check("HEGG560427MVZRRL0") == "4"
    assert cn.cl_rut_dv("12345678") == "5"
    assert cn.au_tfn_ok("123456782")
    assert cn.au_medicare_check("21234567") == "0"
    assert cn.nhs_check("943476591") == "9"
    assert cn.kvnr_check("A", "12345678") == "0"
    assert cn.luhn_ok("8001015009087") and cn.luhn_ok("046454286") and cn.luhn_ok("000000018")
    assert cn.mrz_check("L898902C3") == "6" and cn.mrz_check("740812") == "2"
    c = cn.FreshCanaries(random.Random(4))
    assert cn.iban_ok(c.at_iban()) and cn.iban_ok(c.ch_iban())
    assert cn.b58check_ok(c.bitcoin_wif())
    assert cn.luhn_ok(c.card_of("amex")) and cn.luhn_ok(c.ca_sin().replace(" ", ""))


def test_the_report_counts_by_group_and_names_no_case():
    rows = [{"group": "secrets", "leaked": True, "where": ["dump"], "error": False},
            {"group": "borders", "leaked": False, "where": [], "error": True}]
    report = summarise_fresh(rows)
    assert report["leaks"] == 1 and report["errors"] == 1 and report["by_place"]["dump"] == 1
    assert report["by_group"]["secrets"] == {"cases": 1, "leaks": 1, "errors": 0}
    assert "fresh/" not in json.dumps(report)
