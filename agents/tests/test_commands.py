from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agents.keys import key_parse_prefix
from agents.models import Agent, ApiKey


@pytest.mark.django_db
def test_create_agent_prints_key_alone_on_last_line():
    out = StringIO()
    call_command("create_agent", "--project", "proj", "--name", "bot", "--module", "m1", "--module", "m2",
                 "--role", "writer", "--role", "operator", stdout=out, stderr=StringIO())
    last = out.getvalue().strip().splitlines()[-1]
    assert key_parse_prefix(last) is not None
    agent = Agent.objects.get(name="bot")
    assert agent.roles == ["writer", "operator"]
    assert sorted(agent.modules.values_list("name", flat=True)) == ["m1", "m2"]


@pytest.mark.django_db
def test_create_key_and_revoke_key(make_agent):
    holder = make_agent(project="proj", name="bot")
    out = StringIO()
    call_command("create_key", "--project", "proj", "--agent", "bot", "--expires-in-days", "3", stdout=out,
                 stderr=StringIO())
    raw = out.getvalue().strip().splitlines()[-1]
    key = ApiKey.objects.get(prefix=key_parse_prefix(raw))
    assert key.agent_id == holder.agent.id and key.expires_at is not None
    call_command("revoke_key", raw, stdout=StringIO())
    key.refresh_from_db()
    assert key.revoked_at is not None
    with pytest.raises(CommandError):
        call_command("revoke_key", "nokey123", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("create_key", "--project", "proj", "--agent", "ghost", stdout=StringIO())
