# hordekit — everything a fresh clone needs, from two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install clean

# The virtual environment is rebuilt whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## run: validate every game, play its smoke games, write its print-and-play PDFs into out/
run: $(STAMP)
	$(BIN)/hordekit build --shipped

## test: install and run the test suite (fails when no test is collected)
test: $(STAMP)
	$(BIN)/python -m pytest -q

# The bench's anchor (OpenSpiel) lives in its own environment, never in the project's.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet 'open_spiel>=1.5'
	touch $@

## bench: print speed figures (validation, engine against OpenSpiel, smoke, PDF, start-up)
bench: $(STAMP) $(BENCH_VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) out/*/ .pytest_cache
