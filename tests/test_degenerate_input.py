"""Hostile input, round three (issue 27), class by class: shoes where every round ties or
that are almost all jokers, numbers of every Python and numpy type, what shoe messages call
each entry, bankrolls given as numpy arrays, and the option game's linear programs. Each is
computed correctly (against the slow references or a property that must hold) or refused in
one line naming the value (exit 2 on the command line). The random versions of these are in
test_properties_shoes."""

from __future__ import annotations

import decimal
import enum
import subprocess
import warnings
from fractions import Fraction

import naive_baccarat as nb
import naive_c21 as nc
import numpy as np
import pytest
from helpers import assert_refused, run_gamecore, run_gamecore_here

from gamecore import (
    baccarat,
    banking,
    c21_baccarat,
    counting,
    hold,
    parallel,
    rules,
    strictjson,
)
from gamecore import blackjack as bj
from gamecore.banking import Bank
from gamecore.c21_baccarat.option_game import LP_AGREEMENT, check_values_agree
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError
from gamecore.parallel import Run
from gamecore.shoe import MAX_CARDS_PER_CLASS, validate_composition, validate_decks


def strict_json(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no warning either
    return strictjson.loads(result.stdout)  # NaN and infinities refused


# --- 1. shoes where every round ties --------------------------------------------------


def _one_value_shoe(value: int, cards: int) -> list[int]:
    return [cards if v == value else 0 for v in range(10)]


@pytest.mark.parametrize(
    ("value", "cards"), [*((v, 6) for v in range(10)), (0, 10), (4, MAX_CARDS_PER_CLASS)]
)
def test_a_shoe_of_one_point_value_ties_every_round_and_leaves_ties_excluded_undefined(
    value, cards
):
    composition = _one_value_shoe(value, cards)
    reference = nb.class_breakdown(composition)
    # The reference: both hands always end on the same total.
    assert all(player == banker for (_, _, player, banker) in reference)
    for kind in (baccarat.PuntoBancoRules, baccarat.EZBaccaratRules):
        analysis = baccarat.exact(kind(tie_pays=8), composition=composition)
        for name in ("banker", "player"):
            assert analysis.house_edge_ties_excluded(analysis.wager(name)) is None
        summary = analysis.summary().set_index("Key")
        assert summary.loc[["banker", "player"], "House edge, ties excluded"].isna().all()
        # Every round is a tie: Banker and Player push, the Tie bet wins 8 every round.
        assert summary.loc["banker", "House edge"] == summary.loc["player", "House edge"] == 0
        assert summary.loc["tie", "House edge"] == -8
        data = strictjson.loads(strictjson.dumps(analysis.to_dict()))
        assert data["bets"]["banker"]["house_edge_ties_excluded"] is None
        assert data["bets"]["player"]["house_edge_ties_excluded"] is None
        assert "every round of this shoe is a tie" in data["house_edge_ties_excluded_note"]


def test_a_shoe_with_few_decided_rounds_keeps_the_figure_over_those_rounds():
    composition = [6, 0, 0, 0, 0, 0, 0, 0, 0, 1]  # six ten-valued cards and one 9
    reference = nb.class_breakdown(composition)
    banker = sum(w for (_, _, p, b), w in reference.items() if b > p)
    player = sum(w for (_, _, p, b), w in reference.items() if p > b)
    assert banker and player  # some rounds are decided, either way
    analysis = baccarat.exact(baccarat.PuntoBancoRules(), composition=composition)
    # Per decided round: the Banker wins 0.95 on its wins and loses 1 on the Player's.
    expected = Fraction(player - Fraction(95, 100) * banker, banker + player)
    assert analysis.house_edge_ties_excluded(analysis.wager("banker")) == expected
    assert "house_edge_ties_excluded_note" not in analysis.to_dict()


@pytest.mark.parametrize("game", ["punto_banco", "ez_baccarat"])
def test_an_all_tie_shoe_on_the_command_line_is_null_with_the_reason(game):
    data = strict_json(run_gamecore("exact", game, "--shoe", "0,0,0,0,0,0,0,0,0,10", "--json"))
    assert data["outcomes"]["tie"]["probability"] == 1.0
    assert data["bets"]["banker"]["house_edge_ties_excluded"] is None
    assert "tie" in data["house_edge_ties_excluded_note"]
    text = run_gamecore("exact", game, "--shoe", "0,0,0,0,0,0,0,0,0,10")
    assert text.returncode == 0 and text.stderr == ""
    assert "House edge, ties excluded: undefined" in text.stdout


@pytest.mark.parametrize(
    ("composition", "zero_ties"),
    [
        ([6] + [0] * 10, True),  # ten-valued cards only: every hand 0, the P/D wins the ties
        ([6] + [0] * 10, False),  # ... or they push
        ([0] * 10 + [6], True),  # jokers only: Natural against Natural, a push
        ([0] * 10 + [2**31 - 1], True),
    ],
)
def test_c21_shoes_of_one_class_have_the_references_exact_result(composition, zero_ties):
    small = [min(c, 6) for c in composition]  # the reference enumerates the small twin
    oracle = nc.ev_by_class(small, nc.house_way_player, nc.house_way_dealer, zero_ties)
    expected = Fraction(oracle["win"] - oracle["loss"], oracle["total"])
    rules = c21_baccarat.C21BaccaratRules(pd_wins_ties_on_zero=zero_ties)
    analysis = c21_baccarat.count_deals(rules, composition)
    table = analysis.strategy_table().set_index("Key")
    # One class: every deal ends the same way, whatever anyone's strategy.
    assert (table["Player EV"] == float(expected)).all()
    assert (table["SD"] == 0).all()
    strictjson.loads(strictjson.dumps(analysis.to_dict()))


@pytest.mark.parametrize(("up", "composition"), [("A", [0] * 9 + [10]), ("10", [10] + [0] * 9)])
def test_the_dealer_given_no_natural_on_a_shoe_of_certain_naturals_is_refused(up, composition):
    rules = bj.StandardBlackjackRules()
    before = bj.dealer_final_distribution(rules, up, composition=composition)
    assert before["natural"] == 1  # every hole card makes a Natural
    # Given no Natural there is no hand at all: it was a Series of NaN, silently.
    with pytest.raises(GamecoreError, match=f"with {up} up the dealer has a Natural for certain"):
        bj.dealer_final_distribution(rules, up, composition=composition, after_peek=True)


# --- 2. numbers of every Python and numpy type ------------------------------------------


class _Nine(enum.IntEnum):
    NINE = 9


#: Values that are not finite real numbers of a type the boundary takes.
NOT_NUMBERS = [
    np.longdouble("nan"),
    np.longdouble("inf"),
    np.longdouble("-inf"),
    np.float16("nan"),
    Fraction(9, 2),
    decimal.Decimal("9"),
    decimal.Decimal("NaN"),
    9 + 0j,
    np.complex128(9),
    np.array(9.0),
    np.array([9.0]),
    np.timedelta64(9),
    True,
    np.True_,
    "9",
]


@pytest.mark.parametrize("value", NOT_NUMBERS, ids=repr)
@pytest.mark.parametrize(
    "check", [rules.number, rules.payout, rules.commission, rules.amount], ids=lambda c: c.__name__
)
def test_every_real_number_check_refuses_what_is_not_a_finite_real(check, value):
    with pytest.raises(GamecoreError, match="^threshold must be"):
        check("threshold", value)


#: Values that are not whole numbers; a timedelta was taken as one before (numpy files it
#: among its signed integers).
NOT_WHOLE = [np.timedelta64(8), np.float64(8), np.array(8), True, np.True_, Fraction(8), "8"]


@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("decks", validate_decks),
        ("jokers_per_deck", lambda v: c21_baccarat.C21BaccaratRules(jokers_per_deck=v)),
        ("composition", lambda v: validate_composition([8, 8, v, *[8] * 7])),
        ("seed", parallel.validate_seed),
        ("rounds", lambda v: parallel.validate_count(v, "rounds")),
        ("penetration", lambda v: Dealing(mode="shoe", penetration=v)),
        ("rounds", lambda v: hold.sum_distribution({1: 0.5, -1: 0.5}, v)),
        ("max_tag", lambda v: counting.balanced_tags({"a": 1.0, "b": -1.0}, DECK, v)),
    ],
)
def test_every_whole_number_check_refuses_what_is_not_an_integer(name, check, value):
    with pytest.raises(GamecoreError, match=name):
        check(value)


