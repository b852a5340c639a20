"""The exact combinatorial analysis (CA) engine of blackjack and New 21st Century Blackjack.

Central idea
------------
As in Eric Farmer's analyzer, everything is built on **the dealer's final distribution,
computed for the exact remaining-shoe composition behind each player hand**. The dealer's
possible hands are enumerated once per up card as multisets of drawn cards, each with the
number of its orderings the dealer's drawing rule actually produces (a table that depends on
the rules only, never on the shoe). For any remaining shoe the probability of a dealer hand is
then ``orderings * prod_r ff(n_r, k_r) / ff(n, k)`` (``ff`` the falling factorial), so the
final distribution over 17..21, each bust total 22..26 and the Natural costs one pass over
that table (stored as a prefix tree, so hands sharing cards share their products). Every
player hand composition (the cards it holds) fixes the remaining shoe, and with it the
dealer's distribution; stand, hit, double and surrender values follow by one backward pass
over the compositions (more cards first), cards drawn without replacement from the shoe less
every card seen. The dealer's distribution is computed once for each distinct set of cards
taken from the shoe, and shared by the unsplit hands, every split and every chart evaluated.

Conventions
-----------
* Ranks are indexed 0..9 for A, 2, ..., 9, 10 (J, Q, K count as 10: the four ten-valued ranks
  are one class, so any two ten-valued cards are a pair, as seed 004 allows).
* EVs are per unit of initial wager (fractions, not percent), positive when the player wins.
* With the peek (dealer checks for a Natural under an Ace or a 10), a hand's values are
  computed as ``E[result * 1{no dealer Natural}]``: the hole card is treated as drawn after the
  player's cards, which by exchangeability leaves every probability unchanged, and comparing
  actions at one hand is unaffected because every action shares the factor
  ``P(no Natural | hand)``. The round's EV adds ``-P(Natural)`` (a player Natural pushes).
* The round around these values (the two cards, Naturals, early surrender, the split
  decision, a split hand's second card) is modelled once, in :mod:`gamecore.blackjack.round`.
* Splits: post-split play follows pre-split composition-dependent play ("CDZ-", Farmer's
  term): at every split hand the action is the one that is best for the same cards in an
  unsplit hand (among the actions allowed after a split), and resplitting happens whenever
  allowed. Its EV is exact: the split hands' second cards are resolved first (which, the play
  of each hand depending on its own cards only, leaves the joint law of every hand's cards and
  the dealer's unchanged); the value of a hand then depends only on how many extra pair cards
  are on the table and how many other second cards are known not to be pair cards, and a
  card of unknown rank removed from the shoe is eliminated by the identity
  ``EV(shoe) = P(pair card) EV(shoe - pair) + P(other) EV(shoe - other)`` (the method of
  Farmer's "blackjack_split" note, derived independently here).
* Only the hands a round reaches are played (:func:`_reached`): the two-card hands and what
  hitting and doubling them reach. A forced stand (c21: 20 and 21) leaves some compositions
  no order of their cards reaches (eleven Aces: ten are a soft 20); they get no dealer
  distribution and no values.
* A total-dependent chart (see :func:`read_strategy_chart`) is evaluated exactly in the same
  way, its actions replacing the optimal ones. The best chart is searched for in
  :mod:`gamecore.blackjack.search`; the probability of each final result (not just its mean)
  is in :mod:`gamecore.blackjack.results`.
* **Floats.** Unlike the baccarat engines (exact integer counts), these are recursions over
  probabilities in float64; figures agree with the slow pure-Python reference
  (``tests/naive_blackjack.py``) to about 1e-12.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.caches import EngineCaches
from gamecore.blackjack.chart import ChartTables, StrategyChart, up_label
from gamecore.blackjack.dealer import dealer_rows
from gamecore.blackjack.dealer_hands import dealer_table
from gamecore.blackjack.hash_table import hash_slot
from gamecore.blackjack.round import extra_pairs_needed, split_coefficients
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    DOUBLE_9_11,
    DOUBLE_10_11,
    HIT,
    NATURAL,
    SPLIT_CDP,
    SPLIT_CDP1,
    STAND,
    SURRENDER,
    SURRENDER_ANY_CARDS,
    SURRENDER_LATE,
    TEN,
    TIE,
    StandardBlackjackRules,
    hand_total,
    rule_codes,
    shoe_composition,
)
from gamecore.errors import GamecoreError
from gamecore.parallel import default_threads, map_in_order

# ---------------------------------------------------------------------------------------
# Player hand compositions, once per shoe
# ---------------------------------------------------------------------------------------


class HandTree(NamedTuple):
    """Every player hand composition the analysis can meet, with its hit links."""

    counts: np.ndarray  # (M, 10) cards per rank
    hard: np.ndarray  # (M,) total with aces as 1
    soft: np.ndarray  # (M,) an ace counts 11
    cards: np.ndarray  # (M,)
    bust: np.ndarray  # (M,) a busted hand kept as a leaf
    child: np.ndarray  # (M, 10) node after drawing rank r, -1 if a plain bust
    order: np.ndarray  # node indices, most cards first


@functools.lru_cache(maxsize=8)
def hand_tree(
    shoe: tuple[int, ...], keep_bust_push: bool
) -> tuple[HandTree, dict[tuple[int, ...], int]]:
    """Every hand composition reachable from the empty hand by hitting while live, and the
    node of each composition (cards per rank).

    A busted hand is a node (a leaf) when the bust push may save it (three cards, 23..25,
    ``keep_bust_push``); otherwise a bust is ``child == -1``.
    """
    found: list[tuple[int, ...]] = []

    def grow(counts: list[int], low: int, hard: int) -> None:
        found.append(tuple(counts))
        for r in range(low, 10):
            if counts[r] >= shoe[r]:
                continue
            new_hard = hard + r + 1
            cards = sum(counts) + 1
            if new_hard <= 21:
                counts[r] += 1
                grow(counts, r, new_hard)
                counts[r] -= 1
            elif keep_bust_push and cards == 3 and 23 <= new_hard <= 25:
                counts[r] += 1
                found.append(tuple(counts))
                counts[r] -= 1

    grow([0] * 10, 0, 0)
    index = {c: i for i, c in enumerate(found)}
    counts = np.array(found, dtype=np.int64)
    hard = counts @ np.arange(1, 11)
    cards = counts.sum(axis=1)
    soft = (counts[:, ACE] > 0) & (hard + 10 <= 21)
    bust = hard > 21
    # Hit links by each composition's number in a mixed radix, digit r running to one past
    # the most cards of rank r a hand holds (at most 21 Aces: the numbers stay below 1e9
    # whatever the shoe): adding a card of rank r adds radix[r], never a carry.
    radix = np.cumprod([1, *(counts.max(axis=0)[:-1] + 2)])
    code = counts @ radix
    by_code = np.argsort(code)
    sorted_code = code[by_code]
    child = np.full((len(found), 10), -1, dtype=np.int64)
    for r in range(10):
        at = np.minimum(np.searchsorted(sorted_code, code + radix[r]), len(found) - 1)
        grows = ~bust & (counts[:, r] < shoe[r]) & (sorted_code[at] == code + radix[r])
        child[grows, r] = by_code[at[grows]]
    order = np.argsort(-cards, kind="stable").astype(np.int64)
    return HandTree(counts, hard, soft, cards, bust, child, order), index


# ---------------------------------------------------------------------------------------
# The backward pass
# ---------------------------------------------------------------------------------------

#: How the action at each hand is chosen: the best; for a split hand the best for the same
#: cards unsplit (CDZ-); a chart's.
POLICY_OPTIMAL, POLICY_REFERENCE, POLICY_CHART = 0, 1, 2
#: ``action`` of a hand whose chart cell asks for an action the rules forbid there.
FORBIDDEN = -2


class Context(NamedTuple):
    """The hands played with one shoe behind them (:meth:`Engine.context`)."""

    mask: np.ndarray  # int64 (M,): the hands played
    base: np.ndarray  # int64 (10,): the shoe before the up card and the hand are removed
    rows: np.ndarray  # int64 (M,): each hand's row of the dealer table, -1 where unplayed
    split_rank: int  # the pair split, -1 for the unsplit hands


class Policy(NamedTuple):
    """How :func:`_solve` chooses the action played at each hand."""

    kind: int  # POLICY_OPTIMAL, POLICY_REFERENCE or POLICY_CHART
    reference: np.ndarray  # (M, 10, 4): the unsplit values, for POLICY_REFERENCE
    tables: ChartTables  # the chart, for POLICY_CHART


class Solved(NamedTuple):
    """A context's values against each up card (nan where an action is not allowed)."""

    ev: np.ndarray  # (M, 10, 4): each action's value, S H D R
    value: np.ndarray  # (M, 10): the value of the action played
    action: np.ndarray  # (M, 10): the action played (FORBIDDEN: the chart's is not allowed)
    natural: np.ndarray  # (M, 10): P(dealer Natural | hand, up card)


