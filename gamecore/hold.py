"""Hold monitoring: what a table's result should look like after N rounds of one wager, so a
regulator or a casino's audit department can set a table's actual hold beside the math.

Central idea
------------
A wager's net result per round (units of the wager, the player's side) has a distribution
on a lattice (exact, or as the caller's :class:`Obtained` says): its payouts are rational
(baccarat's 0.95, blackjack's half units), so every result is its smallest result plus a
whole number of one step, the greatest common divisor of the results' differences (a bet of
two results is one step wide whatever it pays: a Tie paying 1000 to 1 has step 1001).
After ``N`` rounds of one unit each:

* the house's *hold*, its win as a share of the money wagered, has mean the house edge and
  standard deviation ``sd / sqrt(N)``; the 95% band is ``edge +- 1.96 sd / sqrt(N)``, the
  normal approximation (said so in every table). A payout that favours the player makes
  the edge, and the hold, negative: the house is expected to lose;
* the probability that the house is *behind* (the players' total result above zero) is
  computed from the whole distribution, not the normal approximation: the ``N``-fold
  convolution of the per-round distribution on its lattice, by repeated squaring with FFT
  products (scipy), each power cut to its mean +- 14 standard deviations (a tail beyond
  them holding more than 1e-15 is kept: a rare large payout's; the products' round-off,
  about 1e-17 an entry, is not counted as such a tail). The mass cut is added up
  and reported; the products are floating point, good to about 1e-13 absolutely on a short
  lattice (about 1e-11 on one of a million steps: a 1000 to 1 payout over 1,000 rounds).
  Memory is bounded by the lattice, never by the payouts: a sum spanning more than
  :data:`MAX_LATTICE` points (a payout of many decimals beside -1 and 0, such as a 5.12345%
  commission, or 1,000,000 to 1 beside an even-money result) is not computed, and its row
  says so and why (NaN, and its twin's z with it).

Each such probability has a simulated twin (:func:`house_behind_twin`): sessions of ``N``
rounds drawn as multinomial counts of the per-round results.

How each figure was obtained
----------------------------
The caller says how each wager's per-round distribution was obtained (:class:`Obtained`,
no default: exact integer counts of card sequences, a float64 recursion, or exact up to a
bound), and every row carries it in a ``How obtained`` column, so no figure drawn from an
approximate distribution is printed as if exact. The figures a regulator files (the SD and
the hit frequency: the par sheet's) each have a numeric bound column right after them, 0
where exact: ``SD bound (±)``, ``Hit frequency bound (±)``, and the band's ends theirs,
``95% band bound (±)`` (``1.96 x SD bound / sqrt(N)``: the band's only input that is not
exact is the SD). The expected hold is the distribution's mean, exact wherever it is
stated. ``P(house behind), N-fold convolution`` is exact for the distribution given; where
that distribution is itself approximate, ``How obtained`` says whether a bound is stated
for it (blackjack's resplit rounds: none).

Its twin draws from the same per-round distribution, so its z checks the convolution, not
the distribution's approximation: the twins stay under the 4-sigma rule (never
:data:`gamecore.twins.APPROXIMATE`), each with the ``How obtained`` of its wager.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.signal import fftconvolve

from gamecore import twins
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole, real_or_fraction

#: The session lengths every report monitors.
ROUNDS = (1_000, 10_000, 100_000, 1_000_000)

#: Each convolution power is kept within its mean +- this many standard deviations.
WIDTH = 14.0

#: A tail holding more probability than this is kept, however far beyond WIDTH standard
#: deviations it lies: a wager with a rare large payout (a side bet's 1000 to 1) has it
#: beyond WIDTH sd of the sum of a few rounds, and cutting it there would drop the very
#: results that put the house behind. Far above the FFT products' noise, so a wager whose
#: tails are light keeps exactly its WIDTH sd window.
KEEP_TAIL = 1e-15

#: The most points a sum's lattice may span (:class:`LatticeTooLarge`): 64 MB of float64,
#: a few times that while two such sums are multiplied.
MAX_LATTICE = 2**23

#: An FFT product's round-off per entry, relative to its inputs' norms and the log of its
#: size: half float64's machine epsilon, five times the most measured on a pmf.
ROUND_OFF = 1e-16

#: z of a two-sided 95% band.
Z95 = 1.959963984540054

#: The column of the probability that the house is behind.
HOUSE_BEHIND = "P(house behind), N-fold convolution"


@dataclasses.dataclass(frozen=True)
class Obtained:
    """How a wager's per-round distribution was obtained, and how far the figures drawn
    from it can be off.

    Attributes
    ----------
    how
        A sentence: ``"exact: integer counts of card sequences"`` (:data:`INTEGER_COUNTS`),
        ``"exact: float64 recursion"``, or what is approximate and how (for blackjack,
        :meth:`gamecore.blackjack.results.ResultDistribution.obtained`).
    sd_bound, hit_bound
        The most the SD per round and the hit frequency can be off (0: exact).
    """

    how: str
    sd_bound: float = 0.0
    hit_bound: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.how, str) or not self.how.strip():
            raise GamecoreError(f"how a distribution was obtained, got {shown(self.how)}")
        for name in ("sd_bound", "hit_bound"):
            value = real_or_fraction(f"the {name}", getattr(self, name))
            if not value >= 0:
                raise GamecoreError(f"the {name} must be at least 0, got {shown(value)}")


#: Every wager settled from integer counts of card sequences (the baccarat games and the
#: other games of a few cards, the side bets): every figure exact.
INTEGER_COUNTS = Obtained("exact: integer counts of card sequences")


def _checked(distribution: object) -> tuple[list[int | float | Fraction], np.ndarray]:
    """(net results, probabilities as floats) of a distribution {net result: probability},
    each a number as :func:`gamecore.numeric.real_or_fraction` takes it (a string such as
    ``"1"`` or ``"0.5"`` is refused, naming it), the probabilities non-negative and summing
    to 1."""
    if not isinstance(distribution, Mapping) or not distribution:
        raise GamecoreError(
            f"a distribution must map net results to probabilities, got {shown(distribution)}"
        )
    values = [real_or_fraction("a net result", value) for value in distribution]
    probabilities = np.array(
        [
            float(real_or_fraction(f"the probability of net result {shown(value)}", p))
            for value, p in distribution.items()
        ]
    )
    if (probabilities < 0).any():
        raise GamecoreError("probabilities must be non-negative")
    if abs(probabilities.sum() - 1.0) > 1e-9:
        raise GamecoreError(f"probabilities must sum to 1, got {shown(probabilities.sum())}")
    return values, probabilities


def _lattice(distribution: object) -> tuple[Fraction, Fraction, np.ndarray, np.ndarray]:
    """(origin, step, results in steps as integers, probabilities as floats) of a
    distribution {net result: probability} (:func:`_checked`) whose results are rationals
    (floats are read exactly): each result is ``origin + steps * step``, the origin the
    smallest result and the step the greatest common divisor of the results' differences
    from it. A bet of two results (a Tie paying 1000 to 1: 1001 apart) is one step wide
    whatever it pays, so its sums take as many points as a coin's."""
    numbers, probabilities = _checked(distribution)
    # An exact result (int, Fraction) as it is; a float as the decimal it was written as.
    values = [v if isinstance(v, (int, Fraction)) else _decimal(v) for v in numbers]
    origin = min(values)
    differences = [v - origin for v in values]
    nonzero = [d for d in differences if d != 0]
    if not nonzero:
        return origin, Fraction(1), np.zeros(len(values), dtype=np.int64), probabilities
    denominator = math.lcm(*(d.denominator for d in nonzero))
    step = Fraction(math.gcd(*(int(d * denominator) for d in nonzero)), denominator)
    steps = np.array([int(d / step) for d in differences], dtype=np.int64)
    return origin, step, steps, probabilities