DECK = counting.Deck(("a", "b"), (1, 1))


def test_accepted_numbers_come_back_as_python_ints_and_floats():
    kinds = [  # pairs, not a dict: these values are all equal, and hash alike
        (np.longdouble(9), float),
        (np.float16(9), float),
        (np.float32(9), float),
        (np.uint8(9), int),
        (_Nine.NINE, int),
    ]
    for value, kind in kinds:
        for check in (rules.number, rules.payout, rules.amount):
            checked = check("x", value)
            assert type(checked) is kind and checked == 9
    ez = baccarat.EZBaccaratRules(dragon7_pays=np.longdouble(45))
    assert type(ez.dragon7_pays) is float
    # The exact analysis settles it as the decimal it is.
    assert baccarat.exact(ez).wager("dragon7").wager.lines[0].pays == 45
    assert type(c21_baccarat.C21BaccaratRules(decks=_Nine.NINE).decks) is int


#: What hold monitoring and a count's tags and effects refuse: the values above but a Fraction
#: (gamecore's exact results are Fractions, read back whole), and text that reads as a number,
#: which float() and Fraction() took before.
NOT_NUMBERS_OR_FRACTIONS = [v for v in NOT_NUMBERS if not isinstance(v, Fraction)] + [
    "1e3", "nan", "-1", "1/2",
]  # fmt: skip


