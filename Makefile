# The verbs people type. `make test` works on a fresh clone: it builds .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo up test test-integration lint format bench golden proto clean

$(STAMP): pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e clients/python -e '.[dev]'
	touch $(STAMP)

NODE_DEPS := clients/node/node_modules/.package-lock.json

$(NODE_DEPS): clients/node/package-lock.json
	cd clients/node && npm ci --no-audit --no-fund
	touch $@

# Everything on one machine: private PostgreSQL and Redis unless PREMIERE_* name others.
demo: $(STAMP)
	$(BIN)/premiere up

test: $(STAMP) $(NODE_DEPS)
	$(BIN)/python -m pytest -n auto

# The tests that need PostgreSQL, Redis and running processes (CI runs them twice: with the
# machine's services and with none configured).
test-integration: $(STAMP) $(NODE_DEPS)
	$(BIN)/python -m pytest -n auto tests/integration tests/ladder

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python -m bench

proto: $(STAMP)
	$(BIN)/python proto/generate.py

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regenerate

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis .state
