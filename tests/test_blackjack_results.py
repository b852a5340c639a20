"""The probability of each final result (gamecore.blackjack.results) against the slow
reference, which plays every card sequence in the real order (tests/naive_blackjack.py)."""

import json
import math
import subprocess
import sys
from fractions import Fraction

import naive_blackjack as nb
import numpy as np
import pytest
from helpers import RESPLIT_SHOE, TINY, naive_rules, simple_chart, split_eights_chart

from gamecore import blackjack as bj
from gamecore import twins
from gamecore.blackjack import checks
from gamecore.blackjack import hand_ends as he
from gamecore.blackjack import results as br
from gamecore.blackjack import two_hand_split as ts
from gamecore.blackjack.engine import Engine
from gamecore.errors import GamecoreError


def _reference(rules, chart, shoe=TINY):
    """The reference's distribution by part: {"plain"|"split"|"resplit": {net: p}}, and the
    probability of a Natural paid."""
    parts = {"plain": {}, "split": {}, "resplit": {}}
    natural = 0.0
    for (net, kind), p in nb.chart_distribution(shoe, naive_rules(rules), chart.cells).items():
        if kind == "natural":
            natural += p
        else:
            parts[kind][net] = parts[kind].get(net, 0.0) + p
    return parts, natural


def _assert_part(rows, column, expected):
    for net in set(expected) | set(rows.index):
        assert rows[column].get(net, 0.0) == pytest.approx(expected.get(net, 0.0), abs=1e-12), (
            column,
            net,
        )


@pytest.mark.parametrize(
    "rules",
    [
        bj.C21BlackjackRules(decks=2),  # bust push, surrender after hits, even-money Natural
        bj.StandardBlackjackRules(
            max_split_hands=2, dealer_hits_soft_17=True, surrender="late", peek=False
        ),
        bj.StandardBlackjackRules(max_split_hands=2, surrender="early"),
    ],
    ids=["c21_double_deck", "h17_late_no_peek", "early"],
)
def test_every_round_is_exact_without_resplits(rules):
    chart = simple_chart()
    if rules.surrender == "early":
        chart = bj.StrategyChart(
            {**chart.cells, **{("hard 15", up): "Rh" for up in bj.CHART_UP_CARDS}}, chart.name
        )
    exact = br.result_distribution(rules, chart, composition=list(TINY))
    parts, natural = _reference(rules, chart)
    assert parts["split"] and not parts["resplit"]
    rows = exact.table[exact.table["Outcome"] != "Natural paid"].set_index("Net result")
    _assert_part(rows, "Without a split", parts["plain"])
    _assert_part(rows, "Split, two hands", parts["split"])
    assert (rows["With a resplit"] == 0).all() and exact.resplit_share == 0
    [natural_row] = exact.table.query("Outcome == 'Natural paid'")["Probability"]
    assert natural_row == pytest.approx(natural, abs=1e-12)
    assert exact.split_share == pytest.approx(sum(parts["split"].values()), abs=1e-12)
    # The whole distribution's mean is the chart's exact EV.
    ev = bj.exact(rules, chart, composition=list(TINY), search_chart=False).strategy_ev
    assert exact.mean == pytest.approx(ev, abs=1e-12)
    assert exact.table["Probability"].sum() == pytest.approx(1.0, abs=1e-12)
    # No resplit: every figure exact, every bound 0, and said so.
    assert (exact.statistics()["How obtained"] == br.EXACT).all()
    assert (exact.statistics()["Bound (±)"] == 0).all()
    assert (exact.table["How obtained"] == br.EXACT).all()
    assert (exact.table[["Probability bound (±)", "Return bound (±)"]] == 0).all(axis=None)
    obtained = exact.obtained()
    assert obtained.how == "exact: float64 recursion"
    assert obtained.sd_bound == 0 and obtained.hit_bound == 0 and exact.variance_slack == (0, 0)