def _decimal(value: float) -> Fraction:
    """A float result as the fraction it stands for: ``0.95`` is 19/20, not the binary
    fraction nearest it (whose denominator is 2^52)."""
    return Fraction(value).limit_denominator(10**6)


class LatticeTooLarge(GamecoreError):
    """A sum's lattice would need more than :data:`MAX_LATTICE` points: a payout far from
    the others in steps of their common divisor (1,000,000 to 1 beside an even-money result;
    a payout of many decimals, such as 1.234567, beside -1)."""


def _lattice_points(steps: np.ndarray, probabilities: np.ndarray, rounds: int) -> float:
    """The points the total of ``rounds`` results spans on its lattice: its mean +-
    :data:`WIDTH` standard deviations, at most every total there is."""
    mean = float(np.dot(steps, probabilities))
    variance = max(float(np.dot(steps.astype(float) ** 2, probabilities)) - mean**2, 0.0)
    window = 2 * WIDTH * math.sqrt(variance * rounds) + float(steps.max()) + 1
    return min(window, rounds * float(steps.max()) + 1)


class _SumOf:
    """The distribution of a sum of ``rounds`` results on the lattice: ``pmf[i]`` is the
    probability of ``offset + i`` steps above the sum's origin; ``cut`` the probability mass
    dropped so far."""

    def __init__(self, offset: int, pmf: np.ndarray, rounds: int, cut: float) -> None:
        self.offset, self.pmf, self.rounds, self.cut = offset, pmf, rounds, cut
        self.origin = Fraction(0)


