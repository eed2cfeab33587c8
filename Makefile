# From a fresh clone with only python3: `make run` starts the server, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench soak openapi replays clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/umpire serve --db umpire.db --host 127.0.0.1 --port 8000

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/run.py --write docs/performance.md

soak: $(STAMP)
	UMPIRE_SOAK=1 UMPIRE_FUZZ_EXAMPLES=200 $(BIN)/python -m pytest tests/test_reliability.py tests/test_tampering.py tests/test_fuzz_api.py

openapi: $(STAMP)
	$(BIN)/python -m service.openapi_dump > openapi/openapi.json

replays: $(STAMP)
	$(BIN)/python replays/generate.py

clean:
	rm -rf $(VENV) *.egg-info
