"""The blackjack dealer's final hand as a side bet reads it: one model of the dealer's
drawing, enumerated exactly for :mod:`gamecore.sidebets.exact` and dealt card by card for
:mod:`gamecore.sidebets.sim`.

The model
---------
The dealer's up card and hole card, then the dealer's draws, come from the shoe less the
cards the bet's conditions name (the player's two cards where a condition reads them; no
other seat's cards, and nobody draws before the dealer). The dealer draws to 17 and more,
hitting a soft 17 or standing on it by the bet's rule (:class:`gamecore.sidebets.
dealer_words.DealerRule`); an ace counts 11 where that does not pass 21. A dealer natural
(ace and ten-valued card) is a final hand of two cards totalling 21, not a bust, and the
dealer draws nothing to it: so it reads with or without the peek, which only decides
whether other seats play before it is seen. With no seat drawing first this is exact for
one player: the dealer's cards are as random as if dealt straight from the shoe, whatever
cards of other hands lie between them, as long as no condition reads those hands.

Central idea
------------
One drawing rule, read by two dealers: :func:`gamecore.sidebets.dealer_count.count_draws`
walks every hand the dealer can draw, each card at the coarsest detail a condition reads
(its point class, or its rank where a condition tells ten-valued ranks apart), and counts
the hands of one colour or one suit apart rather than dealing every card's suit;
:func:`gamecore.sidebets.dealer_count.deal_final` draws the cards one at a time for the
simulated twin. Both fill the same facts of the final hand
(:data:`gamecore.sidebets.deal.FINAL_TOTAL` ...) and so read the same tests. Every deal is
completed to the same number of cards (the cards named, then
:data:`~gamecore.sidebets.dealer_words.MAX_DEALER_CARDS` less two draws), so a deal's ways
are integers over one total, the falling factorial of the shoe. :class:`DealerPlan` is what
both read of a bet and a shoe.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore.sidebets.conditions import leaves
from gamecore.sidebets.deal import BJ_HOLE, BJ_P1, BJ_P2, BJ_UP
from gamecore.sidebets.dealer_count import dealer_stands
from gamecore.sidebets.dealer_players import players_after
from gamecore.sidebets.dealer_words import (
    MAX_DEALER_CARDS,
    READS_CARDS,
    READS_COLOURED,
    READS_LAST,
    READS_SUITED,
)
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.program import (
    SUIT,
    TESTS,
    VALUE,
    classes,
    compile_bet,
    draw_class,
    draws_by_rank,
    suit_mode,
)

#: The most cards the dealer draws to the up card and the hole card.
MAX_DRAWS = MAX_DEALER_CARDS - 2
#: Draw classes at most (13 ranks).
_CLASSES = len(cards.RANKS)


class DealerPlan(NamedTuple):
    """How the dealer's draws are dealt for one bet and one shoe.

    Attributes
    ----------
    active : int
        1 where a condition reads the dealer's final hand, else 0 (nothing is drawn).
    hits_soft_17 : int
        1: the dealer hits a soft 17; 0: stands on it.
    reads : int
        Bits :data:`READS_SUITED`, :data:`READS_COLOURED`, :data:`READS_CARDS` and
        :data:`READS_LAST`: whether a condition reads ``suited`` or ``coloured`` (such hands
        are walked apart, a colour or suit at a time), ``cards`` or ``last``.
    named_hands : numpy.ndarray
        int64: every hand a ``ranks`` field names, its classes packed as the tests hold
        them (a final hand's ranks are read only as one of these or none).
    alike : int
        Bits :data:`READS_SUITED` and :data:`READS_COLOURED` where the shoe holds as many
        cards of each rank in every suit (colour): the walks of one suit (colour) are then
        all alike where :attr:`apart` is 1.
    apart : int
        1 where no card's suit is read (:func:`gamecore.sidebets.program.suit_mode` 2): the
        walks of one suit or colour count the up card and hole card of it themselves, the
        player's cards after them; 0: every card named has its suit read.
    by_rank : int
        1: draws by rank (13 classes); 0: by point class (10).
    value_of : numpy.ndarray
        int64 (13,): each draw class's point class (0 the ace .. 9 ten-valued).
    classes : int
        Draw classes: 13 or 10.
    counts : numpy.ndarray
        int64 (13,): the shoe's cards of each draw class.
    counts_suit, counts_colour : numpy.ndarray
        int64 (13, 4) and (13, 2): the same by suit and by colour.
    rank_suit, rank_colour : numpy.ndarray
        int64 (13, 4) and (13, 2): the shoe's cards by rank and suit, by rank and colour.
    complete_to : int
        Cards every deal is completed to (0 where nothing is drawn).
    cards : int
        Cards in the shoe.
    cap : int
        The most cards of a final hand some outcome can pay (a hand that passes it loses,
        however it ends: the walk stops there).
    later : int
        How many of the player's cards are counted after the dealer's final hand: 0 here;
        the count that counts them so (:mod:`gamecore.sidebets.dealer_players`) sets it
        from its :class:`~gamecore.sidebets.dealer_players.PlayersAfter`.
    """

    active: int
    hits_soft_17: int
    reads: int
    named_hands: np.ndarray
    alike: int
    apart: int
    by_rank: int
    value_of: np.ndarray
    classes: int
    counts: np.ndarray
    counts_suit: np.ndarray
    counts_colour: np.ndarray
    rank_suit: np.ndarray
    rank_colour: np.ndarray
    complete_to: int
    cards: int
    cap: int
    later: int


def reads_final(bet: SideBet) -> bool:
    """Whether any condition of ``bet`` reads the dealer's final hand.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    bool
        True where a ``dealer_final`` condition is written.
    """
    return any(c.kind == "dealer_final" for o in bet.outcomes for c in leaves(o.conditions))


def dealt_before_draws(bet: SideBet) -> int:
    """The cards named before the dealer draws: those the bet's conditions read.

    Parameters
    ----------
    bet : SideBet
        A checked blackjack definition.

    Returns
    -------
    int
        2 to 4.
    """
    return int((compile_bet(bet).levels >= 0).sum())


def dealer_plan(bet: SideBet, shoe: cards.Shoe) -> DealerPlan:
    """The dealer's drawing for ``bet`` dealt from ``shoe``.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.

    Returns
    -------
    DealerPlan
        Inactive (nothing drawn) for a bet that reads no final hand.
    """
    active = bet.game == "blackjack" and reads_final(bet)
    by_rank = active and draws_by_rank(bet)
    value_of = np.zeros(_CLASSES, dtype=np.int64)
    counts = np.zeros(_CLASSES, dtype=np.int64)
    counts_suit = np.zeros((_CLASSES, len(cards.SUITS)), dtype=np.int64)
    rank_suit = np.asarray(shoe.counts, dtype=np.int64)
    rank_colour = np.zeros((_CLASSES, len(cards.COLOURS)), dtype=np.int64)
    for s, colour in enumerate(cards.SUIT_COLOUR):
        rank_colour[:, colour] += rank_suit[:, s]
    for r, rank in enumerate(cards.RANKS):
        d = draw_class(rank, by_rank)
        value_of[d] = cards.BLACKJACK_CLASSES[r]
        counts[d] += rank_suit[r].sum()
        counts_suit[d] += rank_suit[r]
    counts_colour = np.zeros((_CLASSES, len(cards.COLOURS)), dtype=np.int64)
    for s, colour in enumerate(cards.SUIT_COLOUR):
        counts_colour[:, colour] += counts_suit[:, s]
    fields = {
        c.values[0] for o in bet.outcomes for c in leaves(o.conditions) if c.kind == "dealer_final"
    }
    reads = READS_SUITED * ("suited" in fields) + READS_COLOURED * ("coloured" in fields)
    reads += READS_CARDS * ("cards" in fields) + READS_LAST * ("last" in fields)
    return DealerPlan(
        int(active),
        int(bet.dealer.hits_soft_17),
        reads,
        _named_hands(bet),
        READS_SUITED * _alike(rank_suit) + READS_COLOURED * _alike(rank_colour),
        int(active and suit_mode(bet) == 2),
        int(by_rank),
        value_of,
        _CLASSES if by_rank else 10,
        counts,
        counts_suit,
        counts_colour,
        rank_suit,
        rank_colour,
        dealt_before_draws(bet) + MAX_DRAWS if active else 0,
        int(shoe.total),
        hand_cap(bet),
        0,
    )


def _alike(by_group: np.ndarray) -> bool:
    """Whether every column (suit or colour) of a rank-by-group table is the same."""
    return bool((by_group == by_group[:, :1]).all())


def _named_hands(bet: SideBet) -> np.ndarray:
    """Every hand the ``ranks`` fields of ``bet`` name, packed as its tests hold them."""
    tests = compile_bet(bet).tests
    named = tests[tests[:, 1] == TESTS.index("dealer_ranks"), 2]
    return np.unique(named).astype(np.int64)


def hand_cap(bet: SideBet) -> int:
    """The most cards of a final hand any outcome of ``bet`` can pay (read from each
    outcome's own conditions, not those inside ``any``, ``all`` or ``not``: a top-level
    condition must hold whatever the composites say).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    int
        Over the outcomes, the fewest cards each allows by its ``cards`` (their largest)
        and ``ranks`` (their number) fields; :data:`MAX_DEALER_CARDS` for an outcome that
        limits neither.
    """
    cap = 2
    for outcome in bet.outcomes:
        allowed = MAX_DEALER_CARDS
        for condition in outcome.conditions:
            if condition.kind != "dealer_final":
                continue
            field, values = condition.values[0], condition.values[1:]
            if field == "cards":
                allowed = min(allowed, max(values))
            elif field == "ranks":
                allowed = min(allowed, len(values))
        cap = max(cap, allowed)
    return cap


def deals_with_draws(bet: SideBet) -> int:
    """The final hands one pass of the exact count settles for ``bet``, as its loops
    visit them where no class runs out (an upper bound for a small shoe), for
    :mod:`gamecore.sidebets.work`.

    Parameters
    ----------
    bet : SideBet
        A checked blackjack definition that reads the dealer's final hand.

    Returns
    -------
    int
        Over every class of each card named (but the player's cards counted after the
        dealer's hand, :mod:`gamecore.sidebets.dealer_players`), the dealer's final hands
        drawn to its up card and hole card (point classes or ranks a draw), walked once by
        class and once more for each colour or suit the hands of one colour or suit are
        walked apart (:mod:`gamecore.sidebets.dealer_count`), and where the player's cards
        are counted after the hand, each of their rows settled at each key a walk reaches.
    """
    program = compile_bet(bet)
    levels = program.levels
    shoe = classes(bet, cards.standard(1))  # which kinds exist, never how many cards
    plan = dealer_plan(bet, cards.standard(1))
    deals = 1
    # the player's cards counted after the dealer's hand are not dealt by the loops, but
    # settled at every key of every walk, each of their rows
    players = players_after(bet, program, shoe, plan)
    later, keys, rows = players.active, _keys_a_walk(plan), players.rows.size
    for position in (BJ_P1, BJ_P2):
        if levels[position] >= 0 and not later:
            deals *= int(shoe.sizes[levels[position]])
    attributes, sizes = shoe.attributes, shoe.sizes
    up_level, hole_level = levels[BJ_UP], levels[BJ_HOLE]
    hands = 0
    for up in range(sizes[up_level]):
        for hole in range(sizes[hole_level]):
            up_value = int(attributes[up_level, VALUE, up])
            hole_value = int(attributes[hole_level, VALUE, hole])
            # where suits are read the hole card of the up card's colour is walked too: an
            # upper bound, as of its suit
            same = attributes[up_level, SUIT, up] == attributes[hole_level, SUIT, hole]
            walked = _final_hands(
                up_value + hole_value + 2,
                up_value == 0 or hole_value == 0,
                bool(plan.hits_soft_17),
                bool(plan.by_rank),
                plan.cap,
            )
            settled = min(walked, keys) * rows
            hands += (walked + settled) * (1 + _walks_apart(plan, bool(same)))
    return deals * hands


def _keys_a_walk(plan: DealerPlan) -> int:
    """The most keys a walk's final hands fall under: ten totals (17 to 26), times the
    numbers of cards, last cards and named hands where a condition reads them."""
    keys = 10 * (MAX_DEALER_CARDS - 1 if plan.reads & READS_CARDS else 1)
    keys *= _CLASSES if plan.reads & READS_LAST else 1
    return keys * (len(plan.named_hands) + 1)


def _walks_apart(plan: DealerPlan, same_suit: bool) -> int:
    """The walks of one colour or suit after the walk by class: one a colour and one a suit
    where no card's suit is read, else one each where the hole card is of the up card's."""
    walks = 0
    if plan.reads & READS_COLOURED:
        walks += len(cards.COLOURS) if plan.apart else int(same_suit)
    if plan.reads & READS_SUITED:
        walks += len(cards.SUITS) if plan.apart else int(same_suit)
    return walks


@functools.cache
def _final_hands(hard: int, ace: bool, hits_soft_17: bool, by_rank: bool, cap: int) -> int:
    """The final hands the walk reaches from a hand of ``hard`` (an ace in it or not), every
    class of draw available, stopping where the hand reaches ``cap`` cards (``cap`` counts
    down)."""
    if dealer_stands(hard, ace, hits_soft_17) or cap <= 2:
        return 1
    tens = 4 if by_rank else 1
    hands = 0
    for value in range(10):
        ways = tens if value == 9 else 1
        hands += ways * _final_hands(
            hard + value + 1, ace or value == 0, hits_soft_17, by_rank, cap - 1
        )
    return hands
