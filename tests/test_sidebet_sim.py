"""The side-bet simulator and the counter against values derived without them: the exact
par sheets (each outcome's probability and the expected return within 4 standard errors),
the same bits whatever the threads, and the counter's run checked against what a counter
betting every round must show (the flat bettor's expectation, exactly the flat bettor's
results, and a blackjack shoe's rounds counted by hand)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from sidebet_builtins import builtin

from gamecore import baccarat, cards
from gamecore.baccarat import counting as baccarat_counting
from gamecore.baccarat.removal import JACOBSON_DRAGON_TAGS, RANK_CLASS
from gamecore.counting import CounterRun
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError
from gamecore.sidebets import sim
from gamecore.sidebets.counting import countability, countability_table, decided_countability
from gamecore.sidebets.definition import Condition, Outcome, SideBet
from gamecore.sidebets.parsheet import par_sheet
from gamecore.sidebets.sim import CHUNK_SHOES

ROUNDS = 300_000
#: Eliot Jacobson's Dragon 7 count (gamecore.baccarat.removal), by point class.
JACOBSON_POINTS = {str(RANK_CLASS[r]): tag for r, tag in JACOBSON_DRAGON_TAGS.items()}


@pytest.mark.parametrize(
    ("name", "decks"),
    [
        ("dragon_bonus_banker", 8),
        ("lucky_6", 6),
        ("big", 1),
        ("perfect_pairs", 2),
        ("lucky_ladies", 1),
        ("twenty_one_plus_three", 6),
    ],
)
def test_simulated_twins_agree_with_the_exact_par_sheets(name, decks):
    bet = builtin(name)
    table = sim.twin_table(par_sheet(bet, decks), sim.simulate(bet, decks, ROUNDS, seed=29))
    assert list(table["Figure"])[-2:] == ["P(Loses)", "EV"]
    assert len(table) == len(bet.outcomes) + 2
    # Stricter than the family-wise threshold the reports use (gamecore.twins.z_threshold).
    assert table["z"].abs().max() < 4, table


def test_the_deck_sweeps_twin_is_each_deck_counts_own_simulation():
    bet = builtin("perfect_pairs")
    table = sim.deck_sweep_twin_table(bet, [1, 3], 100_000, seed=40)
    per_deck = len(bet.outcomes) + 2
    assert list(table["Decks"]) == [1] * per_deck + [3] * per_deck
    assert list(table["Figure"])[per_deck - 1 :: per_deck] == ["EV, 1 deck", "EV, 3 decks"]
    # Each deck count is its own run: seed + 0 at one deck, seed + 1 at three.
    at_three = sim.twin_table(par_sheet(bet, 3), sim.simulate(bet, 3, 100_000, seed=41))
    assert list(table["Simulated"][per_deck:]) == list(at_three["Simulated"])
    assert list(table["Exact"][per_deck:]) == list(at_three["Exact"])
    assert table["z"].abs().max() < 4, table


def test_third_cards_are_placed_where_the_tableau_dealt_them():
    # Conditions on the third cards at full detail: the Player's third card by rank, the
    # Banker's by suit when the Player drew and by rank when the Player stood (then it is
    # the round's fifth card, not its sixth).
    def row(name, *conditions):
        return Outcome(name, Fraction(1), "1 to 1", conditions)

    bet = SideBet(
        "thirds", "Thirds", "baccarat", 8, "", "",
        (
            row("P3 five", Condition("rank", cards=("player_3",), values=("5",))),
            row("B3 heart", Condition("suit", cards=("banker_3",), values=("hearts",)),
                Condition("hand_cards", hands=("player",), values=(3,))),
            row("B3 king, P stood", Condition("rank", cards=("banker_3",), values=("K",))),
            row("Both drew, same card", Condition("same_card", cards=("player_3", "banker_3"))),
        ),
        "test", "",
    )  # fmt: skip
    table = sim.twin_table(par_sheet(bet, 1), sim.simulate(bet, 1, ROUNDS, seed=3))
    assert table["z"].abs().max() < 4, table


def test_counts_are_whole_rounds_and_the_same_bits_on_one_or_two_threads():
    bet = builtin("dragon_7")
    rounds = 2 * sim.CHUNK_ROUNDS + 1_001  # three chunks
    one = sim.simulate(bet, 8, rounds, seed=5, threads=1)
    two = sim.simulate(bet, 8, rounds, seed=5, threads=2)
    assert one.counts.dtype == np.int64 and int(one.counts.sum()) == rounds
    assert np.array_equal(one.counts, two.counts)
    assert not np.array_equal(one.counts, sim.simulate(bet, 8, rounds, seed=6).counts)


def test_a_counter_betting_every_round_is_the_flat_bettor():
    bet = builtin("dragon_7")
    sheet = par_sheet(bet, 8)
    tags = {str(v): (1 if v in (8, 9) else -1 if 4 <= v <= 7 else 0) for v in range(10)}
    run = countability(bet, 8, tags, -math.inf, 14, shoes=3_000, seed=11)
    gain, se = run.gain()
    assert run.bets_per_shoe == run.rounds_per_shoe
    assert (gain, se) == run.flat()  # every round bet: the same sums, bit for bit
    # Each round's EV given the cards seen is a martingale in the cards dealt, so a flat
    # bettor's expectation per shoe is the rounds dealt times the full shoe's EV (up to the
    # cut card's tiny effect on which rounds are dealt).
    expected = run.rounds_per_shoe * float(sheet.expected_return)
    assert abs(gain - expected) < 4 * se
    first, first_se = run.first_round()  # each shoe's first round is off the full shoe
    assert abs(first - float(sheet.expected_return)) < 4 * first_se
    assert int(run.counts.sum()) == round(run.rounds_per_shoe * run.shoes)
    assert run.verdict().startswith("not countable: a counter gains")


def test_a_blackjack_shoe_deals_its_rounds_to_the_cut_card():
    # Four cards a round: a 312-card shoe with 80 behind the cut card starts a round at
    # positions 0, 4, ..., 228 (the last before the cut at 232): 58 rounds a shoe.
    bet = builtin("lucky_ladies")
    tags = dict.fromkeys(cards.RANKS, 0)
    run = countability(bet, 6, tags, 1.0, 80, shoes=50, seed=1)
    assert run.rounds_per_shoe == 58 and run.level == "ranks"
    assert run.bets_per_shoe == 0  # a count of zeros never reaches +1
    assert run.verdict().startswith("not countable")


def test_jacobsons_dragon_7_count_is_countable_at_a_deep_cut():
    # Eliot Jacobson's published Dragon 7 count (888casino blog) and his trigger of +4, with
    # 14 cards behind the cut card: the count Dragon 7 was shown countable with. Its gain is
    # about half a unit per shoe; 60,000 shoes put it some 7 SE above zero.
    bet = builtin("dragon_7")
    run = countability(bet, 8, JACOBSON_POINTS, 4, 14, shoes=60_000, seed=7)
    assert run.verdict().startswith("countable: a counter gains +")
    gain, se = run.gain()
    assert 0 < run.bets_per_shoe < run.rounds_per_shoe and se > 0
    # The same counter played by EZ Baccarat's own counting study (point-class shoes, its
    # own kernels and random streams) gains the same within their joint 4 SE.
    ez = baccarat_counting.SideBetCount(
        baccarat.EZBaccaratRules(decks=8), JACOBSON_DRAGON_TAGS, "dragon7", None
    )
    shoe = Dealing(mode="shoe", penetration=14, burn="none")
    theirs = baccarat_counting.counter_simulation(
        ez, CounterRun(60_000, 8, trigger=4.0, dealing=shoe)
    ).by_trigger()
    their_gain = theirs["Side bet units won per shoe"][0]
    their_se = theirs["SE (per shoe)"][0]
    assert abs(gain - their_gain) < 4 * math.hypot(se, their_se)
    assert theirs["Bets per shoe"][0] == pytest.approx(run.bets_per_shoe, rel=0.03)


def test_one_question_gets_one_verdict_through_both_studies():
    # The Dragon 7 question (8 decks, 14 cards behind the cut card, Jacobson's count
    # at +4, the bet alone): the side bets report's counter and the Dragon 7 counting
    # report's, each grown from 10,000 shoes until the one rule decides within its budget,
    # give the same verdict (the words, not only the gain within their SEs).
    bet = builtin("dragon_7")
    side = decided_countability(bet, 8, JACOBSON_POINTS, 4, 14, 10_000, 5, 200_000)
    ez = baccarat_counting.SideBetCount(
        baccarat.EZBaccaratRules(decks=8), JACOBSON_DRAGON_TAGS, "dragon7", None
    )
    shoe = Dealing(mode="shoe", penetration=14, burn="none")
    run = CounterRun(10_000, 5, trigger=4.0, dealing=shoe, max_shoes=200_000)
    counted = baccarat_counting.counter_simulation(ez, run)
    theirs = baccarat_counting.judge(counted)
    assert side.decision().words == theirs.words == "countable"
    assert side.shoes <= 200_000 and counted.shoes <= 200_000
    # Each printed the same: the side bets par sheet's row and the procedure table's.
    [row] = countability_table([side]).to_dict("records")
    assert row["Verdict (4 SE)"] == "countable" and row["Gain per shoe"] == side.gain()[0]
    assert row["Power (at the gain seen)"] > 0.5


def test_a_counter_that_never_bets_is_not_countable_exactly():
    run = countability(builtin("lucky_ladies"), 6, dict.fromkeys(cards.RANKS, 0), 1.0, 80, 50, 1)
    assert run.decision().words == "not countable" and run.decision().se == 0


def test_a_counters_run_is_the_same_bits_on_one_or_two_threads():
    bet = builtin("dragon_7")
    shoes = 2 * CHUNK_SHOES + 7  # three chunks
    one = countability(bet, 8, JACOBSON_POINTS, 2, 14, shoes=shoes, seed=3, threads=1)
    two = countability(bet, 8, JACOBSON_POINTS, 2, 14, shoes=shoes, seed=3, threads=2)
    assert np.array_equal(one.stats, two.stats) and np.array_equal(one.counts, two.counts)


@pytest.mark.parametrize(
    ("tags", "trigger", "penetration", "words"),
    [
        ({"A": 1}, 1, 14, "tags must give a tag to every point class"),
        ({str(v): 0.5 for v in range(10)}, 1, 14, "must be an integer"),
        ({str(v): 0 for v in range(10)}, math.nan, 14, "trigger must be a finite true count"),
        ({str(v): 0 for v in range(10)}, math.inf, 14, "trigger must be a finite true count"),
        ({str(v): 0 for v in range(10)}, 1, 2, "penetration must be from 6"),
    ],
)
def test_a_counter_is_refused_in_one_line(tags, trigger, penetration, words):
    with pytest.raises(GamecoreError, match=words):
        countability(builtin("dragon_7"), 8, tags, trigger, penetration, 10, 1)