@pytest.fixture(scope="module")
def resplit_rounds():
    """Rounds resplit to four hands, eights split (RESPLIT_SHOE): the rules, the chart, the
    distribution and the reference's (every card sequence played in the real order)."""
    rules = bj.StandardBlackjackRules(max_split_hands=4)
    chart = split_eights_chart()
    exact = br.result_distribution(rules, chart, composition=list(RESPLIT_SHOE))
    return rules, chart, exact, _reference(rules, chart, RESPLIT_SHOE)


def test_resplits_to_four_hands_two_hand_rounds_exact_resplits_keep_mass_and_mean(
    resplit_rounds,
):
    rules, chart, exact, (parts, natural) = resplit_rounds
    rows = exact.table[exact.table["Outcome"] != "Natural paid"].set_index("Net result")
    _assert_part(rows, "Without a split", parts["plain"])
    _assert_part(rows, "Split, two hands", parts["split"])
    resplit = parts["resplit"]
    assert min(resplit) == -8  # four doubled hands lost happens, and is in the reference
    assert rows["With a resplit"].sum() == pytest.approx(sum(resplit.values()), abs=1e-12)
    assert exact.resplit_share == pytest.approx(sum(resplit.values()), abs=1e-12)
    mean = float(np.dot(rows.index, rows["With a resplit"]))
    assert mean == pytest.approx(sum(n * p for n, p in resplit.items()), abs=1e-12)
    [natural_row] = exact.table.query("Outcome == 'Natural paid'")["Probability"]
    assert natural_row == pytest.approx(natural, abs=1e-12)
    # The chart's exact EV is the reference's mean net result over every round.
    reference_ev = natural * rules.natural_pays + sum(
        net * p for part in parts.values() for net, p in part.items()
    )
    analysis = bj.exact(rules, chart, composition=list(RESPLIT_SHOE), search_chart=False)
    assert analysis.strategy_ev == pytest.approx(reference_ev, abs=1e-12)


def test_every_bound_holds_against_the_reference_where_resplits_move_the_figures(
    resplit_rounds,
):
    """The true distribution (the reference's, every card sequence) against the one whose
    resplit hands are combined as independent: every probability, the win, push and loss
    frequencies and the SD within their stated bounds, where the approximation shows (by
    more than 1e-5 somewhere: a bound that held only because nothing moved would prove
    nothing)."""
    rules, _chart, exact, (parts, natural) = resplit_rounds
    true = {rules.natural_pays: natural}
    for part in parts.values():
        for net, p in part.items():
            true[net] = true.get(net, 0.0) + p
    table = exact.table
    error = table["Probability"] - [
        true.get(n, 0.0) if o != "Natural paid" else natural
        for n, o in zip(table["Net result"], table["Outcome"], strict=True)
    ]
    assert error.abs().max() > 1e-5  # the resplit effect is visible on this shoe
    assert (error.abs() <= table["Probability bound (±)"]).all()
    assert (error.abs() * table["Net result"].abs() <= table["Return bound (±)"] + 1e-15).all()
    assert set(true) <= set(table["Net result"])  # no true result missing from the table
    # Rows with no resplit part are exact, and said so; the others say they are bounded.
    resplit = table["With a resplit"] > 0
    assert (table.loc[~resplit, "How obtained"] == br.EXACT).all()
    assert (table.loc[resplit, "How obtained"] == br.BOUNDED).all()
    assert (table.loc[~resplit, "Probability bound (±)"] == 0).all()
    assert (table["Probability bound (±)"] <= exact.resplit_share).all()
    mean = sum(n * p for n, p in true.items())
    sd = math.sqrt(sum(p * (n - mean) ** 2 for n, p in true.items()))
    stats = exact.statistics().set_index("Figure")
    figures = {
        "Standard deviation per round": sd,
        "Win frequency (net result > 0)": sum(p for n, p in true.items() if n > 0),
        "Push frequency": true.get(0.0, 0.0),
        "Loss frequency (net result < 0)": sum(p for n, p in true.items() if n < 0),
        "Player EV per initial wager": mean,
    }
    for figure, value in figures.items():
        row = stats.loc[figure]
        assert abs(row["Value"] - value) <= row["Bound (±)"] + 1e-12, figure
    assert stats.loc["Standard deviation per round", "Bound (±)"] > 0
    assert stats.loc["Player EV per initial wager", "How obtained"] == br.EXACT
    assert abs(exact.standard_deviation - sd) > 1e-5  # the SD's approximation shows too
    obtained = exact.obtained()
    assert obtained.sd_bound == exact.standard_deviation_bound
    assert obtained.hit_bound == stats.loc["Win frequency (net result > 0)", "Bound (±)"]
    assert f"{exact.resplit_share:.4%}" in obtained.how and "P(house behind)" in obtained.how


