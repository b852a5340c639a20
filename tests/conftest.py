"""Shared fixtures. The oracle modules in this folder are imported as plain modules.

Hypothesis profiles: ``default`` (a few examples per property, derandomized so ``make test``
gives the same verdict on every run, inside its time budget) and ``fuzz`` (many more random
examples, ``make fuzz``); ``HYPOTHESIS_PROFILE`` picks one.
"""

import os
from pathlib import Path

import pytest
from helpers import BACCARAT_REPORTS, BACCARAT_SMALL, DRAGON_TIGER_SMALL, built_once
from hypothesis import HealthCheck, settings

from gamecore import baccarat

settings.register_profile(
    "default",
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "fuzz",
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# numpy's overflow, invalid value and divide-by-zero warnings are errors in the tests
# (pyproject's filterwarnings), and in every process a test starts too: the command line
# and the notebooks' kernels. An overflow is where a silent wrong answer hides.
os.environ["PYTHONWARNINGS"] = ",".join(
    filter(None, [os.environ.get("PYTHONWARNINGS"), "error::RuntimeWarning"])
)


@pytest.fixture(scope="session")
def eight_deck_punto_banco():
    return baccarat.exact(baccarat.PuntoBancoRules(decks=8))


@pytest.fixture(scope="session")
def eight_deck_ez():
    return baccarat.exact(baccarat.EZBaccaratRules(decks=8))


@pytest.fixture(scope="session")
def baccarat_reports(tmp_path_factory) -> Path:
    """The folder of the four baccarat reports, built with :data:`BACCARAT_SMALL`."""
    return built_once(tmp_path_factory, "baccarat", BACCARAT_SMALL, BACCARAT_REPORTS)


@pytest.fixture(scope="session")
def dragon_tiger_reports(tmp_path_factory) -> Path:
    """The folder of the Dragon Tiger report, built with :data:`DRAGON_TIGER_SMALL`."""
    return built_once(tmp_path_factory, "dragon_tiger", DRAGON_TIGER_SMALL, ["dragon_tiger"])
