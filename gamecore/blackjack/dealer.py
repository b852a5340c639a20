"""The dealer's final distribution for any remaining shoe, the central idea every blackjack
figure is built on (see :mod:`gamecore.blackjack.engine`): the dealer's hands are enumerated
once per drawing rule as multisets of drawn cards with their orderings, stored as a prefix
tree, so a distribution for a given shoe costs one pass of falling-factorial products.

Many shoes are needed at once (one behind every player hand of every split context), and
most of them differ from another only in the count of one rank: a *line* of shoes. Along a
line the products over the other ranks are the same, so one pass of the tree sums them per
(outcome, cards of the line's rank, cards drawn), and each shoe of the line then costs a
few hundred multiplications instead of a pass (:func:`dealer_rows`). The tree is the same
for every line, so one pass serves several lines of a rank at once, a line to each lane of
the vector instructions (:data:`LANES`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.rules import (
    ACE,
    DEALER_OUTCOMES,
    N_OUTCOMES,
    NATURAL,
    RANKS,
    StandardBlackjackRules,
    check_rules,
    shoe_composition,
)
from gamecore.blackjack.shoe import check_composition, up_index
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import default_threads

if TYPE_CHECKING:  # imported by dealer_final_distribution, the one table here
    import pandas as pd

# ---------------------------------------------------------------------------------------
# The dealer's hands, once per rule set (no shoe)
# ---------------------------------------------------------------------------------------


class DealerTable(NamedTuple):
    """The dealer's hands of one drawing rule, for :func:`dealer_rows`.

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
    """Every dealer hand of the drawing rule, per up card, as a :class:`DealerTable`."""
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


# ---------------------------------------------------------------------------------------
# Distributions for many shoes, a line at a time
# ---------------------------------------------------------------------------------------


class DealerLines(NamedTuple):
    """Rows of removed cards grouped into lines: the rows of a line differ only in how many
    cards of the line's ``rank`` they remove. Line ``l`` is the rows
    ``row[start[l]:start[l + 1]]`` of ``removed``."""

    rank: np.ndarray  # (L,)
    start: np.ndarray  # (L + 1,)
    row: np.ndarray  # (P,)


#: Lines of one rank worked side by side, a line to a lane: a pass of the trie reads its
#: indices once for all of them and multiplies their products in vector instructions
#: (16 lanes do the engine's dealer rows in well under the time one line at a time takes,
#: bit for bit the same; 8 do less well, 32 no better than 16; ``make bench`` times it).
LANES = 16


@kernel(inline=True)
def _line_sums(left, p, first, last, parent, code, factor, prod):
    """Fill ``prod[:, j]`` with the trie's products ``prod_{r != p} ff(left[j, r], k_r)``
    for nodes ``first:last`` (one up card's), for each lane ``j``, ``factor[code, j]`` being
    ``left[j, r] - already`` (rank ``p``: 1, its factor left to :func:`_row_factors`)."""
    for r in range(10):
        for already in range(STEP):
            for j in range(LANES):
                factor[r * STEP + already, j] = 1.0 if r == p else max(left[j, r] - already, 0)
    for j in range(LANES):
        prod[0, j] = 1.0  # the empty draw
    # The lanes counted by a number the compiler does not know (LANES, read off the array):
    # a loop of a known count (8, measured) it unrolled into scalar code, unable to prove that
    # a row of prod and its parent's do not overlap; this one it vectorizes behind a run-time
    # check.
    lanes = prod.shape[1]
    for t in range(first + 1, last):
        above, card = parent[t], code[t]
        for j in range(lanes):
            prod[t - first, j] = prod[above, j] * factor[card, j]


@kernel(inline=True)
def _hand_sums(first, last, cell, orderings, hand_parent, hand_code, prod, factor, flat):
    """Hands ``first:last`` (one up card's) into ``flat[:, j]`` for each lane ``j``, each at
    its ``cell``: orderings times its parent node's product times the factor of its last
    card (``flat`` zero at every cell these hands fill)."""
    lanes = flat.shape[1]  # not LANES: see _line_sums
    for h in range(first, last):
        at, above, card, ways = cell[h], hand_parent[h], hand_code[h], orderings[h]
        for j in range(lanes):
            flat[at, j] += ways * prod[above, j] * factor[card, j]


