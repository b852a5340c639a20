"""21st Century Baccarat: the exact engine against hand-worked shoes and brute-force checks
of its game-theory layer, the simulator against the exact figures, and bad input."""

import itertools
import json
import math
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest
from helpers import compare_with_oracle

from gamecore import c21_baccarat as c21
from gamecore.c21_baccarat.deals import count_deals_modulo
from gamecore.c21_baccarat.option_game import LP_AGREEMENT, solve_zero_sum
from gamecore.errors import GamecoreError
from gamecore.exactcount import exact_counts
from gamecore.parallel import Run
from gamecore.twins import z_threshold

RULES = c21.C21BaccaratRules()


@pytest.fixture(scope="module")
def analysis():
    return c21.count_deals(RULES)


def house_way_result(rules, composition):
    a = c21.count_deals(rules, composition=composition)
    return a.evaluate(c21.house_way_player(rules), c21.house_way_dealer(rules))


def test_every_deal_is_counted_once(analysis):
    reach = analysis.drawn[:, :, 0, :, 0, :].sum()
    assert analysis.concluded.sum() + reach == math.perm(424, 6) == analysis.total
    # Whatever the decisions, each branch pair accounts for the same deals.
    for a_p, a_d in itertools.product((0, 1), repeat=2):
        joker_hands = analysis.drawn[:, 10:, 0, :, a_d, :].sum()
        if a_p == 1:  # hands holding a joker never draw: count them from the stand branch
            assert analysis.drawn[:, :10, a_p, :, a_d, :].sum() + joker_hands == reach
        else:
            assert analysis.drawn[:, :, a_p, :, a_d, :].sum() == reach


def test_shoe_of_jokers_is_naturals_pushing():
    # Six jokers: the up card is a joker (deal concluded), the P/D holds two jokers and so
    # does the player: Natural against Natural pushes, every time.
    result = house_way_result(RULES, [0] * 10 + [6])
    assert result.player_ev == 0
    assert result.outcome_probabilities[("joker up card", "Naturals push")] == 1


