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
2. **kill -9 of the worker mid-batch**: the clients (one agent each) write recurring topics through the API; when a
   consolidation batch is waiting for its LLM reply the whole qcluster is killed with SIGKILL and started again (as
   a supervisor would). Reported: time from the kill until every batch it was running has succeeded; lost and
   duplicated writes.
3. **kill -9 of PostgreSQL mid-ingest**: the same clients write; the postmaster is killed with SIGKILL. Nothing
   restarts it from outside: the service's own processes start the embedded server again on their next connection.
   Clients retry every failed or timed-out request with its Idempotency-Key until it is acknowledged. Reported:
   time from the kill until the first acknowledged write and until every client is writing again; lost writes
   (acknowledged, not stored), duplicated writes (stored twice); whether the worker had to be restarted.

4. **kill -9 of one queue worker, ``--worker-kills`` times (20)**: the clients write without pause; at a random
   point (every other kill: at once when tasks wait in the broker, so a worker is taking one from the cluster's
   queue or blocked on its lock) one worker process of the cluster is killed. The worker side runs under
   ``manage.py queue_watchdog --supervise`` (as a deployment would), so a cluster the kill wedged is restarted.
   Reported per kill and summed up (:func:`summarize_kills`): recovered when a task started after the kill has
   finished; the longest recovery (goal ≤ 2 min); how many needed a cluster restart; /healthz once a second while
   it lasted. Each kill takes a few seconds when the cluster goes on, a stall period plus the new cluster's warm-up
   when it wedged (~80 s on an idle machine), so 20 kills take ~5–30 min. Phase 3 is then repeated
   ``--postgres-kills`` times (3).

The clients: ``--clients`` (4). "Lost" and "duplicated" are counted in the database at the end, for every write a
client saw acknowledged (201), by the (client, sequence) tag each exchange carries in its metadata; duplicated
episodes are active episodes that share a source exchange with another one (each client's topics are its own, so a
batch written twice shows up so).
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
CLIENTS = 4
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
        # Under the documented watchdog (`manage.py queue_watchdog --supervise`): a cluster wedged by a killed
        # worker is restarted as it would be in a deployment.
        self.worker = self._spawn([sys.executable, str(ROOT / "manage.py"), "queue_watchdog", "--supervise"],
                                  "worker.log")
        self.worker_starts += 1
        self._aux: dict[int, set[int]] = {}

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
        """kill -9 of the whole worker side: the watchdog and the cluster (its own process group) below it."""
        import psutil

        try:
            below = psutil.Process(self.worker.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            below = []
        for proc in [psutil.Process(self.worker.pid), *below]:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass
        self.worker.wait()

    def queue_workers(self) -> tuple[int | None, list[int]]:
        """(the sentinel's pid, its worker processes' pids). The sentinel spawns its workers first, then the monitor
        and the pusher; only workers are killed (and respawned), so those two are the last of its first children."""
        import psutil

        try:
            sentinels = [s for q in psutil.Process(self.worker.pid).children() for s in q.children()]
        except psutil.NoSuchProcess:
            return None, []
        if not sentinels:
            return None, []
        sentinel = sentinels[0]
        try:
            children = sorted(sentinel.children(), key=lambda c: c.create_time())
        except psutil.NoSuchProcess:
            return None, []
        if sentinel.pid not in self._aux:
            workers = int(self.env.get("RECMEM_Q_WORKERS", "2"))
            if len(children) < workers + 2:
                return sentinel.pid, []  # still starting
            self._aux[sentinel.pid] = {c.pid for c in children[workers:workers + 2]}
        return sentinel.pid, [c.pid for c in children if c.pid not in self._aux[sentinel.pid]]

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
    rows = sql_rows(home, "SELECT metadata->>'bench_client', metadata->>'bench_seq', count(*) "
                          "FROM memory_exchange WHERE metadata ? 'bench_client' GROUP BY 1, 2")
    indexes = {c.index for c in clients}
    # Read as text: a tag the masking changed (it once took the number 3060 for a place) is counted, not a crash.
    unreadable = sum(n for c, s, n in rows if not (str(c).isdigit() and str(s).isdigit()))
    stored = {(int(c), int(s)): n for c, s, n in rows if str(c).isdigit() and str(s).isdigit() and int(c) in indexes}
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
            "lost_examples": lost[:5], "tags_unreadable": unreadable}