@kernel(inline=True)
def _clear_cells(spans, most_k, sums):
    """Zero ``sums[o, k, d, :]`` over the cells some hand fills (``spans``)."""
    for o in range(N_OUTCOMES):
        for k in range(most_k + 1):
            for d in range(spans[o, k, 0], spans[o, k, 1] + 1):
                for j in range(LANES):
                    sums[o, k, d, j] = 0.0


@kernel(inline=True)
def _row_factors(pairs, n, most_k, most_d, ffp, inverse, r):
    """Column ``r`` of ``ffp[k] = ff(pairs, k)`` (k <= ``most_k``) and ``inverse[d] =
    1 / ff(n, d)`` (1 <= d <= ``most_d``; 0 where the shoe holds fewer than d cards): one
    shoe of a line, ``pairs`` cards of the line's rank among ``n``."""
    ffp[0, r] = 1.0
    for k in range(1, most_k + 1):
        ffp[k, r] = ffp[k - 1, r] * max(pairs - k + 1, 0)
    # 1 / ff(n, d) for d = most_d .. 1 from one division.
    ff = 1.0
    for d in range(1, most_d + 1):
        ff *= max(n - d + 1, 0)
    if ff > 0.0:
        inverse[most_d, r] = 1.0 / ff
        for d in range(most_d, 1, -1):
            inverse[d - 1, r] = inverse[d, r] * (n - d + 1)
    else:
        ff = 1.0
        for d in range(1, most_d + 1):
            ff *= max(n - d + 1, 0)
            inverse[d, r] = 1.0 / ff if ff > 0.0 else 0.0


@kernel(inline=True)
def _line_points(sums, spans, most_k, shoes, count, out, slot):
    """Every shoe ``r < count`` of the batch (:class:`_Points`): ``out[row[r], slot, o] =
    sum_{k, d} sums[o, k, d, lane[r]] ff(pairs_r, k) / ff(n_r, d)`` over the cells some hand
    fills (``spans``, :class:`DealerTable`); a hand of more cards than the shoe holds has a
    zero factor. Four shoes are summed side by side, each in the same order as alone: one
    shoe's sum is a chain of dependent additions, four fill the pipeline."""
    lane, ffp, inverse = shoes.lane, shoes.ffp, shoes.inverse
    for r in range(0, count, 4):
        # Past the last shoe, the last again (its sums stored again, the same).
        r1, r2, r3 = min(r + 1, count - 1), min(r + 2, count - 1), min(r + 3, count - 1)
        l0, l1, l2, l3 = lane[r], lane[r1], lane[r2], lane[r3]
        for o in range(N_OUTCOMES):
            t0 = t1 = t2 = t3 = 0.0
            for k in range(most_k + 1):
                p0 = p1 = p2 = p3 = 0.0
                for d in range(spans[o, k, 0], spans[o, k, 1] + 1):
                    p0 += sums[o, k, d, l0] * inverse[d, r]
                    p1 += sums[o, k, d, l1] * inverse[d, r1]
                    p2 += sums[o, k, d, l2] * inverse[d, r2]
                    p3 += sums[o, k, d, l3] * inverse[d, r3]
                t0 += p0 * ffp[k, r]
                t1 += p1 * ffp[k, r1]
                t2 += p2 * ffp[k, r2]
                t3 += p3 * ffp[k, r3]
            out[shoes.row[r], slot, o] = t0
            out[shoes.row[r1], slot, o] = t1
            out[shoes.row[r2], slot, o] = t2
            out[shoes.row[r3], slot, o] = t3


class _Points(NamedTuple):
    """The shoes of one batch of lines against one up card (:func:`_line_points`)."""

    row: np.ndarray  # (capacity,) row of ``removed``
    lane: np.ndarray  # (capacity,) its line's lane
    ffp: np.ndarray  # (cards of one rank + 1, capacity)
    inverse: np.ndarray  # (cards drawn + 1, capacity)


class _LineScratch(NamedTuple):
    """Scratch of one batch of lines (:func:`_line_scratch`)."""

    prod: np.ndarray  # (nodes of the largest up card, LANES)
    sums: np.ndarray  # (N_OUTCOMES, cards of one rank + 1, cards drawn + 1, LANES)
    factor: np.ndarray  # (10 * STEP, LANES)
    left: np.ndarray  # (LANES, 10): each lane's shoe
    shoes: _Points


