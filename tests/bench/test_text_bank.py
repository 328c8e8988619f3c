"""The scale benchmark's text banks: LoCoMo's turns, or every distinct line of the shared datasets (the scale runs'
texts)."""

from __future__ import annotations

import copy
import json

import pytest

from bench.store import TextSource, dataset_lines
from tests.bench.conftest import CONVERSATION


@pytest.fixture
def datasets(tmp_path):
    """A tiny copy of the shared datasets' layout: locomo/, memorybank/, presidio_research/."""
    conversation = copy.deepcopy(CONVERSATION)
    conversation["observation"] = {"session_1_observation": {"Ann": [["Ann is training for a marathon.", "D1:1"]]}}
    conversation["session_summary"] = {"session_1_summary": "Ann and Bob talked about marathon training."}
    conversation["event_summary"] = {"events_session_1": {"Ann": ["Ann adopts a cat."], "date": "1 May, 2023"}}
    conversation["conversation"]["session_2"].append(
        {"speaker": "Ann", "dia_id": "D2:6", "text": "I ran 20 km today. My knees hurt a lot after it. Ok."})
    for name in ("locomo", "memorybank", "presidio_research"):
        (tmp_path / name).mkdir()
    locomo = tmp_path / "locomo" / "locomo_dev.json"
    locomo.write_text(json.dumps([conversation]))
    (tmp_path / "memorybank" / "memory_bank_en.json").write_text(json.dumps({"Emily": {"history": {
        "2023-04-27": [{"query": "I enjoy painting.", "response": "Painting is a lovely hobby."},
                       {"query": "I enjoy painting.", "response": "Any favourite painters?"}]}}}))
    (tmp_path / "presidio_research" / "synth_pii_dev.json").write_text(json.dumps([
        {"full_text": "Call Maria Lopez at 555-0100.", "masked": "Call {{PERSON}} at {{PHONE}}.", "spans": []}]))
    return locomo


def test_the_datasets_bank_holds_every_distinct_line_of_the_three_datasets(datasets):
    turns = TextSource(datasets).turns
    lines = dataset_lines(datasets, turns)
    assert set(turns) <= set(lines)  # every LoCoMo turn, and more
    for line in ("I ran 20 km today.", "My knees hurt a lot after it.",  # sentences of a several-sentence turn
                 "Ann is training for a marathon.", "Ann and Bob talked about marathon training.",
                 "Ann adopts a cat.", "I enjoy painting.", "Any favourite painters?", "Call Maria Lopez at 555-0100."):
        assert line in lines
    assert "Ok." not in lines  # a sentence under 4 words is not a line of its own
    assert len(lines) == len(set(lines))  # "I enjoy painting." twice in MemoryBank: once here
    source = TextSource(datasets, bank="datasets")
    assert source.turns == lines and source.questions == TextSource(datasets).questions
    user, assistant, _ = source.exchange(3)
    assert user in lines and assistant in lines and source.exchange(3) == (user, assistant, source.exchange(3)[2])


def test_a_missing_dataset_or_an_unknown_bank_is_named(datasets):
    (datasets.parent.parent / "presidio_research" / "synth_pii_dev.json").unlink()
    with pytest.raises(ValueError, match="synth_pii_dev.json"):
        TextSource(datasets, bank="datasets")
    with pytest.raises(ValueError, match="unknown text bank 'all'"):
        TextSource(datasets, bank="all")
    assert TextSource(datasets).bank == "locomo-turns"  # LoCoMo alone needs nothing else
