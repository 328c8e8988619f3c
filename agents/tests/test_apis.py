from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import ApiKey
from agents.services import api_key_create, api_key_revoke

ME = "/api/v1/agents/me"


def _assert_401(response, code):
    assert response.status_code == 401, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    assert response.has_header("WWW-Authenticate")


@pytest.mark.django_db
def test_me_returns_agent_project_roles_modules(api_client, make_agent):
    holder = make_agent(project="acme", name="planner", modules=["ops", "billing"], roles=["writer", "reader"])
    response = api_client.get(ME, **holder.headers)
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "planner"
    assert body["project"]["name"] == "acme"
    assert body["roles"] == ["writer", "reader"]
    assert [m["name"] for m in body["modules"]] == ["billing", "ops"]
    assert body["key"]["prefix"] == holder.key.split("_")[1]


@pytest.mark.django_db
def test_missing_header_is_401(api_client):
    _assert_401(api_client.get(ME), "not_authenticated")


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["Token abc", "Bearer", "Bearer a b", "Basic dXNlcjpwYXNz"])
def test_malformed_header_is_401(api_client, header):
    _assert_401(api_client.get(ME, HTTP_AUTHORIZATION=header), "malformed_header")


@pytest.mark.django_db
def test_malformed_key_is_401(api_client):
    _assert_401(api_client.get(ME, HTTP_AUTHORIZATION="Bearer not-a-recmem-key"), "malformed_key")


@pytest.mark.django_db
def test_unknown_key_is_401(api_client, make_agent):
    holder = make_agent()
    prefix = holder.key.split("_")[1]
    forged = f"rmk_{prefix}_" + "A" * 43  # right prefix, wrong secret
    _assert_401(api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {forged}"), "unknown_key")
    _assert_401(api_client.get(ME, HTTP_AUTHORIZATION="Bearer rmk_ZZZZZZZZ_" + "B" * 43), "unknown_key")


@pytest.mark.django_db
def test_revoked_key_is_401(api_client, make_agent):
    holder = make_agent()
    api_key_revoke(api_key=holder.agent.api_keys.get())
    _assert_401(api_client.get(ME, **holder.headers), "revoked_key")


@pytest.mark.django_db
def test_expired_key_is_401(api_client, make_agent):
    holder = make_agent()
    issued = api_key_create(agent=holder.agent, expires_at=timezone.now() + timedelta(minutes=5))
    assert api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {issued.raw_key}").status_code == 200
    ApiKey.objects.filter(pk=issued.api_key.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    _assert_401(api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {issued.raw_key}"), "expired_key")


@pytest.mark.django_db
def test_disabled_agent_is_401(api_client, make_agent):
    holder = make_agent()
    holder.agent.is_active = False
    holder.agent.save()
    _assert_401(api_client.get(ME, **holder.headers), "agent_disabled")
