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

from gamecore.baccarat import counting, removal, sim
from gamecore.baccarat.events import BREAKDOWN_SHAPE, EVENTS, GRID, OUTCOME_TITLES
from gamecore.baccarat.exact import (
    BaccaratAnalysis,
    count_rounds,
    deck_sweep,
    exact,
    infinite_deck,
)
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules
from gamecore.baccarat.sim import BaccaratSimulation, simulate
from gamecore.baccarat.tableau import (
    BANKER_DRAWS,
    BANKER_DRAWS_PLAYER_STOOD,
    PLAYER_DRAWS,
    tableau_frame,
)

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