#: ``each_solve(key, solved)``: a consumer of the split contexts' solves, ``key`` the
#: context's ``(pair rank, extra pair cards out)`` (:meth:`Engine.split_values`).
EachSolve = Callable[[tuple[int, int], Solved], None]


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
def may_double(hard, soft, cards, split, codes):
    """May a live hand double: two cards (any number with ``double_after_hit``), a split
    hand only with ``double_after_split``, a soft hand only with ``double_soft``, and the
    total one ``double_on`` allows."""
    if cards != 2 and not codes.double_after_hit:
        return False
    if split and not codes.double_after_split:
        return False
    if soft and not codes.double_soft:
        return False
    return _double_allowed(hard, soft, codes.double_on)


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
    can_double = may_double(hard, soft, cards, split_context, codes)
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
def _stand_value(hard, soft, cards, bust, dealers, row, up, codes, natural_hand):
    """Standing on a hand (also the settlement of a busted hand kept for the bust push)
    against the dealer's final distribution ``dealers[row, up]`` (read in place: a view
    per hand would cost the loop its reference counts)."""
    p_nat = dealers[row, up, NATURAL]
    if natural_hand:
        return codes.natural_pays * (1.0 - p_nat)
    s = 0.0
    if bust:
        pushes = codes.bust_push and cards == 3 and 23 <= hard <= 25
        for d in range(10):
            if d >= 5 and pushes and hard < 17 + d:
                continue  # push: the dealer's total is farther from 21.5
            s -= dealers[row, up, d]
    else:
        total = hard + 10 if soft else hard
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
def _draw_values(child, bust, i, up, shoe, n, peek, value, stand):
    """(hit, double / 2) at hand ``i``: the next card drawn from ``shoe`` (``n`` cards), the
    hand then played on (hit) or standing (double). A plain bust loses the wager, but under
    the peek not to a dealer Natural, whose loss is booked once for the round."""
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
        j = child[i, c]
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
def _chart_action(pair, total, soft, up, stands, chart, pair_play, can_d, can_r):
    """A chart's action at a hand: a two-card pair (``pair`` its rank, else -1) by its pair
    row, any other hand by its hard/soft row; ``stands`` where the hand can only stand."""
    cd = 1 if can_d else 0
    cr = 1 if can_r else 0
    if stands:
        return STAND
    if pair >= 0:
        return pair_play[pair, up, cd, cr]
    return chart[1 if soft else 0, total, up, cd, cr]


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
    ``dealers[context.rows[i], up]`` (:meth:`Engine._dealer_rows`). Returns the arrays of
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
        row = rows[i]
        natural_hand = (
            split_rank < 0 and cards[i] == 2 and counts[i, ACE] == 1 and counts[i, TEN] == 1
        )
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
            s = _stand_value(
                hard[i], soft[i], cards[i], bust[i], dealers, row, up, codes, natural_hand
            )
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
                h, dbl = _draw_values(child, bust, i, up, shoe, n, codes.peek, value, stand)
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
                best = _chart_action(
                    pair, total, soft[i], up, stands, chart, pair_play, can_d, can_r
                )
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
        natural_hand = (
            split_rank < 0
            and tree.cards[i] == 2
            and tree.counts[i, ACE] == 1
            and tree.counts[i, TEN] == 1
        )
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


