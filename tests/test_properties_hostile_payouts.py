"""Hostile input, issue 42 item 10: payouts that favour the player, and large ones.

A report's payouts are allowed from 0 to 1,000,000 to 1. A Tie paying 20 made the house edge
negative and hold monitoring ended in a math domain error (the probability that the house
is behind summed to 1 + 8e-11 by round-off, and its twin's SE took the square root of a
negative number); a Tie paying 1000 took 5 GB and ended in std::bad_alloc (the sum's
lattice was sized by the payout). The figures here are checked against values derived
independently: the published counts of an 8-deck baccarat shoe and the binomial tail of the
Tie's wins (scipy) computed from them.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from published_values import EXACT_8_DECKS
from scipy.stats import binom

from gamecore import baccarat, hold, twins

#: A tie's probability with eight decks, from the published counts of ordered card
#: sequences (tests/published_values.py: 475,627,426,473,216 of 4,998,398,275,503,360).
P_TIE = Fraction(EXACT_8_DECKS["tie"]["value"], EXACT_8_DECKS["total"]["value"])


def _tie(pays) -> dict:
    """The Tie bet's net result per unit: it wins ``pays`` on a tie, loses 1 otherwise."""
    return {Fraction(pays): P_TIE, Fraction(-1): 1 - P_TIE}


def _behind_by_binomial(pays, rounds: int) -> float:
    """P(the players are ahead after ``rounds`` Tie bets): ``pays k - (rounds - k) > 0``
    exactly when the ties ``k`` pass ``rounds / (pays + 1)``."""
    most_not_ahead = math.floor(Fraction(rounds) / (Fraction(pays) + 1))
    return float(binom.sf(most_not_ahead, rounds, float(P_TIE)))


@pytest.mark.parametrize("pays", [20, 1000])
def test_the_tie_s_house_edge_is_its_exact_negative_figure(pays):
    analysis = baccarat.exact(baccarat.PuntoBancoRules(decks=8, tie_pays=pays))
    tie = analysis.wager("tie")
    assert tie.house_edge == 1 - (pays + 1) * P_TIE  # by hand: negative, the house loses
    assert tie.house_edge < 0
    assert tie.result_distribution() == _tie(pays)


@pytest.mark.parametrize("pays", [20, 1000])
def test_hold_monitoring_of_a_tie_that_favours_the_player(pays):
    """Before: a math domain error at 20 (P(house behind) above 1 by round-off), 5 GB at
    1000. Now every figure is the binomial's, the hold the negative edge."""
    tables, twin_table = hold.monitoring(
        {"Tie": _tie(pays)}, sessions=400, seed=1, obtained=hold.INTEGER_COUNTS
    )
    edge = float(1 - (pays + 1) * P_TIE)
    assert tables["Expected hold"].tolist() == pytest.approx([edge] * 4, rel=1e-12)
    behind = tables[hold.HOUSE_BEHIND]
    assert ((behind >= 0) & (behind <= 1)).all()
    for rounds, figure in zip(hold.ROUNDS, behind, strict=True):
        assert figure == pytest.approx(_behind_by_binomial(pays, rounds), abs=1e-11)
    assert (twin_table["z"].abs() < twins.z_threshold(4)).all()


def test_a_tie_paying_1000_sums_on_a_lattice_sized_by_its_ties_not_its_payout():
    """The total of n Tie bets is -n plus 1001 times the ties: the lattice's step is 1001,
    and a million rounds take the points of a binomial's +-14 SD (about 8,200), where the
    payout's own steps took 4.9 million points for 10,000 rounds (and 40 seconds and
    gigabytes for 100,000)."""
    step, total = hold.sum_distribution(_tie(1000), 1_000_000)
    assert step == 1001 and total.origin == -1_000_000
    sd_of_ties = math.sqrt(1_000_000 * float(P_TIE * (1 - P_TIE)))
    assert total.pmf.size <= 2 * hold.WIDTH * sd_of_ties + 3
    assert total.pmf.sum() == pytest.approx(1 - total.cut, abs=1e-14)


