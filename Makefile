# cvrepro: `make all` sets everything up and regenerates every table and figure;
# `make test` runs the test suite. Both create .venv on first use.
PYTHON   ?= python3
PROFILE  ?= quick
VENV     := .venv
PY       := $(VENV)/bin/python
KERNEL   := cvrepro
BUILD    := build/notebooks
STAMP    := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9]*.ipynb))
NAMES    := $(basename $(notdir $(NOTEBOOKS)))
PYTEST_ARGS ?=
PARAMS   ?=

.PHONY: all venv notebooks overview sync lint test bench lab docs clean distclean help $(NAMES)

all: notebooks
	$(PY) tools/overview.py

help:
	@echo "make all [PROFILE=smoke|quick|paper]   set up .venv and run every notebook"
	@echo "make <notebook name> [PROFILE=...] [PARAMS='-p seed 3']   run one notebook, e.g. make 00_datasets"
	@echo "make test | lint | sync | bench | lab | docs | clean"
	@echo "notebooks: $(NAMES)"

$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python (cvrepro)" >/dev/null
	touch $@

venv: $(STAMP)

notebooks: $(NAMES)

# One notebook by name; its parameters cell reads PROFILE, and PARAMS passes more papermill
# parameters (PARAMS="-p seed 3"); a name the notebook does not define fails in its second cell.
# Executed copies go to build/.
$(NAMES): %: notebooks/%.ipynb $(STAMP)
	@mkdir -p $(BUILD)
	$(VENV)/bin/papermill --log-level WARNING --kernel $(KERNEL) --cwd notebooks \
	    -p profile $(PROFILE) $(PARAMS) $< $(BUILD)/$*.ipynb

# The collection overview: every study's profile and claims, into figures/README.md and README.md.
overview: $(STAMP)
	$(PY) tools/overview.py

# Notebook sources are notebooks/NN_*.py (jupytext percent format); this writes the .ipynb.
sync: $(STAMP)
	$(PY) tools/sync_notebooks.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/run.py

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

# Only what make generated: build/, figures/ but its README, the notebooks' default stores
# (results/<study>/); a store of your own under results/ is kept. tools/clean.py says what it removes.
clean:
	$(PYTHON) tools/clean.py

# The documentation's generated tables (README's studies and references, docs/learners.md).
docs: $(STAMP)
	$(PY) tools/docs_tables.py

distclean: clean
	rm -rf $(VENV)
