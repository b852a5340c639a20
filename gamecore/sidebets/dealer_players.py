"""The player's cards of a bet on the dealer's final hand, counted after the dealer's hand.

Central idea
------------
A deal's ways are a product of falling counts, one per set of cards, whatever order the
cards are counted in. Counted after a final hand of the dealer holding ``m[c]`` cards of
point class ``c`` (the up card and hole card included), the player's cards of classes ``c1``
and ``c2`` have ``(n[c1] - m[c1]) (n[c2] - m[c2] - [c1 = c2])`` ways, ``n`` the shoe's
cards of each class. Summed over the hands of one key with weights ``w`` that is a
polynomial in three moments of the hands, ``M0 = sum w``, ``M1[c] = sum w m[c]`` and
``M2[c, c'] = sum w m[c] m[c']``:

    sum over (c1, c2) of n1 n2' M0 - n2' M1[c1] - n1 M1[c2] + M2[c1, c2]

(``n2' = n[c2] - [c1 = c2]``). Where the player's cards are read at their point class
alone (a total, a natural), the dealer's hands are walked once for every up card and hole
card, each final hand adding its weight to its key's moments, and the player's classes are
settled per key, one group of classes the tests cannot tell apart (the same two-card total
and natural) at a time, where the count dealt every pair of the player's classes first and
walked the dealer's hands under each: a hundred times the walks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.exactcount import addmod, mulmod
from gamecore.sidebets.deal import BJ_P1, BJ_P2, FACTS, NATURAL_0, TOTAL_0, blackjack_facts
from gamecore.sidebets.program import RANK_BITS, VALUE, Classes, Program

#: Point classes a player's card is read at (the draw classes where draws are by class).
_CLASSES = 10
#: Columns of a key's moments: ``M0``, then ``M1`` by class, then ``M2`` by pair of classes.
MOMENTS = 1 + _CLASSES + _CLASSES * _CLASSES
#: A blackjack deal's attribute rows and card positions (as the counts hold it).
_ATTRIBUTES, _POSITIONS = 4, 4


class PlayersAfter(NamedTuple):
    """The player's cards counted after the dealer's final hand.

    Attributes
    ----------
    active : int
        1 where the player's cards named are read at their point class alone and the
        dealer draws by point class; 0: the count deals them first.
    positions : numpy.ndarray
        int64 (2,): the player's card positions counted after (-1: not dealt).
    start : numpy.ndarray
        int64 (groups + 1,): group ``g``'s pairs of classes are rows ``start[g]`` up to
        ``start[g + 1]`` of :attr:`pairs`.
    pairs : numpy.ndarray
        int64 (pairs, 2): each pair of the player's classes (-1 for a card not dealt).
    constant : numpy.ndarray
        int64 (groups,): ``sum n1 n2'`` over the group's pairs.
    linear : numpy.ndarray
        int64 (groups, classes): the coefficient of ``M1[c]``, ``sum`` of ``n2'`` where
        ``c1 = c`` and of ``n1`` where ``c2 = c``.
    """

    active: int
    positions: np.ndarray
    start: np.ndarray
    pairs: np.ndarray
    constant: np.ndarray
    linear: np.ndarray


def players_after(program: Program, shoe: Classes, by_rank: bool, active: bool) -> PlayersAfter:
    """How the player's cards of a bet on the dealer's final hand are counted.

    Parameters
    ----------
    program : Program
        The compiled bet: a player's card at level 0 is read at its point class alone.
    shoe : Classes
        The shoe's classes for the bet (their point-class counts).
    by_rank : bool
        The dealer draws by rank (13 classes): the player's cards are then dealt first.
    active : bool
        The bet reads the dealer's final hand.

    Returns
    -------
    PlayersAfter
        Active where some player card is named, every one named is at its point class and
        the dealer draws by point class.
    """
    levels = program.levels[[BJ_P1, BJ_P2]]
    named = [int(p) for p, level in zip((BJ_P1, BJ_P2), levels, strict=True) if level >= 0]
    if not active or by_rank or not named or (levels[levels >= 0] != 0).any():
        return PlayersAfter(
            0,
            np.full(2, -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros((0, 2), dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros((0, _CLASSES), dtype=np.int64),
        )
    counts = [int(n) for n in shoe.counts[0, :_CLASSES]]
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for c1 in range(_CLASSES):
        for c2 in range(_CLASSES) if len(named) == 2 else (-1,):
            groups.setdefault(_player_facts(c1, c2), []).append((c1, c2))
    start, pairs, constant, linear = [0], [], [], []
    for members in groups.values():
        total, coefficients = 0, [0] * _CLASSES
        for c1, c2 in members:
            second = 1 if c2 < 0 else counts[c2] - (c1 == c2)
            total += counts[c1] * second
            coefficients[c1] += second
            if c2 >= 0:
                coefficients[c2] += counts[c1]
        pairs += members
        start.append(len(pairs))
        constant.append(total)
        linear.append(coefficients)
    return PlayersAfter(
        1,
        np.array(named + [-1] * (2 - len(named)), dtype=np.int64),
        np.array(start, dtype=np.int64),
        np.array(pairs, dtype=np.int64),
        np.array(constant, dtype=np.int64),
        np.array(linear, dtype=np.int64),
    )


def _player_facts(first: int, second: int) -> tuple[int, int]:
    """The player's total and natural of two cards of point classes ``first`` and
    ``second`` (-1: not dealt), by the one rule of :func:`deal.blackjack_facts`."""
    dealt = np.full((_ATTRIBUTES, _POSITIONS), -1, dtype=np.int64)
    dealt[VALUE, BJ_P1], dealt[VALUE, BJ_P2] = first, second
    facts = np.zeros(FACTS, dtype=np.int64)
    blackjack_facts(dealt, facts)
    return int(facts[TOTAL_0]), int(facts[NATURAL_0])


@kernel
def _add_moments(moments, packed, ways, modulus):
    """Add a final hand of classes ``packed`` (:data:`RANK_BITS` bits a class) with weight
    ``ways`` to a key's moments."""
    moments[0] = addmod(moments[0], ways, modulus)
    for c in range(_CLASSES):
        held = (packed >> (RANK_BITS * c)) & 15
        if held == 0:
            continue
        weighted = mulmod(ways, held, modulus)
        moments[1 + c] = addmod(moments[1 + c], weighted, modulus)
        for d in range(_CLASSES):
            other = (packed >> (RANK_BITS * d)) & 15
            if other != 0:
                cell = 1 + _CLASSES + _CLASSES * c + d
                moments[cell] = addmod(moments[cell], mulmod(weighted, other, modulus), modulus)


