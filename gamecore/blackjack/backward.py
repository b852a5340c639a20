"""The backward pass: the value of every action at every hand of one context, and the action
a policy plays there.

Central idea
------------
A *context* is a set of player hands with one shoe behind them (the unsplit hands, or a
split's hands with some pair cards out: :class:`gamecore.blackjack.engine.Engine`). Every
hand composition fixes the cards left behind it, so the dealer's final distribution behind
it is a table row (:mod:`gamecore.blackjack.dealer`), and its stand, hit, double and
surrender values follow by one pass over the hand tree (:mod:`gamecore.blackjack.hand_tree`),
more cards first: a hit's value is the mean over the next card of the value of the hand it
makes, played on; a double's, of that hand standing. The action played at a hand is the
best (optimal play), the best for the same cards in a reference shoe (split hands under
CDZ- and CDP1), or a chart's (:data:`POLICY_OPTIMAL`, :data:`POLICY_REFERENCE`,
:data:`POLICY_CHART`), and a hand's value is its played action's.

Only the hands a round reaches are played (:func:`reach_marks`): the two-card hands and what
hitting and doubling them reach, under what the rules allow at each (:func:`may_double` is
shared with the simulator).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.blackjack.chart import ChartTables
from gamecore.blackjack.hand_tree import HandTree
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    DOUBLE_9_11,
    DOUBLE_10_11,
    HIT,
    NATURAL,
    STAND,
    SURRENDER,
    SURRENDER_ANY_CARDS,
    SURRENDER_LATE,
    TEN,
    TIE,
    RuleCodes,
)

#: How the action at each hand is chosen: the best; for a split hand the best for the same
#: cards unsplit (CDZ-); a chart's.
POLICY_OPTIMAL, POLICY_REFERENCE, POLICY_CHART = 0, 1, 2
#: ``action`` of a hand whose chart cell asks for an action the rules forbid there.
FORBIDDEN = -2


class Context(NamedTuple):
    """The hands played with one shoe behind them
    (:meth:`gamecore.blackjack.engine.Engine.context`); ``M`` is the hand tree's size."""

    mask: np.ndarray  # int64 (M,): the hands played
    base: np.ndarray  # int64 (10,): the shoe before the up card and the hand are removed
    rows: np.ndarray  # int64 (M,): each hand's row of the dealer table, -1 where unplayed
    split_rank: int  # the pair split, -1 for the unsplit hands


class Policy(NamedTuple):
    """How :func:`solve_context` chooses the action played at each hand."""

    kind: int  # POLICY_OPTIMAL, POLICY_REFERENCE or POLICY_CHART
    reference: np.ndarray  # (M, 10, 4): the unsplit values, for POLICY_REFERENCE
    tables: ChartTables  # the chart, for POLICY_CHART


class Solved(NamedTuple):
    """A context's values against each up card, per unit of initial wager (float64; nan
    where an action is not allowed, or the hand or up card is not dealt). Under the peek a
    value leaves out the dealer's Natural: it is ``E[result * 1{no dealer Natural}]``."""

    ev: np.ndarray  # (M, 10, 4): each action's value, S H D R
    value: np.ndarray  # (M, 10): the value of the action played
    action: np.ndarray  # (M, 10): the action played (FORBIDDEN: the chart's is not allowed)
    natural: np.ndarray  # (M, 10): P(dealer Natural | hand, up card)


@kernel(inline=True)
def _double_allowed(hard, soft, double_on):
    """May a two-card hand of this total double under the rule ``double_on`` (DOUBLE_*)?"""
    if double_on == DOUBLE_9_11:
        return (not soft) and 9 <= hard <= 11
    if double_on == DOUBLE_10_11:
        return (not soft) and 10 <= hard <= 11
    return True


# The helpers below are inlined into :func:`_solve` and take arrays and numbers, not the
# NamedTuples that hold them (an inlined helper taking a NamedTuple of arrays costs the loop
# the reference counts of every array in it).


