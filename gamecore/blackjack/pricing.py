"""A chart's exact EV against each up card, with the sums that price every single-cell change.

Central idea
------------
A total-dependent chart plays every hand of a total the same way, two-card and multi-card,
unsplit and split. Its exact EV against one up card is a sum over the hands the chart reaches,
each weighted by the probability that the chart reaches it (its *reach*), of the value of the
action the chart takes there. Two facts make a cell's choice exactly scorable:

* No path of hits visits the same row twice (the hard total grows with every card, and a soft
  row is the hard total plus ten), so changing one cell changes neither the reach of that
  cell's hands nor the values below them: the chart's EV changes by exactly
  ``sum over the cell's hands of reach * (value of the new action - value of the old one)``.
* The split EV is linear in the values of the split hands
  (:func:`gamecore.blackjack.splits.split_value`), so split hands get reach weights too: the
  coefficients of that linear map times the chances of their second cards.

So one backward pass (the values, :meth:`gamecore.blackjack.engine.Engine.solve`) and one
forward pass (the reach, :func:`_propagate_reach`) per up card give, for every (soft, total)
row, the reach-weighted value of each letter it could hold (:class:`UpState`): the prices
of *every* single-cell change of the chart at once, which the search
(:mod:`gamecore.blackjack.search`) reads.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.backward import POLICY_CHART, Solved
from gamecore.blackjack.chart import StrategyChart, cell_of, chart_tables
from gamecore.blackjack.engine import Engine, refuse_forbidden
from gamecore.blackjack.round import (
    PLAY_EARLY_SURRENDER,
    PLAY_NATURAL,
    PLAY_SPLIT,
    chart_play,
    opening_value,
)
from gamecore.blackjack.rules import ACE, DOUBLE, HIT, STAND, SURRENDER


@kernel
def _propagate_reach(tree, base, up, played, reach):
    """Carry ``reach`` (root weights on entry) down every hit the chart plays against ``up``.

    ``played[i, up]`` is the action taken at hand ``i``; only a hit leads to further
    decisions (a double's third card ends the hand). Hands are visited fewest cards first.
    """
    shoe = np.zeros(10, dtype=np.int64)
    for idx in range(tree.order.size - 1, -1, -1):
        i = tree.order[idx]
        weight = reach[i]
        if weight == 0.0 or played[i, up] != HIT:
            continue
        n = 0
        for r in range(10):
            shoe[r] = base[r] - tree.counts[i, r] - (1 if r == up else 0)
            n += shoe[r]
        for c in range(10):
            if shoe[c] > 0:
                j = tree.child[i, c]
                if j >= 0:
                    reach[j] += weight * shoe[c] / n


class _CellInputs(NamedTuple):
    """One context's arrays for :func:`_cell_sums` against one up card."""

    reach: np.ndarray  # (M,) how often the chart reaches each hand
    skip: np.ndarray  # (M,) hands priced elsewhere (Naturals, pair rows' own letters)
    ev: np.ndarray  # (M, 10, 4) the context's action values (an early surrender's flat half)
    current: np.ndarray  # (M, 10) the value of the chart's action
    natural: np.ndarray  # (M, 10) P(dealer Natural | hand)


@kernel
def _cell_sums(tree, up, inputs, sums, bad):
    """Accumulate, per (soft, total) row, the reach-weighted values of every letter.

    ``sums[s, t, k]`` for k < 6 adds ``reach * value`` of letter ``LETTERS[k]`` (its
    fallback where the letter's first action is not allowed); k = 6 the current action's;
    k = 7 the reach; k = 8 the reach times P(no dealer Natural | hand). ``bad[s, t, k]`` marks
    a letter some reached hand cannot play.
    """
    ev = inputs.ev
    for i in range(tree.hard.size):
        weight = inputs.reach[i]
        if weight == 0.0 or tree.bust[i] or inputs.skip[i]:
            continue
        s = 1 if tree.soft[i] else 0
        t = tree.hard[i] + 10 if tree.soft[i] else tree.hard[i]
        stand, hit, double = ev[i, up, STAND], ev[i, up, HIT], ev[i, up, DOUBLE]
        for k in range(6):
            if k == 0:
                v = hit
            elif k == 1:
                v = stand
            elif k <= 3:
                v = double
                if np.isnan(v):
                    v = hit if k == 2 else stand
            else:
                v = ev[i, up, SURRENDER]
                if np.isnan(v):
                    v = hit if k == 4 else stand
            if np.isnan(v):
                bad[s, t, k] = True
            else:
                sums[s, t, k] += weight * v
        sums[s, t, 6] += weight * inputs.current[i, up]
        sums[s, t, 7] += weight
        sums[s, t, 8] += weight * (1.0 - inputs.natural[i, up])


@kernel
def _split_context_sums(tree, base, seeds, ups, own_letter, solved, sums, bad):
    """:func:`_cell_sums` of one split context's hands against each up card of ``ups``
    (into ``sums[up]``, ``bad[up]``), reached from ``seeds``
    (:class:`~gamecore.blackjack.round.SplitSeeds`) down the
    hits the context's solve plays. ``own_letter[k]``: against ``ups[k]`` a two-card pair is
    played by its pair row's own letter (priced with the pair rows, so left out here)."""
    m = tree.hard.size
    reach = np.zeros(m)
    no_hand = np.zeros(m, dtype=np.bool_)
    two_card_pairs = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        if tree.cards[i] == 2:
            for r in range(10):
                if tree.counts[i, r] == 2:
                    two_card_pairs[i] = True
    for k in range(ups.size):
        up = ups[k]
        reach[:] = 0.0
        for j in range(seeds.node.shape[1]):
            if seeds.node[up, j] >= 0:
                reach[seeds.node[up, j]] += seeds.weight[up, j]
        _propagate_reach(tree, base, up, solved.action, reach)
        skip = two_card_pairs if own_letter[k] else no_hand
        inputs = _CellInputs(reach, skip, solved.ev, solved.value, solved.natural)
        _cell_sums(tree, up, inputs, sums[up], bad[up])


@dataclasses.dataclass
class UpState:
    """A chart evaluated against one up card: its EV and everything needed to price cells.

    Attributes
    ----------
    up
        The up card's rank index.
    ev
        The chart's EV given this up card, per unit of initial wager: the sum over the
        two-card hands of their probability times the round's value.
    sums
        float64 ``(2, 32, 9)`` by (soft, total) row: for k < 6 the reach-weighted value of
        letter ``LETTERS[k]`` (:data:`~gamecore.blackjack.chart.LETTERS`) over the row's
        hands, k = 6 the chart's own action's, k = 7 the reach, k = 8 the reach times
        P(no dealer Natural | hand) (:func:`_cell_sums`). Split hands are included, weighted
        per unit chance of their pair where the chart splits it.
    bad
        bool ``(2, 32, 6)``: the letters some reached hand of the row cannot play.
    pairs
        By pair rank, the root pair's figures: ``probability``, ``lose`` (what a dealer
        Natural costs it), ``split`` (the split's value), ``splits`` (whether the chart
        splits it), ``cell``, ``current`` (the value of the chart's play) and ``actions``
        (its S H D R values, before the Natural's loss).
    """

    up: int
    ev: float
    sums: np.ndarray
    bad: np.ndarray
    pairs: dict[int, dict[str, Any]]


class _SplitSums(NamedTuple):
    """The rows' sums of splitting one pair, per unit chance of the pair, by up card."""

    sums: np.ndarray  # (10, 2, 32, 9)
    bad: np.ndarray  # (10, 2, 32, 6)


def evaluate_up(engine: Engine, chart: StrategyChart, up: int) -> UpState:
    """Exact EV of ``chart`` against up card ``up`` and the reach of every hand it plays.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe.
    chart : StrategyChart
        The chart (a cell the rules forbid where it plays: a GamecoreError).
    up : int
        The up card's rank index (the shoe must hold one).

    Returns
    -------
    UpState
        The EV given the up card and the rows' sums that price each cell's letters.
    """
    return evaluate_ups(engine, chart, up)[up]


def evaluate_ups(engine: Engine, chart: StrategyChart, only_up: int = -1) -> dict[int, UpState]:
    """:func:`evaluate_up` for every up card in the shoe, from one solve of each context.

    Each split context's hands are summed into their rows as its solve comes (the solves of
    all contexts and up cards together would hold about 80 MB at 6 decks).

    Parameters
    ----------
    engine : Engine
        The engine of the shoe.
    chart : StrategyChart
        The chart (a cell the rules forbid where it plays: a GamecoreError).
    only_up : int, default -1
        Against this up card only (rank index); every up card the shoe holds when -1.

    Returns
    -------
    dict of int to UpState
        By up card's rank index, the chart evaluated against it.
    """
    tables = chart_tables(chart, engine.rules)
    solved = engine.solve(policy=POLICY_CHART, tables=tables, only_up=only_up)
    refuse_forbidden(solved.action, engine, chart)
    ups = [up for up in (range(10) if only_up < 0 else (only_up,)) if engine.shoe[up] > 0]
    split_sums: dict[int, _SplitSums] = {}

    def sum_split_hands(key, context: Solved) -> None:
        pair, _a = key
        splits = [up for up in ups if tables.split[pair, up].any()]  # the chart's cell says P
        if splits:
            _add_split_context(engine, chart, context, key, splits, split_sums)

    split = engine.split_values(
        None, POLICY_CHART, tables, only_up=only_up, each_solve=sum_split_hands
    )
    # The values the unsplit hands' sums read, as played (the up cards' columns are each
    # changed by their own state only: early surrender at the two cards).
    played = _Played(solved.ev.copy(), solved.value.copy(), solved.action.copy())
    return {
        up: _up_state(engine, chart, tables, (solved, played), split, split_sums, up) for up in ups
    }


class _Played(NamedTuple):
    """The unsplit hands as the chart plays them, by up card (copies :func:`_up_state` sets
    an early surrender's flat half into)."""

    ev: np.ndarray  # (M, 10, 4) each action's value
    current: np.ndarray  # (M, 10) the value of the action played
    action: np.ndarray  # (M, 10) the action played


def _up_state(engine, chart, tables, solves, split, split_sums, up) -> UpState:
    """The chart's EV against ``up`` and its rows' sums, from the contexts' solves
    (``solves``: the unsplit hands' solve and the copies of it as played)."""
    solved, (ev, current, played) = solves
    nd = engine.nodes
    m = len(nd.counts)
    reach = np.zeros(m)
    skip = np.zeros(m, dtype=np.bool_)
    total = 0.0
    pairs: dict[int, dict[str, Any]] = {}
    for opening in engine.caches.openings(up):
        i, a, p = opening.node, opening.first, opening.probability
        choice = chart_play(opening, chart, tables, split)
        value = opening_value(opening, choice.play, solved.value, split)
        total += p * value
        if choice.play == PLAY_NATURAL:
            skip[i] = True
            continue
        lose = opening.lose_to_natural
        if opening.early_surrender:
            ev[i, up, SURRENDER] = -0.5 - lose  # before the peek: a flat half, Natural or not
        if choice.play == PLAY_EARLY_SURRENDER:
            current[i, up] = -0.5 - lose
            played[i, up] = SURRENDER
        if choice.play != PLAY_SPLIT:
            reach[i] = p
        if opening.pair:
            cell = cell_of(chart, list(opening.counts), up)
            skip[i] = cell != "P"  # a pair row's own letter, priced with the pair rows
            pairs[a] = {
                "probability": p,
                "lose": lose,
                "split": split[a, up],
                "splits": choice.play == PLAY_SPLIT,
                "cell": cell,
                "current": split[a, up] if choice.play == PLAY_SPLIT else current[i, up],
                # The root pair's S H D R values (before the Natural's loss).
                "actions": tuple(ev[i, up]),
            }
    _propagate_reach(nd, engine.context().base, up, played, reach)
    sums = np.zeros((2, 32, 9))
    bad = np.zeros((2, 32, 6), dtype=np.bool_)
    inputs = _CellInputs(reach, skip, ev, current, solved.natural)
    _cell_sums(nd, up, inputs, sums, bad)
    for pair, info in pairs.items():
        if info["splits"] and pair in split_sums:  # zeros against an up card none reached
            sums += info["probability"] * split_sums[pair].sums[up]
            bad |= split_sums[pair].bad[up]
    return UpState(up, total, sums, bad, pairs)


def _add_split_context(engine, chart, solved: Solved, key, ups, split_sums) -> None:
    """Add the hands of split context ``key = (pair, a)`` (``a`` extra pair cards out) to the
    rows' sums of splitting ``pair`` against each of ``ups``, per unit chance of the pair:
    reached through the split value's linear map (its coefficients times the chances of the
    second cards)."""
    pair, a = key
    if pair == ACE and engine.codes.split_aces_one_card:
        return  # split aces take one card each: no choice at their hands to price
    seeds = engine.caches.split_seeds(pair, a)
    ups = [up for up in ups if seeds.node[up, 0] >= 0]  # the context deals against it
    if not ups:
        return
    counts = [0] * 10
    counts[pair] = 2
    own_letter = np.array([cell_of(chart, counts, up) != "P" for up in ups], dtype=np.bool_)
    if pair not in split_sums:
        split_sums[pair] = _SplitSums(
            np.zeros((10, 2, 32, 9)), np.zeros((10, 2, 32, 6), dtype=np.bool_)
        )
    sums = split_sums[pair]
    base = engine.context(pair, a).base
    up_cards = np.array(ups, dtype=np.int64)
    _split_context_sums(
        engine.nodes, base, seeds, up_cards, own_letter, solved, sums.sums, sums.bad
    )
