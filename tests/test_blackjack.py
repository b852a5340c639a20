"""Exact blackjack engine: dealer probabilities by brute force, player EVs against the slow
reference (tests/naive_blackjack.py), published standard values, c21 hand-worked cases and
bad inputs."""

import itertools

import naive_blackjack as nb
import pytest
from helpers import RESPLIT_SHOE, TINY, naive_rules, simple_chart, split_eights_chart

from gamecore import blackjack as bj
from gamecore.errors import GamecoreError

# --- dealer ----------------------------------------------------------------------------


@pytest.mark.parametrize("h17", [False, True])
def test_dealer_distribution_matches_brute_force_permutations(h17):
    """Every ordering of a tiny shoe, the dealer drawing from the top: exact frequencies."""
    shoe = [0, 0, 1, 4, 5, 6, 9, 9]  # ranks A, A, 2, 5, 6, 7, 10, 10
    rules = bj.StandardBlackjackRules(dealer_hits_soft_17=h17)
    for up in set(shoe):
        rest = list(shoe)
        rest.remove(up)
        counts = {}
        perms = list(itertools.permutations(rest))
        for perm in perms:
            cards = [up + 1]
            for c in perm:
                cards.append(c + 1)
                t, soft = nb.total(cards)
                if len(cards) == 2 and t == 21:
                    key = "natural"
                    break
                if t < 17 or (h17 and t == 17 and soft):
                    continue
                key = str(t) if t <= 21 else f"bust {t}"
                break
            else:
                raise AssertionError("the shoe ran out")
            counts[key] = counts.get(key, 0) + 1
        composition = [rest.count(r) for r in range(10)]
        engine = bj.dealer_final_distribution(rules, up + 1, composition)
        for key, value in engine.items():
            assert value == pytest.approx(counts.get(key, 0) / len(perms), abs=1e-12), (up, key)


def test_dealer_distribution_matches_the_naive_recursion_on_a_deck():
    rules = bj.StandardBlackjackRules(decks=1, dealer_hits_soft_17=True)
    shoe = list(bj.shoe_composition(1))
    shoe[5] -= 1  # up card 6
    engine = bj.dealer_final_distribution(rules, 6, shoe)
    naive = nb.dealer_distribution(tuple(shoe), 6, True)
    for key, value in naive.items():
        label = "natural" if key == "natural" else (str(key) if key <= 21 else f"bust {key}")
        assert engine[label] == pytest.approx(value, abs=1e-13)
    assert engine.sum() == pytest.approx(1.0)


# --- player EVs against the slow reference ---------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        bj.StandardBlackjackRules(max_split_hands=1),
        bj.StandardBlackjackRules(max_split_hands=1, dealer_hits_soft_17=True, surrender="late"),
        bj.StandardBlackjackRules(max_split_hands=1, peek=False, double_on="10_11"),
        bj.C21BlackjackRules(max_split_hands=1),
    ],
    ids=["s17", "h17_late", "no_peek", "c21"],
)
def test_optimal_play_without_splits_matches_the_reference(rules):
    analysis = bj.exact(rules, composition=list(TINY))
    assert analysis.player_ev == pytest.approx(nb.optimal_ev(TINY, naive_rules(rules)), abs=1e-12)


@pytest.mark.parametrize(
    "rules",
    [
        bj.StandardBlackjackRules(max_split_hands=1, double_soft=False),
        bj.StandardBlackjackRules(max_split_hands=1, double_after_hit=True),
        bj.StandardBlackjackRules(max_split_hands=2, double_after_hit=True, double_on="9_11"),
        bj.C21BlackjackRules(max_split_hands=2, double_after_hit=True, double_soft=False),
    ],
    ids=["no_soft_doubles", "double_after_hit", "dah_9_11_split", "c21_dah_no_soft"],
)
def test_farmers_doubling_rules_match_the_reference(rules):
    # Farmer's analyzer has both: no doubling on soft hands, and doubling after hitting.
    analysis = bj.exact(rules, composition=list(TINY))
    assert analysis.player_ev == pytest.approx(nb.optimal_ev(TINY, naive_rules(rules)), abs=1e-12)


def test_doubling_after_hitting_is_played_by_a_chart_as_the_reference_plays_it():
    rules = bj.StandardBlackjackRules(max_split_hands=2, double_after_hit=True)
    cells = dict(simple_chart().cells)
    for up in bj.CHART_UP_CARDS:
        cells[("hard 9", up)] = "D"  # 2,3,4 doubles at three cards now
        cells[("hard 11", up)] = "D"
        cells[("soft 18", up)] = "Ds"
    chart = bj.StrategyChart(cells, "doubles after hits")
    analysis = bj.exact(rules, chart, composition=list(TINY), search_chart=False)
    naive = nb.chart_ev(TINY, naive_rules(rules), chart.cells)
    assert analysis.strategy_ev == pytest.approx(naive, abs=1e-12)
    # Soft doubles barred: the chart's Ds on soft 18 stands instead, as the reference does.
    no_soft = rules.replace(double_soft=False)
    analysis = bj.exact(no_soft, chart, composition=list(TINY), search_chart=False)
    naive = nb.chart_ev(TINY, naive_rules(no_soft), chart.cells)
    assert analysis.strategy_ev == pytest.approx(naive, abs=1e-12)


