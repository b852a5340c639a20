"""The tables an engine derives from its shoe once and reuses, each in a typed cache.

Central idea
------------
A round's openings against each up card, a split hand's second cards, the split contexts'
starting hands (the chart search's seeds) and optimal play against every up card depend on
the engine's shoe and rules only. :class:`EngineCaches` holds one typed dictionary per table
and computes an entry the first time it is asked for; nothing else writes into them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import numpy as np

from gamecore.blackjack.round import (
    Opening,
    SecondCards,
    SplitSeeds,
    openings,
    second_cards,
    split_seeds,
)


class Optimal(NamedTuple):
    """Optimal play against every up card: the unsplit hands' solve, the split values and
    each split context's actions (``(M, 10)`` int8, by context key)."""

    solved: Any  # backward.Solved
    split: np.ndarray
    actions: dict[tuple[int, int], np.ndarray]


class CachedEngine(Protocol):
    """What the caches read of an engine (:class:`~gamecore.blackjack.engine.Engine`)."""

    shoe: np.ndarray
    split_extras: dict[int, int]

    def max_hands(self, rank: int) -> int: ...

    def solve_optimal(
        self, only_up: int = -1, each_solve: Callable[[tuple[int, int], Any], None] | None = None
    ) -> tuple[Any, np.ndarray]: ...


def compact_actions(action: np.ndarray) -> np.ndarray:
    """A solve's actions in the form the consumers that keep them hold and pass on.

    Parameters
    ----------
    action : numpy.ndarray
        A solve's actions (FORBIDDEN, -1 or S H D R), any integer type.

    Returns
    -------
    numpy.ndarray
        The same actions as int8: the split contexts' arrays an analysis keeps at 6 decks
        are 11 MB as int64, 1.4 MB as int8.
    """
    return action.astype(np.int8)


class EngineCaches:
    """The tables one engine derives from its shoe, each computed on its first use.

    Parameters
    ----------
    engine : Engine
        The engine whose shoe and rules the tables are made of.
    """

    def __init__(self, engine: CachedEngine):
        self._engine = engine
        self._openings: dict[int, tuple[Opening, ...]] = {}
        self._second_cards: dict[tuple[int, int, int], SecondCards | None] = {}
        self._split_seeds: dict[tuple[int, int], SplitSeeds] = {}
        self._optimal: Optimal | None = None

    def openings(self, up: int) -> tuple[Opening, ...]:
        """Every two-card hand against ``up`` (:func:`~gamecore.blackjack.round.openings`).

        Parameters
        ----------
        up : int
            The up card's rank index.

        Returns
        -------
        tuple of Opening
            The openings, listed once per engine.
        """
        if up not in self._openings:
            self._openings[up] = openings(self._engine, up)
        return self._openings[up]

    def second_cards(self, pair: int, extra: int, up: int) -> SecondCards | None:
        """A split hand's second cards (:func:`~gamecore.blackjack.round.second_cards`).

        Parameters
        ----------
        pair : int
            The pair's rank index.
        extra : int
            Further pair cards out of the shoe.
        up : int
            The up card's rank index.

        Returns
        -------
        SecondCards or None
            The second cards, made once per engine; None when the context cannot deal them.
        """
        key = (pair, extra, up)
        if key not in self._second_cards:
            self._second_cards[key] = second_cards(self._engine, pair, extra, up)
        return self._second_cards[key]

    def split_seeds(self, pair: int, a: int) -> SplitSeeds:
        """Where split context ``(pair, a)``'s hands begin against each up card.

        Parameters
        ----------
        pair : int
            The pair's rank index.
        a : int
            Further pair cards out of the shoe in this context.

        Returns
        -------
        SplitSeeds
            The seeds (:func:`~gamecore.blackjack.round.split_seeds`), made once per engine.
        """
        key = (pair, a)
        if key not in self._split_seeds:
            engine = self._engine
            seconds = [self.second_cards(pair, a, up) for up in range(10)]
            split = (engine.max_hands(pair), engine.split_extras[pair])
            self._split_seeds[key] = split_seeds(engine.shoe, pair, a, split, seconds)
        return self._split_seeds[key]

    def optimal(self) -> Optimal:
        """Optimal play against every up card, solved once per engine.

        The analysis and its result distribution (which plays split hands out, so reads each
        split context's actions) share this one solve.

        Returns
        -------
        Optimal
            The unsplit hands' solve, the split values and each split context's actions.
        """
        if self._optimal is None:
            actions: dict[tuple[int, int], np.ndarray] = {}

            def keep_actions(key: tuple[int, int], context: Any) -> None:
                actions[key] = compact_actions(context.action)

            solved, split = self._engine.solve_optimal(each_solve=keep_actions)
            self._optimal = Optimal(solved, split, actions)
        return self._optimal
