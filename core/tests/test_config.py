"""The typed configuration: parsed once, validated, and a bad value stops start-up naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import Config, ConfigError, config

REPO = Path(__file__).resolve().parents[2]


def test_defaults_without_any_variable():
    conf = Config.from_env({})
    assert conf.consolidation.mode == "idle" and conf.idle.jitter_seconds == (60, 600)
    assert conf.queue.retry_seconds == conf.queue.timeout + 120
    assert conf.consolidation.theta_sim is None  # the embedding model's own threshold applies
    assert conf.search.weights == {"similarity": 1.0, "freshness": 0.05, "confidence": 0.05, "hits": 0.02}


def test_values_are_parsed_to_their_types():
    conf = Config.from_env({"RECMEM_IDLE_MINUTES": "3", "RECMEM_SALIENCE": "off", "RECMEM_THETA_SIM": "0.62",
                            "RECMEM_IDLE_JITTER_SECONDS": "5, 9", "DJANGO_ALLOWED_HOSTS": "a.example, b.example",
                            "RECMEM_CONSOLIDATION_MODE": "online", "RECMEM_THETA_COUNT": "0"})
    assert conf.idle.minutes == 3 and conf.consolidation.salience is False and conf.consolidation.theta_sim == 0.62
    assert conf.idle.jitter_seconds == (5, 9) and conf.server.allowed_hosts == ("a.example", "b.example")
    assert conf.consolidation.mode == "online" and conf.consolidation.theta_count is None  # 0: "not set"


@pytest.mark.parametrize(("env", "value", "says"), [
    ("RECMEM_IDLE_MINUTES", "abc", "expected a whole number"),
    ("RECMEM_IDLE_MINUTES", "-1", "must be at least 0"),
    ("RECMEM_CONSOLIDATION_MODE", "sometimes", "expected one of 'idle', 'online', 'off'"),
    ("RECMEM_CONSOLIDATION_MODE", "eager", "expected one of"),  # the benchmarks' baseline, not a product mode
    ("RECMEM_EMBEDDINGS_BACKEND", "hashing", "expected one of"),  # a test double, not a backend
    ("RECMEM_RECURRENCE_PRESET", "chatty", "expected one of '', 'chat', 'task'"),
    ("RECMEM_THETA_SIM", "1.5", "must be at most 1.0"),
    ("RECMEM_SALIENCE", "maybe", "expected one of"),
    ("RECMEM_IDLE_JITTER_SECONDS", "600,60", "low <= high"),
    ("RECMEM_PORT", "70000", "must be at most 65535"),
    ("RECMEM_LLM_BASE_URL", "localhost:8099", "expected an http(s) URL"),
    ("RECMEM_EMBEDDINGS_DIMENSIONS", "768", "must be at most 384"),
    ("RECMEM_DB_SHARED_BUFFERS", "4 gigs", "expected a PostgreSQL memory size"),
    ("RECMEM_DB_WORK_MEM", "0MB", "expected a PostgreSQL memory size"),
    ("TIME_ZONE", "Mars/Olympus", "unknown time zone"),
    ("RECMEM_SEARCH_PEER_EXCHANGES", "some", "expected one of 'trusted', 'all'"),
    ("RECMEM_SEARCH_PEER_ITEMS", "corroborated", "expected one of 'guarded', 'trusted', 'reviewed', 'all'"),
])
def test_a_bad_value_names_the_variable(env, value, says):
    with pytest.raises(ConfigError) as caught:
        Config.from_env({env: value})
    assert env in str(caught.value) and says in str(caught.value)


def test_every_bad_value_is_reported_at_once_and_secrets_are_not_echoed():
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"RECMEM_IDLE_MINUTES": "x", "RECMEM_Q_WORKERS": "0",
                         "RECMEM_LLM_BASE_URL": "ftp://user:hunter2@host"})
    message = str(caught.value)
    assert "RECMEM_IDLE_MINUTES" in message and "RECMEM_Q_WORKERS" in message and "RECMEM_LLM_BASE_URL" in message
    assert "hunter2" not in message


def test_cross_field_rules():
    with pytest.raises(ConfigError, match="RECMEM_Q_RETRY .* must be greater than RECMEM_Q_TIMEOUT"):
        Config.from_env({"RECMEM_Q_TIMEOUT": "600", "RECMEM_Q_RETRY": "300"})
    with pytest.raises(ConfigError, match="RECMEM_CONSOLIDATOR=llm needs RECMEM_LLM_BASE_URL"):
        Config.from_env({"RECMEM_CONSOLIDATOR": "llm"})


def test_replace_validates_too():
    with pytest.raises(ConfigError):
        Config.from_env({}).replace(consolidation__consolidator="llm", llm__base_url="")


def test_the_configuration_is_frozen():
    with pytest.raises(AttributeError):
        Config.from_env({}).idle.minutes = 5


def test_every_field_has_its_own_variable():
    variables = Config.variables()
    assert len(set(variables.values())) == len(variables)
    assert all(v.isupper() for v in variables.values())


def test_config_reads_django_settings_when_configured(settings):
    settings.RECMEM = settings.RECMEM.replace(idle__minutes=7)
    assert config().idle.minutes == 7


@pytest.mark.parametrize("argv", [["manage.py", "check"], ["-c", "import recmem_site.wsgi"]])
def test_start_up_stops_on_a_bad_value_naming_it(argv, tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "recmem_site.settings.base", "RECMEM_HOME": str(tmp_path),
           "RECMEM_IDLE_MINUTES": "ten", "RECMEM_TEST_HOME_OK": "1"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, *argv], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "RECMEM_IDLE_MINUTES='ten': expected a whole number" in done.stderr


def test_every_variable_is_documented_in_the_readme():
    readme = (REPO / "README.md").read_text()
    missing = [env for env in Config.variables().values() if f"`{env}`" not in readme]
    assert not missing, f"not in the README's configuration table: {missing}"


def test_the_session_pass_is_on_by_default_only_without_an_llm():
    from core.config import Config

    def cfg(**env):
        return Config.from_env({"RECMEM_HOME": "/tmp/x", **env})

    assert cfg().session_pass_on  # no endpoint: the extractive consolidator, zero tokens
    assert cfg(RECMEM_LLM_BASE_URL="http://127.0.0.1:9/v1").session_pass_on  # an LLM too (the cued units only)
    assert cfg(RECMEM_LLM_BASE_URL="http://127.0.0.1:9/v1", RECMEM_CONSOLIDATOR="extractive").session_pass_on
    assert cfg(RECMEM_LLM_BASE_URL="http://127.0.0.1:9/v1", RECMEM_IDLE_SESSION_PASS="1").session_pass_on
    assert not cfg(RECMEM_IDLE_SESSION_PASS="off").session_pass_on
    with pytest.raises(ConfigError, match="RECMEM_IDLE_SESSION_PASS"):
        cfg(RECMEM_IDLE_SESSION_PASS="sometimes")


def test_settings_are_grouped_in_sections_and_replaced_by_section():
    conf = Config.from_env({"RECMEM_SEARCH_K_SUB": "3", "RECMEM_Q_WORKERS": "4"})
    assert conf.search.k_sub == 3 and conf.queue.workers == 4
    changed = conf.replace(search__k_sub=7, llm__base_url="http://127.0.0.1:9/v1", home=Path("/tmp/h"))
    assert (changed.search.k_sub, changed.llm.base_url, changed.home) == (7, "http://127.0.0.1:9/v1", Path("/tmp/h"))
    assert conf.search.k_sub == 3  # a copy
    with pytest.raises(TypeError, match="unknown configuration section"):
        conf.replace(searching__k_sub=1)
    with pytest.raises(TypeError):
        conf.replace(search__no_such_setting=1)
    assert Config.variables()["search.k_sub"] == "RECMEM_SEARCH_K_SUB"
    assert Config.variables()["home"] == "RECMEM_HOME"


def test_the_openai_key_is_read_through_the_configuration():
    assert Config.from_env({"OPENAI_API_KEY": "sk-a"}).llm.api_key == "sk-a"
    assert Config.from_env({"OPENAI_API_KEY": "sk-a"}).embeddings.api_key == "sk-a"
    both = Config.from_env({"OPENAI_API_KEY": "sk-a", "RECMEM_LLM_API_KEY": "sk-b"})
    assert both.llm.api_key == "sk-b"  # RecMem's own variable wins
