"""One verdict per question (gamecore.verdict): the 4-SE rule's words and the shoes it
needs, its power against draws of the normal distribution it assumes, a study grown in
seeded stages (the seed alone fixes it; it stops when decided, when the budget is spent or
when the shoes needed exceed it), a bound left out while its SE is not smaller than itself,
and the tables every counting study prints through it."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from gamecore import bounds, countresults
from gamecore.errors import GamecoreError
from gamecore.verdict import (
    VERDICT_COLUMN,
    bound,
    combined,
    decide,
    grow,
    max_shoes,
    mean_and_se,
    power,
    shoes_needed,
    stage_seed,
)


def test_a_means_se_is_the_sample_one():
    values = np.random.default_rng(3).normal(2.0, 5.0, size=37)
    mean, se = mean_and_se(values.sum(), (values**2).sum(), values.size)
    assert mean == pytest.approx(values.mean(), rel=1e-12)
    assert se == pytest.approx(values.std(ddof=1) / math.sqrt(values.size), rel=1e-10)
    assert math.isnan(mean_and_se(3.0, 9.0, 1)[1])  # one trial: no spread measured


@pytest.mark.parametrize(
    ("gain", "se", "threshold", "words"),
    [
        (1.0, 0.2, 0.0, "countable"),  # 1 - 0.8 > 0
        (-1.0, 0.2, 0.0, "not countable"),  # -1 + 0.8 < 0
        (10.0, 1.0, 5.0, "countable"),  # 10 - 4 > 5
        (3.0, 0.0, 2.0, "countable"),  # exact, above the threshold
        (2.0, 0.0, 2.0, "not countable"),  # exact, at it: never above it
    ],
)
def test_the_rule_decides_at_four_standard_errors(gain, se, threshold, words):
    assert decide(gain, se, 1_000, threshold).words == words
    assert countresults.countable(gain, se, threshold, 1_000) == words


def test_an_undecided_verdict_says_the_shoes_it_would_need():
    # The Dragon 7 row: 0.500 +/- 0.135 per shoe after 20,000 shoes is 3.7 SE; the
    # SE falls as 1/sqrt(N), so 4 SE are reached at 20,000 (4 x 0.135 / 0.5)^2 shoes.
    found = decide(0.5, 0.135, 20_000)
    assert found.words == "undecided after 20,000 shoes (about 23,328 needed)"  # 1.08^2 x N
    assert not found.decided and found.needed == 23_328
    # At the shoes needed the same gain clears 4 SE; one shoe fewer it does not.
    needed = shoes_needed(0.5, 0.137, 20_000)
    assert 0.5 - 4 * 0.137 * math.sqrt(20_000 / needed) > 0
    assert 0.5 - 4 * 0.137 * math.sqrt(20_000 / (needed - 1)) < 0
    assert shoes_needed(0.0, 0.1, 100) is None  # a gain at the threshold cannot be sized
    assert "too few shoes to size" in decide(0.0, 0.1, 100).words


@pytest.mark.parametrize("distance", [0.0, 2.0, 4.0, 5.5])
def test_the_power_is_the_chance_of_a_verdict_under_the_normal_distribution(distance):
    # Draw the estimate a study would see, were the true gain `distance` SEs above the
    # threshold, and count how often the rule decides.
    draws = np.random.default_rng(11).normal(distance, 1.0, size=400_000)
    share = float(np.mean(np.abs(draws) > 4))
    noise = 5 * math.sqrt(share * (1 - share) / draws.size) + 2e-5
    assert power(distance, 1.0) == pytest.approx(share, abs=noise)
    assert power(0.5, 0.125) == pytest.approx(0.5, abs=1e-12)  # 4 SE: even odds
    assert power(1.0, 0.0) == 1.0  # exact


@dataclasses.dataclass(frozen=True)
class Toy:
    """A study whose shoes each win a normal amount: its sum and sum of squares."""

    shoes: int
    stats: np.ndarray


def toy(mean: float, sd: float = 10.0):
    def run(shoes: int, seed: int) -> Toy:
        wins = np.random.default_rng(seed).normal(mean, sd, size=shoes)
        return Toy(shoes, np.array([wins.sum(), (wins**2).sum()]))

    def judge(result: Toy) -> object:
        return decide(*mean_and_se(*result.stats, result.shoes), result.shoes)

    return run, judge


def test_a_study_grows_until_it_decides_and_the_seed_alone_fixes_it():
    run, judge = toy(0.5)  # about 6,400 shoes for 4 SE
    first = run(2_000, 9)
    assert not judge(first).decided
    grown = grow(run, judge, 2_000, 100_000, 9)
    assert judge(grown).decided and 2_000 < grown.shoes <= 100_000
    again = grow(run, judge, 2_000, 100_000, 9)
    assert again.shoes == grown.shoes and np.array_equal(again.stats, grown.stats)
    # Stage 0 is the run as asked: the grown result holds it, plus later stages' own seeds.
    later = grown.stats - first.stats
    assert stage_seed(9, 1) != 9 and stage_seed(9, 1) != stage_seed(9, 2)
    assert np.array_equal(grown.stats, combined(first, Toy(grown.shoes - 2_000, later)).stats)


def test_a_study_stops_at_its_budget_or_when_it_could_not_decide_within_it():
    run, judge = toy(0.5)
    decided = run(20_000, 4)  # decided at once: no stage added
    assert judge(decided).decided
    assert np.array_equal(grow(run, judge, 20_000, 100_000, 4).stats, decided.stats)
    hopeless = grow(*toy(0.0), 2_000, 50_000, 5)  # no gain: the shoes needed exceed any budget
    verdict = decide(*mean_and_se(*hopeless.stats, hopeless.shoes), hopeless.shoes)
    assert verdict.words.startswith(f"undecided after {hopeless.shoes:,} shoes (about")
    if hopeless.shoes < 50_000:  # it stopped early only where it needed 4 budgets or more
        assert verdict.needed > 4 * 50_000
    assert hopeless.shoes <= 50_000
    assert grow(run, judge, 2_000, 2_000, 9).shoes == 2_000  # no budget: no growth
    assert max_shoes(2_000, 4) == 8_000
    with pytest.raises(GamecoreError, match="shoe_budget must be a whole number from 1"):
        max_shoes(2_000, 0)


def test_a_bound_is_stated_only_when_its_se_is_smaller_than_itself():
    # The c21 blackjack bound: 12.5 +/- 21.5 per 100 rounds on 5 shoes.
    left = bound(12.5, 21.5, 5)
    assert not left.decided and left.words.startswith("left out: its SE 21.5 is not smaller")
    assert "after 5 shoes" in left.words
    assert bound(-0.9, 0.67, 5).decided  # SE below the figure
    summary = {
        "Shoes": 5.0, "Units won per 100 rounds": 12.5, "SE (per 100 rounds)": 21.5,
        bounds.BOUND[0]: -0.9, bounds.BOUND[1]: 0.67, "Expected units per hour": -0.54,
    }  # fmt: skip
    row = bounds.bound_table(summary).iloc[0]
    assert math.isnan(row["Units won per 100 rounds"]) and row["Realised win"] == left.words
    assert row[bounds.BOUND[0]] == -0.9 and row["Bound"].startswith("stated")
    assert bounds.stated(math.nan, math.nan, left.words) == left.words


def test_every_verdict_table_reads_the_one_rule():
    table = pd.DataFrame(
        {
            "Decks": [6, 6, 8],
            "Procedure": ["shuffle every round", "shoe to a cut card", "shoe to a cut card"],
            "Cards behind the cut card": [None, 14, 14],
            "Best trigger": [None, 1.0, 2.0],
            "Shoes": [0, 5_000, 5_000],
            "Money per hour at the table maximum": [-10.0, 3.0, 30.0],
            "SE (money per hour)": [0.0, 2.0, 2.0],
        }
    )
    verdicts = countresults.procedure_countability(table, "a count")
    expected = [decide(m, s, n).words for m, s, n in zip(
        table["Money per hour at the table maximum"], table["SE (money per hour)"],
        table["Shoes"], strict=True)]  # fmt: skip
    assert verdicts[VERDICT_COLUMN].tolist() == expected
    assert expected[0] == "not countable" and expected[2] == "countable"
    assert expected[1].startswith("undecided after 5,000 shoes")
    below = countresults.verdict(table)
    assert below[VERDICT_COLUMN].tolist() == expected
    assert below["Below the threshold"].tolist() == [w == "not countable" for w in expected]


def test_the_power_the_reports_quote_is_the_rules():
    # Each counting report's narrative and docs/reports.md quote the rule's power: a true
    # gain 4 SE from the threshold decided half the time, 6 SE 97.7%, a gain at the
    # threshold declared either way about 6 times in 100,000 at each look.
    from pathlib import Path

    from scipy.stats import norm

    assert f"{power(4.0, 1.0):.2f}" == "0.50" and f"{power(6.0, 1.0):.3f}" == "0.977"
    assert round(2 * norm.cdf(-4) * 100_000) == 6 and power(0.0, 1.0) == 2 * norm.cdf(-4)
    root = Path(__file__).resolve().parents[1]
    for name in ("dragon7_counting", "side_bets", "counting_c21"):
        text = " ".join((root / "notebooks" / f"{name}.ipynb").read_text("utf-8").split())
        assert "probability 0.50" in text and "probability 0.977" in text, name