def test_cdz_split_to_two_hands_matches_the_reference():
    rules = bj.StandardBlackjackRules(max_split_hands=2, double_after_split=True)
    analysis = bj.exact(rules, composition=list(TINY))
    assert analysis.player_ev == pytest.approx(nb.optimal_ev(TINY, naive_rules(rules)), abs=1e-12)


def test_chart_ev_without_resplits_matches_the_reference_exactly():
    rules = bj.C21BlackjackRules(decks=2)  # double deck: two hands at most
    chart = simple_chart()
    analysis = bj.exact(rules, chart, composition=list(TINY))
    naive = nb.chart_ev(TINY, naive_rules(rules), chart.cells)
    assert analysis.strategy_ev == pytest.approx(naive, abs=1e-12)


# Resplits to four hands: the chart's EV against the mean of the reference's distribution,
# in test_blackjack_results (the reference plays RESPLIT_SHOE to four hands once there).
def test_chart_resplits_to_three_hands_match_the_reference():
    rules = bj.StandardBlackjackRules(max_split_hands=3)
    chart = split_eights_chart()
    naive = nb.chart_ev(RESPLIT_SHOE, naive_rules(rules), chart.cells)
    analysis = bj.exact(rules, chart, composition=list(RESPLIT_SHOE), search_chart=False)
    assert analysis.strategy_ev == pytest.approx(naive, abs=1e-12)


def test_a_pair_at_the_hand_limit_plays_its_pair_row_as_the_reference_does():
    rules = bj.StandardBlackjackRules(max_split_hands=3)
    cells = dict(split_eights_chart().cells)
    for up in bj.CHART_UP_CARDS:
        cells[("pair 8", up)], cells[("hard 16", up)] = "PS", "H"
    chart = bj.StrategyChart(cells, "Ps 8s")
    naive = nb.chart_ev(RESPLIT_SHOE, naive_rules(rules), chart.cells)
    analysis = bj.exact(rules, chart, composition=list(RESPLIT_SHOE), search_chart=False)
    assert analysis.strategy_ev == pytest.approx(naive, abs=1e-12)


# Small shoes no round runs dry in, where optimal play resplits to three hands (in 4% and 8%
# of rounds) and the reference takes seconds (RESPLIT_SHOE, played by a chart above and in
# the result distribution's tests, takes it half a minute).
RESPLIT_SMALL_SHOES = [(1, 0, 0, 2, 0, 3, 0, 2, 1, 7), (1, 1, 0, 0, 0, 3, 1, 0, 1, 8)]


def _optimal_ev_matches_the_reference(rules, shoe):
    analysis = bj.exact(rules, composition=list(shoe), search_chart=False)
    naive = nb.optimal_ev(shoe, naive_rules(rules))
    assert analysis.player_ev == pytest.approx(naive, abs=1e-12)


@pytest.mark.parametrize("strategy", ["cdz", "cdp1"])
@pytest.mark.parametrize("shoe", RESPLIT_SMALL_SHOES)
def test_resplits_to_three_hands_match_the_reference(strategy, shoe):
    # (CDZ- resplits to four hands agree as well, to 1e-16, but the reference takes minutes.)
    rules = bj.StandardBlackjackRules(max_split_hands=3, split_strategy=strategy)
    _optimal_ev_matches_the_reference(rules, shoe)
    resplit = bj.results.result_distribution(rules, composition=list(shoe)).resplit_share
    assert resplit > 0.02  # the shoe is played to three hands


@pytest.mark.parametrize("strategy", ["cdp1", "cdp"])
def test_post_split_strategies_to_two_hands_match_the_reference(strategy):
    # Without resplits CDP and CDP1 are one strategy: a split hand plays best for its cards
    # with the other hand's pair card out of the shoe (the reference plays it in the real
    # order, every decision from that shoe).
    rules = bj.StandardBlackjackRules(max_split_hands=2, split_strategy=strategy)
    analysis = bj.exact(rules, composition=list(TINY), search_chart=False)
    naive = nb.optimal_ev(TINY, naive_rules(rules))
    assert analysis.player_ev == pytest.approx(naive, abs=1e-12)
    cdz = bj.exact(rules.replace(split_strategy="cdz"), composition=list(TINY))
    assert analysis.player_ev >= cdz.player_ev - 1e-15  # best for the split hand can only help


