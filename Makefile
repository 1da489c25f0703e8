# demonref — two commands: `make demo` and `make test`. Both create .venv and install what is missing.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.installed-core

.PHONY: demo test lint typecheck unit bench clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(CORE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

demo: $(CORE)
	$(BIN)/demonref demo

lint: $(CORE)
	$(BIN)/ruff check referee demonref vision dashboard tests
	$(BIN)/mypy referee

unit: $(CORE)
	$(BIN)/python -m pytest -n 2 --durations=10

test: lint unit

bench: $(CORE)
	$(BIN)/demonref bench referee

clean-venv:
	rm -rf $(VENV)
