"""Queue workers lower their CPU priority, and their session's autogroup only when the session is a queue
cluster's own (core/priority.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, os, sys, threading
from pathlib import Path
from core.priority import lower_priority
applied = lower_priority(int(sys.argv[1]))
seen = {}
t = threading.Thread(target=lambda: seen.update(thread=os.getpriority(os.PRIO_PROCESS, 0)))
t.start(); t.join()
group = Path("/proc/self/autogroup")
print(json.dumps({"applied": applied, "nice": os.getpriority(os.PRIO_PROCESS, 0), **seen,
                  "autogroup": group.read_text().strip() if group.exists() else None}))
"""


def probe(nice: int, *, own_session: bool, name: str) -> dict:
    # argv[1:] = [nice, name]: the session leader's command line holds "qcluster" when name is "qcluster".
    out = subprocess.run([sys.executable, "-c", PROBE, str(nice), name], cwd=ROOT, capture_output=True, text=True,
                         check=True, start_new_session=own_session)
    return json.loads(out.stdout)


def _own_autogroup() -> str | None:
    group = Path("/proc/self/autogroup")
    return group.read_text().strip() if group.exists() else None


def test_a_queue_cluster_in_its_own_session_lowers_itself_its_threads_and_its_autogroup():
    result = probe(10, own_session=True, name="qcluster")
    assert result["nice"] == 10 and result["thread"] == 10  # a thread started later inherits it
    assert result["applied"]["nice"] == 10
    if result["autogroup"] is not None:  # kernels with autogroup scheduling
        assert result["autogroup"].endswith("nice 10") and result["applied"]["autogroup"] == 10


def test_a_process_in_a_shared_session_leaves_the_session_alone():
    before = _own_autogroup()
    result = probe(10, own_session=False, name="qcluster")  # the leader is this test's session, not a cluster
    assert result["nice"] == 10 and result["applied"]["autogroup"] is None
    assert _own_autogroup() == before  # the terminal's (here: pytest's) group is untouched
    other = probe(10, own_session=True, name="not-a-cluster")
    assert other["nice"] == 10 and other["applied"]["autogroup"] is None
    if other["autogroup"] is not None:
        assert other["autogroup"].endswith("nice 0")


def test_nice_zero_changes_nothing_and_a_value_is_never_lowered():
    assert probe(0, own_session=True, name="qcluster")["applied"] == {"nice": None, "autogroup": None}
    assert probe(0, own_session=True, name="qcluster")["nice"] == os.getpriority(os.PRIO_PROCESS, 0)
    code = "import os, json; os.nice(15); from core.priority import lower_priority; " \
           "print(json.dumps([lower_priority(10), os.getpriority(os.PRIO_PROCESS, 0)]))"
    applied, nice = json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                                              text=True, check=True).stdout)
    assert nice == 15 and applied["nice"] == 15
