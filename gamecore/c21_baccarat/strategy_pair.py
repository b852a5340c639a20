"""The exact result of one strategy pair of 21st Century Baccarat, heads-up, and the
figures a report reads from it.

Central idea
------------
A pair of strategies turns the exact engine's strategy-free counts into one probability for
each way a deal can end, a (how it ended, outcome) pair
(:meth:`gamecore.c21_baccarat.exact.C21Analysis.evaluate`); every figure here (the EV, the
SD, the wins and pushes, the distribution of the result) is a sum over them by the outcomes'
payoffs, exact fractions for pure strategies.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import pandas as pd

from gamecore.c21_baccarat.rules import OUTCOMES, PAYOFF
from gamecore.errors import GamecoreError
from gamecore.wagers import PaytableLine, Wager, WagerAnalysis


@dataclasses.dataclass(frozen=True)
class StrategyPairResult:
    """Exact result of one player strategy against one P/D strategy, heads-up.

    Attributes
    ----------
    player, dealer
        The strategies' names.
    outcome_probabilities
        {(how the deal ended, outcome): probability}: the reasons "joker up card", "P/D
        two-card 9 or Natural" and "drawing round" by each of :data:`OUTCOMES`; Fractions
        for pure strategies, floats for mixed ones.
    player_ev
        The player's EV per unit wagered (a Fraction or a float, as the probabilities).
    total
        Every deal's ways (``N P 6``) for pure strategies, whose probabilities are counts of
        ordered card sequences over it; ``None`` for mixed ones.
    """

    player: str
    dealer: str
    outcome_probabilities: dict[str, Any]  # (reason, outcome) -> probability
    player_ev: Any
    total: int | None = None

    @property
    def sd(self) -> float:
        """The SD of the player's result per unit wagered, one round (a float)."""
        second = sum(
            p for (_, o), p in self.outcome_probabilities.items() if PAYOFF[OUTCOMES.index(o)] != 0
        )
        return math.sqrt(float(second) - float(self.player_ev) ** 2)

    def result_distribution(self) -> dict[int, Any]:
        """The distribution of the player's net result per unit wagered.

        Returns
        -------
        dict
            {net result (1, 0 or -1): probability}: a Fraction for pure strategies, a float
            for mixed ones.
        """
        out: dict[int, Any] = {}
        for (_, outcome), p in self.outcome_probabilities.items():
            net = int(PAYOFF[OUTCOMES.index(outcome)])
            out[net] = out.get(net, 0) + p
        return out

    def outcome_table(self) -> pd.DataFrame:
        """Every way a deal ends with a nonzero probability, as a table.

        Returns
        -------
        pandas.DataFrame
            How the deal ended (joker up card, P/D two-card 9 or Natural, drawing round) |
            Outcome (:data:`OUTCOMES`) | Player's result (per unit) | Probability (float).
        """
        rows = [
            {
                "How the deal ended": reason,
                "Outcome": outcome,
                "Player's result": int(PAYOFF[OUTCOMES.index(outcome)]),
                "Probability": float(p),
            }
            for (reason, outcome), p in self.outcome_probabilities.items()
            if p != 0
        ]
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, float]:
        """The headline figures, as floats.

        Returns
        -------
        dict
            Player wins, Push, P/D wins (probabilities), Player EV (per unit wagered) and SD
            (of the player's result per unit, one round).
        """
        by_result = {1: 0.0, 0: 0.0, -1: 0.0}
        for (_, outcome), p in self.outcome_probabilities.items():
            by_result[int(PAYOFF[OUTCOMES.index(outcome)])] += float(p)
        return {
            "Player wins": by_result[1],
            "Push": by_result[0],
            "P/D wins": by_result[-1],
            "Player EV": float(self.player_ev),
            "SD": self.sd,
        }

    def wager(self, title: str) -> WagerAnalysis:
        """The player's wager against the P/D as a paytable settled exactly: a line per
        outcome (:data:`OUTCOMES`; a win pays 1 to 1, equal totals push), each with its
        combinations (ordered card sequences, completed to six cards, over ``N P 6``) for
        pure strategies; a :class:`gamecore.wagers.WagerAnalysis`, whose ``table()`` is the
        par sheet's Outcome | Pays | Combinations | Probability | Return with its Total row.

        Parameters
        ----------
        title : str
            The wager's printed title (the strategies it assumes).

        Returns
        -------
        gamecore.wagers.WagerAnalysis
            Exact combinations and probabilities for pure strategies; for mixed ones no
            combinations, and each probability the float the linear programs give (held as
            the Fraction equal to it).
        """
        lines = tuple(
            PaytableLine(outcome, outcome, Fraction(int(PAYOFF[i])))
            for i, outcome in enumerate(OUTCOMES)
        )
        by_outcome: dict[str, Any] = dict.fromkeys(OUTCOMES, 0)
        for (_, outcome), p in self.outcome_probabilities.items():
            by_outcome[outcome] += p
        probabilities = tuple(Fraction(by_outcome[o]) for o in OUTCOMES)
        combinations = None
        if self.total is not None:
            ways = [p * self.total for p in probabilities]
            if any(w.denominator != 1 for w in ways):
                raise GamecoreError("a pure strategy pair's outcome is not a count of sequences")
            combinations = tuple(int(w) for w in ways)
        return WagerAnalysis(Wager("player", title, lines), combinations, probabilities, self.total)
