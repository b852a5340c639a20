"""The one model of a blackjack round's start, shared by every consumer.

Central idea
------------
A round opens with the player's two cards against the up card, and what happens next is
decided there, before any hand is played: a player Natural is paid (or pushes a dealer
Natural), an early surrender ends the round before the check, a pair may be split, and
otherwise the hand is played from its node of the hand tree. :func:`openings` lists a round's
two-card hands with the facts every consumer needs; :func:`optimal_play` and
:func:`chart_play` say which of the four ways (``PLAY_*``) a strategy takes, and
:func:`opening_value` what the round is then worth.

A split hand starts from one pair card and draws its second card from the shoe less the
split's cards: :func:`second_cards` gives the nodes and chances of those second cards, and
:func:`split_seeds` where a split context's hands begin; the identities that turn one split
hand's values into the split's are in :mod:`gamecore.blackjack.splits`.

The exact EV and the two-card hand table (:mod:`~gamecore.blackjack.analysis`), a chart's EV
and the chart search (:mod:`~gamecore.blackjack.search`), the result distribution
(:mod:`~gamecore.blackjack.results`) and optimal play in the simulator
(:mod:`~gamecore.blackjack.sim`) all read a round through this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from gamecore.blackjack.chart import ChartTables, StrategyChart, cell_of, wants_surrender
from gamecore.blackjack.rules import (
    ACE,
    NATURAL,
    RANKS,
    TEN,
    best_action,
    early_surrender_at_root,
    hand_total,
    surrender_at_root,
)
from gamecore.blackjack.splits import split_coefficients

#: How a round goes on from its two cards.
PLAY_NATURAL, PLAY_EARLY_SURRENDER, PLAY_SPLIT, PLAY_HAND = range(4)


@dataclasses.dataclass(frozen=True)
class Opening:
    """The player's first two cards against an up card (ranks ``first <= second``)."""

    up: int
    first: int
    second: int
    probability: float  # of these two cards, given the up card
    node: int  # the two-card hand's node in the hand tree
    counts: tuple[int, ...]
    dealer_natural: float  # P(dealer Natural | these cards and the up card)
    early_surrender: bool  # surrender is offered before the check (never on a Natural)
    root_surrender: bool  # some surrender (early or late) is offered on two cards
    peek_loses: bool  # the rules peek and the hand is not a Natural

    @property
    def natural(self) -> bool:
        return self.first == ACE and self.second == TEN

    @property
    def pair(self) -> bool:
        return self.first == self.second

    @property
    def lose_to_natural(self) -> float:
        """What a dealer Natural costs a hand played here, under the peek: the values of the
        engine leave it out (they are ``E[result * 1{no Natural}]``)."""
        return -self.dealer_natural if self.peek_loses else 0.0

    @property
    def total(self) -> tuple[int, bool]:
        return hand_total(self.counts)

    def label(self) -> str:
        """The two cards as a table lists them.

        Returns
        -------
        str
            ``"A,10"``: the first card's rank, then the second's.
        """
        return f"{RANKS[self.first]},{RANKS[self.second]}"

    def cell(self) -> str:
        """The chart row that plays these two cards (pairs: their pair row).

        Returns
        -------
        str
            ``"pair 8"``, ``"natural"``, ``"hard 16"`` or ``"soft 18"``.
        """
        if self.pair:
            return f"pair {RANKS[self.first]}"
        if self.natural:
            return "natural"
        total, soft = self.total
        return f"{'soft' if soft else 'hard'} {total}"


def openings(engine, up: int) -> tuple[Opening, ...]:
    """Every two-card hand of a round against an up card, in the order of their ranks.

    Computed on each call; the consumers read them through the engine's caches
    (:meth:`~gamecore.blackjack.caches.EngineCaches.openings`), which list them once.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe (its hand tree, dealer rows and rule codes).
    up : int
        The up card's rank index (0 the Ace .. 9 the ten-values).

    Returns
    -------
    tuple of Opening
        Each two-card hand with its probability (``up`` removed from the shoe); empty when
        the shoe holds no ``up``.
    """
    return tuple(_each_opening(engine, up))


def _each_opening(engine, up: int) -> Iterator[Opening]:
    shoe = engine.shoe
    if shoe[up] == 0:
        return
    left = shoe.copy()
    left[up] -= 1
    n = left.sum()
    codes = engine.codes
    early = early_surrender_at_root(codes, up)
    root_surrender = surrender_at_root(codes, up)
    unsplit = engine.rows[(-1, 0)]
    for a in range(10):
        for b in range(a, 10):
            if a == b:
                p = left[a] * (left[a] - 1) / (n * (n - 1))
            else:
                p = 2 * left[a] * left[b] / (n * (n - 1))
            if p <= 0:
                continue
            counts = [0] * 10
            counts[a] += 1
            counts[b] += 1
            node = engine.node_index[tuple(counts)]
            natural = a == ACE and b == TEN
            yield Opening(
                up=up,
                first=a,
                second=b,
                probability=float(p),
                node=node,
                counts=tuple(counts),
                dealer_natural=float(engine.dealers[unsplit[node], up, NATURAL]),
                early_surrender=early and not natural,
                root_surrender=root_surrender,
                peek_loses=codes.peek and not natural,
            )


