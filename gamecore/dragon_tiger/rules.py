"""The Dragon Tiger rule set and the paytables of its four bets, as data.

A round deals one card to the Dragon and one to the Tiger; the higher rank wins (Ace low,
King high; suits do not rank). A bet is a paytable over events of the round's breakdown
(``dragon_wins``, ``suited_tie``, ..., defined in :mod:`gamecore.dragon_tiger.exact`); the
first matching line settles it, so a new bet on the two cards is a paytable, not new code.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from gamecore.errors import GamecoreError
from gamecore.rules import RuleSet, deck_count, payout, rule
from gamecore.rulewords import as_fraction
from gamecore.wagers import PaytableLine, Wager

#: What a Dragon or Tiger bet loses on a tie: half the stake.
TIE_LOSS = Fraction(1, 2)


def line(outcome: str, event: str, pays: Any) -> PaytableLine:
    """One paytable line: ``outcome`` printed, settled on ``event``, paying ``pays`` to 1.

    Parameters
    ----------
    outcome : str
        The Outcome column's label.
    event : str
        The event of :data:`gamecore.dragon_tiger.exact.EVENTS` that selects the line.
    pays : int, float or Fraction
        Net units won per unit wagered (a decimal read as typed: 0.5 is 1/2).

    Returns
    -------
    PaytableLine
    """
    return PaytableLine(outcome, event, as_fraction(pays))


@dataclasses.dataclass(frozen=True)
class DragonTigerRules(RuleSet):
    """Dragon Tiger: one card each to the Dragon and the Tiger, off a full shoe every round."""

    game = "dragon_tiger"
    title = "Dragon Tiger"
    #: The round's outcomes: a tie of the same rank and suit, or of the same rank only.
    outcomes = ("dragon", "tiger", "suited_tie", "unsuited_tie")

    decks: int = rule(8, "Standard 52-card decks in the shoe", deck_count)
    tie_pays: float = rule(8, "Tie (the two cards of equal rank) pays this many to 1", payout)
    suited_tie_pays: float = rule(
        50, "Suited Tie (equal rank and suit) pays this many to 1", payout
    )

    def wagers(self) -> tuple[Wager, ...]:
        """The bets on the layout, each as a paytable (the first matching line settles).

        Returns
        -------
        tuple of Wager
            Dragon, Tiger (1 to 1, half lost on a tie), Tie and Suited Tie.
        """
        return (
            _side_wager("dragon", "Dragon", "dragon_wins", "tiger_wins"),
            _side_wager("tiger", "Tiger", "tiger_wins", "dragon_wins"),
            Wager(
                "tie",
                f"Tie ({float(self.tie_pays):g} to 1)",
                (line("Tie", "tie", self.tie_pays), line("Dragon or Tiger wins", "any", -1)),
            ),
            Wager(
                "suited_tie",
                f"Suited Tie ({float(self.suited_tie_pays):g} to 1)",
                (
                    line("Suited tie (same rank and suit)", "suited_tie", self.suited_tie_pays),
                    line("Any other result", "any", -1),
                ),
            ),
        )


def _side_wager(name: str, title: str, wins: str, loses: str) -> Wager:
    return Wager(
        name,
        f"{title} (1 to 1, half lost on a tie)",
        (
            line(f"{title} wins", wins, 1),
            line("Tie (half lost)", "tie", -TIE_LOSS),
            line(f"{'Tiger' if name == 'dragon' else 'Dragon'} wins", loses, -1),
        ),
    )


def check_rules(rules: object) -> DragonTigerRules:
    """``rules`` if it is a :class:`DragonTigerRules`, else ``GamecoreError``.

    Parameters
    ----------
    rules : object
        What a caller passed as the rule set.

    Returns
    -------
    DragonTigerRules
    """
    if not isinstance(rules, DragonTigerRules):
        raise GamecoreError(f"rules must be a DragonTigerRules, got {type(rules).__name__}")
    return rules