# Three eights and six tens (and a 2, two 9s): in the shoe CDP1 decides split tens by (one
# pair card out) a 10,2 against an 8 hits or doubles to the same value, exactly, which the
# float recursions put 1e-17 apart either way; the choice is then played where a second
# ten is out too, and there doubling is better. Broken by float noise, the EV was 1.1e-3
# off; the first of S H D R on a tie (rules.TIE) is the reference's and Farmer's play.
TIE_SHOES = [(0, 1, 0, 0, 0, 0, 0, 3, 2, 6), (0, 1, 0, 0, 0, 0, 0, 4, 1, 6)]


@pytest.mark.parametrize("shoe", TIE_SHOES)
def test_cdp1_plays_a_tie_in_its_reference_shoe_as_the_reference_does(shoe):
    rules = bj.StandardBlackjackRules(max_split_hands=3, split_strategy="cdp1")
    _optimal_ev_matches_the_reference(rules, shoe)


def test_a_tie_is_played_as_the_first_action_and_cdp1_is_farmers_there():
    import numpy as np

    rules = bj.StandardBlackjackRules(max_split_hands=3, split_strategy="cdp1")
    engine = bj.engine.Engine(rules, np.array(TIE_SHOES[0]))
    ten_two = engine.node_index[(0, 1, 0, 0, 0, 0, 0, 0, 0, 1)]
    one_ten_out = engine.solve(9, 0)  # split tens, the other hand's ten out
    hit, double = one_ten_out.ev[ten_two, 7, [bj.rules.HIT, bj.rules.DOUBLE]]
    assert hit == pytest.approx(double, abs=1e-15)  # a tie (both 0 exactly)
    assert one_ten_out.action[ten_two, 7] == bj.rules.HIT
    # Eric Farmer's CA v7.6 on this shoe (BJShoe of these cards, S17, DAS, getResplit 3 and
    # 2 for aces, BJStrategy(false, true): CDP1), built from ../shared/reference/farmer-ca.
    analysis = bj.exact(rules, composition=list(TIE_SHOES[0]), search_chart=False)
    assert analysis.player_ev == pytest.approx(0.0876443001443001635, abs=1e-15)


def test_best_action_takes_the_first_of_tied_actions_in_action_order():
    best = bj.rules.best_action
    assert best({"S": 0.1, "H": 0.1 + 1e-17, "D": float("nan")}) == "S"
    assert best({"H": 0.0, "D": 5.55e-17}) == "H"
    assert best({"S": -0.5, "H": 0.0, "D": 2e-12}) == "D"  # apart by more than a tie
    assert best({"P": 0.3, "S": 0.3}) == "S"  # the order of S H D R P, not of the dict


@pytest.mark.parametrize(
    "rules, shoe",
    [
        (bj.StandardBlackjackRules(decks=1, surrender="late"), None),
        (bj.C21BlackjackRules(decks=2), None),
        (bj.StandardBlackjackRules(max_split_hands=3), TIE_SHOES[0]),
    ],
)
def test_every_hand_a_solve_plays_takes_rules_best_action_of_its_values(rules, shoe):
    """The solver's choice at each hand and up card is ``rules.best_action`` of the values
    it ranks by (NaN: not allowed): the hand's own (the unsplit hands), or among the actions
    allowed at a split hand the same cards' unsplit values (CDZ-), the first allowed action
    where none of those is defined. The tie rule in one place, on a shoe with exact ties."""
    import numpy as np

    engine = bj.engine.Engine(rules, None if shoe is None else np.array(shoe))
    unsplit = engine.solve()
    actions = bj.rules.ACTIONS[:4]
    contexts = [((-1, 0), bj.backward.POLICY_OPTIMAL, None)]
    contexts += [((p, 0), bj.backward.POLICY_REFERENCE, unsplit.ev) for p in engine.split_extras]
    checked = 0
    for key, policy, reference in contexts:
        solved = engine.solve(*key, policy, reference)
        ranked_by = solved.ev if reference is None else reference
        for i, up in zip(*np.nonzero(solved.action >= 0), strict=True):
            allowed = [a for a, v in zip(actions, solved.ev[i, up], strict=True) if v == v]
            ranks = dict(zip(actions, ranked_by[i, up], strict=True))
            values = {a: ranks[a] for a in allowed if ranks[a] == ranks[a]}
            expected = bj.rules.best_action(values) if values else allowed[0]
            assert actions[solved.action[i, up]] == expected, (key, i, up)
            checked += 1
    assert checked >= 100  # the 21-card shoe has about a hundred such choices


