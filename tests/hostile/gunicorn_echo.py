"""A WSGI app for the real-gunicorn tests of tests/hostile/test_input_bounds.py: answers with what Django would read
of the body (exactly CONTENT_LENGTH bytes), behind the same body middleware as the product."""

import json

from recmem_site.wsgi_body import ChunkedBodyMiddleware


def _echo(environ, start_response):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    payload = json.dumps({"content_length": length, "body": body.decode()}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
    return [payload]


application = ChunkedBodyMiddleware(_echo)
