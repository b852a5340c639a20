"""Card counting (gamecore.counting and each game's counting module): every effect of removal
against the slow references on small shoes, the derived counts' properties, and the index
plays against the exact engine on a shoe at the index."""

import dataclasses
import json
import math
import subprocess
import sys
from fractions import Fraction

import naive_baccarat
import naive_blackjack as nb
import naive_c21
import numpy as np
import pytest
from helpers import naive_rules, run_gamecore_here, simple_chart

from gamecore import baccarat, counting
from gamecore import blackjack as bj
from gamecore import c21_baccarat as c21
from gamecore.baccarat.removal import effects_of_removal_by_bet
from gamecore.blackjack import counter as bjcounter
from gamecore.blackjack import counting as bjc
from gamecore.c21_baccarat import counting as c21c
from gamecore.c21_baccarat import removal as c21r
from gamecore.counting import CounterRun
from gamecore.errors import GamecoreError

# A 13-card shoe every depleted copy of which still completes every round (one more ten than
# helpers.TINY): A, 2, 3, 4, 8, 9 once and seven tens.
SMALL_SHOE = (1, 1, 1, 1, 0, 0, 0, 1, 1, 7)


# --- blackjack ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        bj.StandardBlackjackRules(max_split_hands=1, dealer_hits_soft_17=True),
        bj.C21BlackjackRules(max_split_hands=2),
    ],
    ids=["standard_h17", "c21"],
)
def test_blackjack_effects_of_removal_equal_the_slow_reference(rules):
    """Each rank's effect of removal, optimal play (re-optimised on each shoe) and a fixed
    chart, against the reference playing every card sequence in the real order."""
    chart = simple_chart(split_everything=False)
    reference = naive_rules(rules)
    full = bjc.shoe_figures(rules, np.array(SMALL_SHOE), chart)
    full_optimal = nb.optimal_ev(SMALL_SHOE, reference)
    full_chart = nb.chart_ev(SMALL_SHOE, reference, chart.cells)
    assert full.optimal_ev == pytest.approx(full_optimal, abs=1e-13)
    for rank in range(10):
        if SMALL_SHOE[rank] == 0:
            continue
        depleted = list(SMALL_SHOE)
        depleted[rank] -= 1
        after = bjc.shoe_figures(rules, np.array(depleted), chart)
        optimal = nb.optimal_ev(tuple(depleted), reference) - full_optimal
        by_chart = nb.chart_ev(tuple(depleted), reference, chart.cells) - full_chart
        assert after.optimal_ev - full.optimal_ev == pytest.approx(optimal, abs=1e-13), rank
        assert after.chart_ev - full.chart_ev == pytest.approx(by_chart, abs=1e-13), rank


def test_a_decisions_gain_is_the_reference_hands_averaged():
    """12 v 2 on the small shoe: stand minus hit over the hard 12s that are not pairs
    (3-9, 4-8; the shoe's one 2 is the up card), weighted by their chances, from the
    reference's action values."""
    rules = bj.StandardBlackjackRules(max_split_hands=1)
    figures = bjc.shoe_figures(rules, np.array(SMALL_SHOE), simple_chart(False))
    up = 2
    left = list(SMALL_SHOE)
    left[up - 1] -= 1
    total_weight = total_gain = 0.0
    for a, b in ((2, 10), (3, 9), (4, 8)):
        weight = 2 * left[a - 1] * left[b - 1]
        if weight == 0:  # the 2 is the up card: no 2-10 here
            continue
        rest = list(left)
        rest[a - 1] -= 1
        rest[b - 1] -= 1
        values = nb.action_values([a, b], tuple(rest), up, naive_rules(rules))
        total_weight += weight
        total_gain += weight * (values["S"] - values["H"])
    assert figures.gains["12 v 2"] == pytest.approx(total_gain / total_weight, abs=1e-13)


@pytest.fixture(scope="module")
def two_deck_count():
    return bjc.count_analysis(bj.StandardBlackjackRules(decks=2, dealer_hits_soft_17=True))


