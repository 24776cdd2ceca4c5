# papergames: `make demo` writes a sheet of every game into sheets/, `make test` runs every check.
# Both set everything up on a fresh machine (a virtualenv with the project and its test tools).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEPS := $(VENV)/.deps-stamp

.PHONY: demo test lint typecheck unit bench gallery install clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Dependencies are installed once per change of pyproject.toml; the project itself is reinstalled
# (without its dependencies) on every run so the tests see the current code.
$(DEPS): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77" wheel
	$(PY) -m pip install --quiet ".[test]"
	touch $@

install: $(DEPS)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation --force-reinstall .

demo: install
	$(VENV)/bin/papergames demo --out sheets

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	cd /tmp && $(CURDIR)/$(VENV)/bin/mypy --config-file $(CURDIR)/pyproject.toml -p papergames
	$(VENV)/bin/mypy bench

unit: install
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

clean:
	rm -rf $(VENV) sheets build *.egg-info
