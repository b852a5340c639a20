"""Punto banco (High Limit Baccarat) and EZ Baccarat with the Dragon 7: exact counts of every
round, the Monte Carlo shoe simulator, and the Dragon 7 counting study.

- :mod:`~gamecore.baccarat.rules`: the rule sets and their paytables;
- :mod:`~gamecore.baccarat.tableau`: the third-card tableau, as data;
- :mod:`~gamecore.baccarat.events`: the breakdown of a round's final states and the events
  over it that paytables refer to;
- :mod:`~gamecore.baccarat.exact`: the exact breakdown of a round and every bet's figures
  (:func:`exact`, :func:`infinite_deck`);
- :mod:`~gamecore.baccarat.sim`: the simulator, dealing by the same tableau (:func:`simulate`);
- :mod:`~gamecore.baccarat.removal`: exact effects of removal and the counts that follow them;
- :mod:`~gamecore.baccarat.counting`: a count played through real shoes: the counter and the
  perfect-information bettor (kernels: :mod:`~gamecore.baccarat.counted_shoes`).
"""

import importlib
from typing import Any

from gamecore.baccarat.events import BREAKDOWN_SHAPE, EVENTS, GRID, OUTCOME_TITLES
from gamecore.baccarat.exact import (
    BaccaratAnalysis,
    count_rounds,
    deck_sweep,
    exact,
    infinite_deck,
)
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules
from gamecore.baccarat.tableau import (
    BANKER_DRAWS,
    BANKER_DRAWS_PLAYER_STOOD,
    PLAYER_DRAWS,
    tableau_frame,
)

#: Imported when first used: the simulator and the counting study bring pandas and the
#: thread pool, which an exact command does not need (name -> its module, and the
#: attribute of it, or None for the module itself).
_ON_FIRST_USE = {
    "counting": ("gamecore.baccarat.counting", None),
    "removal": ("gamecore.baccarat.removal", None),
    "sim": ("gamecore.baccarat.sim", None),
    "BaccaratSimulation": ("gamecore.baccarat.sim", "BaccaratSimulation"),
    "simulate": ("gamecore.baccarat.sim", "simulate"),
}


def __getattr__(name: str) -> Any:
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _ON_FIRST_USE[name]
    found = importlib.import_module(module)
    return found if attribute is None else getattr(found, attribute)


__all__ = [
    "BANKER_DRAWS",
    "BANKER_DRAWS_PLAYER_STOOD",
    "BREAKDOWN_SHAPE",
    "EVENTS",
    "GRID",
    "OUTCOME_TITLES",
    "PLAYER_DRAWS",
    "BaccaratAnalysis",
    "BaccaratSimulation",
    "EZBaccaratRules",
    "PuntoBancoRules",
    "count_rounds",
    "counting",
    "deck_sweep",
    "exact",
    "infinite_deck",
    "removal",
    "sim",
    "simulate",
    "tableau_frame",
]
