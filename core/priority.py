"""CPU priority of background work: queue workers yield the cores to the web server's requests.

On a small machine the queue's work (consolidation runs, the hourly governance metrics, which embed every new user
text once more) shares the cores with ingest and search. At the same priority a metrics pass over 2,000 new
exchanges took ~20 s of a core from a running ingest benchmark (bench_scale). A queue worker therefore lowers its own
priority (``RECMEM_WORKER_NICE``) when it starts: it still uses every idle cycle, but a request that needs a core
gets it first.

Linux schedules by *autogroup* (one per session, ``/proc/sys/kernel/sched_autogroup_enabled``) before it looks at
nice values inside a group, and ``recmem run`` starts the web server and the worker in sessions of their own; the
worker's own nice value alone would then change nothing between them. So the session's autogroup is lowered too,
but only when the session is the queue cluster's own (its leader is ``qcluster``): a worker started from a
terminal shares that terminal's session and must not lower it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

logger = logging.getLogger(__name__)


def _session_leader_is_queue_cluster() -> bool:
    try:
        leader = os.getsid(0)
        cmdline = Path(f"/proc/{leader}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(arg == b"qcluster" for arg in cmdline)


def _autogroup_nice(path: Path) -> int | None:
    try:
        return int(path.read_text().split("nice")[1])
    except (OSError, IndexError, ValueError):
        return None


def lower_priority(nice: int) -> dict[str, int | None]:
    """Raise this thread's nice value to ``nice`` (threads it starts later inherit it; it is never lowered), and
    its session's autogroup's when the session is the queue cluster's. Returns what was set (None: left alone)."""
    applied: dict[str, int | None] = {"nice": None, "autogroup": None}
    if nice <= 0:
        return applied
    current = os.getpriority(os.PRIO_PROCESS, 0)
    if current < nice:
        os.setpriority(os.PRIO_PROCESS, 0, nice)  # the calling thread: Linux nice values are per thread
    applied["nice"] = max(current, nice)
    autogroup = Path("/proc/self/autogroup")
    group_nice = _autogroup_nice(autogroup)
    if group_nice is not None and group_nice < nice and _session_leader_is_queue_cluster():
        try:
            autogroup.write_text(str(nice))
            applied["autogroup"] = nice
        except OSError as exc:  # some containers mount /proc read-only: the process nice value still applies
            logger.warning("could not lower the queue cluster's autogroup priority: %s", exc)
    elif group_nice is not None and group_nice >= nice:
        applied["autogroup"] = group_nice
    return applied