def test_the_sd_bound_is_reached_by_hands_that_move_as_one():
    """The variance slack of a group of resplit hands: below, the independent sum's variance
    (every covariance 0 down to a sum of no spread); above, up to three alike hands moving
    as one, whose sum is three times one hand: variance nine times one hand's, computed
    here from the hand's own distribution. No smaller upper end holds for every
    dependence."""
    rules = bj.StandardBlackjackRules()
    settle = he.settlement(rules)
    rng = np.random.default_rng(7)
    joint = rng.random((he.N_CLASSES, bj.rules.N_OUTCOMES))
    joint[:, bj.rules.NATURAL] = 0.0  # the peek: no split against a Natural
    joint /= joint.sum()
    combined, (below, above) = br._combine([joint] * 3, settle, peek=True)
    dealer = joint.sum(axis=0)
    independent = together = 0.0
    for d in np.flatnonzero(dealer):
        values = settle[:, d].astype(float)  # half units
        p = joint[:, d] / dealer[d]
        variance = np.dot(p, values**2) - np.dot(p, values) ** 2
        independent += dealer[d] * 3 * variance
        together += dealer[d] * (np.dot(p, (3 * values) ** 2) - np.dot(p, 3 * values) ** 2)
    assert below == pytest.approx(independent, rel=1e-12)
    assert below + above == pytest.approx(together, rel=1e-12)
    assert combined.sum() == pytest.approx(1.0, abs=1e-12)


def test_optimal_play_distribution_has_the_optimal_ev():
    rules = bj.C21BlackjackRules(decks=1)
    dist = br.result_distribution(rules)
    assert dist.strategy == "optimal"
    assert dist.mean == pytest.approx(bj.exact(rules, search_chart=False).player_ev, abs=1e-13)
    assert (dist.table["Probability"] >= 0).all()
    assert dist.table["Net result"].max() == 8 and dist.table["Net result"].min() == -8


def test_heavy_splits_worked_apart_give_the_same_distribution(monkeypatch):
    """Which splits count as heavy (worked one after another, beside the others) changes
    only the scheduling: every split heavy, or none, gives the same table to the last bit."""
    rules = bj.StandardBlackjackRules(decks=1, max_split_hands=2)
    tables = []
    for threshold in (0, 10**12):
        monkeypatch.setattr(br, "HEAVY_SPLIT_PAIRS", threshold)
        tables.append(br.result_distribution(rules).table)
    assert tables[0].equals(tables[1])
    assert tables[0]["Probability"].sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("peek", [True, False])
def test_pairs_of_busts_settle_without_the_dealers_distribution(monkeypatch, peek):
    """A set of cards only pairs of plain busts hold needs only the chance of no dealer
    Natural, not the dealer's distribution: the two-hand split rounds are the same (to
    rounding) as with every set's distribution computed and summed."""
    rules = bj.StandardBlackjackRules(decks=1, max_split_hands=2, peek=peek)
    rows = []
    dealer_rows = ts.dealer_rows

    def counting(shoe, removed, *args, **kwargs):
        rows[-1] += len(removed)
        return dealer_rows(shoe, removed, *args, **kwargs)

    monkeypatch.setattr(ts, "dealer_rows", counting)
    rows.append(0)
    shortcut = br.result_distribution(rules).table
    monkeypatch.setattr(
        ts, "dealer_free_classes", lambda settle, peek: settle[:, 0] != settle[:, 0]
    )
    rows.append(0)
    every = br.result_distribution(rules).table
    np.testing.assert_allclose(
        shortcut["Split, two hands"], every["Split, two hands"], rtol=0, atol=1e-15
    )
    assert rows[0] < 0.9 * rows[1]  # the shortcut was taken, for a tenth of the sets or more


