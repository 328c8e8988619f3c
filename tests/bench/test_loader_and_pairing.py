"""The LoCoMo loader (evidence normalisation, unresolvable ids, answers as str) and the turn pairing."""

from __future__ import annotations

import pytest

from bench.locomo import Turn, conversation_exchanges, load_locomo, normalise_evidence, pair_turns

KNOWN = {"D1:3", "D11:26", "D30:5", "D8:6", "D9:17"}


def test_normalise_evidence_recovers_and_drops():
    assert normalise_evidence("D1:3", KNOWN) == (["D1:3"], [])
    assert normalise_evidence("D:11:26", KNOWN) == (["D11:26"], [])
    assert normalise_evidence("D30:05", KNOWN) == (["D30:5"], [])
    assert normalise_evidence("D8:6; D9:17", KNOWN) == (["D8:6", "D9:17"], [])
    assert normalise_evidence("D8:6 D9:17 D9:17", KNOWN) == (["D8:6", "D9:17"], [])
    assert normalise_evidence("D", KNOWN) == ([], ["D"])
    assert normalise_evidence("D4:36", KNOWN) == ([], ["D4:36"])
    assert normalise_evidence(["D1:3", "D2:2"], KNOWN) == (["D1:3"], ["D2:2"])


def test_loader(locomo_file):
    (conv,) = load_locomo(locomo_file)
    assert conv.sample_id == "conv-test" and (conv.speaker_a, conv.speaker_b) == ("Ann", "Bob")
    # numeric session order; the orphan session_11_date_time is ignored
    assert [s.number for s in conv.sessions] == [1, 2, 10]
    assert conv.sessions[0].started_at.isoformat() == "2023-05-01T09:00:00+00:00"
    assert conv.sessions[2].turns[0].text == ("Ann: I bought new marathon training shoes. "
                                              "[shares photo: a photo of running shoes]")
    assert conv.turn_count == 14
    by_question = {q.question: q for q in conv.qa}
    assert by_question["When is the Berlin marathon?"].evidence == ["D10:3"]
    pet = by_question["What pet did Ann adopt?"]
    assert pet.evidence == ["D1:5"] and pet.dropped_evidence == ["D9:9"]
    year = by_question["In which year does Ann run?"]
    assert year.answer == "2023" and isinstance(year.answer, str) and year.evidence == []
    assert by_question["What did Bob adopt?"].answer == "a cat" and by_question["What did Bob adopt?"].category == 5
    assert conv.unresolved_evidence == 2  # "D9:9" and "D"
    assert all(isinstance(q.answer, str) for q in conv.qa)


def test_pairing_keeps_order_roles_and_covers_every_turn_once(locomo_file):
    (conv,) = load_locomo(locomo_file)
    sessions = conversation_exchanges(conv)
    s1, s2, s10 = (exchanges for _, exchanges in sessions)
    assert [e.dia_ids for e in s1] == [("D1:1", "D1:2"), ("D1:3", "D1:4"), ("D1:5",)]
    assert s1[0].user.startswith("Ann: ") and s1[0].assistant.startswith("Bob: ")
    assert s1[2].assistant == ""  # a trailing speaker-A turn stands alone
    assert [e.dia_ids for e in s2] == [("D2:1",), ("D2:2", "D2:3"), ("D2:4", "D2:5")]
    assert s2[0].user == "" and s2[0].assistant.startswith("Bob: ")  # a session opened by speaker B
    assert [e.dia_ids for e in s10] == [("D10:1", "D10:2"), ("D10:3", "D10:4")]
    covered = [d for _, exchanges in sessions for e in exchanges for d in e.dia_ids]
    assert sorted(covered) == sorted(conv.dia_ids()) and len(covered) == len(set(covered))


def test_pair_turns_with_repeated_speaker():
    turns = [Turn("D1:1", "A", "A: one"), Turn("D1:2", "A", "A: two"), Turn("D1:3", "B", "B: three")]
    pairs = pair_turns(turns, speaker_a="A", speaker_b="B")
    assert [p.dia_ids for p in pairs] == [("D1:1",), ("D1:2", "D1:3")]


@pytest.mark.django_db
def test_bench_calibrate_reads_a_locomo_file(tmp_path, monkeypatch, locomo_file):
    """The LoCoMo calibration lives in the bench app (the product's calibrate_thresholds reads the database)."""
    import json
    from io import StringIO

    from django.core.management import call_command

    from testing.embedders import HashingEmbeddingGateway

    # The command takes the configured embedder: the test double is injected in its place.
    monkeypatch.setattr("bench.management.commands.bench_calibrate.get_embedder", HashingEmbeddingGateway)
    out = StringIO()
    call_command("bench_calibrate", str(locomo_file), "--theta-count", "2", "--json", str(tmp_path / "c.json"),
                 stdout=out)
    report = json.loads((tmp_path / "c.json").read_text())
    assert report["source"].startswith("LoCoMo file") and report["units"] > 0
    assert "θ_sim for 75% coverage" in out.getvalue()
