"""Rounds split once and played to two hands, exactly: the probability of each net result
from every pair of the two hands' ends.

Central idea
------------
Each split hand's play depends on its own cards only, so every way a hand can end is listed
with its number of card orders (:func:`gamecore.blackjack.hand_ends.two_hand_ends`); a pair
of ends has the probability of drawing the cards both hold, and the dealer then draws from
what is left. The dealer's distribution is computed once per distinct set of held cards
(many pairs share one), found through a hash table of the sets' codes, and not at all for a
set only pairs of plain busts hold, lost whatever the dealer draws. This is how Eric
Farmer's ``blackjack_pdf`` handles splits, and where it stops (a resplit:
:mod:`gamecore.blackjack.results`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.dealer import dealer_rows
from gamecore.blackjack.hand_ends import HALF_UNITS, TwoHandEnds, dealer_free_classes
from gamecore.blackjack.hash_table import hash_slot
from gamecore.blackjack.rules import ACE, N_OUTCOMES, NATURAL, TEN

if TYPE_CHECKING:
    from gamecore.blackjack.engine import Engine


def _falling_factorials(shoe: np.ndarray, most: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Falling factorials scaled by a power of two: ``ff[r, k] = ff(shoe[r], k) / 2**(e k)``
    for k <= ``most[r]`` (0 past the shoe), and ``inverse[k] = 2**(e k) / ff(n, k)`` for k
    below the shoe's size ``n`` (0 from there: a pair of hands taking every card leaves
    none for the dealer's hole card), ``2**e`` the least power of two above ``n``.

    A probability of drawing k cards multiplies k factors of ``ff`` and ``inverse[k]``, so
    the scales cancel; and a power of two scales a float exactly, so each such product is
    the unscaled one to the last bit wherever that one stays a normal float. Unscaled,
    ``ff(n, k)`` left the float range (1.8e308) inside this table at large shoes (from 66
    cards at a thousand decks, 45 at the largest shoe, ten million cards; two hands draw 40
    at most), and its inverse read 0 there. Scaled, every factor but the zeros past the shoe
    lies in ``[2**-e, 1]`` (``e`` at most 24): ``ff`` stays at most 1, ``inverse[k]`` below
    ``(2 * 2.72)**k`` (far inside the range for the 130 or fewer cards of the table), and
    the product over two hands' cards at least ``2**(-24 * 40)``, still a normal float."""
    n, top = int(shoe.sum()), int(most.sum())
    scale = 2.0 ** -n.bit_length()
    k = np.arange(1, most.max() + 1)
    factors = np.maximum(shoe[:, None] - k[None, :] + 1, 0) * scale
    factors[k[None, :] > most[:, None]] = 0.0  # past each rank's bound: not used
    ff = np.concatenate((np.ones((10, 1)), np.cumprod(factors, axis=1)), axis=1)
    inverse = np.zeros(top + 1)
    kept = min(top, n - 1) + 1
    if kept > 0:
        drawn = np.cumprod((n - np.arange(kept - 1.0)) * scale)
        inverse[:kept] = 1.0 / np.concatenate(([1.0], drawn))
    return ff, inverse


@kernel(inline=True)
def _pair_probability(drawn, end_ways, e1, e2, ff, inverse):
    """Probability of the ordered pair of hand ends ``(e1, e2)`` (both orders counted when
    they differ): ``ways_1 * ways_2 * prod_r ff(n_r, k_r) / ff(n, k)``, the two hands' cards
    drawn without replacement from the shoe of ``ff`` and ``inverse``
    (:func:`_falling_factorials`, whose scales cancel: ``k = sum_r k_r``); zero where the
    shoe lacks the cards or leaves none for the dealer's hole card."""
    p = end_ways[e1] * end_ways[e2] * (1.0 if e1 == e2 else 2.0)
    taken = 0
    for r in range(10):
        used = drawn[e1, r] + drawn[e2, r]
        p *= ff[r, used]
        taken += used
    return p * inverse[taken]


class _Unions(NamedTuple):
    """What :func:`_pair_unions` fills: ``union[k]`` the set of cards the k-th pair of hand
    ends holds (-1: the pair cannot happen), through the hash ``table`` of the sets' codes;
    ``first``, ``second`` one pair holding each set; ``needed[u]`` some pair holding set ``u``
    settles by the dealer's outcome."""

    table: np.ndarray  # (S, 2) int64, key -1 free
    union: np.ndarray  # (pairs,) int32
    first: np.ndarray  # (S // 2,) int32
    second: np.ndarray  # (S // 2,) int32
    needed: np.ndarray  # (S // 2,) bool