def test_statistics_follow_from_the_table():
    rules = bj.C21BlackjackRules(decks=1)
    dist = br.result_distribution(rules, simple_chart())
    stats = dist.statistics().set_index("Figure")["Value"]
    t = dist.table
    assert stats["Player EV per initial wager"] == pytest.approx(t["Return"].sum(), abs=1e-15)
    mean = (t["Net result"] * t["Probability"]).sum()
    sd = np.sqrt((t["Net result"] ** 2 * t["Probability"]).sum() - mean**2)
    assert stats["Standard deviation per round"] == pytest.approx(sd, rel=1e-12)
    total = stats[["Win frequency (net result > 0)", "Push frequency"]].sum()
    assert total + stats["Loss frequency (net result < 0)"] == pytest.approx(1.0, abs=1e-12)
    # One deck, four hands: resplits happen, so the SD and the frequencies carry a bound of
    # at most the resplit rounds' share, the EV and the shares none.
    bounds = dist.statistics().set_index("Figure")["Bound (±)"]
    assert dist.resplit_share > 0
    assert 0 < bounds["Win frequency (net result > 0)"] <= dist.resplit_share
    assert bounds["Standard deviation per round"] == dist.standard_deviation_bound > 0
    assert bounds[["Player EV per initial wager", "Probability of a resplit"]].eq(0).all()


def test_the_resplit_twins_carry_the_bound_of_their_approximation():
    rules = bj.C21BlackjackRules(decks=1)
    dist = br.result_distribution(rules, simple_chart())
    check = checks.results_cross_check(dist, bj.sim.simulate(rules, simple_chart(), 20_000, 3))
    approximate = check[check[twins.APPROXIMATE]]
    assert (check.loc[~check[twins.APPROXIMATE], "Bound (±)"] == 0).all()
    assert approximate["Bound (±)"].tolist() == dist.table["Probability bound (±)"].tolist()
    assert approximate["Bound (±)"].max() > 0  # one deck, four hands: resplits happen


def test_settlement_table_is_the_rule_text():
    settle = he.settlement(bj.C21BlackjackRules())
    dealer = {name: i for i, name in enumerate(bj.DEALER_OUTCOMES)}
    three_card_24 = he.BUST_23 + 1
    # Half units: a three-card 24 pushes a P/D 26 and loses to a P/D 23 or 24.
    assert settle[three_card_24, dealer["bust 26"]] == 0
    assert settle[three_card_24, dealer["bust 23"]] == -2
    assert settle[three_card_24, dealer["bust 24"]] == -2
    # Doubled: twice the stake; a standing 16 beats any bust, loses to 17.
    assert settle[he.DOUBLED + he.STAND_LOW, dealer["bust 22"]] == 4
    assert settle[he.STAND_LOW, dealer["17"]] == -2
    assert settle[5, dealer["21"]] == 0  # 21 against 21 pushes
    assert (settle[he.SURRENDERED] == -1).all()
    assert (he.settlement(bj.StandardBlackjackRules())[three_card_24] == -2).all()


def test_cross_check_refuses_a_different_chart():

    rules = bj.C21BlackjackRules(decks=2)
    dist = br.result_distribution(rules, simple_chart(), composition=list(TINY))
    other = bj.StrategyChart(simple_chart().cells, "another chart")
    sim = bj.sim.simulate(rules, other, 1000, seed=1)
    with pytest.raises(GamecoreError, match="another chart"):
        checks.results_cross_check(dist, sim)