def test_blackjack_count_is_balanced_and_follows_the_effects(two_deck_count):
    found = two_deck_count
    assert bjc.COUNT_DECK.imbalance(found.tags) == 0
    assert max(abs(t) for t in found.tags.values()) <= found.max_tag
    assert all(t * found.effects_of_removal[r] > 0 for r, t in found.tags.items() if t)
    # Good counts' betting correlations approach 1.00 (blackjackinfo.com, "Card counting
    # efficiency", after Griffin's "The Theory of Blackjack"); Hi-Lo's, on these exact
    # effects, is high too, and the derived three-level count follows them more closely.
    assert found.betting_correlation > 0.97
    hi_lo = {"A": -1, "10": -1, "7": 0, "8": 0, "9": 0, **{str(r): 1 for r in range(2, 7)}}
    hi_lo_bc = counting.betting_correlation(hi_lo, found.effects_of_removal, bjc.COUNT_DECK)
    assert 0.95 < hi_lo_bc < found.betting_correlation
    # The well-known shape: 5 helps the player most when it leaves, tens and aces hurt.
    effects = found.effects_of_removal
    assert max(effects, key=effects.get) == "5"
    assert effects["10"] < 0 and effects["A"] < 0


def test_insurance_effects_are_the_closed_form(two_deck_count):
    """Insurance pays 2 to 1 on a ten in the hole: its EV is 3 P(ten) - 1, P(ten) the tens
    among the cards left beside the Ace, so a card's effect is exact arithmetic."""
    shoe = two_deck_count.shoe
    tens, cards = int(shoe[9]), int(shoe.sum()) - 1  # the Ace up card is out

    def ev(t, n):
        return 3 * Fraction(t, n) - 1

    insurance = two_deck_count.insurance
    for r, rank in enumerate(bj.RANKS):
        expected = ev(tens - (r == 9), cards - 1) - ev(tens, cards)
        if r == 0:  # a second Ace removed: one card fewer beside the up card
            expected = ev(tens, cards - 1) - ev(tens, cards)
        assert insurance.effects_of_removal[rank] == pytest.approx(float(expected), abs=1e-15)


def test_an_index_play_flips_the_decision_where_it_says(two_deck_count):
    """Take cards out of the shoe until the true count is the index of 16 v 10, and solve
    that shoe exactly: the gain of standing, well below zero on the full shoe, is close to
    zero there (the index is a linear estimate)."""
    found = two_deck_count
    play = next(p for p in found.index_plays if p.decision == "16 v 10")
    tags = np.array([found.tags[r] for r in bj.RANKS])
    toward = [r for r in range(10) if tags[r] * np.sign(play.index) > 0]
    left, shoes = found.shoe.copy(), []
    for step in range(200):  # one card at a time, the ranks tagged toward the index in turn
        left[toward[step % len(toward)]] -= 1
        shoes.append((int(tags @ (found.shoe - left)) / (left.sum() / 52), left.copy()))
        if abs(shoes[-1][0]) >= abs(play.index):
            break
    true_count, left = min(shoes, key=lambda s: abs(s[0] - play.index))
    assert abs(true_count - play.index) < 0.8
    gain_there = bjc.shoe_figures(found.rules, left, found.chart).gains["16 v 10"]
    assert abs(gain_there) < abs(play.gain_full_shoe) / 2


# --- baccarat ----------------------------------------------------------------------------


def _naive_evs(composition):
    counts = naive_baccarat.outcome_counts(naive_baccarat.class_breakdown(composition))
    total = counts["total"]
    return {
        "banker": Fraction(19 * counts["banker"] - 20 * counts["player"], 20 * total),
        "player": Fraction(counts["player"] - counts["banker"], total),
        "tie": Fraction(8 * counts["tie"] - counts["banker"] - counts["player"], total),
    }


def test_punto_banco_effects_of_removal_equal_the_slow_reference():
    one_deck = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    found = effects_of_removal_by_bet(baccarat.PuntoBancoRules(decks=1), one_deck)
    before = _naive_evs(one_deck)
    assert found.full_shoe_ev == before
    for value in range(10):
        depleted = list(one_deck)
        depleted[value] -= 1
        after = _naive_evs(depleted)
        for bet in ("banker", "player", "tie"):
            assert found.effects_of_removal[bet][str(value)] == after[bet] - before[bet]


