"""A LangGraph agent with RecMem as its long-term memory.

Graph: recall (RecMemRetriever: the context block for the user's message) -> model (any OpenAI-compatible chat
endpoint, memory in the system prompt) -> remember (RecMemChatMessageHistory: the exchange is stored in RecMem).
Two conversations: the first tells the agent something, the second — a new session, a new graph state — needs it.

    RECMEM_API_KEY=rmk_... OPENAI_BASE_URL=http://127.0.0.1:8099/v1 OPENAI_API_KEY=x python examples/langgraph_agent.py

Needs ``pip install "recmem-client[langchain]" openai``. Against the fake endpoint (``python -m testing.fake_openai
--port 8099 --reply "Noted."``) the answers are canned; what the model was given is printed.
"""

from __future__ import annotations

import os
from typing import TypedDict

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from openai import OpenAI

from recmem_client import RecMem
from recmem_client.integrations.langchain import RecMemChatMessageHistory, RecMemRetriever

MODEL = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")


class State(TypedDict, total=False):
    question: str
    memory: str
    answer: str


def build(mem: RecMem, llm: OpenAI, history: RecMemChatMessageHistory):
    retriever = RecMemRetriever(client=mem, token_budget=600, include_context=True)

    def recall(state: State) -> State:
        docs = retriever.invoke(state["question"])
        context = next((d.page_content for d in docs if d.metadata["layer"] == "context"), "")
        return {"memory": context}

    def model(state: State) -> State:
        system = "You are a helpful assistant."
        if state.get("memory"):
            system += "\n\nWhat you remember from earlier conversations:\n" + state["memory"]
        reply = llm.chat.completions.create(model=MODEL, messages=[
            {"role": "system", "content": system}, {"role": "user", "content": state["question"]}])
        return {"answer": reply.choices[0].message.content or ""}

    def remember(state: State) -> State:
        history.add_messages([HumanMessage(state["question"]), AIMessage(state["answer"])])
        return {}

    graph = StateGraph(State)
    graph.add_node("recall", recall)
    graph.add_node("model", model)
    graph.add_node("remember", remember)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "model")
    graph.add_edge("model", "remember")
    graph.add_edge("remember", END)
    return graph.compile()


def main() -> None:
    mem = RecMem()
    llm = OpenAI()  # OPENAI_BASE_URL, OPENAI_API_KEY
    conversations = [
        ("langgraph-1", "I'm allergic to peanuts; keep that in mind whenever you suggest food."),
        ("langgraph-2", "Suggest a snack for my hike on Saturday."),
    ]
    for external_id, question in conversations:
        history = RecMemChatMessageHistory(mem, external_id=external_id)
        state = build(mem, llm, history).invoke({"question": question})
        print(f"[{external_id}] user: {question}")
        print(f"[{external_id}] memory given to the model:\n{state.get('memory') or '(none)'}")
        print(f"[{external_id}] assistant: {state['answer']}\n")
        history.clear()  # the conversation ends: its RecMem session is closed (nothing is deleted)


if __name__ == "__main__":
    main()