@kernel(inline=True)
def _may_double(hard, soft, cards, split, codes):
    if cards != 2 and not codes.double_after_hit:
        return False
    if split and not codes.double_after_split:
        return False
    if soft and not codes.double_soft:
        return False
    return _double_allowed(hard, soft, codes.double_on)


@kernel_face(_may_double)
def may_double(hard: int, soft: bool, cards: int, split: bool, codes: RuleCodes) -> bool:
    """May a live hand double: two cards (any number with ``double_after_hit``), a split
    hand only with ``double_after_split``, a soft hand only with ``double_soft``, and the
    total one ``double_on`` allows. The exact engine, the simulator's round kernel and its
    chart tables all ask here, so they agree on every hand.

    Parameters
    ----------
    hard : int
        The hand's total with every ace counted 1.
    soft : bool
        Whether an ace counts 11 in it.
    cards : int
        Cards the hand holds.
    split : bool
        Whether it is a hand of a split pair.
    codes : RuleCodes
        The rules (:func:`gamecore.blackjack.rules.rule_codes`).

    Returns
    -------
    bool
        True where the rules let the hand double.
    """
    return bool(_may_double(hard, soft, cards, split, codes))


@kernel(inline=True)
def _allowed(hard, soft, cards, up, split_rank, codes, natural_hand):
    """(can stand, can hit, can double, can surrender) at a live hand."""
    total = hard + 10 if soft else hard
    split_context = split_rank >= 0
    if natural_hand:
        return True, False, False, False
    if split_context and split_rank == ACE and codes.split_aces_one_card:
        return True, False, False, False
    forced = codes.forced_totals
    forced_hit = forced and ((not soft and hard <= 11) or (soft and total <= 17))
    forced_stand = forced and total >= 20
    can_double = _may_double(hard, soft, cards, split_context, codes)
    can_surrender = False
    if not split_context:
        if codes.surrender == SURRENDER_LATE:
            can_surrender = cards == 2
        elif codes.surrender == SURRENDER_ANY_CARDS:
            can_surrender = up != ACE and up != TEN
    return not forced_hit, not forced_stand, can_double, can_surrender


@kernel(inline=True)
def _shoe_behind(counts, i, base, up, shoe):
    """Fill ``shoe`` with ``base`` less hand ``i``'s cards and the up card (-1: none); its
    size, or -1 when the hand or the up card is not there to be dealt."""
    ok = True
    n = 0
    for r in range(10):
        shoe[r] = base[r] - counts[i, r] - (1 if r == up else 0)
        if shoe[r] < 0:
            ok = False
        n += shoe[r]
    return n if ok else -1


@kernel(inline=True)
def _stand_value(total, cards, bust, dealers, row, up, codes, natural_hand):
    """Standing on a hand of ``total`` (its best total: a busted hand is never soft, so its
    hard total; also the settlement of a busted hand kept for the bust push) against the
    dealer's final distribution ``dealers[row, up]`` (read in place: a view per hand would
    cost the loop its reference counts)."""
    p_nat = dealers[row, up, NATURAL]
    if natural_hand:
        return codes.natural_pays * (1.0 - p_nat)
    s = 0.0
    if bust:
        pushes = codes.bust_push and cards == 3 and 23 <= total <= 25
        for d in range(10):
            if d >= 5 and pushes and total < 17 + d:
                continue  # push: the dealer's total is farther from 21.5
            s -= dealers[row, up, d]
    else:
        for d in range(5):
            if total > 17 + d:
                s += dealers[row, up, d]
            elif total < 17 + d:
                s -= dealers[row, up, d]
        for d in range(5, 10):
            s += dealers[row, up, d]
    if not codes.peek:
        s -= p_nat
    return s


