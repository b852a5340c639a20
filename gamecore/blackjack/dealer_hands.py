"""The dealer's hands of one drawing rule, enumerated once and without a shoe: the prefix
tree every dealer distribution (:mod:`gamecore.blackjack.dealer`) is one pass of.

Central idea
------------
Whether the dealer draws again depends only on the cards held so far, not on their order.
So each dealer hand is a *multiset* of drawn cards with the number of orderings the drawing
rule produces, and the hands of an up card are the leaves of a prefix tree over their cards
sorted by rank. For a given shoe a hand's probability is its orderings times a product of
falling factorials; the tree shares those products between the hands, and the shoe enters
only when a distribution is computed.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from typing import NamedTuple

import numpy as np

from gamecore.blackjack.rules import ACE, N_OUTCOMES, NATURAL


class DealerTable(NamedTuple):
    """The dealer's hands of one drawing rule, for
    :func:`~gamecore.blackjack.dealer.dealer_rows`.

    Each hand is the multiset of cards the dealer draws to the up card, with the number of
    its orderings the drawing rule produces. Its probability needs the product of falling
    factorials ``prod_r ff(n_r, k_r)``; the products are shared through a prefix tree (trie)
    over the cards sorted by rank: a node is a sorted draw that some hand extends by one or
    more cards. Nodes of up card ``u`` are ``start[u]:start[u + 1]``, the first one the
    empty draw; every other node adds one card to node ``parent`` (counted from
    ``start[u]``): of rank ``code // STEP``, with ``code % STEP`` cards of that rank already
    drawn, so its factor is ``shoe[rank] - already``. A hand is one card (``hand_code``)
    added to node ``hand_parent``; the hands of up card ``u`` with outcome ``o`` are
    ``hand_start[u, o]:hand_start[u, o + 1]``. ``of_rank[r, h]`` counts hand ``h``'s cards
    of rank ``r``; ``most_of_rank[u, r]`` and ``most_drawn[u]`` bound them and ``drawn``
    under up card ``u``, and ``cell[r, h]`` is the flat index of (outcome, ``of_rank[r, h]``,
    ``drawn[h]``) in an array of shape ``(N_OUTCOMES, most_of_rank.max() + 1,
    most_drawn.max() + 1)``; ``spans[u, r, o, k]`` is the first and last number of cards
    drawn by a hand of up card ``u`` with outcome ``o`` and ``k`` cards of rank ``r`` (first
    > last: none), so a shoe's distribution sums only cells some hand fills.
    """

    start: np.ndarray  # (11,)
    parent: np.ndarray  # (T,)
    code: np.ndarray  # (T,) rank * STEP + already
    hand_start: np.ndarray  # (10, 12)
    hand_parent: np.ndarray  # (H,)
    hand_code: np.ndarray  # (H,)
    drawn: np.ndarray  # (H,) cards drawn
    orderings: np.ndarray  # (H,) float
    of_rank: np.ndarray  # (10, H)
    most_of_rank: np.ndarray  # (10, 10)
    most_drawn: np.ndarray  # (10,)
    cell: np.ndarray  # (10, H)
    spans: np.ndarray  # (10, 10, N_OUTCOMES, K, 2): per up card and rank, the d range used


#: ``code = rank * STEP + already``: more than the cards of one rank any dealer hand draws.
STEP = 16


def _dealer_hands(up: int, hits_soft_17: bool) -> dict[tuple[tuple[int, ...], int], int]:
    """(sorted cards drawn, outcome index) -> orderings, for every dealer hand under ``up``.

    Whether the dealer draws again depends only on the cards held so far, not on their
    order, so the orderings of a draw are counted a card at a time over sorted draws (fewest
    cards first): each draw the dealer hits passes its orderings to the draw one card
    longer."""
    found: dict[tuple[tuple[int, ...], int], int] = {}
    level: dict[tuple[int, ...], int] = {(): 1}
    while level:
        longer: dict[tuple[int, ...], int] = {}
        for drawn, ways in level.items():
            # hand_total of the up card and the draw (rank r counts r + 1; sorted: aces first)
            hard = up + 1 + len(drawn) + sum(drawn)
            soft = (up == ACE or (drawn and drawn[0] == ACE)) and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if len(drawn) == 1 and total == 21:
                outcome = NATURAL
            elif total < 17 or (hits_soft_17 and total == 17 and soft):
                for r in range(10):
                    at = bisect.bisect_right(drawn, r)  # the draw with r, still sorted
                    key = (*drawn[:at], r, *drawn[at:])
                    longer[key] = longer.get(key, 0) + ways
                continue
            elif total <= 21:
                outcome = total - 17
            else:
                outcome = 5 + total - 22
            found[(drawn, outcome)] = ways
        level = longer
    return found


@functools.lru_cache(maxsize=4)
def dealer_table(hits_soft_17: bool) -> DealerTable:
    """Every dealer hand of the drawing rule, per up card, as a :class:`DealerTable`.

    Built once per drawing rule and kept (an engine of any shoe and deck count reads the
    same table): the hands do not depend on the shoe, only their probabilities do.

    Parameters
    ----------
    hits_soft_17 : bool
        Whether the dealer hits a soft 17 (else stands on every 17).

    Returns
    -------
    DealerTable
        The prefix tree of every up card's hands (int64 arrays; ``orderings`` float64),
        with the bounds and cell indices a distribution's pass reads.
    """
    start, parent, code = [0], [], []
    hand_start, hand_parent, hand_code, outcomes, orderings = [], [], [], [], []
    hands: list[tuple[int, ...]] = []  # each hand's sorted cards
    for up in range(10):
        found = sorted(_dealer_hands(up, hits_soft_17).items())
        # Nodes: every proper prefix of a hand's sorted cards, the empty draw first.
        prefixes = sorted({cards[:k] for (cards, _), _ in found for k in range(len(cards))})
        node = {prefix: i for i, prefix in enumerate(prefixes)}
        for prefix in prefixes:
            parent.append(node[prefix[:-1]] if prefix else -1)
            code.append(prefix[-1] * STEP + prefix[:-1].count(prefix[-1]) if prefix else 0)
        start.append(len(parent))
        by_outcome: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(N_OUTCOMES)]
        for (cards, result), ways in found:
            by_outcome[result].append((cards, ways))
        for outcome, group in enumerate(by_outcome):
            hand_start.append(len(hand_parent))
            for cards, ways in group:
                hand_parent.append(node[cards[:-1]])
                hand_code.append(cards[-1] * STEP + cards[:-1].count(cards[-1]))
                outcomes.append(outcome)
                orderings.append(ways)
                hands.append(cards)
        hand_start.append(len(hand_parent))
    as_int = functools.partial(np.array, dtype=np.int64)
    hand_start = as_int(hand_start).reshape(10, N_OUTCOMES + 1)
    # of_rank[r, h]: hand h's cards of rank r, counted over every card of every hand at once.
    card = np.fromiter(itertools.chain.from_iterable(hands), dtype=np.int64)
    hand = np.repeat(np.arange(len(hands)), [len(cards) for cards in hands])
    of_rank = np.bincount(card * len(hands) + hand, minlength=10 * len(hands)).reshape(10, -1)
    drawn = of_rank.sum(axis=0)
    assert of_rank.max() < STEP
    ups = [slice(hand_start[u, 0], hand_start[u, -1]) for u in range(10)]
    most_of_rank = as_int([of_rank[:, u].max(axis=1) for u in ups])
    most_drawn = as_int([drawn[u].max() for u in ups])
    ranks, draws = most_of_rank.max() + 1, most_drawn.max() + 1
    cell = (as_int(outcomes) * ranks + of_rank) * draws + drawn
    spans = np.zeros((10, 10, N_OUTCOMES, ranks, 2), dtype=np.int64)
    spans[..., 0] = draws  # empty spans: first > last
    spans[..., 1] = -1
    up_of = np.repeat(np.arange(10), hand_start[:, -1] - hand_start[:, 0])
    for r in range(10):
        where = (up_of, r, as_int(outcomes), of_rank[r])
        np.minimum.at(spans[..., 0], where, drawn)
        np.maximum.at(spans[..., 1], where, drawn)
    return DealerTable(
        as_int(start),
        as_int(parent),
        as_int(code),
        hand_start,
        as_int(hand_parent),
        as_int(hand_code),
        drawn,
        np.array(orderings, dtype=np.float64),
        of_rank,
        most_of_rank,
        most_drawn,
        cell,
        spans,
    )
