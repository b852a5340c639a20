"""Punto banco (High Limit Baccarat) and EZ Baccarat with the Dragon 7: exact counts of every
round, the Monte Carlo shoe simulator, and the Dragon 7 counting study.

- :mod:`~gamecore.baccarat.rules`: the rule sets and their paytables;
- :mod:`~gamecore.baccarat.exact`: the third-card tableau, the exact breakdown of a round's
  final states and every bet's figures (:func:`exact`, :func:`infinite_deck`);
- :mod:`~gamecore.baccarat.sim`: the simulator, dealing by the same tableau (:func:`simulate`);
- :mod:`~gamecore.baccarat.counting`: effects of removal, counts, counters and the
  perfect-information bettor.
"""

from gamecore.baccarat import counting, sim
from gamecore.baccarat.exact import (
    BANKER_DRAWS,
    BANKER_DRAWS_PLAYER_STOOD,
    BREAKDOWN_SHAPE,
    EVENTS,
    GRID,
    OUTCOME_TITLES,
    PLAYER_DRAWS,
    BaccaratAnalysis,
    count_rounds,
    deck_sweep,
    exact,
    infinite_deck,
    tableau_frame,
)
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules
from gamecore.baccarat.sim import BaccaratSimulation, simulate

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
    "sim",
    "simulate",
    "tableau_frame",
]