def wait_consolidated(home: Path, timeout: float) -> float | None:
    """Seconds until no candidate online runs take is pending and no batch is running or pending, or None after
    ``timeout``. Update candidates (a restatement of a consolidated topic) wait for the next idle or requested pass
    by design, so they are not waited for."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            pending = sql_rows(home, "SELECT (SELECT count(*) FROM memory_candidate WHERE status = 'pending' "
                                     "AND reason <> 'update') + "
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


def postgres_kill(service: Service, clients: list[Client], per_client: int, start_at: int,
                  after_kill: int = 5, give_up_after: float = 600.0) -> dict[str, Any]:
    """kill -9 of the postmaster while every client writes. The clients go on writing until each has
    ``after_kill`` writes acknowledged that were *sent* after the kill (at least ``per_client`` in all), so "every
    client writing again" is measured on writes that met the outage, not on ones committed before it."""
    from recmem_site.cli import health

    stop = threading.Event()
    before = {c.index: len(c.acknowledged) for c in clients}
    threads, errors = run_clients_until(clients, stop, start_at)
    time.sleep(4)  # mid-ingest: every client is writing
    pid = service.postmaster_pid()
    in_flight_acks = sum(len(c.acknowledged) - before[c.index] for c in clients)
    os.kill(pid, signal.SIGKILL)
    killed_at = time.monotonic()
    log(f"kill -9 of PostgreSQL (postmaster {pid}) after {in_flight_acks} writes of this phase")
    first_ack = all_back = database_back = None
    last_start = 0.0
    states: dict[str, int] = {}
    last_health = 0.0
    try:
        while time.monotonic() - killed_at < give_up_after and not errors:
            # acknowledged writes whose request was sent after the kill (not those that committed just before it)
            after = [[a for a, sent in zip(c.ack_times, c.sent_times, strict=True) if sent > killed_at]
                     for c in clients]
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
            if time.monotonic() - last_health >= 1.0:
                state = _healthz_state(health(f"{service.url}/healthz"))
                states[state] = states.get(state, 0) + 1
                last_health = time.monotonic()
            if (all(len(a) >= after_kill for a in after)
                    and all(len(c.acknowledged) - before[c.index] >= per_client for c in clients)):
                break
            time.sleep(0.2)
    finally:
        stop.set()
        for t in threads:
            t.join()
    restarted = service.postmaster_pid()
    if service.worker.poll() is not None:
        service.start_worker()
    settled = wait_consolidated(service.home, 600)
    written_after = sum(1 for c in clients for sent in c.sent_times if sent > killed_at)
    result = {"clients": len(clients), "writes_per_client_at_least": per_client,
              "writes_acknowledged_before_kill": in_flight_acks, "writes_sent_after_kill": written_after,
              "postmaster_killed": pid,
              "postmaster_after": restarted, "database_back_after_seconds": _r(database_back),
              "first_ack_after_kill_seconds": _r(first_ack),
              "all_clients_writing_after_seconds": _r(all_back),
              "all_consolidated_after_seconds": _r(settled), "healthz_after_kill": states,
              "worker_restarts": service.worker_starts - 1, "client_errors": errors,
              "client_retries": sum(c.attempts for c in clients) - sum(len(c.acknowledged) for c in clients),
              "errors_seen_by_clients": _merge([c.errors for c in clients]), **integrity(service.home, clients)}
    log(f"postgres kill: database back after {result['database_back_after_seconds']}s, first write sent after "
        f"the kill acknowledged after {result['first_ack_after_kill_seconds']}s, "
        f"all clients {result['all_clients_writing_after_seconds']}s ({written_after} writes sent after the kill); "
        f"lost {result['lost']}, duplicated {result['duplicated']}")
    return result


# --- many kills of one queue worker ------------------------------------------------------------------------------

RECOVERY_GOAL_SECONDS = 120.0


def run_clients_until(clients: list[Client], stop: threading.Event, start_at: int) -> tuple[list[threading.Thread],
                                                                                             list[str]]:
    """Each client writes until ``stop`` is set (its own topics, from exchange ``start_at``)."""
    errors: list[str] = []

    def loop(client: Client) -> None:
        n = start_at
        try:
            while not stop.is_set():
                client.write(*topic_exchange(client, n))
                n += 1
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=loop, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    return threads, errors


def _healthz_state(body: dict | None) -> str:
    """/healthz in a word: its status, and the queue's reason when the queue part says degraded."""
    if body is None:
        return "no answer"
    queue = body.get("checks", {}).get("queue_progress", {})
    if queue.get("degraded"):
        return f"{body.get('status')}: queue stalled"
    return str(body.get("status"))