# ---------------------------------------------------------------------------------------
# How a strategy goes on from two cards, and what the round is then worth
# ---------------------------------------------------------------------------------------


def opening_values(opening: Opening, ev: np.ndarray, split: np.ndarray) -> dict[str, float]:
    """The round's EV (unconditional: the dealer's Natural counted) of every action the two
    cards allow, from the engine's action values ``ev[node, up, S H D R]`` and split values
    ``split[pair, up]``; an early surrender is worth a flat half.

    Parameters
    ----------
    opening : Opening
        The two cards against an up card.
    ev, split : numpy.ndarray
        The engine's action values and split values.

    Returns
    -------
    dict of str to float
        Action letter (S H D R P) -> the round's EV, the allowed actions only.
    """
    i, up, lose = opening.node, opening.up, opening.lose_to_natural
    values = {}
    for k, name in enumerate(("S", "H", "D", "R")):
        if not np.isnan(ev[i, up, k]):
            values[name] = float(ev[i, up, k]) + lose
    if opening.early_surrender:
        values["R"] = -0.5
    if opening.pair and not np.isnan(split[opening.first, up]):
        values["P"] = float(split[opening.first, up]) + lose
    return values


class Choice(NamedTuple):
    """A strategy's choice at the two cards: how the round goes on, and the action."""

    play: int  # PLAY_NATURAL, PLAY_EARLY_SURRENDER, PLAY_SPLIT, PLAY_HAND
    action: str  # S H D R P (for PLAY_HAND the first action at the hand)


def optimal_play(
    opening: Opening, ev: np.ndarray, split: np.ndarray, values: dict | None = None
) -> Choice:
    """Optimal play: the action of the highest value, the first of S H D R P on a tie
    (:func:`~gamecore.blackjack.rules.best_action`).

    Parameters
    ----------
    opening : Opening
        The two cards against an up card.
    ev : numpy.ndarray
        The engine's action values, float64 ``(M, 10, 4)`` by hand node, up card and
        S H D R (nan: not allowed).
    split : numpy.ndarray
        The split values, float64 ``(pair, up)``.
    values : dict, optional
        :func:`opening_values` of these cards, where the caller has them already.

    Returns
    -------
    Choice
        How the round goes on (``PLAY_*``) and the action letter.
    """
    values = opening_values(opening, ev, split) if values is None else values
    best = best_action(values)
    if opening.natural:
        return Choice(PLAY_NATURAL, best)
    if best == "R" and opening.early_surrender:
        return Choice(PLAY_EARLY_SURRENDER, best)
    if best == "P":
        return Choice(PLAY_SPLIT, best)
    return Choice(PLAY_HAND, best)


def chart_play(
    opening: Opening, chart: StrategyChart, tables: ChartTables, split: np.ndarray
) -> Choice:
    """A chart's play: its cell for the two cards (a pair splits where the chart and the
    rules allow and a split value exists, i.e. the shoe holds the cards).

    Parameters
    ----------
    opening : Opening
        The two cards against an up card.
    chart : StrategyChart
        The chart (its cell for the two cards; a pair's row where it has one).
    tables : ChartTables
        The chart resolved under the rules (:func:`~gamecore.blackjack.chart.chart_tables`).
    split : numpy.ndarray
        The split values, float64 ``(pair, up)`` (nan: the pair cannot be split here).

    Returns
    -------
    Choice
        How the round goes on (``PLAY_*``) and the action letter (for ``PLAY_HAND`` the
        cell's first letter).
    """
    a, up = opening.first, opening.up
    cell = cell_of(chart, list(opening.counts), up)
    if opening.natural:
        return Choice(PLAY_NATURAL, "S")
    if opening.early_surrender and wants_surrender(cell, opening.pair, tables, a, up):
        return Choice(PLAY_EARLY_SURRENDER, "R")
    if (
        opening.pair
        and tables.split[a, up, 1 if opening.root_surrender else 0]
        and not np.isnan(split[a, up])
    ):
        return Choice(PLAY_SPLIT, "P")
    return Choice(PLAY_HAND, cell[0])