@kernel(inline=True)
def _line_scratch(table, capacity):
    """Scratch for batches of at most ``capacity`` shoes."""
    most_k, most_d = np.max(table.most_of_rank) + 1, np.max(table.most_drawn) + 1
    return _LineScratch(
        np.empty((np.max(table.start[1:] - table.start[:-1]), LANES)),
        np.zeros((N_OUTCOMES, most_k, most_d, LANES)),
        np.empty((10 * STEP, LANES)),
        np.zeros((LANES, 10), dtype=np.int64),
        _Points(
            np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int64),
            np.empty((most_k, capacity)),
            np.empty((most_d, capacity)),
        ),
    )


@kernel(inline=True)
def _batch_sums(table, up, p, scratch):
    """The sums of every lane's line of rank ``p`` against ``up`` (:func:`_dealer_lines`)."""
    spans = table.spans[up, p]
    _clear_cells(spans, table.most_of_rank[up, p], scratch.sums)
    _line_sums(
        scratch.left,
        p,
        table.start[up],
        table.start[up + 1],
        table.parent,
        table.code,
        scratch.factor,
        scratch.prod,
    )
    _hand_sums(
        table.hand_start[up, 0],
        table.hand_start[up, N_OUTCOMES],
        table.cell[p],
        table.orderings,
        table.hand_parent,
        table.hand_code,
        scratch.prod,
        scratch.factor,
        scratch.sums.reshape((-1, LANES)),
    )


@kernel
def _dealer_lines(shoe, removed, lines, first, last, only_up, table, out):
    """Lines ``first:last``: for each row of ``removed`` on them (cards taken from ``shoe``
    by a player hand and its context), the dealer's final distribution against every up
    card in the shoe left, ``out[row, up]`` (only ``only_up`` if >= 0: ``out[row, 0]``); left
    at zero where the cards are not there to be dealt.

    Per line and up card, one pass of the trie and the hands sums ``sums[o, k, d]``: over
    the hands with outcome ``o`` drawing ``k`` cards of the line's rank and ``d`` in all,
    ``orderings * prod_{r != p} ff(left_r, k_r)``; each row of the line then adds the
    factors of its own count of that rank (:func:`_line_points`). Up to :data:`LANES` lines
    of one rank share each pass, a line to a lane, and their rows are summed together.
    """
    longest = 1
    for line in range(first, last):
        longest = max(longest, lines.start[line + 1] - lines.start[line])
    scratch = _line_scratch(table, LANES * longest)
    left, shoes = scratch.left, scratch.shoes
    ok = np.zeros(LANES, dtype=np.bool_)
    others = np.zeros(LANES, dtype=np.int64)
    batch = first
    while batch < last:
        p = lines.rank[batch]
        width = 1
        while width < LANES and batch + width < last and lines.rank[batch + width] == p:
            width += 1
        for up in range(10):
            if only_up >= 0 and up != only_up:
                continue
            any_ok = False
            for j in range(LANES):
                ok[j] = j < width
                others[j] = 0
                for r in range(10):
                    left[j, r] = 0
                    if j < width:
                        row = lines.row[lines.start[batch + j]]
                        left[j, r] = shoe[r] - removed[row, r] - (1 if r == up else 0)
                    if r != p:
                        ok[j] = ok[j] and left[j, r] >= 0
                        others[j] += left[j, r]
                any_ok = any_ok or ok[j]
            if not any_ok:
                continue
            most_k, most_d = table.most_of_rank[up, p], table.most_drawn[up]
            count = 0
            for j in range(width):
                if not ok[j]:
                    continue
                for k in range(lines.start[batch + j], lines.start[batch + j + 1]):
                    row = lines.row[k]
                    pairs = shoe[p] - removed[row, p] - (1 if up == p else 0)
                    if pairs >= 0 and others[j] + pairs >= 1:
                        n = others[j] + pairs
                        _row_factors(pairs, n, most_k, most_d, shoes.ffp, shoes.inverse, count)
                        shoes.row[count], shoes.lane[count] = row, j
                        count += 1
            if count == 0:
                continue
            _batch_sums(table, up, p, scratch)
            slot = 0 if only_up >= 0 else up
            _line_points(scratch.sums, table.spans[up, p], most_k, shoes, count, out, slot)
        batch += width


