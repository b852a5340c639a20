"""The player's hand tree: every hand composition an analysis of one shoe can meet.

Central idea
------------
A hand's value depends on the cards it holds, not their order, so the engine works on
*compositions* (cards per rank) and each is one node of a tree whose edges are hits: the
node after drawing a card of rank ``r`` is ``child[node, r]``. The tree depends on the shoe
only (no hand holds more of a rank than the shoe), is built once per shoe and is listed most
cards first, the order the backward pass (:mod:`gamecore.blackjack.backward`) needs: a hand's
hit value reads its children's values.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gamecore.blackjack.rules import ACE


class HandTree(NamedTuple):
    """Every player hand composition the analysis can meet, with its hit links.

    Node ``i`` is one composition (cards per rank, order forgotten); every array is indexed
    by node, ``M`` nodes in all, int64 unless said otherwise.
    """

    counts: np.ndarray  # (M, 10) cards per rank
    hard: np.ndarray  # (M,) total with aces as 1
    soft: np.ndarray  # (M,) bool: an ace counts 11 (hard + 10 <= 21)
    cards: np.ndarray  # (M,) cards held
    bust: np.ndarray  # (M,) bool: a busted hand kept as a leaf (for the bust push)
    child: np.ndarray  # (M, 10) node after drawing rank r, -1 if a plain bust or none left
    order: np.ndarray  # (M,) node indices, most cards first (a backward pass's order)


@functools.lru_cache(maxsize=8)
def hand_tree(
    shoe: tuple[int, ...], keep_bust_push: bool
) -> tuple[HandTree, dict[tuple[int, ...], int]]:
    """Every hand composition reachable from the empty hand by hitting while live, and the
    node of each composition (cards per rank).

    A busted hand is a node (a leaf) when the bust push may save it (three cards, 23..25,
    ``keep_bust_push``); otherwise a bust is ``child == -1``. Cached: the tree depends on
    the shoe's counts only, and every engine of one shoe shares it.

    Parameters
    ----------
    shoe : tuple of int
        Cards of each rank, A first and the ten-valued cards last: no hand holds more of a
        rank than the shoe.
    keep_bust_push : bool
        Whether three-card busts of 23..25 are kept as leaves (the c21 bust push).

    Returns
    -------
    tuple of (HandTree, dict)
        The tree, and each composition (a tuple of 10 counts) mapped to its node.
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