def opening_value(opening: Opening, play: int, value: np.ndarray, split: np.ndarray) -> float:
    """The round's EV from two cards played as ``play``, unconditional: the dealer's
    Natural counted (an early surrender is a flat half).

    Parameters
    ----------
    opening : Opening
        The two cards against an up card.
    play : int
        How the round goes on (``PLAY_*``).
    value : numpy.ndarray
        The engine's value of the action played at each hand, float64 ``(M, 10)`` by node
        and up card (before the Natural's loss under the peek).
    split : numpy.ndarray
        The split values, float64 ``(pair, up)`` (before the Natural's loss).

    Returns
    -------
    float
        The EV per unit of initial wager.
    """
    up = opening.up
    if play == PLAY_NATURAL:
        return float(value[opening.node, up])
    if play == PLAY_EARLY_SURRENDER:
        return -0.5
    if play == PLAY_SPLIT:
        return float(split[opening.first, up]) + opening.lose_to_natural
    return float(value[opening.node, up]) + opening.lose_to_natural


# ---------------------------------------------------------------------------------------
# Split hands: their second cards, and the split's value from one hand's
# ---------------------------------------------------------------------------------------


class SecondCards(NamedTuple):
    """A split hand's second card, drawn from the shoe of a split context against ``up``:
    ``nodes[k]`` is the hand after the k-th possible card (chance ``probability[k]``), every
    card allowed (a pair card played as a hand); ``pair_node`` the hand after a pair card
    (-1 when none is left)."""

    nodes: np.ndarray
    probability: np.ndarray
    pair_node: int

    def average(self, values: np.ndarray) -> Any:
        """The mean of ``values[node]`` (numbers or arrays) over the second card.

        Parameters
        ----------
        values : numpy.ndarray
            A value per hand node (a number or an array each).

        Returns
        -------
        float or numpy.ndarray
            ``sum_k probability[k] * values[nodes[k]]``.
        """
        out = 0.0
        for node, p in zip(self.nodes, self.probability, strict=True):
            out = out + p * values[node]
        return out


def second_cards(engine, pair: int, extra: int, up: int) -> SecondCards | None:
    """The second cards of a split hand against an up card.

    Computed on each call; the consumers read them through the engine's caches
    (:meth:`~gamecore.blackjack.caches.EngineCaches.second_cards`), which make them once.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe.
    pair : int
        The pair's rank index.
    extra : int
        Further pair cards out of the shoe (the split context ``(pair, extra)``).
    up : int
        The up card's rank index.

    Returns
    -------
    SecondCards or None
        The hands after each possible second card and their chances; None when the shoe of
        that context cannot deal the hand.
    """
    base = engine.context(pair, extra).base
    left = base.copy()
    left[up] -= 1
    left[pair] -= 1  # the hand's own pair card
    if left.min() < 0 or base[up] == 0:
        return None
    one = engine.node_index[tuple(1 if q == pair else 0 for q in range(10))]
    child = engine.nodes.child[one]
    n = left.sum()
    ranks = [c for c in range(10) if left[c]]
    return SecondCards(
        np.array([child[c] for c in ranks], dtype=np.int64),
        np.array([left[c] / n for c in ranks]),
        int(child[pair]) if left[pair] else -1,
    )


class SplitSeeds(NamedTuple):
    """Where a split context's hands begin against each up card, per unit chance of the
    pair: ``node[up, k]`` the hand after the k-th second card (-1: none), ``weight[up, k]``
    the split value's coefficient for it times the card's chance; the last column is the
    hand after a pair card once more (its own coefficient)."""

    node: np.ndarray  # (10, 11) int64
    weight: np.ndarray  # (10, 11)


def split_seeds(
    shoe: np.ndarray, pair: int, a: int, split: tuple[int, int], seconds: Sequence[Any]
) -> SplitSeeds:
    """The starting hands of split context ``(pair, a)`` and their weights.

    Parameters
    ----------
    shoe : numpy.ndarray
        The full shoe's count of each rank.
    pair : int
        The pair's rank index.
    a : int
        Further pair cards out of the shoe in this context.
    split : tuple of int
        ``(max_hands, extra)``: the most hands the pair may be split to, and the most
        further pair cards any context of the pair takes out.
    seconds : sequence of SecondCards or None
        The context's :func:`second_cards` against each up card (index = up card).

    Returns
    -------
    SplitSeeds
        The hands a split context's play starts from and their coefficients.
    """
    max_hands, extra = split
    node = np.full((10, 11), -1, dtype=np.int64)
    weight = np.zeros((10, 11))
    for up in range(10):
        second = seconds[up]
        if second is None:
            continue
        left = shoe.copy()
        left[up] -= 1
        left[pair] -= 2
        cx, cp = split_coefficients(int(left[pair]), int(left.sum()), max_hands, extra)
        k = len(second.nodes)
        node[up, :k] = second.nodes  # the second cards' hands differ
        weight[up, :k] = cx[a] * second.probability
        if second.pair_node >= 0:
            node[up, 10], weight[up, 10] = second.pair_node, cp[a]
    return SplitSeeds(node, weight)
