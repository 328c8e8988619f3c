"""The r18 adversarial set's generator (bench/pii_adversarial_r18.py): no API run here — the cases are built, their ids
are unique and stable, their groups are the suite's, every canary is new and is in its payload (or is the decoded form
the case declares), the check digits follow the formats' own rules, the halves come from the id alone, and the report
names no case."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import date

from bench import canaries as cn
from bench.pii_adversarial import GROUPS
from bench.pii_adversarial_fresh import deep_fold, deep_needle
from bench.pii_adversarial_r18 import (
    format_r18_report,
    generate_r18_cases,
    r18_part,
    select_r18,
    summarise_r18,
)


def _strings(payload) -> list[str]:
    """Every string of a payload, keys included (a canary may be a key)."""
    if isinstance(payload, str):
        return [payload]
    if isinstance(payload, dict):
        return [s for k, v in payload.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(payload, (list, tuple)):
        return [s for item in payload for s in _strings(item)]
    return [json.dumps(payload)]


def test_cases_have_unique_stable_ids_in_the_five_groups():
    cases = generate_r18_cases(random.Random(1))
    again = generate_r18_cases(random.Random(2))
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids))
    assert ids == [c.id for c in again]  # ids name techniques, never values
    assert len(cases) >= 100
    assert set(Counter(c.group for c in cases)) == set(GROUPS)
    assert all(c.id.startswith(f"r18/{c.group}/") for c in cases)
    assert all(re.fullmatch(r"r18/[a-z_]+/[a-z0-9_/]+", c.id) for c in cases)
    values = {v for c in cases for v in c.canaries}
    assert not any(v.lower() in c.id for c in cases for v in values if len(v) >= 6)  # no value in an id
    assert not values & {v for c in again for v in c.canaries}  # fresh canaries per seed


def test_every_canary_is_in_its_payload_or_declared_decoded():
    for seed in (3, 4):
        for case in generate_r18_cases(random.Random(seed)):
            assert case.canaries, case.id
            for value in case.canaries:  # no comma, no long run of symbols: a stored canary is always found
                assert deep_needle(value).search(deep_fold(value)), (case.id, value)
            hay = deep_fold("\n".join(_strings(case.payload)))
            derived = set(case.extra["derived"])
            planted = [v for v in case.canaries if v not in derived]
            assert planted, case.id
            for value in planted:
                assert deep_needle(value).search(hay), (case.id, value)
            for value in derived:  # a decoded form is not in the text as written
                assert not deep_needle(value).search(hay), (case.id, value)


def test_the_halves_come_from_the_id_alone():
    cases = generate_r18_cases(random.Random(5))
    tune, held = select_r18(cases, "r18_tune"), select_r18(cases, "r18_held")
    assert len(tune) + len(held) == len(cases) == len(select_r18(cases, "r18"))
    assert {c.id for c in tune}.isdisjoint(c.id for c in held)
    assert tune and held
    assert all(r18_part(c.id) == "r18_tune" for c in tune)
    assert {c.id for c in tune} == {c.id for c in select_r18(generate_r18_cases(random.Random(6)), "r18_tune")}


def test_check_digits_follow_the_published_examples():
    assert cn.pt_nif_check("12345678") == "9"
    assert cn.pl_nip_check("123456321") == "8"
    assert cn.pl_regon_check("12345678") == "5"
    assert cn.pl_id_card_check("ABA", "00000") == "3"
    assert cn.ro_cnp_check("180010122114") == "4"
    assert cn.bg_egn_check("752316926") == "3"
    assert cn.hr_oib_check("6943515153") == "0"
    assert cn.ee_isikukood_check("3760503029") == "9"
    assert cn.lv_personas_kods_check("1611751999") == "7"
    assert cn.at_svnr_check("123", "010180") == "7"
    assert cn.is_kennitala_check("12017433") == "9"
    assert cn.gb_utr_check("955839661") == "1"
    assert cn.ru_snils_check("112233445") == "95"
    assert cn.ru_inn12_digits("5001007322") == "59"
    assert cn.tw_id_check("A", "12345678") == "9"
    assert cn.uy_ci_check("1234567") == "2"
    assert cn.nz_ird_check("04909185") == "0"
    assert cn.nz_nhi_check("ZZZ", "001") == "6"
    assert cn.hu_taj_check("11111111") == "0"
    assert cn.luhn_check_digit("7992739871") == "3"
    assert cn.jalali(date(2021, 3, 21)) == (1400, 1, 1)
    assert cn.hijri(date(2023, 7, 19)) == (1445, 1, 1)


def test_generated_identifiers_pass_their_checks():
    c = cn.R18Canaries(random.Random(7))

    def digits(v: str) -> str:
        return re.sub(r"\D", "", v)

    for _ in range(30):
        v = c.pt_nif()
        assert cn.pt_nif_check(v[:8]) == v[8]
        v = c.pl_nip()
        assert cn.pl_nip_check(v[:9]) == v[9]
        v = c.pl_regon()
        assert cn.pl_regon_check(v[:8]) == v[8]
        v = c.pl_id_card()
        assert cn.pl_id_card_check(v[:3], v[4:]) == v[3]
        v = c.ro_cnp()
        assert cn.ro_cnp_check(v[:12]) == v[12]
        v = c.bg_egn()
        assert cn.bg_egn_check(v[:9]) == v[9]
        v = c.hr_oib()
        assert cn.hr_oib_check(v[:10]) == v[10]
        assert int(digits(c.cz_rodne_cislo())) % 11 == 0
        v = c.ee_isikukood()
        assert cn.ee_isikukood_check(v[:10]) == v[10]
        v = digits(c.lv_personas_kods())
        assert cn.lv_personas_kods_check(v[:10]) == v[10]
        v = c.hu_taj()
        assert cn.hu_taj_check(v[:8]) == v[8]
        v = digits(c.at_svnr())
        assert cn.at_svnr_check(v[:3], v[4:]) == v[3]
        v = digits(c.is_kennitala())
        assert cn.is_kennitala_check(v[:8]) == v[8]
        v = c.gb_utr()
        assert cn.gb_utr_check(v[1:]) == v[0]
        v = c.gb_chi()
        assert cn.nhs_check(v[:9]) == v[9]
        v = digits(c.ru_snils())
        assert cn.ru_snils_check(v[:9]) == v[9:]
        v = c.ru_inn12()
        assert cn.ru_inn12_digits(v[:10]) == v[10:]
        v = c.th_national_id()
        assert cn.th_id_check(v[:12]) == v[12]
        v = c.tw_national_id()
        assert cn.tw_id_check(v[0], v[1:9]) == v[9]
        assert cn.luhn_ok(digits(c.ae_emirates_id()))
        v = digits(c.ar_cuil())
        assert cn.ar_cuil_check(v[:10]) == v[10]
        assert cn.br_cns_ok(c.br_cns())
        v = c.br_pis()
        assert cn.br_pis_check(v[:10]) == v[10]
        v = c.ec_cedula()
        assert cn.ec_cedula_check(v[:9]) == v[9]
        v = digits(c.uy_ci())
        assert cn.uy_ci_check(v[:7]) == v[7]
        v = c.co_nit_person()
        body, dv = v.split("-")
        assert cn.co_nit_dv(digits(body)) == dv
        v = digits(c.nz_ird()).zfill(9)
        assert cn.nz_ird_check(v[:8]) == v[8]
        v = c.nz_nhi()
        assert cn.nz_nhi_check(v[:3], v[3:6]) == v[6]
        assert cn.luhn_ok(digits(c.ca_ohip()))
        assert cn.us_npi_ok(c.us_npi())
        v = c.us_dea("Kalo")
        assert cn.us_dea_check(v[2:8]) == v[8]
        assert cn.iban_ok(c.iban_of(c.rng.choice(["NL", "FR", "IT", "ES", "BE", "PL", "GB", "PT", "RO", "SE"])))
        for card in (c.card_visa16(), c.card_mastercard5(), c.card_maestro19(), c.card_diners14()):
            assert cn.luhn_ok(card)
        assert cn.hkid_check(c.hk_hkid()[0], c.hk_hkid()[1:7]) in "0123456789A"
        assert cn.luhn_ok(c.za_id())


def test_the_report_counts_by_group_and_names_no_case():
    cases = generate_r18_cases(random.Random(8))
    rows = [{"group": c.group, "leaked": i % 3 == 0, "where": ["dump"] if i % 3 == 0 else [], "error": i == 1}
            for i, c in enumerate(cases)]
    report = summarise_r18(rows, part="r18_tune")
    assert report["cases"] == len(cases) and report["errors"] == 1
    assert report["leaks"] == report["by_place"]["dump"] == sum(r["leaked"] for r in rows)
    assert set(report["by_group"]) == set(GROUPS)
    text = json.dumps(report) + format_r18_report(report)
    assert "r18/" not in text
    assert not any(c.id.split("/", 2)[2] in text for c in cases)
    assert not any(v in text for c in cases for v in c.canaries if len(v) >= 4)
