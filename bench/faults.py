"""Faults: what is lost or doubled when processes die, and how fast the first request after a start is.

``python -m bench.faults --json bench/results/faults.json`` (a step of ``python -m bench.run``). It runs the service
as ``recmem run`` does — gunicorn (recmem_site/gunicorn_conf.py) and a django-q cluster on an embedded PostgreSQL —
under a home of its own (``--home``, default ``bench/cache/faults-home``, database ``recmem_faults`` recreated each
time), with the LLM consolidator against the fake OpenAI-compatible server (``testing``), each consolidation call
slowed to ``--llm-delay`` seconds so batches are caught mid-call. Default settings otherwise (lease 20 s, the
reaper's one-minute schedule).

1. **Warm start**: web and worker are started and waited for as `recmem run` does (until /healthz says the web
   process that answers and the queue workers are warm); then one client sends its first ingest and 40 more, one
   at a time. Reported: the first ingest's latency ÷ the median (goal ≤ 2).
2. **kill -9 of the worker mid-batch**: 8 clients (one agent each) write recurring topics through the API; when a
   consolidation batch is waiting for its LLM reply the whole qcluster is killed with SIGKILL and started again (as
   a supervisor would). Reported: time from the kill until every batch it was running has succeeded; lost and
   duplicated writes.
3. **kill -9 of PostgreSQL mid-ingest**: the same 8 clients write; the postmaster is killed with SIGKILL. Nothing
   restarts it from outside: the service's own processes start the embedded server again on their next connection.
   Clients retry every failed or timed-out request with its Idempotency-Key until it is acknowledged. Reported:
   time from the kill until the first acknowledged write and until every client is writing again; lost writes
   (acknowledged, not stored), duplicated writes (stored twice); whether the worker had to be restarted.

"Lost" and "duplicated" are counted in the database at the end, for every write a client saw acknowledged (201),
by the (client, sequence) tag each exchange carries in its metadata; duplicated episodes are active episodes that
share a source exchange with another one (each client's topics are its own, so a batch written twice shows up so).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HOME = ROOT / "bench" / "cache" / "faults-home"
DATABASE = "recmem_faults"
CLIENTS = 8
TOPICS = ["marathon", "piano", "garden", "chess", "sourdough", "guitar", "Spanish course", "swimming", "climbing",
          "photography", "pottery", "cycling"]
WAVE = [
    ("I'm preparing for my {t} goal this season. Can you make me a {t} training plan?",
     "Sure, here is a 12-week {t} training plan with three sessions a week."),
    ("For my {t} plan, how long should this week's main {t} session be?",
     "In week 3 of your {t} plan the main {t} session is 90 minutes at an easy pace."),
    ("My wrist hurts after the last {t} session of my {t} training. Should I change the plan?",
     "Take two rest days, then resume the {t} plan with shorter {t} sessions."),
    ("What should I eat before the long sessions in my {t} training plan?",
     "Before long {t} training sessions eat oatmeal and a banana two hours ahead."),
    ("I prefer to do my {t} training sessions in the early morning before work.",
     "Morning sessions fit your {t} plan; do the long {t} session early on Sunday."),
]
WORDS = ("apple river cloud paper stone window garden engine violet harbor lemon candle marble orbit pencil rocket "
         "saddle thunder velvet walnut basket canyon dragon feather glacier hammer island jacket kettle lantern "
         "meadow needle oyster pepper quartz ribbon silver tunnel umbrella valley whistle yellow zephyr anchor "
         "bridge copper desert falcon ginger helmet ivory jungle kayak ladder magnet nectar olive pirate quiver"
         ).split()


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- the service's processes -------------------------------------------------------------------------------------

class Service:
    """PostgreSQL (embedded, this home), gunicorn and one qcluster, started like `recmem run` starts them."""

    def __init__(self, home: Path, port: int, llm_url: str) -> None:
        self.home, self.port = home, port
        self.logs = home / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "RECMEM_EMBEDDINGS_BASE_URL")}
        self.env.update({
            "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base", "RECMEM_HOME": str(home),
            "RECMEM_DB_NAME": DATABASE, "RECMEM_PORT": str(port), "RECMEM_LLM_BASE_URL": llm_url,
            "RECMEM_LLM_API_KEY": "bench", "RECMEM_LLM_MODEL": "fake-gpt", "RECMEM_LLM_TIMEOUT": "60",
            "RECMEM_CONSOLIDATION_MODE": "online", "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "INFO"),
            "PYTHONUNBUFFERED": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        })
        os.environ.update({k: self.env[k] for k in ("RECMEM_HOME", "RECMEM_DB_NAME")})
        self.web: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.worker_starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return done.stdout

    def database_fresh(self) -> None:
        import psycopg
        from psycopg import sql

        from recmem_site import embedded_db

        info = embedded_db.ensure_running(self.home, own=False)
        with psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DATABASE)))
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
        self.manage("migrate", "-v0")

    def _spawn(self, cmd: list[str], log_name: str) -> subprocess.Popen:
        out = open(self.logs / log_name, "ab")  # noqa: SIM115 - lives as long as the child
        return subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def start_web(self) -> None:
        from recmem_site.cli import web_command

        self.web = self._spawn(web_command(host="127.0.0.1", port=self.port, log_dir=self.logs), "web.out")

    def start_worker(self) -> None:
        from recmem_site.cli import worker_command

        self.worker = self._spawn(worker_command(ROOT), "worker.log")
        self.worker_starts += 1

    def wait_ready(self, timeout: float = 600) -> float:
        """Seconds until /healthz says the answering web process and the queue workers are warm."""
        from recmem_site.cli import health, ready

        started = time.monotonic()
        workers = int(self.env.get("RECMEM_Q_WORKERS", "2"))
        while time.monotonic() - started < timeout:
            if ready(health(f"{self.url}/healthz"), queue_workers=workers):
                return time.monotonic() - started
            for name, proc in (("web", self.web), ("worker", self.worker)):
                if proc is not None and proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode} (see {self.logs})")
            time.sleep(0.5)
        raise RuntimeError(f"not ready after {timeout}s (see {self.logs})")

    def kill_worker(self) -> None:
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait()

    def postmaster_pid(self) -> int | None:
        from recmem_site import embedded_db

        info = embedded_db.status(self.home)
        return info.pid if info else None

    def stop(self) -> None:
        from recmem_site.cli import stop_all

        stop_all([(n, p) for n, p in (("web", self.web), ("worker", self.worker)) if p is not None], 20)
        from recmem_site import embedded_db

        embedded_db.stop(self.home)


def sql_rows(home: Path, query: str, params: tuple | None = None) -> list[tuple]:
    import psycopg

    from recmem_site import embedded_db

    info = embedded_db.status(home)
    if info is None:
        raise RuntimeError("the database is not running")
    with psycopg.connect(host=info.socket_dir, port=info.port, user="postgres", dbname=DATABASE,
                         autocommit=True) as conn:
        return conn.execute(query, params).fetchall()


# --- clients ----------------------------------------------------------------------------------------------------

@dataclass
class Client:
    """One agent writing one exchange per request; every request carries its own Idempotency-Key and is sent again
    with the same key after an error or a timeout until it is acknowledged."""

    index: int
    key: str
    base: str
    session: str = ""
    seq: int = 0
    acknowledged: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    attempts: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    last_sent: float = 0.0
    ack_times: list[float] = field(default_factory=list)
    sent_times: list[float] = field(default_factory=list)  # when the acknowledged attempt was sent

    def post(self, path: str, body: dict, idempotency_key: str | None = None,
             timeout: float = 15.0) -> tuple[int, dict | None]:
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        request = urllib.request.Request(f"{self.base}{path}", data=json.dumps(body).encode(), headers=headers,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - loopback only
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, None
        except Exception as exc:  # refused, reset, timed out: the request may or may not have been done
            self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
            return 0, None

    def reliably(self, path: str, body: dict, *, give_up_after: float = 300.0) -> tuple[dict, float]:
        """POST until acknowledged (same key every time); returns the body and the last attempt's latency (its send
        time is kept in ``last_sent``)."""
        key = str(uuid.uuid4())
        deadline = time.monotonic() + give_up_after
        delay = 0.2
        while True:
            self.attempts += 1
            started = time.perf_counter()
            self.last_sent = time.monotonic()
            status, body_out = self.post(path, body, key)
            latency = (time.perf_counter() - started) * 1000
            if status in (200, 201, 202) and body_out is not None:
                return body_out, latency
            if 400 <= status < 500:
                raise RuntimeError(f"client {self.index}: {path} answered {status}")
            if status:
                self.errors[f"HTTP {status}"] = self.errors.get(f"HTTP {status}", 0) + 1
            if time.monotonic() > deadline:
                raise RuntimeError(f"client {self.index}: {path} not acknowledged within {give_up_after}s")
            time.sleep(delay)
            delay = min(delay * 2, 2.0)

    def open_session(self) -> None:
        self.session = self.reliably("/api/v1/sessions", {"external_id": f"bench-{self.index}-{uuid.uuid4()}"})[0]["id"]

    def write(self, user: str, assistant: str) -> float:
        self.seq += 1
        body = {"user": user, "assistant": assistant,
                "metadata": {"bench_client": self.index, "bench_seq": self.seq}}
        _, latency = self.reliably(f"/api/v1/sessions/{self.session}/exchanges", body)
        self.acknowledged.append(self.seq)
        self.latencies_ms.append(latency)
        self.ack_times.append(time.monotonic())
        self.sent_times.append(self.last_sent)
        return latency


def topic_exchange(client: Client, n: int) -> tuple[str, str]:
    """The n-th exchange of a client: waves of five on one topic (the fifth makes it ripe), a new topic each wave."""
    wave, j = divmod(n, len(WAVE))
    topic = TOPICS[(client.index * 3 + wave) % len(TOPICS)]
    user, assistant = WAVE[j]
    return user.format(t=topic), assistant.format(t=topic)


def random_exchange(rng: random.Random) -> tuple[str, str]:
    return " ".join(rng.sample(WORDS, 9)) + "?", " ".join(rng.sample(WORDS, 7)) + "."


def run_clients(clients: list[Client], count: int, start_at: int = 0) -> list[str]:
    errors: list[str] = []

    def loop(client: Client) -> None:
        try:
            for n in range(start_at, start_at + count):
                client.write(*topic_exchange(client, n))
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=loop, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def integrity(home: Path, clients: list[Client]) -> dict[str, Any]:
    rows = sql_rows(home, "SELECT (metadata->>'bench_client')::int, (metadata->>'bench_seq')::int, count(*) "
                          "FROM memory_exchange WHERE metadata ? 'bench_client' GROUP BY 1, 2")
    indexes = {c.index for c in clients}
    stored = {(c, s): n for c, s, n in rows if c in indexes}
    acknowledged = [(c.index, s) for c in clients for s in c.acknowledged]
    lost = [w for w in acknowledged if w not in stored]
    duplicated = sum(n - 1 for n in stored.values() if n > 1)
    shared = sql_rows(home, """
        SELECT count(DISTINCT s1.episode_id) FROM memory_episodesource s1
        JOIN memory_episodesource s2 ON s1.exchange_id = s2.exchange_id AND s1.episode_id <> s2.episode_id
        JOIN memory_episode e1 ON e1.id = s1.episode_id AND e1.status = 'active'
        JOIN memory_episode e2 ON e2.id = s2.episode_id AND e2.status = 'active'""")[0][0]
    candidates = dict(sql_rows(home, "SELECT status, count(*) FROM memory_candidate GROUP BY 1"))
    return {"acknowledged": len(acknowledged), "stored": sum(stored.values()), "lost": len(lost),
            "duplicated": duplicated, "duplicated_episodes": shared, "candidates": candidates,
            "lost_examples": lost[:5]}


def wait_consolidated(home: Path, timeout: float) -> float | None:
    """Seconds until no candidate is pending and no batch is running or pending, or None after ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            pending = sql_rows(home, "SELECT (SELECT count(*) FROM memory_candidate WHERE status = 'pending') + "
                                     "(SELECT count(*) FROM governance_consolidationbatch "
                                     "WHERE status IN ('running', 'pending'))")[0][0]
        except Exception:
            pending = -1
        if pending == 0:
            return time.monotonic() - started
        time.sleep(1)
    return None


