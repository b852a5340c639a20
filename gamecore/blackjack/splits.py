"""The split identities: how a split's hands' second cards can fall, and the split's EV from
the values of one split hand.

Central idea
------------
A split hand's value depends on its own cards only, but the hands of one split share a
shoe: each second card drawn may be another pair card (opening a new hand while the rules
allow) or not. :func:`split_patterns` lists how the draws can fall, and a split hand whose
second card is known (not) to be a pair card is valued from the values of one split hand
with ``a`` extra pair cards out of the shoe, ``EV_x[a]`` (its second card unrestricted) and
``EV_p[a]`` (a pair card), through the identity
``EV(shoe) = P(pair card) EV(shoe - pair) + P(other) EV(shoe - other)`` solved for the value
with the other card known not to be a pair card (:func:`split_hands`). Everything here is
linear in those values, so it carries numbers, arrays and whole distributions alike, and
the split's EV is a fixed linear map of them (:func:`split_coefficients`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np


@functools.lru_cache(maxsize=8)
def split_patterns(max_hands: int) -> tuple[tuple[tuple[str, ...], int, int, int], ...]:
    """How the split hands' second cards can fall, splitting to at most ``max_hands`` hands.

    Each pattern is (draws, extra pair cards k, hands whose second card is known not to be a
    pair card n, hands whose second card is unrestricted x): ``draws`` is the sequence of
    "P" (a pair card, opening a new hand) and "N" (a non-pair card) drawn while hands can
    still be added; once ``max_hands`` are on the table the remaining x hands' second cards
    are unrestricted (a pair card is played as a hand).

    Parameters
    ----------
    max_hands : int
        The most hands a pair may split to.

    Returns
    -------
    tuple of (draws, k, n, x)
        Every pattern, in the order the draws branch (a pair card first).
    """
    out = []

    def grow(draws: tuple[str, ...], hands: int, pending: int) -> None:
        if pending == 0:
            out.append((draws, hands - 2, draws.count("N"), 0))
            return
        if hands == max_hands:
            out.append((draws, hands - 2, draws.count("N"), pending))
            return
        grow((*draws, "P"), hands + 1, pending + 1)
        grow((*draws, "N"), hands, pending - 1)

    grow((), 2, 2)
    return tuple(out)


def pattern_probability(draws: Sequence[str], pairs: int, cards: int) -> float:
    """Probability of the draw sequence from a shoe of ``cards`` holding ``pairs`` pair cards.

    Parameters
    ----------
    draws : sequence of str
        "P" (a pair card) and "N" (another card), in the order drawn.
    pairs, cards : int
        Pair cards and all cards in the shoe.

    Returns
    -------
    float
        0 where the shoe runs out.
    """
    p = 1.0
    k = n = 0
    for d in draws:
        left = cards - k - n
        if left <= 0:
            return 0.0
        if d == "P":
            p *= max(pairs - k, 0) / left
            k += 1
        else:
            p *= max(cards - pairs - n, 0) / left
            n += 1
    return p


class SplitPattern(NamedTuple):
    """One way the second cards fall (:func:`split_patterns`), with its probability and the
    value of each of its hands: ``known`` hands whose second card is not a pair card, each
    worth ``known_value``, and ``rest`` unrestricted hands, each worth ``rest_value``."""

    probability: float
    extra_pairs: int
    known: int
    known_value: Any
    rest: int
    rest_value: Any


def split_hands(
    ev_x: Sequence[Any], ev_p: Sequence[Any], pairs: int, cards: int, max_hands: int
) -> Iterator[SplitPattern]:
    """Every split pattern of nonzero probability with the value of its hands.

    A card of unknown rank removed from the shoe is eliminated by
    ``EV(shoe) = P(pair card) EV(shoe - pair) + P(other) EV(shoe - other)``, solved for the
    value with the other card known not to be a pair card.

    Parameters
    ----------
    ev_x : sequence
        ``ev_x[a]``: the value of one split hand with ``a`` extra pair cards removed, its
        second card unrestricted. Numbers or arrays (the identities are linear: a
        distribution is carried as well as a mean).
    ev_p : sequence
        ``ev_p[a]``: the same hand when its second card is a pair card, played as a hand.
    pairs : int
        Pair cards left in the shoe after the pair and the up card are removed.
    cards : int
        All cards left in it.
    max_hands : int
        The most hands the pair may split to.

    Yields
    ------
    SplitPattern
        Each way the second cards fall (:func:`split_patterns`) with its probability and
        the value of each of its hands, of the values' shape.
    """
    zero = _zero_like(ev_x[0])

    @functools.cache
    def unrestricted(a: int, b: int) -> Any:
        if b == 0:
            return ev_x[a] if a < len(ev_x) else zero
        v = ratio(pairs - a, cards - a - (b - 1))
        if v >= 1.0:
            return zero
        return (unrestricted(a, b - 1) - v * unrestricted(a + 1, b - 1)) / (1.0 - v)

    @functools.cache
    def nonpair(a: int, b: int) -> Any:
        if b == 0:
            if a >= len(ev_x):
                return zero
            v = ratio(pairs - a, cards - a)
            if v >= 1.0:
                return zero
            return (ev_x[a] - v * ev_p[a]) / (1.0 - v)
        w = ratio(pairs - a, cards - a - (b - 1) - 1)
        if w >= 1.0:
            return zero
        return (nonpair(a, b - 1) - w * nonpair(a + 1, b - 1)) / (1.0 - w)

    for draws, k, n, rest in split_patterns(max_hands):
        p = pattern_probability(draws, pairs, cards)
        if p == 0.0:
            continue
        yield SplitPattern(
            p,
            k,
            n,
            nonpair(k, n - 1) if n else zero,
            rest,
            unrestricted(k, n) if rest else zero,
        )


def split_value(
    ev_x: Sequence[Any], ev_p: Sequence[Any], pairs: int, cards: int, max_hands: int
) -> Any:
    """Exact EV of splitting (:func:`split_hands`): the patterns' hands summed, weighted by
    the patterns' probabilities.

    Parameters
    ----------
    ev_x, ev_p, pairs, cards, max_hands
        As :func:`split_hands` takes them.

    Returns
    -------
    float or numpy.ndarray
        The EV, of the values' shape.
    """
    total = _zero_like(ev_x[0])
    for pattern in split_hands(ev_x, ev_p, pairs, cards, max_hands):
        hands = (pattern.known * pattern.known_value if pattern.known else 0.0) + (
            pattern.rest * pattern.rest_value if pattern.rest else 0.0
        )
        total = total + pattern.probability * hands
    return total


@functools.lru_cache(maxsize=1024)
def split_coefficients(
    pairs: int, cards: int, max_hands: int, extra: int
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The linear map of :func:`split_value`, found by passing unit vectors through it (the
    identities are linear); cached, as the engine asks for the same few maps per pair.

    Parameters
    ----------
    pairs, cards : int
        Pair cards and all cards left after the pair and the up card are removed.
    max_hands : int
        The most hands the pair may split to.
    extra : int
        The most extra pair cards out of the shoe the values are given for.

    Returns
    -------
    tuple of (tuple of float, tuple of float)
        ``(cx, cp)`` with ``split_value(ev_x, ev_p, pairs, cards, max_hands) == sum_a cx[a]
        ev_x[a] + cp[a] ev_p[a]`` for ``a`` from 0 to ``extra``.
    """
    unit = tuple(np.eye(extra + 1))
    zeros = tuple(np.zeros((extra + 1, extra + 1)))
    cx = split_value(unit, zeros, pairs, cards, max_hands)
    cp = split_value(zeros, unit, pairs, cards, max_hands)
    return tuple(float(c) for c in cx), tuple(float(c) for c in cp)


def _zero_like(value: Any) -> Any:
    return 0.0 if np.ndim(value) == 0 else np.zeros_like(value)


def ratio(num: int, den: int) -> float:
    """``num / den``, 0 where either is not positive (no cards: no chance).

    Parameters
    ----------
    num, den : int
        The numerator and the denominator.

    Returns
    -------
    float
        The ratio, 0.0 where either is not positive.
    """
    if num <= 0 or den <= 0:
        return 0.0
    return num / den


def extra_pairs_needed(max_hands: int) -> int:
    """Largest number of extra pair cards any split value needs removed.

    Parameters
    ----------
    max_hands : int
        The most hands a pair may split to.

    Returns
    -------
    int
        The most pair cards beyond the split's two any pattern's identities take out
        (the split contexts an engine solves per pair).
    """
    need = 0
    for _draws, k, n, rest in split_patterns(max_hands):
        if n:
            need = max(need, k + n - 1)
        if rest:
            need = max(need, k + n)
    return need
