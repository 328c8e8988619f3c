"""Gateways of the ``memory`` app to the outside world: embedding models, LLM endpoints, token counting.

Plain Python (no models), importable without configured Django settings so that tests, benchmarks and the
fake OpenAI server can use them stand-alone (:func:`core.config.config` then reads the process environment).
"""