# --- the phases -----------------------------------------------------------------------------------------------------

def warm_start(service: Service, key: str) -> dict[str, Any]:
    service.start_web()
    service.start_worker()
    ready_s = service.wait_ready()
    log(f"ready after {ready_s:.1f}s")
    client = Client(index=99, key=key, base=service.url)
    first_request_started = time.perf_counter()
    client.open_session()
    first_request_ms = (time.perf_counter() - first_request_started) * 1000
    rng = random.Random(12)
    first = client.write(*random_exchange(rng))
    rest = [client.write(*random_exchange(rng)) for _ in range(40)]
    median = statistics.median(rest)
    result = {"ready_seconds": round(ready_s, 1), "first_request_ms": round(first_request_ms, 1),
              "first_ingest_ms": round(first, 1), "median_ingest_ms": round(median, 1),
              "p95_ingest_ms": round(sorted(rest)[int(0.95 * len(rest)) - 1], 1),
              "ratio": round(first / median, 2), "goal_ratio": 2.0, "ok": first / median <= 2.0,
              "ingests": len(rest) + 1}
    log(f"first ingest {first:.0f} ms, median {median:.0f} ms (x{first / median:.2f})")
    return result


def worker_kill(service: Service, clients: list[Client], per_client: int) -> dict[str, Any]:
    done: list[str] = []
    runner = threading.Thread(target=lambda: done.extend(run_clients(clients, per_client)) or done.append("end"))
    runner.start()
    deadline = time.monotonic() + 300
    victims: list[str] = []
    while time.monotonic() < deadline and not victims:
        victims = [r[0] for r in sql_rows(service.home, """
            SELECT DISTINCT b.id::text FROM governance_consolidationbatch b JOIN memory_llmcall c ON c.batch_id = b.id
            WHERE b.status = 'running' AND c.in_flight""")]
        time.sleep(0.2)
    if not victims:
        runner.join()
        return {"error": "no batch was caught mid-call"}
    running = [r[0] for r in sql_rows(service.home,
                                      "SELECT id::text FROM governance_consolidationbatch WHERE status = 'running'")]
    service.kill_worker()
    killed_at = time.monotonic()
    killed_db = sql_rows(service.home, "SELECT now()")[0][0]
    log(f"kill -9 of the worker with {len(running)} batch(es) running, {len(victims)} mid-call")
    service.start_worker()  # the supervisor starts it again
    recovered = requeued = None
    while time.monotonic() - killed_at < 600:
        statuses = [r[0] for r in sql_rows(service.home, "SELECT status FROM governance_consolidationbatch "
                                                         "WHERE id::text = ANY(%s)", (running,))]
        if statuses and all(s == "succeeded" for s in statuses):
            # On the database's clock: when the reaper re-queued them (audit trail) and when they succeeded.
            requeued, recovered = sql_rows(service.home, """
                SELECT extract(epoch FROM (SELECT max(created_at) FROM governance_auditevent
                                           WHERE object_id = ANY(%s) AND reason LIKE 're-queued%%') - %s),
                       extract(epoch FROM (SELECT max(finished_at) FROM governance_consolidationbatch
                                           WHERE id::text = ANY(%s)) - %s)""", (running, killed_db, running,
                                                                                 killed_db))[0]
            requeued, recovered = (float(v) if v is not None else None for v in (requeued, recovered))
            break
        time.sleep(0.5)
    runner.join()
    settled = wait_consolidated(service.home, 600)
    interrupted = sql_rows(service.home, "SELECT count(*), coalesce(sum(prompt_tokens), 0) FROM memory_llmcall "
                                         "WHERE error LIKE 'interrupted%'")[0]
    result = {"clients": len(clients), "writes_per_client": per_client, "batches_running_at_kill": len(running),
              "batches_mid_call_at_kill": len(victims), "requeued_after_seconds": _r(requeued),
              "recover_seconds": _r(recovered),
              "all_consolidated_after_seconds": round(settled, 1) if settled is not None else None,
              "interrupted_calls_recorded": interrupted[0], "interrupted_prompt_tokens": interrupted[1],
              "client_errors": [e for e in done if e != "end"], **integrity(service.home, clients)}
    log(f"worker kill: re-queued after {result['requeued_after_seconds']}s, succeeded after "
        f"{result['recover_seconds']}s; lost {result['lost']}, "
        f"duplicated {result['duplicated']}, duplicated episodes {result['duplicated_episodes']}")
    return result


