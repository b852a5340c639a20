"""Strategies of 21st Century Baccarat as data: for each decision, the probability of drawing.

A player strategy is ``draw[up, total]``, a P/D strategy ``draw[up, player drew, total]``;
both are validated against the card's forced ranges, and may be mixed. House Way is one such
strategy; the best responses and the equilibrium of :mod:`gamecore.c21_baccarat.exact` are
others.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from gamecore.c21_baccarat.rules import (
    JOKER_NINE,
    PLAYER_HANDS,
    C21BaccaratRules,
)
from gamecore.errors import GamecoreError


@dataclasses.dataclass(frozen=True)
class PlayerStrategy:
    """The player's probability of drawing on each two-card total 0..9, by P/D up card 0..9.

    ``draw[up, total]``; hands holding a joker are 9s and always stand.
    """

    name: str
    draw: np.ndarray

    def table(self) -> pd.DataFrame:
        """The strategy as a chart.

        Returns
        -------
        pandas.DataFrame
            A row per P/D up card (``P/D up card``), a column per total 0..9: the
            probability of drawing.
        """
        frame = pd.DataFrame(
            self.draw, index=[f"up {u}" for u in range(10)], columns=[str(t) for t in range(10)]
        )
        return frame.rename_axis("P/D up card").reset_index()


@dataclasses.dataclass(frozen=True)
class DealerStrategy:
    """The P/D's probability of drawing on each total 0..8, by up card 0..9 and by whether
    the player drew: ``draw[up, player_drew, total]``."""

    name: str
    draw: np.ndarray

    def table(self) -> pd.DataFrame:
        """The strategy as a chart.

        Returns
        -------
        pandas.DataFrame
            A row per up card and whether the player drew (``P/D up card``, ``Player
            drew``), a column per total 0..8: the probability of drawing.
        """
        rows = []
        for up in range(10):
            for drew in (0, 1):
                rows.append(
                    {
                        "P/D up card": up,
                        "Player drew": bool(drew),
                        **{str(t): self.draw[up, drew, t] for t in range(9)},
                    }
                )
        return pd.DataFrame(rows)


def _check_forced(rules: C21BaccaratRules, draw: np.ndarray, who: str) -> None:
    if not np.all((draw >= 0) & (draw <= 1)):
        raise GamecoreError(f"{who} draw probabilities must be in [0, 1]")
    totals = draw.shape[-1]
    for total in range(totals):
        column = draw[..., total]
        if total <= rules.must_draw_max and not np.all(column == 1):
            raise GamecoreError(f"{who} must draw on {total} (must_draw_max={rules.must_draw_max})")
        if total >= rules.must_stand_min and not np.all(column == 0):
            raise GamecoreError(
                f"{who} must stand on {total} (must_stand_min={rules.must_stand_min})"
            )


def _draw_array(draw: Any, who: str) -> np.ndarray:
    """Draw probabilities as an array: exact (ints, fractions) kept as objects, else float."""
    try:
        array = np.array(draw, dtype=object if _is_exact(draw) else float)
        if array.dtype == object:
            np.array(array, dtype=float)  # a ragged or non-numeric table fails here
    except (TypeError, ValueError):
        raise GamecoreError(f"{who} draw probabilities must be a table of numbers") from None
    return array


def player_strategy(rules: C21BaccaratRules, name: str, draw: Any) -> PlayerStrategy:
    """A player strategy from draw probabilities ``draw[up 0..9, total 0..9]``, validated
    against the forced ranges.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set (its forced ranges: ``must_draw_max``, ``must_stand_min``).
    name : str
        The strategy's name, as tables print it.
    draw : array_like
        10 x 10 probabilities in [0, 1]; exact ones (ints, Fractions) are kept exact.

    Returns
    -------
    PlayerStrategy
        The strategy (a wrong shape, or a value outside [0, 1] or against a forced range:
        a :class:`GamecoreError`).
    """
    array = _draw_array(draw, "the player's")
    if array.shape != (10, 10):
        raise GamecoreError(
            f"a player strategy has shape (10 up cards, 10 totals), got {array.shape}"
        )
    _check_forced(rules, array.astype(float), "the player")
    return PlayerStrategy(name, array)


def dealer_strategy(rules: C21BaccaratRules, name: str, draw: Any) -> DealerStrategy:
    """A P/D strategy from ``draw[up 0..9, player drew 0/1, total 0..8]``, validated.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set (its forced ranges: ``must_draw_max``, ``must_stand_min``).
    name : str
        The strategy's name, as tables print it.
    draw : array_like
        10 x 2 x 9 probabilities in [0, 1]; exact ones (ints, Fractions) are kept exact.

    Returns
    -------
    DealerStrategy
        The strategy (a wrong shape, or a value outside [0, 1] or against a forced range:
        a :class:`GamecoreError`).
    """
    array = _draw_array(draw, "the P/D's")
    if array.shape != (10, 2, 9):
        raise GamecoreError(
            f"a P/D strategy has shape (10 up cards, 2, 9 totals), got {array.shape}"
        )
    _check_forced(rules, array.astype(float), "the P/D")
    return DealerStrategy(name, array)


def _is_exact(values: Any) -> bool:
    try:
        flat = np.array(values, dtype=object).ravel()
    except ValueError:  # ragged
        return False
    return all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in flat)


def house_way_player(rules: C21BaccaratRules) -> PlayerStrategy:
    """The player's House Way: draw on every total up to ``house_way_draw_max``.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set.

    Returns
    -------
    PlayerStrategy
        Named "House Way", exact (0s and 1s), whatever the up card.
    """
    draw = [[int(t <= rules.house_way_draw_max) for t in range(10)] for _ in range(10)]
    return player_strategy(rules, "House Way", draw)


def house_way_dealer(rules: C21BaccaratRules) -> DealerStrategy:
    """The P/D's House Way: draw on every total up to ``house_way_draw_max``.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set.

    Returns
    -------
    DealerStrategy
        Named "House Way", exact (0s and 1s), whatever the up card or the player did.
    """
    draw = [
        [[int(t <= rules.house_way_draw_max) for t in range(9)] for _ in range(2)]
        for _ in range(10)
    ]
    return dealer_strategy(rules, "House Way", draw)


def player_tensor(strategy: PlayerStrategy) -> np.ndarray:
    """sigma[up, hand, action] with joker and Natural hands standing.

    Parameters
    ----------
    strategy : PlayerStrategy
        The player's strategy.

    Returns
    -------
    numpy.ndarray
        ``(10, PLAYER_HANDS, 2)``, the strategy's dtype: action 0 stands, 1 draws.
    """
    sigma = np.zeros((10, PLAYER_HANDS, 2), dtype=strategy.draw.dtype)
    sigma[:, :10, 1] = strategy.draw
    sigma[:, :10, 0] = 1 - strategy.draw
    sigma[:, JOKER_NINE:, 0] = 1
    return sigma


def dealer_tensor(strategy: DealerStrategy) -> np.ndarray:
    """sigma[up, player action, pd total, pd action].

    Parameters
    ----------
    strategy : DealerStrategy
        The P/D's strategy.

    Returns
    -------
    numpy.ndarray
        ``(10, 2, 9, 2)``, the strategy's dtype: action 0 stands, 1 draws.
    """
    sigma = np.zeros((10, 2, 9, 2), dtype=strategy.draw.dtype)
    sigma[..., 1] = strategy.draw
    sigma[..., 0] = 1 - strategy.draw
    return sigma
