"""National identifiers with their checksums, passports, health data and dates of birth: a valid value is found, the
same value with a wrong check digit is not, and technical prose full of long numbers stays untouched."""

from __future__ import annotations

import random

import pytest

from bench.canaries import Canaries
from governance.privacy.engine import mask
from governance.privacy.recognizers.national_ids import (
    HealthAndBirthRecognizer,
    NationalIdRecognizer,
    verhoeff_ok,
)

KEY = b"national-ids"
THRESHOLD = 0.4
IDS = NationalIdRecognizer()
HEALTH = HealthAndBirthRecognizer()


def found(text: str) -> list[tuple[str, str]]:
    results = IDS.analyze(text, []) + HEALTH.analyze(text, [])
    return [(r.entity_type, text[r.start : r.end]) for r in results if r.score >= THRESHOLD]


def _wrong_check(value: str) -> str:
    last = value[-1]
    if last.isdigit():
        return value[:-1] + str((int(last) + 1) % 10)
    return value[:-1] + ("A" if last != "A" else "B")


# (entity, generator, how it is written with its cue)
CASES = [
    ("UK_NINO", "uk_nino", "My NI number is {v}."),
    ("DE_TAX_ID", "de_tax_id", "Steuer-ID: {v}"),
    ("FR_NIR", "fr_nir", "numéro de sécurité sociale {v}"),
    ("IN_AADHAAR", "in_aadhaar", "Aadhaar {v}"),
    ("IN_PAN", "in_pan", "PAN card: {v}"),
    ("ES_NIF", "es_dni", "mi DNI es {v}"),
    ("ES_NIF", "es_nie", "NIE {v}"),
    ("BR_CPF", "br_cpf", "CPF {v}"),
    ("BR_CNPJ", "br_cnpj", "CNPJ: {v}"),
    ("SE_PERSONNUMMER", "se_personnummer", "personnummer {v}"),
    ("IT_FISCAL_CODE", "it_codice_fiscale", "codice fiscale {v}"),
    ("NL_BSN", "nl_bsn", "mijn BSN is {v}"),
    ("PL_PESEL", "pl_pesel", "PESEL: {v}"),
]


@pytest.mark.parametrize("entity,gen,template", CASES, ids=[c[1] for c in CASES])
@pytest.mark.parametrize("seed", range(5))
def test_valid_identifiers_after_their_cue(entity, gen, template, seed):
    value = getattr(Canaries(random.Random(seed)), gen)()
    assert (entity, value) in found(template.format(v=value))


@pytest.mark.parametrize("entity,gen,template", [c for c in CASES if c[0] not in ("UK_NINO", "IN_PAN")],
                         ids=[c[1] for c in CASES if c[0] not in ("UK_NINO", "IN_PAN")])
@pytest.mark.parametrize("seed", range(5))
def test_a_wrong_check_digit_is_not_an_identifier(entity, gen, template, seed):
    value = _wrong_check(getattr(Canaries(random.Random(seed)), gen)())
    assert entity not in {e for e, _ in found(template.format(v=value))}


def test_written_shapes_need_no_cue():
    c = Canaries(random.Random(3))
    cpf, aadhaar, pnr = c.br_cpf(), c.in_aadhaar(), c.se_personnummer()
    text = (f"sent {cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]} and {aadhaar[:4]} {aadhaar[4:8]} {aadhaar[8:]} "
            f"and {pnr[:6]}-{pnr[6:]}")
    kinds = {e for e, _ in found(text)}
    assert {"BR_CPF", "IN_AADHAAR", "SE_PERSONNUMMER"} <= kinds


def test_a_bare_number_passing_a_checksum_is_not_enough():
    rng = random.Random(11)
    passing = next(n for n in (str(rng.randrange(2 * 10**11, 10**12)) for _ in range(1000)) if verhoeff_ok(n))
    assert found(f"request 42 took {passing} ns on worker 3") == []


@pytest.mark.parametrize("text", [
    "request took 123456789012 ms on shard 7",
    "commit 4f3a2b1 merged at 2024-01-03 12:00:01",
    "build 12345678901 passed in 311 s",
    "version 1.2.3 released 12/03/2020",
    "ts=1700000000123 id=98765432101 span=0000000000123456",
    "SELECT * FROM orders WHERE id IN (10000000001, 10000000002)",
    "the born-again shell was released on 2023-10-01",
    "the diagnosis of the outage: a full disk on db-2",
    "Diagnose the flaky test with --lf, then rerun",
])
def test_technical_prose_is_not_an_identifier(text):
    assert found(text) == []


