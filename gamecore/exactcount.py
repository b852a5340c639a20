"""Exact integer counts that never overflow, and their polynomial form in the deck count.

Central idea
------------
A kernel counts ordered card sequences by summing products of card counts. Every partial
sum is bounded by the total number of sequences, which Python computes exactly beforehand
(``N P 6`` for baccarat). So overflow is settled *before* the kernel runs:

* If the bound fits in int64, the kernel runs in plain int64 arithmetic: it cannot wrap.
* Otherwise the kernel runs once per prime modulus p < 2**31 (every product of two
  residues fits in int64), and the Chinese remainder theorem rebuilds each count exactly
  in Python integers, using enough primes that their product exceeds the bound.

For a shoe of ``n`` identical decks, each count is a sum of products of at most six factors
that are linear in ``n``, so it is a polynomial of degree at most six in ``n``. Seven exact
evaluations (n = 1..7) therefore fix it for every deck count, and its leading coefficient
gives the infinite-deck limit exactly. :class:`DeckPolynomial` holds that form through its
forward differences, so all its arithmetic stays in integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from gamecore._jit import kernel, kernel_face

INT64_MAX = np.iinfo(np.int64).max

#: The twelve largest primes below 2**31 (checked in the tests by trial division). A product of
#: two residues is below 2**62, so the kernels' modular products never overflow int64.
CRT_PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
)


@kernel
def _mulmod(a, b, modulus):
    if modulus == 0:
        return a * b
    return ((a % modulus) * (b % modulus)) % modulus


@kernel_face(_mulmod)
def mulmod(a: int, b: int, modulus: int) -> int:
    """a * b, reduced modulo ``modulus`` unless it is 0 (plain int64, overflow excluded by
    the caller's bound). Used by every counting kernel.

    Both factors are reduced first, so any two non-negative int64 operands are safe: a
    kernel's ``n - 4`` for a shoe of more than about 3e9 cards is not a residue yet, and the
    unreduced product would wrap.

    Parameters
    ----------
    a, b : int64
        Non-negative factors.
    modulus : int64
        0 for plain int64 arithmetic, else a prime below 2**31 (:data:`CRT_PRIMES`).

    Returns
    -------
    int64
        The product, or its residue.
    """
    return int(_mulmod(a, b, modulus))


@kernel
def _addmod(a, b, modulus):
    if modulus == 0:
        return a + b
    return (a + b) % modulus


@kernel_face(_addmod)
def addmod(a: int, b: int, modulus: int) -> int:
    """a + b, reduced modulo ``modulus`` unless it is 0.

    Parameters
    ----------
    a, b : int64
        Non-negative residues (or plain counts when ``modulus`` is 0).
    modulus : int64
        0 for plain int64 arithmetic, else a prime below 2**31 (:data:`CRT_PRIMES`).

    Returns
    -------
    int64
        The sum, or its residue.
    """
    return int(_addmod(a, b, modulus))


@kernel
def _invmod(a, modulus):
    inverse, base, power = 1, a % modulus, modulus - 2  # Fermat: a^(p-2) = 1/a mod p
    while power > 0:
        if power & 1:
            inverse = (inverse * base) % modulus
        base = (base * base) % modulus
        power >>= 1
    return inverse


@kernel_face(_invmod)
def invmod(a: int, modulus: int) -> int:
    """The inverse of ``a`` modulo the prime ``modulus``: where a count is known to be a
    multiple of ``a``, its residue times this is the residue of the quotient.

    Parameters
    ----------
    a : int64
        Positive, not a multiple of ``modulus``.
    modulus : int64
        A prime below 2**31 (:data:`CRT_PRIMES`).

    Returns
    -------
    int64
        ``b`` in ``[1, modulus)`` with ``a b = 1`` modulo ``modulus``.

    Examples
    --------
    >>> invmod(3, 7)
    5
    """
    return int(_invmod(a, modulus))


def moduli_for(bound: int) -> tuple[int, ...]:
    """The moduli to count with when counts may reach ``bound``: ``(0,)`` means plain int64.

    Parameters
    ----------
    bound : int
        An upper bound on every count, exact.

    Returns
    -------
    tuple of int
        ``(0,)``, or the fewest of :data:`CRT_PRIMES` whose product exceeds ``bound``.

    Raises
    ------
    OverflowError
        ``bound`` beyond the product of every prime.

    Examples
    --------
    >>> moduli_for(1000)
    (0,)
    >>> len(moduli_for(2**64))
    3
    """
    if bound <= INT64_MAX:
        return (0,)
    chosen, product = [], 1
    for prime in CRT_PRIMES:
        chosen.append(prime)
        product *= prime
        if product > bound:
            return tuple(chosen)
    raise OverflowError(f"counts up to {bound} exceed the {len(CRT_PRIMES)}-prime CRT range")


def exact_counts(count_mod: Callable[[int], np.ndarray], bound: int) -> np.ndarray:
    """Run ``count_mod(modulus)`` as needed and return exact counts as Python ints.

    Parameters
    ----------
    count_mod
        Calls the kernel with a modulus: 0 for plain int64 arithmetic, else a prime from
        :data:`CRT_PRIMES`; returns an int64 array of counts (or of residues).
    bound
        An upper bound on every count, computed exactly in Python.

    Returns
    -------
    numpy.ndarray
        Object array of Python ints, same shape as the kernel's output.
    """
    moduli = moduli_for(bound)
    if moduli == (0,):
        return count_mod(0).astype(object)
    modulus_product = math.prod(moduli)
    result = 0
    for prime in moduli:
        cofactor = modulus_product // prime
        result = result + count_mod(prime).astype(object) * (cofactor * pow(cofactor, -1, prime))
    return result % modulus_product


def exact_counts_at_once(count_at: Callable[[np.ndarray], np.ndarray], bound: int) -> np.ndarray:
    """Exact counts from one run of a kernel that counts under every modulus at once.

    Where counts pass int64, :func:`exact_counts` runs its kernel once per prime; a kernel
    whose enumeration costs more than its arithmetic takes them all in one visit of each
    deal instead, a row of residues per prime, and the Chinese remainder theorem rebuilds
    each count as there.

    Parameters
    ----------
    count_at
        Calls the kernel with an int64 array of moduli (``[0]`` for plain int64
        arithmetic, else primes from :data:`CRT_PRIMES`); returns an int64 array with a
        row of counts (or residues) per modulus.
    bound
        An upper bound on every count, computed exactly in Python.

    Returns
    -------
    numpy.ndarray
        Object array of Python ints, one row's shape.
    """
    moduli = moduli_for(bound)
    rows = count_at(np.array(moduli, dtype=np.int64))
    if moduli == (0,):
        return rows[0].astype(object)
    modulus_product = math.prod(moduli)
    result = 0
    for row, prime in zip(rows, moduli, strict=True):
        cofactor = modulus_product // prime
        result = result + row.astype(object) * (cofactor * pow(cofactor, -1, prime))
    return result % modulus_product


class DeckPolynomial:
    """Exact counts as a polynomial of degree <= 6 in the deck count ``n``.

    Built from the exact counts at ``n = 1..7`` (an object array each). Holds the forward
    differences at ``n = 1``, so evaluation is Newton's forward formula
    ``f(n) = sum_k C(n - 1, k) * D^k f(1)``, all in integers.
    """

    DEGREE = 6

    def __init__(self, counts_at: Callable[[int], np.ndarray]) -> None:
        values = [counts_at(n) for n in range(1, self.DEGREE + 2)]
        self.differences = []
        for _ in range(self.DEGREE + 1):
            self.differences.append(values[0])
            values = [b - a for a, b in zip(values, values[1:], strict=False)]

    def __call__(self, decks: int) -> np.ndarray:
        """Exact counts for a shoe of ``decks`` decks."""
        return sum(math.comb(decks - 1, k) * diff for k, diff in enumerate(self.differences))

    def leading_coefficient(self) -> np.ndarray:
        """Coefficient of ``n**6`` as exact Fractions: ``D^6 f / 6!``.

        Returns
        -------
        numpy.ndarray
            Object array of :class:`fractions.Fraction`, the counts' shape.
        """
        sixth = self.differences[self.DEGREE]
        factorial = math.factorial(self.DEGREE)
        return np.array([Fraction(int(v), factorial) for v in sixth.flat], dtype=object).reshape(
            sixth.shape
        )
