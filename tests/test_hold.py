"""Hold monitoring (gamecore.hold): the probability that the house is behind after N rounds,
against sums over every (wins, losses, pushes) split of the N rounds computed here with
scipy's log-gamma, and the band against the normal quantile."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import norm

from gamecore import hold
from gamecore.errors import GamecoreError


def _behind_by_enumeration(win, pays, push, rounds):
    """P(pays * W - L > 0) for W wins, L losses, T pushes ~ multinomial(rounds)."""
    lose = 1.0 - win - push
    total = 0.0
    for w in range(rounds + 1):
        for losses in range(rounds - w + 1):
            if pays * w - losses <= 1e-12:
                continue
            t = rounds - w - losses
            if t and push == 0:
                continue
            log_p = (
                gammaln(rounds + 1)
                - gammaln(w + 1)
                - gammaln(losses + 1)
                - gammaln(t + 1)
                + w * math.log(win)
                + losses * math.log(lose)
                + (t * math.log(push) if t else 0.0)
            )
            total += math.exp(log_p)
    return total


@pytest.mark.parametrize(
    "win, pays, push",
    [
        (0.4932, 1.0, 0.0952),  # a Player bet's shape
        (0.4586, 0.95, 0.0952),  # a Banker bet's: 0.95 makes the lattice twentieths
        (0.0952, 8.0, 0.0),  # a Tie bet's
    ],
    ids=["player", "banker", "tie"],
)
@pytest.mark.parametrize("rounds", [1, 7, 300])
def test_house_behind_equals_the_sum_over_every_split_of_the_rounds(win, pays, push, rounds):
    distribution = {pays: win, -1: 1.0 - win - push}
    if push:
        distribution[0] = push
    behind, cut = hold.house_behind(distribution, rounds)
    assert behind == pytest.approx(_behind_by_enumeration(win, pays, push, rounds), abs=1e-12)
    assert cut < 1e-12


def test_a_long_session_of_an_even_money_bet_is_the_binomial_tail():
    from scipy.stats import binom

    behind, cut = hold.house_behind({1: 0.49, -1: 0.51}, 100_000)
    assert behind == pytest.approx(binom.sf(50_000, 100_000, 0.49), rel=1e-9, abs=1e-14)
    assert cut < 1e-10


def test_the_band_is_the_normal_approximation_around_the_house_edge():
    distribution = {1: 0.44, 0: 0.1, -1: 0.46}
    table = hold.hold_table("bet", distribution, [10_000])
    mean, sd = 0.44 - 0.46, math.sqrt(0.9 - 0.02**2)
    half = norm.ppf(0.975) * sd / 100
    assert table["Expected hold"].iloc[0] == pytest.approx(-mean, abs=1e-15)
    assert table["95% band, low (normal approximation)"].iloc[0] == pytest.approx(-mean - half)
    assert table["95% band, high (normal approximation)"].iloc[0] == pytest.approx(-mean + half)


def test_twins_of_house_behind_are_reproducible_and_within_four_sigma():
    distribution = {0.95: 0.4586, 0: 0.0952, -1: 0.4462}
    first = hold.house_behind_twin("banker", distribution, [1_000, 10_000], 5_000, seed=3)
    again = hold.house_behind_twin("banker", distribution, [1_000, 10_000], 5_000, seed=3)
    assert first.equals(again)
    assert (first["z"].abs() < 4).all()


@pytest.mark.parametrize(
    "distribution, rounds, named",
    [
        ({1: 0.5, -1: 0.4}, 10, "sum to 1"),
        ({1: 1.5, -1: -0.5}, 10, "non-negative"),
        ({"x": 1.0}, 10, "number"),
        ({}, 10, "distribution"),
        ({1: 0.5, -1: 0.5}, 0, "rounds"),
        ({1: 0.5, -1: 0.5}, 2.5, "rounds"),
        ({1: np.nan, -1: 0.5}, 10, "finite"),
    ],
)
def test_bad_input_is_refused(distribution, rounds, named):
    with pytest.raises(GamecoreError, match=named):
        hold.house_behind(distribution, rounds)


def test_a_rare_large_payout_is_never_cut_from_the_convolution():
    # A 1000 to 1 payout with chance 1/10,000 lies far beyond 14 SD of a few rounds' sum,
    # and it alone puts the house behind: after 1,000 rounds the players are ahead exactly
    # when it hit at least once (1000 k - (1000 - k) > 0 for k >= 1), so
    # P = 1 - (1 - p)^1000 (binomial, by hand); after 10,000 rounds they need k >= 10.
    from math import comb

    p = Fraction(1, 10_000)
    distribution = {Fraction(1000): p, Fraction(-1): 1 - p}
    behind, cut = hold.house_behind(distribution, 1_000)
    assert behind == pytest.approx(float(1 - (1 - p) ** 1000), abs=1e-11)
    assert cut < 1e-12
    n = 10_000
    at_least_ten = 1 - sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(10))
    behind, cut = hold.house_behind(distribution, n)
    assert behind == pytest.approx(float(at_least_ten), abs=1e-11)
