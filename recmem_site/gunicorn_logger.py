"""gunicorn's logger with agent input redacted from the access and error logs (``--logger-class``).

The request line keeps its method, the redacted target (:func:`recmem_site.log_redaction.redact_target`) and the
protocol; the user-agent, referer and HTTP Basic user are written as ``-`` (headers are agent input); request headers
and the environment are not offered to custom log formats. Error-log messages that name a request target
("Error handling request /api/…") are redacted the same way.
"""

from __future__ import annotations

from gunicorn.glogging import Logger

from recmem_site.log_redaction import redact_target, redact_text


class RedactingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        target = redact_target(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""))
        atoms = {k: v for k, v in atoms.items() if not (k.startswith("{") and k.endswith(("}i", "}e")))}
        atoms.update({"r": f"{environ.get('REQUEST_METHOD')} {target} {environ.get('SERVER_PROTOCOL')}",
                      "U": target.partition("?")[0], "q": target.partition("?")[2], "f": "-", "a": "-", "u": "-"})
        return atoms

    def _redacted(self, args):
        return tuple(redact_text(a) if isinstance(a, str) else a for a in args)

    def critical(self, msg, *args, **kwargs):
        super().critical(msg, *self._redacted(args), **kwargs)

    def error(self, msg, *args, **kwargs):
        super().error(msg, *self._redacted(args), **kwargs)

    def warning(self, msg, *args, **kwargs):
        super().warning(msg, *self._redacted(args), **kwargs)

    def info(self, msg, *args, **kwargs):
        super().info(msg, *self._redacted(args), **kwargs)

    def debug(self, msg, *args, **kwargs):
        super().debug(msg, *self._redacted(args), **kwargs)

    def exception(self, msg, *args, **kwargs):
        super().exception(msg, *self._redacted(args), **kwargs)
