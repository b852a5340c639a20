"""Blackjack simulator: agrees with the exact chart EV and the optimal composition-dependent
EV (|z| <= 4, family-wise over the up cards), resplits included, and is reproducible whatever
the number of threads."""

import numpy as np
import pytest
from helpers import simple_chart

from gamecore import blackjack as bj
from gamecore.blackjack import checks
from gamecore.blackjack import sim as bs
from gamecore.errors import GamecoreError
from gamecore.twins import z_threshold

ROUNDS = 2_000_000


@pytest.mark.parametrize(
    "rules",
    [
        bj.C21BlackjackRules(decks=6),
        bj.C21BlackjackRules(decks=2),
        bj.StandardBlackjackRules(
            decks=6, dealer_hits_soft_17=True, surrender="late", resplit_aces=True
        ),
    ],
    ids=["c21_6", "c21_2", "standard_6"],
)
def test_derived_chart_simulation_agrees_with_exact(rules):
    exact = bj.exact(rules)
    sim = bs.simulate(rules, exact.chart, ROUNDS, seed=7, progress=False)
    z = checks.cross_check(exact, sim)["z"].iloc[0]
    assert abs(z) <= 4


def test_split_everything_chart_agrees_with_exact_resplits_included():
    """Resplits to four hands are frequent under this chart: the split algebra is checked
    against real dealt rounds (six decks, c21 rules)."""
    rules = bj.C21BlackjackRules(decks=6)
    chart = simple_chart()
    exact = bj.exact(rules, chart)
    sim = bs.simulate(rules, chart, ROUNDS, seed=11, progress=False)
    z = checks.cross_check(exact, sim)["z"].iloc[0]
    assert abs(z) <= 4


@pytest.mark.parametrize(
    "rules",
    [
        bj.C21BlackjackRules(decks=6),
        bj.StandardBlackjackRules(decks=1, surrender="early", peek=False),
    ],
    ids=["c21_6", "standard_1_early_no_peek"],
)
def test_optimal_play_simulation_agrees_with_exact_by_up_card(rules):
    exact = bj.exact(rules, search_chart=False)
    sim = bs.simulate(rules, "optimal", ROUNDS, seed=13, progress=False)
    assert sim.chart is None and sim.strategy == "optimal"
    check = checks.cross_check(exact, sim)
    assert len(check) == 11  # overall and each up card
    # The overall simulated EV is the up cards' simulated EVs weighted by their rounds.
    by_up = (check["Simulated"].iloc[1:] * check["Rounds"].iloc[1:]).sum() / ROUNDS
    assert by_up == pytest.approx(check["Simulated"].iloc[0], abs=1e-12)
    assert check["z"].abs().max() <= z_threshold(len(check))
    assert check["Rounds"].iloc[1:].sum() == ROUNDS


@pytest.mark.parametrize(
    "rules",
    [
        bj.C21BlackjackRules(decks=6),
        bj.StandardBlackjackRules(decks=2, surrender="late", peek=False),
    ],
    ids=["c21_6", "standard_2_late_no_peek"],
)
def test_every_chart_cell_agrees_with_its_twin(rules):
    """The strategy card's figure for the chart's own action in each cell, against the mean
    result of the simulated hands deciding there (family-wise 4 sigma)."""
    exact = bj.exact(rules)
    sim = bs.simulate(rules, exact.chart, ROUNDS, seed=19, progress=False)
    check = checks.cell_cross_check(exact, sim)
    z = check["z"].dropna()
    assert len(z) > 300
    assert z.abs().max() <= z_threshold(len(z))
    # Every decision was counted in some cell: hard/soft rows see every hand's decisions.
    assert check["Hands"].sum() > ROUNDS


def test_every_letter_of_every_cell_agrees_with_its_probed_twin():
    """The strategy card's EVs of the letters the chart does not take, against a probing
    run (family-wise 4 sigma), and the probing run's reproducibility."""
    rules = bj.C21BlackjackRules(decks=6)
    exact = bj.exact(rules)
    sim = bs.simulate(rules, exact.chart, ROUNDS, seed=29, progress=False, probe_rate=0.3)
    check = checks.probe_cross_check(exact, sim)
    z = check["z"].dropna()
    assert len(z) > 800
    assert z.abs().max() <= z_threshold(len(z))
    # Letters the forced ranges forbid are not listed: no S on soft 17, no H on hard 20.
    listed = set(zip(check["Hand"], check["Letter"], strict=True))
    assert ("soft 17", "S") not in listed and ("hard 20", "H") not in listed
    again = bs.simulate(rules, exact.chart, 600_000, 29, threads=1, probe_rate=0.3)
    other = bs.simulate(rules, exact.chart, 600_000, 29, threads=2, probe_rate=0.3)
    assert np.array_equal(again.probe_sums, other.probe_sums)
    with pytest.raises(GamecoreError, match="probe_rate"):
        bs.simulate(rules, exact.chart, 1000, 1, probe_rate=1.0)
    with pytest.raises(GamecoreError, match="probe_rate"):
        checks.probe_cross_check(exact, bs.simulate(rules, exact.chart, 1000, 1))


def test_same_result_on_one_and_two_threads():
    rules = bj.C21BlackjackRules(decks=2)
    chart = bj.exact(rules).chart
    one = bs.simulate(rules, chart, 1_200_000, seed=3, threads=1, progress=False)
    two = bs.simulate(rules, chart, 1_200_000, seed=3, threads=2, progress=False)
    assert np.array_equal(one.histogram, two.histogram)
    assert one.naturals == two.naturals
    assert one.to_dict() == two.to_dict()
    assert np.array_equal(one.cells, two.cells)
    one = bs.simulate(rules, "optimal", 600_000, seed=3, threads=1, progress=False)
    two = bs.simulate(rules, "optimal", 600_000, seed=3, threads=2, progress=False)
    assert np.array_equal(one.up_histogram, two.up_histogram)