@kernel
def dealer_distribution(left, up, table, out):
    """The dealer's final distribution with ``up`` showing, the hole card and every hit
    drawn from ``left`` (the up card already out), into ``out[0:11]`` (zeros where the shoe
    cannot complete a hand): a line of one shoe, for kernels that need a distribution
    :func:`dealer_rows` has not made."""
    n = 0
    for r in range(10):
        n += left[r]
    out[:] = 0.0
    if n < 1:
        return
    scratch = _line_scratch(table, 1)
    scratch.left[0, :] = left
    shoes = scratch.shoes
    most_k, most_d = table.most_of_rank[up, ACE], table.most_drawn[up]
    _row_factors(left[ACE], n, most_k, most_d, shoes.ffp, shoes.inverse, 0)
    shoes.row[0], shoes.lane[0] = 0, 0
    _batch_sums(table, up, ACE, scratch)
    one = out.reshape((1, 1, N_OUTCOMES))
    _line_points(scratch.sums, table.spans[up, ACE], most_k, shoes, 1, one, 0)


@kernel(inline=True)
def hash_slot(table, key):
    """The slot of ``key`` in an open-addressing hash table (rows: key, value; key -1 marks
    a free slot; keys are non-negative)."""
    mask = table.shape[0] - 1
    slot = (key * 0x9E3779B97F4A7C15) & mask
    while table[slot, 0] != -1 and table[slot, 0] != key:
        slot = (slot + 1) & mask
    return slot


@kernel
def _group_lines(removed, radix, line_rank, start, row):
    """:func:`dealer_lines` into ``line_rank``, ``start``, ``row``; returns the number of
    lines. Lines come rank by rank (each rank's in order of first appearance), rows in
    order within a line."""
    rows = removed.shape[0]
    size = 1
    while size < 2 * rows:
        size *= 2
    table = np.empty((size, 2), dtype=np.int64)
    code = np.zeros(rows, dtype=np.int64)
    for i in range(rows):
        for r in range(10):
            code[i] += removed[i, r] * radix[r]
    slot_of = np.empty(rows, dtype=np.int64)
    best = np.zeros(rows, dtype=np.int64)
    best_size = np.zeros(rows, dtype=np.int64)
    key = np.empty(rows, dtype=np.int64)
    for p in range(10):
        table[:, 0] = -1
        for i in range(rows):
            k = code[i] - removed[i, p] * radix[p]  # the row with its rank-p cards put back
            slot = hash_slot(table, k)
            if table[slot, 0] == -1:
                table[slot, 0], table[slot, 1] = k, 0
            table[slot, 1] += 1
            slot_of[i] = slot
        for i in range(rows):
            if table[slot_of[i], 1] > best_size[i]:
                best_size[i] = table[slot_of[i], 1]
                best[i] = p
                key[i] = table[slot_of[i], 0]
    # Number the lines (a rank and a key) in order of first appearance.
    table[:, 0] = -1
    line_of = np.empty(rows, dtype=np.int64)
    rank_of_line = np.empty(rows, dtype=np.int64)
    size_of_line = np.zeros(rows, dtype=np.int64)
    lines = 0
    for i in range(rows):
        slot = hash_slot(table, key[i] * 10 + best[i])
        if table[slot, 0] == -1:
            table[slot, 0], table[slot, 1] = key[i] * 10 + best[i], lines
            rank_of_line[lines] = best[i]
            lines += 1
        line_of[i] = table[slot, 1]
        size_of_line[line_of[i]] += 1
    # Lines rank by rank, then rows line by line.
    position = np.empty(lines, dtype=np.int64)
    at = 0
    for p in range(10):
        for line in range(lines):
            if rank_of_line[line] == p:
                position[line] = at
                line_rank[at] = p
                at += 1
    start[0] = 0
    for line in range(lines):
        start[position[line] + 1] = size_of_line[line]
    for line in range(lines):
        start[line + 1] += start[line]
    filled = start[:lines].copy()
    for i in range(rows):
        at = position[line_of[i]]
        row[filled[at]] = i
        filled[at] += 1
    return lines


def dealer_lines(removed: np.ndarray) -> DealerLines:
    """Group the rows of ``removed`` (cards per rank) into lines, each row on the line (of
    the ten it lies on, one per rank) that holds the most rows (the first such rank)."""
    rows = len(removed)
    most = removed.max(axis=0, initial=0).astype(np.int64)
    radix = np.cumprod(np.concatenate(([1], most[:-1] + 1)))
    line_rank = np.empty(rows, dtype=np.int64)
    start = np.empty(rows + 1, dtype=np.int64)
    row = np.empty(rows, dtype=np.int64)
    lines = _group_lines(removed, radix.astype(np.int64), line_rank, start, row)
    return DealerLines(line_rank[:lines], start[: lines + 1], row)


