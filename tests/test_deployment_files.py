"""docker-compose.yml and docs/deployment.md against the configuration: every variable they name is one RecMem
reads, and the settings that must match across machines are set once, for every web server and worker alike."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from core.config import Config

REPO = Path(__file__).resolve().parent.parent
VARIABLES = set(Config.variables().values())
MUST_MATCH = {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "RECMEM_VAULT_KEY", "RECMEM_PSEUDONYM_KEY",
              "RECMEM_Q_NAME", "RECMEM_CONSOLIDATION_MODE", "RECMEM_EMBEDDINGS_BACKEND", "RECMEM_LLM_BASE_URL",
              "RECMEM_LLM_MODEL"}


def _compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_compose_has_the_topology():
    services = _compose()["services"]
    assert {"postgres", "redis", "migrate", "web", "worker"} <= set(services)
    assert "pgvector" in services["postgres"]["image"]
    assert services["web"]["image"] == services["worker"]["image"] == services["migrate"]["image"]
    assert services["worker"]["command"][-1] == "qcluster"
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_compose_sets_only_variables_recmem_reads():
    compose = _compose()
    named = set(compose["x-shared"])
    for service in ("migrate", "web", "worker"):
        named |= set(compose["services"][service]["environment"])
    named.discard("<<")
    assert named - VARIABLES == set()


def test_settings_that_must_match_are_shared_by_every_web_server_and_worker():
    compose = _compose()
    shared = compose["x-shared"]
    assert MUST_MATCH <= set(shared)
    for service in ("migrate", "web", "worker"):
        env = compose["services"][service]["environment"]
        assert all(env.get(name, shared[name]) == shared[name] for name in MUST_MATCH), service
    assert "?" in shared["DJANGO_SECRET_KEY"] and "?" in shared["RECMEM_VAULT_KEY"]  # no default: set once
    assert "?" in shared["RECMEM_PSEUDONYM_KEY"]


def test_the_deployment_page_names_real_variables():
    text = (REPO / "docs" / "deployment.md").read_text()
    named = {n for n in re.findall(r"`((?:RECMEM|DJANGO|DATABASE|REDIS|TIME)_[A-Z_]*)`", text) if not n.endswith("_")}
    assert named and named - VARIABLES == set()
    table = text.split("## Settings that must match")[1].split("\n## ")[0]
    assert [n for n in sorted(MUST_MATCH) if f"`{n}`" not in table] == []