@kernel(inline=True)
def _pair_fits(drawn, e1, e2, shoe, n):
    """Does the shoe (``n`` cards) hold the cards of both hand ends and leave one for the
    dealer's hole card: is the pair's probability (:func:`_pair_probability`) not zero?"""
    fits = True
    taken = 0
    for r in range(10):
        used = drawn[e1, r] + drawn[e2, r]
        fits = fits and used <= shoe[r]
        taken += used
    return fits and taken < n


@kernel
def _pair_unions(ends, code, shoe, free, out):
    """Every pair of hand ends ``e1 <= e2`` (:class:`TwoHandEnds`), in order, into ``out``
    (:class:`_Unions`; the sets numbered from their codes' sum; ``free[class]``: a class
    settled alike against every dealer outcome), drawn from ``shoe``. Returns the number of
    sets, or -1 when ``out.table`` is half full (call again with a larger one).

    Whether a pair can be dealt is settled once for all the pairs of an end ``e1`` where its
    cards and the most any end draws of each rank fit in the shoe (at 6 decks, every end):
    on the heaviest split at 6 decks (2.3 million pairs) the test pair by pair was the
    larger part of the work."""
    drawn, end_class, _ways = ends
    table = out.table
    ends_count = code.size
    n = 0
    for r in range(10):
        n += shoe[r]
    most = np.zeros(10, dtype=np.int64)  # the most cards of each rank an end draws
    most_cards = 0
    for e in range(ends_count):
        cards = 0
        for r in range(10):
            most[r] = max(most[r], drawn[e, r])
            cards += drawn[e, r]
        most_cards = max(most_cards, cards)
    unions = 0
    k = 0
    for e1 in range(ends_count):
        every_pair_fits = True
        cards = 0
        for r in range(10):
            every_pair_fits = every_pair_fits and drawn[e1, r] + most[r] <= shoe[r]
            cards += drawn[e1, r]
        every_pair_fits = every_pair_fits and cards + most_cards < n
        for e2 in range(e1, ends_count):
            out.union[k] = -1
            if every_pair_fits or _pair_fits(drawn, e1, e2, shoe, n):
                key = code[e1] + code[e2]
                slot = hash_slot(table, key)
                if table[slot, 0] == -1:
                    if 2 * (unions + 1) > table.shape[0]:
                        return -1
                    table[slot, 0], table[slot, 1] = key, unions
                    out.first[unions], out.second[unions] = e1, e2
                    out.needed[unions] = False
                    unions += 1
                u = table[slot, 1]
                out.union[k] = u
                if not (free[end_class[e1]] and free[end_class[e2]]):
                    out.needed[u] = True
            k += 1
    return unions


class _UnionDealers(NamedTuple):
    """The dealer behind each set of cards two split hands hold: ``row[u]`` the set's row of
    ``dealer`` (its final distribution), -1 where none was needed (every pair holding the
    set settles the same whatever the dealer's outcome: both hands plain busts); ``live[u]``
    the chance the dealer has no Natural behind the set (1 without the peek)."""

    row: np.ndarray  # (U,) int64
    dealer: np.ndarray  # (rows, N_OUTCOMES)
    live: np.ndarray  # (U,)


@kernel
def _settle_pairs(ends, ff, inverse, union, dealers, settle, peek, out):
    """Add every pair of hand ends' (:class:`TwoHandEnds`) net result (half units, index +
    16) to ``out``: the pair's probability times the dealer's outcome behind the cards both
    hold (:class:`_UnionDealers`), settled hand by hand. Under the peek the dealer's Natural is
    left out (no split is played: the caller books its loss).

    The pairs are first summed by their two hands' classes (a pair's settlement depends on
    nothing else): one contiguous row of adds per pair, and each net result then gathered
    once per class pair and dealer outcome, far fewer gathers than pairs (2.3 million
    pairs on the heaviest split at 6 decks)."""
    drawn, end_class, end_ways = ends
    classes = settle.shape[0]
    by_pair = np.zeros((classes * classes, N_OUTCOMES))  # sum of p * dealer, class pair
    settled = np.zeros(classes * classes)  # sum of p * P(no Natural), pairs of plain busts
    k = 0
    for e1 in range(end_class.size):
        first = end_class[e1] * classes
        for e2 in range(e1, end_class.size):
            u = union[k]
            k += 1
            if u < 0:
                continue
            p = _pair_probability(drawn, end_ways, e1, e2, ff, inverse)
            pair = first + end_class[e2]
            row = dealers.row[u]
            if row < 0:  # the same result against every outcome the dealer can reach
                settled[pair] += p * dealers.live[u]
                continue
            for d in range(N_OUTCOMES):
                by_pair[pair, d] += p * dealers.dealer[row, d]
    for c1 in range(classes):
        for c2 in range(classes):
            pair = c1 * classes + c2
            out[settle[c1, 0] + settle[c2, 0] + 16] += settled[pair]
            for d in range(N_OUTCOMES):
                if peek and d == NATURAL:
                    continue
                out[settle[c1, d] + settle[c2, d] + 16] += by_pair[pair, d]


