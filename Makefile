# papergames: `make demo` writes a sheet of every game into sheets/, `make test` runs every check.
# Both set everything up on a fresh machine (a virtualenv with the project and its test tools).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEPS := $(VENV)/.deps-stamp

.PHONY: demo test lint typecheck unit bench gallery install clean browser

$(PY):
	$(PYTHON) -m venv $(VENV)

# Dependencies are installed once per change of pyproject.toml. The project itself is installed
# editable in setuptools' strict mode on every run: a tree of links to the source files under
# build/, made anew each time so new modules are found, which mypy follows like any installed
# package (see docs/architecture.md).
$(DEPS): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77" wheel
	$(PY) -m pip install --quiet ".[test]"
	touch $@

# PYTHONWARNINGS quiets setuptools' note that the link tree under build/ must stay. The modules
# are compiled to bytecode here, as pip does for an installed wheel: where PYTHONDONTWRITEBYTECODE
# is set (containers, CI), every command would otherwise compile them again, 0.2 s a start.
install: $(DEPS)
	PYTHONWARNINGS=ignore $(PY) -m pip install --quiet --no-deps --no-build-isolation -e . --config-settings editable_mode=strict
	$(PY) -m compileall -q -j 0 "$$($(PY) -c 'import os, papergames; print(os.path.dirname(papergames.__file__))')" > /dev/null

demo: install
	$(VENV)/bin/papergames demo --out sheets

# lint-imports holds the code to the layers written down in pyproject.toml.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/mypy -p papergames
	$(VENV)/bin/mypy bench

# The web page's browser tests drive Debian's Chromium through its chromedriver; nothing may
# download a browser of its own, so the packages are installed here when the driver is missing.
browser:
	@if [ ! -x /usr/bin/chromedriver ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		APT="$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"; \
		$$APT install -y chromium chromium-driver \
			|| { $$APT update && $$APT install -y chromium chromium-driver; }; \
	fi

unit: install browser
	$(PY) -m pytest

test: lint typecheck unit

ART_GAMES := vasarely miro mondrian arp delaunay klee springer

# The README's gallery: the seven art sheets with their default parameters, seed 1.
gallery: install
	mkdir -p docs/gallery
	for game in $(ART_GAMES); do \
		$(VENV)/bin/papergames sheet $$game --seed 1 --dpi 50 -o docs/gallery/$$game.png || exit 1; \
	done

bench: install
	$(PY) bench/sheets.py
	$(PY) bench/check.py
	$(PY) bench/photo.py --sheets 24
	$(PY) bench/batch.py --photos 30
	$(PY) bench/one_photo.py --photos 16
	$(PY) bench/web.py

clean:
	rm -rf $(VENV) sheets build *.egg-info
