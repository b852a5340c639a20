"""Shared fixtures. The oracle modules in this folder are imported as plain modules."""

import pytest

from gamecore import baccarat


@pytest.fixture(scope="session")
def eight_deck_punto_banco():
    return baccarat.exact(baccarat.PuntoBancoRules(decks=8))


@pytest.fixture(scope="session")
def eight_deck_ez():
    return baccarat.exact(baccarat.EZBaccaratRules(decks=8))