def postgres_kill(service: Service, clients: list[Client], per_client: int, start_at: int) -> dict[str, Any]:
    done: list[str] = []
    runner = threading.Thread(target=lambda: done.extend(run_clients(clients, per_client, start_at)))
    before = {c.index: len(c.acknowledged) for c in clients}
    runner.start()
    time.sleep(4)  # mid-ingest: every client is writing
    pid = service.postmaster_pid()
    in_flight_acks = sum(len(c.acknowledged) - before[c.index] for c in clients)
    os.kill(pid, signal.SIGKILL)
    killed_at = time.monotonic()
    log(f"kill -9 of PostgreSQL (postmaster {pid}) after {in_flight_acks} writes of this phase")
    first_ack = all_back = database_back = None
    last_start = 0.0
    while runner.is_alive() and time.monotonic() - killed_at < 600:
        # acknowledged writes whose request was sent after the kill (not those that committed just before it)
        after = [[a for a, sent in zip(c.ack_times, c.sent_times, strict=True) if sent > killed_at] for c in clients]
        if first_ack is None and any(after):
            first_ack = min(min(a) for a in after if a) - killed_at
        if all_back is None and all(after):
            all_back = max(min(a) for a in after) - killed_at
        if database_back is None and service.postmaster_pid() not in (None, pid):
            database_back = time.monotonic() - killed_at
        if service.worker.poll() is not None and time.monotonic() - last_start > 5:
            log(f"the worker exited ({service.worker.returncode}) while the database was away; starting it again")
            service.start_worker()
            last_start = time.monotonic()
        time.sleep(0.2)
    runner.join()
    restarted = service.postmaster_pid()
    if service.worker.poll() is not None:
        service.start_worker()
    settled = wait_consolidated(service.home, 600)
    result = {"clients": len(clients), "writes_per_client": per_client, "postmaster_killed": pid,
              "postmaster_after": restarted, "database_back_after_seconds": _r(database_back),
              "first_ack_after_kill_seconds": _r(first_ack),
              "all_clients_writing_after_seconds": _r(all_back),
              "all_consolidated_after_seconds": _r(settled),
              "worker_restarts": service.worker_starts - 1, "client_errors": done,
              "client_retries": sum(c.attempts for c in clients) - sum(len(c.acknowledged) for c in clients),
              "errors_seen_by_clients": _merge([c.errors for c in clients]), **integrity(service.home, clients)}
    log(f"postgres kill: database back after {result['database_back_after_seconds']}s, first write sent after "
        f"the kill acknowledged after {result['first_ack_after_kill_seconds']}s, "
        f"all clients {result['all_clients_writing_after_seconds']}s; lost {result['lost']}, "
        f"duplicated {result['duplicated']}")
    return result