@kernel(inline=True)
def _draw_values(children, bust, up, shoe, n, peek, value, stand):
    """(hit, double / 2) at a hand whose ``children`` are the hands one card more (its row of
    the tree's ``child``): the next card drawn from ``shoe`` (``n`` cards), the hand then
    played on (hit) or standing (double). A plain bust loses the wager, but under the peek
    not to a dealer Natural, whose loss is booked once for the round."""
    h = 0.0
    dbl = 0.0
    per_card = 1.0 / n
    # The hole card that makes a Natural under this up card, and how many are left.
    hole = TEN if up == ACE else (ACE if up == TEN else -1)
    holes = shoe[hole] if hole >= 0 else 0
    per_hole_card = 1.0 / (n - 1) if n > 1 else 0.0
    for c in range(10):
        if shoe[c] == 0:
            continue
        pc = shoe[c] * per_card
        j = children[c]
        if j >= 0:
            h += pc * value[j, up]
            dbl += pc * (value[j, up] if bust[j] else stand[j, up])
        else:
            lose = -1.0
            if peek:
                lose += (holes - (1 if c == hole else 0)) * per_hole_card
            h += pc * lose
            dbl += pc * lose
    return h, dbl


@kernel(inline=True)
def _first_within_tie(v0, v1, v2, v3, otherwise):
    """Of four action values (-inf or NaN: not allowed), the index of the first within
    :data:`TIE` of the highest, ``otherwise`` where none is allowed. Straight-line selects,
    not loops over the actions: which action is best changes from hand to hand, and the
    loops' mispredicted branches were a large share of a solve (this form, far less)."""
    top = -np.inf
    top = v0 if v0 > top else top  # NaN compares false: never the top
    top = v1 if v1 > top else top
    top = v2 if v2 > top else top
    top = v3 if v3 > top else top
    if top == -np.inf:
        return otherwise
    low = top - TIE
    if v0 >= low:
        return 0
    if v1 >= low:
        return 1
    if v2 >= low:
        return 2
    return 3 if v3 >= low else otherwise


@kernel(inline=True)
def _best_action(ev, i, up):
    """The allowed action of the highest value, the first of S H D R within :data:`TIE` of
    it (:func:`gamecore.blackjack.rules.best_action`)."""
    return _first_within_tie(ev[i, up, 0], ev[i, up, 1], ev[i, up, 2], ev[i, up, 3], -1)


@kernel(inline=True)
def _reference_action(ev, reference, i, up):
    """Among the actions allowed here, the one best for the same cards in the reference
    shoe (the unsplit hand for CDZ-; one pair card out for CDP1), the first of S H D R
    within :data:`TIE` of the best there; the first allowed action where the reference
    allows none of them."""
    ok0, ok1 = ev[i, up, 0] == ev[i, up, 0], ev[i, up, 1] == ev[i, up, 1]  # not NaN
    ok2, ok3 = ev[i, up, 2] == ev[i, up, 2], ev[i, up, 3] == ev[i, up, 3]
    first = 0 if ok0 else (1 if ok1 else (2 if ok2 else (3 if ok3 else -1)))
    return _first_within_tie(
        reference[i, up, 0] if ok0 else -np.inf,
        reference[i, up, 1] if ok1 else -np.inf,
        reference[i, up, 2] if ok2 else -np.inf,
        reference[i, up, 3] if ok3 else -np.inf,
        first,
    )


@kernel(inline=True)
def _chart_action(pair, total, soft, up, chart, pair_play, can_d, can_r):
    """A chart's action at a hand that may do more than stand: a two-card pair (``pair``
    its rank, else -1) by its pair row, any other hand by its hard/soft row."""
    cd = 1 if can_d else 0
    cr = 1 if can_r else 0
    if pair >= 0:
        return pair_play[pair, up, cd, cr]
    return chart[1 if soft else 0, total, up, cd, cr]


@kernel(inline=True)
def _natural_hand(counts, i, cards, split_rank):
    """Whether hand ``i`` is a player Natural: an Ace and a ten-valued card, unsplit (the
    same two cards of a split hand are a plain 21)."""
    return split_rank < 0 and cards == 2 and counts[i, ACE] == 1 and counts[i, TEN] == 1


