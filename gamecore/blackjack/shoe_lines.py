"""Many shoes grouped into *lines*: the shoes behind a set of player hands, each given as the
cards removed from one shoe, in groups that differ only in one rank's count.

Central idea
------------
A row of removed cards lies on ten lines, one per rank (the rows equal to it but in that
rank's count); it is put on the one of them that holds the most rows, the first such rank
on a tie. One pass of the dealer's tree then serves a whole line
(:func:`gamecore.blackjack.dealer.dealer_rows`): a split context's extra pair cards make
long lines of the pair's rank.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.hash_table import hash_slot


class DealerLines(NamedTuple):
    """Rows of removed cards grouped into lines: the rows of a line differ only in how many
    cards of the line's ``rank`` they remove. Line ``l`` is the rows
    ``row[start[l]:start[l + 1]]`` of ``removed``."""

    rank: np.ndarray  # (L,)
    start: np.ndarray  # (L + 1,)
    row: np.ndarray  # (P,)


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
    the ten it lies on, one per rank) that holds the most rows (the first such rank).

    Parameters
    ----------
    removed : numpy.ndarray
        Cards removed from one shoe, one row per shoe: shape ``(P, 10)``, non-negative
        integers (int16 or int64), ranks A, 2, .., 9, ten-valued.

    Returns
    -------
    DealerLines
        Every row on exactly one line; the lines rank by rank (each rank's in order of
        first appearance), the rows of a line in their order in ``removed``.
    """
    rows = len(removed)
    most = removed.max(axis=0, initial=0).astype(np.int64)
    radix = np.cumprod(np.concatenate(([1], most[:-1] + 1)))
    line_rank = np.empty(rows, dtype=np.int64)
    start = np.empty(rows + 1, dtype=np.int64)
    row = np.empty(rows, dtype=np.int64)
    lines = _group_lines(removed, radix.astype(np.int64), line_rank, start, row)
    return DealerLines(line_rank[:lines], start[: lines + 1], row)
