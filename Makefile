# The two commands of the README: `make run` (the web app) and `make test`. Both create .venv
# when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint typecheck format bench clean assets

# The browser front-end: its sources are in frontend/; esbuild (from npm, installed here by
# npm ci, never fetched at run time) bundles them into src/spyglass/web/static, which is
# committed, so `make run` needs no Node. `make assets` rebuilds it after a change to
# frontend/; `make test` installs the same tools (and axe-core, for the accessibility tests)
# (tests/web/test_assets.py checks that the committed build is what the sources make).
# npm ci installs exactly the versions package-lock.json pins (with their integrity hashes),
# from npm's local cache when it holds them (--prefer-offline: no network then), else from
# the registry; nothing is downloaded after this step.
FRONTEND := frontend
NODE_STAMP := $(FRONTEND)/node_modules/.installed

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "spyglass needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make run` needs the package alone; `make test` adds the test tools (pytest, ruff, Playwright
# for Python, which drives the system's Chromium: no browser is downloaded), the learning
# libraries the adapters are tested against (the rl extra) and the trainers (the train extra:
# Stable-Baselines3, sb3-contrib, SuperSuit and PyTorch). PyTorch is pinned to 2.13.0 and
# installed first: a CPU build of it lies on this project's machines, while any other release
# would be a CUDA build of several GB.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[test,rl,train]"
	@touch $(TEST_STAMP) $(RUN_STAMP)

# A machine without npm gets Debian's nodejs and npm when make runs as root (as .ci/run does);
# elsewhere it is told how to get them, and the tests that need them say so.
$(NODE_STAMP): $(FRONTEND)/package.json $(FRONTEND)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& { command -v node >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs >/dev/null; } \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -q npm >/dev/null; } \
		|| echo "npm is missing: install Node.js 18+ and npm to build the front end and run its tests"
	@if command -v npm >/dev/null 2>&1; then \
		cd $(FRONTEND) && npm ci --prefer-offline --no-audit --no-fund --loglevel=error \
		&& touch node_modules/.installed; fi

assets: $(NODE_STAMP)
	cd $(FRONTEND) && node build.mjs

# The web app on http://127.0.0.1:8000 (it prints the address), SQLite database by default.
run: $(RUN_STAMP)
	$(BIN)/spyglass serve

# The type check (mypy, configured in pyproject.toml's [tool.mypy]) runs beside pytest rather
# than before it: on a cold cache it costs about 80 CPU-seconds, which alongside a run of many
# minutes adds a fraction of that to the wall time instead of all of it. Its report is kept
# and printed after the tests; the target fails if either fails.
test: $(TEST_STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	@report=$$(mktemp); \
	$(BIN)/mypy > "$$report" 2>&1 & checker=$$!; \
	trap 'kill $$checker 2>/dev/null; rm -f "$$report"' EXIT; \
	$(BIN)/python -m pytest -n auto --durations=30; tests=$$?; \
	wait $$checker; types=$$?; \
	echo "mypy (type check):"; cat "$$report"; \
	[ $$tests -eq 0 ] && [ $$types -eq 0 ]

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks

format: $(TEST_STAMP)
	$(BIN)/ruff format src tests benchmarks
	$(BIN)/ruff check --fix src tests benchmarks

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/bots.py
	$(BIN)/python benchmarks/web_load.py
	$(BIN)/python benchmarks/web_first_paint.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis $(FRONTEND)/node_modules