def _tail_ends(pmf: np.ndarray, noise: float) -> tuple[int, int]:
    """The first and last index of ``pmf`` with more than :data:`KEEP_TAIL` beyond them,
    entries at or below ``noise`` (the product's round-off) counted as 0: summed over
    millions of points, round-off alone passes KEEP_TAIL and would keep every far tail."""
    signal = np.where(pmf > noise, pmf, 0.0)
    left = int(np.searchsorted(np.cumsum(signal), KEEP_TAIL, side="right"))
    right = pmf.size - 1 - int(np.searchsorted(np.cumsum(signal[::-1]), KEEP_TAIL, side="right"))
    return left, right


def _product(a: _SumOf, b: _SumOf, mean: float, sd: float) -> _SumOf:
    """The distribution of the sum of two independent sums, cut to mean +- WIDTH sd but
    for a tail holding more than KEEP_TAIL."""
    pmf = (
        np.clip(fftconvolve(a.pmf, b.pmf), 0.0, None)
        if min(a.pmf.size, b.pmf.size) > 64
        else (np.convolve(a.pmf, b.pmf))
    )
    # The product holds all but the mass cut from either (to first order: each cut is
    # below 1e-9). Its round-off, left alone, compounds through the squarings (a sum of
    # 2^20 rounds is 20 squarings, each doubling the relative error of the mass): a total
    # off by 1e-10, or summing to more than 1.
    pmf *= (1.0 - a.cut - b.cut) / float(pmf.sum())
    offset, rounds = a.offset + b.offset, a.rounds + b.rounds
    low = math.floor(rounds * mean - WIDTH * sd * math.sqrt(rounds)) - offset
    high = math.ceil(rounds * mean + WIDTH * sd * math.sqrt(rounds)) - offset
    # An FFT product's entries are each off by about eps log2(size) times the norms'
    # product (the round-off of each transform, spread over every entry).
    norms = math.sqrt(float(np.dot(a.pmf, a.pmf)) * float(np.dot(b.pmf, b.pmf)))
    heavy_left, heavy_right = _tail_ends(pmf, ROUND_OFF * math.log2(pmf.size + 1) * norms)
    low, high = max(low, 0), min(high, pmf.size - 1)
    if max(high, heavy_right) - min(low, heavy_left) < MAX_LATTICE:  # else the cut says it
        low, high = max(min(low, heavy_left), 0), min(max(high, heavy_right), pmf.size - 1)
    cut = a.cut + b.cut + float(pmf[:low].sum() + pmf[high + 1 :].sum())
    return _SumOf(offset + low, pmf[low : high + 1].copy(), rounds, cut)


def sum_distribution(distribution: Mapping, rounds: int) -> tuple[Fraction, _SumOf]:
    """The distribution of the total of ``rounds`` independent results (module docstring).

    Parameters
    ----------
    distribution : Mapping
        The per-round net result of one unit wagered, the player's side (units) ->
        its probability; exact (ints, Fractions) where it can be, the probabilities
        non-negative and summing to 1.
    rounds : int
        The rounds summed, a positive integer.

    Returns
    -------
    step : fractions.Fraction
        The lattice step: every result is the smallest result plus a whole number of it.
    total : _SumOf
        The total's distribution in steps: ``pmf[i]`` (float64) is the probability of a
        total of ``origin + (offset + i) * step`` (``origin``: ``rounds`` times the smallest
        result); ``cut`` the probability mass dropped beyond mean +- :data:`WIDTH` standard
        deviations.

    Raises
    ------
    LatticeTooLarge
        The total would span more than :data:`MAX_LATTICE` points of its lattice (memory
        bounded by that, not by the payouts); raised before any work.
    """
    if not is_whole(rounds) or rounds < 1:
        raise GamecoreError(f"rounds must be a positive integer, got {shown(rounds)}")
    origin, step, steps, probabilities = _lattice(distribution)
    points = _lattice_points(steps, probabilities, int(rounds))
    if points > MAX_LATTICE:
        raise LatticeTooLarge(
            f"the total of {int(rounds):,} rounds spans about {points:,.0f} points of its "
            f"lattice (step {step}), more than the {MAX_LATTICE:,} computed"
        )
    low = int(steps.min())
    single = np.zeros(int(steps.max()) - low + 1)
    np.add.at(single, steps - low, probabilities)
    mean = float(np.dot(steps, probabilities))
    sd = math.sqrt(max(float(np.dot(steps.astype(float) ** 2, probabilities)) - mean**2, 0.0))
    total: _SumOf | None = None
    power = _SumOf(low, single, 1, 0.0)
    remaining = int(rounds)
    while remaining:
        if remaining & 1:
            total = power if total is None else _product(total, power, mean, sd)
        remaining >>= 1
        if remaining:
            power = _product(power, power, mean, sd)
    assert total is not None
    total.origin = origin * int(rounds)
    return step, total


