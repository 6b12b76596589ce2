# The set-up contract: `make run` and `make test` work on a fresh machine with Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install dev docs run test bench lint clean experiments

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# stamps: install again only when pyproject.toml changes (the install is editable: code edits need none)
install: $(VENV)/.installed
dev: $(VENV)/.installed-dev

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

docs: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

run: install
	$(BIN)/spades-lab run --out results/default
	@echo 'spades-lab is installed in $(VENV), not on your PATH: run $(BIN)/spades-lab ..., or first: source $(BIN)/activate'

test: dev
	$(BIN)/ruff check spades_lab tests
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest

# every results/NAME folder and the README's experiments section (tens of minutes, pimc most of it; not part of test)
experiments: install
	$(BIN)/python experiments/run_all.py

bench: install
	$(BIN)/spades-lab bench --json

lint: dev
	$(BIN)/ruff check spades_lab tests
	$(BIN)/ruff format --check spades_lab tests
	$(BIN)/lint-imports
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .hypothesis
