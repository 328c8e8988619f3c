"""Round 49: Presidio gathers the recognizers of a request in a set of objects, so which of two equal findings (the
same span, type and score from a cue and from the English model) survived its de-duplication changed from process to
process — a text masked differently in two workers, and an adversarial case leaked in one run of ten. The
registry now hands the recognizers over in registration order, the model last."""

from __future__ import annotations

import os
import subprocess
import sys

from governance.privacy.engine import get_analyzer, mask

KEY = b"k"


def test_the_recognizers_come_in_registration_order_the_model_last():
    registry = get_analyzer().registry
    first = registry.get_recognizers(language="en", entities=["PERSON", "LOCATION", "EMAIL_ADDRESS"])
    again = registry.get_recognizers(language="en", entities=["EMAIL_ADDRESS", "LOCATION", "PERSON"])
    assert [r.name for r in first] == [r.name for r in again]
    assert first[-1].name == "SpacyRecognizer"
    position = {id(r): i for i, r in enumerate(registry.recognizers)}
    assert [position[id(r)] for r in first[:-1]] == sorted(position[id(r)] for r in first[:-1])


def test_a_cue_and_the_model_agreeing_give_the_cue_finding():
    text = "Tran Thi Mai pushed the hotfix to staging."  # the Vietnamese-name cue and the model, both at 0.85
    results = get_analyzer().analyze(text=text, language="en", entities=["PERSON"])
    names = {(r.start, r.end): (r.recognition_metadata or {}).get("recognizer_name") for r in results}
    assert names.get((0, 12)) == "RecMemCuedNames", names
    assert "Tran" not in mask(text, key=KEY).text


_PROBE = """
import django; django.setup()
from governance.privacy.engine import get_analyzer
r = get_analyzer().registry.get_recognizers(language="en", entities=["PERSON", "LOCATION", "NRP"])
print(",".join(x.name for x in r))
"""


def test_two_processes_order_the_recognizers_alike():
    # object hashes are addresses: a set of recognizers iterates differently in another process
    orders = {subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout.strip()
              for seed in (1, 2)}
    assert len(orders) == 1, orders