#: Shares of :func:`dealer_rows`'s lines per thread (each little work: the threads stay even).
SHARES_PER_THREAD = 6


def dealer_rows(
    shoe: np.ndarray,
    removed: np.ndarray,
    table: DealerTable,
    only_up: int = -1,
    threads: int | None = None,
) -> np.ndarray:
    """The dealer's final distribution behind each row of ``removed`` (cards per rank taken
    from ``shoe``) against each up card, ``out[row, up, outcome]`` (only ``only_up`` if >= 0:
    ``out[row, outcome]``), zero where the cards are not there to be dealt. Lines are
    independent: each of ``threads`` (default: every core) fills its share (the kernel
    releases the GIL)."""
    removed = np.asarray(removed)
    # Card counts as 16-bit integers where they fit (always, for real shoes): the sets two
    # split hands hold run to 150,000 rows at 6 decks, a quarter of the memory of int64.
    fits = removed.size == 0 or (0 <= removed.min() and removed.max() <= np.iinfo(np.int16).max)
    removed = np.ascontiguousarray(removed, dtype=np.int16 if fits else np.int64)
    out = np.zeros((len(removed), 10 if only_up < 0 else 1, N_OUTCOMES))
    if len(removed) == 0:
        return out if only_up < 0 else out[:, 0]
    lines = dealer_lines(removed)
    shoe = np.asarray(shoe, dtype=np.int64)
    count = len(lines.rank)
    threads = min(default_threads() if threads is None else threads, count)
    if threads == 1:
        _dealer_lines(shoe, removed, lines, 0, count, only_up, table, out)
        return out if only_up < 0 else out[:, 0]
    # Shares of about equal work by an estimate (a line's share of its passes, LANES lines to
    # a pass, ~0.7 ns per trie node and hand, every up card; each of its rows ~0.65 ns per
    # cell its rank's spans sum), several per thread, taken as threads come free: the
    # estimate is off by a sixth either way for some ranks.
    cells = np.clip(table.spans[..., 1] - table.spans[..., 0] + 1, 0, None).sum(axis=(0, 2, 3))
    passes = 0.7 * (table.start[-1] + table.hand_start[-1, -1])
    work = np.cumsum(passes + 0.65 * cells[lines.rank] * np.diff(lines.start))
    shares = min(SHARES_PER_THREAD * threads, count)
    bounds = np.searchsorted(work, np.linspace(0, work[-1], shares + 1), side="right")
    bounds[0], bounds[-1] = 0, count
    with ThreadPoolExecutor(threads) as pool:
        jobs = [
            pool.submit(
                _dealer_lines, shoe, removed, lines, bounds[k], bounds[k + 1], only_up, table, out
            )
            for k in range(shares)
        ]
        for job in jobs:
            job.result()
    return out if only_up < 0 else out[:, 0]


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
            raise GamecoreError(f"up_card {shown(up_card)} is not in the shoe")
        shoe[up] -= 1
    else:
        shoe = check_composition(composition)
    if shoe.sum() < 1:
        raise GamecoreError("composition must hold at least one card for the hole card")
    with_up = shoe.copy()
    with_up[up] += 1  # dealer_rows takes the up card out itself
    table = dealer_table(rules.dealer_hits_soft_17)
    out = dealer_rows(with_up, np.zeros((1, 10), dtype=np.int64), table, up)[0]
    if out.sum() < 1 - 1e-9:  # the kernel leaves out hands the shoe cannot complete
        raise GamecoreError(
            f"composition {[int(c) for c in shoe]}: the dealer can run out of cards before "
            f"the hand ends with {RANKS[up]} up; add cards"
        )
    import pandas as pd

    distribution = pd.Series(out, index=list(DEALER_OUTCOMES), name=f"up {RANKS[up]}")
    if after_peek and rules.peek and distribution.drop("natural").sum() == 0:
        # Given no Natural, on a shoe where the dealer has one for certain: no such hand
        # exists, and the rescaling below would divide zero by zero (a Series of NaN).
        raise GamecoreError(
            f"with {RANKS[up]} up the dealer has a Natural for certain: there is no "
            "distribution after the peek (after_peek=False gives the one before)"
        )
    if after_peek and rules.peek and distribution["natural"] > 0:
        # Conditioning on "no Natural": drop it and rescale the rest.
        distribution = distribution.drop("natural") / (1 - distribution["natural"])
        distribution["natural"] = 0.0
    return distribution
