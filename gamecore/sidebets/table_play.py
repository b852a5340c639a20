"""Other seats at a blackjack table taking their cards before the dealer draws: the hook a
side bet's simulated twin calls between the deal and the dealer's hand.

Central idea
------------
A side bet on the dealer's final hand is counted exactly under a stated model: the dealer
draws from the shoe less the cards the bet names. At a real table other hands draw first,
each by its own cards and the up card, and the dealer draws from what they leave. This
module plays those hands off the side-bet simulator's shoe (:mod:`gamecore.sidebets.sim`:
an array of card codes ``rank * 4 + suit``, dealt by position), so the twin that deals them
shows how far the model's figures move when other hands draw first.

Every seat plays gamecore's own basic strategy: the best total-dependent chart the exact
engine finds for standard blackjack at the bet's deck count and soft-17 rule
(:func:`basic_strategy`: :func:`gamecore.blackjack.exact`'s ``chart``), resolved under the
rules by :func:`gamecore.blackjack.chart_tables` and doubling where
:func:`gamecore.blackjack.backward.may_double` allows, as the blackjack simulator plays a
chart. The rules are :class:`gamecore.blackjack.StandardBlackjackRules`' own but the deck
count and soft-17 rule: double on any two cards and after a split, split and resplit to four
hands, split aces once, one card each, no surrender, the dealer peeks.

The cards' order. The side-bet deal is the bettor's two cards and the dealer's up and hole
cards (the casino's order, player, up, player, hole); the other seats' first two cards are
dealt after those, two to each seat in seat order, then each seat plays its hands in seat
order, a split hand taking its second card when its turn comes. In a freshly shuffled shoe
the cards are exchangeable: any fixed order of dealing the first cards gives every card the
same chance, so dealing the other seats' first cards after the bettor's and the dealer's
(rather than in between, as a casino does) changes no card's chance; nor does the order the
seats play in, since each seat's play reads only its own cards and the up card.

What the shoe runs out of. A card goes to a seat only while more than
:data:`DEALER_RESERVE` cards stay undealt, the most a dealer's hand can still take, so the
dealer can always finish from the shoe. A table that would need more stops drawing: a seat
whose two cards do not fit sits out, a hand that would draw stands as it lies, and every hand
after it stands too. The round is then flagged short (the kernels return the flag, the
table twin counts such rounds). A full table's first cards take 4 + 12 of a deck's 52, and
the draws of seven hands by basic strategy average about five more, so only a freak shoe at
one deck runs short (6 rounds in 2,000,000 with the bettor and six seats playing; none at
two decks); the count says how often it did.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore._jit import kernel, kernel_face
from gamecore.blackjack.analysis import exact
from gamecore.blackjack.backward import may_double
from gamecore.blackjack.chart import StrategyChart, chart_tables
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    TEN,
    RuleCodes,
    StandardBlackjackRules,
    rule_codes,
)
from gamecore.dealing import draw_card
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole
from gamecore.rules import boolean

#: Seats at a full blackjack table, the bettor's one of them.
TABLE_SEATS = 7
#: The most other seats that draw before the dealer: a full table less the bettor.
MOST_OTHER_SEATS = TABLE_SEATS - 1
#: The most cards a dealer's hand takes after its up and hole cards: it stops at 17, so
#: every hit but the last leaves its total with aces counted one at most 16; from the
#: smallest start (two aces, 2) that is at most 14 hits of one point each, and the last:
#: 15. The seats leave this many cards undealt.
DEALER_RESERVE = 15


class TablePolicy(NamedTuple):
    """Basic strategy as the seats' kernel plays it (actions as
    :data:`gamecore.blackjack.ACTIONS`: S H D as 0..2).

    Attributes
    ----------
    classes : numpy.ndarray
        int64 (52,): each card code's point class (A, 2..9, ten-valued as 0..9).
    play : numpy.ndarray
        int64 (2, 32, 10, 2): the action at (soft, total, up class, may double) of any hand
        but a two-card pair.
    pair_play : numpy.ndarray
        int64 (10, 10, 2): the action of a two-card pair not split, by (pair class, up
        class, may double).
    split : numpy.ndarray
        bool (10, 10): split the pair of a class against an up class.
    codes : RuleCodes
        The rules (doubling, the split limits, split aces' one card).
    """

    classes: np.ndarray
    play: np.ndarray
    pair_play: np.ndarray
    split: np.ndarray
    codes: RuleCodes


def table_rules(decks: int, dealer_hits_soft_17: bool) -> StandardBlackjackRules:
    """The rules the other seats play by: standard blackjack at a deck count and soft-17
    rule, every other rule :class:`gamecore.blackjack.StandardBlackjackRules`' default.

    Parameters
    ----------
    decks : int
        Decks in the shoe, 1..1000.
    dealer_hits_soft_17 : bool
        Whether the dealer hits soft 17.

    Returns
    -------
    StandardBlackjackRules
        The rule set (no surrender: the seats' kernel plays none).
    """
    return StandardBlackjackRules(
        decks=cards.validate_decks(decks),
        dealer_hits_soft_17=boolean("dealer_hits_soft_17", dealer_hits_soft_17),
    )


@functools.lru_cache(maxsize=16)
def basic_strategy(decks: int, dealer_hits_soft_17: bool) -> StrategyChart:
    """gamecore's basic strategy for the other seats: the best total-dependent chart the
    exact engine finds under :func:`table_rules` (:func:`gamecore.blackjack.exact`).

    Parameters
    ----------
    decks : int
        Decks in the shoe, 1..1000.
    dealer_hits_soft_17 : bool
        Whether the dealer hits soft 17.

    Returns
    -------
    StrategyChart
        The chart (worked once per deck count and rule, a fraction of a second).
    """
    return exact(table_rules(decks, dealer_hits_soft_17)).chart


@functools.lru_cache(maxsize=16)
def table_policy(decks: int, dealer_hits_soft_17: bool) -> TablePolicy:
    """The other seats' play: :func:`basic_strategy` resolved under :func:`table_rules`.

    Parameters
    ----------
    decks : int
        Decks in the shoe, 1..1000.
    dealer_hits_soft_17 : bool
        Whether the dealer hits soft 17.

    Returns
    -------
    TablePolicy
        The kernel's tables, built once per deck count and rule (shared: read, never
        written).
    """
    rules = table_rules(decks, dealer_hits_soft_17)
    tables = chart_tables(basic_strategy(decks, dealer_hits_soft_17), rules)
    without_surrender = 0  # the tables' last axis: whether surrender is offered
    return TablePolicy(
        classes=np.asarray(
            [cards.BLACKJACK_CLASSES[r] for r in range(len(cards.RANKS)) for _ in cards.SUITS],
            dtype=np.int64,
        ),
        play=np.ascontiguousarray(tables.chart[..., without_surrender]),
        pair_play=np.ascontiguousarray(tables.pair_play[..., without_surrender]),
        split=np.ascontiguousarray(tables.split[..., without_surrender]),
        codes=rule_codes(rules),
    )


def idle_policy() -> TablePolicy:
    """A policy no seat plays by: the tables' shapes and types with nothing in them, for a
    job whose table has no other seats (a kernel is typed by its job, so the job carries a
    policy either way; building the real one costs an exact blackjack analysis).

    Returns
    -------
    TablePolicy
        Zero tables under the default rules' codes.
    """
    return TablePolicy(
        classes=np.zeros(len(cards.RANKS) * len(cards.SUITS), dtype=np.int64),
        play=np.zeros((2, 32, 10, 2), dtype=np.int64),
        pair_play=np.zeros((10, 10, 2), dtype=np.int64),
        split=np.zeros((10, 10), dtype=np.bool_),
        codes=rule_codes(StandardBlackjackRules()),
    )


# ---------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def _draw(deal, position):
    """The point class of the card dealt at ``position`` of ``deal = (rng, shoe, last,
    fresh, classes)``, or -1 when the position is past ``last``: the dealer's reserve."""
    rng, shoe, last, fresh, classes = deal
    if position > last:
        return -1
    return classes[draw_card(rng, shoe, position, fresh)]


@kernel(inline=True)
def _play_hand(deal, position, hand, up, policy):
    """Play a hand of two cards, ``hand = (hard total, holds an ace, split, pair class or
    -1)``, to its end by the policy: (the next position, whether the shoe ran short)."""
    hard, ace, split, pair = hand
    held = 2
    while True:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            return position, False
        cd = 1 if may_double(hard, soft, held, split, policy.codes) else 0
        if held == 2 and pair >= 0:
            action = policy.pair_play[pair, up, cd]
        else:
            action = policy.play[1 if soft else 0, total, up, cd]
        if action != HIT and action != DOUBLE:
            return position, False
        c = _draw(deal, position)
        if c < 0:
            return position, True
        position += 1
        hard += c + 1
        ace = ace or c == ACE
        held += 1
        if action == DOUBLE:
            return position, False


@kernel(inline=True)
def _play_seat(deal, position, p1, p2, up, policy):
    """Play a seat dealt classes ``p1``, ``p2``: a Natural stands, a pair the policy splits
    is split (each split hand taking its second card when its turn comes, a pair card
    opening a new hand while the limit allows, split aces one card each where the rules say
    so), any other hand played out. Returns (the next position, whether the shoe ran short).
    """
    codes = policy.codes
    if (p1 == ACE and p2 == TEN) or (p1 == TEN and p2 == ACE):
        return position, False
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    if not (p1 == p2 and limit >= 2 and policy.split[p1, up]):
        hand = (p1 + p2 + 2, p1 == ACE or p2 == ACE, False, p1 if p1 == p2 else -1)
        return _play_hand(deal, position, hand, up, policy)
    hands = 2
    h = 0
    while h < hands:  # hand h holds one card, p1, and takes its second
        c = _draw(deal, position)
        if c < 0:
            return position, True
        position += 1
        if c == p1 and hands < limit:
            hands += 1  # a resplit: the new hand waits its turn
            continue
        if not (p1 == ACE and codes.split_aces_one_card):
            hand = (p1 + c + 2, p1 == ACE or c == ACE, True, p1 if c == p1 else -1)
            position, short = _play_hand(deal, position, hand, up, policy)
            if short:
                return position, True
        h += 1
    return position, False


@kernel
def _other_seats_draw(rng, shoe, position, fresh, up_class, seats, policy):
    """Deal ``seats`` seats two cards each from ``position``, then play them in seat order:
    (the next position, whether the shoe ran short)."""
    last = shoe.size - DEALER_RESERVE - 1  # the last position a seat's card may take
    deal = (rng, shoe, last, fresh, policy.classes)
    first = position
    dealt = 0
    while dealt < seats and position + 1 <= last:
        draw_card(rng, shoe, position, fresh)
        draw_card(rng, shoe, position + 1, fresh)
        position += 2
        dealt += 1
    short = dealt < seats
    for s in range(dealt):
        if short:
            break  # the shoe ran out at an earlier seat: the rest stand as they lie
        p1 = policy.classes[shoe[first + 2 * s]]
        p2 = policy.classes[shoe[first + 2 * s + 1]]
        position, short = _play_seat(deal, position, p1, p2, up_class, policy)
    return position, short


@kernel
def _seat_draws(rng, shoe, position, fresh, first, second, up_class, policy):
    """Play a seat already dealt card codes ``first``, ``second`` from ``position``: (the
    next position, whether the shoe ran short)."""
    last = shoe.size - DEALER_RESERVE - 1
    deal = (rng, shoe, last, fresh, policy.classes)
    p1, p2 = policy.classes[first], policy.classes[second]
    return _play_seat(deal, position, p1, p2, up_class, policy)


# ---------------------------------------------------------------------------------------
# Faces
# ---------------------------------------------------------------------------------------


def _checked(shoe, position: int, fresh: bool, up_class: int, rng) -> None:
    """Refuse what the kernels cannot deal from, in one line."""
    if not isinstance(rng, np.random.Generator):
        raise GamecoreError(f"rng must be a numpy.random.Generator, got {shown(rng)}")
    if not (isinstance(shoe, np.ndarray) and shoe.ndim == 1 and shoe.dtype == np.int64):
        raise GamecoreError("shoe must be a one-dimensional int64 array of card codes")
    if shoe.size and not (0 <= shoe.min() and shoe.max() < len(cards.RANKS) * len(cards.SUITS)):
        raise GamecoreError("shoe holds a value that is no card code (rank * 4 + suit, 0..51)")
    if not is_whole(position) or not 0 <= position <= shoe.size:
        raise GamecoreError(f"position must be an integer 0..{shoe.size}, got {shown(position)}")
    boolean("fresh", fresh)
    if not is_whole(up_class) or not 0 <= up_class <= TEN:
        raise GamecoreError(f"up_class must be a point class 0..9, got {shown(up_class)}")


@kernel_face(_other_seats_draw)
def other_seats_draw(
    rng: np.random.Generator,
    shoe: np.ndarray,
    position: int,
    fresh: bool,
    up_class: int,
    seats: int,
    policy: TablePolicy,
) -> tuple[int, bool]:
    """Deal ``seats`` other seats two cards each and play them out by ``policy``, before
    the dealer draws (the module docstring: the cards' order and the dealer's reserve).

    The caller has dealt the bettor's cards and the dealer's up and hole cards before
    ``position``; where the dealer peeks and holds a Natural the round ends there, and this
    is not called. Called from a kernel, this is a call of the kernel itself
    (:func:`gamecore._jit.kernel_face`).

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator a fresh-shoe round draws from (unused otherwise, but given).
    shoe : numpy.ndarray
        int64: the shoe as card codes ``rank * 4 + suit``; positions before ``position``
        are dealt. Written to with ``fresh`` (each card swapped in as it is dealt).
    position : int
        The position of the next card.
    fresh : bool
        Whether each card is first drawn uniformly from the undealt positions
        (:func:`gamecore.dealing.draw_card`: a round off a full shoe); False: the shoe is
        shuffled already and dealt as it lies.
    up_class : int
        The dealer's up card's point class, 0 (ace) .. 9 (ten-valued).
    seats : int
        Other seats, 0..:data:`MOST_OTHER_SEATS`.
    policy : TablePolicy
        Their play (:func:`table_policy`).

    Returns
    -------
    tuple of (int, bool)
        The position the dealer draws from, and whether the table stopped drawing to keep
        :data:`DEALER_RESERVE` cards for the dealer.
    """
    _checked(shoe, position, fresh, up_class, rng)
    if not is_whole(seats) or not 0 <= seats <= MOST_OTHER_SEATS:
        raise GamecoreError(
            f"seats must be an integer 0..{MOST_OTHER_SEATS} (a full table of {TABLE_SEATS} "
            f"less the bettor), got {shown(seats)}"
        )
    at, short = _other_seats_draw(rng, shoe, int(position), bool(fresh), int(up_class),
                                  int(seats), policy)  # fmt: skip
    return int(at), bool(short)


@kernel_face(_seat_draws)
def seat_draws(
    rng: np.random.Generator,
    shoe: np.ndarray,
    position: int,
    fresh: bool,
    first: int,
    second: int,
    up_class: int,
    policy: TablePolicy,
) -> tuple[int, bool]:
    """Play out a seat already dealt its two cards (the bettor's own hand, where the twin
    has the bettor play too), by ``policy``, from ``position``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator a fresh-shoe round draws from.
    shoe : numpy.ndarray
        int64: the shoe as card codes; positions before ``position`` are dealt.
    position : int
        The position of the next card.
    fresh : bool
        Whether each card is first drawn uniformly from the undealt positions.
    first, second : int
        The seat's two card codes.
    up_class : int
        The dealer's up card's point class, 0..9.
    policy : TablePolicy
        The play (:func:`table_policy`).

    Returns
    -------
    tuple of (int, bool)
        The next position, and whether the seat stopped drawing to keep
        :data:`DEALER_RESERVE` cards for the dealer.
    """
    _checked(shoe, position, fresh, up_class, rng)
    for name, code in (("first", first), ("second", second)):
        if not is_whole(code) or not 0 <= code < len(policy.classes):
            raise GamecoreError(f"{name} must be a card code 0..51, got {shown(code)}")
    at, short = _seat_draws(rng, shoe, int(position), bool(fresh), int(first), int(second),
                            int(up_class), policy)  # fmt: skip
    return int(at), bool(short)
