"""Credentials in the grammar of commands and code, where the value has a slot rather than a separator — a setting
named for a credential and its value after a space, a secret piped into a command that reads it, a Terraform
default, a SQL role's password, a PowerShell secure string, htpasswd / net user / Redis AUTH, a UUID named a key —
and the documentation lines with the same words that must stay."""

from __future__ import annotations

import random

import pytest

from bench.canaries import Canaries
from governance.privacy.recognizers import find_secrets

from .secret_checks import covered, secret_spans

PW = Canaries(random.Random(20261237)).password()


SLOTS = [
    f"ENV DB_PASSWORD {PW}",
    f'setx API_SECRET "{PW}"',
    f"setenv SMTP_PASSWORD {PW}",
    f"rclone config create s3 s3 secret_access_key {PW}",
    f"echo '{PW}' | docker login -u deploy --password-stdin registry.example.com",
    f'echo "admin:{PW}" | chpasswd',
    f"printf '{PW}\\n' | sudo -S apt update",
    f"smbpasswd -a alice <<< $'{PW}\\n{PW}'",
    f'variable "db_password" {{ default = "{PW}" }}',
    f"ALTER ROLE app_rw PASSWORD '{PW}';",
    f'New-LocalUser -Name svc -Password (ConvertTo-SecureString "{PW}" -AsPlainText -Force)',
    f"htpasswd -b /etc/nginx/.htpasswd admin {PW}",
    f"net user backup {PW} /add",
    f"Redis AUTH {PW} then PING",
    "heroku api key 8f14e45f-ceea-467f-a8d3-9f2a1c6b7e21 for the prod app",
    f"echo '{PW}' | gh auth login --with-token",
    f"yes '{PW}' | passwd deploy",
    f"printf \"%s\" '{PW}' | vault login -method=userpass username=ci password=-",
    f'variable "admin_secret" {{\n  default = "{PW}"\n}}',
]


@pytest.mark.parametrize("text", SLOTS, ids=[t[:20] for t in SLOTS])
def test_a_credential_in_its_commands_slot_is_a_secret(text):
    value = "8f14e45f-ceea-467f-a8d3-9f2a1c6b7e21" if "heroku" in text else PW
    assert covered(text, value), secret_spans(text)


def test_a_powershell_flag_before_an_expression_leaves_the_expression_alone():
    text = f'-Password (ConvertTo-SecureString "{PW}" -AsPlainText)'
    assert set(secret_spans(text)) == {PW}


DOCS = [
    "ENV DB_PASSWORD_FILE /run/secrets/db_password",
    "ENV API_TOKEN_URL https://auth.example.com/token",
    "ARG NPM_TOKEN",
    'setx JAVA_HOME "C:\\Program Files\\Java\\jdk-21"',
    "export SECRET_KEY_BASE64 DecodeSecret2",
    "DB_PASSWORD ${DB_PASSWORD}",
    "the API_KEY variable must be set before 10:00",
    "mem = RecMem()  # RECMEM_URL (default http://localhost:8000), RECMEM_API_KEY (printed by make run)",
    "middleware, API-key authentication, throttling, DRF",
    "    proxy_pass http://localhost:8000;",
    "manage.py revoke_key rmk_abcdefgh_… [--reason leaked]",
    'echo "build finished" | mail -s done ops@example.com',
    "echo 'hello world' | passwd --help",
    'echo "$PASSWORD" | docker login -u deploy --password-stdin',
    "variable \"db_password\" { type = string, sensitive = true }",
    "ALTER ROLE app_rw PASSWORD NULL;",
    "ConvertTo-SecureString $plain -AsPlainText -Force",
    "htpasswd -B -c /etc/nginx/.htpasswd admin",
    "net user bob /delete",
    "net user administrator /active:yes",
    "AUTH required before the command in Redis 6",
    "redis AUTH default $REDIS_PASSWORD",
    "code 4/9, role 0/9, promotion 1/7 (before: 7, 3, 7, 9, 0, 5, 3, 4, 0, 4)",
]


@pytest.mark.parametrize("text", DOCS, ids=[t[:20] for t in DOCS])
def test_documentation_with_the_same_words_stays(text):
    assert find_secrets(text) == [], secret_spans(text)