# --- 21st Century Baccarat ---------------------------------------------------------------


def test_c21_baccarat_house_way_effects_equal_the_slow_reference():
    composition = [4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]  # every class, jokers included
    found = c21r.count_analysis(c21.C21BaccaratRules(), composition)

    def naive_ev(shoe):
        result = naive_c21.ev_by_class(shoe, naive_c21.house_way_player, naive_c21.house_way_dealer)
        return naive_c21.ev(result)

    before = naive_ev(composition)
    assert found.full_shoe_ev == before
    for cls, rank in enumerate(c21r.RANK_NAMES):
        depleted = list(composition)
        depleted[cls] -= 1
        assert found.effects_of_removal[rank] == naive_ev(depleted) - before, rank


def test_c21_baccarat_count_tags_the_joker():
    found = c21r.count_analysis(c21.C21BaccaratRules(decks=2))
    deck = c21r.count_deck(found.rules)
    assert deck.imbalance(found.tags) == 0
    effects = {r: float(e) for r, e in found.effects_of_removal.items()}
    assert max(effects, key=effects.get) == "joker"  # the joker helps the player most
    assert found.tags["joker"] == found.max_tag == 4
    assert found.betting_correlation > 0.8


def test_c21_baccarat_without_jokers_has_no_joker_rank():
    rules = c21.C21BaccaratRules(decks=1, jokers_per_deck=0)
    assert "joker" not in c21r.count_deck(rules).ranks


# --- shared ------------------------------------------------------------------------------


def test_correlation_and_slope_of_proportional_tags():
    deck = counting.Deck(("a", "b", "c"), (1, 2, 1))
    effects = {"a": 0.4, "b": -0.1, "c": -0.2}
    tags = {"a": 4, "b": -1, "c": -2}  # ten times the effects: balanced, perfectly aligned
    assert deck.imbalance(tags) == 0
    assert counting.betting_correlation(tags, effects, deck) == pytest.approx(1.0)
    assert counting.regression_slope(tags, effects, deck) == pytest.approx(0.1)
    assert counting.balanced_tags(effects, deck, max_tag=4) == tags


@pytest.mark.parametrize(
    "tags, message",
    [
        ({"a": 1, "b": 0}, "every rank"),
        ({"a": 1, "b": 0, "c": 1.5}, "integer"),
        ({"a": 1, "b": 0, "c": True}, "tags of rank c must be a number"),
        ({"a": 1, "b": 0, "c": "1"}, "tags of rank c must be a number"),
    ],
)
def test_bad_tags_are_refused(tags, message):
    deck = counting.Deck(("a", "b", "c"), (1, 1, 1))
    with pytest.raises(GamecoreError, match=message):
        deck.tags(tags)


# --- the command line --------------------------------------------------------------------


def _count(*args):
    return subprocess.run(
        [sys.executable, "-m", "gamecore", "count", *args], capture_output=True, text=True
    )


def test_count_json_for_each_game():
    blackjack = json.loads(_count("c21_blackjack", "--decks", "2", "--json").stdout)
    assert set(blackjack["effects_of_removal"]) == set(bj.RANKS)
    assert set(blackjack["effects_of_removal_optimal"]) == set(bj.RANKS)
    assert blackjack["count"]["balanced"] is True
    assert {p["decision"] for p in blackjack["index_plays"]} >= {"16 v 10", "11 v A"}
    c21_json = json.loads(_count("c21_baccarat", "--decks", "1", "--json").stdout)
    assert set(c21_json["effects_of_removal"]) == set(c21r.RANK_NAMES)
    assert set(c21_json["effects_of_removal_equilibrium"]) == set(c21r.RANK_NAMES)
    assert Fraction(c21_json["effects_of_removal_exact"]["joker"]) > 0
    punto = json.loads(_count("punto_banco", "--decks", "1", "--json").stdout)
    assert set(punto["effects_of_removal"]) == {"banker", "player", "tie"}


