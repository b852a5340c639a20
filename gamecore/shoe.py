"""Shoe compositions by point class, and the validation of one given by hand.

A baccarat shoe is described by how many cards it holds of each point value 0..9: suits and
ranks that share a point value are interchangeable for every bet gamecore evaluates, so the
exact count of an ordered card sequence is a product of falling factorials of these class
counts. A full shoe's classes are a view of the card model (:mod:`gamecore.cards`: ranks and
suits); a composition given by hand (:func:`validate_composition`) is point classes only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from gamecore.cards import standard
from gamecore.cards import validate_decks as validate_decks  # still importable from here
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole

MAX_CARDS_PER_CLASS = 2**31 - 1

#: Cards of each baccarat point value (index 0..9) in one 52-card deck:
#: 10, J, Q, K (4 suits each) count 0; A counts 1; 2..9 count face value. The card
#: model's view: (16, 4, 4, 4, 4, 4, 4, 4, 4, 4).
BACCARAT_DECK = tuple(int(n) for n in standard(1).baccarat_classes())

#: How messages name the baccarat point classes 0..9: by rank, as the command line's
#: ``--shoe`` gives them (A..9, then 10 for the ten-valued cards 10, J, Q, K), with the point
#: value where the two differ. A message on a shoe names a rank, never a position in a list
#: (the command line and the API order the same shoe differently).
BACCARAT_CLASS_NAMES = (
    "rank 10 (point value 0)",
    "rank A (point value 1)",
    *(f"rank {value}" for value in range(2, 10)),
)


def baccarat_shoe(decks: int) -> np.ndarray:
    """Point-class composition of a shoe of ``decks`` standard decks: the card model's
    baccarat view (:meth:`gamecore.cards.Shoe.baccarat_classes`), a new array each call.

    Parameters
    ----------
    decks : int
        Decks, an integer 1..1000.

    Returns
    -------
    numpy.ndarray
        Cards of each point value 0..9, int64.

    Examples
    --------
    >>> baccarat_shoe(8).tolist()
    [128, 32, 32, 32, 32, 32, 32, 32, 32, 32]
    """
    return standard(decks).baccarat_classes()


def validate_composition(
    composition: Sequence[int] | np.ndarray,
    min_cards: int = 6,
    *,
    name: str = "composition",
    labels: Sequence[str] = BACCARAT_CLASS_NAMES,
    max_per_class: int = MAX_CARDS_PER_CLASS,
    counted: str = "cards",
) -> np.ndarray:
    """Check a remaining-shoe composition (cards per class) and return it as int64: every
    game's one check of a shoe given by hand.

    The composition must hold one count per class of ``labels`` (the names messages give
    the classes; default the baccarat point values 0..9, :data:`BACCARAT_CLASS_NAMES`), each
    a non-negative integer of at most ``max_per_class`` (the baccarat kernels multiply a
    count by a residue below 2**31 in int64; blackjack passes its own bound), and at least
    ``min_cards`` cards in all (a baccarat round can use six; ``counted`` says what the total
    counts, e.g. that jokers are among them).

    A composition given by hand is point classes only: it cannot be turned into ranks and
    suits (which of the 16 ten-valued cards are kings?), so it stays as given, for the
    point-class kernels; a full shoe comes from :mod:`gamecore.cards`.

    Parameters
    ----------
    composition : sequence of int or numpy.ndarray
        Cards of each class, in the order of ``labels``.
    min_cards : int, default 6
        The fewest cards the shoe may hold.
    name : str, default "composition"
        The parameter's name, as messages show it.
    labels : sequence of str, default :data:`BACCARAT_CLASS_NAMES`
        The classes' names, one per class, as messages show them.
    max_per_class : int, default :data:`MAX_CARDS_PER_CLASS`
        The most cards a class may hold.
    counted : str, default "cards"
        What the total counts, as the message on too few says it.

    Returns
    -------
    numpy.ndarray
        The composition, int64 (else a :class:`GamecoreError` naming what is wrong).

    Examples
    --------
    >>> validate_composition([8, 1, 0, 0, 0, 0, 0, 0, 0, 1]).tolist()
    [8, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    >>> try:
    ...     validate_composition([0, 1, 0, 0, 0, 0, 0, 0, 0, 2**31])
    ... except GamecoreError as error:
    ...     print(error)
    composition count of rank 9 must be at most 2,147,483,647 cards, got 2,147,483,648
    """
    order = f"{labels[0]}, {labels[1]}, ..., {labels[-1]}"
    try:
        values = list(composition)
    except TypeError:
        raise GamecoreError(
            f"{name} must be {len(labels)} card counts ({order}), got {shown(composition)}"
        ) from None
    if len(values) != len(labels):
        raise GamecoreError(
            f"{name} must give {len(labels)} card counts ({order}), got {len(values)}"
        )
    for label, count in zip(labels, values, strict=True):
        if not is_whole(count) or count < 0:
            raise GamecoreError(
                f"{name} count of {label} must be a non-negative integer, got {shown(count)}"
            )
        if count > max_per_class:
            raise GamecoreError(
                f"{name} count of {label} must be at most {max_per_class:,} cards, "
                f"got {int(count):,}"
            )
    total = sum(int(c) for c in values)
    if total < min_cards:
        raise GamecoreError(f"{name} must hold at least {min_cards} {counted}, got {total}")
    return np.array([int(c) for c in values], dtype=np.int64)


def ordered_sequences(cards: int, length: int = 6) -> int:
    """Number of ordered ``length``-card sequences drawn from ``cards`` cards (cards P length).

    Parameters
    ----------
    cards : int
        Cards in the shoe.
    length : int, default 6
        Cards drawn.

    Returns
    -------
    int
        ``cards! / (cards - length)!``, exact.

    Examples
    --------
    >>> ordered_sequences(416)
    4998398275503360
    """
    return math.perm(int(cards), length)