@pytest.mark.parametrize("value", NOT_NUMBERS_OR_FRACTIONS, ids=repr)
@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("the probability of net result 1", lambda v: hold.house_behind({1: v, -1: 0.5}, 10)),
        ("the probability of net result 1",
         lambda v: hold.hold_table("bet", {1: v, -1: 0.5}, obtained=hold.INTEGER_COUNTS)),
        ("tags of rank a",
         lambda v: counting.betting_correlation({"a": v, "b": -1}, {"a": 0.1, "b": -0.1}, DECK)),
        ("effects of rank a", lambda v: counting.balanced_tags({"a": v, "b": -1.0}, DECK)),
        ("effects of rank a",
         lambda v: counting.regression_slope({"a": 1, "b": -1}, {"a": v, "b": 0.1}, DECK)),
    ],
)  # fmt: skip
def test_hold_and_counting_refuse_what_is_not_a_number_naming_it(name, check, value):
    with pytest.raises(GamecoreError, match=f"^{name} must be a"):
        check(value)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except (TypeError, ValueError):  # arrays; numpy's generic timedelta
        return False
    return True


@pytest.mark.parametrize("value", list(filter(_hashable, NOT_NUMBERS_OR_FRACTIONS)), ids=repr)
def test_hold_monitoring_refuses_a_net_result_that_is_not_a_number(value):
    distribution = {value: 0.5, -7: 0.5}
    for check in (
        lambda: hold.house_behind(distribution, 10),
        lambda: hold.hold_table("bet", distribution, obtained=hold.INTEGER_COUNTS),
        lambda: hold.house_behind_twin("bet", distribution, [10], 10),
    ):
        with pytest.raises(GamecoreError, match="^a net result must be a"):
            check()


def test_hold_and_counting_take_gamecore_s_fractions():
    # A fair coin for one unit: the house is behind after 2 rounds when both are heads.
    coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    assert hold.house_behind(coin, 2) == (0.25, 0.0)
    tags = {"a": 1, "b": -1}
    assert (
        counting.betting_correlation(tags, {"a": Fraction(1, 3), "b": Fraction(-1, 3)}, DECK) == 1
    )


def test_counter_triggers_and_ramps_take_numbers_only():
    tags = {"a": 1, "b": -1}
    assert counting.check_trigger(np.longdouble(1), tags) == 1.0
    assert counting.check_ramp(np.array([2, 4, 8])) == (2.0, 4.0, 8.0)
    for trigger in (np.longdouble("nan"), "1", True, np.array([1.0])):
        with pytest.raises(GamecoreError, match="trigger"):
            counting.check_trigger(trigger, tags)
    for ramp in ("248", [2, "4"], {2: 4}, [2, np.complex128(4)], np.array([[2, 4]])):
        with pytest.raises(GamecoreError, match="ramp"):
            counting.check_ramp(ramp)


