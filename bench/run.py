"""Run the benchmark profiles: ``python -m bench.run --profile quick|full`` (``make bench`` / ``make bench-full``).

Isolation: every step runs as ``manage.py`` subprocess with ``DJANGO_SETTINGS_MODULE=recmem_site.settings.base``,
``RECMEM_HOME=bench/cache/home`` (git-ignored; ``--home`` to change) and ``DATABASE_URL`` / ``RECMEM_LLM_BASE_URL``
removed from the environment, so a benchmark never touches the developer's data, database or paid endpoint. The
embedded PostgreSQL of that home is started here, LoCoMo runs use database ``recmem_bench`` (one fresh project per
run, deleted after it), the scale run gets a database of its own (``recmem_bench_scale``, dropped and recreated
each time), and the server is stopped at the end.

Profiles:

- ``quick`` (no longer under 20 min: with the paraphrase, fault, poisoning and start-up steps an estimated hour on
  2 shared cores, not yet measured as one run; each step's seconds go to run.json): LoCoMo dev, first two
  conversations: online (LLM consolidator on the fake server), eager (Mem0-style, fake server), flat
  (top-10/25), online with the extractive consolidator; the embedding backends side by side (``bench_embedders``);
  scale at 10k exchanges; the PII bench; the fault bench
  (``bench.faults``: kill -9 of worker and database, first ingest after a start); the poisoning bench
  (``bench_poison``: tuned and held-back attacks, benign false quarantine); the admin pages with 10,000 audit
  events (``bench_admin``); the time to running of ``recmem run``, quiet and loaded (``bench.startup``).
- ``full``: the same on all dev conversations, a θ_sim sweep (0.5–0.7), scale at 10k and 100k, scale at 1M
  written with COPY (``scale_1m``: ``bench_scale --bulk-copy``, bench/bulkfill.py), the PII bench, the fault bench.

Results: ``bench/results/<step>.json``, ``bench/results/SUMMARY.md`` with PNG plots beside it, step logs in
``bench/results/logs/`` (the full profile: the same under ``bench/results/full/``); earlier results of the same
folder are removed first so a summary never mixes runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
DEFAULT_HOME = ROOT / "bench" / "cache" / "home"
LOCOMO_DB = "recmem_bench"
SCALE_DB = "recmem_bench_scale"

PROFILES = {
    "quick": {
        "conversations": 2,
        "locomo": [("locomo_online", ["--mode", "online", "--consolidator", "llm"]),
                   ("locomo_eager", ["--mode", "eager", "--consolidator", "llm"]),
                   ("locomo_flat", ["--mode", "flat"]),
                   ("locomo_online_extractive", ["--mode", "online", "--consolidator", "extractive"]),
                   ("locomo_online_nosalience", ["--mode", "online", "--consolidator", "llm", "--no-salience"])],
        "sweep": None,
        "embedders": ["--backends", "local,onnx,onnx-int8,static"],
        "scale": ["--exchanges", "10000", "--queries", "200", "--recall-queries", "100", "--http-single", "100",
                  "--http-batch", "400"],
        "timeout": 1800,
        "results": RESULTS,
    },
    "full": {
        "conversations": None,
        "locomo": [("locomo_online", ["--mode", "online", "--consolidator", "llm"]),
                   ("locomo_eager", ["--mode", "eager", "--consolidator", "llm"]),
                   ("locomo_flat", ["--mode", "flat"]),
                   ("locomo_online_extractive", ["--mode", "online", "--consolidator", "extractive"]),
                   ("locomo_online_nosalience", ["--mode", "online", "--consolidator", "llm", "--no-salience"])],
        "sweep": "0.5,0.55,0.6,0.65,0.7",
        "embedders": ["--backends", "local,onnx,onnx-int8,static"],
        "scale": ["--exchanges", "10000,100000", "--queries", "300", "--recall-queries", "200"],
        # 1M written with COPY (bench/bulkfill.py: turns masked once, exchange vectors composed from real turn-line
        # vectors, real query vectors and exact ground truth; the report says so), the indexes built once after
        # each fill: ~1 h on 2 shared cores instead of ~9 h of real ingest.
        "scale_1m": ["--exchanges", "1000000", "--bulk-copy", "--no-http", "--consolidation-mode", "off",
                     "--queries", "300", "--recall-queries", "100", "--ef-sweep", "100,300"],
        "timeout": 6 * 3600,
        "results": RESULTS / "full",
    },
}


def bench_env(home: Path, database: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "RECMEM_LLM_BASE_URL", "RECMEM_LLM_API_KEY", "RECMEM_EMBEDDINGS_BASE_URL")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base",
        "RECMEM_HOME": str(home),
        "RECMEM_DB_NAME": database,
        "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        "PYTHONUNBUFFERED": "1",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    })
    return env


def run_step(name: str, args: list[str], *, env: dict[str, str], timeout: float, logs: Path) -> tuple[bool, float]:
    """One ``manage.py`` step (or ``python -m <module>`` when ``args`` start with ``-m``); output goes to
    ``logs/<name>.log`` and is echoed line by line."""
    cmd = [sys.executable, *args] if args[:1] == ["-m"] else [sys.executable, str(ROOT / "manage.py"), *args]
    print(f"\n== {name}: {' '.join(args)}", flush=True)
    started = time.perf_counter()
    timed_out = threading.Event()

    def _kill() -> None:
        timed_out.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)

    with open(logs / f"{name}.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        watchdog = threading.Timer(timeout, _kill)
        watchdog.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                log.write(line)
                log.flush()
                if "Loading weights" not in line:
                    print(f"   {line.rstrip()}", flush=True)
            proc.wait()
        except KeyboardInterrupt:
            _kill()
            proc.wait(30)
            raise
        finally:
            watchdog.cancel()
    if timed_out.is_set():
        print(f"== {name}: stopped after the {timeout:.0f}s time limit", flush=True)
    elapsed = time.perf_counter() - started
    print(f"== {name}: exit {proc.returncode} after {elapsed:.0f}s", flush=True)
    return proc.returncode == 0, elapsed


def recreate_database(home: Path, name: str, *, create: bool = True) -> None:
    """Drop the database ``name`` of the bench server (and create it empty again unless ``create`` is false)."""
    import psycopg
    from psycopg import sql

    from recmem_site import embedded_db

    info = embedded_db.ensure_running(home, own=False)
    with psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if create:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


STEP_FILES = {"locomo": "locomo_*", "sweep": "locomo_sweep", "embedders": "embedders", "scale": "scale",
              "scale_1m": "scale_1m", "pii": "pii", "faults": "faults", "paraphrase": "paraphrase",
              "admin": "admin_pages", "startup": "startup", "poison": "poison"}


def _kept(path: Path, keep: set[str]) -> bool:
    """Whether ``path`` (a result or its log) belongs to a skipped step, whose earlier result is kept."""
    stem = path.stem
    for step in keep:
        pattern = STEP_FILES.get(step, "")
        if step == "locomo" and stem.startswith("locomo_") and stem != "locomo_sweep":
            return True
        # Single scale runs saved beside the profile's own (scale_cached, scale_100k_defaults, ...) are scale results.
        if step == "scale" and stem.startswith("scale_") and stem != "scale_1m":
            return True
        if step == "poison" and stem.startswith("poison"):  # poison.json and the blind set's poison_r19_held.json
            return True
        if pattern and stem == pattern:
            return True
    return False


def clean_results(results: Path, keep: set[str] = frozenset()) -> Path:
    """Remove earlier results of this folder (files only: ``full/`` below ``results/`` is kept), except those of
    the skipped steps in ``keep``: ``--skip scale`` re-runs the rest and reports the last scale run beside it."""
    results.mkdir(parents=True, exist_ok=True)
    logs = results / "logs"
    for pattern in ("*.json", "*.png", "SUMMARY.md"):
        for path in results.glob(pattern):
            if not _kept(path, keep):
                path.unlink()
    logs.mkdir(exist_ok=True)
    for path in logs.glob("*.log"):
        if not _kept(path, keep):
            path.unlink()
    return logs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the RecMem benchmarks")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--home", default=str(DEFAULT_HOME), help="RECMEM_HOME for the benchmark database")
    parser.add_argument("--data", default=None, help="LoCoMo file (default: $RECMEM_DATASETS/locomo/locomo_dev.json)")
    parser.add_argument("--skip", default="",
                        help="comma-separated steps to skip (locomo, sweep, embedders, scale, scale_1m, pii, faults, "
                             "paraphrase, admin, startup, poison)")
    parser.add_argument("--results", default=None,
                        help="results folder (default: bench/results for quick, bench/results/full for full)")
    args = parser.parse_args(argv)

    profile = PROFILES[args.profile]
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    home = Path(args.home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    # This process only starts/stops the embedded server; it never configures Django on the developer's home.
    os.environ["RECMEM_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    results = Path(args.results).resolve() if args.results else profile["results"]
    kept = {k for k in skip if any(results.glob(f"{STEP_FILES.get(k, '-')}.json"))}
    logs = clean_results(results, keep=kept)
    env = bench_env(home, LOCOMO_DB)
    data = ["--data", args.data] if args.data else []
    conversations = ["--conversations", str(profile["conversations"])] if profile["conversations"] else []
    failures: dict[str, str] = {}
    timings: dict[str, float] = {}
    started = time.perf_counter()
    load_start = os.getloadavg()

    from recmem_site import embedded_db

    print(f"RecMem benchmarks, profile {args.profile}: home {home}, results {results}", flush=True)
    try:
        embedded_db.ensure_running(home, database=LOCOMO_DB, own=False)
        ok, _ = run_step("migrate", ["migrate", "-v0"], env=env, timeout=600, logs=logs)
        if not ok:
            failures["migrate"] = "migrate failed (see logs/migrate.log)"
            raise RuntimeError("migrate failed")
        steps: list[tuple[str, list[str], dict[str, str]]] = []
        if "locomo" not in skip:
            for name, extra in profile["locomo"]:
                steps.append((name, ["bench_locomo", *extra, *conversations, *data, "--json",
                                     str(results / f"{name}.json")], env))
        if profile["sweep"] and "sweep" not in skip:
            steps.append(("locomo_sweep", ["bench_locomo", "--sweep", profile["sweep"], *conversations, *data,
                                           "--json", str(results / "locomo_sweep.json")], env))
        if profile.get("embedders") and "embedders" not in skip:
            steps.append(("embedders", ["bench_embedders", *profile["embedders"], *data, "--json",
                                        str(results / "embedders.json")], env))
        if "paraphrase" not in skip:  # the tuned team scenario, the held-back and the blind ones (bench/paraphrase.py)
            steps.append(("paraphrase", ["bench_paraphrase", "--json", str(results / "paraphrase.json")], env))
        if "poison" not in skip:  # attacks from one agent against another; the held-back set by family only
            steps.append(("poison", ["bench_poison", "--part", "all", *data, "--json", str(results / "poison.json")],
                          env))
            # the blind sets' held halves (per family only): the estimate on attacks nobody tuned on
            steps.append(("poison_blind", ["bench_poison", "--part", "r19_held", "--no-benign", "--json",
                                           str(results / "poison_r19_held.json")], env))
            steps.append(("poison_blind_r41", ["bench_poison", "--part", "r41_held", "--no-benign", "--json",
                                               str(results / "poison_r41_held.json")], env))
        if "pii" not in skip:
            steps.append(("pii", ["bench_pii", "--json", str(results / "pii.json")], env))
        if "admin" not in skip:  # the console's pages with 10,000 audit events
            steps.append(("admin_pages", ["bench_admin", "--json", str(results / "admin_pages.json")], env))
        if "startup" not in skip:  # `recmem run` to running, quiet and under load; its own homes and port
            steps.append(("startup", ["-m", "bench.startup", "--json", str(results / "startup.json")], env))
        if "faults" not in skip:  # its own home and database server: it kills them
            steps.append(("faults", ["-m", "bench.faults", "--home", str(home.parent / "faults-home"), "--json",
                                     str(results / "faults.json")], env))
        for name, step_args, step_env in steps:
            ok, elapsed = run_step(name, step_args, env=step_env, timeout=profile["timeout"], logs=logs)
            timings[name] = round(elapsed, 1)
            if not ok:
                failures[name] = f"exit code != 0 (see logs/{name}.log)"
        for name in ("scale", "scale_1m"):
            if name in skip or not profile.get(name):
                continue
            recreate_database(home, SCALE_DB)
            scale_env = bench_env(home, SCALE_DB)
            ok, _ = run_step(f"migrate_{name}", ["migrate", "-v0"], env=scale_env, timeout=600, logs=logs)
            if ok:
                ok, elapsed = run_step(name, ["bench_scale", *profile[name], *data, "--json",
                                              str(results / f"{name}.json"), "--keep-data"], env=scale_env,
                                       timeout=profile["timeout"], logs=logs)
                timings[name] = round(elapsed, 1)
            if not ok:
                failures[name] = f"exit code != 0 (see logs/{name}.log)"
            recreate_database(home, SCALE_DB, create=False)  # the scale store is big: do not keep it
    except KeyboardInterrupt:
        failures["interrupted"] = "Ctrl-C"
    except Exception as exc:  # report whatever stopped the run, then still write the summary
        failures.setdefault("run", f"{type(exc).__name__}: {exc}")
    finally:
        stopped = embedded_db.stop(home)
        print(f"embedded PostgreSQL {'stopped' if stopped else 'was not running'}", flush=True)

    wall = round(time.perf_counter() - started, 1)
    meta = {"profile": args.profile, "wall_seconds": wall, "steps_seconds": timings, "failures": failures,
            "cpus": os.cpu_count(), "load_average_start": list(load_start), "load_average_end": list(os.getloadavg()),
            "kept_from_earlier_run": sorted(kept),
            "notes": [f"Load average at start {load_start[0]:.2f}, at end {os.getloadavg()[0]:.2f} on "
                      f"{os.cpu_count()} CPUs: this machine is shared, timings vary with other work on it."]
            + ([f"Skipped this time, results of an earlier run kept: {', '.join(sorted(kept))}."] if kept else [])}
    (results / "run.json").write_text(json.dumps(meta, indent=2))
    from bench.report import write_summary

    summary = write_summary(results, profile=args.profile)
    print(f"\nwrote {summary} ({wall:.0f}s in all){'; failures: ' + str(failures) if failures else ''}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
