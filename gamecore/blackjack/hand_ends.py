"""How one hand of a blackjack round ends, as settlement needs it: its final class against
the dealer's final outcome.

Central idea
------------
The EV recursion of :mod:`gamecore.blackjack.engine` carries one number per hand; here each
hand carries a *joint distribution* instead: the probability of each (final class of the
hand, the dealer's final outcome) pair, where a class is what settlement needs (a standing
total 16-or-less or 17..21, a plain bust, a three-card bust of 23, 24 or 25, a surrender,
each doubled or not) and the dealer's outcome is 17..21, each bust total 22..26 or a
Natural. Stand, double and surrender put the dealer's distribution behind the hand's exact
cards into one class; a hit averages the children's joints over the next card, drawn
without replacement (:func:`hand_joints`). The dealer's distribution behind the cards that
bust a hand is exact too, without a row of its own: removing an unseen card leaves the
dealer's distribution unchanged, so it is the hand's own less its live children's.

A split hand's play depends on its own cards only, so every way it can end is listed
instead, with its number of card orders (:func:`two_hand_ends`), for the pairs of
:mod:`gamecore.blackjack.two_hand_split`. :func:`settlement` says what each class wins
against each dealer outcome, in half units (a surrender loses half).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.dealer import dealer_distribution
from gamecore.blackjack.rules import (
    DOUBLE,
    HIT,
    N_OUTCOMES,
    NATURAL,
    STAND,
    SURRENDER,
    StandardBlackjackRules,
    rule_codes,
)

if TYPE_CHECKING:
    from gamecore.blackjack.engine import Engine

#: Hand classes, the first axis of a joint and of :func:`settlement`: a standing total (16
#: or less at ``STAND_LOW``, 17..21 at 1..5), a plain bust, a three-card bust of 23/24/25
#: (which the bust push may save, ``BUST_23`` + 0..2), a surrender; then the same again
#: doubled (``DOUBLED`` + class), ``N_CLASSES`` in all.
STAND_LOW, BUST, BUST_23, SURRENDERED = 0, 6, 7, 10
DOUBLED = 11
N_CLASSES = 22
#: Net results of a round in half units, -16..16; index = half units + 16.
HALF_UNITS = 33


@kernel(inline=True)
def _stand_class(total):
    return STAND_LOW if total <= 16 else total - 16


@kernel(inline=True)
def _bust_class(hard, cards, bust_push):
    if bust_push and cards == 3 and 23 <= hard <= 25:
        return BUST_23 + hard - 23
    return BUST


@kernel(inline=True)
def _final_class(bust, hard, soft, cards, j, bust_push):
    """The class of hand ``j`` standing (or busted) where it is (the tree's columns, not
    the tree: an inlined helper handed a NamedTuple of arrays costs its reference counts)."""
    if bust[j]:
        return _bust_class(hard[j], cards[j], bust_push)
    return _stand_class(hard[j] + 10 if soft[j] else hard[j])


@kernel(inline=True)
def _busted_dealer(child, rows, dealers, i, up, shoe, n, out):
    """The dealer's distribution behind the cards that bust hand ``i`` when it draws,
    weighted by their chances, into ``out``. A plain bust is not a node of the tree: removing
    an unseen card leaves the dealer's distribution unchanged (``dist(cards) = sum_c p_c
    dist(cards + c)``, exact whenever the dealer cannot use up the shoe: see
    :func:`_busted_dealer_direct` for a shoe that small), so it is the hand's own
    distribution ``dealers[rows[i], up]`` less its live children's."""
    out[:] = dealers[rows[i], up]
    for c in range(10):
        j = child[i, c]
        if shoe[c] > 0 and j >= 0:
            for d in range(N_OUTCOMES):
                out[d] -= shoe[c] / n * dealers[rows[j], up, d]


@kernel
def _busted_dealer_direct(child, i, up, shoe, n, table, out):
    """:func:`_busted_dealer` with each busting card's distribution computed directly, for a
    shoe so small that the dealer might use it up."""
    left = np.empty(10, dtype=np.int64)
    one = np.empty(N_OUTCOMES)
    out[:] = 0.0
    for c in range(10):
        if shoe[c] > 0 and child[i, c] < 0:
            left[:] = shoe
            left[c] -= 1
            dealer_distribution(left, up, table, one)
            out += shoe[c] / n * one