@pytest.mark.parametrize(
    "args, named",
    [
        (["punto_banco", "--max-tag", "3"], "--max-tag"),
        (["c21_blackjack", "--decks", "2", "--max-tag", "0"], "--max-tag must be"),
        (["c21_blackjack", "--decks", "2", "--max-tag", "x"], "--max-tag"),
        (["c21_baccarat", "--strategy", "chart.csv"], "--strategy"),
        (["c21_baccarat", "--jokers", "1"], "--jokers"),
        (["standard_blackjack", "--shoe", "4,4,4,4,4,4,4,4,4"], "--shoe"),
        (["standard_blackjack", "--shoe", "0,4,4,4,4,4,4,4,4,16"], "count of rank A is 0"),
    ],
)
def test_count_bad_input_one_line(args, named):
    result = run_gamecore_here("count", *args)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr and result.stdout == ""


# --- the 21st Century Baccarat counter ---------------------------------------------------

C21_ONE_DECK = c21.C21BaccaratRules(decks=1)
ZERO_TAGS = {rank: 0 for rank in c21r.RANK_NAMES}


def test_c21_counter_with_no_count_bets_the_ramp_step_of_true_count_zero():
    """Tags all zero keep the true count at 0: a trigger of -1.5 puts 0 in the second step
    above it, so every round bets ramp[1] and wins exactly that many times the flat bet."""
    result = c21c.counter_simulation(
        c21c.TagCount(C21_ONE_DECK, ZERO_TAGS), CounterRun(400, 7, -1.5, (2, 3, 5), players=2)
    )
    summary = result.summary()
    assert summary["Average bet (units)"] == 3
    assert summary["Units won per 100 rounds"] == pytest.approx(
        300 * summary["Flat bettor's EV per round"], abs=1e-12
    )


def test_c21_counter_rotation_banks_its_turns():
    """Rotation among 2 players and the P/D, two rounds each: a counter with no count who
    always accepts banks one round in three and is the flat rotator; with a count and a
    threshold it banks fewer; the options are checked."""
    rules = c21.C21BaccaratRules(decks=2)
    always = c21c.counter_simulation(
        c21c.TagCount(rules, ZERO_TAGS), CounterRun(3_000, 7, 5, (2,), players=2, turn_rounds=2)
    )
    summary = always.summary()
    assert summary["Rounds banked per 100 rounds"] == pytest.approx(100 / 3, abs=0.1)
    assert summary["Units won per 100 rounds"] == pytest.approx(
        100 * summary["Flat bettor's EV per round"], abs=1e-12
    )
    count = c21r.count_analysis(rules)
    some = c21c.counter_simulation(
        count, CounterRun(3_000, 7, 1, (2,), players=2, turn_rounds=2, bank_at=0.0)
    )
    assert 0 < some.summary()["Rounds banked per 100 rounds"] < 100 / 3
    with pytest.raises(GamecoreError, match="bank_at needs a rotation"):
        CounterRun(10, 7, 1, (2,), players=2, bank_at=0.0)
    with pytest.raises(GamecoreError, match="turn_rounds must be 0"):
        CounterRun(10, 7, 1, (2,), players=2, turn_rounds=-1)


def test_c21_counter_depends_on_the_seed_only():
    count = c21r.count_analysis(C21_ONE_DECK)
    run = CounterRun(12_000, 3, 1, (2, 4), players=3)
    one = c21c.counter_simulation(count, run.replace(threads=1))
    two = c21c.counter_simulation(count, run.replace(threads=2))
    assert np.array_equal(one.stats, two.stats)
    other = c21c.counter_simulation(count, run.replace(seed=4))
    assert not np.array_equal(one.stats, other.stats)


def test_c21_counter_first_round_of_a_shoe_is_the_exact_off_the_top_ev():
    rules = c21.C21BaccaratRules(decks=2)
    result = c21c.counter_simulation(
        c21c.TagCount(rules, ZERO_TAGS), CounterRun(60_000, 11, 0, (1,))
    )
    exact = c21.count_deals(rules).evaluate(
        c21.house_way_player(rules), c21.house_way_dealer(rules)
    )
    summary = result.summary()
    z = (summary["First round of a shoe, EV"] - float(exact.player_ev)) / summary[
        "SE (first round)"
    ]
    assert abs(z) < 4