@kernel(inline=True)
def _pair_rank(counts, i, cards):
    """The rank of a two-card pair, -1 for any other hand."""
    if cards != 2:
        return -1
    for r in range(10):
        if counts[i, r] == 2:
            return r
    return -1


@kernel
def _solve(tree, context, dealers, codes, policy, only_up):
    """Values of every hand of ``context`` against every up card (or ``only_up`` if >= 0),
    hands with more cards first (a hit's value needs its children's).

    The dealer's final distribution behind hand ``i`` with up card ``up`` is
    ``dealers[context.rows[i], up]`` (``Engine._dealer_rows``). Returns the arrays of
    :class:`Solved`.
    """
    counts, hard, soft, cards, bust, child, order = tree
    mask, base, rows, split_rank = context
    kind, reference = policy.kind, policy.reference
    chart, pair_play = policy.tables.chart, policy.tables.pair_play
    m = counts.shape[0]
    ev = np.full((m, 10, 4), np.nan)
    value = np.full((m, 10), np.nan)
    action = np.full((m, 10), -1, dtype=np.int64)
    natural = np.zeros((m, 10))
    stand = np.zeros((m, 10))
    shoe = np.zeros(10, dtype=np.int64)
    one_card = split_rank == ACE and codes.split_aces_one_card
    # Hand by hand, every up card within (a hand's arrays are rows: one cache line each).
    for idx in range(order.size):
        i = order[idx]
        if not mask[i]:
            continue
        # The shoe behind the hand, before the up card is taken from it.
        n_behind = _shoe_behind(counts, i, base, -1, shoe)
        if n_behind < 0:
            continue  # the hand is not there to be dealt
        row, children = rows[i], child[i]
        natural_hand = _natural_hand(counts, i, cards[i], split_rank)
        # What a chart reads at this hand, the same against every up card.
        total = hard[i] + 10 if soft[i] else hard[i]
        pair = _pair_rank(counts, i, cards[i]) if kind == POLICY_CHART else -1
        stands = natural_hand or one_card
        for up in range(10):
            if base[up] == 0 or (only_up >= 0 and up != only_up):
                continue
            if shoe[up] == 0 or n_behind < 2:
                continue  # no up card left to show, or no card for the hole
            shoe[up] -= 1  # the up card out; back at the end of this up card's pass
            n = n_behind - 1
            natural[i, up] = dealers[row, up, NATURAL]
            s = _stand_value(total, cards[i], bust[i], dealers, row, up, codes, natural_hand)
            ev[i, up, STAND] = s
            stand[i, up] = s
            if bust[i]:
                value[i, up] = s
                action[i, up] = STAND
                shoe[up] += 1
                continue
            can_s, can_h, can_d, can_r = _allowed(
                hard[i], soft[i], cards[i], up, split_rank, codes, natural_hand
            )
            if not can_s:
                ev[i, up, STAND] = np.nan
            if can_h or can_d:
                h, dbl = _draw_values(children, bust, up, shoe, n, codes.peek, value, stand)
                if can_h:
                    ev[i, up, HIT] = h
                if can_d:
                    ev[i, up, DOUBLE] = 2.0 * dbl
            if can_r:
                ev[i, up, SURRENDER] = -0.5 * (1.0 - natural[i, up] if codes.peek else 1.0)
            if kind == POLICY_OPTIMAL:
                best = _best_action(ev, i, up)
            elif kind == POLICY_REFERENCE:
                best = _reference_action(ev, reference, i, up)
            else:
                best = STAND
                if not stands:
                    best = _chart_action(pair, total, soft[i], up, chart, pair_play, can_d, can_r)
                if best < 0 or np.isnan(ev[i, up, best]):
                    best = FORBIDDEN  # the chart asks for an action the rules forbid here
            action[i, up] = best
            if best >= 0:
                value[i, up] = ev[i, up, best]
            shoe[up] += 1
    return ev, value, action, natural


