# raglab — `make` builds dist/, `make serve` builds and serves it, `make test` runs every test.
# Everything the project needs is installed from here: .venv (pip, from pyproject.toml) and
# node_modules (npm ci, from package-lock.json). Both steps rerun only when their manifest changes.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PYDEPS := $(VENV)/.installed
NODEDEPS := node_modules/.installed
PORT   ?= 8000

.PHONY: all build serve test bench system clean
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

# The tests drive Chromium and Firefox and serve dist/ with nginx and Caddy (tests/support/system.py finds
# them). As root on Debian/Ubuntu, the missing ones are installed with apt-get; otherwise make stops
# and says how to get them.
system:
	@missing="$$($(PYTHON) tests/support/system.py --apt)"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing with apt-get: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    $(PYTHON) tests/support/system.py; \
	  fi; \
	fi

# The tests build dist/ themselves, in a temporary directory, while the CPython tests run
# (tests/conftest.py); the tests that need it, the browser's among them, come last. Two lanes
# (tests/support/lanes.py): whole modules to whichever worker is free, the CPython ones first.
# On a new machine apt waits on the network and the disk: the system packages install (system.py
# needs only the standard library) while .venv and node_modules install side by side, and then while
# the CPython tests and the build run; the browser tests wait for the install's status in
# .cache/system.status (tests/conftest.py), and fail with its message if it failed. Bytecode is written
# (PYTHONDONTWRITEBYTECODE cleared, where the environment sets it): each worker, and each Python a test
# starts, then loads raglab_core and the tests' rewritten modules compiled once, not compiled again.
test:
	@mkdir -p .cache; rm -f .cache/system.status; \
	{ $(MAKE) --no-print-directory system; echo $$? > .cache/system.status; } & apt=$$!; \
	$(MAKE) --no-print-directory -j2 $(PYDEPS) $(NODEDEPS) || { wait $$apt; exit 1; }; \
	if [ -s .cache/system.status ] && [ "$$(cat .cache/system.status)" != 0 ]; then exit 1; fi; \
	RAGLAB_SYSTEM_STATUS=.cache/system.status PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2; status=$$?; wait $$apt; exit $$status

bench: build
	$(PY) bench/core.py
	$(PY) bench/page.py
	$(PY) bench/byo.py

clean:
	rm -rf dist .venv node_modules .cache bench/results .hypothesis  # the build cache, ~/.cache/raglab, stays
