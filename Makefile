# raglab — `make` builds dist/, `make serve` builds and serves it, `make test` runs every test.
# Everything the project needs is installed from here: .venv (pip, from pyproject.toml) and
# node_modules (npm ci, from package-lock.json). Both steps rerun only when their manifest changes.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PYDEPS := $(VENV)/.installed
NODEDEPS := node_modules/.installed
PORT   ?= 8000

.PHONY: all build serve test bench chromium clean
all: build

$(PYDEPS): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[build,test]'
	touch $@

$(NODEDEPS): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: $(PYDEPS) $(NODEDEPS)
	$(PY) build.py

serve: $(PYDEPS) $(NODEDEPS)
	$(PY) build.py serve --port $(PORT)

# The browser tests need a Chromium: $$RAGLAB_CHROMIUM, Playwright's own, or `chromium` on PATH.
# As root on Debian/Ubuntu, Debian's chromium is installed when none is found.
chromium: $(PYDEPS)
	@$(PY) tests/chromium.py >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "No Chromium found: installing Debian's chromium with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    $(PY) tests/chromium.py; \
	  fi; \
	}

test: $(PYDEPS) $(NODEDEPS) chromium
	$(PY) -m pytest

bench: $(PYDEPS) $(NODEDEPS)
	$(PY) bench/core.py

clean:
	rm -rf dist .venv node_modules .cache bench/results .hypothesis