#: :func:`_reached` marks: a hand no round reaches, one reached as a double's third card
#: (settled, no decision), one a player holds and plays.
UNREACHED, SETTLED, PLAYED = 0, 1, 2


@kernel
def _reached(tree, hands, split_rank, codes):
    """How a round reaches each hand of ``hands`` (:data:`PLAYED`, :data:`SETTLED` or
    :data:`UNREACHED`): the two-card hands are played; a played hand that may hit passes
    the mark to each hand one card more, one that may double its third card settled.

    A forced stand (c21: 20 and 21) leaves the hands above it that no other order of the
    same cards reaches unplayed: nothing is computed for them, no dealer distribution.
    """
    out = np.zeros(tree.cards.size, dtype=np.int64)
    for idx in range(tree.order.size - 1, -1, -1):  # fewest cards first
        i = tree.order[idx]
        if not hands[i]:
            continue
        if tree.cards[i] == 2:
            out[i] = PLAYED
        if out[i] != PLAYED or tree.bust[i]:
            continue
        natural_hand = _natural_hand(tree.counts, i, tree.cards[i], split_rank)
        _s, can_h, can_d, _r = _allowed(
            tree.hard[i], tree.soft[i], tree.cards[i], 0, split_rank, codes, natural_hand
        )
        for c in range(10):
            j = tree.child[i, c]
            if j < 0 or not hands[j]:
                continue
            if can_h:
                out[j] = PLAYED
            elif can_d:
                out[j] = max(out[j], SETTLED)
    return out


def solve_context(
    tree: HandTree,
    context: Context,
    dealers: np.ndarray,
    codes: RuleCodes,
    policy: Policy,
    only_up: int = -1,
) -> Solved:
    """The values of every hand of one context against every up card, by one backward pass.

    Parameters
    ----------
    tree : HandTree
        The shoe's hand tree (:func:`gamecore.blackjack.hand_tree.hand_tree`).
    context : Context
        The hands played and the shoe behind them, each hand's row of ``dealers``.
    dealers : numpy.ndarray
        float64 ``(rows, 10, outcomes)``: the dealer's final distribution by row, up card
        and outcome (17..21, busts 22..26, the Natural: :data:`~gamecore.blackjack.rules.NATURAL`).
    codes : RuleCodes
        The rules as numbers.
    policy : Policy
        How the action played at each hand is chosen.
    only_up : int, default -1
        Solve against this up card only (rank index), every up card when -1.

    Returns
    -------
    Solved
        Each action's value ``ev`` ``(M, 10, 4)``, the played action's ``value`` and the
        ``action`` ``(M, 10)``, and ``natural``, P(dealer Natural | hand, up card).
    """
    return Solved(*_solve(tree, context, dealers, codes, policy, only_up))


def reach_marks(tree: HandTree, hands: np.ndarray, split_rank: int, codes: RuleCodes) -> np.ndarray:
    """How a round reaches each hand: :data:`PLAYED`, :data:`SETTLED` (a double's third
    card) or :data:`UNREACHED`.

    The two-card hands are played; a played hand that may hit passes the mark to each hand
    one card more, one that may double its third card settled. A forced stand (c21: 20 and
    21) leaves unplayed the hands above it that no other order of the same cards reaches.

    Parameters
    ----------
    tree : HandTree
        The shoe's hand tree.
    hands : numpy.ndarray
        int64 ``(M,)``: nonzero for the hands the context may hold (a split's: those holding
        the pair card).
    split_rank : int
        The pair split (rank index), -1 for the unsplit hands.
    codes : RuleCodes
        The rules as numbers.

    Returns
    -------
    numpy.ndarray
        int64 ``(M,)``: each hand's mark.
    """
    return _reached(tree, hands, split_rank, codes)