@kernel
def _joints(tree, context, dealers, table, up, action, bust_push, out):
    """``out[i, class, dealer outcome]`` for every hand ``i`` of ``context`` (its rows
    overwritten, the others' left as they are), the action played at each live hand being
    ``action[i, up]``. Hands with more cards first."""
    shoe = np.zeros(10, dtype=np.int64)
    busted = np.zeros(N_OUTCOMES)
    bust, hard, soft, cards = tree.bust, tree.hard, tree.soft, tree.cards
    for idx in range(tree.order.size):
        i = tree.order[idx]
        if not context.mask[i]:
            continue
        out[i] = 0.0
        ok = True
        n = 0
        for r in range(10):
            shoe[r] = context.base[r] - tree.counts[i, r] - (1 if r == up else 0)
            if shoe[r] < 0:
                ok = False
            n += shoe[r]
        if not ok:
            continue
        dist = dealers[context.rows[i], up]
        a = action[i, up]
        if tree.bust[i] or a == STAND:
            out[i, _final_class(bust, hard, soft, cards, i, bust_push)] = dist
        elif a == SURRENDER:
            out[i, SURRENDERED] = dist
        elif a == HIT or a == DOUBLE:
            busts = False
            for c in range(10):
                if shoe[c] == 0:
                    continue
                pc = shoe[c] / n
                j = tree.child[i, c]
                if j < 0:
                    busts = True
                elif a == HIT:
                    for k in range(N_CLASSES):  # loops, not array expressions: no temporaries
                        for d in range(N_OUTCOMES):
                            out[i, k, d] += pc * out[j, k, d]
                else:
                    k = DOUBLED + _final_class(bust, hard, soft, cards, j, bust_push)
                    for d in range(N_OUTCOMES):
                        out[i, k, d] += pc * dealers[context.rows[j], up, d]
            if busts and n > table.most_drawn[up]:
                _busted_dealer(tree.child, context.rows, dealers, i, up, shoe, n, busted)
            elif busts:
                _busted_dealer_direct(tree.child, i, up, shoe, n, table, busted)
            if busts:
                k = BUST + (DOUBLED if a == DOUBLE else 0)
                for d in range(N_OUTCOMES):
                    out[i, k, d] += busted[d]


