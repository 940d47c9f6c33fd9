# The verbs people type. `make demo` and `make test` work on a fresh clone: they build .venv
# first, and `make test` installs the system tools its tests need (scripts/prerequisites.sh).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_STAMP := $(VENV)/.demo-stamp
INSTALL_LOG := $(VENV)/install.log
# Every verb that runs tests, mutations, partitions or benchmarks runs under the guard: it fails
# the run if a process, listening port or temporary folder of the run outlives it (tests/guard.py).
GUARD = $(BIN)/python -m tests.guard --label "make $@" --

.PHONY: demo up test test-integration model partitions partitions-weakened prerequisites lint format bench bench-search bench-scale golden proto mutants clean

# Quiet unless it fails: the installers' output goes to $(INSTALL_LOG), shown on failure.
# `make demo` installs what running needs; `make test` (and lint, ...) adds the tools.
define install
	@echo "installing Premiere into $(VENV) (about a minute the first time) ..."
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@{ $(BIN)/python -m pip install --upgrade pip \
	   && $(BIN)/python -m pip install -e wire -e clients/python -e '.[$(1)]'; } >$(INSTALL_LOG) 2>&1 \
	  || { cat $(INSTALL_LOG); echo "install failed; the log is $(INSTALL_LOG)"; exit 1; }
endef

$(STAMP): pyproject.toml wire/pyproject.toml clients/python/pyproject.toml
	$(call install,dev)
	@touch $(STAMP) $(DEMO_STAMP)

$(DEMO_STAMP): pyproject.toml wire/pyproject.toml clients/python/pyproject.toml
	$(call install,embedded)
	@touch $(DEMO_STAMP)

NODE_DEPS := clients/node/node_modules/.package-lock.json

$(NODE_DEPS): clients/node/package-lock.json | prerequisites
	@cd clients/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

# Node.js, Chromium and Prometheus: installed with apt-get when root (or password-less sudo),
# otherwise named, with what to do.
prerequisites:
	@scripts/prerequisites.sh

# Everything on one machine: private PostgreSQL and Redis unless PREMIERE_* name others.
demo: $(DEMO_STAMP)
	@$(BIN)/premiere up

# Every test, then the service-facing integration tests again with the other kind of PostgreSQL and Redis
# (configured or private; scripts/test.sh says which). CI runs exactly this (.ci/run).
test: prerequisites $(STAMP) $(NODE_DEPS)
	@$(GUARD) scripts/test.sh

# The tests that need PostgreSQL, Redis and running processes, once.
test-integration: prerequisites $(STAMP) $(NODE_DEPS)
	$(GUARD) $(BIN)/python -m pytest -n auto tests/integration tests/ladder tests/spectator

# The stateful model of accounts, bots, versions, tokens and streams on two arbiters
# (tests/integration/test_model.py) for PREMIERE_MODEL_SECONDS (ten minutes by default), with
# the number of runs, steps and distinct interleavings it tried. `make test` runs it once, briefly.
model: $(STAMP)
	PREMIERE_MODEL_SECONDS=$${PREMIERE_MODEL_SECONDS:-600} $(GUARD) $(BIN)/python -m pytest -s -q -p no:cacheprovider tests/integration/test_model.py

# Every partition scenario (minutes; needs root for network namespaces): per scenario, the
# faults injected, matches played, moves acknowledged and each promise's verdict.
partitions: $(STAMP)
	@$(GUARD) $(BIN)/python -m tests.partitions

# Each scenario against the build weakened for it (tests/partitions/weakened.py): passes only
# when every weakened run fails, on the promise its weakness breaks.
partitions-weakened: $(STAMP)
	@$(GUARD) $(BIN)/python -m tests.partitions --weakened

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# BENCH_QUICK=1: seconds, smoke figures only. OpenSpiel (the `bench` extra) is optional.
bench: $(STAMP)
	@$(BIN)/python -m pip install -e '.[bench]' >$(VENV)/bench-install.log 2>&1 \
	  || echo "OpenSpiel could not be installed (see $(VENV)/bench-install.log): its rows say so"
	$(GUARD) $(BIN)/python -m bench

# The search-strength matches (hours on 2 cores), ISMCTS against random seats through the
# OpenSpiel adapter, and knockouts of the four built-ins (search:1000 matches: an hour or more):
# their sections of docs/benchmarks.md.
bench-search: $(STAMP)
	BENCH_MODULES=bench.search,bench.ismcts,bench.knockout_luck $(GUARD) $(BIN)/python -m bench

# A thousand matches on one arbiter, the capacity model's costs (one and three arbiters), and
# a ten-million-match ladder (about an hour to generate): their sections of docs/benchmarks.md.
bench-scale: $(STAMP)
	BENCH_MODULES=bench.thousand,bench.capacity,bench.ladder10m $(GUARD) $(BIN)/python -m bench

# Every curated mutation of tests/mutants/mutants.toml, each alone on a scratch copy, against
# the tests named for it; a table of killed / survived. MUTANTS="--fast" or "--only ID ...".
mutants: prerequisites $(STAMP)
	$(GUARD) $(BIN)/python scripts/mutants.py $(MUTANTS)

proto: $(STAMP)
	$(BIN)/python proto/generate.py

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regenerate

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis .state
