"""Shoe compositions by point class, and the validation of deck counts.

A baccarat shoe is described by how many cards it holds of each point value 0..9: suits and
ranks that share a point value are interchangeable for every bet gamecore evaluates, so the
exact count of an ordered card sequence is a product of falling factorials of these class
counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole

MIN_DECKS = 1
MAX_DECKS = 1000
MAX_CARDS_PER_CLASS = 2**31 - 1

#: Cards of each baccarat point value (index 0..9) in one 52-card deck:
#: 10, J, Q, K (4 suits each) count 0; A counts 1; 2..9 count face value.
BACCARAT_DECK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def validate_decks(decks: object, name: str = "decks") -> int:
    """Return ``decks`` if it is an integer from 1 to 1000, else raise ``GamecoreError``.

    Booleans, floats (even ``6.0``), strings and out-of-range integers are refused: a deck
    count is a count, and silently rounding it would analyse a game nobody asked for.
    """
    if not is_whole(decks):
        raise GamecoreError(
            f"{name} must be an integer from {MIN_DECKS} to {MAX_DECKS}, got {shown(decks)}"
        )
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise GamecoreError(
            f"{name} must be an integer from {MIN_DECKS} to {MAX_DECKS}, got {shown(decks)}"
        )
    return int(decks)


def baccarat_shoe(decks: int) -> np.ndarray:
    """Point-class composition of a shoe of ``decks`` standard decks.

    Examples
    --------
    >>> baccarat_shoe(8).tolist()
    [128, 32, 32, 32, 32, 32, 32, 32, 32, 32]
    """
    decks = validate_decks(decks)
    return np.array(BACCARAT_DECK, dtype=np.int64) * decks


def validate_composition(
    composition: Sequence[int] | np.ndarray,
    classes: int = 10,
    min_cards: int = 6,
    *,
    name: str = "composition",
    labels: str | None = None,
    max_per_class: int = MAX_CARDS_PER_CLASS,
) -> np.ndarray:
    """Check a remaining-shoe composition (cards per class) and return it as int64: every
    game's one check of a shoe given by hand.

    The composition must hold ``classes`` non-negative integers of at most ``max_per_class``
    each (the baccarat kernels multiply a count by a residue below 2**31 in int64; blackjack
    passes its own bound) and at least ``min_cards`` cards in all (a baccarat round can use
    six). ``labels`` names the classes in messages (default: point values 0..classes-1).
    """
    labels = f"point values 0..{classes - 1}" if labels is None else labels
    try:
        values = list(composition)
    except TypeError:
        raise GamecoreError(
            f"{name} must be {classes} card counts ({labels}), got {shown(composition)}"
        ) from None
    if len(values) != classes:
        raise GamecoreError(f"{name} must give {classes} card counts ({labels}), got {len(values)}")
    for index, count in enumerate(values):
        if not is_whole(count) or count < 0:
            raise GamecoreError(
                f"{name}[{index}] must be a non-negative integer, got {shown(count)}"
            )
        if count > max_per_class:
            raise GamecoreError(
                f"{name}[{index}] must be at most {max_per_class:,} cards, got {int(count):,}"
            )
    total = sum(int(c) for c in values)
    if total < min_cards:
        raise GamecoreError(f"{name} must hold at least {min_cards} cards, got {total}")
    return np.array([int(c) for c in values], dtype=np.int64)


def ordered_sequences(cards: int, length: int = 6) -> int:
    """Number of ordered ``length``-card sequences drawn from ``cards`` cards (cards P length)."""
    return math.perm(int(cards), length)
