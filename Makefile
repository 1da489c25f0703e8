# demonref — two commands: `make demo` and `make test`. Both create .venv and install what is missing.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.installed-core

.PHONY: demo test lint unit browser bench data clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(CORE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,synth,web,ml]'
	touch $@

demo: $(CORE)
	$(BIN)/demonref demo

lint: $(CORE)
	$(BIN)/ruff check referee demonref vision dashboard tests
	$(BIN)/mypy referee

unit: $(CORE) browser
	$(BIN)/python -m pytest -n 2 --durations=10

# The browser tests use Debian's chromium (Playwright never downloads one); installed when missing and root.
browser:
	@test -x /usr/bin/chromium || [ "$$(id -u)" != 0 ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "chromium could not be installed: the browser tests will be skipped"

test: lint unit

# Packaged deck artwork for the renderer (never committed): GNOME and KDE SVG decks, the svg-cards npm
# package, and PyQt5 to draw the SVGs. The procedural decks need none of it; tests pass either way.
data: $(CORE)
	dpkg -s gnome-cards-data kdegames-card-data-kf5 >/dev/null 2>&1 || \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnome-cards-data kdegames-card-data-kf5)
	$(BIN)/python -c 'import PyQt5.QtSvg' 2>/dev/null || $(BIN)/python -m pip install -q PyQt5
	test -d datasets/build/artwork/node_modules/svg-cards || npm install --silent --prefix datasets/build/artwork svg-cards

bench: $(CORE)
	$(BIN)/demonref bench referee

clean-venv:
	rm -rf $(VENV)
