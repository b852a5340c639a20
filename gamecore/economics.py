"""Player-banked table economics: the collection and who nets what.

In player-banked games (21st Century Baccarat and Blackjack) the house does not bank the
game: it charges a fixed collection per betting spot per hand, paid by everyone, the
player/dealer (P/D) included, whatever the result. These tables turn a player's EV per unit
into money per hand for a table of equal bets, the P/D covering all action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from gamecore.errors import GamecoreError, shown


def collection_table(collection: float, wagers: Any) -> pd.DataFrame:
    """The collection as a cost against the wager, for each wager size.

    Parameters
    ----------
    collection : float
        Money everyone pays the house every hand.
    wagers : Iterable of float
        The wager sizes, money, each above 0.

    Returns
    -------
    pandas.DataFrame
        Wager | Collection | Collection as % of wager (a fraction: 0.05 is 5%), one row per
        wager size.
    """
    wagers = list(wagers)
    if any(w <= 0 for w in wagers):
        raise GamecoreError(f"wagers must be above 0, got {shown(wagers)}")
    return pd.DataFrame(
        [
            {"Wager": w, "Collection": collection, "Collection as % of wager": collection / w}
            for w in wagers
        ]
    )


def pd_edge_table(collection: float, player_evs: Mapping[str, Any], wagers: Any) -> pd.DataFrame:
    """The P/D's edge and the collection, as a par sheet states them: for each strategy
    pair, the player's EV, the P/D's edge (its negative, per unit of action), and at each
    wager size the collection as a cost in % of the bet and the player's EV after it.

    Parameters
    ----------
    collection : float
        Money everyone pays the house every hand.
    player_evs : mapping of str to float or Fraction
        The strategy pair (as the wagers name it) -> the player's EV per unit wagered,
        heads-up.
    wagers : iterable of float
        Wager sizes in money, each above 0.

    Returns
    -------
    pandas.DataFrame
        Wager (strategy) | Player EV | P/D edge | Bet | Collection | Collection (house edge
        on the bet) | Player EV after collection: a row per strategy pair and wager size;
        EVs, edges and the collection's share per unit of the bet.
    """
    shares = collection_table(collection, wagers)
    rows = []
    for name, ev in player_evs.items():
        for wager, share in zip(shares["Wager"], shares["Collection as % of wager"], strict=True):
            rows.append(
                {
                    "Wager (strategy)": name,
                    "Player EV": float(ev),
                    "P/D edge": -float(ev),
                    "Bet": wager,
                    "Collection": collection,
                    "Collection (house edge on the bet)": share,
                    "Player EV after collection": float(ev) - share,
                }
            )
    return pd.DataFrame(rows)


def table_economics(
    player_ev: Any, wager: float, collection: float, players: Any = range(1, 9)
) -> pd.DataFrame:
    """Expected money per hand at a table of equal bets, the P/D covering all action.

    Parameters
    ----------
    player_ev : float
        Each player's EV per unit wagered against the P/D (the P/D's edge per unit of
        action is its negative).
    wager : float
        Each player's bet, money (above 0).
    collection : float
        Money everyone, the P/D included, pays on every hand.
    players : Iterable of int
        The table sizes, one row each.

    Returns
    -------
    pandas.DataFrame
        Players | P/D action | P/D expected win before collection | P/D net after
        collection | Each player's expected result | Each player's net after collection |
        House collections: money per hand.
    """
    if wager <= 0:
        raise GamecoreError(f"wager must be above 0, got {shown(wager)}")
    ev = float(player_ev)
    rows = []
    for n in players:
        action = n * wager
        pd_win = -ev * action
        rows.append(
            {
                "Players": n,
                "P/D action": action,
                "P/D expected win before collection": pd_win,
                "P/D net after collection": pd_win - collection,
                "Each player's expected result": ev * wager,
                "Each player's net after collection": ev * wager - collection,
                "House collections": (n + 1) * collection,
            }
        )
    return pd.DataFrame(rows)


def house_collection_per_hour(players: int, collection: float, rounds_per_hour: float) -> float:
    """The house's collection per hour: every person at the table, the P/D included, pays
    ``collection`` every round.

    Parameters
    ----------
    players : int
        The players at the table (the P/D is one more person).
    collection : float
        Money each person pays every round.
    rounds_per_hour : float
        Rounds dealt an hour.

    Returns
    -------
    float
        Money per hour.
    """
    return (players + 1) * collection * rounds_per_hour
