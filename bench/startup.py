"""Time to "running": ``recmem run`` (what ``make run`` starts) from a new home and again on the same home, on a quiet
machine and while other processes keep every core busy (``python -m bench.startup``; a step of ``make bench``).

Measured from outside, as a user sees it: the seconds from launch until the command prints "RecMem is running" (the
URLs and the key: the API answers warm) and until "All parts warm" (the queue workers too). Then Ctrl-C (SIGINT), and
the seconds until every process, the embedded PostgreSQL included, is gone. The load is one busy-looping process per
core at normal priority, started before the run and stopped after it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RECMEM = Path(sys.executable).with_name("recmem")
RUNNING = "RecMem is running"
ALL_WARM = "All parts warm"


def _busy_loops(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def _env(home: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "RECMEM_LLM_BASE_URL"))}
    env.update(RECMEM_HOME=str(home), RECMEM_PORT=str(port), PYTHONUNBUFFERED="1")
    env.setdefault("DJANGO_SETTINGS_MODULE", "recmem_site.settings.base")
    return env


def start_once(*, home: Path, port: int, timeout: float, label: str) -> dict[str, Any]:
    """One ``recmem run``: seconds to running, to all warm, and to a clean stop; the lines it printed."""
    launched = time.monotonic()
    proc = subprocess.Popen([str(RECMEM), "run"], cwd=ROOT, env=_env(home, port), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen: dict[str, float] = {}
    lines: list[str] = []

    def read() -> None:
        for line in proc.stdout:
            lines.append(line.rstrip())
            for mark in (RUNNING, ALL_WARM):
                if mark in line and mark not in seen:
                    seen[mark] = time.monotonic() - launched

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while time.monotonic() - launched < timeout and ALL_WARM not in seen and proc.poll() is None:
        time.sleep(0.5)
    exit_early = proc.poll()
    stop_started = time.monotonic()
    if exit_early is None:
        proc.send_signal(signal.SIGINT)  # Ctrl-C, as a user stops it
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    stop_s = time.monotonic() - stop_started
    reader.join(timeout=5)
    leftovers = _leftover_postgres(home)
    result = {
        "label": label, "running_seconds": _round(seen.get(RUNNING)), "all_warm_seconds": _round(seen.get(ALL_WARM)),
        "stop_seconds": round(stop_s, 1), "exit_code": proc.returncode, "exited_before_warm": exit_early,
        "printed_key": any(line.startswith("rmk_") for line in lines), "postgres_left_running": leftovers,
        "progress_lines": sum(1 for line in lines if line.lstrip().startswith("[")),
        "tail": lines[-6:],
    }
    print(f"  {label}: running after {result['running_seconds']} s, all warm after {result['all_warm_seconds']} s, "
          f"stopped in {result['stop_seconds']} s (exit {proc.returncode}), {result['progress_lines']} progress "
          f"lines{', key printed' if result['printed_key'] else ', NO key printed'}", flush=True)
    return result


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _leftover_postgres(home: Path) -> bool:
    pid_file = next(home.glob("**/postmaster.pid"), None)
    if pid_file is None:
        return False
    try:
        os.kill(int(pid_file.read_text().split()[0]), 0)
    except (OSError, ValueError):
        return False
    return True


def run_startup(*, port: int, timeout: float, busy: int) -> dict[str, Any]:
    runs = []
    for loaded in (False, True):
        home = Path(tempfile.mkdtemp(prefix="recmem-start-"))
        loops = _busy_loops(busy) if loaded else []
        try:
            time.sleep(3 if loaded else 0)  # let the load settle in
            where = f"{'loaded' if loaded else 'quiet'}"
            runs.append({**start_once(home=home, port=port, timeout=timeout, label=f"new home, {where}"),
                         "loaded": loaded, "new_home": True, "load_average": list(os.getloadavg())})
            runs.append({**start_once(home=home, port=port, timeout=timeout, label=f"same home again, {where}"),
                         "loaded": loaded, "new_home": False, "load_average": list(os.getloadavg())})
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()
            shutil.rmtree(home, ignore_errors=True)
    return {"benchmark": "startup", "cpus": os.cpu_count(), "busy_processes": busy, "timeout_seconds": timeout,
            "runs": runs,
            "ok": all(r["running_seconds"] is not None and r["printed_key"] and not r["postgres_left_running"]
                      and r["exited_before_warm"] is None for r in runs),
            "notes": ["Seconds from launching `recmem run` to its 'RecMem is running' line (URLs and key printed, "
                      "the API answers warm) and to 'All parts warm' (queue workers too); loaded = one busy loop "
                      "per core at normal priority during the start. The machine is shared: compare within a run."]}


def summary_lines(report: dict[str, Any]) -> list[str]:
    lines = [f"Time to running of `recmem run` ({report['cpus']} CPUs; loaded = {report['busy_processes']} busy "
             "loops):", "", "| start | running (s) | all warm (s) | stop (s) | key printed | PostgreSQL left |",
             "|---|---|---|---|---|---|"]
    for r in report["runs"]:
        lines.append(f"| {r['label']} | {r['running_seconds']} | {r['all_warm_seconds']} | {r['stop_seconds']} | "
                     f"{'yes' if r['printed_key'] else 'no'} | {'yes' if r['postgres_left_running'] else 'no'} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time `recmem run` to running, quiet and loaded")
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument("--timeout", type=float, default=600.0, help="give up on one start after this many seconds")
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 2, help="busy loops for the loaded starts")
    parser.add_argument("--json", default=str(ROOT / "bench" / "results" / "startup.json"))
    args = parser.parse_args(argv)
    report = run_startup(port=args.port, timeout=args.timeout, busy=args.busy)
    Path(args.json).write_text(json.dumps(report, indent=2))
    print("\n".join(summary_lines(report)))
    print(f"wrote {args.json}")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
