"""A side bet's definition: the YAML file a user writes, read strictly and checked once.

(To be completed: the reader and its checks; see docs/side-bets.md for the format.)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

#: Games a side bet can be placed on.
GAMES = ("baccarat", "blackjack")
#: The cards each game deals that a condition can name, in dealing order.
CARDS = {
    "baccarat": ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3"),
    "blackjack": ("player_1", "player_2", "dealer_up", "dealer_hole"),
}
#: The hands of each game a condition can name.
HANDS = {"baccarat": ("player", "banker"), "blackjack": ("player", "dealer")}
#: The default deck count of each game's side bets.
DEFAULT_DECKS = {"baccarat": 8, "blackjack": 6}
#: Three-card poker classes, best first.
POKER_CLASSES = (
    "suited_three_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
    "pair",
    "high_card",
)
#: The name of the par sheet's last line: every deal no outcome takes.
LOSES = "Loses"


@dataclass(frozen=True)
class Condition:
    """One condition of an outcome, in its normal form.

    Attributes
    ----------
    kind : str
        The condition's name in the file: ``same_rank``, ``same_suit``, ``same_colour``,
        ``same_card``, ``rank``, ``suit``, ``colour``, ``total``, ``natural``, ``winner``,
        ``margin``, ``cards_dealt``, ``hand_cards``, ``poker_hand``.
    cards : tuple of str
        The cards it looks at (names of :data:`CARDS`): every card of a ``same_*`` or
        ``poker_hand``; the one card of a ``rank``/``suit``/``colour`` (a mapping of two
        cards in the file becomes two conditions).
    hands : tuple of str
        The one hand of a ``total`` or ``hand_cards`` (one condition per hand named).
    values : tuple
        The values it accepts: rank names (``"A"``, ``"2"``..``"10"``, ``"J"``, ``"Q"``,
        ``"K"``), suit or colour names, totals, margins or card counts (ints), winners
        (``"player"``, ``"banker"``, ``"tie"``), poker classes; for ``natural`` the hands
        that must be naturals, or ``("none",)`` or ``("any",)``. Empty for ``same_*``.
    line : int or None
        The line of the file it was written on (1-based), for messages.
    """

    kind: str
    cards: tuple[str, ...] = ()
    hands: tuple[str, ...] = ()
    values: tuple = ()
    line: int | None = None


@dataclass(frozen=True)
class Outcome:
    """One paying outcome: its name, payout and conditions (all must hold).

    Attributes
    ----------
    name : str
        The printed name.
    pays : fractions.Fraction
        The payout to 1, exact (``3 to 2`` is 3/2, ``0.54 to 1`` is 27/50, a push 0).
    pays_text : str
        The payout as the file wrote it, normalised (``"11 to 1"``, ``"push"``).
    conditions : tuple of Condition
        Every condition; the outcome holds when all hold.
    line : int or None
        The line of the file the outcome starts on.
    """

    name: str
    pays: Fraction
    pays_text: str
    conditions: tuple[Condition, ...]
    line: int | None = None


@dataclass(frozen=True)
class SideBet:
    """A side bet's definition, checked.

    Attributes
    ----------
    bet : str
        The code name.
    title : str
        The printed title.
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    decks : int
        The default deck count.
    description, source : str
        Optional text ("" when absent).
    outcomes : tuple of Outcome
        The paying outcomes in order (the first that holds is paid).
    origin : str
        Where it was read from: ``"built-in"`` or the file's path.
    sha256 : str
        The SHA-256 of the file's bytes (hex).
    """

    bet: str
    title: str
    game: str
    decks: int
    description: str
    source: str
    outcomes: tuple[Outcome, ...]
    origin: str
    sha256: str
