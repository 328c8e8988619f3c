"""The runnable examples (examples/) and the OpenAI Agents SDK adapter, run as an agent would run them: in an
environment with only the client installed (.venv-client, built by `make test`), against the live RecMem server and
the fake OpenAI-compatible endpoint. The fake endpoint records what each model call was given, so the tests check
that memory reached the model."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from recmem_client import RecMem
from testing.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
CLIENT_PYTHON = REPO / ".venv-client" / "bin" / "python"


@pytest.fixture(scope="module")
def client_python() -> Path:
    assert CLIENT_PYTHON.exists(), "the client-only environment is missing: `make test` builds .venv-client"
    return CLIENT_PYTHON


@pytest.fixture
def llm():
    with FakeOpenAIServer(responder=lambda request: "Noted.") as server:
        yield server


def _run(python: Path, script: Path, *, key: str, server_url: str, llm=None, timeout: float = 300) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RECMEM_", "DJANGO_", "OPENAI_"))}
    env.update({"RECMEM_URL": server_url, "RECMEM_API_KEY": key})
    if llm is not None:
        env.update({"OPENAI_BASE_URL": llm.base_url, "OPENAI_API_KEY": "fake", "OPENAI_MODEL": "fake-gpt"})
    # cwd outside the repository, as an agent's own project would be
    proc = subprocess.run([str(python), str(script)], env=env, cwd="/", capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _system_prompts(llm) -> list[str]:
    return [next((m["content"] for m in body["messages"] if m["role"] in ("system", "developer")), "")
            for body in llm.bodies("/v1/chat/completions")]


def test_quickstart(client_python, recmem_server, recmem_agent):
    out = _run(client_python, REPO / "examples" / "quickstart.py", key=recmem_agent.key,
               server_url=recmem_server.url)
    assert "marathon" in out
    assert len(open(REPO / "examples" / "quickstart.py").read().split('"""')[2].strip().splitlines()) <= 6


def test_langgraph_example_remembers_across_conversations(client_python, recmem_server, recmem_agent, llm):
    out = _run(client_python, REPO / "examples" / "langgraph_agent.py", key=recmem_agent.key,
               server_url=recmem_server.url, llm=llm)
    prompts = _system_prompts(llm)
    assert len(prompts) == 2
    assert "peanuts" not in prompts[0]  # nothing to remember yet
    assert "allergic to peanuts" in prompts[1]  # the second conversation got the first one's fact
    assert "[langgraph-2] memory given to the model:" in out
    mem = RecMem(recmem_server.url, api_key=recmem_agent.key)
    sessions = list(mem.sessions.iter())
    assert {s.external_id for s in sessions} == {"langgraph-1", "langgraph-2"}
    assert all(s.status == "closed" and s.exchange_count == 1 for s in sessions)


def test_openai_agents_example_keeps_history_and_recalls_memory(client_python, recmem_server, recmem_agent, llm):
    out = _run(client_python, REPO / "examples" / "openai_agents_agent.py", key=recmem_agent.key,
               server_url=recmem_server.url, llm=llm)
    bodies = llm.bodies("/v1/chat/completions")
    assert len(bodies) == 3
    # the session's history: the second call of conversation 1 carries its first exchange
    second_inputs = [m["content"] for m in bodies[1]["messages"] if m["role"] in ("user", "assistant")]
    assert second_inputs[:3] == ["I only travel by train, never by plane.", "Noted.", "I also prefer window seats."]
    # the memory hook: conversation 2 (a new session, no history) was given conversation 1 in its instructions
    third = bodies[2]["messages"]
    assert [m["content"] for m in third if m["role"] == "user"] == ["How should I get from Paris to Berlin next "
                                                                    "week?"]
    assert "never by plane" in _system_prompts(llm)[2]
    assert "history kept in RecMem: 4 items" in out
    mem = RecMem(recmem_server.url, api_key=recmem_agent.key)
    sessions = {s.external_id: s for s in mem.sessions.iter()}
    assert sessions["agents-1"].exchange_count == 2 and sessions["agents-2"].exchange_count == 1
    assert all(s.status == "closed" for s in sessions.values())


def test_openai_agents_session_semantics(client_python, recmem_server, recmem_agent):
    out = _run(client_python, REPO / "tests" / "adapters" / "agents_sdk_checks.py", key=recmem_agent.key,
               server_url=recmem_server.url)
    assert out.count("ok:") == 4
