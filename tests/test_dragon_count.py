"""The Dragon 7 counting study: effects of removal against the independent pure-Python
enumeration, exact EVs of depleted shoes against brute force, the derived count, and the
counter and perfect-information simulations."""

import dataclasses
import math
from fractions import Fraction

import naive_baccarat as naive
import numpy as np
import pytest

from gamecore import baccarat
from gamecore.counting import CounterRun
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError

RULES = baccarat.EZBaccaratRules()
DRAGON = baccarat.counting.SideBetCount(RULES, baccarat.removal.JACOBSON_DRAGON_TAGS)


def naive_side_bet_evs(composition):
    """EV of each 'pays to 1' side bet, Dragon 7 at 40 and Panda 8 at 25, from the oracle's
    outcome counts (one enumeration of the shoe for both)."""
    counts = naive.outcome_counts(naive.class_breakdown(composition))
    return {
        bet: Fraction((pays + 1) * counts[bet] - counts["total"], counts["total"])
        for bet, pays in (("dragon7", 40), ("panda8", 25))
    }


@pytest.fixture(scope="module")
def effects():
    return baccarat.removal.effects_of_removal_exact(RULES)


def test_effects_of_removal_equal_the_oracle(effects):
    full = naive.shoe_composition(8)
    before = naive_side_bet_evs(full)
    for rank, point in zip(baccarat.removal.RANKS, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0], strict=True):
        depleted = list(full)
        depleted[point] -= 1
        after = naive_side_bet_evs(depleted)
        for bet in ("dragon7", "panda8"):
            assert effects[rank][bet] == after[bet] - before[bet], (rank, bet)


def test_effects_of_removal_frame(effects):
    frame = baccarat.removal.effects_of_removal(RULES)
    assert frame["Rank"].tolist() == list(baccarat.removal.RANKS)
    assert frame["Cards per deck"].tolist() == [4] * 9 + [16]
    # Removing a whole deck of effects (one removal per card, to first order) leaves the EV
    # almost unchanged: the weighted effects nearly cancel.
    weighted = sum(frame["Cards per deck"] * frame["Dragon 7 EoR"])
    assert abs(weighted) < 0.1 * sum(frame["Cards per deck"] * frame["Dragon 7 EoR"].abs())
    # Eights and nines make naturals, which kill the Dragon: removing them helps it.
    assert effects["8"]["dragon7"] > 0 and effects["9"]["dragon7"] > 0


@pytest.mark.parametrize(
    "cards",
    [
        [0, 0, 0, 3, 4, 4, 1, 2, 6, 7],
        [0, 0, 7, 7, 0, 3, 4, 5, 8, 0, 2],
    ],
)
def test_depleted_shoe_ev_against_brute_force(cards):
    composition = [cards.count(v) for v in range(10)]
    analysis = baccarat.exact(RULES, composition=composition)
    brute = naive.outcome_counts(naive.card_by_card_breakdown(cards))
    assert analysis.outcome_counts()["dragon7"] == brute["dragon7"]
    assert analysis.outcome_counts()["panda8"] == brute["panda8"]
    assert analysis.wager("dragon7").expected_value == Fraction(
        41 * brute["dragon7"] - brute["total"], brute["total"]
    )


def test_derived_count_is_balanced_and_follows_the_effects(effects):
    dragon = {rank: float(e["dragon7"]) for rank, e in effects.items()}
    tags = baccarat.removal.balanced_tags(dragon, max_tag=3)
    assert sum(baccarat.removal.cards_per_deck(r) * t for r, t in tags.items()) == 0
    assert max(abs(t) for t in tags.values()) <= 3
    # It follows the effects at least as well as the published count it is compared with.
    ours = baccarat.removal.betting_correlation(tags, dragon)
    jacobson = baccarat.removal.betting_correlation(baccarat.removal.JACOBSON_DRAGON_TAGS, dragon)
    assert ours >= jacobson > 0.9
    # Signs agree with the effects wherever the tag is not zero.
    assert all(t * dragon[r] > 0 for r, t in tags.items() if t)


def test_jacobson_count_is_balanced():
    tags = baccarat.removal.JACOBSON_DRAGON_TAGS
    assert sum(baccarat.removal.cards_per_deck(r) * t for r, t in tags.items()) == 0


def test_betting_correlation_of_the_effects_themselves_is_one(effects):
    dragon = {rank: float(e["dragon7"]) for rank, e in effects.items()}
    assert baccarat.removal.betting_correlation(dragon, dragon) == pytest.approx(1.0)


def test_counter_who_always_bets_earns_the_shoe_ev():
    # A trigger below any reachable true count bets every round: the edge when betting is the
    # bet's EV over dealt shoes, which the cut-card effect leaves within noise of exact.
    result = baccarat.counting.counter_simulation(DRAGON, CounterRun(30_000, 4, [-1e9]))
    row = result.by_trigger().iloc[0]
    assert row["Share of rounds bet"] == 1.0
    assert row["Bets per shoe"] * result.shoes == result.rounds
    exact = float(baccarat.exact(RULES).wager("dragon7").expected_value)
    assert abs(row["Edge when betting"] - exact) <= 4 * row["SE (edge)"]
    by_count = result.by_true_count()
    assert by_count["Rounds"].sum() == result.rounds


