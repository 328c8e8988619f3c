# RecMem: `make run` starts everything, `make test` runs the whole suite. Both install what they need first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The packages for agents (clients/python: recmem-client, recmem_mcp, the adapters) in an environment of their own,
# as an agent's project would have them: the examples and the OpenAI Agents SDK run there (that SDK's package is
# named `agents`, like RecMem's app, so it cannot live in the product's environment).
CLIENT_VENV := .venv-client
# Re-install when a pyproject.toml changes.
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml clients/python/pyproject.toml 2>/dev/null | sha1sum | cut -c1-12)
CLIENT_STAMP := $(CLIENT_VENV)/.installed-$(shell sha1sum clients/python/pyproject.toml 2>/dev/null | cut -c1-12)

.PHONY: run test client test-cluster lint fuzz bench bench-full clean-venv browser screenshots

$(STAMP): pyproject.toml clients/python/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# CPU torch first, pinned: an unpinned torch pulls a multi-GB CUDA build.
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]" -e "clients/python[mcp,langchain]"
	# ONNX (fp32, int8) and static embedders built once from the installed MiniLM (no download; ~1 min).
	$(BIN)/python -m memory.gateways.local_models prepare
	@rm -f $(VENV)/.installed-*
	@touch $@

$(CLIENT_STAMP): clients/python/pyproject.toml
	@test -x $(CLIENT_VENV)/bin/python || $(PYTHON) -m venv $(CLIENT_VENV)
	$(CLIENT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(CLIENT_VENV)/bin/python -m pip install --quiet -e "clients/python[all]" "openai>=1.50,<4"
	@rm -f $(CLIENT_VENV)/.installed-*
	@touch $@

run: $(STAMP)
	$(BIN)/recmem run

# The agents' environment alone (.venv-client: recmem-client with its MCP server and adapters, the examples' recipes,
# e.g. examples/langgraph_agent.py): `make client`, then `.venv-client/bin/python examples/...`.
client: $(CLIENT_STAMP)

test: $(STAMP) $(CLIENT_STAMP) browser
	$(BIN)/python -m pytest

# The admin's browser tests drive Debian's chromium (Playwright's Python API, executable_path): installed here when
# missing and we are root; otherwise we say how (those tests then fail with the same hint, they never skip).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's chromium for the browser tests (tests/browser)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; \
	  else \
	    echo "The browser tests (tests/browser) need chromium: run 'sudo apt-get install chromium' and 'make test' again."; \
	  fi; }

# The README's pictures of the admin (docs/img/): the browser tests take them, against the data they build.
screenshots: $(STAMP) browser
	RECMEM_README_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/browser -k "dashboard or decide_with_an_edit or rollback_preview"

# The schemathesis run of make test, longer: RECMEM_FUZZ_EXAMPLES examples per operation (default 200).
fuzz: $(STAMP)
	RECMEM_FUZZ_EXAMPLES=$${RECMEM_FUZZ_EXAMPLES:-200} $(BIN)/python -m pytest -q tests/hostile/test_schemathesis.py

# Two web servers and two workers against one PostgreSQL over TCP and Redis (tests/cluster; ~5 min).
test-cluster: $(STAMP)
	$(BIN)/python -m pytest -m cluster tests/cluster

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench.run --profile quick

bench-full: $(STAMP)
	$(BIN)/python -m bench.run --profile full

clean-venv:
	rm -rf $(VENV) $(CLIENT_VENV)
