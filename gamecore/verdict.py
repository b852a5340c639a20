"""One verdict per question: is a game (a bet, at a deck count, under a dealing procedure,
against a counter) countable? The rule, its power, and a study run until it decides.

Central idea
------------
A counter's gain (per shoe, per 100 rounds, money per hour: any mean over shoes) is
estimated from simulated shoes with a standard error ``se`` that falls as one over the root
of the shoes. The rule (:func:`decide`) is the same for every study and every report:

- **countable** when the gain is above the threshold by more than :data:`VERDICT_SE` (4)
  standard errors;
- **not countable** when it is below it by more than four;
- otherwise **undecided after N shoes (about M needed)**, where M is the shoes at which the
  gain observed would clear four SEs: ``M = N (4 se / |gain - threshold|)^2``.

An exact figure (``se`` 0, a shuffle every round) is countable when above the threshold and
not countable otherwise.

The rule's power is stated with it (:func:`power`): were the true gain the one observed, a
study of these shoes would decide with probability ``Phi(|gain - threshold| / se - 4)``
(the normal distribution of the mean over shoes); a gain at the threshold is declared
either way with probability ``2 Phi(-4)``, about 6 in 100,000, at each look.

A study that is undecided grows (:func:`grow`): it deals more shoes in fixed, seeded stages
(stage 0 is the run as asked; stage ``k`` its own seed, :func:`stage_seed`, cut into the
simulator's fixed chunks), each stage at least doubling the shoes and reaching a quarter
past the shoes the rule needs, until the rule decides or the budget of shoes is spent, or
the shoes the rule needs exceed the budget :data:`HOPELESS` times over (then it stops and
says so). The result depends on
the seed, the first shoes and the budget only. With ``k`` looks the chance of a wrong
verdict is at most ``k`` times the one look's.

A mean's standard error is always the sample one (:func:`mean_and_se`: variance with
``n - 1``), whoever computes it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_real
from gamecore.parallel import MAX_TRIALS, validate_seed, validate_trials

#: Standard errors a gain must clear, above or below the threshold, for a verdict.
VERDICT_SE = 4.0

#: The column every verdict is printed in.
VERDICT_COLUMN = f"Verdict ({VERDICT_SE:g} SE)"

#: The column of a verdict's power (:func:`power`).
POWER_COLUMN = "Power (at the gain seen)"


def mean_and_se(total: float, squares: float, count: float) -> tuple[float, float]:
    """A mean over ``count`` independent trials and its standard error, from their sum and
    the sum of their squares (the sample variance, divided by ``count - 1``).

    Parameters
    ----------
    total, squares : float
        The trials' sum and the sum of their squares.
    count : float
        The trials (shoes, rounds bet); at least 1.

    Returns
    -------
    tuple of float
        (mean, SE); the SE is NaN for a single trial (no spread can be measured).

    Examples
    --------
    >>> mean_and_se(6.0, 14.0, 3)  # the trials 1, 2, 3
    (2.0, 0.5773502691896257)
    """
    mean = total / count
    if count < 2:
        return mean, math.nan
    variance = max(squares - count * mean * mean, 0.0) / (count - 1)
    return mean, math.sqrt(variance / count)


def _real(name: str, value: object) -> float:
    if not is_real(value) or math.isnan(float(value)):  # type: ignore[arg-type]
        raise GamecoreError(f"{name} must be a number, got {shown(value)}")
    return float(value)  # type: ignore[arg-type]


def shoes_needed(gain: float, se: float, shoes: int, threshold: float = 0.0) -> int | None:
    """The shoes at which a gain as observed would clear :data:`VERDICT_SE` standard errors,
    the SE falling as one over the root of the shoes.

    Parameters
    ----------
    gain, se : float
        The gain observed and its standard error after ``shoes`` shoes.
    shoes : int
        The shoes dealt.
    threshold : float, default 0.0
        The gain the verdict is taken against.

    Returns
    -------
    int or None
        ``ceil(shoes * (4 se / |gain - threshold|)^2)``, at most :data:`MAX_TRIALS`;
        ``None`` where it cannot be sized (no spread measured, or a gain at the threshold).

    Examples
    --------
    >>> shoes_needed(0.5, 0.135, 20_000)
    23328
    """
    distance = abs(gain - threshold)
    if not math.isfinite(se) or distance == 0:
        return None
    needed = shoes * (VERDICT_SE * se / distance) ** 2
    return int(min(math.ceil(needed * (1 - 1e-12)), MAX_TRIALS))  # no ceiling of float noise


def power(gain: float, se: float, threshold: float = 0.0) -> float:
    """The rule's power at the gain observed: the probability that a study of as many shoes
    decides (either way), were the true gain the one observed.

    Parameters
    ----------
    gain, se : float
        The gain observed and its standard error (0: exact).
    threshold : float, default 0.0
        The gain the verdict is taken against.

    Returns
    -------
    float
        ``Phi(|gain - threshold| / se - 4) + Phi(-|gain - threshold| / se - 4)`` (Phi the
        standard normal distribution); 1 for an exact figure; NaN where no SE was measured.

    Examples
    --------
    >>> round(power(0.5, 0.125), 3)  # a true gain 4 SE from the threshold: even odds
    0.5
    """
    from scipy.stats import norm  # a report's study asks, not a command's start-up

    if se == 0:
        return 1.0
    if not math.isfinite(se):
        return math.nan
    distance = abs(gain - threshold) / se
    return float(norm.cdf(distance - VERDICT_SE) + norm.cdf(-distance - VERDICT_SE))


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One question's verdict (:func:`decide`).

    Attributes
    ----------
    words : str
        ``"countable"``, ``"not countable"`` or ``"undecided after N shoes (about M
        needed)"``.
    gain, se : float
        The gain and its standard error the verdict was taken on.
    shoes : int
        The shoes they rest on (0: an exact figure).
    threshold : float
        The gain a countable game lets a counter clear.
    needed : int or None
        Undecided: the shoes the rule would need (None: it cannot be sized).
    decided : bool
        Whether the rule decided (a bound: whether it holds, :func:`bound`).
    """

    words: str
    gain: float
    se: float
    shoes: int
    threshold: float
    needed: int | None = None
    decided: bool = True

    @property
    def power(self) -> float:
        """:func:`power` at the gain seen."""
        return power(self.gain, self.se, self.threshold)


