"""The queue watchdog for deployments other than `recmem run` (which has it built in): see "work waiting, none
progressing" and restart the cluster.

    manage.py queue_watchdog --supervise     # run `manage.py qcluster` under the watchdog (use as the worker command)
    manage.py queue_watchdog --check         # one look: exit status 1 and the reason when the queue is stalled
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections

from core.config import config
from memory.queue_health import QueueWatchdog, process_group_stop, queue_progress, queue_stall_reason


class Command(BaseCommand):
    help = ("Watch the task queue: with --supervise, run `manage.py qcluster` and restart it (SIGTERM to its process "
            "group, SIGKILL after --grace) when tasks wait and none progresses for RECMEM_QUEUE_STALL_SECONDS, or "
            "when it exits; with --check, report once (exit status 1 when stalled).")

    def add_arguments(self, parser):
        parser.add_argument("--supervise", action="store_true", help="run and watch a qcluster until stopped")
        parser.add_argument("--check", action="store_true", help="look once; exit status 1 when stalled")
        parser.add_argument("--cluster", help="queue (cluster) name; default: this configuration's (Q_CLUSTER_NAME)")
        parser.add_argument("--interval", type=float, default=5.0, help="seconds between two looks (5)")
        parser.add_argument("--grace", type=float, default=10.0,
                            help="seconds a stalled cluster gets to obey SIGTERM before SIGKILL (10)")

    def handle(self, *args, supervise=False, check=False, cluster=None, interval=5.0, grace=10.0, **options):
        if check or not supervise:
            reason = queue_stall_reason(queue_progress(cluster=cluster))
            if reason:
                self.stdout.write(f"STALLED {reason}")
                sys.exit(1)
            self.stdout.write("queue progressing (or idle)")
            return
        self._supervise(cluster=cluster, interval=interval, grace=grace)

    def _supervise(self, *, cluster, interval: float, grace: float) -> None:
        stopping = []
        signal.signal(signal.SIGTERM, lambda *a: stopping.append(1))
        signal.signal(signal.SIGINT, lambda *a: stopping.append(1))
        command = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "qcluster"]

        def start() -> subprocess.Popen:
            connections.close_all()  # the child opens its own
            # Its own process group: a stop takes the master, the sentinel and every worker.
            return subprocess.Popen(command, cwd=settings.BASE_DIR, start_new_session=True)

        watchdog = QueueWatchdog(cluster=cluster)
        proc = start()
        self.stdout.write(f"queue watchdog: qcluster pid {proc.pid}; stalled after "
                          f"{config().queue.stall_seconds} s", ending="\n")
        self.stdout.flush()
        try:
            while not stopping:
                deadline = time.monotonic() + interval
                while not stopping and time.monotonic() < deadline and proc.poll() is None:
                    time.sleep(0.2)
                if stopping:
                    break
                if proc.poll() is not None:
                    reason = f"qcluster exited with code {proc.returncode}"
                else:
                    try:
                        reason = watchdog.check()
                    except Exception as exc:  # the database is away: nothing to judge by now
                        self.stderr.write(f"queue watchdog: {type(exc).__name__}: {exc}")
                        connections.close_all()
                        continue
                if not reason:
                    continue
                self.stdout.write(f"queue watchdog: {reason}; restarting the cluster")
                outcome = process_group_stop(proc, grace=grace)
                time.sleep(1.0)  # no tight loop when the cluster dies at once
                proc = start()
                watchdog.restarted()
                self.stdout.write(f"queue watchdog: old cluster {outcome}; new qcluster pid {proc.pid}")
                self.stdout.flush()
        finally:
            process_group_stop(proc, grace=config().server.stop_grace)
