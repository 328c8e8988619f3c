import pytest

from agents.models import Agent, Module, Project
from agents.services import agent_create, api_key_revoke
from core.errors import ApplicationError


@pytest.mark.django_db
def test_agent_create_creates_project_and_modules():
    agent = agent_create(project_name="p1", name="a1", module_names=["billing", "search"], roles=["writer"])
    assert Project.objects.filter(name="p1").count() == 1
    assert sorted(m.name for m in agent.modules.all()) == ["billing", "search"]
    assert agent.roles == ["writer"]
    again = agent_create(project_name="p1", name="a2", module_names=["billing"])
    assert Module.objects.filter(project__name="p1").count() == 2
    assert again.modules.get().name == "billing"


@pytest.mark.django_db
def test_agent_create_rejects_duplicates_and_unknown_roles():
    agent_create(project_name="p1", name="a1")
    with pytest.raises(ApplicationError):
        agent_create(project_name="p1", name="a1")
    with pytest.raises(ApplicationError):
        agent_create(project_name="p1", name="a3", roles=["superhero"])
    assert Agent.objects.count() == 1


@pytest.mark.django_db
def test_revoke_is_idempotent(make_agent):
    holder = make_agent()
    key = holder.agent.api_keys.get()
    first = api_key_revoke(api_key=key).revoked_at
    assert api_key_revoke(api_key=key).revoked_at == first
