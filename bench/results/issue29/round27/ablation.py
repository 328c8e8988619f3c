"""Round 27 ablation: bench_pii with one of the round's rules switched off (python ablation.py RULE)."""
import os
import re
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")
sys.path.insert(0, os.getcwd())  # run from the checkout
import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402

from governance.privacy import engine  # noqa: E402

NEVER = re.compile(r"(?!x)x")
drop = sys.argv[1]
if drop == "compared":
    engine._compared = lambda *a: False
elif drop == "plain":
    engine._plain_words = lambda *a: False
elif drop == "region":
    engine._REGION_CODE_RE = NEVER
elif drop == "version":
    engine._VERSION_TAIL_RE = NEVER
elif drop == "modifier":
    engine._modifies_a_tech_noun = lambda *a: False
call_command("bench_pii", throughput_texts=64, json_out=f"ablation_without_{drop}.json")
