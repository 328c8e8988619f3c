"""`recmem run`'s start progress: each part's state in one line, printed on change and now and then, and a start
slower than RECMEM_START_TIMEOUT named part by part, without giving up."""

from __future__ import annotations

import recmem_site.cli as cli
from recmem_site.cli import StartProgress, _StartReporter, ready, web_ready

WARM_WEB = {"status": "ok", "checks": {"process": {"ready": True}, "queue": {"workers_warm": 0}}}


def test_the_web_server_is_ready_before_the_queue_workers():
    assert web_ready(WARM_WEB) and not ready(WARM_WEB, queue_workers=1)
    assert ready({**WARM_WEB, "checks": {**WARM_WEB["checks"], "queue": {"workers_warm": 1}}}, queue_workers=1)
    assert not web_ready(None) and not web_ready({"status": "fail", "checks": {"process": {"ready": True}}})
    assert not web_ready({"status": "ok", "checks": {"process": {"ready": False}}})


def test_progress_names_each_part_and_what_it_waits_for():
    progress = StartProgress(web_warm=1, web_total=2, queue_warm=0, queue_total=1, web_ready=True)
    assert progress.describe() == "web workers 1/2 warm (answering), queue workers 0/1 warm"
    assert progress.waiting_for() == "the queue workers (worker.log)" and not progress.queue_ready
    cold = StartProgress(web_warm=0, web_total=2, queue_warm=0, queue_total=1, web_ready=False)
    assert cold.waiting_for() == "the web workers (web.log) and the queue workers (worker.log)"


def test_reporter_prints_changes_and_warns_once_past_the_timeout(tmp_path, capsys, monkeypatch):
    clock = {"now": 1000.0}
    monkeypatch.setattr(cli.time, "monotonic", lambda: clock["now"])
    reporter = _StartReporter(timeout=60, log_dir=tmp_path)
    cold = StartProgress(web_warm=0, web_total=2, queue_warm=0, queue_total=1, web_ready=False)
    reporter.report(cold)
    clock["now"] += 1
    reporter.report(cold)  # nothing changed, too soon: no line
    clock["now"] += cli.PROGRESS_EVERY
    reporter.report(cold)  # nothing changed, but a while passed: a line
    half = StartProgress(web_warm=1, web_total=2, queue_warm=0, queue_total=1, web_ready=True)
    reporter.report(half)
    clock["now"] += 60
    reporter.report(half)
    reporter.report(half)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("] ", 1)[1] for line in lines if "] " in line] == [
        cold.describe(), cold.describe(), half.describe(), half.describe()]
    warnings = [line for line in lines if "still waiting after 60s" in line]
    assert len(warnings) == 1 and "the queue workers (worker.log)" in warnings[0] and str(tmp_path) in warnings[0]
