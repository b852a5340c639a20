"""21st Century Baccarat (seed 000): the rule set, the shoe, and the vocabulary of a deal
(card classes, the player's two-card hands, the outcomes and their payoffs)."""

from __future__ import annotations

import dataclasses

import numpy as np

from gamecore import rulewords
from gamecore.cards import standard, validate_decks
from gamecore.errors import GamecoreError
from gamecore.rules import RuleSet, amount, boolean, deck_count, integer_from, rule
from gamecore.shoe import BACCARAT_CLASS_NAMES, validate_composition

#: Card classes: point values 0..9 (10, J, Q, K count 0) and the joker.
JOKER = 10
CLASSES = 11

#: How messages name the classes: the baccarat point values by rank, then the jokers.
CLASS_NAMES = (*BACCARAT_CLASS_NAMES, "jokers")

#: Player two-card hands: totals 0..9 without a joker, then a hand holding one joker (a 9),
#: then two jokers (a Natural).
JOKER_NINE, NATURAL = 10, 11
PLAYER_HANDS = 12
HAND_LABELS = [str(t) for t in range(10)] + ["joker (9)", "Natural"]

#: Outcomes, from the player's side, and the player's net result in each.
OUTCOMES = (
    "player Natural wins",
    "Naturals push",
    "P/D Natural wins",
    "player higher total wins",
    "equal totals push",
    "tie on zero: P/D wins",
    "P/D higher total wins",
)
PAYOFF = np.array([1, 0, -1, 1, 0, -1, -1], dtype=np.int64)

#: The check of a number of jokers per deck (the rule card's decks hold one; up to 4 studied).
JOKERS_PER_DECK = integer_from(0, 4)


@dataclasses.dataclass(frozen=True)
class C21BaccaratRules(RuleSet):
    """21st Century Baccarat (seed 000), read as in RULES.md."""

    game = "c21_baccarat"
    title = "21st Century Baccarat"

    decks: int = rule(8, "Standard 52-card decks in the shoe", deck_count)
    jokers_per_deck: int = rule(
        1,
        "Jokers per deck: wild, a hand holding one counts 9; two jokers are a Natural",
        JOKERS_PER_DECK,
        lambda n: "no jokers" if n == 0 else f"{n} joker{'' if n == 1 else 's'} a deck",
    )
    must_draw_max: int = rule(
        4,
        "Everyone, the player/dealer (P/D) included, must draw on this total or less",
        integer_from(0, 8),
        lambda total: f"everyone, the player/dealer (P/D) included, draws on {total} or less",
    )
    must_stand_min: int = rule(
        7,
        "Everyone must stand on this total or more; totals between are options",
        integer_from(1, 9),
        lambda total: f"everyone stands on {total} or more",
    )
    house_way_draw_max: int = rule(
        5,
        "House Way (forced on spots a player does not play himself): draw on this total "
        "or less, stand above",
        integer_from(0, 8),
        lambda total: f"draw on {total} or less, stand on {total + 1} or more",
    )
    pd_wins_ties_on_zero: bool = rule(
        True,
        "The P/D wins all ties on zero",
        boolean,
        {True: "the P/D wins all ties on zero", False: "ties on zero push, as other ties"},
    )
    collection: float = rule(
        1.0,
        "Collection per betting spot per hand, paid by everyone, P/D included",
        amount,
        lambda units: f"{rulewords.units(units)} per betting spot per hand",
    )
    table_minimum: float = rule(10, "Table minimum wager (for the collection table)", amount)
    table_maximum: float = rule(100, "Table maximum wager (for the collection table)", amount)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.must_draw_max >= self.must_stand_min:
            raise GamecoreError(
                f"must_draw_max ({self.must_draw_max}) must be below must_stand_min "
                f"({self.must_stand_min})"
            )
        if not self.must_draw_max <= self.house_way_draw_max < self.must_stand_min:
            raise GamecoreError(
                f"house_way_draw_max must be from must_draw_max to must_stand_min - 1, got "
                f"{self.house_way_draw_max}"
            )
        if self.table_minimum <= 0 or self.table_minimum > self.table_maximum:
            raise GamecoreError(
                f"table_minimum must be above 0 and at most table_maximum, got "
                f"{self.table_minimum} and {self.table_maximum}"
            )

    @property
    def option_totals(self) -> tuple[int, ...]:
        """Totals on which drawing is a choice (5 and 6 on the card)."""
        return tuple(range(self.must_draw_max + 1, self.must_stand_min))


def c21_shoe(decks: int, jokers_per_deck: int) -> np.ndarray:
    """Cards per class (point values 0..9, then jokers) in the shoe, both counts checked as
    the rule set checks them: the card model's baccarat view with its jokers
    (:meth:`gamecore.cards.Shoe.baccarat_classes`).

    Parameters
    ----------
    decks : int
        Decks, an integer 1..1000.
    jokers_per_deck : int
        Jokers a deck, 0..4.

    Returns
    -------
    numpy.ndarray
        11 counts, int64.

    Examples
    --------
    >>> c21_shoe(8, 1).tolist()
    [128, 32, 32, 32, 32, 32, 32, 32, 32, 32, 8]
    """
    decks = validate_decks(decks)
    jokers_per_deck = JOKERS_PER_DECK("jokers_per_deck", jokers_per_deck)
    return standard(decks, jokers_per_deck).baccarat_classes(jokers=True)


def check_rules(rules: object) -> C21BaccaratRules:
    """``rules`` if it is a 21st Century Baccarat rule set (the API's check of its argument).

    Parameters
    ----------
    rules : object
        What the caller passed as a rule set.

    Returns
    -------
    C21BaccaratRules
        ``rules`` itself (another type: a :class:`GamecoreError` naming it).
    """
    if not isinstance(rules, C21BaccaratRules):
        raise GamecoreError(f"rules must be C21BaccaratRules, got {type(rules).__name__}")
    return rules


def check_composition(composition: object) -> np.ndarray:
    """A shoe given by hand: cards per class, the point values 0..9 then the jokers
    (:func:`gamecore.shoe.validate_composition`), at least the six a round can use, jokers
    included. Point classes only: it cannot be turned into ranks and suits, so it stays as
    given (a full shoe is :func:`c21_shoe`, from the card model).

    Parameters
    ----------
    composition : object
        11 counts: the point values 0..9, then the jokers.

    Returns
    -------
    numpy.ndarray
        The composition, int64 (else a :class:`GamecoreError` naming what is wrong).
    """
    return validate_composition(composition, labels=CLASS_NAMES, counted="cards, jokers included")