def test_a_sum_too_large_for_its_lattice_is_marked_not_computed_saying_why():
    """A Banker paying 0.9487655 (a 5.12345% commission) beside 0 and -1 has a lattice step
    of 1/2,000,000: its sums would span billions of points. Memory is bounded: the row says
    why its P(house behind) is not computed, its twin has no z, and the rest stands."""
    banker = {Fraction("0.9487655"): Fraction(46, 100), 0: Fraction(9, 100), -1: Fraction(45, 100)}
    with pytest.raises(hold.LatticeTooLarge, match="1/2000000"):
        hold.sum_distribution(banker, 1_000)
    tables, twin_table = hold.monitoring(
        {"Banker": banker, "Tie": _tie(20)}, [1_000], 200, obtained=hold.INTEGER_COUNTS
    )
    row = tables.set_index("Wager").loc["Banker"]
    assert math.isnan(row[hold.HOUSE_BEHIND])
    assert "P(house behind) not computed" in row["How obtained"]
    assert row["Expected hold"] == pytest.approx(-(0.46 * 0.9487655 - 0.45))
    assert twin_table["z"].isna().tolist() == [True, False]
    assert "over 1 twins" in twins.verdict(twin_table)


def test_a_probability_a_hair_above_one_has_no_spread_not_a_domain_error():
    assert twins.frequency_twin(1 + 1e-12, 10, 10)["SE"] == 0.0


@settings(deadline=None)
@given(
    pays=st.one_of(
        st.integers(0, 1_000_000),
        st.decimals(0, 1_000, places=3).map(lambda d: Fraction(str(d))),
    ),
    rounds=st.sampled_from([1_000, 100_000]),
)
def test_the_tie_at_any_payout_is_the_binomial_tail(pays, rounds):
    behind, cut = hold.house_behind(_tie(pays), rounds)
    assert behind == pytest.approx(_behind_by_binomial(pays, rounds), abs=1e-11)
    assert cut < 1e-11


@settings(deadline=None)
@given(
    # Payouts computed in well under a second, and those refused before any work (a sum
    # near the bound takes seconds: fixed cases above).
    pays=st.one_of(st.integers(1, 300), st.integers(100_000, 1_000_000)),
    push=st.fractions(Fraction(1, 100), Fraction(1, 2), max_denominator=1000),
)
def test_a_bet_with_a_push_at_any_payout_is_monitored_or_marked_never_a_crash(pays, push):
    """Three results: the lattice is their common step (1 beside -1 and 0), so a large
    payout can exceed the bound. Either way the table is whole: each P(house behind) a
    probability, or NaN with the reason; the expected hold its exact mean, negated."""
    win = (1 - push) / 20
    bet = {Fraction(pays): win, Fraction(0): push, Fraction(-1): 1 - push - win}
    table = hold.hold_table("bet", bet, [1_000], obtained=hold.INTEGER_COUNTS)
    row = table.iloc[0]
    assert row["Expected hold"] == pytest.approx(-float(pays * win - (1 - push - win)))
    figure = row[hold.HOUSE_BEHIND]
    if math.isnan(figure):
        assert "not computed" in row["How obtained"]
    else:
        assert 0 <= figure <= 1
        assert row["How obtained"] == hold.INTEGER_COUNTS.how


def test_a_total_of_exactly_zero_is_not_behind_in_the_figure_and_its_twin():
    """20 wins at 0.95 and 19 losses sum to 0 exactly: the house is not behind. The players
    are ahead when 0.95 w > 39 - w, 21 wins or more (by hand); the twin compares whole
    lattice steps, never floats (0.95 is not one)."""
    banker = {0.95: 0.5, -1: 0.5}
    behind, _cut = hold.house_behind(banker, 39)
    assert behind == pytest.approx(float(binom.sf(20, 39, 0.5)), abs=1e-14)
    table = hold.house_behind_twin("banker", banker, [39], sessions=4000, seed=5)
    assert abs(table["z"].iloc[0]) < twins.SINGLE_Z


