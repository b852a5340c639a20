# gamecore: the two commands are `make test` and `make reports`; each installs what it needs.
#
#   make reports DECKS=6              every report with 6 decks
#   make reports PARAMS=my.yaml       every report with the parameters in a YAML file
#   make reports ONLY=punto_banco     one report (ONLY=a,b: two)
#   make parameters [ONLY=name]       each report's parameters: default, allowed values, meaning

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# Compiled numba kernels are cached in gamecore/__pycache__ (gamecore._jit), where the
# gamecore command finds them too; make install compiles those of each game's exact command
# (gamecore.warm), so the first command after it does not wait for numba.
# Jupyter kernels and papermill find the project's interpreter through the venv.
export PATH := $(CURDIR)/$(BIN):$(PATH)
export PYDEVD_DISABLE_FILE_VALIDATION := 1

# DECKS, PARAMS and ONLY reach the build exactly as typed: taken unexpanded ($(value ...), so
# a $ in a path stays a $) into the recipe's environment, where the recipe reads them as
# "$$GAMECORE_DECKS"; no quote or shell character in them is ever read by a shell.
export GAMECORE_DECKS := $(value DECKS)
export GAMECORE_PARAMS := $(value PARAMS)
export GAMECORE_ONLY := $(value ONLY)
# A variable given on the command line that is neither one of those three nor the Makefile's
# own (DECK=6 for DECKS=6) goes to the build by name, which refuses it, suggesting the one
# meant: silently ignored, it would rebuild the default report over the one asked for.
MAKEFILE_VARIABLES := PYTHON VENV BIN STAMP
COMMAND_LINE_UNKNOWN := $(filter-out DECKS PARAMS ONLY $(MAKEFILE_VARIABLES),\
	$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))
REPORT_ARGS := $(if $(GAMECORE_DECKS),-p decks "$$GAMECORE_DECKS") \
	$(if $(GAMECORE_PARAMS),-f "$$GAMECORE_PARAMS") $(if $(GAMECORE_ONLY),--only "$$GAMECORE_ONLY")

.PHONY: install test fuzz reports parameters bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name gamecore --display-name "Python (gamecore)"
	$(BIN)/python -m gamecore.warm
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest

# The property-based tests with many more examples each (Hypothesis profile "fuzz"), and
# hostile input's fixed cases (tests/test_hostile_42_*.py): every class of hostile input
# found so far, each a property (test_properties_hostile_*.py) or a case.
fuzz: install
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/test_properties*.py tests/test_hostile_42_*.py

reports: export GAMECORE_MAKE_UNKNOWN := $(COMMAND_LINE_UNKNOWN)
reports: install
	$(BIN)/python -m gamecore.reporting.build --output reports $(REPORT_ARGS)

parameters: export GAMECORE_MAKE_UNKNOWN := $(COMMAND_LINE_UNKNOWN)
parameters: install
	@$(BIN)/python -m gamecore.reporting.build --list $(if $(GAMECORE_ONLY),--only "$$GAMECORE_ONLY")

bench: install
	$(BIN)/python benchmarks/bench.py --output build/bench.json

lint: install
	$(BIN)/ruff check gamecore tests benchmarks notebooks

# Removes what the build and the tools wrote, and nothing a symbolic link points to: every
# path is removed as itself (rm never follows a link it is given, nor one inside a folder it
# removes), find does not follow links, and a reports/ that is itself a link is not entered.
clean:
	test ! -d reports || find reports -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf -- {} +
	rm -rf -- .reports.building-* .numba_cache build *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf -- {} +
