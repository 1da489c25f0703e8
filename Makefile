# demonref — two commands: `make demo` and `make test`. Both create .venv and install what is missing.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.installed-core

.PHONY: demo test lint unit browser bench data clean-venv test-postgres

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(CORE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,synth,web,ml]'
	touch $@

demo: $(CORE)
	$(BIN)/demonref demo

lint: $(CORE)
	$(BIN)/ruff check referee demonref vision dashboard tests scripts
	$(BIN)/ruff format --check referee demonref vision dashboard tests scripts
	$(BIN)/mypy referee

unit: $(CORE) browser
	$(BIN)/python -m pytest -n 2 --durations=10

# The browser tests use Debian's chromium (Playwright never downloads one); installed when missing and root.
browser:
	@test -x /usr/bin/chromium || [ "$$(id -u)" != 0 ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "chromium could not be installed: the browser tests will be skipped"

test: lint unit

# The dashboard's API tests against PostgreSQL too: Debian's server, a throwaway role and database (root only).
PG_URL := postgresql+psycopg://demonref:demonref@127.0.0.1/demonref_test
test-postgres: $(CORE)
	command -v pg_ctlcluster >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null)
	pg_lsclusters -h | grep -q online || pg_ctlcluster $$(pg_lsclusters -h | awk 'NR==1{print $$1, $$2}') start
	su postgres -c "psql -tc \"SELECT 1 FROM pg_roles WHERE rolname='demonref'\" | grep -q 1 || psql -c \"CREATE ROLE demonref LOGIN CREATEDB PASSWORD 'demonref'\""
	su postgres -c "psql -tc \"SELECT 1 FROM pg_database WHERE datname='demonref_test'\" | grep -q 1 || createdb -O demonref demonref_test"
	$(BIN)/python -c 'import psycopg' 2>/dev/null || $(BIN)/python -m pip install -q -e '.[postgres]'
	DEMONREF_TEST_POSTGRES=$(PG_URL) $(BIN)/python -m pytest -n 2 tests/dashboard -k postgresql

# Packaged deck artwork for the renderer (never committed): GNOME and KDE SVG decks, the svg-cards npm
# package, and PyQt5 and librsvg to draw the SVGs; font families for the varied procedural decks' indices
# (vision.synth.faces.index_fonts). The procedural decks need none of it; tests pass either way.
FONTS := fonts-urw-base35 fonts-freefont-ttf fonts-crosextra-carlito fonts-crosextra-caladea fonts-linuxlibertine \
  fonts-roboto-unhinted fonts-open-sans
data: $(CORE)
	dpkg -s gnome-cards-data kdegames-card-data-kf5 librsvg2-bin $(FONTS) >/dev/null 2>&1 || \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnome-cards-data kdegames-card-data-kf5 librsvg2-bin $(FONTS))
	$(BIN)/python -c 'import PyQt5.QtSvg' 2>/dev/null || $(BIN)/python -m pip install -q PyQt5
	test -d datasets/build/artwork/node_modules/svg-cards || npm install --silent --prefix datasets/build/artwork svg-cards

bench: $(CORE)
	$(BIN)/demonref bench referee

clean-venv:
	rm -rf $(VENV)
