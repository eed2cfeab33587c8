# From a fresh clone with only python3: `make run` starts the server, `make test` runs every test.
#   make run PORT=8080 DB=games.db      serve elsewhere, on another database (a file, or postgresql://…)
#   make run CORS=http://localhost:5173  let pages of that origin call the API (several: CORS="origin1 origin2")
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
HOST ?= 127.0.0.1
DB ?= umpire.db

.PHONY: install run lint test quick desk bench soak openapi client-ts replays clean

# One install at a time: two targets started at once on a fresh clone wait for each other (flock where the system
# has it) instead of both building .venv.
$(STAMP): pyproject.toml
	@if command -v flock >/dev/null 2>&1; then flock .install.lock $(MAKE) --no-print-directory install; \
	else $(MAKE) --no-print-directory install; fi

# PYTHONWARNINGS: setuptools' "Editable installation" notice, a box of asterisks a new user reads as an error
install:
	@if [ ! -f $(STAMP) ] || [ pyproject.toml -nt $(STAMP) ]; then \
		$(PY) -m venv $(VENV) && \
		$(BIN)/pip install --quiet --upgrade pip && \
		PYTHONWARNINGS='ignore:Editable installation' $(BIN)/pip install --quiet -e '.[test]' && \
		touch $(STAMP); \
	fi

run: $(STAMP)
	$(BIN)/umpire serve --db $(DB) --host $(HOST) --port $(PORT) $(patsubst %,--cors-origin %,$(CORS))

# ruff and mypy as pyproject.toml configures them (docs/architecture.md "Types and lint"); mypy's cache
# (.mypy_cache) makes a run after a small change a few seconds
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

# the fast lane: lint and types, then the fast tests
quick: lint
	$(BIN)/python -m pytest -m "not slow" -p no:cacheprovider -n auto

# the desk alone: its type check (tsc --checkJs, service/desk/tsconfig*.json) and its pure modules' unit tests (node's
# test runner, tests/desk/); both are in the fast lane, so `make quick` and `make test` run them too
desk: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_desk_units.py

bench: $(STAMP)
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/pip install --quiet -e '.[test,bench]'
	BASE=$(BASE) $(BIN)/python benchmarks/run.py --write docs/performance.md

soak: $(STAMP)
	UMPIRE_SOAK=1 UMPIRE_FUZZ_EXAMPLES=200 $(BIN)/python -m pytest tests/test_reliability.py tests/test_tampering.py tests/test_fuzz_api.py

openapi: $(STAMP)
	$(BIN)/python -m service.openapi_dump > openapi/openapi.json.new && mv openapi/openapi.json.new openapi/openapi.json
	@if command -v node >/dev/null 2>&1; then $(MAKE) --no-print-directory client-ts; \
	else echo "node not found: openapi/client-ts not regenerated (make client-ts)"; fi

# the TypeScript client's generated types and the desk's compiled copy (needs node: tests/clients/tools.py installs
# the pinned packages once, outside the tree, so an `npm install` in openapi/client-ts is left alone)
client-ts: $(STAMP)
	$(BIN)/python -c "from tests.clients.tools import node_packages as n; print(n())" > .node_modules_path
	cd openapi/client-ts && bin="$$(cat ../../.node_modules_path)/.bin" && \
		"$$bin/openapi-typescript" ../openapi.json --default-non-nullable false -o src/api.ts && "$$bin/tsc" -p .
	rm -f .node_modules_path

replays: $(STAMP)
	$(BIN)/python replays/generate.py

clean:
	rm -rf $(VENV) *.egg-info .install.lock
