"""Rule sets of punto banco (High Limit Baccarat, seed 001) and EZ Baccarat with the Dragon 7
(seed 002), each with the paytables of its bets, as data.

A bet is a paytable over events of a round's final state (``banker_wins``, ``dragon7``, ...,
defined in :mod:`gamecore.baccarat.events`); the first matching line settles it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gamecore.errors import GamecoreError
from gamecore.rules import RuleSet, commission, deck_count, payout, rule
from gamecore.rulewords import as_fraction
from gamecore.wagers import PaytableLine, Wager


def _line(outcome: str, event: str, pays: Any) -> PaytableLine:
    return PaytableLine(outcome, event, as_fraction(pays))


@dataclasses.dataclass(frozen=True)
class PuntoBancoRules(RuleSet):
    """High Limit Baccarat (seed 001): standard punto banco, a fresh shoe every round."""

    game = "punto_banco"
    title = "High Limit Baccarat"
    outcomes = ("banker", "player", "tie")

    decks: int = rule(8, "Standard 52-card decks in the shoe", deck_count)
    banker_commission: float = rule(
        0.05, "Commission on a winning Banker bet, as a fraction of the win", commission
    )
    tie_pays: float = rule(
        8,
        "Tie pays this many to 1 (the card's '8x the bet' read as 8 to 1; 7 to 1 is the "
        "text's own convention, shown beside it)",
        payout,
    )

    def wagers(self) -> tuple[Wager, ...]:
        """The bets on the layout, each as a paytable (first matching line settles).

        Returns
        -------
        tuple of Wager
            Banker, Player, Tie, in the layout's order.
        """
        return (
            Wager(
                "banker",
                f"Banker ({float(self.banker_commission) * 100:g}% commission)",
                (
                    _line("Banker wins", "banker_wins", 1 - as_fraction(self.banker_commission)),
                    _line("Tie (push)", "tie", 0),
                    _line("Player wins", "player_wins", -1),
                ),
                ties_excluded="tie",
            ),
            _player_wager(),
            _tie_wager(self.tie_pays),
        )


@dataclasses.dataclass(frozen=True)
class EZBaccaratRules(RuleSet):
    """EZ Baccarat (seed 002): no commission; a Dragon 7 bars Banker bets (push)."""

    game = "ez_baccarat"
    title = "EZ Baccarat with Dragon 7"
    outcomes = ("banker", "player", "tie", "dragon7", "panda8")

    decks: int = rule(8, "Standard 52-card decks in the shoe", deck_count)
    tie_pays: float = rule(8, "Tie pays this many to 1", payout)
    dragon7_pays: float = rule(40, "Dragon 7 side bet pays this many to 1", payout)
    panda8_pays: float = rule(
        25, "Panda 8 side bet pays this many to 1 (optional bet, beyond the seed)", payout
    )

    def wagers(self) -> tuple[Wager, ...]:
        """The bets on the layout, each as a paytable (first matching line settles).

        Returns
        -------
        tuple of Wager
            Banker, Player, Tie, Dragon 7 and Panda 8, in the layout's order.
        """
        return (
            Wager(
                "banker",
                "EZ Banker (no commission, barred on a Dragon 7)",
                (
                    _line("Dragon 7: Banker bets barred (push)", "dragon7", 0),
                    _line("Banker wins, other than a Dragon 7", "banker_wins", 1),
                    _line("Tie (push)", "tie", 0),
                    _line("Player wins", "player_wins", -1),
                ),
                ties_excluded="tie",
            ),
            _player_wager(),
            _tie_wager(self.tie_pays),
            Wager(
                "dragon7",
                "Dragon 7",
                (
                    _line("Dragon 7", "dragon7", self.dragon7_pays),
                    _line("Any other result", "any", -1),
                ),
            ),
            Wager(
                "panda8",
                "Panda 8 (optional)",
                (
                    _line("Panda 8", "panda8", self.panda8_pays),
                    _line("Any other result", "any", -1),
                ),
            ),
        )


def _player_wager() -> Wager:
    return Wager(
        "player",
        "Player",
        (
            _line("Player wins", "player_wins", 1),
            _line("Tie (push)", "tie", 0),
            _line("Banker wins", "banker_wins", -1),
        ),
        ties_excluded="tie",
    )


def _tie_wager(tie_pays: float) -> Wager:
    return Wager(
        "tie",
        f"Tie ({float(tie_pays):g} to 1)",
        (_line("Tie", "tie", tie_pays), _line("Banker or Player wins", "any", -1)),
    )


def check_rules(rules: object) -> PuntoBancoRules | EZBaccaratRules:
    """``rules`` if it is a baccarat rule set (the API's check of its argument).

    Parameters
    ----------
    rules : object
        What the caller passed as a rule set.

    Returns
    -------
    PuntoBancoRules or EZBaccaratRules
        ``rules`` itself (another type: a :class:`GamecoreError` naming it).
    """
    if not isinstance(rules, (PuntoBancoRules, EZBaccaratRules)):
        raise GamecoreError(
            f"rules must be a PuntoBancoRules or EZBaccaratRules, got {type(rules).__name__}"
        )
    return rules


def check_ez_rules(rules: object) -> EZBaccaratRules:
    """``rules`` if it is an EZ Baccarat rule set (the side bets' counting study takes no
    other: Dragon 7 and Panda 8 are EZ Baccarat's bets).

    Parameters
    ----------
    rules : object
        What the caller passed as a rule set.

    Returns
    -------
    EZBaccaratRules
        ``rules`` itself (another type: a :class:`GamecoreError` naming it).
    """
    if not isinstance(rules, EZBaccaratRules):
        raise GamecoreError(f"rules must be EZBaccaratRules, got {type(rules).__name__}")
    return rules