@pytest.mark.parametrize(
    "rules",
    [
        bj.StandardBlackjackRules(max_split_hands=2, dealer_hits_soft_17=True, surrender="late"),
        bj.C21BlackjackRules(decks=2, max_split_hands=2),
    ],
    ids=["standard_h17_late", "c21_double_deck"],
)
def test_player_sd_is_the_spread_of_optimal_play_in_the_slow_reference(rules):
    """``player_sd``: the standard deviation of a round's net result under optimal play,
    against the reference's distribution of every card sequence played optimally (CDZ-)."""
    reference = nb.optimal_distribution(TINY, naive_rules(rules))
    mean = sum(net * p for (net, _), p in reference.items())
    second = sum(net * net * p for (net, _), p in reference.items())
    analysis = bj.exact(rules, composition=list(TINY), search_chart=False, standard_deviation=True)
    assert analysis.player_ev == pytest.approx(mean, abs=1e-12)
    assert analysis.player_sd == pytest.approx(np.sqrt(second - mean**2), abs=1e-12)
    assert analysis.player_sd_exactness == "exact"  # two hands at most: every round exact
    data = analysis.to_dict()
    assert data["player_sd"] == analysis.player_sd and data["player_sd_exactness"] == "exact"
    assert "player_sd" not in bj.exact(rules, composition=list(TINY)).to_dict()


