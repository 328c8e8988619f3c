"""Adapters for agent frameworks (each needs its extra): ``langchain`` (LangChain/LangGraph retriever and chat
history), ``openai_agents`` (OpenAI Agents SDK session and memory hook)."""
