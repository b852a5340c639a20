"""An open-addressing hash table of non-negative int64 keys, held in a numpy array, for the
kernels that number distinct sets of cards: the shoes grouped into lines
(:mod:`gamecore.blackjack.shoe_lines`), an engine's dealer rows
(:mod:`gamecore.blackjack.engine`) and the sets of cards two split hands hold
(:mod:`gamecore.blackjack.two_hand_split`).

Central idea
------------
A table is an ``(S, 2)`` int64 array, ``S`` a power of two, each row a slot (key, value),
key -1 a free slot. A key's home slot is the low bits of the key times an odd constant
(2**64 over the golden ratio, wrapping), and a taken slot passes on to the next (linear
probing). The caller keeps the table at most half full and writes the slot
:func:`hash_slot` finds.
"""

from __future__ import annotations

import numpy as np

from gamecore._jit import kernel, kernel_face


@kernel(inline=True)
def _hash_slot(table, key):
    mask = table.shape[0] - 1
    slot = (key * 0x9E3779B97F4A7C15) & mask
    while table[slot, 0] != -1 and table[slot, 0] != key:
        slot = (slot + 1) & mask
    return slot


@kernel_face(_hash_slot)
def hash_slot(table: np.ndarray, key: int) -> int:
    """The slot of ``key`` in an open-addressing hash table: the slot holding it, or else the
    free slot where it goes.

    Parameters
    ----------
    table : numpy.ndarray
        The table, int64 of shape ``(S, 2)`` with ``S`` a power of two: each row a slot
        (key, value), key -1 marking a free slot; at least one slot must be free.
    key : int
        The key looked up, a non-negative integer below 2**63.

    Returns
    -------
    int
        The row of ``table``: ``table[slot, 0]`` is ``key`` if it is there, else -1 (and the
        caller writes the key and its value there).
    """
    return int(_hash_slot(table, key))
