"""Dragon Tiger: one card to the Dragon, one to the Tiger, the higher rank wins.

- :mod:`~gamecore.dragon_tiger.rules`: the rule set and the paytables of its four bets;
- :mod:`~gamecore.dragon_tiger.exact`: the exact breakdown of a round from the card model
  (ranks and suits), every bet's figures, the deck sweep (:func:`exact`, :func:`deck_sweep`);
- :mod:`~gamecore.dragon_tiger.sim`: the simulated twin (:func:`simulate`);
- :mod:`~gamecore.dragon_tiger.game`: the game as the registry's object (``DRAGON_TIGER``).
"""

from gamecore.dragon_tiger import sim
from gamecore.dragon_tiger.exact import (
    BREAKDOWN_SHAPE,
    EVENTS,
    OUTCOME_TITLES,
    DragonTigerAnalysis,
    count_pairs,
    deck_sweep,
    exact,
    infinite_deck,
)
from gamecore.dragon_tiger.rules import DragonTigerRules
from gamecore.dragon_tiger.sim import DragonTigerSimulation, simulate

__all__ = [
    "BREAKDOWN_SHAPE",
    "EVENTS",
    "OUTCOME_TITLES",
    "DragonTigerAnalysis",
    "DragonTigerRules",
    "DragonTigerSimulation",
    "count_pairs",
    "deck_sweep",
    "exact",
    "infinite_deck",
    "sim",
    "simulate",
]