def test_post_split_strategies_are_farmers_on_one_deck():
    # Eric Farmer's CA v7.6 (../shared/reference/farmer-ca, built with g++ and run with
    # BJStrategy(useCDZ, useCDP1) = (true, -), (false, true), (false, false)): one deck, S17,
    # double any two, DAS, split to four hands, no resplit of aces, no surrender, 3:2.
    farmer = {"cdz": 0.0018193430614842354, "cdp1": 0.0018307333920158306,
              "cdp": 0.0018311174418804282}  # fmt: skip
    split = {}
    for strategy, ev in farmer.items():
        rules = bj.StandardBlackjackRules(decks=1, split_strategy=strategy)
        analysis = bj.exact(rules, search_chart=False)
        assert analysis.player_ev == pytest.approx(ev, abs=1e-15), strategy
        pairs = analysis.hands[analysis.hands["pair"]]
        split[strategy] = pairs.set_index(["a", "up"])["ev_P"]
    # The three play some split hands differently (the split EV's identities weigh the
    # contexts with signed coefficients, so a context-wise better play need not raise every
    # split's value: only the EVs above are pinned).
    assert (split["cdp"] != split["cdp1"]).any() and (split["cdp1"] != split["cdz"]).any()


def test_a_strategy_that_is_not_one_of_farmers_is_refused():
    with pytest.raises(GamecoreError, match="split_strategy"):
        bj.StandardBlackjackRules(split_strategy="cdp2")


# --- published values --------------------------------------------------------------------


def test_one_deck_s17_no_das_one_split_is_farmers_plus_0_0243_percent():
    # Eric Farmer's CA (github.com/possibly-wrong/blackjack; the figure the issue quotes,
    # also on the Wizard of Odds' house-edge calculator page): one deck, S17, double any
    # two, no double after split, no resplit, 3:2, CDZ- post-split play: +0.0243%.
    rules = bj.StandardBlackjackRules(decks=1, double_after_split=False, max_split_hands=2)
    assert bj.exact(rules).player_ev * 100 == pytest.approx(0.0243, abs=5e-5)


@pytest.mark.parametrize("das, published", [(True, -0.0072705), (False, -0.0086975)])
def test_six_decks_h17_no_hole_card_matches_the_wizard_of_odds(das, published):
    # Wizard of Odds, "Blackjack Appendix 9 - Six deck, dealer hits on soft 17, no hole
    # card" (wizardofodds.com/games/blackjack/appendix/9/euro-6dh17r4/): resplit to four
    # hands except aces, no drawing to split aces, the player loses everything to a dealer
    # blackjack. "Expected return of game: Player may double after split: -0.0072705.
    # Player may not double after split: -0.0086975." Their split values "only considered
    # how many hands the player had already split, but not the other cards drawn in those
    # hands", a post-split convention a little different from CDZ-: agreement to 2e-6.
    rules = bj.StandardBlackjackRules(
        decks=6, dealer_hits_soft_17=True, peek=False, double_after_split=das
    )
    assert bj.exact(rules, search_chart=False).player_ev == pytest.approx(published, abs=2.5e-6)


def test_six_decks_h17_das_split_to_four_is_about_minus_0_615_percent():
    # Six decks, H17, DAS, split to four hands (no resplit aces), 3:2, no surrender:
    # -0.615% (Farmer's CA, CDZ-; Wizard of Odds' house-edge calculator gives 0.62% edge).
    rules = bj.StandardBlackjackRules(decks=6, dealer_hits_soft_17=True)
    assert bj.exact(rules).player_ev * 100 == pytest.approx(-0.615, abs=5e-4)


def test_insurance_off_the_top_of_one_deck():
    a = bj.exact(bj.StandardBlackjackRules(decks=1, max_split_hands=1))
    assert a.insurance_ev == pytest.approx(2 * 16 / 51 - 35 / 51)


# --- c21 cases worked by hand ---------------------------------------------------------------


def c21(**changes):
    return naive_rules(bj.C21BlackjackRules(**changes))


def test_three_card_24_pushes_a_dealer_26_and_loses_to_a_dealer_23():
    rules = c21()
    hand = {"cards": [10, 4, 10], "split": False}
    assert nb.settle(hand, 26, rules) == 0.0
    assert nb.settle(hand, 23, rules) == -1.0
    assert nb.settle(hand, 24, rules) == -1.0  # equally far from 21.5: the P/D wins
    assert nb.settle({"cards": [10, 2, 2, 10], "split": False}, 26, rules) == -1.0  # 4 cards


