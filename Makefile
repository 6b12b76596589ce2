# The set-up contract: `make run` and `make test` work on a fresh machine with Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install dev run test bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

dev: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'

run: install
	$(BIN)/spades-lab run --out results/default

test: dev
	$(BIN)/ruff check spades_lab tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: install
	$(BIN)/spades-lab bench --json

lint: dev
	$(BIN)/ruff check spades_lab tests
	$(BIN)/ruff format --check spades_lab tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
