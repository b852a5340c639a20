"""The money of a 21st Century Baccarat table: several spots played by one player, the
collection, and what a table of equal bets nets each seat and the P/D.

Central idea
------------
Against a P/D on House Way, whose play does not depend on the players' actions, every spot's
EV is exactly its heads-up EV (:meth:`gamecore.c21_baccarat.exact.C21Analysis.evaluate`), so
a table's money is arithmetic on heads-up figures; the collection, paid by everyone on every
hand, is the rule set's (:mod:`gamecore.economics` does the sums every player-banked game
shares). The par sheet's figures of the P/D: its edge and the collection's cost
(:func:`pd_edge_table`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from gamecore import economics
from gamecore.c21_baccarat.rules import C21BaccaratRules
from gamecore.c21_baccarat.strategies import PlayerStrategy, house_way_dealer, house_way_player

if TYPE_CHECKING:
    from gamecore.c21_baccarat.exact import C21Analysis


def multi_spot_table(
    analysis: C21Analysis, chosen: PlayerStrategy, spots: range = range(1, 4)
) -> pd.DataFrame:
    """A player on several spots plays one by choice (``chosen``), the rest House Way.

    Against a P/D on House Way, whose play does not depend on the players' actions, every
    spot's EV is exactly its heads-up EV, so the total is a weighted sum.

    Parameters
    ----------
    analysis : C21Analysis
        The exact counts of the rule set (:func:`gamecore.c21_baccarat.exact.count_deals`).
    chosen : PlayerStrategy
        The strategy of the one spot the player plays himself.
    spots : range
        The numbers of spots, one row each.

    Returns
    -------
    pandas.DataFrame
        Spots | EV of the spot played by choice | EV of each House Way spot | EV per unit
        wagered over all spots: EVs per unit wagered, as floats.
    """
    dealer = house_way_dealer(analysis.rules)
    played = float(analysis.evaluate(chosen, dealer).player_ev)
    house = float(analysis.evaluate(house_way_player(analysis.rules), dealer).player_ev)
    return pd.DataFrame(
        [
            {
                "Spots": k,
                "EV of the spot played by choice": played,
                "EV of each House Way spot": house,
                "EV per unit wagered over all spots": (played + (k - 1) * house) / k,
            }
            for k in spots
        ]
    )


def collection_table(rules: C21BaccaratRules, wagers: Any = None) -> pd.DataFrame:
    """The collection as a cost in % of the wager, across wager sizes.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its ``collection`` and, by default, its table limits.
    wagers : iterable of float, optional
        Wager sizes in money; by default the table minimum, 2, 2.5, 5 and 7.5 times it and
        the table maximum, those within the limits.

    Returns
    -------
    pandas.DataFrame
        Wager | Collection | Collection as % of wager
        (:func:`gamecore.economics.collection_table`).
    """
    if wagers is None:
        low, high = rules.table_minimum, rules.table_maximum
        wagers = sorted(
            {w for w in (low, 2 * low, 2.5 * low, 5 * low, 7.5 * low, high) if low <= w <= high}
        )
    return economics.collection_table(rules.collection, wagers)


def table_economics(
    rules: C21BaccaratRules, player_ev: Any, wager: float, players: range = range(1, 9)
) -> pd.DataFrame:
    """Expected money per hand at a table of equal bets, the P/D covering all action, with
    the rule set's collection (:func:`gamecore.economics.table_economics`).

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its ``collection``, paid on every hand by every seat and the P/D.
    player_ev : float or Fraction
        Each player's EV per unit wagered, heads-up (under House Way for the P/D it holds
        for every seat).
    wager : float
        Each player's wager, in money.
    players : range
        The numbers of players, one row each.

    Returns
    -------
    pandas.DataFrame
        Per number of players: the P/D's action, its expected win before and after the
        collection, each player's expected result before and after it, the house's
        collections, all in money per hand.
    """
    return economics.table_economics(player_ev, wager, rules.collection, players)


def pd_edge_table(
    rules: C21BaccaratRules, player_evs: Mapping[str, Any], wagers: Any = None
) -> pd.DataFrame:
    """The P/D's edge and the collection at this rule set's table limits
    (:func:`gamecore.economics.pd_edge_table`).

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its ``collection`` and, by default, its table minimum and maximum as
        the wager sizes.
    player_evs : mapping of str to float or Fraction
        The strategy pair (as the wagers name it) -> the player's EV per unit wagered,
        heads-up.
    wagers : iterable of float, optional
        Wager sizes in money (default: the table minimum and maximum).

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.economics.pd_edge_table`'s rows.
    """
    if wagers is None:
        wagers = sorted({rules.table_minimum, rules.table_maximum})
    return economics.pd_edge_table(rules.collection, player_evs, wagers)
