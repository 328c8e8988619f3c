"""Hostile clients, generated: schemathesis against our own /api/schema/ with a valid key: no 5xx and no schema
violation.

Bounded so it fits in `make test`: derandomized (a fixed seed) and a few examples per operation; `make fuzz` runs
the same test with many more (RECMEM_FUZZ_EXAMPLES). Runs in-process through WSGI on the test database, with rate
limits off (they are tested on their own).

Two things make the fuzzer reach the code behind the validation: every request carries its own Idempotency-Key (a
generated key repeats across examples, and a reused key with another body is a 409 that stops the request before
the view), and the experience detail, PATCH and DELETE operations are sent, for most examples, the id of a real
item: one of the agent's own personal items (changed at once) or a module item (a proposal for review).
"""

import itertools
import os
import re
import uuid

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("RECMEM_FUZZ_EXAMPLES", "8"))
KEY = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")  # the documented Idempotency-Key pattern

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
    holder = make_agent(modules=["ops"], roles=("writer", "reader", "operator"))
    yield holder
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def real_items(agent_key):
    """A personal item of the agent and a module item it shares: ids for the experience operations."""
    from agents.models import Module
    from memory.gateways.embeddings import get_embedder
    from memory.models import Experience

    agent = agent_key.agent
    embedder = get_embedder()
    vector = embedder.embed_one("deploys: every deploy needs a reviewer")
    common = {"project": agent.project, "owner_agent": agent, "type": "constraint", "subject": "deploys",
              "statement": "Every deploy needs a reviewer.", "embedding": vector,
              "embedding_model": embedder.model_id}
    personal = Experience.objects.create(scope="personal", **common)
    module = Experience.objects.create(scope="module", module=Module.objects.get(project=agent.project, name="ops"),
                                       **common)
    return [personal, module]


_turn = itertools.count()


def _with_real_id(case, items) -> None:
    """Three examples in four get a real item (a deleted personal item is made active again, so the next DELETE
    or PATCH reaches the view, not the not-editable refusal); the fourth keeps the generated id."""
    if "experience_id" not in (case.path_parameters or {}):
        return
    n = next(_turn)
    if n % 4 == 3:
        return
    from memory.models import Experience, MemoryStatus

    item = items[n % 2]
    Experience.objects.filter(pk=item.pk).update(status=MemoryStatus.ACTIVE)
    case.path_parameters["experience_id"] = str(item.pk)


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case, agent_key, real_items):
    _with_real_id(case, real_items)
    headers = {"Authorization": f"Bearer {agent_key.key}"}
    generated = (case.headers or {}).get("Idempotency-Key")
    if case.method.upper() in ("POST", "PATCH", "DELETE") and (generated is None or KEY.fullmatch(str(generated))):
        # One key per request: a generated one repeats, and its replay (or 409 for another body) is not the view.
        # A generated key that breaks the documented pattern is kept: its refusal is what that example tests.
        headers["Idempotency-Key"] = str(uuid.uuid4())
    case.call_and_validate(headers=headers)