@pytest.mark.parametrize(
    "change, named",
    [
        ({"ramp": (4, 2)}, "decrease"),
        ({"ramp": ()}, "ramp"),
        ({"ramp": (0.5,)}, "ramp"),
        ({"trigger": 1e6}, "trigger"),
        ({"trigger": "x"}, "trigger"),
        ({"seat": 3}, "seat"),
        ({"tags": {"0": 1}}, "tags"),
        ({"dealing": c21c.Dealing(mode="fresh")}, "shoe"),
        ({"dealing": c21c.Dealing(mode="shoe", penetration=200, burn="none")}, "penetration"),
    ],
)
def test_c21_counter_bad_input_is_refused(change, named):
    arguments = {"tags": ZERO_TAGS, "trigger": 1, "ramp": (2, 4), "players": 2, "seat": 1}
    arguments.update(change)
    with pytest.raises(GamecoreError, match=named):
        count = c21c.TagCount(C21_ONE_DECK, arguments.pop("tags"))
        c21c.counter_simulation(count, CounterRun(shoes=10, seed=1, **arguments))


def test_c21_perfect_information_bettor_knows_the_full_shoe_ev_at_every_first_round():
    rules = c21.C21BaccaratRules(decks=1)
    tags = c21r.count_analysis(rules).tags
    run = CounterRun(6, 5, ramp=(2, 8), players=2)
    result = c21c.perfect_information_simulation(c21c.TagCount(rules, tags), run)
    full = c21.count_deals(rules).evaluate(c21.house_way_player(rules), c21.house_way_dealer(rules))
    frame = result.rounds
    first_rounds = frame.groupby("Shoe").head(1)
    assert first_rounds["Exact EV"].tolist() == pytest.approx([float(full.player_ev)] * 6)
    assert first_rounds["True count"].tolist() == [0.0] * 6
    again = c21c.perfect_information_simulation(c21c.TagCount(rules, tags), run)
    assert frame.equals(again.rounds)
    summary = result.summary()
    assert summary["Rounds"] == len(frame)
    # The count follows the exact EV of the shoes it meets; the correlation's SE comes from
    # resampling whole shoes, reproducibly.
    assert summary["Correlation of the true count with the exact EV"] > 0.5
    assert 0 < summary["SE (correlation)"] < 0.5
    assert summary["SE (correlation)"] == again.summary()["SE (correlation)"]


def test_count_simulates_the_blackjack_counter():
    found = json.loads(
        _count("c21_blackjack", "--decks", "2", "--shoes", "2000", "--seed", "3", "--json").stdout
    )
    assert found["dealing"]["mode"] == "shoe" and found["counter"]["index_plays"] is True
    assert found["counter"]["Shoes"] == 2000 and 1 <= found["counter"]["Average bet (units)"] <= 8


def test_count_simulates_the_c21_counter_and_the_upper_bound():
    found = json.loads(
        _count(
            "c21_baccarat", "--decks", "1", "--shoes", "3000", "--oracle-shoes", "3",
            "--players", "3", "--ramp", "2,4", "--seed", "9", "--json",
        ).stdout
    )  # fmt: skip
    assert found["dealing"] == {"mode": "shoe", "penetration": 14, "burn": "none"}
    assert found["counter"]["players"] == 3 and found["counter"]["ramp"] == [2.0, 4.0]
    assert 1 <= found["counter"]["Average bet (units)"] <= 4
    assert found["upper_bound"]["Shoes"] == 3


@pytest.mark.parametrize(
    "args, named",
    [
        (["c21_baccarat", "--ramp", "2,4"], "--shoes"),
        (["c21_baccarat", "--shoes", "10", "--ramp", "4,2"], "decrease"),
        (["c21_baccarat", "--shoes", "10", "--seat", "9"], "seat"),
        (["c21_baccarat", "--shoes", "10", "--penetration", "5000"], "penetration"),
        (["c21_baccarat", "--shoes", "10", "--trigger", "x"], "--trigger"),
        (["c21_blackjack", "--decks", "2", "--shoes", "10", "--players", "8"], "got 8"),
        (["c21_blackjack", "--decks", "2", "--shoes", "10", "--bank-at", "0"], "--turn-rounds"),
        (["c21_blackjack", "--decks", "2", "--oracle-shoes", "5000"], "1,000"),
        (["c21_blackjack", "--decks", "2", "--trigger", "2"], "--shoes"),
        (["punto_banco", "--shoes", "10"], "--shoes"),
    ],
)
def test_count_counter_bad_input_one_line(args, named):
    result = run_gamecore_here("count", *args)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr and result.stderr.count("\n") == 1


