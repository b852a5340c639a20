"""The dealer's final distribution for any remaining shoe, the central idea every blackjack
figure is built on (see :mod:`gamecore.blackjack.engine`): the dealer's hands are enumerated
once per drawing rule as multisets of drawn cards with their orderings, stored as a prefix
tree, so a distribution for a given shoe costs one pass of falling-factorial products.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from gamecore._jit import kernel
from gamecore.blackjack.rules import (
    DEALER_OUTCOMES,
    N_OUTCOMES,
    NATURAL,
    RANKS,
    StandardBlackjackRules,
    check_rules,
    hand_total,
    shoe_composition,
)
from gamecore.blackjack.shoe import check_composition, up_index
from gamecore.errors import GamecoreError

# ---------------------------------------------------------------------------------------
# The dealer's hands, once per rule set (no shoe)
# ---------------------------------------------------------------------------------------


class DealerTable(NamedTuple):
    """The dealer's hands of one drawing rule, for :func:`_dealer_distribution`.

    Each hand is the multiset of cards the dealer draws to the up card, with the number of
    its orderings the drawing rule produces. Its probability needs the product of falling
    factorials ``prod_r ff(n_r, k_r)``; the products are shared through a prefix tree (trie)
    over the cards sorted by rank: a node is a sorted draw that some hand extends by one or
    more cards. Nodes of up card ``u`` are ``start[u]:start[u + 1]``, the first one the
    empty draw; every other node adds one card of ``rank`` to node ``parent`` (counted from
    ``start[u]``), which already holds ``already`` cards of that rank, so its factor is
    ``shoe[rank] - already``. A hand is one card of ``hand_rank`` added to node
    ``hand_parent``; the hands of up card ``u`` with outcome ``o`` are
    ``hand_start[u, o]:hand_start[u, o + 1]``, in the order of their sorted cards.
    """

    start: np.ndarray  # (11,)
    parent: np.ndarray  # (T,)
    rank: np.ndarray  # (T,)
    already: np.ndarray  # (T,)
    hand_start: np.ndarray  # (10, 12)
    hand_parent: np.ndarray  # (H,)
    hand_rank: np.ndarray  # (H,)
    hand_already: np.ndarray  # (H,)
    drawn: np.ndarray  # (H,) cards drawn
    orderings: np.ndarray  # (H,) float


def _dealer_hands(up: int, hits_soft_17: bool) -> dict[tuple[tuple[int, ...], int], int]:
    """(sorted cards drawn, outcome index) -> orderings, for every dealer hand under ``up``."""
    found: dict[tuple[tuple[int, ...], int], int] = {}

    def draw(drawn: list[int]) -> None:
        counts = [0] * 10
        counts[up] += 1
        for r in drawn:
            counts[r] += 1
        total, soft = hand_total(counts)
        if len(drawn) == 1 and total == 21:
            outcome = NATURAL
        elif total < 17 or (hits_soft_17 and total == 17 and soft):
            for r in range(10):
                draw([*drawn, r])
            return
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        key = (tuple(sorted(drawn)), outcome)
        found[key] = found.get(key, 0) + 1

    draw([])
    return found


@functools.lru_cache(maxsize=4)
def dealer_table(hits_soft_17: bool) -> DealerTable:
    """Every dealer hand of the drawing rule, per up card, as a :class:`DealerTable`."""
    start, hand_start = [0], []
    parent, rank, already = [], [], []
    hands: list[list] = [[] for _ in range(5)]  # parent, rank, already, drawn, orderings
    for up in range(10):
        found = sorted(_dealer_hands(up, hits_soft_17).items())
        # Nodes: every proper prefix of a hand's sorted cards, the empty draw first.
        prefixes = sorted({cards[:k] for (cards, _), _ in found for k in range(len(cards))})
        node = {prefix: i for i, prefix in enumerate(prefixes)}
        for prefix in prefixes:
            parent.append(node[prefix[:-1]] if prefix else -1)
            rank.append(prefix[-1] if prefix else -1)
            already.append(prefix[:-1].count(prefix[-1]) if prefix else 0)
        start.append(len(parent))
        for outcome in range(N_OUTCOMES):
            hand_start.append(len(hands[0]))
            for (cards, result), orderings in found:
                if result == outcome:
                    row = (node[cards[:-1]], cards[-1], cards[:-1].count(cards[-1]))
                    for column, value in zip(hands, (*row, len(cards), orderings), strict=True):
                        column.append(value)
        hand_start.append(len(hands[0]))
    as_int = functools.partial(np.array, dtype=np.int64)
    return DealerTable(
        as_int(start),
        as_int(parent),
        as_int(rank),
        as_int(already),
        as_int(hand_start).reshape(10, N_OUTCOMES + 1),
        *(as_int(column) for column in hands[:4]),
        np.array(hands[4], dtype=np.float64),
    )


def _dealer_scratch(table: DealerTable) -> tuple[np.ndarray, np.ndarray]:
    """Work space for :func:`_dealer_distribution`: a product per trie node of one up card and
    the falling factorials of the shoe size."""
    return np.empty(int(np.diff(table.start).max())), np.empty(int(table.drawn.max()) + 1)


@kernel
def _dealer_distribution(shoe, up, table, prod, ffn, out):
    """Add the dealer's final distribution with ``up`` showing, the hole card and every hit
    drawn from ``shoe`` (the up card already removed), into ``out[0:11]``.

    A hand drawing ``k_r`` cards of each rank has probability
    ``orderings * prod_r ff(n_r, k_r) / ff(n, k)``; the products ``prod_r ff(n_r, k_r)`` are
    built a card at a time down the trie of :class:`DealerTable` (in ``prod``), a hand's from
    its parent node's; ``ffn`` gets ``ff(n, k)``.
    """
    n = 0
    for r in range(10):
        n += shoe[r]
    ffn[0] = 1.0
    for k in range(1, ffn.size):
        ffn[k] = ffn[k - 1] * (n - k + 1)
    first = table.start[up]
    prod[0] = 1.0  # the empty draw
    for t in range(first + 1, table.start[up + 1]):
        left = shoe[table.rank[t]] - table.already[t]
        prod[t - first] = prod[table.parent[t]] * left if left > 0 else 0.0
    for o in range(N_OUTCOMES):
        total = out[o]
        for h in range(table.hand_start[up, o], table.hand_start[up, o + 1]):
            left = shoe[table.hand_rank[h]] - table.hand_already[h]
            p = prod[table.hand_parent[h]] * left if left > 0 else 0.0
            if p != 0.0:  # a hand of more cards than the shoe holds has a zero factor
                total += table.orderings[h] * p / ffn[table.drawn[h]]
        out[o] = total


@kernel
def dealer_distributions(shoe, removed, first, last, only_up, table, out):
    """For rows ``first:last`` of ``removed`` (cards taken from ``shoe`` by a player hand and
    its context), the dealer's final distribution against every up card in the shoe left
    (only ``only_up`` if >= 0): ``out[row, up]``, left at zero where the cards are not there
    to be dealt."""
    prod = np.empty(np.max(table.start[1:] - table.start[:-1]))
    ffn = np.empty(np.max(table.drawn) + 1)
    left = np.empty(10, dtype=np.int64)
    for k in range(first, last):
        for up in range(10):
            if only_up >= 0 and up != only_up:
                continue
            ok = True
            n = 0
            for r in range(10):
                left[r] = shoe[r] - removed[k, r] - (1 if r == up else 0)
                if left[r] < 0:
                    ok = False
                n += left[r]
            if ok and n >= 1:
                _dealer_distribution(left, up, table, prod, ffn, out[k, up])


def dealer_final_distribution(
    rules: StandardBlackjackRules,
    up_card: int | str,
    composition: Sequence[int] | None = None,
    after_peek: bool = False,
) -> pd.Series:
    """The dealer's final distribution with ``up_card`` showing, before any peek, or with
    ``after_peek`` given that the check found no Natural (where the rules peek under this
    up card; elsewhere the two are the same).

    Parameters
    ----------
    rules
        The rule set (its ``dealer_hits_soft_17``; ``decks`` gives the default shoe).
    up_card
        1 or ``"A"`` for an ace, 2..10 (or ``"2"``..``"10"``).
    composition
        Cards per rank (A, 2, .., 9, ten-valued) left in the shoe *after* the up card (and
        any other seen cards) were removed; default: the full shoe less the up card.

    Returns
    -------
    pandas.Series
        Probability of 17..21, of each bust total 22..26 and of a Natural, summing to 1
        (after the peek the Natural's probability is 0 and the rest are rescaled).

    Examples
    --------
    >>> d = dealer_final_distribution(StandardBlackjackRules(decks=1), "A")
    >>> bool(round(d["natural"], 6) == round(16 / 51, 6))
    True
    """
    rules = check_rules(rules).resolved()
    up = up_index(up_card)
    if composition is None:
        shoe = shoe_composition(rules.decks)
        if shoe[up] == 0:
            raise GamecoreError(f"up_card {up_card!r} is not in the shoe")
        shoe[up] -= 1
    else:
        shoe = check_composition(composition)
    if shoe.sum() < 1:
        raise GamecoreError("composition must hold at least one card for the hole card")
    out = np.zeros(N_OUTCOMES)
    table = dealer_table(rules.dealer_hits_soft_17)
    _dealer_distribution(shoe, up, table, *_dealer_scratch(table), out)
    if out.sum() < 1 - 1e-9:  # the kernel leaves out hands the shoe cannot complete
        raise GamecoreError(
            f"composition {[int(c) for c in shoe]}: the dealer can run out of cards before "
            f"the hand ends with {RANKS[up]} up; add cards"
        )
    distribution = pd.Series(out, index=list(DEALER_OUTCOMES), name=f"up {RANKS[up]}")
    if after_peek and rules.peek and distribution["natural"] > 0:
        # Conditioning on "no Natural": drop it and rescale the rest.
        distribution = distribution.drop("natural") / (1 - distribution["natural"])
        distribution["natural"] = 0.0
    return distribution