def decide(gain: float, se: float, shoes: int, threshold: float = 0.0) -> Verdict:
    """The verdict on a gain at :data:`VERDICT_SE` standard errors (module docstring).

    Parameters
    ----------
    gain : float
        The counter's gain (its best, in the units of its table).
    se : float
        Its standard error (0 for an exact figure; NaN: none measured).
    shoes : int
        The shoes it rests on (0 for an exact figure).
    threshold : float, default 0.0
        The gain a countable game lets a counter clear.

    Returns
    -------
    Verdict
        Its words, and the shoes the rule would need when undecided.

    Examples
    --------
    >>> decide(0.5, 0.135, 20_000).words
    'undecided after 20,000 shoes (about 23,328 needed)'
    >>> decide(0.505, 0.017, 1_000_000).words
    'countable'
    """
    gain, se, threshold = _real("gain", gain), _real_or_nan(se), _real("threshold", threshold)
    if se < 0:
        raise GamecoreError(f"se must be 0 or more, got {shown(se)}")
    if se == 0:
        words = "countable" if gain > threshold else "not countable"
        return Verdict(words, gain, se, shoes, threshold)
    if gain - VERDICT_SE * se > threshold:
        return Verdict("countable", gain, se, shoes, threshold)
    if gain + VERDICT_SE * se < threshold:
        return Verdict("not countable", gain, se, shoes, threshold)
    needed = shoes_needed(gain, se, shoes, threshold)
    about = "too few shoes to size" if needed is None else f"about {needed:,} needed"
    words = f"undecided after {shoes:,} shoe{'' if shoes == 1 else 's'} ({about})"
    return Verdict(words, gain, se, shoes, threshold, needed, decided=False)


def bound(value: float, se: float, shoes: int) -> Verdict:
    """Whether a simulated bound (the perfect-information bettor's gain) may be stated: only
    when its standard error is smaller than what it bounds.

    Parameters
    ----------
    value, se : float
        The bound and its standard error.
    shoes : int
        The shoes it rests on.

    Returns
    -------
    Verdict
        ``words`` ``"stated (SE smaller than the figure)"`` (``decided``), else ``"left out:
        its SE s is not smaller than the figure v after N shoes (about M needed)"`` with
        the shoes at which the SE would be half the figure (``needed``); a figure of 0 in
        every shoe (a bettor that never bet: no round's EV above 0) says so.
    """
    if math.isfinite(se) and se < abs(value):
        return Verdict("stated (SE smaller than the figure)", value, se, shoes, 0.0)
    after = f"after {shoes:,} shoe{'' if shoes == 1 else 's'}"
    if not math.isfinite(se):
        return Verdict(f"left out: no SE {after} (too few to size)", value, se, shoes, 0.0,
                       decided=False)  # fmt: skip
    if value == 0 and se == 0:  # a payout no round favours (a Dragon 7 paying 0): no bet
        words = f"left out: no round bet {after} (0 with no spread to size it)"
        return Verdict(words, value, se, shoes, 0.0, decided=False)
    needed = None if value == 0 else shoes * (2 * se / value) ** 2
    about = "too few to size" if needed is None else f"about {math.ceil(needed):,} needed"
    words = (
        f"left out: its SE {se:.3g} is not smaller than the figure {value:.3g} {after} "
        f"({about})"
    )
    needed = None if needed is None else int(min(math.ceil(needed), MAX_TRIALS))
    return Verdict(words, value, se, shoes, 0.0, needed, decided=False)