# --- the blackjack counter ---------------------------------------------------------------


@pytest.fixture(scope="module")
def c21_two_deck_count():
    return bjc.count_analysis(bj.C21BlackjackRules(decks=2))


def test_blackjack_counter_with_no_count_bets_the_ramp_step_of_true_count_zero(
    c21_two_deck_count,
):
    zero = dataclasses.replace(c21_two_deck_count, tags={rank: 0 for rank in bj.RANKS})
    result = bjcounter.counter_simulation(
        zero, CounterRun(500, 7, -1.5, (2, 3, 5), index_plays=False)
    )
    summary = result.summary()
    assert summary["Average bet (units)"] == 3
    assert summary["Units won per 100 rounds"] == pytest.approx(
        300 * summary["Flat bettor's EV per round"], abs=1e-12
    )
    assert summary["Insurance bets per 100 rounds"] == 0


def test_blackjack_counter_depends_on_the_seed_only(c21_two_deck_count):
    def run(seed, threads=None):
        return bjcounter.counter_simulation(
            c21_two_deck_count, CounterRun(9_000, seed, 1, (2, 4), threads=threads)
        )

    one, two = run(3, threads=1), run(3, threads=2)
    assert np.array_equal(one.stats, two.stats)
    assert not np.array_equal(one.stats, run(4).stats)


def test_blackjack_counter_first_round_is_the_exact_chart_ev(c21_two_deck_count):
    result = bjcounter.counter_simulation(
        c21_two_deck_count, CounterRun(60_000, 5, 1, (2, 4), index_plays=False)
    )
    summary = result.summary()
    z = (summary["First round of a shoe, EV"] - c21_two_deck_count.full_shoe_ev) / summary[
        "SE (first round)"
    ]
    assert abs(z) < 4


def test_blackjack_counter_insures_every_ace_when_its_index_says_always(c21_two_deck_count):
    """An insurance index of -1000 insures every Ace up card: about one round in 13."""
    always = dataclasses.replace(
        c21_two_deck_count,
        insurance=dataclasses.replace(c21_two_deck_count.insurance, index=-1000.0),
    )
    result = bjcounter.counter_simulation(always, CounterRun(20_000, 9, 1, (2,)))
    rounds = result.stats[0]
    insured = result.summary()["Insurance bets per 100 rounds"] * rounds / 100
    share = 1 / 13
    assert abs(insured - share * rounds) < 4 * math.sqrt(rounds * share * (1 - share))


def test_blackjack_counter_at_a_full_table(c21_two_deck_count):
    """At a table the counter's seat sees more cards a round; a counter that cannot vary its
    bet (a zero count) and plays no index plays is the flat bettor in its seat, whose EV
    on the first round of a shoe is the exact chart EV in any seat."""
    zero = dataclasses.replace(c21_two_deck_count, tags={rank: 0 for rank in bj.RANKS})
    for seat in (1, 3):
        result = bjcounter.counter_simulation(
            zero, CounterRun(20_000, 5, 5, (2,), index_plays=False, players=3, seat=seat)
        )
        summary = result.summary()
        assert summary["Average bet (units)"] == 1
        assert summary["Units won per 100 rounds"] == pytest.approx(
            100 * summary["Flat bettor's EV per round"], abs=1e-12
        )
        z = (summary["First round of a shoe, EV"] - zero.full_shoe_ev) / summary["SE (first round)"]
        assert abs(z) < 4
    # Three players use the cards faster than one: fewer rounds a shoe.
    run = CounterRun(2_000, 5, 5, (2,), index_plays=False)
    alone = bjcounter.counter_simulation(zero, run)
    table = bjcounter.counter_simulation(zero, run.replace(players=3))
    assert table.stats[0] < 0.6 * alone.stats[0]