def test_bust_push_in_the_engine_matches_the_reference_and_saves_busted_hands():
    """A chart that hits every hard 16 or less busts three-card hands the dealer may bust
    beyond: the engine's chart EV under the c21 bust push equals the slow reference's, and
    exceeds the same game without the push (each saved hand is a loss turned into a push)."""
    chart = simple_chart()
    with_push = bj.StandardBlackjackRules(max_split_hands=1, bust_push="three_card_23_25")
    without = with_push.replace(bust_push="none")
    ev_push = bj.exact(with_push, chart, composition=list(TINY), search_chart=False).strategy_ev
    ev_none = bj.exact(without, chart, composition=list(TINY), search_chart=False).strategy_ev
    assert ev_push == pytest.approx(
        nb.chart_ev(TINY, naive_rules(with_push), chart.cells), abs=1e-12
    )
    assert ev_none == pytest.approx(nb.chart_ev(TINY, naive_rules(without), chart.cells), abs=1e-12)
    assert ev_push > ev_none + 1e-6


def test_natural_against_natural_pushes_and_six_to_five_and_even_money():
    rules = c21()
    natural = {"cards": [1, 10], "split": False}
    assert nb.settle(natural, "natural", rules) == 0.0
    assert nb.settle(natural, 21, rules) == pytest.approx(1.2)
    assert bj.C21BlackjackRules(decks=2).resolved().natural_pays == 1.0
    # The resolved rule set is still the c21 game, under its own name, with nothing left auto.
    resolved = bj.C21BlackjackRules(decks=2).resolved()
    assert resolved.game == "c21_blackjack" and resolved.resolved() == resolved
    assert bj.C21BlackjackRules(decks=2).resolved().max_split_hands == 2
    assert bj.C21BlackjackRules(decks=6).resolved().natural_pays == 1.2
    assert nb.settle({"cards": [1, 10], "split": True}, 20, rules) == 1.0  # not after a split


def test_c21_six_to_five_costs_what_the_payout_says():
    """The EV change from 3:2 to 6:5 is 0.3 x P(player Natural, no dealer Natural)."""
    rules = bj.C21BlackjackRules(decks=6)
    a = bj.exact(rules)
    b = bj.exact(rules.replace(natural_pays=1.5))
    hands = a.hands[a.hands["natural"]]
    p = float(
        (hands["probability"] * hands["up_probability"] * (1 - hands["dealer_natural"])).sum()
    )
    assert b.player_ev - a.player_ev == pytest.approx(0.3 * p, rel=1e-9)


def test_surrender_after_hits_only_against_two_to_nine():
    rules = c21()
    assert nb.can_surrender_late(rules, [2, 3, 4], False, 6)
    assert not nb.can_surrender_late(rules, [2, 3, 4], False, 10)
    assert not nb.can_surrender_late(rules, [2, 3, 4], False, 1)
    assert not nb.can_surrender_late(rules, [2, 3], True, 6)  # not on a split hand
    a = bj.exact(bj.C21BlackjackRules())
    hands = a.hands
    assert (hands[hands["up_card"] == "A"]["ev_R"].dropna() == -0.5).all()  # early


def test_to_dict_keys():
    d = bj.exact(bj.C21BlackjackRules(decks=2), simple_chart()).to_dict()
    for key in (
        "player_ev",
        "player_ev_total_dependent",
        "pd_edge",
        "strategy_chart",
        "strategy_ev",
    ):
        assert key in d
    cell = d["strategy_chart"][0]
    assert set(cell) >= {"hand", "up_card", "best", "ev"}
    # The overall EV and the EVs by up card are computed apart: they must agree.
    ups = d["up_cards"].values()
    assert sum(u["probability"] for u in ups) == pytest.approx(1.0, abs=1e-12)
    assert sum(u["probability"] * u["player_ev"] for u in ups) == pytest.approx(
        d["player_ev"], abs=1e-12
    )


def test_chart_round_trip(tmp_path):
    chart = bj.exact(bj.C21BlackjackRules(decks=2)).chart
    path = tmp_path / "chart.csv"
    chart.to_csv(path)
    assert bj.read_strategy_chart(path).cells == chart.cells


def test_split_patterns_two_hands_is_one_pattern():
    assert bj.split_patterns(2) == (((), 0, 0, 2),)
    assert len(bj.split_patterns(4)) == 8


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: bj.C21BlackjackRules(decks=0), "decks"),
        (lambda: bj.StandardBlackjackRules(max_split_hands=5), "max_split_hands"),
        (lambda: bj.StandardBlackjackRules(surrender="sometimes"), "surrender"),
        (lambda: bj.StandardBlackjackRules(peek=1), "peek"),
        (lambda: bj.StandardBlackjackRules(natural_pays=-1), "natural_pays"),
        (lambda: bj.C21BlackjackRules.create(colour="red"), "colour"),
        (lambda: bj.dealer_final_distribution(bj.C21BlackjackRules(), "Z"), "up_card"),
        (lambda: bj.exact("c21"), "rules"),
        (lambda: bj.exact(bj.C21BlackjackRules(), composition=[1] * 9), "composition"),
        (lambda: bj.read_strategy_chart("/nonexistent/chart.csv"), "not found"),
        (lambda: bj.read_strategy_chart("hand,2\nhard 4,H\n"), "header"),
    ],
)
def test_bad_inputs_raise_gamecore_errors(make, message):
    with pytest.raises(GamecoreError, match=message):
        make()


