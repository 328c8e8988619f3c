"""Hostile clients, generated: schemathesis against our own /api/schema/ with a valid key: no 5xx and no schema
violation.

Bounded so it fits in `make test`: derandomized (a fixed seed) and a few examples per operation; `make fuzz` runs
the same test with many more (RECMEM_FUZZ_EXAMPLES). Runs in-process through WSGI on the test database, with rate
limits off (they are tested on their own).
"""

import os

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("RECMEM_FUZZ_EXAMPLES", "8"))

# Loaded at import: generating the schema needs no database (the view has no authentication).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
# Strings are Unicode text: no unpaired surrogates (not valid in UTF-8) and no NUL (documented as refused; the
# schema's declared strings say so with a pattern, the free-form metadata only in its description). The key is sent
# on every request, so the auth header is not generated as a parameter.
schema.config.generation.update(allow_x00=False, codec="utf-8", with_security_parameters=False)


@pytest.fixture
def agent_key(db, make_agent, settings):
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    # As Django's test client does: the WSGI handler must not close the test's connection (and its transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    settings.RECMEM = settings.RECMEM.replace(limits__rate_agent="", limits__rate_ip="", limits__rate_failed_auth="")
    yield make_agent(modules=["ops"], roles=("writer", "reader", "operator")).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case, agent_key):
    case.call_and_validate(headers={"Authorization": f"Bearer {agent_key}"})