@pytest.mark.parametrize("text,value", [
    ("DOB: 12/03/1985", "12/03/1985"),
    ("d.o.b. 1985-03-12", "1985-03-12"),
    ("born 3 March 1985 in a small town", "3 March 1985"),
    ("born on March 3rd, 1985", "March 3rd, 1985"),
    ("geboren am 03.04.1979", "03.04.1979"),
    ("née le 3 mars 1985", "3 mars 1985"),
    ("nacido el 5 de mayo de 1990", "5 de mayo de 1990"),
    ("data di nascita: 12 giugno 1975", "12 giugno 1975"),
    ("data de nascimento 7 de setembro de 1980", "7 de setembro de 1980"),
    ("дата рождения 12 марта 1985", "12 марта 1985"),
    ("urodzony 4 lipca 1970", "4 lipca 1970"),
    ("född 1982-11-30", "1982-11-30"),
    ("出生日期：1990年5月3日", "1990年5月3日"),
    ("12.03.1985 (date of birth)", "12.03.1985"),
])
def test_dates_of_birth_in_many_forms(text, value):
    assert ("DATE_OF_BIRTH", value) in found(text)


def test_a_date_without_a_birth_cue_is_a_date():
    assert found("the release on 3 March 1985 and the meeting on 12/03/2024") == []


def test_passport_medical_record_and_diagnosis():
    text = "Patient MRN 48213377 was diagnosed with type 2 diabetes. Passport number: X12345678."
    kinds = dict((e, v) for e, v in found(text))
    assert kinds["MEDICAL_RECORD"] == "48213377"
    assert kinds["MEDICAL_CONDITION"] == "type 2 diabetes"
    assert kinds["PASSPORT"] == "X12345678"


def test_the_engine_masks_them_with_keyed_placeholders():
    c = Canaries(random.Random(5))
    nino, aadhaar = c.uk_nino(), c.in_aadhaar()
    out = mask(f"NI number {nino}, Aadhaar {aadhaar}, DOB: 01/02/1980", key=KEY)
    for value in (nino, aadhaar, "01/02/1980"):
        assert value not in out.text
    assert {"UK_NINO", "IN_AADHAAR", "DATE_OF_BIRTH"} <= {e.entity_type for e in out.entities}


# ---- issue 29, held back: a BSN in its own grouping, cues after the value, "ID" as a noun -------------------------

def _canary(gen: str, seed: int) -> str:
    return getattr(Canaries(random.Random(seed)), gen)()


@pytest.mark.parametrize("sep", [".", " ", "-"])
@pytest.mark.parametrize("seed", range(3))
def test_a_bsn_in_its_own_grouping_needs_no_cue(sep, seed):
    v = _canary("nl_bsn", seed)
    written = f"{v[:4]}{sep}{v[4:6]}{sep}{v[6:]}"
    assert ("NL_BSN", written) in found(f"put {written} on the envelope")


@pytest.mark.parametrize("text", ["the invoice total was {a}.{b}.{c} rupiah", "moved {a} {b} {c} rows"])
def test_a_bsn_grouped_like_any_large_number_still_needs_a_cue(text):
    v = _canary("nl_bsn", 0)
    assert found(text.format(a=v[:3], b=v[3:6], c=v[6:])) == []


AFTER = [
    ("PL_PESEL", "pl_pesel", "{v} is my PESEL"),
    ("NL_BSN", "nl_bsn", "{v} (BSN), bitte notieren"),
    ("DE_TAX_ID", "de_tax_id", "{v} ist meine Steuer-ID"),
    ("BR_CPF", "br_cpf", "anote {v}, é o CPF dela"),
    ("SE_PERSONNUMMER", "se_personnummer", "{v} är mitt personnummer"),
    ("IN_AADHAAR", "in_aadhaar", "{v} is the Aadhaar on file"),
    # "ID" as a noun of its own, in several languages
    ("PL_PESEL", "pl_pesel", "Bitte unter {v} ablegen, das Formular verlangt die ID."),
    ("NL_BSN", "nl_bsn", "zet {v} op het formulier, ze vragen om je ID"),
    ("PL_PESEL", "pl_pesel", "classez le dossier sous {v} ; le guichet demande l'ID"),
    ("BR_CPF", "br_cpf", "guarde {v}: o banco pede o ID"),
    ("NL_BSN", "nl_bsn", "my ID is {v}"),
]


@pytest.mark.parametrize("entity,gen,template", AFTER, ids=[f"{c[1]}-{i}" for i, c in enumerate(AFTER)])
@pytest.mark.parametrize("seed", range(3))
def test_a_cue_after_the_value_in_its_sentence(entity, gen, template, seed):
    v = _canary(gen, seed)
    assert (entity, v) in found(template.format(v=v))


@pytest.mark.parametrize("template", [
    "the request id {v} timed out",  # a compound: an id of something
    "retrying order id {v} after 3 s",
    "id={v} status=ok",
    '{{"id": {v}, "ok": true}}',
    "user_id {v} was merged",
    "job {v} finished. The ID card photo is in the next ticket",  # the cue is in another sentence
    "{v} rows copied\nPESEL validation is a separate job",  # ... or on another line
])
@pytest.mark.parametrize("gen", ["nl_bsn", "pl_pesel"])
def test_near_misses_of_the_cue_after_stay(template, gen):
    v = _canary(gen, 1)
    assert found(template.format(v=v)) == []