def worker_kill_once(service: Service, rng: random.Random, *, taking: bool, give_up_after: float) -> dict[str, Any]:
    """kill -9 of one queue worker; ``taking``: at the moment tasks wait in the broker (a worker is then taking one
    from the cluster's queue, or blocked on its lock). Recovered when the cluster has finished as many tasks after the
    kill as it has workers: the survivors can finish at most one task each that they held at the kill, so the last of
    those was taken from the cluster's queue after it — a wedged cluster finishes none. (How long a task *taken*
    after the kill waited to finish is the queue's wait under the load, reported apart: :func:`queue_waits`.)"""
    from recmem_site.cli import health

    deadline = time.monotonic() + 60
    sentinel, workers = service.queue_workers()
    while (not workers or taking) and time.monotonic() < deadline:
        waiting = "SELECT count(*) FROM django_q_ormq WHERE lock <= now()"
        if workers and taking and sql_rows(service.home, waiting)[0][0]:
            break
        time.sleep(0.05)
        sentinel, workers = service.queue_workers()
    if not workers:
        return {"taking": taking, "error": "no queue worker to kill"}
    victim = rng.choice(workers)
    try:
        os.kill(victim, signal.SIGKILL)
    except ProcessLookupError:
        return {"taking": taking, "error": "the worker ended before the kill"}
    killed_at = time.monotonic()
    killed_db = sql_rows(service.home, "SELECT now()")[0][0]
    states: dict[str, int] = {}
    recovered = None
    while time.monotonic() - killed_at < give_up_after:
        state = _healthz_state(health(f"{service.url}/healthz"))
        states[state] = states.get(state, 0) + 1
        done = sql_rows(service.home, "SELECT extract(epoch FROM stopped - %s) FROM django_q_task WHERE stopped > %s "
                                      "ORDER BY stopped OFFSET %s LIMIT 1", (killed_db, killed_db, len(workers) - 1))
        if done:
            recovered = max(float(done[0][0]), 0.0)
            break
        time.sleep(1.0)
    after, _ = service.queue_workers()
    return {"taking": taking, "pid": victim, "recovery_seconds": _r(recovered), "killed_at": killed_db.isoformat(),
            "cluster_restarted": after is not None and after != sentinel, "healthz": states,
            "load_average": round(os.getloadavg()[0], 2)}  # the recovery's pace depends on the machine's


def queue_waits(service: Service, kills: list[dict[str, Any]]) -> None:
    """Per kill, once all of them are done: how long until the first task enqueued after the kill had finished
    (django-q2's ``started`` is the enqueue time) — the wait of the work queued behind the backlog at that moment,
    recovery or not."""
    for kill in kills:
        if "killed_at" not in kill:
            continue
        wait = sql_rows(service.home, "SELECT extract(epoch FROM min(stopped) - %s::timestamptz) FROM django_q_task "
                                      "WHERE started > %s::timestamptz", (kill["killed_at"], kill["killed_at"]))[0][0]
        kill["queue_wait_seconds"] = _r(float(wait)) if wait is not None else None


def summarize_kills(kills: list[dict[str, Any]], *, goal: float = RECOVERY_GOAL_SECONDS) -> dict[str, Any]:
    """The kills in numbers: how many recovered, the longest and median recovery, how many needed a cluster restart,
    and what /healthz said while a stall lasted (kills whose recovery took longer than a few seconds)."""
    done = [k for k in kills if "error" not in k]
    times = [k["recovery_seconds"] for k in done if k.get("recovery_seconds") is not None]
    stall_states: dict[str, int] = {}
    for k in done:
        if k.get("recovery_seconds") is None or k["recovery_seconds"] > 10:
            for state, n in k.get("healthz", {}).items():
                stall_states[state] = stall_states.get(state, 0) + n
    longest = max(times) if times else None
    return {"kills": len(done), "taking_a_task": sum(1 for k in done if k.get("taking")),
            "not_done": len(kills) - len(done), "recoveries": len(times),
            "not_recovered": len(done) - len(times), "longest_recovery_seconds": longest,
            "median_recovery_seconds": _r(statistics.median(times)) if times else None,
            "cluster_restarts": sum(1 for k in done if k.get("cluster_restarted")),
            "stalls": sum(1 for t in times if t > 10) + len(done) - len(times),
            "healthz_during_stalls": stall_states, "goal_longest_seconds": goal,
            "longest_queue_wait_seconds": max((k["queue_wait_seconds"] for k in done
                                               if k.get("queue_wait_seconds") is not None), default=None),
            "ok": bool(done) and len(times) == len(done) and longest is not None and longest <= goal}


def fault_verdict(report: dict[str, Any]) -> bool:
    """The fault bench passes when it ran without error, every acknowledged write was stored exactly once in every
    phase, and every worker kill recovered within the goal."""
    if "error" in report:
        return False
    phases = [report.get("worker_kill"), report.get("worker_kills"), *(report.get("postgres_kills") or [])]
    phases = [p for p in phases if p is not None]
    if not phases or any("lost" not in p or p["lost"] or p["duplicated"] for p in phases):
        return False
    kills = report.get("worker_kills")
    return kills is None or kills["summary"]["ok"]