def _real_or_nan(se: object) -> float:
    if is_real(se) and math.isnan(float(se)):  # type: ignore[arg-type]
        return math.nan
    return _real("se", se)


def stage_seed(seed: int, stage: int) -> int:
    """The seed of a growing study's ``stage`` (1, 2, ...): its own stream, from the study's
    seed by ``numpy.random.SeedSequence`` (stage 0 is the study's own seed).

    Parameters
    ----------
    seed : int
        The study's seed.
    stage : int
        The stage, from 1.

    Returns
    -------
    int
        A non-negative 64-bit integer.
    """
    state = np.random.SeedSequence(validate_seed(seed), spawn_key=(2**31, stage))
    return int(state.generate_state(1, np.uint64)[0])


Result = TypeVar("Result")


def grow(
    run: Callable[[int, int], Result],
    judge: Callable[[Result], Verdict],
    shoes: int,
    max_shoes: int,
    seed: int,
    add: Callable[[Result, Result], Result] | None = None,
    first: Result | None = None,
) -> Result:
    """Run a study until :func:`decide` decides or ``max_shoes`` is spent (module docstring).

    Parameters
    ----------
    run : Callable[[int, int], Result]
        ``run(shoes, seed)``: the study on that many shoes from that seed.
    judge : Callable[[Result], Verdict]
        The verdict on a result.
    shoes : int
        The first stage's shoes.
    max_shoes : int
        The budget: the most shoes dealt in all (at least ``shoes``: no growth).
    seed : int
        The first stage's seed; stage ``k`` takes :func:`stage_seed`.
    add : Callable[[Result, Result], Result], optional
        Two results as one (default :func:`combined`).
    first : Result, optional
        The first stage's result, when already run (``run(shoes, seed)``).

    Returns
    -------
    Result
        The results of every stage, added.
    """
    shoes, seed = validate_trials(shoes, "shoes"), validate_seed(seed)
    max_shoes = validate_trials(max_shoes, "max_shoes")
    add = combined if add is None else add
    result = run(shoes, seed) if first is None else first
    total, stage = shoes, 0
    while total < max_shoes:
        verdict = judge(result)
        if verdict.decided or verdict.needed is None or verdict.needed > HOPELESS * max_shoes:
            break
        stage += 1
        target = min(max_shoes, max(math.ceil(1.25 * verdict.needed), 2 * total))
        result, total = add(result, run(target - total, stage_seed(seed, stage))), target
    return result


#: A study stops growing when the shoes the rule needs exceed its budget this many times
#: over (the shoes needed are themselves an estimate, noisy while the gain is within a few
#: SEs of the threshold: a study needing up to this much more still deals its budget).
HOPELESS = 4

#: The fields :func:`combined` adds, where a result has them.
ADDED_FIELDS = ("shoes", "rounds", "stats", "bins", "counts")


def combined(first: Any, second: Any) -> Any:
    """Two runs of one study (a frozen dataclass) as one: its shoes, rounds and tallies
    (:data:`ADDED_FIELDS`, those it has) added, the rest (the seed) the first's.

    Parameters
    ----------
    first, second : dataclass
        Results of the same study on different shoes.

    Returns
    -------
    dataclass
        ``first`` with the tallies of both.
    """
    names = {field.name for field in dataclasses.fields(first)}
    return dataclasses.replace(
        first,
        **{n: getattr(first, n) + getattr(second, n) for n in ADDED_FIELDS if n in names},
    )


def max_shoes(shoes: int, budget: int) -> int:
    """A study's budget of shoes: ``budget`` times its first stage's (a report's
    ``shoe_budget``), at most :data:`MAX_TRIALS`.

    Parameters
    ----------
    shoes : int
        The first stage's shoes.
    budget : int
        The multiple (1: no growth).

    Returns
    -------
    int
        The most shoes the study may deal.
    """
    shoes = validate_trials(shoes, "shoes")
    if not isinstance(budget, (int, np.integer)) or isinstance(budget, bool) or budget < 1:
        raise GamecoreError(f"shoe_budget must be a whole number from 1, got {shown(budget)}")
    return int(min(shoes * int(budget), MAX_TRIALS))