# --- 3 and 6. what shoe messages call each entry -----------------------------------------


@pytest.mark.parametrize(
    ("args", "named"),
    [
        # Over the limit: the rank as --shoe gives it, never a position in an internal list.
        (
            ["exact", "punto_banco", "--shoe", f"{2**31},0,0,0,0,0,0,0,0,6"],
            "--shoe count of rank A",
        ),
        (["exact", "ez_baccarat", "--shoe", f"6,0,0,0,0,0,0,0,0,{2**31}"], "count of rank 10"),
        (["exact", "punto_banco", "--shoe", f"6,0,0,0,{2**31},0,0,0,0,0"], "count of rank 5"),
        (
            ["exact", "standard_blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,1000001"],
            "--shoe count of rank 10",
        ),
        # The jokers come from --jokers: that is the value named.
        (
            ["exact", "c21_baccarat", "--shoe", "0,0,0,0,0,0,0,0,0,6", "--jokers", f"{2**31}"],
            "--jokers must be at most 2,147,483,647",
        ),
        (
            ["exact", "c21_baccarat", "--shoe", "0,0,0,0,0,0,0,0,0,0", "--jokers", "5"],
            "at least 6 cards, jokers included, got 5",
        ),
        # Counting: the rank with no card to remove, named the same way.
        (["count", "punto_banco", "--shoe", "0,0,0,0,0,0,0,0,0,10"], "--shoe count of rank A"),
        (["count", "c21_baccarat", "--shoe", "1,1,1,1,1,1,1,1,1,1", "--jokers", "0"], "--jokers"),
        (
            ["count", "c21_baccarat", "--shoe", "0,0,0,0,0,0,0,0,0,7", "--jokers", "1"],
            "--shoe count of rank A",
        ),
        (["count", "c21_blackjack", "--shoe", "0,0,0,0,0,0,0,0,0,40"], "--shoe count of rank A"),
    ],
)
def test_shoe_messages_name_the_rank_or_flag_the_value_came_from(args, named):
    line = assert_refused(run_gamecore_here(*args), named)
    assert "[" not in line  # no --shoe[1] for the aces, --shoe[10] for the jokers


def test_the_api_names_a_composition_entry_by_rank_and_point_value():
    with pytest.raises(GamecoreError, match=r"count of rank 10 \(point value 0\) must be at most"):
        baccarat.exact(baccarat.PuntoBancoRules(), composition=[2**31] + [1] * 9)
    with pytest.raises(GamecoreError, match="composition count of jokers must be at most"):
        c21_baccarat.count_deals(c21_baccarat.C21BaccaratRules(), [1] * 10 + [2**31])
    with pytest.raises(GamecoreError, match="composition count of rank A must be a non-negative"):
        bj.exact(bj.StandardBlackjackRules(), composition=[-1] + [4] * 8 + [16])


def test_a_blackjack_count_names_the_removal_that_leaves_a_shoe_too_small():
    # This shoe clears the check; without one 5 a round could run out of cards. The message
    # said "--shoe [1, 1, 2, 2, 1, ...]", a shoe nobody gave.
    line = assert_refused(
        run_gamecore("count", "standard_blackjack", "--shoe", "1,1,2,2,2,1,2,2,2,6"), "rank 5"
    )
    assert line.startswith("gamecore: error: --shoe: the effect of removal of rank 5")


def test_jokers_per_deck_is_checked_wherever_a_shoe_is_built_from_it():
    with pytest.raises(
        GamecoreError, match="jokers_per_deck must be an integer from 0 to 4, got 9"
    ):
        c21_baccarat.c21_shoe(8, 9)
    with pytest.raises(
        GamecoreError, match="jokers_per_deck must be an integer from 0 to 4, got -1"
    ):
        c21_baccarat.c21_shoe(8, -1)
    assert c21_baccarat.c21_shoe(2, 4)[-1] == 8
    # A count's deck follows jokers_per_deck: a shoe with jokers under a rule set without
    # them would leave them untagged.
    with pytest.raises(GamecoreError, match="count of jokers is 4, but jokers_per_deck is 0"):
        c21_baccarat.removal.count_analysis(
            c21_baccarat.C21BaccaratRules(jokers_per_deck=0), [16] + [4] * 9 + [4]
        )


