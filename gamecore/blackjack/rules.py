"""Blackjack rule sets, the standard game and New 21st Century Blackjack (seed 004, read as in
RULES.md section c21_blackjack), and the vocabulary of a round: ranks, dealer outcomes, actions
and the kinds each rule takes.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from gamecore.cards import standard
from gamecore.errors import GamecoreError
from gamecore.rules import (
    RuleSet,
    boolean,
    choice,
    deck_count,
    integer_from,
    optional,
    payout,
    rule,
)

# ---------------------------------------------------------------------------------------
# Cards and outcomes
# ---------------------------------------------------------------------------------------

#: Rank labels by index: 0 is the Ace, 9 every ten-valued card.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
#: Up cards in the order charts print them.
UP_CARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
#: Cards of each rank in one 52-card deck, (4, 4, 4, 4, 4, 4, 4, 4, 4, 16): the card
#: model's blackjack view (:meth:`gamecore.cards.Shoe.blackjack_classes`).
DECK = tuple(int(n) for n in standard(1).blackjack_classes())
ACE, TEN = 0, 9
#: Each rank's points with an ace counted as 1.
_POINTS = tuple(range(1, 11))

#: The dealer's final results, indexed as in every distribution this module returns.
DEALER_OUTCOMES = (
    "17",
    "18",
    "19",
    "20",
    "21",
    "bust 22",
    "bust 23",
    "bust 24",
    "bust 25",
    "bust 26",
    "natural",
)
NATURAL = 10
N_OUTCOMES = 11

ACTIONS = ("S", "H", "D", "R", "P")
STAND, HIT, DOUBLE, SURRENDER, SPLIT = range(5)

#: Action values this close are a tie, and of tied actions the first in :data:`ACTIONS`
#: order is played. Ties are exact in exact arithmetic (a 10,2 against an 8 that hits or
#: doubles to the same value) and land about 1e-17 apart either way in the float
#: recursions, so without a fixed rule float noise chooses. Which of two equal actions is
#: played changes no EV where it is chosen, but it does where that choice is followed in
#: another shoe (split hands under CDZ- and CDP1 play the choice of a reference shoe:
#: broken by float noise, one 21-card shoe's CDP1 EV moved by 1.1e-3), and it changes the
#: spread of the results. Eric Farmer's CA and the slow reference in ``tests/`` agree
#: with this rule on every shoe tried.
TIE = 1e-12


def best_action(values: dict[str, float]) -> str:
    """The action of the highest value in ``values`` (NaN: not allowed), the first of
    S H D R P among those within :data:`TIE` of it.

    Parameters
    ----------
    values : dict of str to float
        Action letter (of :data:`ACTIONS`) -> its EV; NaN where it is not allowed.

    Returns
    -------
    str
        The action's letter.

    Examples
    --------
    >>> best_action({"S": -0.2, "H": -0.2 + 1e-13, "D": float("nan")})
    'S'
    """
    top = max(v for v in values.values() if v == v)  # NaN == NaN is false
    return next(a for a in ACTIONS if values.get(a, -np.inf) >= top - TIE)  # NaN: false


SURRENDER_KINDS = ("none", "late", "early", "any_cards")
#: ``RuleCodes.surrender``: the index of the rule's value in :data:`SURRENDER_KINDS`.
SURRENDER_NONE, SURRENDER_LATE, SURRENDER_EARLY, SURRENDER_ANY_CARDS = range(4)
DOUBLE_KINDS = ("any", "9_11", "10_11")
#: ``RuleCodes.double_on``: the index of the rule's value in :data:`DOUBLE_KINDS`.
DOUBLE_ANY, DOUBLE_9_11, DOUBLE_10_11 = range(3)
BUST_PUSH_KINDS = ("none", "three_card_23_25")
SPLIT_STRATEGIES = ("cdz", "cdp1", "cdp")
#: ``RuleCodes.split_strategy``: the index of the value in :data:`SPLIT_STRATEGIES`.
SPLIT_CDZ, SPLIT_CDP1, SPLIT_CDP = range(3)
#: How each ``split_strategy`` plays split hands under optimal play, as reports print it.
SPLIT_STRATEGY_NAMES = {
    "cdz": "CDZ- (as the same cards unsplit)",
    "cdp1": "CDP1 (best for their cards with one more pair card out)",
    "cdp": "CDP (best for their cards and the number of pair cards out)",
}
FORCED_KINDS = ("none", "c21")

# Each rule's options in words, as a rule set's table states its value (gamecore.rules.choice).
SURRENDER_WORDS = dict(
    zip(
        SURRENDER_KINDS,
        (
            "no surrender",
            "late: on the first two cards, after the dealer checks for a Natural",
            "early: on the first two cards, before the dealer checks for a Natural",
            "at any number of cards against 2 to 9; against an Ace or a 10 only on the first "
            "two cards, before the check (early)",
        ),
        strict=True,
    )
)
DOUBLE_WORDS = dict(
    zip(
        DOUBLE_KINDS,
        ("any first two cards", "a hard 9, 10 or 11 only", "a hard 10 or 11 only"),
        strict=True,
    )
)
BUST_PUSH_WORDS = {
    "none": "none: a busted player hand loses",
    "three_card_23_25": "a three-card 23, 24 or 25 pushes when closer to 21.5 than the "
    "dealer's bust, else loses",
}
FORCED_WORDS = {
    "none": "none: the player chooses on every total",
    "c21": "hit 11 or less and soft 17 or less; stand on 20, 21 and a Natural; the player "
    "chooses on hard 12 to 19 and soft 18 to 19",
}


def hands_words(hands: int) -> str:
    """``max_split_hands`` in words.

    Parameters
    ----------
    hands : int
        The most hands a pair may be split to.

    Returns
    -------
    str
        ``"4 hands"``; 1: ``"no splitting"``.
    """
    return "no splitting" if hands == 1 else f"{hands} hands"


def shoe_composition(decks: int) -> np.ndarray:
    """Cards per rank (A, 2..9, ten-valued) in ``decks`` decks: the card model's blackjack
    view (:meth:`gamecore.cards.Shoe.blackjack_classes`), a new array each call.

    Parameters
    ----------
    decks : int
        Decks, an integer 1..1000.

    Returns
    -------
    numpy.ndarray
        Cards of each rank, int64.

    Examples
    --------
    >>> shoe_composition(6).tolist()
    [24, 24, 24, 24, 24, 24, 24, 24, 24, 96]
    """
    return standard(decks).blackjack_classes()


# ---------------------------------------------------------------------------------------
# Rule sets
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StandardBlackjackRules(RuleSet):
    """Blackjack with every rule a switch; the defaults are the classic six-deck game."""

    game = "standard_blackjack"
    title = "Blackjack"

    decks: int = rule(6, "standard 52-card decks in the shoe", deck_count)
    dealer_hits_soft_17: bool = rule(
        False,
        "the dealer hits soft 17 (H17); false: S17",
        boolean,
        {True: "the dealer hits soft 17 (H17)", False: "the dealer stands on soft 17 (S17)"},
    )
    natural_pays: float = rule(1.5, "a player's Natural pays this many to 1 (1.5 = 3:2)", payout)
    bust_push: str = rule(
        "none",
        "busted player hands that may push a more-busted dealer: none, or three_card_23_25 "
        "(three-card 23, 24, 25 push a dealer bust farther from 21.5; equal distance loses)",
        choice(BUST_PUSH_WORDS),
    )
    double_on: str = rule("any", "first two cards a player may double on", choice(DOUBLE_WORDS))
    double_after_split: bool = rule(True, "doubling allowed after a split", boolean)
    max_split_hands: int = rule(
        4, "split and resplit to at most this many hands (1: none)", integer_from(1, 4), hands_words
    )
    resplit_aces: bool = rule(False, "split aces may be resplit (up to the split limit)", boolean)
    split_aces_one_card: bool = rule(True, "split aces receive one card each", boolean)
    surrender: str = rule(
        "none",
        "none; late (first two cards, after the peek); early (first two cards, before the "
        "peek); any_cards (c21: any number of cards against 2-9, early against A and 10)",
        choice(SURRENDER_WORDS),
    )
    peek: bool = rule(True, "the dealer checks for a Natural under an Ace or a 10 up", boolean)
    insurance_pays: float = rule(2, "insurance (against an Ace up) pays this many to 1", payout)
    player_forced: str = rule(
        "none",
        "forced player totals: none, or c21 (hit 11 or less and soft 17 or less; stand on "
        "20, 21 and a Natural; free on hard 12-19 and soft 18-19)",
        choice(FORCED_WORDS),
    )
    double_soft: bool = rule(True, "soft hands may double (false: hard hands only)", boolean)
    double_after_hit: bool = rule(
        False,
        "a hand may double after hitting, at any number of cards (the two-card rule holds)",
        boolean,
    )
    split_strategy: str = rule(
        "cdz",
        "how optimal play plays split hands (Eric Farmer's terms): cdz (CDZ-: as the same "
        "cards unsplit), cdp1 (best for the split hand's cards with one more pair card out of "
        "the shoe), cdp (best for the number of pair cards out)",
        choice(SPLIT_STRATEGY_NAMES),
    )

    def resolved(self) -> StandardBlackjackRules:
        """The rule set with every value fixed (already so for the standard game).

        Returns
        -------
        StandardBlackjackRules
            A rule set with no ``None`` (``auto``) value.
        """
        return self


@dataclasses.dataclass(frozen=True)
class C21BlackjackRules(StandardBlackjackRules):
    """New 21st Century Blackjack (seed 004), read as in RULES.md section c21_blackjack.

    ``natural_pays`` and ``max_split_hands`` default to ``None``: set by the deck count as
    the card says (6 to 5 and four hands; even money and two hands when ``decks`` is 2).
    """

    game = "c21_blackjack"
    title = "New 21st Century Blackjack"

    decks: int = rule(
        6, "standard 52-card decks (1, 2, 4, 6, 8 are dealt); 2 = double deck", deck_count
    )
    dealer_hits_soft_17: bool = rule(
        True,
        "the player/dealer (P/D) hits soft 17 or less, stands on hard 17+",
        boolean,
        {
            True: "the player/dealer (P/D) hits soft 17 or less, stands on hard 17 or more",
            False: "the player/dealer (P/D) stands on soft 17 (S17)",
        },
    )
    natural_pays: float | None = rule(
        None,
        "Natural pays this many to 1; auto: 6 to 5 (1.2), 1 to 1 (even money) in double deck",
        optional(payout, by="decks", noun="the deck count"),
    )
    bust_push: str = rule(
        "three_card_23_25",
        "both busted: a three-card 23, 24 or 25 (doubled hands and split hands counted from "
        "the split card included) pushes when closer to 21.5 than the P/D, else loses",
        choice(BUST_PUSH_WORDS),
        {
            "none": BUST_PUSH_WORDS["none"],
            "three_card_23_25": "a three-card 23, 24 or 25 pushes when closer to 21.5 than "
            "the P/D's bust, else loses",
        },
    )
    double_on: str = rule(
        "any", "double on any first two cards but a Natural", choice(DOUBLE_WORDS)
    )
    double_after_split: bool = rule(True, "double after split allowed", boolean)
    max_split_hands: int | None = rule(
        None,
        "split/resplit to this many hands; auto: 4, 2 in double deck",
        optional(integer_from(1, 4), by="decks", noun="the deck count"),
        hands_words,
    )
    resplit_aces: bool = rule(True, "split Bonus Aces resplit up to the split limit", boolean)
    split_aces_one_card: bool = rule(True, "split Bonus Aces take one card each", boolean)
    surrender: str = rule(
        "any_cards",
        "half the wager, not on doubled or split hands: any number of cards against 2-9; "
        "against A or 10 only the first two cards before the check (early)",
        choice(SURRENDER_WORDS),
    )
    peek: bool = rule(True, "the house dealer checks the P/D for a Natural under A or 10", boolean)
    insurance_pays: float = rule(2, "insurance against a Bonus Ace up pays 2 to 1", payout)
    player_forced: str = rule("c21", "the card's forced player totals", choice(FORCED_WORDS))

    def resolved(self) -> C21BlackjackRules:
        """The same game (its name kept) with the ``auto`` values fixed by the deck count."""
        double_deck = self.decks == 2
        fixed = {}
        if self.natural_pays is None:
            fixed["natural_pays"] = 1.0 if double_deck else 1.2
        if self.max_split_hands is None:
            fixed["max_split_hands"] = 2 if double_deck else 4
        return dataclasses.replace(self, **fixed)


def check_rules(rules: Any) -> StandardBlackjackRules:
    """``rules`` if it is a blackjack rule set (the API's check of its argument).

    Parameters
    ----------
    rules : Any
        What the caller passed as a rule set.

    Returns
    -------
    StandardBlackjackRules
        ``rules`` itself, either game's (another type: a :class:`GamecoreError` naming it).
    """
    if not isinstance(rules, StandardBlackjackRules):
        raise GamecoreError(
            "rules must be a StandardBlackjackRules or C21BlackjackRules, "
            f"got {type(rules).__name__}"
        )
    return rules


# ---------------------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------------------


def hand_total(counts: Sequence[int]) -> tuple[int, bool]:
    """(best total, soft) of a hand given by cards per rank; an ace counts 11 if it fits.

    Parameters
    ----------
    counts : sequence of int
        Cards of each rank, A first and the ten-valued cards last.

    Returns
    -------
    tuple of (int, bool)
        The best total and whether an ace counts 11 in it.

    Examples
    --------
    >>> hand_total([1, 0, 0, 0, 0, 1, 0, 0, 0, 0]), hand_total([2, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    ((17, True), (12, False))
    """
    hard = int(sum(map(operator.mul, _POINTS, counts)))
    if counts[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# ---------------------------------------------------------------------------------------
# The rules as every kernel reads them
# ---------------------------------------------------------------------------------------


class RuleCodes(NamedTuple):
    """A resolved rule set as numbers, built once (:func:`rule_codes`) and handed to every
    kernel (the exact engine, the result distribution and the simulator read the rules from
    here only). Kinds are the named constants above (``SURRENDER_*``, ``DOUBLE_*``)."""

    peek: bool
    hits_soft_17: bool
    forced_totals: bool  # the c21 forced hits (hard 11 or less, soft 17 or less) and stands
    double_after_split: bool
    double_on: int  # DOUBLE_ANY, DOUBLE_9_11, DOUBLE_10_11
    double_soft: bool  # soft hands may double
    double_after_hit: bool  # a hand may double at any number of cards
    surrender: int  # SURRENDER_NONE, SURRENDER_LATE, SURRENDER_EARLY, SURRENDER_ANY_CARDS
    max_hands: int  # hands a pair may split to; 1 when splitting is not allowed
    max_ace_hands: int  # the same for Aces (2 without resplitting Aces)
    split_aces_one_card: bool
    bust_push: bool  # the three-card 23..25 bust push
    natural_pays: float
    split_strategy: int  # SPLIT_CDZ, SPLIT_CDP1, SPLIT_CDP (optimal play's split hands)


@functools.lru_cache(maxsize=64)
def rule_codes(rules: StandardBlackjackRules) -> RuleCodes:
    """The :class:`RuleCodes` of ``rules`` (resolved first: ``auto`` values fixed).

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set.

    Returns
    -------
    RuleCodes
        The rules as the kernels read them (cached per rule set).
    """
    r = check_rules(rules).resolved()
    max_hands = r.max_split_hands if r.max_split_hands >= 2 else 1
    return RuleCodes(
        peek=bool(r.peek),
        hits_soft_17=bool(r.dealer_hits_soft_17),
        forced_totals=r.player_forced == "c21",
        double_after_split=bool(r.double_after_split),
        double_on=DOUBLE_KINDS.index(r.double_on),
        double_soft=bool(r.double_soft),
        double_after_hit=bool(r.double_after_hit),
        surrender=SURRENDER_KINDS.index(r.surrender),
        max_hands=int(max_hands),
        max_ace_hands=int(max_hands if r.resplit_aces else min(2, max_hands)),
        split_aces_one_card=bool(r.split_aces_one_card),
        bust_push=r.bust_push == "three_card_23_25",
        natural_pays=float(r.natural_pays),
        split_strategy=SPLIT_STRATEGIES.index(r.split_strategy),
    )


def early_surrender_at_root(codes: RuleCodes, up: int) -> bool:
    """Is surrender offered before the check for a Natural against ``up``?

    Parameters
    ----------
    codes : RuleCodes
        The resolved rules.
    up : int
        The dealer's up card, a rank index (:data:`ACE` .. :data:`TEN`).

    Returns
    -------
    bool
        Early surrender, or surrender at any number of cards against an Ace or a ten.
    """
    return codes.surrender == SURRENDER_EARLY or (
        codes.surrender == SURRENDER_ANY_CARDS and up in (ACE, TEN)
    )


def surrender_at_root(codes: RuleCodes, up: int) -> bool:
    """Is any surrender (early or late) offered on the first two cards against ``up``?

    Parameters
    ----------
    codes : RuleCodes
        The resolved rules.
    up : int
        The dealer's up card, a rank index (:data:`ACE` .. :data:`TEN`).

    Returns
    -------
    bool
        Whether the rules offer any surrender (the same whatever ``up``).
    """
    return codes.surrender != SURRENDER_NONE
