"""gamecore._jit.borrowed: a borrowed array, generator or NamedTuple of them is the same
data (writes land in the caller's arrays, draws come from the caller's generator) and
leaves no reference behind."""

import sys
from typing import NamedTuple

import numpy as np
from numba import njit

from gamecore._jit import borrowed


class Pair(NamedTuple):
    counts: np.ndarray
    total: float
    draws: np.ndarray


@njit(inline="always")
def _add(pair, rng, i):
    pair.counts[i % pair.counts.size] += 1
    pair.draws[i] = rng.random()


@njit
def _fill(rng, pair):
    rng, pair = borrowed(rng), borrowed(pair)
    for i in range(pair.draws.size):
        _add(pair, rng, i)
    return pair.total


def test_borrowed_values_are_the_callers_data():
    pair = Pair(np.zeros(3, dtype=np.int64), 2.5, np.zeros(7))
    assert _fill(np.random.default_rng(5), pair) == 2.5
    assert pair.counts.tolist() == [3, 2, 2]  # i % 3 over i = 0..6
    assert pair.draws.tolist() == np.random.default_rng(5).random(7).tolist()


def test_borrowed_values_leave_no_reference():
    pair = Pair(np.zeros(3, dtype=np.int64), 0.0, np.zeros(7))
    rng = np.random.default_rng(1)
    _fill(rng, pair)
    before = [sys.getrefcount(pair.counts), sys.getrefcount(pair.draws), sys.getrefcount(rng)]
    for _ in range(50):
        _fill(rng, pair)
    after = [sys.getrefcount(pair.counts), sys.getrefcount(pair.draws), sys.getrefcount(rng)]
    assert after == before