def house_behind(distribution: Mapping, rounds: int) -> tuple[float, float]:
    """The exact probability that the house is behind after some rounds.

    Parameters
    ----------
    distribution : Mapping
        The per-round net result of one unit wagered, the player's side (units) ->
        its probability; exact (ints, Fractions) where it can be, the probabilities
        non-negative and summing to 1.
    rounds : int
        The rounds played, one unit each.

    Returns
    -------
    behind : float
        The probability that the players' total is above zero.
    cut : float
        The probability mass cut from the convolution: ``behind`` is good to that plus
        about 1e-13.
    """
    step, total = sum_distribution(distribution, rounds)
    first_positive = max(_first_positive(total.origin, step) - total.offset, 0)
    behind = float(total.pmf[first_positive:].sum())  # the products' noise may pass 1
    return min(max(behind, 0.0), 1.0), total.cut


def _first_positive(origin: Fraction, step: Fraction) -> int:
    """The fewest steps above ``origin`` that make a total above zero."""
    return math.floor(-origin / step) + 1


def moments(distribution: Mapping) -> tuple[float, float]:
    """The mean and standard deviation of the per-round net result.

    Parameters
    ----------
    distribution : Mapping
        The per-round net result of one unit wagered, the player's side (units) ->
        its probability; exact (ints, Fractions) where it can be, the probabilities
        non-negative and summing to 1.

    Returns
    -------
    mean, sd : float
        Units per round, the player's side (the house edge is ``-mean``).
    """
    numbers, probabilities = _checked(distribution)
    values = np.array([float(v) for v in numbers], dtype=float)
    mean = float(np.dot(values, probabilities))
    return mean, math.sqrt(max(float(np.dot(values**2, probabilities)) - mean**2, 0.0))


def hold_table(
    wager: str, distribution: Mapping, rounds: Sequence[int] = ROUNDS, *, obtained: Obtained
) -> pd.DataFrame:
    """Wager | Rounds | Expected hold | SD per round | SD bound (±) | Hit frequency (the
    probability that the player's wager wins a round, net result above zero) | Hit frequency
    bound (±) | 95% band, low and high (normal approximation) | 95% band bound (±) |
    P(house behind), N-fold convolution | the mass cut from the convolution (the probability
    is good to that plus about 1e-13) | How obtained (module docstring).

    Hold is the house's win over the money wagered, one unit (of initial wager) a round.

    Parameters
    ----------
    wager : str
        The wager's name, for the ``Wager`` column.
    distribution : Mapping
        The per-round net result of one unit wagered, the player's side (units) ->
        its probability; exact (ints, Fractions) where it can be, the probabilities
        non-negative and summing to 1.
    rounds : Sequence[int]
        The session lengths, one row each.
    obtained : Obtained
        How ``distribution`` was obtained and the bounds on its SD and hit frequency.

    Returns
    -------
    pandas.DataFrame
        The columns above, one row per session length.

    Examples
    --------
    >>> coin = {1: 0.5, -1: 0.5}  # a fair even-money bet: behind exactly when heads lead
    >>> table = hold_table("coin", coin, [2], obtained=Obtained("exact: a fair coin"))
    >>> float(table[HOUSE_BEHIND].iloc[0])
    0.25
    """
    if not isinstance(obtained, Obtained):
        raise GamecoreError(f"obtained must be a gamecore.hold.Obtained, got {shown(obtained)}")
    mean, sd = moments(distribution)  # checks the distribution first
    hit = sum(float(p) for value, p in distribution.items() if float(value) > 0)
    rows = []
    for n in rounds:
        behind, cut, why = _house_behind_or_why(distribution, n)
        half = Z95 * sd / math.sqrt(n)
        rows.append(
            {
                "Wager": wager,
                "Rounds": int(n),
                "Expected hold": -mean,
                "SD per round": sd,
                "SD bound (±)": float(obtained.sd_bound),
                "Hit frequency (net result > 0)": hit,
                "Hit frequency bound (±)": float(obtained.hit_bound),
                "95% band, low (normal approximation)": -mean - half,
                "95% band, high (normal approximation)": -mean + half,
                "95% band bound (±)": Z95 * float(obtained.sd_bound) / math.sqrt(n),
                HOUSE_BEHIND: behind,
                "Mass cut from the convolution": cut,
                "How obtained": f"{obtained.how}; {why}" if why else obtained.how,
            }
        )
    return pd.DataFrame(rows)


