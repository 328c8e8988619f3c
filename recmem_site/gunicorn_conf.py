"""gunicorn settings of ``recmem run`` (``gunicorn -c python:recmem_site.gunicorn_conf``): warm workers, a stop
within the grace period.

Each worker loads the embedder and the masking engine (memory/warmup.py) after the application and before its
accept loop starts, so a worker that answers is warm and the first request is as fast as the hundredth. The load
runs in a thread while the worker keeps telling the master it is alive, and a stop (Ctrl-C) during it is obeyed
at once instead of after the load. Models are not loaded in the master and forked (``preload_app``): torch's
thread pools do not survive a fork reliably.
"""

from __future__ import annotations

import sys
import threading

import gunicorn.util

from core.config import config as recmem_config  # not `config`: gunicorn reads module names as settings

graceful_timeout = recmem_config().server.stop_grace
timeout = 120
# Agent input (paths, query strings, headers) is redacted from the access and error logs.
logger_class = "recmem_site.gunicorn_logger.RedactingLogger"


# gunicorn's own refusals (a malformed request line: 400, a request line over limit_request_line: 414, too many or
# too large headers: 431) come from its worker before the application sees the request, as an HTML page. gunicorn has
# no setting or hook for that body; its workers write it with ``gunicorn.util.write_error``, replaced here (this
# module is loaded before the workers fork) by the API's JSON error envelope. The message is the status's reason
# only: gunicorn's detail quotes the request line or a header, which is agent input.
_ERROR_CODES = {400: "bad_request", 403: "forbidden", 414: "uri_too_long", 417: "expectation_failed",
                431: "header_fields_too_large", 500: "server_error", 501: "not_implemented"}


def _json_error(sock, status_int, reason, mesg) -> None:
    import json

    body = json.dumps({"error": {"code": _ERROR_CODES.get(status_int, "bad_request"),
                                 "message": str(reason).lower()}}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    gunicorn.util.write_nonblock(sock, head.encode("latin-1") + body)


gunicorn.util.write_error = _json_error


def post_worker_init(worker) -> None:
    if not recmem_config().server.warm_up:
        return
    from memory.warmup import warm_up, web_worker_warm_record

    done = threading.Event()

    def load() -> None:
        try:
            warm_up(role="web")
            web_worker_warm_record()
        except Exception:  # the worker still serves (models then load on first use); the failure is in the log
            worker.log.exception("warm-up failed")
        finally:
            done.set()

    threading.Thread(target=load, name="warm-up", daemon=True).start()
    while not done.wait(1.0):
        worker.notify()
        if not worker.alive:  # asked to stop while warming: stop now (not a boot failure)
            worker.log.info("stopping during warm-up")
            _leave()


def worker_exit(server, worker) -> None:
    """Leave at once: tearing down an interpreter holding torch and spaCy takes seconds (measured 6 s on two cores)
    and would eat the stop's grace period. Connections and files are released by the OS; logs are flushed first.
    A worker that never booted exits the usual way, with the code that tells the master it could not boot."""
    if worker.booted:
        _leave()


def _leave() -> None:
    import logging
    import os

    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
