"""Production settings: `check --deploy` is clean with RECMEM_HTTPS=1; DJANGO_DEBUG=1 only on loopback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import Config, ConfigError

REPO = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("RECMEM_", "DJANGO_"))}
    environ.update(DJANGO_SETTINGS_MODULE="recmem_site.settings.base", RECMEM_HOME=str(tmp_path),
                   DJANGO_ALLOWED_HOSTS="recmem.example.com", **env)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=REPO, env=environ, capture_output=True, text=True, timeout=300)


def test_check_deploy_is_clean_with_https(tmp_path):
    result = _check_deploy(tmp_path, RECMEM_HTTPS="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_without_https_names_the_four_warnings(tmp_path):
    """The observation: 4 warnings (HSTS, SSL redirect, secure session and CSRF cookies) — still what plain HTTP
    (development) gets, so the check is real."""
    result = _check_deploy(tmp_path)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout, warning


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.5", "recmem.example.com", "::"])
def test_debug_is_refused_unless_bound_to_loopback(host):
    with pytest.raises(ConfigError, match="DJANGO_DEBUG=1 is refused"):
        Config.from_env({"DJANGO_DEBUG": "1", "RECMEM_HOST": host})
    assert Config.from_env({"DJANGO_DEBUG": "0", "RECMEM_HOST": host}).server.host == host


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_debug_is_allowed_on_loopback(host):
    assert Config.from_env({"DJANGO_DEBUG": "1", "RECMEM_HOST": host}).server.debug


def test_debug_on_a_public_address_stops_start_up(tmp_path):
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("RECMEM_", "DJANGO_"))}
    environ.update(DJANGO_SETTINGS_MODULE="recmem_site.settings.base", RECMEM_HOME=str(tmp_path), DJANGO_DEBUG="1",
                   RECMEM_HOST="0.0.0.0")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=REPO, env=environ, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode != 0 and "DJANGO_DEBUG=1 is refused" in result.stderr


def test_rates_are_validated():
    assert Config.from_env({"RECMEM_RATE_AGENT": "30/s"}).limits.rate_agent == "30/s"
    assert Config.from_env({"RECMEM_RATE_IP": "off"}).limits.rate_ip == ""
    for bad in ("fast", "0/min", "10/week", "-1/s"):
        with pytest.raises(ConfigError, match="RECMEM_RATE_AGENT"):
            Config.from_env({"RECMEM_RATE_AGENT": bad})
