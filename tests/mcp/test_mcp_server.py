"""The MCP server, driven by the official SDK's own client: over stdio (``python -m recmem_mcp``, the key from the
environment) and over streamable HTTP (one server, several agents, each request with its own key), against the
live RecMem server."""

from __future__ import annotations

import importlib.metadata
import os
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from recmem_client import RecMem
from testing.live_server import free_port

from ..clients.conftest import consolidate_marathon

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

TOOLS = {"remember", "recall", "list_rules", "forget", "list_entities", "recall_entity"}


def _text(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def _stdio(server_url: str, key: str | None) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RECMEM_", "DJANGO_"))}
    env["RECMEM_URL"] = server_url
    if key is not None:
        env["RECMEM_API_KEY"] = key
    return StdioServerParameters(command=sys.executable, args=["-m", "recmem_mcp"], env=env)


async def test_stdio_remember_recall_list_rules_forget(recmem_server, recmem_agent):
    direct = RecMem(recmem_server.url, api_key=recmem_agent.key, timeout=120)
    experiences = consolidate_marathon(direct)
    async with Client(_stdio(recmem_server.url, recmem_agent.key)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        assert "user" in tools["remember"].input_schema["properties"]
        # hints for clients that confirm writes and deletions; descriptions without the source's indentation
        assert tools["recall"].annotations.read_only_hint and tools["list_rules"].annotations.read_only_hint
        assert not tools["remember"].annotations.read_only_hint
        assert not tools["remember"].annotations.destructive_hint
        assert tools["forget"].annotations.destructive_hint and not tools["forget"].annotations.read_only_hint
        assert all("\n " not in t.description and t.description == t.description.strip() for t in tools.values())
        assert client.server_info.version == importlib.metadata.version("recmem-client")

        stored = await client.call_tool("remember", {"user": "My cat is called Miso and she is 4",
                                                     "assistant": "Miso, noted."})
        assert not stored.is_error, _text(stored)
        assert stored.structured_content["turn_index"] == 0
        again = await client.call_tool("remember", {"user": "Miso hates the vacuum cleaner", "assistant": "Ok."})
        assert again.structured_content["session_id"] == stored.structured_content["session_id"]
        assert again.structured_content["turn_index"] == 1

        recalled = await client.call_tool("recall", {"query": "what is my cat called?"})
        assert not recalled.is_error and "Miso" in _text(recalled)
        items = recalled.structured_content["items"]
        assert "Miso" in recalled.structured_content["context"]
        miso = [i for i in items if "Miso" in i["text"]]
        assert miso and all(i["id"] and i["scope"] == "personal" and i["date"] and i["type"] for i in miso), items
        marathon = (await client.call_tool("recall", {"query": "marathon training plan"})).structured_content
        rule_ids = {i["id"] for i in marathon["items"] if i["kind"] == "experience"}
        assert rule_ids & {str(e.id) for e in experiences}, marathon["items"]  # ids `forget` takes

        rules = (await client.call_tool("list_rules", {})).structured_content
        rules = rules["result"] if isinstance(rules, dict) and "result" in rules else rules
        assert {r["id"] for r in rules} == {str(e.id) for e in experiences}
        target = rules[0]["id"]
        forgotten = await client.call_tool("forget", {"experience_id": target, "reason": "obsolete"})
        assert not forgotten.is_error, _text(forgotten)
        left = (await client.call_tool("list_rules", {})).structured_content
        left = left["result"] if isinstance(left, dict) and "result" in left else left
        assert target not in {r["id"] for r in left}

        missing = await client.call_tool("forget", {"experience_id": "00000000-0000-0000-0000-000000000000"})
        assert missing.is_error and "404" in _text(missing)
    # the process closed the session it opened when the client went away
    session_id = stored.structured_content["session_id"]
    assert _wait(lambda: direct.sessions.get(session_id).status == "closed", 30)


async def test_stdio_entities_and_recall_by_entity(recmem_server, recmem_agent):
    """`list_entities` names the placeholder every mention of one person got; `recall_entity` finds what is about
    her by the placeholder or by her name as written (masked like stored text), as of now or of an instant."""
    async with Client(_stdio(recmem_server.url, recmem_agent.key)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["list_entities"].annotations.read_only_hint and tools["recall_entity"].annotations.read_only_hint
        for user in ("My colleague Maria Lopez reviews every database migration.",
                     "Maria Lopez owns the on-call rotation this month.", "The staging cluster has three nodes."):
            stored = await client.call_tool("remember", {"user": user, "assistant": "Noted."})
            assert not stored.is_error, _text(stored)
        entities = (await client.call_tool("list_entities", {"kind": "placeholder"})).structured_content
        entities = entities["result"] if isinstance(entities, dict) and "result" in entities else entities
        [maria] = [e for e in entities if e["value"].startswith("<PERSON_")]
        assert maria["kind"] == "placeholder" and maria["exchanges"] == 2

        for entity in (maria["value"], "Maria Lopez"):
            about = (await client.call_tool("recall_entity", {"entity": entity})).structured_content
            texts = [i["text"] for i in about["items"] if i["kind"] == "exchange"]
            assert len(texts) == 2 and all(maria["value"] in t for t in texts), about["items"]
            assert "three nodes" not in about["context"]
        before = (await client.call_tool("recall_entity", {"entity": maria["value"],
                                                           "as_of": "2020-01-01"})).structured_content
        assert before["items"] == []  # nothing was stored then
        unknown = await client.call_tool("recall_entity", {"entity": "<PERSON_000000>"})
        assert not unknown.is_error and unknown.structured_content["items"] == []
        malformed = await client.call_tool("recall_entity", {"entity": "<PERSON_zz>"})
        assert malformed.is_error and "400" in _text(malformed)
        bad_date = await client.call_tool("recall_entity", {"entity": maria["value"], "as_of": "last week"})
        assert bad_date.is_error and "ISO 8601" in _text(bad_date)


async def test_stdio_reports_a_missing_role_to_the_model(recmem_server):
    reader = recmem_server.agent(roles=("reader",))
    async with Client(_stdio(recmem_server.url, reader.key)) as client:
        refused = await client.call_tool("remember", {"user": "note this", "assistant": "ok"})
        assert refused.is_error and "403 missing_role" in _text(refused)
        assert not (await client.call_tool("recall", {"query": "anything"})).is_error


async def test_stdio_refuses_to_start_without_a_key(recmem_server):
    env = _stdio(recmem_server.url, None).env
    proc = subprocess.run([sys.executable, "-m", "recmem_mcp"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "RECMEM_API_KEY" in proc.stderr


@pytest.fixture
def mcp_http(recmem_server, recmem_agent):
    """``python -m recmem_mcp --transport http``; RECMEM_API_KEY is set to one agent's key on purpose: over HTTP it
    must be ignored."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RECMEM_", "DJANGO_"))}
    env.update({"RECMEM_URL": recmem_server.url, "RECMEM_API_KEY": recmem_agent.key})
    proc = subprocess.Popen([sys.executable, "-m", "recmem_mcp", "--transport", "http", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait(lambda: _listening(port) or proc.poll() is not None, 60)
        assert proc.poll() is None, proc.stdout.read()
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


@asynccontextmanager
async def _http_client(url: str, key: str | None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http, \
            Client(streamable_http_client(url, http_client=http)) as client:
        yield client


async def test_http_each_request_acts_as_the_agent_of_its_own_key(mcp_http, recmem_server):
    alice, bob = recmem_server.agent(), recmem_server.agent()
    async with _http_client(mcp_http, alice.key) as a, _http_client(mcp_http, bob.key) as b:
        assert {t.name for t in (await a.list_tools()).tools} == TOOLS
        stored = await a.call_tool("remember", {"user": "The staging database password rotates on Mondays",
                                                "assistant": "Noted."})
        assert not stored.is_error, _text(stored)
        await b.call_tool("remember", {"user": "I water the ferns every Thursday", "assistant": "Noted."})

        assert "Mondays" in _text(await a.call_tool("recall", {"query": "when does the password rotate?"}))
        bob_sees = _text(await b.call_tool("recall", {"query": "when does the password rotate?"}))
        assert "Mondays" not in bob_sees and "ferns" in bob_sees  # Bob's own memory only

    alice_sessions = list(RecMem(recmem_server.url, api_key=alice.key).sessions.iter())
    bob_sessions = list(RecMem(recmem_server.url, api_key=bob.key).sessions.iter())
    assert [s.exchange_count for s in alice_sessions] == [1] and [s.exchange_count for s in bob_sessions] == [1]


async def test_http_without_a_key_is_refused_even_when_the_server_has_one(mcp_http, recmem_agent, recmem_server):
    async with _http_client(mcp_http, None) as anonymous:
        result = await anonymous.call_tool("remember", {"user": "who am I?", "assistant": "nobody"})
    assert result.is_error and "Authorization" in _text(result)
    # the environment's key (recmem_agent's) was not used
    assert list(RecMem(recmem_server.url, api_key=recmem_agent.key).sessions.iter()) == []


async def test_http_a_wrong_key_is_reported_not_retried_as_someone_else(mcp_http):
    async with _http_client(mcp_http, "rmk_nothere_" + "x" * 32) as client:
        result = await client.call_tool("recall", {"query": "anything"})
    assert result.is_error and "401" in _text(result)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False