def test_to_dict_schema():
    rules = bj.C21BlackjackRules(decks=2)
    d = bs.simulate(rules, bj.exact(rules).chart, 10_000, seed=1, progress=False).to_dict()
    assert d["rounds"] == 10_000
    assert set(d["bets"]["player"]) == {"rounds", "sum", "sum_of_squares", "mean", "se"}


@pytest.mark.parametrize(("rounds", "seed"), [(0, 1), (10, -1), (1.5, 1)])
def test_bad_inputs(rounds, seed):
    rules = bj.C21BlackjackRules(decks=2)
    with pytest.raises(GamecoreError):
        bs.simulate(rules, simple_chart(), rounds, seed)


def test_dealer_hands_agree_with_the_exact_distribution_and_insurance():
    rules = bj.C21BlackjackRules(decks=6)
    sim = bs.simulate_dealer(rules, ROUNDS, seed=17, progress=False)
    assert sim.counts.sum() == ROUNDS
    check = checks.dealer_cross_check(sim)
    assert len(check) == 10 * 11 + 2 * 10  # before the check; after it under A and 10
    assert check["z"].abs().max() <= z_threshold(len(check))
    insurance = checks.insurance_cross_check(bj.exact(rules, search_chart=False), sim)
    assert abs(insurance["z"].iloc[0]) <= 4
    again = bs.simulate_dealer(rules, 600_000, seed=17, threads=1, progress=False)
    assert np.array_equal(again.counts, bs.simulate_dealer(rules, 600_000, 17, threads=2).counts)


def test_rule_cost_and_sweep_twins():
    rules = bj.C21BlackjackRules(decks=2)
    costs = checks.rule_costs_check(
        rules, {"Natural pays 3:2": {"natural_pays": 1.5}}, rounds=400_000, seed=2, progress=False
    )
    assert costs["Variant"].tolist() == ["as given", "Natural pays 3:2", "Natural pays 3:2"]
    assert costs["z"].abs().max() <= z_threshold(3)
    change = costs.set_index("Figure").loc["EV change, Natural pays 3:2"]
    # Paying a Natural 3:2 instead of even money (double deck) adds half a unit on every
    # player Natural the P/D does not match: 2 decks hold 8 Aces and 32 ten-valued cards.
    player_natural = 2 * 8 * 32 / (104 * 103)
    pd_natural_too = 2 * 7 * 31 / (102 * 101)
    closed_form = 0.5 * player_natural * (1 - pd_natural_too)
    assert change["Exact"] == pytest.approx(closed_form, abs=1e-12)
    sweep = checks.deck_sweep_check(rules, (1, 2), rounds=400_000, seed=4, progress=False)
    assert len(sweep) == 4 and sweep["z"].abs().max() <= z_threshold(4)
    with pytest.raises(GamecoreError):
        bs.simulate_dealer(rules, 0, 1)


def test_a_pair_that_can_no_longer_be_split_plays_its_pair_row():
    """Under Ps/Ph rows, a pair dealt to a split hand at the hand limit is played by the pair
    row's non-split letter, by the engine, the reference and the simulator alike."""
    cells = dict(simple_chart().cells)
    for up in bj.CHART_UP_CARDS:
        cells[("pair 8", up)], cells[("hard 16", up)], cells[("pair 10", up)] = "PS", "H", "PH"
    chart = bj.StrategyChart(cells, "Ps chart")
    rules = bj.StandardBlackjackRules(decks=1, max_split_hands=4)
    exact = bj.exact(rules, chart, search_chart=False)
    sim = bs.simulate(rules, chart, ROUNDS, seed=23, progress=False)
    check = checks.cross_check(exact, sim)
    assert check["z"].abs().max() <= z_threshold(len(check))


def test_doubling_after_hitting_and_no_soft_doubles_have_their_simulated_twin():
    rules = bj.StandardBlackjackRules(decks=2, double_after_hit=True, double_soft=False)
    exact = bj.exact(rules)
    simulation = bs.simulate(rules, exact.chart, 1_000_000, seed=17, progress=False)
    check = checks.cross_check(exact, simulation)
    assert abs(check["z"].iloc[0]) <= 4
    assert check["z"].abs().max() <= z_threshold(len(check))
    # An option only added can only help optimal play, and three-card 11s do double.
    assert exact.player_ev > bj.exact(rules.replace(double_after_hit=False)).player_ev
    assert exact.player_ev < bj.exact(rules.replace(double_soft=True)).player_ev


def test_cdp1_is_simulated_and_cdp_with_resplits_is_refused():
    rules = bj.C21BlackjackRules(decks=6, split_strategy="cdp1")
    exact = bj.exact(rules, search_chart=False)
    sim = bs.simulate(rules, "optimal", ROUNDS, seed=17, progress=False)
    check = checks.cross_check(exact, sim)
    assert check["z"].abs().max() <= z_threshold(len(check))
    with pytest.raises(GamecoreError, match="split_strategy=cdp cannot be simulated"):
        bs.simulate(rules.replace(split_strategy="cdp"), "optimal", 1000, 1, progress=False)
    # Without resplits CDP is CDP1, and simulated.
    double_deck = bj.C21BlackjackRules(decks=2, split_strategy="cdp")
    assert bs.simulate(double_deck, "optimal", 1000, 1, progress=False).rounds == 1000