# --- 4. bankrolls -----------------------------------------------------------------------


def test_bankrolls_as_a_numpy_array_are_taken_and_run_the_table():
    bank = Bank(bankrolls=np.array([50, 100.5]), stake=np.float32(20), shift_rounds=np.int64(40))
    assert bank.bankrolls == (50.0, 100.5) and type(bank.stake) is float
    assert type(bank.shift_rounds) is int
    rules = c21_baccarat.C21BaccaratRules(decks=2)
    as_array = c21_baccarat.table.simulate_table(
        rules, 3, Run(4000, 5, progress=False), dealing=Dealing("fresh"), bank=bank
    )
    as_tuple = c21_baccarat.table.simulate_table(
        rules, 3, Run(4000, 5, progress=False), dealing=Dealing("fresh"),
        bank=Bank(bankrolls=(50, 100.5), stake=20, shift_rounds=40),
    )  # fmt: skip
    ruin = as_array.figures.ruin_table()
    assert list(ruin["Bankroll (units)"]) == [50.0, 100.5]
    assert ruin.equals(as_tuple.figures.ruin_table())


@pytest.mark.parametrize(
    ("bankrolls", "named"),
    [
        (np.array([[100.0, 200.0]]), "bankrolls must be a list of numbers"),
        (np.array(100.0), "bankrolls must be a list of numbers"),
        (np.array([]), "at least one"),
        (np.array([100.0, np.nan]), r"bankrolls\[1\] must be a finite number"),
        (np.array(["100"]), r"bankrolls\[0\] must be a number"),
        ([np.complex128(100)], r"bankrolls\[0\] must be a number"),
        ([np.timedelta64(100)], r"bankrolls\[0\] must be a number"),
        ({100, 200}, "bankrolls must be a list of numbers"),
        ({100: 1}, "bankrolls must be a list of numbers"),
        ([1e20], r"bankrolls\[0\] must be from 1 unit .* to 1,000,000,000,000, got 1e\+20"),
    ],
)
def test_bad_bankrolls_are_refused_in_one_line_naming_the_value(bankrolls, named):
    with pytest.raises(GamecoreError, match=named) as refused:
        Bank(bankrolls=bankrolls)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
@pytest.mark.parametrize("name", ["shift_rounds", "turn_rounds"])
def test_a_shift_and_a_turn_are_whole_numbers_of_rounds(name, value):
    with pytest.raises(GamecoreError, match=name):
        Bank(**{name: value})


def test_the_stake_is_a_finite_amount_or_unlimited():
    assert Bank(stake=np.longdouble("inf")).stake == float("inf")
    for stake, named in (
        (np.complex128(20), "a number"),
        (-np.inf, "a finite number"),
        (0.5, "from 1"),
    ):
        with pytest.raises(GamecoreError, match=f"stake must be {named}"):
            Bank(stake=stake)


def test_a_table_of_one_round_has_no_correlation_and_no_warning():
    rules = c21_baccarat.C21BaccaratRules()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # it warned "invalid value encountered in divide"
        table = c21_baccarat.table.simulate_table(
            rules, 3, Run(1, 1, progress=False), dealing=Dealing("fresh")
        )
        covariances = table.figures.covariance_table()
    # One round: no seat's result varies, so no correlation exists (null in the JSON).
    assert covariances["Correlation"].isna().all() and len(covariances) == 3
    strictjson.loads(strictjson.dumps(banking.to_dict(table.figures)))


# --- 5. the option game's linear programs ------------------------------------------------


ALMOST_ALL_JOKERS = [4000] + [1000] * 9 + [1_000_000]  # the shoe: 13,000 cards