def test_chart_forbidden_by_forced_totals_is_refused():
    cells = dict(simple_chart().cells)
    cells[("soft 17", "6")] = "Ds"  # c21: soft 17 must be hit when it cannot be doubled
    with pytest.raises(GamecoreError, match="soft 17"):
        bj.exact(bj.C21BlackjackRules(decks=2), bj.StrategyChart(cells, "bad"))


def test_rules_from_strings():
    rules = bj.C21BlackjackRules.from_strings(
        {"natural_pays": "1.5", "max_split_hands": "3", "decks": "2"}
    )
    assert rules.resolved().natural_pays == 1.5
    assert rules.resolved().max_split_hands == 3


def test_rule_costs_are_differences_of_exact_analyses():
    rules = bj.C21BlackjackRules(decks=2)
    costs = bj.rule_costs(rules).set_index("Variant")
    base = bj.exact(rules).player_ev
    assert costs.loc["as given", "Player EV"] == base
    # Every variant's row is its own exact analysis minus the base.
    h17 = bj.exact(rules.replace(dealer_hits_soft_17=False)).player_ev
    assert costs.loc["dealer stands soft 17", "EV change"] == pytest.approx(h17 - base, abs=1e-15)
    # Double deck already pays even money on two hands: that variant changes nothing and is
    # left out; 3:2 is worth 0.5 x P(player Natural, no dealer Natural) more than even money.
    assert "double-deck rules (even money, two hands)" not in costs.index
    a = bj.exact(rules)
    naturals = a.hands[a.hands["natural"]]
    p = float(
        (
            naturals["probability"] * naturals["up_probability"] * (1 - naturals["dealer_natural"])
        ).sum()
    )
    assert costs.loc["Natural pays 3:2", "EV change"] == pytest.approx(0.5 * p, rel=1e-9)
    six = bj.rule_costs(bj.C21BlackjackRules(decks=1)).set_index("Variant")
    assert "double-deck rules (even money, two hands)" in six.index


def test_deck_sweep_follows_the_double_deck_switch():
    sweep = bj.deck_sweep(bj.C21BlackjackRules(), decks=(1, 2)).set_index("Decks")
    assert sweep.loc[1, "Natural pays"] == 1.2 and sweep.loc[1, "Max split hands"] == 4
    assert sweep.loc[2, "Natural pays"] == 1.0 and sweep.loc[2, "Max split hands"] == 2
    assert sweep.loc[2, "Player EV (optimal)"] == bj.exact(bj.C21BlackjackRules(decks=2)).player_ev
    assert (sweep["P/D edge"] == -sweep["Player EV (optimal)"]).all()


def test_chart_search_never_worse_and_scored_by_a_fresh_analysis():
    rules = bj.C21BlackjackRules(decks=2)
    analysis = bj.exact(rules)
    assert analysis.chart_ev >= analysis.derived_chart_ev
    # Its EV is the searched chart's exact EV as an independent chart evaluation scores it.
    given = bj.exact(rules, strategy=analysis.chart, search_chart=False)
    assert given.strategy_ev == pytest.approx(analysis.chart_ev, abs=1e-15)
    assert given.derived_chart_ev == analysis.derived_chart_ev
    # Soft 17 against a 2: the two-card hands hit, but doubling the cell's hands gains.
    change = analysis.chart_changes.set_index(["Hand", "Up card"]).loc[("soft 17", "2")]
    assert (change["From"], change["To"]) == ("H", "Dh")
    assert change["EV gain"] > 0
    assert analysis.chart_ev - analysis.derived_chart_ev == pytest.approx(
        analysis.chart_changes["EV gain"].sum(), rel=1e-9
    )


def test_derived_fallbacks_are_what_the_search_finds_for_multi_card_hands():
    """A surrender or double cell's fallback is played after a hit, so the derived chart takes
    it from the three-card hands. Against a 10 the c21 player may surrender only before the
    check, on two cards: a chart whose fallback came from the two-card hands (hit) is changed
    by the search to stand, which is what the three-card hands say at once."""
    from gamecore.blackjack import hand_table as ht
    from gamecore.blackjack import search as bs

    rules = bj.C21BlackjackRules(decks=2)
    engine = bj.engine.Engine(rules)
    solved, split = engine.solve_optimal()
    hands = ht.hand_table(engine, solved, split)
    two_card_only = bj.derive_chart(hands, engine.rules)
    assert two_card_only.cells[("hard 16", "10")] == "RH"
    search = bs.optimize_chart(rules, two_card_only, engine=engine)
    changes = search.changes.set_index(["Hand", "Up card"])
    assert tuple(changes.loc[("hard 16", "10"), ["From", "To"]]) == ("Rh", "Rs")
    derived = bj.exact(rules).derived_chart
    assert derived.cells[("hard 16", "10")] == "RS"
    assert derived.cells == {**two_card_only.cells, ("hard 16", "10"): "RS"}
    assert bj.exact(rules).chart.cells == search.chart.cells  # the same chart found


