"""The dealer's final distribution for any remaining shoe, the central idea every blackjack
figure is built on (see :mod:`gamecore.blackjack.engine`): the dealer's hands are enumerated
once per drawing rule as multisets of drawn cards with their orderings, stored as a prefix
tree (:mod:`gamecore.blackjack.dealer_hands`), so a distribution for a given shoe costs one
pass of falling-factorial products.

Many shoes are needed at once (one behind every player hand of every split context), and
most of them differ from another only in the count of one rank: a *line* of shoes
(:mod:`gamecore.blackjack.shoe_lines`). Along a line the products over the other ranks are
the same, so one pass of the tree sums them per (outcome, cards of the line's rank, cards
drawn), and each shoe of the line then costs a few hundred multiplications instead of a
pass (:func:`dealer_rows`). The tree is the same for every line, so one pass serves several
lines of a rank at once, a line to each lane of the vector instructions (:data:`LANES`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.blackjack.dealer_hands import STEP, DealerTable, dealer_table
from gamecore.blackjack.rules import (
    ACE,
    DEALER_OUTCOMES,
    N_OUTCOMES,
    RANKS,
    StandardBlackjackRules,
    check_rules,
    shoe_composition,
)
from gamecore.blackjack.shoe import check_composition, up_index
from gamecore.blackjack.shoe_lines import dealer_lines
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import default_threads

if TYPE_CHECKING:  # imported by dealer_final_distribution, the one table here
    import pandas as pd

# ---------------------------------------------------------------------------------------
# Distributions for many shoes, a line at a time
# ---------------------------------------------------------------------------------------

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
def _hand_sums(table, up, p, prod, factor, flat):
    """The hands of up card ``up`` into ``flat[:, j]`` for each lane ``j``, each at its cell
    for the line's rank ``p``: orderings times its parent node's product times the factor
    of its last card (``flat`` zero at every cell these hands fill)."""
    cell, orderings = table.cell[p], table.orderings
    hand_parent, hand_code = table.hand_parent, table.hand_code
    lanes = flat.shape[1]  # not LANES: see _line_sums
    for h in range(table.hand_start[up, 0], table.hand_start[up, N_OUTCOMES]):
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
    _hand_sums(table, up, p, scratch.prod, scratch.factor, scratch.sums.reshape((-1, LANES)))


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
def _dealer_distribution(left, up, table, out):
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


@kernel_face(_dealer_distribution)
def dealer_distribution(left: np.ndarray, up: int, table: DealerTable, out: np.ndarray) -> None:
    """The dealer's final distribution with ``up`` showing, the hole card and every hit drawn
    from ``left``: a line of one shoe, for a kernel that needs a distribution
    :func:`dealer_rows` has not made (a shoe so small the dealer might use it up).

    Parameters
    ----------
    left : numpy.ndarray
        Cards per rank (A, 2, .., 9, ten-valued) the dealer draws from, the up card already
        out: int64, shape ``(10,)``.
    up : int
        The up card's rank index, 0 (ace) to 9 (ten-valued).
    table : DealerTable
        The dealer's hands of the drawing rule
        (:func:`~gamecore.blackjack.dealer_hands.dealer_table`).
    out : numpy.ndarray
        Written: float64, shape ``(11,)``, the probability of the dealer's 17..21, each bust
        total 22..26 and a Natural (``DEALER_OUTCOMES``' order); the hands the shoe cannot
        complete are left out, so it sums to less than 1 then (all zeros for an empty shoe).
    """
    _dealer_distribution(left, up, table, out)


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
    from ``shoe``) against each up card. Lines are independent: each of ``threads`` fills
    its share (the kernel releases the GIL).

    Parameters
    ----------
    shoe : numpy.ndarray
        Cards per rank (A, 2, .., 9, ten-valued) before any removal, the up card included:
        shape ``(10,)``.
    removed : numpy.ndarray
        Cards taken from ``shoe`` by a player hand and its context, one row per shoe the
        dealer draws from: shape ``(P, 10)``, non-negative integers.
    table : DealerTable
        The dealer's hands of the drawing rule
        (:func:`~gamecore.blackjack.dealer_hands.dealer_table`).
    only_up : int
        An up card's rank index (0 ace .. 9 ten-valued) to compute that up card only;
        -1 (the default) for all ten.
    threads : int or None
        Threads to share the lines among; None: every core.

    Returns
    -------
    numpy.ndarray
        float64, ``out[row, up, outcome]`` of shape ``(P, 10, 11)`` (with ``only_up``:
        ``out[row, outcome]``, shape ``(P, 11)``): the probability of the dealer's 17..21,
        each bust total 22..26 and a Natural with ``up`` showing and the up card taken from
        the row's shoe too; zero where the cards are not there to be dealt, and short of 1
        where the dealer could run out of cards.
    """
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
    # a pass, over every trie node and hand of every up card; each of its rows, over every
    # cell its rank's spans sum; a node or hand weighs 0.7 to a cell's 0.65, their relative
    # costs), several per thread, taken as threads come free: the estimate is off by a sixth
    # either way for some ranks.
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
    rules : StandardBlackjackRules
        The rule set (its ``dealer_hits_soft_17`` and ``peek``; ``decks`` gives the default
        shoe).
    up_card : int or str
        1 or ``"A"`` for an ace, 2..10 (or ``"2"``..``"10"``).
    composition : sequence of int or None
        Cards per rank (A, 2, .., 9, ten-valued) left in the shoe *after* the up card (and
        any other seen cards) were removed; default: the full shoe less the up card.
    after_peek : bool
        Given that the dealer checked for a Natural and has none (only where the rules
        peek); the default is the distribution before any peek.

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