def _r(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


def _merge(dicts: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="RecMem fault benchmark")
    parser.add_argument("--home", default=str(DEFAULT_HOME))
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--json", default=str(ROOT / "bench" / "results" / "faults.json"))
    parser.add_argument("--llm-delay", type=float, default=3.0, help="seconds each consolidation call takes")
    parser.add_argument("--writes", type=int, default=20, help="writes per client in each fault phase")
    args = parser.parse_args(argv)

    from testing.fake_openai import FakeOpenAIServer, FakeReply
    from testing.fake_responder import consolidation_responder

    home = Path(args.home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    report: dict[str, Any] = {"benchmark": "faults", "clients": CLIENTS, "llm_delay_seconds": args.llm_delay,
                              "cpus": os.cpu_count(), "load_average_start": list(os.getloadavg())}
    server = FakeOpenAIServer(responder=lambda req: FakeReply(content=consolidation_responder(req),
                                                              delay=args.llm_delay)).start()
    service = Service(home, args.port, server.base_url)
    try:
        log(f"fresh database {DATABASE} in {home}")
        service.database_fresh()
        keys = []
        for i in range(CLIENTS + 1):
            out = service.manage("create_agent", "--project", "faults", "--name", f"client-{i}", "--role", "writer",
                                 "--role", "reader")
            keys.append(out.strip().splitlines()[-1])
        from recmem_site import embedded_db

        embedded_db.stop(home)  # a cold start, as after a reboot: the first connection starts the database
        report["warm_start"] = warm_start(service, keys[-1])
        clients = [Client(index=i, key=keys[i], base=service.url) for i in range(CLIENTS)]
        for client in clients:
            client.open_session()
        report["worker_kill"] = worker_kill(service, clients, args.writes)
        report["postgres_kill"] = postgres_kill(service, clients, args.writes, start_at=args.writes)
        report["settings"] = {"batch_lease_seconds": 20, "reaper": "django-q schedule every minute",
                              "web_workers": 2, "queue_workers": 2}
    except Exception as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
        log(report["error"])
    finally:
        try:
            service.stop()
        finally:
            server.stop()
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    report["load_average_end"] = list(os.getloadavg())
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=2))
    log(f"wrote {args.json}")
    ok = "error" not in report and all(report[p]["lost"] == 0 and report[p]["duplicated"] == 0
                                       for p in ("worker_kill", "postgres_kill"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