def test_three_card_values_match_the_reference_on_a_tiny_shoe():
    """The derived chart's fallback evidence, from the slow reference: each row's stand and
    hit values over the three-card hands reached by hitting the two-card hands optimal play
    hits, weighted by their chance (the third card from the cards unseen; the round goes on
    without a dealer Natural)."""
    import numpy as np

    from gamecore.blackjack import hand_table as ht

    rules = bj.StandardBlackjackRules(decks=1)
    engine = bj.engine.Engine(rules, np.array(TINY))
    solved, split = engine.solve_optimal()
    hands = ht.hand_table(engine, solved, split)
    found = ht.three_card_values(engine, solved, hands)
    sums: dict = {}
    for hand in hands[(hands["best"] == "H") & ~hands["natural"]].itertuples():
        up, two = hand.up + 1, [hand.a + 1, hand.b + 1]
        unseen = list(TINY)
        unseen[up - 1] -= 1
        a, b, n = unseen[two[0] - 1], unseen[two[1] - 1], sum(unseen)
        dealt = (2 * a * b if two[0] != two[1] else a * (a - 1)) / (n * (n - 1))
        for card in two:
            unseen[card - 1] -= 1
        for card in range(1, 11):
            if not unseen[card - 1]:
                continue
            three = [*two, card]
            total, soft = nb.total(three)
            if total > 21:
                continue
            rest = nb.remove(tuple(unseen), card)
            hole = {1: 10, 10: 1}.get(up)
            live = 1.0 - (rest[hole - 1] / sum(rest) if hole else 0.0)
            weight = dealt * unseen[card - 1] / sum(unseen)
            values = nb.action_values(three, rest, up, naive_rules(rules))
            key = (f"{'soft' if soft else 'hard'} {total}", bj.chart.up_label(up - 1))
            row = sums.setdefault(key, [0.0, 0.0, 0.0])
            row[0] += weight
            row[1] += weight * live * values["S"]
            row[2] += weight * live * values["H"]
    assert set(found) == set(sums)
    for key, (weight, stand, hit) in sums.items():
        assert found[key]["S"] == pytest.approx(stand / weight, abs=1e-12), key
        assert found[key]["H"] == pytest.approx(hit / weight, abs=1e-12), key


@pytest.mark.parametrize(
    "rules, up",
    [
        (bj.C21BlackjackRules(decks=1), 9),
        (bj.C21BlackjackRules(decks=1), 5),
        (bj.StandardBlackjackRules(decks=1, dealer_hits_soft_17=True, surrender="late"), 0),
    ],
)
def test_priced_cell_changes_equal_the_exact_ev_change(rules, up):
    """The search prices every single-cell change from one pass; each price must be the EV
    change an independent exact evaluation of the changed chart finds."""
    from gamecore.blackjack import pricing
    from gamecore.blackjack import search as bs

    chart = bj.exact(rules, search_chart=False).chart
    engine = bj.engine.Engine(rules)
    state = pricing.evaluate_up(engine, chart, up)
    before = bj.exact(rules, strategy=chart, search_chart=False).strategy_up_card_ev.iloc[up]
    label = bj.chart.up_label(up)
    priced = [
        (gain, row, letter)
        for gain, row, letter in bs.price_changes(engine, state, bs.search_rows(rules))
        if bs.letter_allowed(engine.rules, row, letter) and chart.cells[(row, label)] != letter
    ]
    # The largest changes either way, and a few pair rows (splitting or not).
    priced.sort()
    sample = priced[:4] + priced[-6:] + [c for c in priced if c[1].startswith("pair")][:4]
    checked = 0
    for gain, row, letter in sample:
        trial = bj.StrategyChart({**chart.cells, (row, label): letter}, "trial")
        try:
            after = bj.exact(rules, strategy=trial, search_chart=False).strategy_up_card_ev
        except bj.GamecoreError:  # a fallback the forced ranges forbid on some hand
            continue
        assert after.iloc[up] - before == pytest.approx(gain, abs=1e-13), (row, letter)
        checked += 1
    assert checked >= 8