# ---------------------------------------------------------------------------------------
# The engine: one shoe's hands, dealer rows and values
# ---------------------------------------------------------------------------------------


@kernel
def _number_rows(counts, order, shoe, masks, extras, rows, first):
    """Number the distinct sets of cards the played hands remove (hand ``i`` of context
    ``k`` removes ``counts[i] + extras[k]``; played where ``masks[k, i]`` and the shoe holds
    them) in order of first appearance, context by context, each context's hands in the
    order its solve visits them (``order``): ``rows[k, i]`` (-1: not played), one ``(k, i)``
    per set in ``first``. Returns the number of sets.

    Numbered in the order the solves visit the hands, the rows are read from the dealer
    table more nearly in sequence, which makes the optimal pass's solves faster."""
    most = np.zeros(10, dtype=np.int64)
    for r in range(10):
        for i in range(counts.shape[0]):
            most[r] = max(most[r], counts[i, r])
    radix = np.ones(10, dtype=np.int64)
    for r in range(1, 10):
        radix[r] = radix[r - 1] * (most[r - 1] + np.max(extras[:, r - 1]) + 1)
    size = 1
    while size < 2 * masks.size:
        size *= 2
    table = np.full((size, 2), -1, dtype=np.int64)
    found = 0
    for k in range(masks.shape[0]):
        for idx in range(order.size):
            i = order[idx]
            rows[k, i] = -1
            if not masks[k, i]:
                continue
            code = 0
            fits = True
            for r in range(10):
                taken = counts[i, r] + extras[k, r]
                fits = fits and taken <= shoe[r]
                code += taken * radix[r]
            if not fits:
                continue
            slot = hash_slot(table, code)
            if table[slot, 0] == -1:
                table[slot, 0], table[slot, 1] = code, found
                first[found, 0], first[found, 1] = k, i
                found += 1
            rows[k, i] = table[slot, 1]
    return found