def test_a_shoe_almost_all_jokers_has_an_equilibrium_neither_side_can_improve():
    analysis = c21_baccarat.count_deals(c21_baccarat.C21BaccaratRules(), ALMOST_ALL_JOKERS)
    player, dealer, value = analysis.equilibrium()
    # The value lies between the pure strategies' bounds of every up card's game, summed
    # with the deals concluded before any choice.
    concluded = float((analysis.concluded * c21_baccarat.PAYOFF.astype(object)).sum())
    low = high = concluded / analysis.total
    for up in range(10):
        matrix, _, _ = analysis.payoff_matrix(up)
        low += matrix.min(axis=1).max()
        high += matrix.max(axis=0).min()
    assert low - 1e-15 <= value <= high + 1e-15
    # Neither side gains by deviating, to the tolerance on each up card's scale.
    check = analysis.equilibrium_check().set_index("Check")["Player EV"]
    slack = 10 * LP_AGREEMENT * max(np.abs(analysis.payoff_matrix(u)[0]).max() for u in range(10))
    assert check["equilibrium strategies played"] == pytest.approx(value, abs=slack)
    assert check["player's best response to the P/D's equilibrium"] <= value + slack
    assert check["P/D's best response to the player's equilibrium"] >= value - slack


def test_the_shoe_almost_all_jokers_on_the_command_line_gives_strict_json():
    data = strict_json(
        run_gamecore(
            "exact",
            "c21_baccarat",
            "--json",
            "--jokers",
            "1000000",
            "--shoe",
            "1000,1000,1000,1000,1000,1000,1000,1000,1000,4000",
        )  # fmt: skip
    )
    strategies = data["strategies"]
    assert strategies["pd_best_response"]["player_ev"] <= strategies["equilibrium"]["player_ev"]
    assert strategies["equilibrium"]["player_ev"] <= strategies["player_best_response"]["player_ev"]


def test_two_linear_programs_further_apart_than_the_tolerance_are_refused():
    scale = 4.6e-05
    allowed = LP_AGREEMENT * scale
    check_values_agree(3, 4.5788e-05, 4.5788e-05 + 0.9 * allowed, scale)
    for apart in (1.1 * allowed, 5e-11, float("nan")):
        with pytest.raises(GamecoreError, match="up card 3: its two linear programs") as refused:
            check_values_agree(3, 4.5788e-05, 4.5788e-05 + apart, scale)
        assert "\n" not in str(refused.value)
    # The same difference is within the tolerance of a larger game.
    check_values_agree(3, 0.0457, 0.0457 + 5e-11, scale=0.05)


def test_an_up_card_the_shoe_lacks_keeps_house_way_and_adds_nothing():
    rules = c21_baccarat.C21BaccaratRules()
    composition = [16, 4, 4, 4, 4, 4, 0, 4, 4, 4, 1]  # no 6
    analysis = c21_baccarat.count_deals(rules, composition)
    assert not analysis.payoff_matrix(6)[0].any()
    player, dealer, _ = analysis.equilibrium()
    house_p, house_d = c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    assert np.array_equal(player.draw[6], house_p.draw[6].astype(float))
    assert np.array_equal(dealer.draw[6], house_d.draw[6].astype(float))
    strictjson.loads(strictjson.dumps(analysis.to_dict()))


# --- 7. the result distribution (gamecore/blackjack/results.py) on degenerate shoes --------
# Found by this round's probe in a module changed by another piece of work. What is still
# open there is held as a strict expected failure, which turns into a failing XPASS the day
# it is fixed, so its mark must go then.


def test_the_sd_of_a_shoe_whose_every_round_ends_alike_is_zero():
    # Eights only: every round splits to four hands of 16 that stand, and the dealer's 16
    # draws an 8 and busts: +4, every round.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        analysis = bj.exact(
            bj.StandardBlackjackRules(), composition=[0] * 7 + [40, 0, 0], standard_deviation=True
        )
    assert analysis.player_ev == pytest.approx(4)
    assert analysis.player_sd == pytest.approx(0, abs=1e-6)


def test_a_shoe_of_thousands_of_each_rank_gives_its_sd_without_a_warning():
    # The falling factorials of 13,000 cards pass 1e308 past 75 cards drawn: numpy warned of
    # an overflow on standard error (fixed in results.py by the work beside this one).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        analysis = bj.exact(
            bj.StandardBlackjackRules(), composition=[1000] * 9 + [4000], standard_deviation=True
        )
    assert np.isfinite(analysis.player_sd) and analysis.player_sd > 0
