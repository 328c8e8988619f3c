"""A tiny synthetic conversation in the LoCoMo format (same shape and defects as the real file)."""

from __future__ import annotations

import json

import pytest

CONVERSATION = {
    "sample_id": "conv-test",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "9:00 am on 1 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I'm training for the Berlin marathon in September."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Great, what is your marathon training plan?"},
            {"speaker": "Ann", "dia_id": "D1:3", "text": "I run three times a week to prepare for the marathon."},
            {"speaker": "Bob", "dia_id": "D1:4", "text": "Nice marathon training plan."},
            {"speaker": "Ann", "dia_id": "D1:5", "text": "Also, I adopted a cat named Luna."},
        ],
        "session_2_date_time": "10:00 am on 8 May, 2023",
        "session_2": [
            {"speaker": "Bob", "dia_id": "D2:1", "text": "How is the marathon training going?"},
            {"speaker": "Ann", "dia_id": "D2:2", "text": "My marathon training long run was 20 km yesterday."},
            {"speaker": "Bob", "dia_id": "D2:3", "text": "Great marathon training progress."},
            {"speaker": "Ann", "dia_id": "D2:4", "text": "My marathon training shoes are worn out."},
            {"speaker": "Bob", "dia_id": "D2:5", "text": "Buy new shoes for the marathon training."},
        ],
        "session_10_date_time": "11:00 am on 15 May, 2023",
        "session_10": [
            {"speaker": "Ann", "dia_id": "D10:1", "text": "I bought new marathon training shoes.",
             "blip_caption": "a photo of running shoes", "img_url": ["http://example.invalid/x.jpg"]},
            {"speaker": "Bob", "dia_id": "D10:2", "text": "Good luck with the marathon training."},
            {"speaker": "Ann", "dia_id": "D10:3", "text": "The Berlin marathon is on 24 September."},
            {"speaker": "Bob", "dia_id": "D10:4", "text": "Marathon day will be great."},
        ],
        # conv-26 has dates without sessions: they must be ignored
        "session_11_date_time": "11:00 am on 22 May, 2023",
    },
    "qa": [
        {"question": "What race is Ann training for?", "answer": "Berlin marathon", "evidence": ["D1:1"],
         "category": 4},
        {"question": "When is the Berlin marathon?", "answer": "24 September", "evidence": ["D:10:3"],
         "category": 2},
        {"question": "What pet did Ann adopt?", "answer": "a cat named Luna", "evidence": ["D1:05; D9:9"],
         "category": 1},
        {"question": "In which year does Ann run?", "answer": 2023, "evidence": ["D"], "category": 3},
        {"question": "What did Ann buy?", "answer": "new marathon training shoes; because they wore out",
         "evidence": ["D10:1", "D2:4"], "category": 3},
        {"question": "What did Bob adopt?", "adversarial_answer": "a cat", "evidence": ["D1:5"], "category": 5},
    ],
}


@pytest.fixture
def locomo_file(tmp_path):
    path = tmp_path / "locomo_tiny.json"
    path.write_text(json.dumps([CONVERSATION]))
    return path
