"""Blackjack and New 21st Century Blackjack: the exact combinatorial analysis, charts, the
probability of each final result, and the simulator.

- :mod:`~gamecore.blackjack.rules`: the rule sets and the vocabulary of a round;
- :mod:`~gamecore.blackjack.dealer`: the dealer's final distribution for any remaining shoe
  (the central idea the whole engine is built on), from the dealer's hands of
  :mod:`~gamecore.blackjack.dealer_hands` and the lines of shoes of
  :mod:`~gamecore.blackjack.shoe_lines` (numbered with :mod:`~gamecore.blackjack.hash_table`);
- :mod:`~gamecore.blackjack.shoe`: which shoe compositions an analysis accepts;
- :mod:`~gamecore.blackjack.round`: the one model of a round's start (the two cards,
  Naturals, early surrender, the split decision, split hands' second cards) that every
  consumer below reads;
- :mod:`~gamecore.blackjack.splits`: the split identities (a split's EV from one split hand's
  values, by how the second cards fall);
- :mod:`~gamecore.blackjack.hand_tree`: player hand compositions and their hit links;
- :mod:`~gamecore.blackjack.backward`: the backward pass, every action's value at every hand;
- :mod:`~gamecore.blackjack.engine`: one shoe's contexts, their dealer rows, and splits;
- :mod:`~gamecore.blackjack.chart`: total-dependent strategy charts;
- :mod:`~gamecore.blackjack.derived_chart`: the chart derived from the two-card hands;
- :mod:`~gamecore.blackjack.analysis`: :func:`exact` and :class:`BlackjackAnalysis`;
- :mod:`~gamecore.blackjack.hand_table`: the table of two-card hands and what is read off it;
- :mod:`~gamecore.blackjack.chart_figures`: a chart's exact EV and its composition-dependent
  exceptions;
- :mod:`~gamecore.blackjack.variants`: the analysis over rule variants, the deck sweep and
  the rule costs;
- :mod:`~gamecore.blackjack.pricing`: a chart's exact EV by up card, and the prices of every
  single-cell change of it;
- :mod:`~gamecore.blackjack.search`: the best total-dependent chart, by exact pricing of
  every single-cell change;
- :mod:`~gamecore.blackjack.results`: the probability of each final result, from how each
  hand ends (:mod:`~gamecore.blackjack.hand_ends`) and the rounds split once
  (:mod:`~gamecore.blackjack.two_hand_split`);
- :mod:`~gamecore.blackjack.hand`: the EV of every action at one hand (``gamecore hand``);
- :mod:`~gamecore.blackjack.counting`: exact effects of removal, a count derived from them
  and its index plays (``gamecore count``);
- :mod:`~gamecore.blackjack.counter`: the counter on real shoes, by procedure and by seat,
  and the perfect-information bettor;
- :mod:`~gamecore.blackjack.sim`: the simulator, charts and optimal play;
- :mod:`~gamecore.blackjack.table`: the full table, up to seven players and the P/D from
  one shoe (what the P/D's seat carries: :mod:`gamecore.banking`);
- :mod:`~gamecore.blackjack.checks`: every exact figure beside its simulated twin.
"""

import importlib

from gamecore.blackjack import results, search
from gamecore.blackjack.analysis import BlackjackAnalysis, exact
from gamecore.blackjack.chart import (
    CHART_DIR,
    CHART_UP_CARDS,
    StrategyChart,
    chart_tables,
    read_strategy_chart,
)
from gamecore.blackjack.dealer import dealer_final_distribution
from gamecore.blackjack.derived_chart import derive_chart
from gamecore.blackjack.hand import HandValues, hand_values
from gamecore.blackjack.rules import (
    ACE,
    ACTIONS,
    BUST_PUSH_KINDS,
    DEALER_OUTCOMES,
    DECK,
    DOUBLE_KINDS,
    FORCED_KINDS,
    NATURAL,
    RANKS,
    SPLIT_STRATEGIES,
    SPLIT_STRATEGY_NAMES,
    SURRENDER_KINDS,
    TEN,
    C21BlackjackRules,
    StandardBlackjackRules,
    hand_total,
    shoe_composition,
)
from gamecore.blackjack.shoe import MAX_CARDS_PER_RANK, check_round_fits
from gamecore.blackjack.splits import split_patterns
from gamecore.blackjack.variants import deck_sweep, default_variants, rule_costs

#: Imported when first used (``blackjack.sim``): the exact analysis and ``gamecore exact`` need
#: none of them, and they bring pandas, which a command printing JSON never needs.
_ON_FIRST_USE = ("checks", "counter", "counting", "sim", "table")


def __getattr__(name: str):
    if name in _ON_FIRST_USE:
        return importlib.import_module(f"gamecore.blackjack.{name}")
    raise AttributeError(f"module 'gamecore.blackjack' has no attribute {name!r}")


__all__ = [
    "ACE",
    "ACTIONS",
    "BUST_PUSH_KINDS",
    "CHART_DIR",
    "CHART_UP_CARDS",
    "DEALER_OUTCOMES",
    "DECK",
    "DOUBLE_KINDS",
    "FORCED_KINDS",
    "MAX_CARDS_PER_RANK",
    "NATURAL",
    "RANKS",
    "SPLIT_STRATEGIES",
    "SPLIT_STRATEGY_NAMES",
    "SURRENDER_KINDS",
    "TEN",
    "BlackjackAnalysis",
    "HandValues",
    "C21BlackjackRules",
    "StandardBlackjackRules",
    "StrategyChart",
    "chart_tables",
    "checks",
    "counter",
    "counting",
    "check_round_fits",
    "dealer_final_distribution",
    "deck_sweep",
    "default_variants",
    "derive_chart",
    "exact",
    "hand_total",
    "hand_values",
    "read_strategy_chart",
    "results",
    "rule_costs",
    "search",
    "shoe_composition",
    "sim",
    "table",
    "split_patterns",
]
