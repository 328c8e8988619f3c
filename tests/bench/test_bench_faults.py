"""bench.faults: the worker-kill summary and the bench's verdict, from made-up kills (no process is started)."""

from __future__ import annotations

from bench.faults import _healthz_state, fault_verdict, summarize_kills


def _kill(recovery, *, taking=False, restarted=False, healthz=None):
    return {"taking": taking, "pid": 1, "recovery_seconds": recovery, "cluster_restarted": restarted,
            "healthz": healthz or {"ok": 1}}


def test_summary_counts_recoveries_the_longest_and_the_stall_states():
    kills = [_kill(1.5, taking=True), _kill(0.4),
             _kill(74.0, taking=True, restarted=True, healthz={"ok": 40, "degraded: queue stalled": 34}),
             {"taking": False, "error": "no queue worker to kill"}]
    summary = summarize_kills(kills)
    assert summary["kills"] == 3 and summary["not_done"] == 1
    assert summary["recoveries"] == 3 and summary["not_recovered"] == 0
    assert summary["taking_a_task"] == 2 and summary["cluster_restarts"] == 1
    assert summary["longest_recovery_seconds"] == 74.0 and summary["median_recovery_seconds"] == 1.5
    # only the stall's looks count (a kill that recovered at once says nothing about a stall)
    assert summary["stalls"] == 1
    assert summary["healthz_during_stalls"] == {"ok": 40, "degraded: queue stalled": 34}
    assert summary["ok"] is True


def test_summary_fails_on_a_kill_that_never_recovered_or_took_too_long():
    never = summarize_kills([_kill(2.0), _kill(None, healthz={"degraded: queue stalled": 240})])
    assert never["recoveries"] == 1 and never["not_recovered"] == 1 and never["stalls"] == 1
    assert never["ok"] is False and never["healthz_during_stalls"] == {"degraded: queue stalled": 240}
    slow = summarize_kills([_kill(121.0)])
    assert slow["ok"] is False and slow["longest_recovery_seconds"] == 121.0
    assert summarize_kills([])["ok"] is False  # no kill done proves nothing


def _phase(lost=0, duplicated=0):
    return {"acknowledged": 10, "stored": 10, "lost": lost, "duplicated": duplicated}


def test_verdict_needs_no_loss_no_duplicate_and_recovered_kills():
    good = {"worker_kill": _phase(), "worker_kills": {**_phase(), "summary": {"ok": True}},
            "postgres_kills": [_phase(), _phase(), _phase()]}
    assert fault_verdict(good) is True
    assert fault_verdict({**good, "postgres_kills": [_phase(), _phase(lost=1), _phase()]}) is False
    assert fault_verdict({**good, "worker_kills": {**_phase(duplicated=1), "summary": {"ok": True}}}) is False
    assert fault_verdict({**good, "worker_kills": {**_phase(), "summary": {"ok": False}}}) is False
    assert fault_verdict({**good, "error": "RuntimeError: not ready"}) is False
    assert fault_verdict({}) is False


def test_healthz_state_names_a_stalled_queue():
    assert _healthz_state(None) == "no answer"
    assert _healthz_state({"status": "ok", "checks": {"queue_progress": {"ok": True}}}) == "ok"
    body = {"status": "degraded", "checks": {"queue_progress": {"ok": True, "degraded": True, "problems": ["x"]}}}
    assert _healthz_state(body) == "degraded: queue stalled"
