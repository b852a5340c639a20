"""The table of two-card hands of one solved shoe, and what is read off it.

Every two-card hand against every up card, with its probability and the round's EV of each
action under optimal play (:func:`hand_table`, :func:`hand_columns`): a round's EV by up
card is a weighted sum of its rows (:func:`overall_ev`), the chart derived cell by cell
reads its rows (:func:`gamecore.blackjack.derived_chart.derive_chart`), with the three-card hands
optimal play reaches by hitting them (:func:`three_card_values`), where a double's or a
surrender's fallback is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from gamecore.blackjack.backward import Solved
from gamecore.blackjack.chart import up_label
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.round import opening_values, optimal_play
from gamecore.blackjack.rules import ACTIONS, HIT, STAND

if TYPE_CHECKING:  # pandas is imported where a table is asked for
    import pandas as pd


def hand_table(engine: Engine, solved: Solved, split: np.ndarray) -> pd.DataFrame:
    """Every two-card hand against every up card: probabilities, the round's EV of every
    action (unconditional: the dealer's Natural counted) and the best action.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe (its openings, by up card).
    solved : Solved
        Its optimal solve of the unsplit hands (:meth:`Engine.solve_optimal`).
    split : numpy.ndarray
        The value of splitting each pair rank against each up card, float64 (10, 10),
        NaN where no split is played.

    Returns
    -------
    pandas.DataFrame
        One row per (hand, up card), the columns of :func:`hand_columns`.
    """
    import pandas as pd

    return pd.DataFrame(hand_columns(engine, solved, split))


def hand_columns(engine: Engine, solved: Solved, split: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of :func:`hand_table`, without pandas (the command line's JSON needs no
    table).

    Parameters
    ----------
    engine : Engine
        The engine of the shoe (its openings, by up card).
    solved : Solved
        Its optimal solve of the unsplit hands.
    split : numpy.ndarray
        The value of splitting each pair rank against each up card, float64 (10, 10).

    Returns
    -------
    dict of str to numpy.ndarray
        Column name -> an array over the (hand, up card) rows, up cards A..10 and each up
        card's two-card openings in the engine's order: ``up`` (rank index), ``up_card``
        (its label), the cards ``a`` and ``b`` (rank indices), ``hand`` (label),
        ``total``, ``soft``, ``pair``, ``natural``, ``probability`` (of the two cards given
        the up card), ``up_probability``, ``dealer_natural`` (its probability given the
        hand and up card), ``cell`` (the chart row), ``ev_S`` .. ``ev_P`` (the round's EV
        per initial wager of each action, NaN where not allowed), ``best`` (the optimal
        action's letter) and ``ev_best``.
    """
    rows = []
    for up in range(10):
        p_up = engine.shoe[up] / engine.shoe.sum()
        for opening in engine.caches.openings(up):
            total, soft = opening.total
            values = opening_values(opening, solved.ev, split)
            best = optimal_play(opening, solved.ev, split, values).action
            rows.append(
                {
                    "up": up,
                    "up_card": up_label(up),
                    "a": opening.first,
                    "b": opening.second,
                    "hand": opening.label(),
                    "total": total,
                    "soft": soft,
                    "pair": opening.pair,
                    "natural": opening.natural,
                    "probability": opening.probability,
                    "up_probability": p_up,
                    "dealer_natural": opening.dealer_natural,
                    "cell": opening.cell(),
                    **{f"ev_{name}": values.get(name, np.nan) for name in ACTIONS},
                    "best": best,
                    "ev_best": values[best],
                }
            )
    return {name: np.array([row[name] for row in rows]) for name in rows[0]}


def three_card_values(
    engine: Engine, solved: Solved, hands: pd.DataFrame | Mapping[str, np.ndarray]
) -> dict[tuple[str, str], dict[str, float]]:
    """Stand and hit at the three-card hands optimal play reaches by hitting two cards:
    for each (hard/soft row, up card) the values of the row's three-card hands averaged over
    them, each weighted by its chance of being held (the two cards dealt, optimal play
    hitting them, the third card drawn from what is left; under the peek, no dealer
    Natural). An action some of those hands may not take is left out.

    These are the hands where a double's or a surrender's fallback is played (a first
    action no longer allowed after a hit):
    :func:`~gamecore.blackjack.derived_chart.derive_chart` reads the fallback here.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe (its hand tree and shoe).
    solved : Solved
        Its optimal solve of the unsplit hands.
    hands : pandas.DataFrame or mapping of str to numpy.ndarray
        The hand table of ``solved`` (:func:`hand_table` or :func:`hand_columns`).

    Returns
    -------
    dict
        ``(row, up card)`` (e.g. ``("hard 12", "10")``) -> action letter (``S``, ``H``) ->
        its EV per unit of the initial wager, averaged over the row's three-card hands.
    """
    nd, out = engine.nodes, {}
    total = np.where(nd.soft, nd.hard + 10, nd.hard)
    column = {name: np.asarray(hands[name]) for name in ("up", "a", "b", "probability")}
    hitting = (np.asarray(hands["best"]) == "H") & ~np.asarray(hands["natural"], dtype=bool)
    for up in np.unique(column["up"][hitting]).tolist():
        group = np.flatnonzero(hitting & (column["up"] == up))
        starts = np.zeros((len(group), 10), dtype=np.int64)
        np.add.at(starts, (np.arange(len(group)), column["a"][group]), 1)
        np.add.at(starts, (np.arange(len(group)), column["b"][group]), 1)
        nodes = np.array([engine.node_index[tuple(c)] for c in starts.tolist()])
        left = engine.shoe - starts
        left[:, up] -= 1
        # The chance of each (two cards, third card); a plain bust has no decision to make.
        chance = column["probability"][group][:, None] * left / left.sum(axis=1)[:, None]
        third = nd.child[nodes]
        held = (left > 0) & (third >= 0)
        held[held] = ~nd.bust[third[held]]
        j, weight = third[held], chance[held]
        rows = nd.soft[j].astype(np.int64) * 32 + total[j]
        reach = np.bincount(rows, weights=weight, minlength=64)
        for action in (STAND, HIT):
            values = solved.ev[j, up, action]
            allowed = np.bincount(rows, weights=np.isnan(values), minlength=64) == 0
            summed = np.bincount(
                rows, weights=np.where(np.isnan(values), 0.0, weight * values), minlength=64
            )
            for row in np.flatnonzero((reach > 0) & allowed):
                cell = (f"{'soft' if row >= 32 else 'hard'} {row % 32}", up_label(int(up)))
                out.setdefault(cell, {})[ACTIONS[action]] = float(summed[row] / reach[row])
    return out


def overall_ev(
    hands: pd.DataFrame | Mapping[str, np.ndarray], column: str
) -> tuple[float, np.ndarray, np.ndarray]:
    """A round's EV when every two-card hand plays the action of ``ev_<column>``.

    Parameters
    ----------
    hands : pandas.DataFrame or mapping of str to numpy.ndarray
        The hand table (:func:`hand_table`) or its columns (:func:`hand_columns`).
    column : str
        Which EV column: an action's letter (``S`` .. ``P``) or ``best``.

    Returns
    -------
    tuple of (float, numpy.ndarray, numpy.ndarray)
        The EV of a round per initial wager, the EV given each up card, and each up card's
        probability (float64 arrays over the up cards A, 2..10).
    """
    up = np.asarray(hands["up"])
    probability = np.asarray(hands["probability"], dtype=float)
    ev = np.asarray(hands[f"ev_{column}"], dtype=float)
    up_probability = np.asarray(hands["up_probability"], dtype=float)
    by_up = np.zeros(10)
    up_p = np.zeros(10)
    for u in np.unique(up).tolist():
        rows = np.flatnonzero(up == u)
        by_up[u] = float(np.dot(probability[rows], ev[rows]))
        up_p[u] = float(up_probability[rows[0]])
    return float(np.dot(by_up, up_p)), by_up, up_p