@kernel
def _group_ways(players, group, moments, modulus):
    """The ways of the player's pairs of classes in ``group`` over a key's hands."""
    constant = players.constant[group] % modulus if modulus else players.constant[group]
    ways = mulmod(constant, moments[0], modulus)
    less = 0
    for c in range(_CLASSES):
        linear = players.linear[group, c] % modulus if modulus else players.linear[group, c]
        less = addmod(less, mulmod(linear, moments[1 + c], modulus), modulus)
    for row in range(players.start[group], players.start[group + 1]):
        c1, c2 = players.pairs[row, 0], players.pairs[row, 1]
        if c2 >= 0:
            ways = addmod(ways, moments[1 + _CLASSES + _CLASSES * c1 + c2], modulus)
    if modulus == 0:
        return ways - less
    return addmod(ways, modulus - less % modulus, modulus)


@kernel_face(_add_moments)
def add_moments(moments: np.ndarray, packed: int, ways: int, modulus: int) -> None:
    """Add a final hand with weight ``ways`` to a key's moments.

    Parameters
    ----------
    moments : numpy.ndarray
        int64 (:data:`MOMENTS`,): ``M0``, ``M1`` by class, ``M2`` by pair of classes.
    packed : int
        The hand's classes, :data:`gamecore.sidebets.program.RANK_BITS` bits a class.
    ways : int
        The hand's ways, its completion included (reduced by ``modulus`` unless 0).
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.
    """
    _add_moments(moments, packed, ways, modulus)


@kernel_face(_group_ways)
def group_ways(players: PlayersAfter, group: int, moments: np.ndarray, modulus: int) -> int:
    """The ways of one group of the player's classes over the hands of a key.

    Parameters
    ----------
    players : PlayersAfter
        :func:`players_after`.
    group : int
        The group.
    moments : numpy.ndarray
        The key's moments (:func:`add_moments`).
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.

    Returns
    -------
    int
        ``sum`` over the group's pairs of the player's ways after each hand, times its
        weight.
    """
    return int(_group_ways(players, group, moments, modulus))