def test_blackjack_counter_rotation_banks_its_turns(c21_two_deck_count):
    """Under rotation among 3 players and the P/D, holding the bank 2 rounds each, the counter
    banks one round in four when it always accepts, and is then the flat rotator (no count,
    no index plays); declining some turns banks fewer rounds."""
    zero = dataclasses.replace(c21_two_deck_count, tags={rank: 0 for rank in bj.RANKS})
    always = bjcounter.counter_simulation(
        zero, CounterRun(20_000, 3, 5, (2,), index_plays=False, players=3, turn_rounds=2)
    )
    summary = always.summary()
    assert summary["Rounds banked per 100 rounds"] == pytest.approx(25, abs=0.05)
    assert summary["Units won per 100 rounds"] == pytest.approx(
        100 * summary["Flat bettor's EV per round"], abs=1e-12
    )
    counted = bjcounter.counter_simulation(
        c21_two_deck_count, CounterRun(20_000, 3, 1, (2,), players=3, turn_rounds=2, bank_at=0.0)
    )
    assert 5 < counted.summary()["Rounds banked per 100 rounds"] < 25


@pytest.mark.parametrize(
    "change, named",
    [
        ({"players": 8}, "players must be from 1 to 7"),
        ({"players": 2, "seat": 3}, "seat must be from 1 to 2"),
        ({"seat": True}, "seat must be a whole number"),
        ({"turn_rounds": -2}, "turn_rounds must be 0"),
        ({"bank_at": 0.0}, "bank_at needs a rotation"),
        ({"turn_rounds": 2, "bank_at": 1e6}, "bank_at must be a true count"),
    ],
)
def test_blackjack_counter_table_input_is_refused(c21_two_deck_count, change, named):
    with pytest.raises(GamecoreError, match=named):
        bjcounter.counter_simulation(c21_two_deck_count, CounterRun(10, 1, 1, (2,), **change))


@pytest.mark.parametrize(
    "change, named",
    [
        ({"ramp": (4, 2)}, "decrease"),
        ({"trigger": 1e6}, "trigger"),
        ({"dealing": c21c.Dealing(mode="fresh")}, "shoe"),
        ({"dealing": c21c.Dealing(mode="shoe", penetration=5, burn="none")}, "penetration"),
        ({"dealing": c21c.Dealing(mode="shoe", penetration=30)}, "burn"),
        ({"index_plays": "yes"}, "index_plays"),
    ],
)
def test_blackjack_counter_bad_input_is_refused(c21_two_deck_count, change, named):
    arguments = {"trigger": 1, "ramp": (2, 4)}
    arguments.update(change)
    with pytest.raises(GamecoreError, match=named):
        bjcounter.counter_simulation(c21_two_deck_count, CounterRun(shoes=10, seed=1, **arguments))
    with pytest.raises(GamecoreError, match="BlackjackCount"):
        bjcounter.counter_simulation("count", CounterRun(10, 1, 1, (2,)))
    with pytest.raises(GamecoreError, match="CounterRun"):
        bjcounter.counter_simulation(c21_two_deck_count, (1, (2,), 10, 1))


def test_blackjack_perfect_information_bettor_solves_the_full_shoe_first(c21_two_deck_count):
    run = CounterRun(2, 4, ramp=(2, 8))
    result = bjcounter.perfect_information_simulation(c21_two_deck_count, run)
    frame = result.rounds
    first_rounds = frame.groupby("Shoe").head(1)
    assert first_rounds["Exact EV"].tolist() == pytest.approx(
        [c21_two_deck_count.full_shoe_ev] * 2, abs=1e-13
    )
    assert first_rounds["True count"].tolist() == [0.0, 0.0]
    assert frame.equals(bjcounter.perfect_information_simulation(c21_two_deck_count, run).rounds)
    assert result.summary()["Rounds"] == len(frame)
    # At a table of three a shoe holds fewer rounds; each round's shoe is still solved.
    table = bjcounter.perfect_information_simulation(c21_two_deck_count, run.replace(players=3))
    assert len(table.rounds) < len(frame)
    assert table.rounds.groupby("Shoe").head(1)["Exact EV"].tolist() == pytest.approx(
        [c21_two_deck_count.full_shoe_ev] * 2, abs=1e-13
    )
