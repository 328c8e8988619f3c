"""Test fakes: the fake OpenAI-compatible server (:mod:`testing.fake_openai`) and the plausible "LLM" behind it
(:mod:`testing.fake_responder`).

Imported by tests and benchmarks only: production code (``agents``, ``memory``, ``governance``, ``recmem_site``)
never imports this package. Stand-alone server for development, from the repository root::

    python -m testing.fake_openai --port 8099
"""
