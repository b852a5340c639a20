"""The Monte Carlo simulator: exact against simulation (|z| <= 4), the dealing kernel
against the independent pure-Python oracle, uniformity of the random draws, determinism
across threads and on a Dask LocalCluster, and bad input."""

import math

import naive_baccarat as naive
import numpy as np
import pytest
from scipy import stats

from gamecore import baccarat
from gamecore.baccarat.sim import simulate
from gamecore.dealing import Dealing, below, cards_burned
from gamecore.errors import GamecoreError
from gamecore.twins import TWIN_COLUMNS

Z_LIMIT = 4.0
ROUNDS = 2_000_000


@pytest.fixture(scope="module")
def ez_fresh():
    return simulate(baccarat.EZBaccaratRules(), ROUNDS, seed=11)


@pytest.fixture(scope="module")
def ez_exact():
    return baccarat.exact(baccarat.EZBaccaratRules())


def test_exact_against_fresh_simulation(ez_exact, ez_fresh):
    check = baccarat.sim.cross_check(ez_exact, ez_fresh)
    assert list(check.columns[:5]) == list(TWIN_COLUMNS)
    assert set(check["Bet"]) == {"banker", "player", "tie", "dragon7", "panda8"}
    assert (check["z"].abs() <= Z_LIMIT).all(), check
    assert np.allclose(check["Simulated SD"], check["Exact SD"], rtol=0.01)


def test_outcome_frequencies_against_exact(ez_exact, ez_fresh):
    check = baccarat.sim.outcomes_cross_check(ez_exact, ez_fresh)
    assert (check["z"].abs() <= Z_LIMIT).all(), check


def test_whole_breakdown_is_dealt_with_exact_frequencies(ez_exact, ez_fresh):
    # Chi-square of every final state the exact engine can reach (pooling rare ones): a
    # biased shuffle or a wrong tableau entry would show here even if the bets' EVs agreed.
    expected = np.array([float(w) for w in ez_exact.weights.flat]) / float(ez_exact.total)
    observed = ez_fresh.counts.astype(float).ravel()
    assert observed[expected == 0].sum() == 0  # no impossible final state is ever dealt
    expected *= ez_fresh.rounds
    common = expected >= 50
    pooled_obs, pooled_exp = observed[common], expected[common]
    if expected[~common].sum() > 0:
        pooled_obs = np.append(pooled_obs, observed[~common].sum())
        pooled_exp = np.append(pooled_exp, expected[~common].sum())
    assert len(pooled_exp) > 150
    assert stats.chisquare(pooled_obs, pooled_exp).pvalue > 1e-6


def test_shoe_mode_against_exact(ez_exact):
    # The cut-card effect is far below this simulation's resolution.
    dealt = simulate(baccarat.EZBaccaratRules(), ROUNDS, seed=12, dealing=Dealing(mode="shoe"))
    fresh = simulate(baccarat.EZBaccaratRules(), 10_000, seed=13)
    check = baccarat.sim.cross_check(ez_exact, fresh, dealt)
    dealt_rows = check[check["Dealing"] == "dealt shoe"]
    assert len(dealt_rows) == 5 and (dealt_rows["z"].abs() <= Z_LIMIT).all(), check
    # About 80 rounds per 8-deck shoe with 14 cards behind the cut card.
    assert 75 < dealt.rounds / dealt.shuffles < 85


def test_deck_sweep_cross_check():
    check = baccarat.sim.deck_sweep_cross_check(baccarat.PuntoBancoRules(), 2, 500_000, seed=3)
    assert check["Decks"].tolist() == [1, 1, 1, 2, 2, 2]
    assert (check["z"].abs() <= Z_LIMIT).all(), check


def test_alternative_paytable_over_the_same_rounds():
    fresh = simulate(baccarat.PuntoBancoRules(), 100_000, seed=5)
    seven = fresh.under(baccarat.PuntoBancoRules(tie_pays=7))
    ties = fresh.outcome_counts()["tie"]
    assert seven.bets()["tie"]["sum"] == 7 * ties - (fresh.rounds - ties)
    with pytest.raises(GamecoreError, match="same game and shoe"):
        fresh.under(baccarat.PuntoBancoRules(decks=6))


def test_sums_of_net_results(ez_fresh):
    counts = ez_fresh.outcome_counts()
    bets = ez_fresh.bets()
    assert bets["dragon7"]["sum"] == 40 * counts["dragon7"] - (ROUNDS - counts["dragon7"])
    assert bets["dragon7"]["sum_of_squares"] == 1600 * counts["dragon7"] + (
        ROUNDS - counts["dragon7"]
    )
    banker = counts["banker"] - counts["dragon7"] - counts["player"]
    assert bets["banker"]["sum"] == banker
    assert bets["banker"]["mean"] == banker / ROUNDS


# ---------------------------------------------------------------------------------------
# Kernels against the oracle
# ---------------------------------------------------------------------------------------