class Engine:
    """Holds the tables of one rule set and runs the contexts of one analysis.

    A *context* is the set of hands played with one shoe behind them: the unsplit hands
    (key ``(-1, 0)``), or the hands of a split of pair rank ``p`` with ``a`` further pair
    cards removed (key ``(p, a)``). The dealer's distributions of every context are computed
    once, up front, for each distinct set of cards removed from the shoe, and shared by the
    optimal pass and every chart pass.
    """

    def __init__(
        self,
        rules: StandardBlackjackRules,
        composition: np.ndarray | None = None,
    ):
        self.rules = rules.resolved()
        self.codes = rule_codes(self.rules)
        self.shoe = (
            shoe_composition(self.rules.decks) if composition is None else composition.copy()
        )
        self.nodes, self.node_index = hand_tree(
            tuple(int(c) for c in self.shoe), self.codes.bust_push
        )
        self.dealer = dealer_table(self.codes.hits_soft_17)
        #: How a round reaches each hand, unsplit (-1) and split from each rank.
        self.reached: dict[int, np.ndarray] = {}
        self._no_reference = np.zeros((1, 1, 4))
        self._no_chart = ChartTables(
            np.zeros((2, 32, 10, 2, 2), dtype=np.int64),
            np.zeros((10, 10, 2, 2), dtype=np.int64),
            np.zeros((10, 10, 2), dtype=np.bool_),
        )
        self.split_extras = {
            p: min(extra_pairs_needed(self.max_hands(p)), int(self.shoe[p]) - 2)
            for p in range(10)
            if self.max_hands(p) >= 2 and self.shoe[p] >= 2
        }
        keys = [(-1, 0)] + [(p, a) for p, e in self.split_extras.items() for a in range(e + 1)]
        self.rows, self.dealers = self._dealer_rows(keys)
        #: Tables derived from this shoe once and reused (openings, second cards, ...).
        self.caches = EngineCaches(self)
        self._contexts: dict[tuple[int, int], Context] = {}

    def _played_and_base(self, split_rank: int, extra: int) -> tuple[np.ndarray, np.ndarray]:
        """(mask of the hands a round reaches, shoe before the up card and the hand are
        removed)."""
        nd, p = self.nodes, split_rank
        if p not in self.reached:
            # The hands holding the split card (every hand unsplit), two cards or more.
            hands = (nd.cards >= 2) & ((nd.counts[:, p] >= 1) if p >= 0 else True)
            self.reached[p] = _reached(nd, hands.astype(np.int64), p, self.codes)
        mask = (self.reached[p] != UNREACHED).astype(np.int64)
        if p < 0:
            return mask, self.shoe
        base = self.shoe.copy()
        base[p] -= 1 + extra
        return mask, base

    def context(self, split_rank: int = -1, extra: int = 0) -> Context:
        """The unsplit hands (``split_rank`` -1) or the hands of a split of ``split_rank``
        with ``extra`` further pair cards removed (made once per engine; read-only)."""
        key = (split_rank, extra)
        if key not in self._contexts:
            mask, base = self._played_and_base(split_rank, extra)
            self._contexts[key] = Context(mask, base.astype(np.int64), self.rows[key], split_rank)
        return self._contexts[key]

    def _dealer_rows(self, keys):
        """Every context's hands mapped to rows of one table of dealer distributions.

        A hand of a context removes its own cards and the context's extra pair cards from
        the shoe; hands removing the same cards (in whichever context) share one row. Returns
        ({key: row per hand, -1 where unplayed}, dealers[rows, up card, outcome]).
        """
        nd = self.nodes
        masks = np.empty((len(keys), len(nd.counts)), dtype=np.int64)
        extras = np.empty((len(keys), 10), dtype=np.int64)
        for k, key in enumerate(keys):
            masks[k], base = self._played_and_base(*key)
            extras[k] = self.shoe - base
        rows = np.empty_like(masks)
        first = np.empty((masks.size, 2), dtype=np.int64)
        count = _number_rows(nd.counts, nd.order, self.shoe, masks, extras, rows, first)
        removed = nd.counts[first[:count, 1]] + extras[first[:count, 0]]
        dealers = dealer_rows(self.shoe, removed, self.dealer)
        return {key: rows[k] for k, key in enumerate(keys)}, dealers

    def solve(
        self,
        split_rank: int = -1,
        extra: int = 0,
        policy: int = POLICY_OPTIMAL,
        reference: np.ndarray | None = None,
        tables: ChartTables | None = None,
        only_up: int = -1,
    ) -> Solved:
        """The values of one context's hands (:class:`Solved`), the action at each hand
        chosen by ``policy`` (``reference``: the unsplit values, ``tables``: a chart's)."""
        how = Policy(
            policy,
            self._no_reference if reference is None else reference,
            self._no_chart if tables is None else tables,
        )
        context = self.context(split_rank, extra)
        return Solved(*_solve(self.nodes, context, self.dealers, self.codes, how, only_up))

    def solve_optimal(
        self, only_up: int = -1, each_solve: EachSolve | None = None
    ) -> tuple[Solved, np.ndarray]:
        """Optimal composition-dependent play: the unsplit hands' values, then the split
        values with split hands played as the rules' ``split_strategy`` says: CDZ- (the
        unsplit choice for the same cards), CDP1 (the best choice in the context of one more
        pair card out, whatever the number of hands) or CDP (the best choice in each
        context). ``each_solve`` is called with each split context's solve (as in
        :meth:`split_values`)."""
        solved = self.solve(only_up=only_up)
        if self.codes.split_strategy == SPLIT_CDP:
            split = self.split_values(None, POLICY_OPTIMAL, None, only_up, each_solve)
        elif self.codes.split_strategy == SPLIT_CDP1:
            reference = {
                p: self.solve(p, 0, POLICY_OPTIMAL, only_up=only_up).ev for p in self.split_extras
            }
            split = self.split_values(reference, POLICY_REFERENCE, None, only_up, each_solve)
        else:
            split = self.split_values(solved.ev, POLICY_REFERENCE, None, only_up, each_solve)
        return solved, split

    def size(self) -> dict[str, int]:
        """How much an analysis with this engine computes, counted (not timed): its
        contexts, the hands they play (a hand counted once per context it is played in) and
        the distinct dealer distributions they share (rows, each against every up card)."""
        return {
            "contexts": len(self.rows),
            "hands_played": int(sum(int(self.context(*key).mask.sum()) for key in self.rows)),
            "dealer_rows": int(self.dealers.shape[0]),
        }

    def max_hands(self, rank: int) -> int:
        """The most hands a pair of ``rank`` may be split to (1: no split).

        Parameters
        ----------
        rank : int

        Returns
        -------
        int
        """
        return self.codes.max_ace_hands if rank == ACE else self.codes.max_hands

    def split_values(
        self,
        reference_ev,
        policy,
        tables,
        only_up: int = -1,
        each_solve: EachSolve | None = None,
    ) -> np.ndarray:
        """EV (unnormalized under the peek) of splitting each pair against each up card
        (only ``only_up`` if >= 0), split hands playing by ``policy`` (``reference_ev``: the
        values :data:`POLICY_REFERENCE` follows, one array for every pair or one per pair
        rank in a dict). ``each_solve(key, solved)``, if given, is called with each split
        context's ``(pair, extra pair cards)`` and solve as it comes, in key order (a
        consumer keeps what it needs; the solve itself is dropped)."""
        out = np.full((10, 10), np.nan)
        ups = range(10) if only_up < 0 else (only_up,)
        keys = [(p, a) for p, extra in self.split_extras.items() for a in range(extra + 1)]
        ev_x = {key: np.zeros(10) for key in keys}  # a split hand's value, the second card
        ev_p = {key: np.zeros(10) for key in keys}  # ... when that card is a pair card
        # The contexts are independent: solved on every core (the kernel releases the GIL),
        # each one's values read as it comes and then dropped (a few solved ahead only).
        # Against one up card a solve is quicker than handing it to a thread and back:
        # those are solved here, one after another.
        reference = (
            reference_ev
            if isinstance(reference_ev, dict)
            else dict.fromkeys(self.split_extras, reference_ev)
        )

        def solve(key):
            return self.solve(*key, policy, reference[key[0]], tables, only_up)

        def read(solves) -> None:
            for (p, a), solved in zip(keys, solves, strict=True):
                if each_solve is not None:
                    each_solve((p, a), solved)
                for up in ups:
                    second = self.caches.second_cards(p, a, up)
                    if second is None:
                        continue
                    ev_x[(p, a)][up] = second.average(solved.value[:, up])
                    if second.pair_node >= 0:
                        ev_p[(p, a)][up] = solved.value[second.pair_node, up]

        if only_up >= 0:
            read(map(solve, keys))
        else:
            threads = default_threads()
            with ThreadPoolExecutor(threads) as pool:
                read(map_in_order(pool, solve, keys, window=2 * threads))
        for p, extra in self.split_extras.items():
            for up in ups:
                shoe = self.shoe.copy()
                shoe[up] -= 1
                shoe[p] -= 2
                if shoe.min() < 0:
                    continue
                # split_value through its linear map (the terms a pattern can reach only).
                cx, cp = split_coefficients(int(shoe[p]), int(shoe.sum()), self.max_hands(p), extra)
                value = 0.0
                for a in range(extra + 1):
                    if cx[a] != 0.0:
                        value += cx[a] * ev_x[(p, a)][up]
                    if cp[a] != 0.0:
                        value += cp[a] * ev_p[(p, a)][up]
                out[p, up] = value
        return out


def refuse_forbidden(action: np.ndarray, engine: Engine, chart: StrategyChart) -> None:
    """Refuse a chart whose cell asks, at some hand it reaches, for an action not allowed.

    Parameters
    ----------
    action : numpy.ndarray
        The actions a solve chose, by hand node and up card (FORBIDDEN where not allowed).
    engine : Engine
    chart : StrategyChart
        The engine solved and the chart (named in the message).
    """
    bad = np.argwhere(action == FORBIDDEN)
    if bad.size:
        i, up = bad[0]
        total, soft = hand_total(engine.nodes.counts[i])
        raise GamecoreError(
            f"{chart.name}: the cell for {'soft' if soft else 'hard'} {total} vs "
            f"{up_label(int(up))} asks for an action the rules do not allow there"
        )