def hand_joints(
    engine: Engine,
    key: tuple[int, int],
    action: np.ndarray,
    up: int,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Every hand's joint distribution of (its final class, the dealer's final outcome) in
    one context against ``up``, each live hand playing ``action``.

    Parameters
    ----------
    engine : Engine
        The engine of the rules and shoe: its hand tree, contexts and dealer rows.
    key : tuple of int
        The context: ``(-1, 0)`` the unsplit hands, ``(p, a)`` the hands of a split of
        pair rank ``p`` with ``a`` further pair cards out of the shoe.
    action : numpy.ndarray
        The action played at each hand against each up card, ``action[hand, up]`` (int8,
        the codes of :mod:`gamecore.blackjack.rules`; a context's solved or chart actions).
    up : int
        The dealer's up card, a rank index 0 (ace) to 9 (ten-valued).
    out : numpy.ndarray or None
        A buffer of the returned shape to write into, reused across contexts: only the
        context's rows are written (the others keep what they held). None: a fresh zeroed
        one (megabytes of zeroed pages per context, so a loop over contexts passes one).

    Returns
    -------
    numpy.ndarray
        float64 of shape ``(hands, N_CLASSES, 11)``: ``out[i, class, outcome]`` the
        probability that hand ``i``, played on from where it is, ends in ``class`` and the
        dealer in ``outcome`` (17..21, bust 22..26, Natural), over the cards left behind
        it; a hand of the context the shoe cannot deal is all zeros.
    """
    if out is None:
        out = np.zeros((len(engine.nodes.counts), N_CLASSES, N_OUTCOMES))
    context = engine.context(*key)
    _joints(
        engine.nodes,
        context,
        engine.dealers,
        engine.dealer,
        up,
        action,
        engine.codes.bust_push,
        out,
    )
    return out


def settlement(rules: StandardBlackjackRules) -> np.ndarray:
    """What a hand of each class wins against each dealer outcome, in half units of the
    hand's initial wager.

    The dealer's Natural column is the no-peek settlement (every wager on the hand lost, a
    surrender half); under the peek a Natural ends the round before any play.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rule set (its bust push decides the three-card busts of 23..25).

    Returns
    -------
    numpy.ndarray
        int64 of shape ``(N_CLASSES, 11)``: ``settle[class, outcome]`` from -4 (a doubled
        hand lost) to 4 (a doubled hand won); a surrender -1 whatever the dealer holds.
    """
    bust_push = rule_codes(rules).bust_push
    table = np.zeros((N_CLASSES, N_OUTCOMES), dtype=np.int64)
    for doubled in (0, 1):
        unit = 2 * (2 if doubled else 1)
        for k in range(SURRENDERED):
            row = table[k + (DOUBLED if doubled else 0)]
            for d in range(N_OUTCOMES):
                dealer = 17 + d  # 17..21, then bust totals 22..26
                if d == NATURAL:
                    row[d] = -unit
                elif k < BUST:
                    total = 16 if k == STAND_LOW else 16 + k
                    row[d] = (
                        unit if (d >= 5 or total > dealer) else (0 if total == dealer else -unit)
                    )
                elif k == BUST:
                    row[d] = -unit
                else:
                    mine = 23 + k - BUST_23
                    row[d] = 0 if (bust_push and d >= 5 and mine < dealer) else -unit
    table[SURRENDERED] = -1
    return table


def dealer_free_classes(settle: np.ndarray, peek: bool) -> np.ndarray:
    """Which hand classes settle alike against every dealer outcome that settles a split
    round (under the peek a Natural ends the round first): a plain bust, lost whatever the
    dealer draws. A pair of split hands of such classes needs no dealer distribution.

    Parameters
    ----------
    settle : numpy.ndarray
        The settlement table, ``(N_CLASSES, 11)`` (:func:`settlement`).
    peek : bool
        Whether the dealer peeks (the Natural column then settles no split round).

    Returns
    -------
    numpy.ndarray
        bool of shape ``(N_CLASSES,)``: True where the class's row is the same in every
        settling column.
    """
    settling = np.arange(N_OUTCOMES) != NATURAL if peek else np.ones(N_OUTCOMES, dtype=bool)
    return (settle[:, settling] == settle[:, :1]).all(axis=1)


class _HandEnds(NamedTuple):
    """Scratch and output of :func:`_split_hand_ends` (one slot per way a hand can end)."""

    ways: np.ndarray  # (M,) card orders reaching each node
    node: np.ndarray  # the hand's final cards: a node ...
    extra: np.ndarray  # ... and the card that busts it (-1: none)
    final_class: np.ndarray
    orders: np.ndarray  # card orders that play to the end


@kernel
def _split_hand_ends(tree, one, pair, first_not_pair, up, action, bust_push, ends):
    """Every way one split hand can end: the hand's final cards (a node and, for a plain
    bust, the card that busts it), its class and the number of card orders that play to it
    (the play depending on the hand's cards only).

    The hand starts as the single pair card ``one``; with ``first_not_pair`` its second card
    is not a pair card (no resplit). Returns the number of ends written to ``ends``.
    """
    ways = ends.ways
    ways[:] = 0.0
    ways[one] = 1.0
    found = 0
    for idx in range(tree.order.size - 1, -1, -1):  # fewest cards first
        i = tree.order[idx]
        w = ways[i]
        if w == 0.0:
            continue
        a = action[i, up]
        live = not tree.bust[i]
        if i == one or (live and (a == HIT or a == DOUBLE)):
            doubled = i != one and a == DOUBLE
            for c in range(10):
                j = tree.child[i, c]
                if i == one and first_not_pair and c == pair:
                    continue
                if j >= 0 and not doubled:
                    ways[j] += w
                    continue
                ends.node[found] = i if j < 0 else j
                ends.extra[found] = c if j < 0 else -1
                k = (
                    BUST
                    if j < 0
                    else _final_class(tree.bust, tree.hard, tree.soft, tree.cards, j, bust_push)
                )
                ends.final_class[found] = k + (DOUBLED if doubled else 0)
                ends.orders[found] = w
                found += 1
            continue
        ends.node[found] = i
        ends.extra[found] = -1
        if live and a == SURRENDER:
            ends.final_class[found] = SURRENDERED
        else:
            ends.final_class[found] = _final_class(
                tree.bust, tree.hard, tree.soft, tree.cards, i, bust_push
            )
        ends.orders[found] = w
        found += 1
    return found


class TwoHandEnds(NamedTuple):
    """The ways one hand of a two-hand split ends (:func:`two_hand_ends`), as arrays, one
    row per end ``E``."""

    drawn: np.ndarray  # (E, 10) cards the hand draws (its own pair card not counted)
    final_class: np.ndarray  # (E,)
    ways: np.ndarray  # (E,) card orders that play to the end


def two_hand_ends(engine: Engine, kept: dict, pair: int, up: int) -> TwoHandEnds:
    """Every way one hand of a split of ``pair`` against ``up`` ends with no resplit: its
    final cards, its class and the number of card orders that play to it (the play depends
    on the hand's own cards only, so the two hands' ends pair up freely).

    Parameters
    ----------
    engine : Engine
        The engine of the rules and shoe.
    kept : dict
        Each context's actions by its key (int8 ``action[hand, up]``); the split's first
        context ``(pair, 0)`` is read.
    pair : int
        The pair's rank index, 0 (aces) to 9 (ten-valued).
    up : int
        The dealer's up card, a rank index 0 (ace) to 9.

    Returns
    -------
    TwoHandEnds
        ``drawn`` (int64 ``(E, 10)``: the cards each end draws, its own pair card not
        counted), ``final_class`` (int64 ``(E,)``, doubled classes included) and ``ways``
        (float64 ``(E,)``: card orders, not yet probabilities).
    """
    nd = engine.nodes
    m = len(nd.counts)
    one = engine.node_index[tuple(1 if q == pair else 0 for q in range(10))]
    ends = _HandEnds(
        np.zeros(m),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m),
    )
    found = _split_hand_ends(
        nd,
        one,
        pair,
        engine.max_hands(pair) >= 3,
        up,
        kept[(pair, 0)],
        engine.codes.bust_push,
        ends,
    )
    drawn = nd.counts[ends.node[:found]].copy()
    busts = ends.extra[:found] >= 0
    drawn[busts, ends.extra[:found][busts]] += 1
    drawn[:, pair] -= 1  # the hand's own pair card is not drawn
    return TwoHandEnds(drawn, ends.final_class[:found].copy(), ends.orders[:found].copy())