def test_counter_results_do_not_depend_on_threads():
    run = CounterRun(2 * baccarat.counting.CHUNK_SHOES + 7, 5, [0, 4])
    one = baccarat.counting.counter_simulation(DRAGON, run.replace(threads=1))
    two = baccarat.counting.counter_simulation(DRAGON, run.replace(threads=2))
    assert np.array_equal(one.stats, two.stats) and np.array_equal(one.bins, two.bins)


def test_higher_trigger_bets_less_and_wins_more_per_bet():
    result = baccarat.counting.counter_simulation(DRAGON, CounterRun(40_000, 6, [0, 6]))
    low, high = result.by_trigger().to_dict("records")
    assert high["Bets per shoe"] < low["Bets per shoe"]
    assert high["Edge when betting"] > low["Edge when betting"] + 4 * high["SE (edge)"]


def test_perfect_information_bettor():
    count = baccarat.counting.SideBetCount(
        RULES, baccarat.removal.JACOBSON_DRAGON_TAGS, name="Jacobson"
    )
    result = baccarat.counting.perfect_information_simulation(count, CounterRun(40, 8))
    ev = result.exact_ev()
    assert len(ev) == result.rounds
    assert np.all(ev >= -1) and np.all(ev <= 40)
    # The first round of a shoe after a burn is close to the full-shoe EV.
    assert abs(np.median(ev) - float(baccarat.exact(RULES).wager("dragon7").expected_value)) < 0.05
    row = result.summary().iloc[0]
    # It bets only when the exact EV is positive, so its expected win is positive.
    assert row["Expected side bet units per shoe (exact EV of the rounds bet)"] > 0
    assert row["Bets per shoe"] * result.shoes == pytest.approx(np.sum(ev > 0))
    correlation = result.correlations().iloc[0, 1]
    assert 0.5 < correlation < 1
    assert math.isclose(result.ev_by_true_count("Jacobson")["Rounds"].sum(), result.rounds)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: baccarat.counting.SideBetCount(baccarat.PuntoBancoRules(), {}),
            "rules must be EZBaccaratRules",
        ),
        (lambda: baccarat.counting.SideBetCount(RULES, {"A": 1}), "tags must give every rank"),
        (lambda: CounterRun(10, 1, []), "triggers must be finite"),
        (lambda: CounterRun(0, 1, [1]), "shoes must be a positive integer"),
        (
            lambda: baccarat.counting.SideBetCount(
                RULES, baccarat.removal.JACOBSON_DRAGON_TAGS, bet="tie"
            ),
            "bet must be one of",
        ),
        (
            lambda: baccarat.counting.counter_simulation(
                DRAGON, CounterRun(10, 1, [1], dealing=Dealing(mode="shoe", penetration=416))
            ),
            "penetration must be from 6 to 399",
        ),
        (
            lambda: baccarat.counting.counter_simulation(
                DRAGON, CounterRun(10, 1, [1], dealing=Dealing())
            ),
            "counting needs a shoe dealt to a cut card",
        ),
        (
            lambda: baccarat.counting.counter_simulation(DRAGON, CounterRun(10, 1, [1], players=2)),
            "players does not apply to a side-bet counter",
        ),
        (
            lambda: baccarat.counting.procedure_table(DRAGON, CounterRun(10, 1, [1, 2])),
            "procedure_table takes one trigger",
        ),
        (
            lambda: baccarat.counting.perfect_information_simulation(
                dataclasses.replace(DRAGON, rules=RULES.replace(decks=30)), CounterRun(1, 1)
            ),
            "at most 27 decks",
        ),
        (
            lambda: baccarat.removal.balanced_tags({r: 0.0 for r in baccarat.removal.RANKS}),
            "nothing to count",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(GamecoreError, match=message):
        call()


def test_a_procedure_is_judged_at_four_standard_errors():
    # Each procedure's verdict is the 4-SE rule on its own row's gain and SE.
    table = baccarat.counting.procedure_table(
        DRAGON, CounterRun(3_000, 7, [4]), penetrations=[14, 26], deck_counts=[1]
    )
    assert table.columns[-1] == "Verdict (4 SE)"
    gains, ses = table["Side bet units won per shoe"], table["SE (per shoe)"]
    for gain, se, shoes, verdict in zip(
        gains, ses, table["Shoes"], table["Verdict (4 SE)"], strict=True
    ):
        if gain > 4 * se:
            assert verdict == "countable"
        elif gain < -4 * se:
            assert verdict == "not countable"
        else:  # the shoes at which this gain would clear 4 SE, the SE falling as 1/sqrt(N)
            needed = math.ceil(shoes * (4 * se / abs(gain)) ** 2 * (1 - 1e-12))
            assert verdict == f"undecided after {shoes:,} shoes (about {needed:,} needed)"