def _house_behind_or_why(distribution: Mapping, rounds: int) -> tuple[float, float, str]:
    """(P(house behind), the mass cut, "") from :func:`house_behind`, or (NaN, NaN, why it
    was not computed) where the sum's lattice is too large (:class:`LatticeTooLarge`)."""
    try:
        return (*house_behind(distribution, rounds), "")
    except LatticeTooLarge as error:
        return math.nan, math.nan, f"P(house behind) not computed: {error}"


def house_behind_twin(
    wager: str,
    distribution: Mapping,
    rounds: Sequence[int] = ROUNDS,
    sessions: int = 20_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Each P(house behind) beside its simulated twin: ``sessions`` sessions of ``n`` rounds,
    each drawn as the multinomial counts of the per-round results, the share whose total is
    above zero.

    Parameters
    ----------
    wager : str
        The wager's name, for the ``Figure`` column.
    distribution : Mapping
        The per-round net result of one unit wagered, the player's side (units) ->
        its probability; exact (ints, Fractions) where it can be, the probabilities
        non-negative and summing to 1.
    rounds : Sequence[int]
        The session lengths, one row each.
    sessions : int
        Simulated sessions per length.
    seed : int
        Seeds ``numpy.random.SeedSequence(seed)``, from which every session is drawn.

    Returns
    -------
    pandas.DataFrame
        The twin table (:func:`gamecore.twins.twin_table`), one row per session length.
    """
    origin, step, steps, probabilities = _lattice(distribution)
    probabilities = probabilities / probabilities.sum()
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    rows = []
    for n in rounds:
        behind, _cut, _why = _house_behind_or_why(distribution, n)
        counts = generator.multinomial(int(n), probabilities, size=int(sessions))
        # Totals in whole steps above the origin, compared exactly: int64 while they fit.
        exact = steps if int(n) * int(steps.max()) < 2**62 else steps.astype(object)
        won = int(np.count_nonzero(counts @ exact >= _first_positive(origin * int(n), step)))
        rows.append(
            {
                "Figure": f"{wager}: P(house behind after {int(n):,} rounds)",
                **twins.frequency_twin(behind, won, int(sessions)),
                "Sessions": int(sessions),
            }
        )
    return twins.twin_table(rows)


def monitoring(
    distributions: Mapping[str, Mapping],
    rounds: Sequence[int] = ROUNDS,
    sessions: int = 20_000,
    seed: int = 0,
    *,
    obtained: Obtained | Mapping[str, Obtained],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A report's hold monitoring of several wagers.

    Parameters
    ----------
    distributions : Mapping[str, Mapping]
        Each wager's name -> its per-round distribution (as :func:`hold_table` takes it).
    rounds : Sequence[int]
        The session lengths.
    sessions : int
        Simulated sessions per length for the twins.
    seed : int
        Each wager's twins are drawn from its own child of ``SeedSequence(seed)``.
    obtained : Obtained or Mapping[str, Obtained]
        How the distributions were obtained: one for every wager (:data:`INTEGER_COUNTS`),
        or each wager's by its name. No default: the caller says it.

    Returns
    -------
    tables : pandas.DataFrame
        Every wager's :func:`hold_table`, one after another.
    twins : pandas.DataFrame
        Every wager's :func:`house_behind_twin` rows, each with its ``How obtained``.
    """
    if not isinstance(distributions, Mapping) or not distributions:
        raise GamecoreError("distributions must map each wager's name to its distribution")
    if isinstance(obtained, Mapping):
        missing = [name for name in distributions if name not in obtained]
        if missing:
            raise GamecoreError(f"obtained names no Obtained for {shown(missing[0])}")
    else:
        obtained = dict.fromkeys(distributions, obtained)
    children = np.random.SeedSequence(seed).spawn(len(distributions))
    tables, twin_rows = [], []
    for (name, distribution), child in zip(distributions.items(), children, strict=True):
        tables.append(hold_table(name, distribution, rounds, obtained=obtained[name]))
        twin = house_behind_twin(
            name, distribution, rounds, sessions, int(child.generate_state(1)[0])
        )
        twin_rows.append(twin.assign(**{"How obtained": obtained[name].how}))
    return pd.concat(tables, ignore_index=True), pd.concat(twin_rows, ignore_index=True)
