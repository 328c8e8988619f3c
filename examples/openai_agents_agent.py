"""An OpenAI Agents SDK agent with RecMem: its conversation history in a RecMem session, and before every model call
what RecMem recalls for the user's message added to the instructions.

    RECMEM_API_KEY=rmk_... OPENAI_BASE_URL=http://127.0.0.1:8099/v1 OPENAI_API_KEY=x \
        python examples/openai_agents_agent.py

Needs ``pip install "recmem-client[openai-agents]"``. Uses the chat-completions API (any OpenAI-compatible endpoint,
the fake one included) and turns the SDK's tracing off (it would upload traces to OpenAI).
"""

from __future__ import annotations

import asyncio
import os

from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner, set_tracing_disabled
from openai import AsyncOpenAI

from recmem_client import AsyncRecMem
from recmem_client.integrations.openai_agents import RecMemSession, recmem_memory


async def main() -> None:
    set_tracing_disabled(True)
    model = OpenAIChatCompletionsModel(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"),
                                       openai_client=AsyncOpenAI())  # OPENAI_BASE_URL, OPENAI_API_KEY
    agent = Agent(name="assistant", instructions="You are a helpful travel assistant.", model=model)
    async with AsyncRecMem() as mem:  # RECMEM_URL, RECMEM_API_KEY
        config = RunConfig(call_model_input_filter=recmem_memory(mem, token_budget=600))

        first = RecMemSession(mem, external_id="agents-1")
        for question in ("I only travel by train, never by plane.", "I also prefer window seats."):
            result = await Runner.run(agent, question, session=first, run_config=config)
            print(f"[agents-1] user: {question}\n[agents-1] assistant: {result.final_output}")
        print(f"[agents-1] history kept in RecMem: {len(await first.get_items())} items")
        await first.clear_session()  # ends the conversation: the RecMem session is closed, nothing is deleted

        second = RecMemSession(mem, external_id="agents-2")
        question = "How should I get from Paris to Berlin next week?"
        result = await Runner.run(agent, question, session=second, run_config=config)
        print(f"[agents-2] user: {question}\n[agents-2] assistant: {result.final_output}")
        await second.clear_session()


if __name__ == "__main__":
    asyncio.run(main())