@pytest.mark.parametrize("zero_ties, expected", [(True, -1), (False, 0)])
def test_shoe_of_zeros_ties_on_zero(zero_ties, expected):
    # Only 0-valued cards: both sides must draw on 0 and end on 0; the P/D wins ties on zero.
    rules = c21.C21BaccaratRules(pd_wins_ties_on_zero=zero_ties)
    result = house_way_result(rules, [7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    assert result.player_ev == expected


def test_shoe_of_nines_pushes_eights():
    # Only 9s: every two-card hand is 8 (18), both must stand, equal totals push.
    result = house_way_result(RULES, [0] * 9 + [8, 0])
    assert result.player_ev == 0
    assert result.outcome_probabilities[("drawing round", "equal totals push")] == 1


def test_pd_two_card_nine_concludes_and_beats_an_eight():
    # Fours and fives only. The P/D's 4+5 = 9 concludes the deal; a player's 4+4 = 8 loses,
    # 4+5 = 9 pushes, 5+5 = 0 loses. Count by hand with 3 fours and 3 fives (6! sequences
    # of the six cards, dealt up, hole, player, player).
    result = house_way_result(RULES, [0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0])
    nine = result.outcome_probabilities
    # P/D up/hole = (4,5) or (5,4): 2 * 3 * 3 ways; the player then holds two of the other
    # four cards (2 fours, 2 fives) in order: 4*3 = 12; fill 2*1. Total 6! = 720.
    # Player 4+5 (2*2*2 = 8 of 12 orders) pushes; 4+4 (2) and 5+5 (2) lose.
    concluded_push = nine[("P/D two-card 9 or Natural", "equal totals push")]
    concluded_loss = nine[("P/D two-card 9 or Natural", "P/D higher total wins")]
    assert concluded_push == Fraction(18 * 8 * 2, 720)
    assert concluded_loss == Fraction(18 * 4 * 2, 720)


def test_crt_path_equals_int64_path():
    shoe = c21.c21_shoe(2, 1)
    call = lambda m: np.concatenate(  # noqa: E731
        [a.ravel() for a in count_deals_modulo(shoe, True, np.int64(m))]
    )
    assert (exact_counts(call, math.perm(106, 6)) == exact_counts(call, 2**100)).all()


def test_large_shoe_counts_exactly():
    # 30 decks with jokers: N P 6 exceeds int64, so the CRT path runs; the counts still
    # account for every deal.
    a = c21.count_deals(c21.C21BaccaratRules(decks=30))
    assert a.total > 2**63
    assert a.concluded.sum() + a.drawn[:, :, 0, :, 0, :].sum() == a.total


# ---------------------------------------------------------------------------------------
# Strategies and the option game
# ---------------------------------------------------------------------------------------


def test_best_responses_beat_every_pure_strategy(analysis):
    house_d = c21.house_way_dealer(RULES)
    house_p = c21.house_way_player(RULES)
    best_p = analysis.evaluate(analysis.best_response_player(house_d), house_d).player_ev
    best_d = analysis.evaluate(house_p, analysis.best_response_dealer(house_p)).player_ev
    # Brute force: every pure choice on 5 and 6 at every up card.
    options = RULES.option_totals
    for up in range(10):
        matrix, player_pure, dealer_pure = analysis.payoff_matrix(up)
        house_column = dealer_pure.index((1,) * len(options) + (1,) * len(options))
        house_row = player_pure.index((1, 0))  # House Way: draw on 5, stand on 6
        player_gain = matrix[:, house_column].max() - matrix[house_row, house_column]
        dealer_gain = matrix[house_row, house_column] - matrix[house_row, :].min()
        assert player_gain >= 0 and dealer_gain >= 0
    assert best_p >= analysis.evaluate(house_p, house_d).player_ev >= best_d


def test_equilibrium_neither_side_gains_by_deviating(analysis):
    check = analysis.equilibrium_check().set_index("Check")["Player EV"]
    value = check["value of the linear programs"]
    assert check["equilibrium strategies played"] == pytest.approx(value, abs=1e-12)
    assert check["player's best response to the P/D's equilibrium"] <= value + 1e-12
    assert check["P/D's best response to the player's equilibrium"] >= value - 1e-12


def test_equilibrium_value_is_the_minimax_of_each_matrix(analysis):
    _, _, value = analysis.equilibrium()
    concluded = float((analysis.concluded * c21.PAYOFF.astype(object)).sum()) / analysis.total
    total = concluded
    for up in range(10):
        matrix, _, _ = analysis.payoff_matrix(up)
        # Pure-strategy bounds bracket the mixed value.
        assert matrix.min(axis=1).max() - 1e-15 <= matrix.max(axis=0).min() + 1e-15
        x, v = solve_zero_sum(matrix)
        assert np.isclose(x.sum(), 1) and (matrix.T @ x >= v - 1e-12).all()
        total += v
    assert total == pytest.approx(value, abs=1e-15)


#: Rule sets whose option game's normal form can still be built (k = 0 to 4 option totals),
#: across deck counts, every joker count, both readings of a tie on zero and House Way's reach.
NORMAL_FORM_RULES = {
    "no option": {"must_draw_max": 5, "must_stand_min": 6},
    "option on 5, 1 deck, no joker": {
        "decks": 1,
        "jokers_per_deck": 0,
        "must_draw_max": 4,
        "must_stand_min": 6,
    },
    "the card, 2 decks, 2 jokers, ties on zero push": {
        "decks": 2,
        "jokers_per_deck": 2,
        "pd_wins_ties_on_zero": False,
    },
    "the card, 6 decks, 4 jokers, House Way draws to 4": {
        "decks": 6,
        "jokers_per_deck": 4,
        "house_way_draw_max": 4,
    },
    "options 4 to 6, 1 deck, 3 jokers": {
        "decks": 1,
        "jokers_per_deck": 3,
        "must_draw_max": 3,
        "must_stand_min": 7,
        "house_way_draw_max": 3,
    },
    "options 4 to 7, House Way draws to 7, ties on zero push": {
        "decks": 4,
        "must_draw_max": 3,
        "must_stand_min": 8,
        "house_way_draw_max": 7,
        "pd_wins_ties_on_zero": False,
    },
    "options 1 to 4": {
        "jokers_per_deck": 2,
        "must_draw_max": 0,
        "must_stand_min": 5,
        "house_way_draw_max": 2,
    },
}


@pytest.mark.parametrize("values", NORMAL_FORM_RULES.values(), ids=NORMAL_FORM_RULES.keys())
def test_the_sequence_form_is_the_normal_form_and_solves_it(values):
    """At each up card, the sequence form's bilinear payoff at every pair of pure strategies
    is the normal form's entry (:meth:`payoff_matrix`, each a strategy pair's contraction),
    its value is the normal form's by that matrix's own linear program, and its behaviour
    strategies, played as mixed ones (each pure choice with the product of its decisions'
    probabilities), hold the normal form to that value: an equilibrium of the matrix game."""
    rules = c21.C21BaccaratRules(**values)
    analysis = c21.count_deals(rules)
    for up in range(10):
        game = analysis.option_game(up)
        x, y, value = game.solve()
        matrix, player_pure, dealer_pure = analysis.payoff_matrix(up)
        pure_x = np.array([(1, *choice) for choice in player_pure], dtype=float)
        pure_y = np.array([(1, *choice) for choice in dealer_pure], dtype=float)
        scale = np.abs(matrix).max()
        assert np.abs(pure_x @ game.form @ pure_y.T - matrix).max() <= 1e-14 * scale
        tolerance = LP_AGREEMENT * scale
        _, normal_value = solve_zero_sum(matrix)
        assert value == pytest.approx(normal_value, abs=tolerance)
        mixed_x = [
            math.prod(p if c else 1 - p for p, c in zip(x, pure, strict=True))
            for pure in player_pure
        ]
        mixed_y = [
            math.prod(p if c else 1 - p for p, c in zip(y, pure, strict=True))
            for pure in dealer_pure
        ]
        assert (np.array(mixed_x) @ matrix).min() >= normal_value - tolerance
        assert (matrix @ np.array(mixed_y)).max() <= normal_value + tolerance


def test_the_card_s_equilibrium_is_the_one_the_normal_form_finds(analysis):
    """On the card's rules each decision's equilibrium probability is unique (measured apart:
    the strategies that secure the value to within 1e-12 of each game's scale differ by less
    than 1e-7 at any decision), so the two forms must find the same strategies: the sequence
    form's, and the marginals of the normal form's mixed strategies (the probability of the
    pure choices that draw there)."""
    player, dealer, _ = analysis.equilibrium()
    k = len(RULES.option_totals)
    for up in range(10):
        matrix, player_pure, dealer_pure = analysis.payoff_matrix(up)
        mixed_x, _ = solve_zero_sum(matrix)
        mixed_y, _ = solve_zero_sum(-matrix.T)
        for i, total in enumerate(RULES.option_totals):
            draws = sum(p for p, pure in zip(mixed_x, player_pure, strict=True) if pure[i])
            assert player.draw[up, total] == pytest.approx(draws, abs=1e-9), (up, total)
            for drew in (0, 1):
                draws = sum(
                    p for p, pure in zip(mixed_y, dealer_pure, strict=True) if pure[drew * k + i]
                )
                assert dealer.draw[up, drew, total] == pytest.approx(draws, abs=1e-9)


#: The widest options the rule set takes: must draw on 0 only, must stand on 9 only, drawing
#: a choice on 1 to 8 (k = 8; 2^8 by 4^8 pure strategies an up card, which the normal form took
#: hours over).
WIDEST_OPTIONS = c21.C21BaccaratRules(must_draw_max=0, must_stand_min=9)


@pytest.fixture(scope="module")
def widest():
    return c21.count_deals(WIDEST_OPTIONS)


def test_eight_option_totals_are_solved_in_seconds_and_neither_side_gains(widest):
    start = time.process_time()
    check = widest.equilibrium_check().set_index("Check")["Player EV"]
    assert time.process_time() - start < 20  # the solution and three exact evaluations
    # Neither side's exact best response to the other's equilibrium strategy gains beyond the
    # programs' tolerance on each up card's scale.
    slack = sum(LP_AGREEMENT * widest.option_game(up).scale for up in range(10))
    value = check["value of the linear programs"]
    assert check["equilibrium strategies played"] == pytest.approx(value, abs=slack)
    assert check["player's best response to the P/D's equilibrium"] <= value + slack
    assert check["P/D's best response to the player's equilibrium"] >= value - slack
    table = widest.strategy_table().set_index("Key")["Player EV"]
    assert table["pd_best_response"] <= value <= table["player_best_response"]
    # The normal form is refused there, at once, not built for hours.
    start = time.process_time()
    with pytest.raises(GamecoreError, match=r"2\^8 by 4\^8 entries \(8 option totals\)"):
        widest.payoff_matrix(0)
    assert time.process_time() - start < 1


def test_the_command_line_answers_eight_option_totals(widest):
    result = subprocess.run(
        [sys.executable, "-m", "gamecore", "exact", "c21_baccarat", "--json"]
        + ["--rule", "must_draw_max=0", "--rule", "must_stand_min=9"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    strategies = json.loads(result.stdout)["strategies"]
    _, _, value = widest.equilibrium()
    assert strategies["equilibrium"]["player_ev"] == pytest.approx(value, abs=1e-12)
    assert strategies["pd_best_response"]["player_ev"] <= value
    assert value <= strategies["player_best_response"]["player_ev"]


def test_a_decision_no_deal_reaches_keeps_house_way():
    """Tens and sixes only: every two-card total is 0, 6 or 2 (6 + 6), so nobody ever decides
    on 5, where House Way draws; the equilibrium draws there (any answer is as good, and the
    solver's alone would be arbitrary), and plays its game on 6."""
    composition = [32, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0]
    analysis = c21.count_deals(RULES, composition)
    player, dealer, value = analysis.equilibrium()
    for up in (0, 6):
        game = analysis.option_game(up)
        # Decision 0 of each side is on 5 (the P/D's 0 and 2: after the player stood, drew).
        assert not game.form[1].any() and not game.form[:, [1, 3]].any() and game.scale > 0
        assert player.draw[up, 5] == 1 and (dealer.draw[up, :, 5] == 1).all()
    check = analysis.equilibrium_check().set_index("Check")["Player EV"]
    assert check["player's best response to the P/D's equilibrium"] <= value + 1e-12
    assert check["P/D's best response to the player's equilibrium"] >= value - 1e-12


def test_strategy_table_orders_the_strategies(analysis):
    table = analysis.strategy_table().set_index("Key")["Player EV"]
    assert table["player_best_response"] >= table["house_way"] >= table["pd_best_response"]
    assert table["pd_best_response"] <= table["equilibrium"] <= table["player_best_response"]
    for _, row in analysis.strategy_table().iterrows():
        assert row["Player wins"] + row["Push"] + row["P/D wins"] == pytest.approx(1.0, abs=1e-12)


def test_hit_chart_rows(analysis):
    chart = analysis.hit_chart(c21.house_way_dealer(RULES))
    # Standing on 0 always loses: the P/D wins ties on zero and has at least 0.
    zero = chart[(chart["Player hand"] == "0") & (chart["P/D up card"] == 3)].iloc[0]
    assert zero["EV stand"] == -1.0
    assert set(chart["Rule"]) == {
        "must draw",
        "option",
        "must stand",
        "stands (9)",
        "stands (Natural)",
        "deal concluded",
    }
    natural = chart[(chart["Player hand"] == "Natural") & (chart["P/D up card"] == 5)]
    assert natural["EV stand"].iloc[0] == 1.0  # a P/D that reached the draw has no Natural


def test_multi_spot_rests_on_each_spot_keeping_its_heads_up_ev(analysis):
    """multi_spot_table adds heads-up EVs: against a P/D on House Way every seat's EV is its
    heads-up EV however many seats play. Checked by simulating three seats on one shoe."""
    dealer = c21.house_way_dealer(RULES)
    best = analysis.best_response_player(dealer)
    heads_up = float(analysis.evaluate(best, dealer).player_ev)
    table = c21.multi_spot_table(analysis, best)
    assert table.iloc[0]["EV per unit wagered over all spots"] == pytest.approx(heads_up)
    simulation = c21.sim.simulate(RULES, Run(400_000, 11, progress=False), players=3, player=best)
    bets = simulation.to_dict()["bets"]
    for seat in ("seat_1", "seat_2", "seat_3"):
        assert abs(bets[seat]["mean"] - heads_up) <= z_threshold(3) * bets[seat]["se"], seat


def test_economics_adds_up(analysis):
    ev = analysis.evaluate(c21.house_way_player(RULES), c21.house_way_dealer(RULES)).player_ev
    table = c21.table_economics(RULES, ev, 10, range(1, 9))
    row = table.iloc[2]  # three players
    assert row["P/D action"] == 30
    assert row["P/D net after collection"] == pytest.approx(-float(ev) * 30 - 1)
    assert row["House collections"] == 4
    fees = c21.collection_table(RULES)
    assert fees["Collection as % of wager"].iloc[0] == 0.1  # $1 on $10


# ---------------------------------------------------------------------------------------
# Simulation
# ---------------------------------------------------------------------------------------


def test_simulation_against_exact(analysis):
    player, dealer = c21.house_way_player(RULES), c21.house_way_dealer(RULES)
    simulation = c21.sim.simulate(RULES, Run(2_000_000, seed=21))
    check = c21.checks.cross_check(analysis.evaluate(player, dealer), simulation)
    assert (check["z"].abs() <= 4).all(), check


def test_mixed_equilibrium_simulated(analysis):
    eq_p, eq_d, value = analysis.equilibrium()
    simulation = c21.sim.simulate(RULES, Run(1_000_000, 22), player=eq_p, dealer=eq_d)
    check = c21.checks.cross_check(analysis.evaluate(eq_p, eq_d), simulation)
    assert abs(check.iloc[0]["z"]) <= 4


def test_full_table_seats_match_heads_up(analysis):
    ev = float(
        analysis.evaluate(c21.house_way_player(RULES), c21.house_way_dealer(RULES)).player_ev
    )
    table = c21.sim.simulate(RULES, Run(300_000, 23), players=6).by_seat()
    assert ((table["Player EV"] - ev).abs() <= 4 * table["SE"]).all()


def test_simulation_is_deterministic_across_threads():
    rounds = 2 * c21.sim.CHUNK_ROUNDS + 5
    one = c21.sim.simulate(RULES, Run(rounds, 3, threads=1), players=2)
    two = c21.sim.simulate(RULES, Run(rounds, 3, threads=2), players=2)
    assert (one.counts == two.counts).all()


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values, message",
    [
        ({"jokers_per_deck": 5}, "jokers_per_deck must be an integer from 0 to 4, got 5"),
        ({"jokers_per_deck": -1}, "got -1"),
        ({"decks": 0}, "decks must be an integer from 1 to 1000, got 0"),
        ({"must_draw_max": 6, "must_stand_min": 6}, "must be below must_stand_min"),
        ({"house_way_draw_max": 7}, "house_way_draw_max must be from"),
        ({"pd_wins_ties_on_zero": 1}, "pd_wins_ties_on_zero must be true or false, got 1"),
        ({"collection": -1}, "collection must be from 0 to 1,000,000,000,000, got -1"),
        ({"table_minimum": 200}, "at most table_maximum"),
    ],
)
def test_bad_rules(values, message):
    with pytest.raises(GamecoreError, match=message):
        c21.C21BaccaratRules(**values)


def test_bad_strategies():
    draw = c21.house_way_player(RULES).draw.astype(float)
    draw[3, 8] = 1
    with pytest.raises(GamecoreError, match="the player must stand on 8"):
        c21.player_strategy(RULES, "bad", draw)
    draw = c21.house_way_player(RULES).draw.astype(float)
    draw[0, 2] = 0.5
    with pytest.raises(GamecoreError, match="the player must draw on 2"):
        c21.player_strategy(RULES, "bad", draw)
    with pytest.raises(GamecoreError, match="shape"):
        c21.dealer_strategy(RULES, "bad", np.zeros((10, 9)))
    with pytest.raises(GamecoreError, match=r"in \[0, 1\]"):
        draw = c21.house_way_dealer(RULES).draw.astype(float)
        draw[0, 0, 5] = 1.5
        c21.dealer_strategy(RULES, "bad", draw)


def test_bad_simulations(analysis):
    with pytest.raises(GamecoreError, match="players must be from 1 to 8, got 9"):
        c21.sim.simulate(RULES, Run(100, 1), players=9)
    best = analysis.best_response_dealer(c21.house_way_player(RULES))
    with pytest.raises(GamecoreError, match="heads-up only"):
        c21.sim.simulate(RULES, Run(100, 1), players=2, dealer=best)
    with pytest.raises(GamecoreError, match="rules must be C21BaccaratRules"):
        c21.count_deals(object())


# ---------------------------------------------------------------------------------------
# Against the independent pure-Python oracle (tests/naive_c21.py)
# ---------------------------------------------------------------------------------------

naive = pytest.importorskip("naive_c21")


def test_one_deck_one_joker_house_way_equals_oracle():
    composition = naive.c21_composition(1, 1)
    oracle = naive.ev_by_class(composition, naive.house_way_player, naive.house_way_dealer)
    compare_with_oracle(composition, naive.house_way_player, naive.house_way_dealer, oracle)
    assert naive.ev(oracle) == Fraction(-64369, 5165433)


@pytest.mark.parametrize("zero_ties", [True, False])
@pytest.mark.parametrize(
    "strategy",
    ["house way", "always draw", "never draw", "depends on the player", "mixed"],
)
@pytest.mark.parametrize(
    "cards",
    [
        [0, 0, 3, 5, 6, 9, 10, 2, 4],
        [0, 1, 5, 5, 6, 6, 7, 10, 10, 3],
        [2, 3, 4, 5, 6, 7, 8, 9],
    ],
)
def test_tiny_shoes_equal_card_by_card(cards, strategy, zero_ties):
    player_draw, dealer_draw = {
        "house way": (naive.house_way_player, naive.house_way_dealer),
        "always draw": (lambda u, t: 1, lambda u, d, t: 1),
        "never draw": (lambda u, t: 0, lambda u, d, t: 0),
        "depends on the player": (
            lambda u, t: int(t <= u % 7),
            lambda u, d, t: int(t <= (3 if d else 6)),
        ),
        "mixed": (
            lambda u, t: Fraction(1, 2) if t in (5, 6) else int(t < 5),
            lambda u, d, t: Fraction(1, 3) if t in (5, 6) else int(t < 5),
        ),
    }[strategy]
    composition = [cards.count(v) for v in range(11)]
    oracle = naive.ev_card_by_card(cards, player_draw, dealer_draw, zero_ties)
    compare_with_oracle(composition, player_draw, dealer_draw, oracle, zero_ties)


def test_eight_deck_house_way_equals_oracle():
    composition = naive.c21_composition(8, 1)
    oracle = naive.ev_by_class(composition, naive.house_way_player, naive.house_way_dealer)
    compare_with_oracle(composition, naive.house_way_player, naive.house_way_dealer, oracle)
    assert naive.ev(oracle) == Fraction(-1149375068384, 87616138805055)


def test_chart_cross_checks(analysis):
    house_d, house_p = c21.house_way_dealer(RULES), c21.house_way_player(RULES)
    chart = c21.checks.hit_chart_cross_check(analysis, house_d, 3_000_000, seed=31)
    # A row per action with an exact value in each of the 120 cells (twelve hands by ten up
    # cards): both actions, but the two hands that only stand (Naturals).
    cells = chart.groupby(["Player hand", "P/D up card"])["Action"].apply(set)
    assert len(cells) == 120 and (cells == {"hit", "stand"}).sum() == 100
    assert (cells == {"stand"}).sum() == 20
    assert chart["z"].abs().max() <= z_threshold(len(chart))  # 4 standard errors, family-wise
    pd_chart = c21.checks.pd_chart_cross_check(analysis, house_p, 3_000_000, seed=32)
    assert pd_chart["z"].abs().max() <= z_threshold(len(pd_chart))
    strategies = c21.checks.strategies_cross_check(analysis, 500_000, seed=33)
    assert (strategies["z"].abs() <= 4).all()


def test_every_column_of_the_sweep_has_its_twin():
    # One deck with no joker and with one: the four strategy pairs at each shoe. The House
    # Way row at one deck and one joker is the pure-Python oracle's figure (above).
    check = c21.checks.sweep_cross_check(RULES, [1], [0, 1], 200_000, seed=34)
    assert list(check["Jokers per deck"]) == [0] * 4 + [1] * 4
    assert (check["Decks"] == 1).all()
    assert list(check["Key"])[:4] == [
        "house_way", "player_best_response", "pd_best_response", "equilibrium",
    ]  # fmt: skip
    house_way = check[(check["Key"] == "house_way") & (check["Jokers per deck"] == 1)]
    assert house_way["Exact"].iloc[0] == pytest.approx(-64369 / 5165433, rel=1e-12)
    assert house_way["Figure"].iloc[0].endswith(", 1 deck, 1 joker per deck")
    assert check["z"].abs().max() <= z_threshold(len(check))


def test_the_pd_edge_table_turns_the_players_ev_and_prices_the_collection():
    # The player's EV -1/80 against the P/D, a collection of 1 on bets of 10 and 100: the
    # P/D's edge 1/80 per unit of action; the collection 10% and 1% of the bet.
    table = c21.pd_edge_table(RULES, {"House Way": Fraction(-1, 80)}, [10, 100])
    assert list(table["Bet"]) == [10, 100]
    assert list(table["P/D edge"]) == [0.0125, 0.0125]
    assert list(table["Collection (house edge on the bet)"]) == [0.1, 0.01]
    assert list(table["Player EV after collection"]) == [-0.0125 - 0.1, -0.0125 - 0.01]
    # By default at the rule set's table limits.
    limits = c21.pd_edge_table(RULES, {"House Way": 0.0})
    assert list(limits["Bet"]) == [RULES.table_minimum, RULES.table_maximum]
