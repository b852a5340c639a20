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
from typing import Any

import pandas as pd

from gamecore.c21_baccarat.rules import OUTCOMES, PAYOFF


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
    """

    player: str
    dealer: str
    outcome_probabilities: dict[str, Any]  # (reason, outcome) -> probability
    player_ev: Any

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