def worker_kills(service: Service, clients: list[Client], count: int, start_at: int, seed: int = 7,
                 give_up_after: float = 240.0) -> dict[str, Any]:
    rng = random.Random(seed)
    stop = threading.Event()
    threads, errors = run_clients_until(clients, stop, start_at)
    kills: list[dict[str, Any]] = []
    try:
        for i in range(count):
            time.sleep(rng.uniform(0.5, 6.0))  # a random point of the work
            kill = worker_kill_once(service, rng, taking=i % 2 == 0, give_up_after=give_up_after)
            kills.append(kill)
            outcome = kill.get("error") or (f"recovered after {kill['recovery_seconds']}s"
                                            if kill["recovery_seconds"] is not None
                                            else f"not recovered within {give_up_after:.0f}s")
            log(f"worker kill {i + 1}/{count} ({'taking a task' if kill['taking'] else 'random'}): {outcome}"
                f"{', cluster restarted' if kill.get('cluster_restarted') else ''}; healthz {kill.get('healthz')}; "
                f"load {kill.get('load_average')}")
    finally:
        stop.set()
        for t in threads:
            t.join()
    settled = wait_consolidated(service.home, 600)
    queue_waits(service, kills)
    summary = summarize_kills(kills)
    result = {"clients": len(clients), "summary": summary, "kills": kills, "client_errors": errors,
              "all_consolidated_after_seconds": _r(settled), **integrity(service.home, clients)}
    log(f"worker kills: {summary['recoveries']}/{summary['kills']} recovered, longest "
        f"{summary['longest_recovery_seconds']}s, {summary['cluster_restarts']} cluster restarts; "
        f"lost {result['lost']}, duplicated {result['duplicated']}")
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
    parser.add_argument("--clients", type=int, default=CLIENTS, help="concurrent ingest clients (4)")
    parser.add_argument("--worker-kills", type=int, default=20,
                        help="kill -9 of one queue worker, repeated (20; each takes ~5 s, or up to ~80 s when it "
                             "wedges the cluster and the watchdog restarts it)")
    parser.add_argument("--postgres-kills", type=int, default=3, help="kill -9 of PostgreSQL, repeated (3)")
    args = parser.parse_args(argv)

    from testing.fake_openai import FakeOpenAIServer, FakeReply
    from testing.fake_responder import consolidation_responder

    home = Path(args.home).resolve()
    home.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    report: dict[str, Any] = {"benchmark": "faults", "clients": args.clients, "llm_delay_seconds": args.llm_delay,
                              "cpus": os.cpu_count(), "load_average_start": list(os.getloadavg())}
    server = FakeOpenAIServer(responder=lambda req: FakeReply(content=consolidation_responder(req),
                                                              delay=args.llm_delay)).start()
    service = Service(home, args.port, server.base_url)
    try:
        log(f"fresh database {DATABASE} in {home}")
        service.database_fresh()
        keys = []
        for i in range(args.clients + 1):
            out = service.manage("create_agent", "--project", "faults", "--name", f"client-{i}", "--role", "writer",
                                 "--role", "reader")
            keys.append(out.strip().splitlines()[-1])
        from recmem_site import embedded_db

        embedded_db.stop(home)  # a cold start, as after a reboot: the first connection starts the database
        report["warm_start"] = warm_start(service, keys[-1])
        clients = [Client(index=i, key=keys[i], base=service.url) for i in range(args.clients)]
        for client in clients:
            client.open_session()
        report["worker_kill"] = worker_kill(service, clients, args.writes)
        phase_started = time.perf_counter()
        report["worker_kills"] = worker_kills(service, clients, args.worker_kills, start_at=args.writes)
        report["worker_kills"]["wall_seconds"] = round(time.perf_counter() - phase_started, 1)
        start_at = max(len(c.acknowledged) for c in clients) + 1
        report["postgres_kills"] = []
        for i in range(args.postgres_kills):
            log(f"PostgreSQL kill {i + 1}/{args.postgres_kills}")
            report["postgres_kills"].append(postgres_kill(service, clients, args.writes, start_at=start_at))
            start_at = max(len(c.acknowledged) for c in clients) + 1
        report["postgres_kill"] = report["postgres_kills"][0] if report["postgres_kills"] else None
        report["settings"] = {"batch_lease_seconds": 20, "reaper": "django-q schedule every minute",
                              "web_workers": 2, "queue_workers": 2,
                              "worker": "manage.py queue_watchdog --supervise"}
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
    return 0 if fault_verdict(report) else 1


if __name__ == "__main__":
    raise SystemExit(main())
