"""Hold monitoring (gamecore.hold): the probability that the house is behind after N rounds,
against sums over every (wins, losses, pushes) split of the N rounds computed here with
scipy's log-gamma, and the band against the normal quantile."""

import ast
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import norm

from gamecore import hold, twins
from gamecore.errors import GamecoreError
from gamecore.reporting.build import NOTEBOOK_DIR


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
    table = hold.hold_table("bet", distribution, [10_000], obtained=hold.INTEGER_COUNTS)
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


def test_every_row_says_how_its_distribution_was_obtained_with_its_bounds():
    """The bounds the caller states sit beside the figures they bound; the band's ends move
    by at most 1.96 SD bounds over sqrt(N) (the band's only input that is not exact)."""
    distribution = {1: 0.44, 0: 0.1, -1: 0.46}
    obtained = hold.Obtained("exact up to the bounds: a test", sd_bound=0.01, hit_bound=0.002)
    table = hold.hold_table("bet", distribution, [100, 10_000], obtained=obtained)
    assert (table["How obtained"] == "exact up to the bounds: a test").all()
    assert (table["SD bound (±)"] == 0.01).all()
    assert (table["Hit frequency bound (±)"] == 0.002).all()
    columns = list(table.columns)
    assert columns.index("SD bound (±)") == columns.index("SD per round") + 1
    hit = "Hit frequency (net result > 0)"
    assert columns.index("Hit frequency bound (±)") == columns.index(hit) + 1
    expected = norm.ppf(0.975) * 0.01 / np.sqrt([100, 10_000])
    np.testing.assert_allclose(table["95% band bound (±)"], expected, rtol=1e-12)
    exact = hold.hold_table("bet", distribution, [100], obtained=hold.INTEGER_COUNTS)
    assert exact["How obtained"].iloc[0] == "exact: integer counts of card sequences"
    bounds = ["SD bound (±)", "Hit frequency bound (±)", "95% band bound (±)"]
    assert (exact[bounds] == 0).all(axis=None)


def test_monitoring_takes_how_each_wager_was_obtained_and_no_default():
    coin = {1: 0.5, -1: 0.5}
    with pytest.raises(TypeError, match="obtained"):
        hold.monitoring({"coin": coin}, [10], 100)  # the caller must say it
    with pytest.raises(GamecoreError, match="'other'"):
        hold.monitoring(
            {"coin": coin, "other": coin}, [10], 100, obtained={"coin": hold.INTEGER_COUNTS}
        )
    bounded = hold.Obtained("within bounds", sd_bound=0.1, hit_bound=0.01)
    tables, twins_table = hold.monitoring(
        {"coin": coin, "other": coin}, [10, 40], 200,
        obtained={"coin": hold.INTEGER_COUNTS, "other": bounded},
    )  # fmt: skip
    by_wager = tables.groupby("Wager")["How obtained"].unique()
    assert by_wager["coin"].tolist() == [hold.INTEGER_COUNTS.how]
    assert by_wager["other"].tolist() == ["within bounds"]
    assert tables.groupby("Wager")["SD bound (±)"].max().to_dict() == {"coin": 0.0, "other": 0.1}
    # The twins draw from the distribution given, so their z checks the convolution: they
    # stay under the 4-sigma rule, each saying how its distribution was obtained.
    assert twins.APPROXIMATE not in twins_table.columns
    assert len(twins.ruled(twins_table)) == 4
    hows = [hold.INTEGER_COUNTS.how] * 2 + ["within bounds"] * 2
    assert twins_table["How obtained"].tolist() == hows


@pytest.mark.parametrize(
    "how, sd_bound, hit_bound, named",
    [("", 0, 0, "obtained"), ("x", -0.1, 0, "sd_bound"), ("x", 0, math.nan, "hit_bound"),
     ("x", "0.1", 0, "sd_bound")],
)  # fmt: skip
def test_a_bad_obtained_is_refused_naming_it(how, sd_bound, hit_bound, named):
    with pytest.raises(GamecoreError, match=named):
        hold.Obtained(how, sd_bound, hit_bound)
    with pytest.raises(GamecoreError, match="Obtained"):
        hold.hold_table("bet", {1: 0.5, -1: 0.5}, [10], obtained="exact")


def test_every_notebook_that_monitors_the_hold_says_how_each_distribution_was_obtained():
    """Every hold.monitoring call of every report's notebook passes ``obtained``, so every
    report's hold_monitoring.csv has its How obtained column (a call without it fails)."""
    calls = 0
    for path in sorted(NOTEBOOK_DIR.glob("*.ipynb")):
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] != "code" or "hold.monitoring(" not in source:
                continue
            call = ast.parse(source)
            monitors = [
                node for node in ast.walk(call)
                if isinstance(node, ast.Call) and ast.unparse(node.func) == "hold.monitoring"
            ]  # fmt: skip
            assert monitors, path.name
            for node in monitors:
                assert "obtained" in [k.arg for k in node.keywords], path.name
                calls += 1
    assert calls >= 8  # the eight reports that monitor the hold
