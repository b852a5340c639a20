"""21st Century Baccarat: player/dealer banked, jokers wild, options on 5 and 6.

- :mod:`~gamecore.c21_baccarat.rules`: the rule set, the shoe and the vocabulary of a deal;
- :mod:`~gamecore.c21_baccarat.strategies`: strategies as data (House Way among them);
- :mod:`~gamecore.c21_baccarat.exact`: the strategy-free exact counts of every deal
  (:func:`count_deals`), and from them any pair of strategies' EV, the advantage charts, best
  responses, the equilibrium and the table's economics;
- :mod:`~gamecore.c21_baccarat.counting`: exact effects of removal (House Way and the
  equilibrium) and a count derived from them (``gamecore count``);
- :mod:`~gamecore.c21_baccarat.sim`: the simulator, heads-up and at a full table.
"""

from gamecore.c21_baccarat import counting, sim
from gamecore.c21_baccarat.exact import (
    C21Analysis,
    StrategyPairResult,
    collection_table,
    count_deals,
    multi_spot_table,
    sweep,
    table_economics,
)
from gamecore.c21_baccarat.rules import (
    CLASSES,
    HAND_LABELS,
    JOKER,
    OUTCOMES,
    PAYOFF,
    PLAYER_HANDS,
    C21BaccaratRules,
    c21_shoe,
)
from gamecore.c21_baccarat.strategies import (
    DealerStrategy,
    PlayerStrategy,
    dealer_strategy,
    house_way_dealer,
    house_way_player,
    player_strategy,
)

#: The exact analysis under the name every game's engine uses.
exact = count_deals

__all__ = [
    "CLASSES",
    "HAND_LABELS",
    "JOKER",
    "OUTCOMES",
    "PAYOFF",
    "PLAYER_HANDS",
    "C21Analysis",
    "C21BaccaratRules",
    "DealerStrategy",
    "PlayerStrategy",
    "StrategyPairResult",
    "c21_shoe",
    "collection_table",
    "count_deals",
    "counting",
    "dealer_strategy",
    "exact",
    "house_way_dealer",
    "house_way_player",
    "multi_spot_table",
    "player_strategy",
    "sim",
    "sweep",
    "table_economics",
]
