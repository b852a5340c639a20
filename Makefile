# gamecore: the two commands are `make test` and `make reports`; each installs what it needs.
#
#   make reports DECKS=6              every report with 6 decks
#   make reports PARAMS=my.yaml       every report with the parameters in a YAML file
#   make reports ONLY=punto_banco     one report

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# Compiled numba kernels are cached here, so a second run does not recompile.
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache
# Jupyter kernels and papermill find the project's interpreter through the venv.
export PATH := $(CURDIR)/$(BIN):$(PATH)
export PYDEVD_DISABLE_FILE_VALIDATION := 1

REPORT_ARGS := $(if $(DECKS),-p decks '$(DECKS)') $(if $(PARAMS),-f '$(PARAMS)') $(if $(ONLY),--only '$(ONLY)')

.PHONY: install test fuzz reports bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name gamecore --display-name "Python (gamecore)"
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest

# The property-based tests with many more examples each (Hypothesis profile "fuzz").
fuzz: install
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/test_properties.py

reports: install
	$(BIN)/python -m gamecore.reporting.build --output reports $(REPORT_ARGS)

bench: install
	$(BIN)/python benchmarks/bench.py --output reports/bench.json

lint: install
	$(BIN)/ruff check gamecore tests benchmarks notebooks

clean:
	rm -rf reports/*/ reports/.staging-* reports/.old-* .reports.building-* reports/index.html \
		reports/bench.json .numba_cache build *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
