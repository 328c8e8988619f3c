"""Fixtures of the service tests."""

import pytest


@pytest.fixture(params=["llm", "extractive"])
def either_consolidator(request, settings) -> str:
    """Run the test with each consolidator: the LLM one (the fake endpoint over HTTP) and the extractive one."""
    if request.param == "llm":
        request.getfixturevalue("fake_llm")
    else:
        settings.RECMEM = settings.RECMEM.replace(llm__base_url="")
    return request.param
