# raglab — `make` builds dist/, `make serve` builds and serves it, `make test` runs every test.
# Everything the project needs is installed from here: .venv (pip, from pyproject.toml) and
# node_modules (npm ci, from package-lock.json). Both steps rerun only when their manifest changes.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PYDEPS := $(VENV)/.installed
NODEDEPS := node_modules/.installed
PORT   ?= 8000

.PHONY: all build serve test bench chromium firefox servers clean
all: build

# uv resolves and installs the ~60 test dependencies (ranx brings numba, pandas, scipy) in a
# third of pip's time; it is itself installed with pip, pinned.
$(PYDEPS): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check uv==0.13.9
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[build,test]'
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

# The second-engine test drives Firefox (Debian's firefox-esr) with puppeteer-core from package.json.
firefox: $(PYDEPS)
	@$(PY) tests/firefox.py >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "No Firefox found: installing Debian's firefox-esr with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null; \
	  else \
	    $(PY) tests/firefox.py; \
	  fi; \
	}

# The publishing tests serve dist/ with real servers: Debian's nginx, with its stock mime.types and
# the brotli_static module, and Debian's caddy. As root on Debian/Ubuntu they are installed when missing.
servers: $(PYDEPS)
	@$(PY) tests/servers.py >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's nginx, libnginx-mod-http-brotli-static and caddy with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx libnginx-mod-http-brotli-static caddy >/dev/null; \
	  else \
	    $(PY) tests/servers.py; \
	  fi; \
	}

# Building first warms .cache/ (Pyodide snapshot, compressed assets) for the tests' own builds.
test: build chromium firefox servers
	$(PY) -m pytest

bench: build
	$(PY) bench/core.py
	$(PY) bench/page.py
	$(PY) bench/byo.py

clean:
	rm -rf dist .venv node_modules .cache bench/results .hypothesis