def test_play_round_equals_oracle_on_random_sequences():
    rng = np.random.default_rng(2)
    tableau = (baccarat.PLAYER_DRAWS, baccarat.BANKER_DRAWS_PLAYER_STOOD, baccarat.BANKER_DRAWS)
    for _ in range(20_000):
        cards = rng.integers(0, 10, size=8).astype(np.int64)
        start = int(rng.integers(0, 3))
        p, b, pt, bt, used = baccarat.sim.play_round(rng, cards, start, False, *tableau)
        expected = naive.play_round(cards[start:].tolist())
        assert (p + 2, b + 2, pt, bt) == expected
        assert used == p + b + 4


def test_burn_procedure():
    # The first card is turned and as many more burned as its value; ten for a 10-value card.
    for first, burned in [(1, 2), (5, 6), (9, 10), (0, 11)]:
        cards = np.array([first] + [3] * 20, dtype=np.int64)
        assert cards_burned(cards) == burned


@pytest.mark.parametrize("n", [2, 7, 52, 416])
def test_bounded_draws_are_uniform(n):
    draw = below
    rng = np.random.default_rng(n)
    sample = np.array([draw(rng, n) for _ in range(200 * n)])
    assert sample.min() >= 0 and sample.max() < n
    assert stats.chisquare(np.bincount(sample, minlength=n)).pvalue > 1e-6


# ---------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------


def test_same_seed_same_result_with_one_or_two_threads():
    rules = baccarat.EZBaccaratRules()
    rounds = 2 * baccarat.sim.CHUNK_ROUNDS + 12_345  # three chunks
    for dealing in (Dealing(), Dealing(mode="shoe", penetration=26)):
        one = simulate(rules, rounds, seed=99, dealing=dealing, threads=1)
        two = simulate(rules, rounds, seed=99, dealing=dealing, threads=2)
        again = simulate(rules, rounds, seed=99, dealing=dealing)
        assert (one.counts == two.counts).all() and (one.counts == again.counts).all()
        assert one.shuffles == two.shuffles
        assert one.counts.sum() == rounds
    other = simulate(rules, rounds, seed=100)
    assert (other.counts != one.counts).any()


def test_dask_local_cluster_equals_local_run():
    pytest.importorskip("dask.distributed")
    rules = baccarat.PuntoBancoRules()
    rounds = baccarat.sim.CHUNK_ROUNDS + 1_000  # two chunks
    local = simulate(rules, rounds, seed=7, dealing=Dealing(mode="shoe"))
    on_dask = simulate(rules, rounds, seed=7, dealing=Dealing(mode="shoe"), dask="local")
    assert (local.counts == on_dask.counts).all()
    assert local.shuffles == on_dask.shuffles


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rounds": 0}, "rounds must be a positive integer, got 0"),
        ({"rounds": -5}, "got -5"),
        ({"rounds": 1.5}, "got 1.5"),
        ({"seed": -1}, "seed must be a non-negative integer, got -1"),
        ({"dealing": Dealing(mode="shoe", penetration=416)}, "penetration must be from 6 to 399"),
        ({"dealing": Dealing(mode="shoe", penetration=5)}, "got 5"),
        ({"threads": 0}, "threads must be a positive integer, got 0"),
        ({"dask": "tcp://127.0.0.1:1"}, "cannot reach the Dask scheduler"),
    ],
)
def test_bad_simulation_input(kwargs, message, monkeypatch):
    # Nothing listens on port 1: no need to wait the usual ten seconds to be sure.
    monkeypatch.setattr("gamecore.parallel.DASK_CONNECT_TIMEOUT", "1s")
    arguments = {"rounds": 1000, "seed": 1, **kwargs}
    with pytest.raises(GamecoreError, match=message):
        simulate(baccarat.EZBaccaratRules(), **arguments)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "deal"}, "mode must be one of fresh, shoe, got 'deal'"),
        ({"burn": "two"}, "burn must be one of face_value, none, got 'two'"),
        ({"penetration": 14.5}, "penetration must be an integer, got 14.5"),
    ],
)
def test_bad_dealing(kwargs, message):
    with pytest.raises(GamecoreError, match=message):
        Dealing(**kwargs)


def test_cross_check_needs_fresh_rounds(ez_exact):
    dealt = simulate(baccarat.EZBaccaratRules(), 1000, seed=1, dealing=Dealing(mode="shoe"))
    with pytest.raises(GamecoreError, match="fresh-shoe"):
        baccarat.sim.cross_check(ez_exact, dealt)


def test_standard_errors_are_the_sample_formula(ez_fresh):
    bet = ez_fresh.bets()["tie"]
    n = bet["rounds"]
    variance = (bet["sum_of_squares"] - n * bet["mean"] ** 2) / (n - 1)
    assert bet["se"] == pytest.approx(math.sqrt(variance / n), rel=1e-12)