@pytest.mark.parametrize(
    "shoe, pair, up",
    [
        (bj.shoe_composition(6), 1, 6),  # 2s against a 7, six decks: every end's pairs fit
        ([2, 3, 3, 3, 3, 3, 3, 3, 3, 10], 1, 6),  # a shoe that runs short of 2s
        ([1, 2, 2, 2, 2, 2, 2, 2, 2, 8], 7, 9),
    ],
)
def test_the_sets_of_two_hands_are_those_of_every_pair_the_shoe_can_deal(shoe, pair, up):
    """The pairs of hand ends given a set of cards are exactly those whose probability is
    not zero, pair by pair (the numbering settles this for all the pairs of an end at once
    where they all fit), and each pair's set is the cards both hands hold."""
    rules = bj.StandardBlackjackRules(decks=1, max_split_hands=2)
    engine = Engine(rules, np.array(shoe))
    strategy = br._Strategy.of(engine, None)
    ends = he.two_hand_ends(engine, strategy.kept, pair, up)
    left = engine.shoe.astype(np.int64)
    left[pair] -= 2
    left[up] -= 1
    most = 2 * ends.drawn.max(axis=0)
    code = ends.drawn @ np.cumprod(np.concatenate(([1], most[:-1] + 1)))
    ff, inverse = ts._falling_factorials(left, most)
    found = len(ends.ways)
    size = 1 << int(np.ceil(np.log2(4 * found * found + 2)))
    sets = ts._Unions(
        np.full((size, 2), -1, dtype=np.int64),
        np.empty(found * (found + 1) // 2, dtype=np.int32),
        np.empty(size // 2, dtype=np.int32),
        np.empty(size // 2, dtype=np.int32),
        np.empty(size // 2, dtype=np.bool_),
    )
    free = np.zeros(he.N_CLASSES, dtype=np.bool_)
    unions = ts._pair_unions(ends, code, left, free, sets)
    # Pair k is (e1, e2), e1 <= e2, in the order of the loops e1 then e2. Its probability as
    # _pair_probability forms it, for all pairs of an e1 at once (a million pairs at six decks).
    first, second = np.triu_indices(found)
    used = ends.drawn[first] + ends.drawn[second]
    p = ends.ways[first] * ends.ways[second] * np.where(first == second, 1.0, 2.0)
    p *= np.prod(ff[np.arange(10), used], axis=1) * inverse[used.sum(axis=1)]
    assert np.array_equal(sets.union[: len(p)] >= 0, p != 0.0)
    # Each set numbers one set of cards, the cards both hands hold (as one number, a digit
    # per rank: no rank's count reaches its base), and no two sets the same.
    cards = (used @ np.cumprod(np.concatenate(([1], most[:-1] + 1))))[p != 0.0]
    union = sets.union[: len(p)][p != 0.0]
    order = np.argsort(union, kind="stable")
    union, cards = union[order], cards[order]
    same = union[1:] == union[:-1]
    assert np.array_equal(cards[1:][same], cards[:-1][same])
    assert len(np.unique(union)) == unions == len(np.unique(cards))


# --- Large shoes: the falling-factorial products of two split hands (issue 27) ------------


def _falling_factorial(n: int, k: int) -> int:
    return math.prod(range(n - k + 1, n + 1)) if k <= n else 0


# Cards drawn by the ends of split hands (pair card not counted), as long as any draw can
# be: a hand hits only below 21, so it draws at most twenty cards (twenty aces: the bound
# itself) and two hands forty. Each with a number of card orders that play to it.
LONG_DRAWS = np.array(
    [
        [20, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 9, 0, 0, 0, 0, 0, 0, 0, 1],
        [10, 5, 0, 0, 0, 0, 0, 0, 0, 0],
        [4, 3, 2, 1, 0, 0, 0, 0, 0, 0],
        [19, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    ],
    dtype=np.int64,
)
LONG_DRAWS_ORDERS = np.array([1.0, 1.0, 3003.0, 12600.0, 20.0, 720.0, 1.0])


@pytest.mark.parametrize(
    "shoe",
    [
        [4000, 3998, 4000, 4000, 4000, 4000, 3999, 4000, 4000, 16000],  # 1000 decks, 2s v 7
        [10**6] * 10,  # the largest shoe the engine takes: ten million cards
        [4, 2, 4, 4, 4, 4, 3, 4, 4, 16],  # one deck: most of these draws cannot be dealt
        [40, 0, 0, 0, 0, 0, 0, 0, 0, 0],  # two hands of twenty aces leave no hole card
    ],
    ids=["thousand_decks", "ten_million_cards", "one_deck", "forty_aces"],
)
def test_two_split_hands_probabilities_are_exact_ratios_at_any_shoe_size(shoe):
    """The probability of each pair of split hand ends, ``orders_1 orders_2 prod_r
    ff(n_r, k_r) / ff(n, k)`` (both orders of two different ends; zero where the shoe lacks
    the cards or leaves none for the dealer's hole card), against the same ratio in exact
    integers. Unscaled, ``ff(n, k)`` passed the float range inside this table at a thousand
    decks (from 66 cards) and at ten million cards (from 45), and its inverse read 0."""
    shoe = np.array(shoe, dtype=np.int64)
    n = int(shoe.sum())
    most = 2 * LONG_DRAWS.max(axis=0)
    ff, inverse = ts._falling_factorials(shoe, most)
    assert np.isfinite(ff).all() and np.isfinite(inverse).all()
    # Every inverse below the shoe's size is there, none lost to an overflow; none from it.
    top = int(most.sum())
    assert (inverse[: min(top, n - 1) + 1] > 0).all() and (inverse[n:] == 0).all()
    dealt = 0
    for e1 in range(len(LONG_DRAWS)):
        for e2 in range(e1, len(LONG_DRAWS)):
            cards = LONG_DRAWS[e1] + LONG_DRAWS[e2]
            taken = int(cards.sum())
            orders = int(LONG_DRAWS_ORDERS[e1] * LONG_DRAWS_ORDERS[e2]) * (1 if e1 == e2 else 2)
            drawn = math.prod(
                _falling_factorial(int(c), int(k)) for c, k in zip(shoe, cards, strict=True)
            )
            exact = Fraction(orders * drawn, _falling_factorial(n, taken)) if taken < n else 0
            p = ts._pair_probability(LONG_DRAWS, LONG_DRAWS_ORDERS, e1, e2, ff, inverse)
            assert p == pytest.approx(float(exact), rel=1e-13, abs=0), (e1, e2)
            dealt += exact > 0
    if n > 1000:  # every pair is dealt: the longest products are compared, not zeros
        assert dealt == len(LONG_DRAWS) * (len(LONG_DRAWS) + 1) // 2


@pytest.mark.parametrize(
    "rules",
    [
        bj.StandardBlackjackRules(decks=1000),
        bj.StandardBlackjackRules(
            decks=1000, dealer_hits_soft_17=True, surrender="late", max_split_hands=2
        ),
        bj.C21BlackjackRules(decks=1000),
    ],
    ids=["standard_s17", "standard_h17_late_two_hands", "c21"],
)
def test_a_thousand_decks_distribution_has_all_the_mass_and_the_recursions_ev(rules):
    """At the top of the deck range the result distribution still holds every round
    (probabilities summing to 1) and its mean is the EV of the backward recursion, which
    prices splits by the split identities and never multiplies these falling factorials.
    Numpy's overflow warnings are errors in the test run (pyproject), so the unscaled
    products of two split hands (2s and 3s against a 7: past the float range within their
    table) fail here too."""
    dist = br.result_distribution(rules)
    p = dist.table["Probability"]
    assert (p >= 0).all() and p.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist.split_share > 0.02  # the split rounds, whose products are at stake, are there
    assert dist.mean == pytest.approx(bj.exact(rules, search_chart=False).player_ev, abs=1e-12)


# Six ranks of a million cards each (no 2..5), and a chart that hits soft totals to 20 and
# splits Aces against a ten: a split Ace draws up to ten Aces. The table of the two hands'
# products runs to 46 cards, where an unscaled ff(n, k) of six million cards has left the
# float range; yet the reference plays every card sequence of this shoe in seconds.
MILLIONS = (10**6, 0, 0, 0, 0, 10**6, 10**6, 10**6, 10**6, 10**6)


def _soft_hitting_chart() -> bj.StrategyChart:
    cells = {}
    for up in bj.CHART_UP_CARDS:
        for t in range(4, 22):
            cells[(f"hard {t}", up)] = "H" if t <= 11 else "S"
        for t in range(12, 22):
            cells[(f"soft {t}", up)] = "H" if t <= (20 if up == "10" else 17) else "S"
        cells[("pair A", up)] = "P" if up == "10" else "H"
    return bj.StrategyChart(cells, "soft hits to 20 against a ten, Aces split there")


def test_a_shoe_of_millions_against_the_slow_reference():
    """Every part of the distribution and its SD from a shoe of millions of cards, against
    the reference that plays every card sequence (each card's chance a ratio of counts)."""
    rules = bj.StandardBlackjackRules(max_split_hands=2, split_aces_one_card=False)
    chart = _soft_hitting_chart()
    exact = br.result_distribution(rules, chart, composition=list(MILLIONS))
    parts, natural = _reference(rules, chart, MILLIONS)
    rows = exact.table[exact.table["Outcome"] != "Natural paid"].set_index("Net result")
    _assert_part(rows, "Without a split", parts["plain"])
    _assert_part(rows, "Split, two hands", parts["split"])
    assert sum(parts["split"].values()) > 0.003 and exact.resplit_share == 0
    [natural_row] = exact.table.query("Outcome == 'Natural paid'")["Probability"]
    assert natural_row == pytest.approx(natural, abs=1e-12)
    every = [*(x for part in parts.values() for x in part.items()), (rules.natural_pays, natural)]
    mean = sum(net * p for net, p in every)
    second = sum(net * net * p for net, p in every)
    assert exact.mean == pytest.approx(mean, abs=1e-12)
    assert exact.standard_deviation == pytest.approx(np.sqrt(second - mean**2), abs=1e-12)


@pytest.mark.parametrize("game", ["standard_blackjack", "c21_blackjack"])
def test_a_thousand_decks_on_the_command_line_writes_nothing_to_stderr(game):
    """The command at the top of the deck range: exit 0, a JSON document, and not a byte on
    stderr (it printed numpy's overflow warning, which the test run's filter cannot see in
    another process)."""
    result = subprocess.run(
        [sys.executable, "-m", "gamecore", "exact", game, "--decks", "1000", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert 1 < data["player_sd"] < 2  # a round's SD, one to two units


def test_the_rows_read_in_order_of_net_result_the_natural_among_them():
    # A reader finds the Natural's 6 to 5 between winning 1 and winning 2, not last.
    table = br.result_distribution(
        bj.C21BlackjackRules(decks=2, natural_pays=1.2), simple_chart(), composition=list(TINY)
    ).table
    assert table["Net result"].tolist() == sorted(table["Net result"])
    natural = table.index[table["Outcome"] == "Natural paid"][0]
    assert table["Net result"][natural - 1] <= 1.2 <= table["Net result"][natural + 1]