def test_a_punto_banco_report_with_the_tie_paying_20_builds_with_the_tie_s_figures(tmp_path):
    """The report that ended in a math domain error. Its hold monitoring's Tie rows hold
    the exact negative edge and the binomial tail by hand; the Tie's bet table its edge."""
    import pandas as pd

    from gamecore.reporting.build import build

    small = {"tie_pays": 20, "rounds": 10_000, "sweep_rounds": 10_000, "sweep_decks": 1,
             "hold_sessions": 200}  # fmt: skip
    build(tmp_path, small, only=["punto_banco"], progress=False)
    folder = tmp_path / "punto_banco"
    holds = pd.read_csv(folder / "hold_monitoring.csv")
    tie = holds[holds["Wager"].str.startswith("Tie")]
    edge = float(1 - 21 * P_TIE)  # about -0.998: the house is expected to lose
    assert tie["Expected hold"].tolist() == pytest.approx([edge] * 4, rel=1e-12)
    expected = [_behind_by_binomial(20, rounds) for rounds in tie["Rounds"]]
    assert tie[hold.HOUSE_BEHIND].tolist() == pytest.approx(expected, abs=1e-11)
    checks = pd.read_csv(folder / "hold_monitoring_cross_check.csv")
    assert checks["z"].abs().max() < twins.z_threshold(len(checks))


def test_a_dragon_7_paying_0_has_no_bound_to_state_and_says_why():
    """A Dragon 7 paying 0 to 1 never has an exact EV above 0: the perfect-information
    bettor never bets, 0 in every shoe. It was left out as "its SE 0 is not smaller than
    the figure 0 (too few to size)", as if more shoes would size it; it says it never bet."""
    from gamecore import baccarat
    from gamecore.counting import CounterRun

    rules = baccarat.EZBaccaratRules(decks=8, dragon7_pays=0)
    count = baccarat.counting.SideBetCount(rules, baccarat.removal.JACOBSON_DRAGON_TAGS)
    oracle = baccarat.counting.perfect_information_simulation(count, CounterRun(3, 7))
    row = oracle.summary(72).iloc[0]
    assert row["Bets per shoe"] == 0
    assert row["Bound"] == "left out: no round bet after 3 shoes (0 with no spread to size it)"


def _behind_with_a_jackpot(jackpot, p_jackpot, p_win, rounds):
    """P(the players are ahead) for a bet paying ``jackpot`` with chance ``p_jackpot``, 1
    with ``p_win``, else -1: given k jackpots, the other rounds' wins W (binomial) must
    pass (rounds - k - k jackpot) / 2; summed over k (scipy)."""
    total = 0.0
    for k in range(0, 40):
        others = rounds - k
        p_other_win = p_win / (1 - p_jackpot)
        most = math.floor(Fraction(others - k * jackpot, 2))
        ahead = 1.0 if most < 0 else float(binom.sf(most, others, p_other_win))
        total += float(binom.pmf(k, rounds, p_jackpot)) * ahead
    return total


@pytest.mark.parametrize("jackpot", [1_000, 100_000])
def test_a_rare_jackpot_beside_small_results_is_kept_in_bounded_memory(jackpot):
    """The jackpot's sums lie far beyond 14 SD of a few rounds' and are kept (more than
    1e-15 of mass), while the products' round-off is not: that round-off, summed over
    millions of points, kept every far tail (85 million points and 90 s at 100,000 to 1
    over 1,000 rounds) until a bound cut the jackpot itself (P off by 0.0146)."""
    p_jackpot, p_win = 1.5e-5, 0.45
    bet = {jackpot: p_jackpot, 1: p_win, -1: 1 - p_jackpot - p_win}
    _step, total = hold.sum_distribution(bet, 1_000)
    assert total.pmf.size < 10 * jackpot
    behind, cut = hold.house_behind(bet, 1_000)
    assert behind == pytest.approx(_behind_with_a_jackpot(jackpot, p_jackpot, p_win, 1_000),
                                   abs=1e-10)  # fmt: skip
    assert cut < 1e-10