def _numbered_unions(ends, code, shoe, free) -> tuple[_Unions, int]:
    """:func:`_pair_unions` into a table large enough, and the number of sets."""
    found = len(ends.ways)
    # About 70 unions per end at 6 decks: a table that size is rarely outgrown.
    size = 1 << int(np.ceil(np.log2(128 * found + 2)))
    union = np.empty(found * (found + 1) // 2, dtype=np.int32)
    while True:
        half = size // 2
        sets = _Unions(
            np.full((size, 2), -1, dtype=np.int64),
            union,
            np.empty(half, dtype=np.int32),
            np.empty(half, dtype=np.int32),
            np.empty(half, dtype=np.bool_),
        )
        unions = _pair_unions(ends, code, shoe, free, sets)
        if unions >= 0:
            return sets, unions
        size *= 4


def two_hand_split(
    engine: Engine, ends: TwoHandEnds, pair: int, up: int, settle: np.ndarray
) -> np.ndarray:
    """The exact distribution of the net result of a split of ``pair`` against ``up`` over
    the rounds that end with two hands (no resplit), given the split is played.

    Parameters
    ----------
    engine : Engine
        The engine of the rules and shoe (its shoe, dealer table and rule codes).
    ends : TwoHandEnds
        Every way one hand of the split ends
        (:func:`~gamecore.blackjack.hand_ends.two_hand_ends`); both hands end so.
    pair : int
        The pair's rank index, 0 (aces) to 9 (ten-valued).
    up : int
        The dealer's up card, a rank index 0 (ace) to 9.
    settle : numpy.ndarray
        The settlement table (:func:`~gamecore.blackjack.hand_ends.settlement`).

    Returns
    -------
    numpy.ndarray
        float64 of shape ``(HALF_UNITS,)``: ``out[x + 16]`` the probability of a net result
        of ``x`` half units over both hands, each round weighed by its chance given the
        pair and the up card; rounds that resplit are not in it (their share is missing
        from its sum), nor, under the peek, rounds the dealer's Natural ends first.
    """
    drawn, end_class, end_ways = ends
    shoe = engine.shoe.astype(np.int64)
    shoe[pair] -= 2
    shoe[up] -= 1
    # The dealer's distribution once per distinct set of cards the two hands hold (many
    # pairs of ends share one), found through a hash table of the sets' codes.
    most = 2 * drawn.max(axis=0)
    radix = np.cumprod(np.concatenate(([1], most[:-1] + 1)))
    code = drawn @ radix
    ff, inverse = _falling_factorials(shoe, most)
    # A fifth of the sets are held only by pairs of plain busts, lost whatever the dealer
    # draws: their distribution is not needed, only the chance of no Natural, as long as
    # the shoe left cannot run dry under the dealer (else the distribution's own mass).
    free = dealer_free_classes(settle, engine.codes.peek)
    sets, unions = _numbered_unions(ends, code, shoe, free)
    union = sets.union
    small = drawn.astype(np.int16)  # what dealer_rows takes (counts of a few cards)
    held = small[sets.first[:unions]] + small[sets.second[:unions]]
    needed = sets.needed[:unions].copy()
    del sets  # tens of megabytes at 6 decks: not held through the dealer's
    peek = engine.codes.peek
    left = shoe.sum() - held.sum(axis=1, dtype=np.int64)
    needed |= left < engine.dealer.most_drawn[up]
    hole = {ACE: TEN, TEN: ACE}.get(up)
    live = np.ones(unions)
    if peek and hole is not None:
        live -= (shoe[hole] - held[:, hole]) / np.maximum(left, 1)
    rows = np.flatnonzero(needed)
    row_of = np.full(unions, -1, dtype=np.int64)
    row_of[rows] = np.arange(len(rows))
    with_up = shoe.copy()
    with_up[up] += 1  # dealer_rows takes the up card out itself
    # One thread: the splits themselves are worked side by side (results.result_distribution).
    dealer = dealer_rows(with_up, held[rows], engine.dealer, up, threads=1)
    del held
    out = np.zeros(HALF_UNITS)
    dealers = _UnionDealers(row_of, dealer, live)
    _settle_pairs(ends, ff, inverse, union, dealers, settle, peek, out)
    return out
