"""RecMemSession against the Agents SDK's Session protocol, run with the client-only environment's Python (the SDK's
package is named ``agents``, like RecMem's Django app, so it cannot be imported inside the product's environment).

    .venv-client/bin/python tests/adapters/agents_sdk_checks.py     # RECMEM_URL, RECMEM_API_KEY

Prints one line per check and exits 1 on the first failure.
"""

from __future__ import annotations

import asyncio
import inspect
import sys

from agents.memory.session import Session, SessionABC

from recmem_client import AsyncRecMem
from recmem_client.integrations.openai_agents import RecMemSession

USER = {"role": "user", "content": "I keep my passport in the top drawer"}
ASSISTANT = {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
             "content": [{"type": "output_text", "text": "Top drawer, noted.", "annotations": []}]}
TOOL_CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": "{}"}


async def main() -> None:
    async with AsyncRecMem(timeout=120) as mem:
        session = RecMemSession(mem, external_id="sdk-checks")
        # the SDK's protocol: every method it declares, with compatible signatures
        assert isinstance(session, Session), "not a Session"
        for name in ("get_items", "add_items", "pop_item", "clear_session"):
            ours, theirs = inspect.signature(getattr(session, name)), inspect.signature(getattr(SessionABC, name))
            assert list(ours.parameters) == [p for p in theirs.parameters if p != "self"], name
        print("ok: implements the Session protocol")

        assert await session.get_items() == []
        await session.add_items([USER])
        assert await session.get_items() == [USER] and session._id is None  # waiting for its answer
        assert await session.pop_item() == USER
        await session.add_items([USER, TOOL_CALL, ASSISTANT])
        items = await session.get_items()
        assert items == [{"role": "user", "content": USER["content"]},
                         {"role": "assistant", "content": "Top drawer, noted."}], items
        assert await session.get_items(limit=1) == [items[-1]]
        stored = [e async for e in mem.exchanges.iter(session=session.session_id)]
        assert [(e.user, e.assistant) for e in stored] == [(USER["content"], "Top drawer, noted.")]
        print("ok: a user message and its answer become one exchange; tool calls are not stored")

        try:
            await session.pop_item()
            raise AssertionError("pop_item removed a stored exchange")
        except NotImplementedError:
            pass
        print("ok: stored exchanges cannot be popped")

        first = session.session_id
        await session.clear_session()
        assert await session.get_items() == []
        assert (await mem.sessions.get(first)).status == "closed"
        assert len([e async for e in mem.exchanges.iter(session=first)]) == 1  # nothing deleted
        print("ok: clear_session closes the RecMem session and deletes nothing")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except AssertionError as exc:
        print(f"FAILED: {exc!r}", file=sys.stderr)
        raise