def test_searched_chart_is_a_local_optimum_and_its_cells_agree():
    from gamecore.blackjack import pricing
    from gamecore.blackjack import search as bs

    rules = bj.C21BlackjackRules(decks=1)
    analysis = bj.exact(rules)
    engine = bj.engine.Engine(rules)
    for up in range(10):
        state = pricing.evaluate_up(engine, analysis.chart, up)
        gains = [
            g
            for g, row, letter in bs.price_changes(engine, state, bs.search_rows(rules))
            if bs.letter_allowed(engine.rules, row, letter)
        ]
        assert max(gains) <= bs.TOLERANCE
    for cell in analysis.strategy_chart():
        assert cell["hands_per_round"] > 0
        if not cell["hand"].startswith("pair"):
            # The chart's action is the best of the cell's actions, all hands of it counted.
            assert cell["ev"][cell["best"]] == pytest.approx(max(cell["ev"].values()), abs=1e-12)
    # Forced ranges: a c21 player never stands on soft 17 nor hits 20.
    cells = {(c["hand"], c["up_card"]): c for c in analysis.strategy_chart()}
    assert "S" not in cells[("soft 17", "7")]["ev"] and "H" not in cells[("hard 20", "7")]["ev"]


def test_dealer_distribution_after_the_peek():
    rules = bj.StandardBlackjackRules(decks=1)
    before = bj.dealer_final_distribution(rules, "A")
    after = bj.dealer_final_distribution(rules, "A", after_peek=True)
    assert after["natural"] == 0 and after.sum() == pytest.approx(1.0, abs=1e-15)
    assert after["20"] == pytest.approx(before["20"] / (1 - 16 / 51), rel=1e-12)
    # No peek under a 7: the same distribution either way.
    assert (
        bj.dealer_final_distribution(rules, 7, after_peek=True)
        == bj.dealer_final_distribution(rules, 7)
    ).all()


def test_composition_dependent_exceptions_of_the_single_deck_game():
    # Single deck, S17, no DAS, one split: the classic departures from total-dependent basic
    # strategy (Griffin, "The Theory of Blackjack"; Wizard of Odds, single-deck exceptions):
    # hit 10,2 against 4; stand on a three-card 16 (4,5,7) against 10.
    analysis = bj.exact(
        bj.StandardBlackjackRules(decks=1, double_after_split=False, max_split_hands=2)
    )
    rows = analysis.exceptions.set_index(["Cards", "Up card", "When"])
    assert tuple(rows.loc[("2,10", "4", "two cards"), ["Chart", "Best"]]) == ("S", "H")
    assert tuple(rows.loc[("4,5,7", "10", "three cards"), ["Chart", "Best"]]) == ("H", "S")
    assert (analysis.exceptions["Gain"] > 0).all()
    assert (analysis.exceptions["Probability"] > 0).all()
    listed = analysis.to_dict()["composition_dependent_exceptions"]
    assert len(listed) == len(rows) and {"cards", "best", "ev_best"} <= set(listed[0])


def _hands_up_to_hard_21(holding: int = -1) -> list[tuple[int, ...]]:
    """Every composition of two or more cards (per rank, A..10) with hard total 21 or less,
    holding at least one card of rank ``holding`` (-1: any), by plain enumeration."""
    found = []

    def grow(counts: list[int], low: int, hard: int) -> None:
        if sum(counts) >= 2 and (holding < 0 or counts[holding] > 0):
            found.append(tuple(counts))
        for r in range(low, 10):
            if hard + r + 1 <= 21:
                counts[r] += 1
                grow(counts, r, hard + r + 1)
                counts[r] -= 1

    grow([0] * 10, 0, 0)
    return found


def test_an_engines_size_counts_the_hands_and_dealer_rows_it_computes():
    """Standard rules at 6 decks (no rank runs short): every hand of hard 21 or less is
    played, unsplit and in each split context of a rank holding its split card (split Aces
    take one card: the ten two-card hands); each distinct set of cards taken from the shoe,
    a hand's own and a split context's further pair cards (one more than the context's
    count: the pair's other card), is one dealer row. Counted here by enumeration."""
    rules = bj.StandardBlackjackRules(decks=6)
    engine = bj.engine.Engine(rules)
    size = engine.size()
    keys = list(engine.rows)
    assert size["contexts"] == len(keys) == 1 + 1 + 9 * 5  # unsplit, Aces once, 0..4 extra
    played, removed = 0, set()
    for rank, extra in keys:
        if rank == bj.ACE:
            hands = [h for h in _hands_up_to_hard_21(bj.ACE) if sum(h) == 2]
        else:
            hands = _hands_up_to_hard_21(rank)
        played += len(hands)
        for hand in hands:
            taken = list(hand)
            if rank >= 0:
                taken[rank] += 1 + extra
            removed.add(tuple(taken))
    assert size["hands_played"] == played
    assert size["dealer_rows"] == len(removed)
