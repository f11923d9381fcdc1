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
# The suite on every core, at most 4 (pytest-xdist); tests sharing a notebook run share a worker.
PYTEST_ARGS ?= -n auto --maxprocesses 4 --dist loadgroup --durations=20
PARAMS   ?=

.PHONY: all venv notebooks overview report paper sync lint test bench lab docs clean clean-results distclean help \
        $(NAMES)

# Leaves a clone's tracked files as they are: the overview goes to build/overview.md, the site to build/report/.
all: notebooks
	$(PY) tools/overview.py
	$(PY) tools/report.py

help:
	@echo "make all [PROFILE=smoke|quick|paper]   set up .venv and run every notebook"
	@echo "make <notebook name> [PROFILE=...] [PARAMS='-p seed 3']   run one notebook, e.g. make 00_datasets"
	@echo "make report                             the HTML site of the executed notebooks: build/report/index.html"
	@echo "make paper [STUDY=moreno_torres2012]   every study (or one) at the published scale, from the shipped tables"
	@echo "make test | lint | sync | bench | lab | docs | overview"
	@echo "make clean          remove build/ and figures/; keeps the result stores under results/ (and says so)"
	@echo "make clean-results  remove the notebooks' default result stores too (hours of work at paper)"
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

# The collection overview: every study's profile and claims, into build/overview.md and the claims
# table at the end of README.md (run it when you mean to commit that table; `make all` does not).
overview: $(STAMP)
	$(PY) tools/overview.py --readme

# The static site: one page per executed notebook in build/notebooks/ (and build/notebooks-paper/
# beside it when that exists), an index with the studies and every claim's verdict.
report: $(STAMP)
	$(PY) tools/report.py

# Every study notebook at the paper profile from its shipped tables (results/paper/), fitting nothing:
# executed copies in build/notebooks-paper/, tables and figures in figures/paper/. STUDY=<id> runs one.
paper: $(STAMP)
	$(PY) tools/make_paper.py $(STUDY)

# Notebook sources are notebooks/NN_*.py (jupytext percent format); this writes the .ipynb.
# It refuses to overwrite an .ipynb edited after its .py (FORCE=1 overwrites).
sync: $(STAMP)
	$(PY) tools/sync_notebooks.py $(if $(FORCE),--force)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/run.py

# JupyterLab on the project: notebooks/ (open a .py with "Open With > Jupytext Notebook"; saving writes the
# .py and an untracked copy with outputs in build/lab/) and the executed copies in build/notebooks/.
# As root it adds --allow-root (LAB_FLAGS adds more, e.g. LAB_FLAGS="--port 8899 --no-browser").
LAB_FLAGS ?=
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=. $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_FLAGS)

# Only what make generated: build/, figures/ but its README. The result stores under results/ are
# caches of hours of work: kept, and listed. tools/clean.py says what it removes and keeps.
clean:
	$(PYTHON) tools/clean.py

# The notebooks' default result stores (results/<study>/) too; a store of your own is kept.
clean-results:
	$(PYTHON) tools/clean.py --results

# The documentation's generated tables (README's studies and references, docs/learners.md).
docs: $(STAMP)
	$(PY) tools/docs_tables.py

distclean: clean
	rm -rf $(VENV)
