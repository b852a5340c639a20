"""The z of every twin takes its SE under the exact figure (gamecore.twins), so a rare outcome
never seen in a small simulation, or a small cell that happened to give one result every time,
has a finite z; only an exact figure without spread (p = 0 or 1, SD 0) gives an infinite z,
and only when the simulation contradicts it (a certain mismatch, flagged).

The reference is the one-sample z test for a proportion: z = (p_hat - p0) / sqrt(p0 (1 - p0)
/ n), the SE taken under the null hypothesis p0 (the score test of a binomial proportion,
e.g. Agresti, Categorical Data Analysis, chapter 1), and for a mean the known SD over sqrt(n).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore import c21_baccarat, twins
from gamecore.c21_baccarat import checks
from gamecore.c21_baccarat.dealt import REASONS
from gamecore.c21_baccarat.rules import OUTCOMES, PAYOFF
from gamecore.c21_baccarat.strategies import dealer_tensor
from gamecore.parallel import Run

probabilities = st.floats(min_value=1e-9, max_value=1 - 1e-9)
trials = st.integers(min_value=1, max_value=10**12)


def z_of(row: dict) -> float:
    return twins.z_score(row["Simulated"], row["Exact"], row["SE"])


# -- the shared rule (gamecore.twins) ----------------------------------------------------------


@given(probabilities, trials, st.floats(min_value=0, max_value=1))
def test_a_probability_with_spread_has_a_finite_z(p, n, share):
    assert math.isfinite(z_of(twins.frequency_twin(p, int(share * n), n)))


@given(probabilities, trials)
def test_an_outcome_never_seen_has_the_null_z(p, n):
    # (0 - p) / sqrt(p (1 - p) / n) = -sqrt(n p / (1 - p))
    assert z_of(twins.frequency_twin(p, 0, n)) == pytest.approx(-math.sqrt(n * p / (1 - p)))


@given(trials, st.integers(min_value=1, max_value=10**12))
def test_an_impossible_outcome_seen_is_a_certain_mismatch(n, hits):
    hits = min(hits, n)
    row = twins.frequency_twin(0.0, hits, n)
    assert z_of(row) == math.inf
    assert z_of(twins.frequency_twin(1.0, n - hits, n)) == -math.inf
    line = twins.verdict(twins.twin_table([{"Figure": "P(impossible)", **row}]))
    assert "certain mismatch" in line


@given(trials)
def test_a_certain_figure_agreed_with_is_no_mismatch(n):
    assert z_of(twins.frequency_twin(0.0, 0, n)) == 0.0
    assert z_of(twins.frequency_twin(1.0, n, n)) == 0.0
    table = twins.twin_table([{"Figure": "P(sure)", **twins.frequency_twin(1.0, n, n)}])
    assert "mismatch" not in twins.verdict(table)


@given(
    st.floats(min_value=-1, max_value=1),
    st.floats(min_value=1e-6, max_value=10),
    st.floats(min_value=-1, max_value=1),
    trials,
)
def test_a_mean_with_spread_has_a_finite_z_from_the_exact_sd(mean, sd, simulated, n):
    row = twins.mean_twin(mean, sd, simulated, n)
    assert row["SE"] == pytest.approx(sd / math.sqrt(n))
    assert math.isfinite(z_of(row))


def test_hand_worked_values():
    # p = 1/4 over 12 trials: SE = sqrt(3/16 / 12) = 1/8; none seen: z = -(1/4) / (1/8) = -2.
    row = twins.frequency_twin(0.25, 0, 12)
    assert row["SE"] == pytest.approx(0.125) and z_of(row) == pytest.approx(-2.0)
    # p = 0.9 over 100 trials, 100 seen: SE = 0.03, z = 0.1 / 0.03 = 10/3.
    assert z_of(twins.frequency_twin(0.9, 100, 100)) == pytest.approx(10 / 3)
    # EV -0.25, SD 0.5 over 100 trials: SE 0.05; a sample mean of -0.2: z = 1.
    assert z_of(twins.mean_twin(-0.25, 0.5, -0.2, 100)) == pytest.approx(1.0)
    # A sample of 4 losses of a wager whose EV is 0 and SD 1: z = -1 / (1/2) = -2, where the
    # sample's own spread (0) would have given -inf.
    assert z_of(twins.mean_twin(0.0, 1.0, -1.0, 4)) == pytest.approx(-2.0)
    assert math.isnan(twins.mean_twin(0.0, 1.0, math.nan, 0)["SE"])  # nothing simulated


# -- 21st Century Baccarat at 10,000 rounds (the report's small build printed |z| inf) ---------


@pytest.fixture(scope="module")
def c21():
    rules = c21_baccarat.C21BaccaratRules()
    return c21_baccarat.count_deals(rules), rules


@pytest.fixture(scope="module")
def small_charts(c21):
    analysis, rules = c21
    house_player, house_dealer = (
        c21_baccarat.house_way_player(rules),
        c21_baccarat.house_way_dealer(rules),
    )
    # Seeds whose 10,000 rounds leave some cells with a few hands of one result (the sample's
    # SD 0): before the SE came from the exact SD, their z was infinite.
    hit = checks.hit_chart_cross_check(analysis, house_dealer, 10_000, 2036, threads=1)
    pd_side = checks.pd_chart_cross_check(analysis, house_player, 10_000, 2038, threads=1)
    return hit, pd_side, house_dealer


def test_small_chart_cross_checks_have_finite_z(small_charts):
    for table in small_charts[:2]:
        simulated = table[table["Hands"] > 0]
        assert np.isfinite(simulated["z"]).all(), simulated[~np.isfinite(simulated["z"])]
        assert "inf" not in twins.verdict(table)
        assert table.loc[table["Hands"] == 0, "z"].isna().all()


def test_chart_se_is_the_cells_exact_sd(c21, small_charts):
    # Every result is -1, 0 or 1, so a cell's second moment is at most 1: SE^2 n + EV^2 <= 1.
    for table in small_charts[:2]:
        rows = table[table["Hands"] > 0]
        assert (rows["SE"] ** 2 * rows["Hands"] + rows["Exact"] ** 2 <= 1 + 1e-9).all()
        # No spread only where the cell's result is certain (a P/D standing on 5 or less
        # against a player who stood on 6 or more always loses), and then the twin agrees.
        certain = rows[rows["SE"] == 0]
        assert certain["Exact"].isin([-1.0, 0.0, 1.0]).all() and (certain["z"] == 0).all()
    # One cell worked out from the counts directly: the chance of a decision (not a push)
    # with the player standing on a joker 9 against a P/D 2, the P/D on House Way.
    analysis, _ = c21
    hit, _, house_dealer = small_charts
    up, hand, stand = 2, 10, 0
    counts = analysis.drawn[up, hand, stand].astype(float)  # (P/D total, P/D draws, outcome)
    weights = dealer_tensor(house_dealer)[up, stand].astype(float)  # (P/D total, P/D draws)
    reach = counts[:, 0, :].sum()
    ev = np.einsum("tb,tbo,o->", weights, counts, PAYOFF) / reach
    decisive = np.einsum("tb,tbo,o->", weights, counts, np.abs(PAYOFF)) / reach
    row = hit[hit["Figure"] == "EV of stand: joker (9) v P/D 2"].iloc[0]
    assert row["Exact"] == pytest.approx(ev, rel=1e-12)
    assert row["SE"] == pytest.approx(math.sqrt((decisive - ev**2) / row["Hands"]), rel=1e-12)


def test_an_impossible_outcome_seen_is_flagged_not_dropped(c21):
    analysis, rules = c21
    house = analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    )
    simulation = c21_baccarat.sim.simulate(rules, Run(2_000, 7, 1))
    impossible = [k for k, p in house.outcome_probabilities.items() if p == 0]
    assert impossible, "the house way pair has outcomes that cannot happen"
    assert np.isfinite(checks.cross_check(house, simulation)["z"]).all()
    # A simulation that (wrongly) tallied one of them once:
    reason, outcome = impossible[0]
    counts = simulation.counts.copy()
    counts[0, REASONS.index(reason), OUTCOMES.index(outcome)] += 1
    table = checks.cross_check(house, dataclasses.replace(simulation, counts=counts))
    row = table[table["Figure"] == f"P({reason}: {outcome})"]
    assert len(row) == 1 and row["z"].iloc[0] == math.inf
    assert "certain mismatch" in twins.verdict(table)


# -- the other games' twins of a wager's EV (a rare-paying bet over a few rounds) -------------


def assert_every_twin_finite(table):
    rows = table[table["SE"].notna()]
    assert np.isfinite(rows["z"]).all(), rows[~np.isfinite(rows["z"])].to_string()
    assert "mismatch" not in twins.verdict(table)


def test_dragon_tiger_ev_twins_over_ten_rounds_are_finite():
    # Seed 1's ten rounds hold no tie: every tie bet lost, the sample's SD 0 (z was -inf).
    from gamecore import dragon_tiger

    rules = dragon_tiger.DragonTigerRules()
    analysis = dragon_tiger.exact(rules)
    table = dragon_tiger.sim.cross_check(analysis, dragon_tiger.simulate(rules, 10, 1, 1))
    assert_every_twin_finite(table)
    tie = table[table["Figure"].str.startswith("Tie")].iloc[0]
    assert tie["Simulated"] == -1.0 and tie["SE"] == pytest.approx(tie["Exact SD"] / math.sqrt(10))


def test_ez_baccarat_ev_twins_over_few_rounds_are_finite():
    from gamecore import baccarat

    rules = baccarat.EZBaccaratRules()
    exact = baccarat.exact(rules)
    for seed in range(3):
        table = baccarat.sim.cross_check(exact, baccarat.sim.simulate(rules, 20, seed=seed))
        assert_every_twin_finite(table)
        assert (table["SE"] == table["Exact SD"] / math.sqrt(20)).all()


def test_a_side_bet_lost_every_round_has_a_finite_ev_twin():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from sidebet_builtins import builtin

    from gamecore.sidebets import sim
    from gamecore.sidebets.parsheet import par_sheet

    sheet = par_sheet(builtin("lucky_ladies"), 1)
    table = sim.twin_table(sheet, sim.simulate(sheet.bet, 1, 20, seed=2))  # 20 rounds lost
    ev = table[table["Figure"] == "EV"].iloc[0]
    assert ev["Simulated"] == -1.0 and ev["SE"] == pytest.approx(sheet.sd / math.sqrt(20))
    assert_every_twin_finite(table)


def test_insurance_never_won_has_the_null_z():
    from gamecore import blackjack
    from gamecore.blackjack import checks as blackjack_checks
    from gamecore.blackjack import sim as blackjack_sim

    rules = blackjack.C21BlackjackRules(decks=6)
    analysis = blackjack.exact(rules, search_chart=False)
    # Seed 5's 30 hands: 3 under an Ace, none a Natural, so every insurance bet lost.
    dealer = blackjack_sim.simulate_dealer(rules, 30, seed=5, progress=False)
    row = blackjack_checks.insurance_cross_check(analysis, dealer).iloc[0]
    pays = float(analysis.resolved_rules.insurance_pays)
    p = (analysis.insurance_ev + 1) / (pays + 1)  # ev = (pays + 1) p - 1
    assert row["Hands"] == 3 and row["Simulated"] == pytest.approx(-1.0)
    assert row["z"] == pytest.approx(-math.sqrt(3 * p / (1 - p)))
