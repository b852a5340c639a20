"""21st Century Baccarat: player/dealer banked, jokers wild, options on 5 and 6.

- :mod:`~gamecore.c21_baccarat.rules`: the rule set, the shoe and the vocabulary of a deal;
- :mod:`~gamecore.c21_baccarat.strategies`: strategies as data (House Way among them);
- :mod:`~gamecore.c21_baccarat.deals`: the kernel counting every heads-up deal, both
  branches of every decision;
- :mod:`~gamecore.c21_baccarat.exact`: the strategy-free exact counts of every deal
  (:func:`count_deals`), and from them any pair of strategies' EV, the advantage charts,
  best responses and the equilibrium;
- :mod:`~gamecore.c21_baccarat.strategy_pair`: one strategy pair's exact figures;
- :mod:`~gamecore.c21_baccarat.option_game`: the option game at an up card, in sequence
  form, and its linear programs;
- :mod:`~gamecore.c21_baccarat.economics`: several spots, the collection, a table's money,
  the P/D's edge and the collection as the par sheet states them;
- :mod:`~gamecore.c21_baccarat.removal`: exact effects of removal (House Way and the
  equilibrium) and a count derived from them (``gamecore count``);
- :mod:`~gamecore.c21_baccarat.counting`: the counter at a table on real shoes, the
  perfect-information bettor, the procedures;
- :mod:`~gamecore.c21_baccarat.dealt`: the kernels that deal a round, the simulator's
  rounds and the counter's shoes;
- :mod:`~gamecore.c21_baccarat.sim`: the simulator, heads-up and at a full table;
- :mod:`~gamecore.c21_baccarat.table`: the full table read for the P/D's seat (the bank);
- :mod:`~gamecore.c21_baccarat.checks`: every exact figure beside its simulated twin.
"""

from gamecore.c21_baccarat import checks, counting, removal, sim, table
from gamecore.c21_baccarat.economics import (
    collection_table,
    multi_spot_table,
    pd_edge_table,
    table_economics,
)
from gamecore.c21_baccarat.exact import C21Analysis, count_deals, sweep
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
from gamecore.c21_baccarat.strategy_pair import StrategyPairResult

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
    "checks",
    "collection_table",
    "count_deals",
    "counting",
    "dealer_strategy",
    "exact",
    "house_way_dealer",
    "house_way_player",
    "multi_spot_table",
    "pd_edge_table",
    "player_strategy",
    "removal",
    "sim",
    "sweep",
    "table",
    "table_economics",
]
