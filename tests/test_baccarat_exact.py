"""The exact baccarat engine against independent values: the slow pure-Python oracle in
tests/naive_baccarat.py (written from the rules, not from the kernel), brute-force
enumeration of tiny shoes card by card, hand-worked shoes, and published figures with
their sources (tests/published_values.py)."""

import math
from fractions import Fraction

import naive_baccarat as naive
import numpy as np
import pytest
from published_values import (
    EXACT_6_DECKS,
    EXACT_8_DECKS,
    EZ_8_DECKS,
    HOUSE_EDGE_BY_DECKS,
    HOUSE_EDGE_VARIANTS,
    WOO_COMBINATIONS,
    matches,
)

from gamecore import baccarat
from gamecore.baccarat.exact import count_rounds_modulo
from gamecore.errors import GamecoreError
from gamecore.exactcount import CRT_PRIMES, INT64_MAX, DeckPolynomial, exact_counts
from gamecore.shoe import baccarat_shoe


def as_dict(counts: np.ndarray) -> dict[tuple[int, int, int, int], int]:
    """The kernel's array in the oracle's key convention, zero cells dropped."""
    return {
        (i + 2, j + 2, p, b): int(counts[i, j, p, b])
        for i, j, p, b in np.ndindex(*counts.shape)
        if counts[i, j, p, b] != 0
    }


# ---------------------------------------------------------------------------------------
# Against the oracle and brute force
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "composition",
    [
        [16, 4, 4, 4, 4, 4, 4, 4, 4, 4],  # one deck
        [32, 8, 8, 8, 8, 8, 8, 8, 8, 8],  # two decks
        [3, 1, 0, 2, 0, 1, 0, 2, 1, 1],  # a reduced custom shoe
        [128, 31, 32, 30, 29, 32, 32, 25, 32, 30],  # a depleted eight-deck shoe
        [0, 0, 0, 0, 0, 0, 0, 6, 0, 0],  # only sevens
    ],
)
def test_breakdown_equals_oracle(composition):
    assert as_dict(baccarat.count_rounds(composition)) == {
        k: v for k, v in naive.class_breakdown(composition).items() if v
    }


@pytest.mark.parametrize(
    "cards",
    [
        [0, 0, 1, 2, 3, 4, 5, 6, 7, 9],
        [0, 0, 0, 0, 5, 5, 6, 6, 7, 8, 9],
        [1, 1, 2, 2, 3, 3, 4, 4],
    ],
)
def test_breakdown_equals_card_by_card_brute_force(cards):
    composition = [cards.count(v) for v in range(10)]
    assert as_dict(baccarat.count_rounds(composition)) == {
        k: v for k, v in naive.card_by_card_breakdown(cards).items() if v
    }


def test_hand_worked_shoe_of_six_zero_cards():
    # Player 0+0 draws a 0; Banker 0 draws on any third card: both three-card zeros, a tie.
    # Every one of the 6! orderings of the six physical cards gives that round.
    counts = baccarat.count_rounds([6, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    assert as_dict(counts) == {(3, 3, 0, 0): math.factorial(6)}


def test_hand_worked_shoe_of_fours():
    # Four 4s deal Player 8 and Banker 8: two naturals, a tie after four cards. Ten 4s:
    # every ordered six-card sequence is such a round, 10 P 6 of them.
    counts = baccarat.count_rounds([0, 0, 0, 0, 10, 0, 0, 0, 0, 0])
    assert as_dict(counts) == {(2, 2, 8, 8): math.perm(10, 6)}


def test_hand_worked_nines_and_zeros():
    # Three 9s and three 0s. A player or banker holding a 9 has a natural 9; any hand of
    # two zeros draws. Worked in tests/test_naive_reference.py's docstring: 216 Banker
    # wins, 216 Player wins, 288 ties out of 6! = 720.
    analysis = baccarat.exact(
        baccarat.PuntoBancoRules(), composition=[3, 0, 0, 0, 0, 0, 0, 0, 0, 3]
    )
    assert analysis.outcome_counts() == {"banker": 216, "player": 216, "tie": 288, "total": 720}


# ---------------------------------------------------------------------------------------
# Published figures
# ---------------------------------------------------------------------------------------


def test_eight_deck_counts_match_published_exactly(eight_deck_punto_banco, eight_deck_ez):
    counts = eight_deck_punto_banco.outcome_counts()
    for name in ("banker", "player", "tie", "total"):
        assert counts[name] == EXACT_8_DECKS[name]["value"], name
    # The figures the issue quotes (Wizard of Odds, EZ Baccarat page).
    assert counts["banker"] == 2_292_252_566_437_888
    assert counts["player"] == 2_230_518_282_592_256
    assert counts["tie"] == 475_627_426_473_216
    assert eight_deck_ez.outcome_counts()["dragon7"] == 112_633_011_329_024
    assert eight_deck_ez.outcome_counts()["dragon7"] == EZ_8_DECKS["dragon7_combinations"]["value"]
    assert eight_deck_ez.outcome_counts()["panda8"] == EZ_8_DECKS["panda8_combinations"]["value"]


def test_six_deck_counts_match_published_exactly():
    counts = baccarat.exact(baccarat.PuntoBancoRules(decks=6)).outcome_counts()
    for name in ("banker", "player", "tie"):
        assert counts[name] == EXACT_6_DECKS[name]["value"], name


@pytest.mark.parametrize("decks", sorted(WOO_COMBINATIONS))
def test_wizard_of_odds_one_to_twelve_decks(decks):
    # Figures of more than 15 digits are cut by Excel on that page; matches() allows it.
    counts = baccarat.exact(baccarat.PuntoBancoRules(decks=decks)).outcome_counts()
    for name, entry in WOO_COMBINATIONS[decks].items():
        assert matches(counts[name], entry), (decks, name, counts[name], entry["value"])


@pytest.mark.parametrize("decks", sorted(HOUSE_EDGE_BY_DECKS))
def test_published_house_edges_by_decks(decks):
    bets = baccarat.exact(baccarat.PuntoBancoRules(decks=decks)).wagers()
    published = HOUSE_EDGE_BY_DECKS[decks]
    assert matches(float(bets["banker"].house_edge), published["banker"])
    assert matches(float(bets["player"].house_edge), published["player"])
    assert matches(float(bets["tie"].house_edge), published["tie_8_to_1"])


@pytest.mark.parametrize("decks", sorted(HOUSE_EDGE_VARIANTS))
def test_published_rule_variants(decks):
    rules = baccarat.PuntoBancoRules(decks=decks, banker_commission=0.04, tie_pays=9)
    bets = baccarat.exact(rules).wagers()
    published = HOUSE_EDGE_VARIANTS[decks]
    assert matches(float(bets["banker"].house_edge), published["banker_4pct_commission"])
    assert matches(float(bets["tie"].house_edge), published["tie_9_to_1"])


def test_published_ez_baccarat_figures(eight_deck_ez):
    bets = eight_deck_ez.wagers()
    assert matches(float(bets["dragon7"].house_edge), EZ_8_DECKS["dragon7_house_edge"])
    assert matches(float(bets["dragon7"].hit_frequency), EZ_8_DECKS["dragon7_probability"])
    assert matches(float(bets["panda8"].house_edge), EZ_8_DECKS["panda8_house_edge"])
    assert matches(float(bets["banker"].house_edge), EZ_8_DECKS["banker_house_edge"])


# ---------------------------------------------------------------------------------------
# Exactness at any deck count: int64, CRT and the deck polynomial agree
# ---------------------------------------------------------------------------------------


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def test_crt_moduli_are_distinct_primes_below_2_to_31():
    assert len(set(CRT_PRIMES)) == len(CRT_PRIMES)
    assert all(p < 2**31 and _is_prime(p) for p in CRT_PRIMES)


def _kernel_for(shoe):
    return lambda modulus: count_rounds_modulo(
        shoe,
        baccarat.PLAYER_DRAWS,
        baccarat.BANKER_DRAWS_PLAYER_STOOD,
        baccarat.BANKER_DRAWS,
        np.int64(modulus),
    )


def test_crt_path_equals_int64_path_at_eight_decks():
    shoe = baccarat_shoe(8)
    direct = exact_counts(_kernel_for(shoe), bound=math.perm(416, 6))
    forced = exact_counts(_kernel_for(shoe), bound=2**100)  # pretend it might overflow
    assert (direct == forced).all()


@pytest.mark.parametrize("decks", [28, 100, 1000])
def test_beyond_int64_equals_oracle(decks):
    # 28 decks is the first shoe whose N P 6 exceeds int64: the CRT path must take over.
    assert math.perm(52 * decks, 6) > INT64_MAX
    oracle = naive.class_breakdown(naive.shoe_composition(decks))
    assert as_dict(baccarat.count_rounds(baccarat_shoe(decks))) == {
        k: v for k, v in oracle.items() if v
    }


def test_int64_is_used_while_it_cannot_overflow():
    assert math.perm(52 * 27, 6) <= INT64_MAX  # 27 decks still fits


def test_deck_polynomial_reproduces_direct_counts():
    polynomial = DeckPolynomial(lambda n: baccarat.count_rounds(baccarat_shoe(n)))
    for decks in (8, 13, 1000):
        assert (polynomial(decks) == baccarat.count_rounds(baccarat_shoe(decks))).all()


def test_infinite_deck_limit():
    limit = baccarat.infinite_deck(baccarat.EZBaccaratRules())
    assert sum(limit.weights.flat) == 52**6
    # Counts at ten million decks, from the oracle, approach the limit at rate 1/decks.
    decks = 10_000_000
    oracle = naive.outcome_counts(naive.class_breakdown(naive.shoe_composition(decks)))
    for name in ("banker", "player", "tie", "dragon7", "panda8"):
        event = baccarat.OUTCOME_TITLES[name][1]
        gap = limit.probability(event) - Fraction(oracle[name], oracle["total"])
        assert abs(gap) < Fraction(10, decks), name


# ---------------------------------------------------------------------------------------
# Wagers
# ---------------------------------------------------------------------------------------


def test_banker_edge_is_the_exact_ratio(eight_deck_punto_banco):
    c = eight_deck_punto_banco.outcome_counts()
    expected = Fraction(-(Fraction(95, 100) * c["banker"] - c["player"]), c["total"])
    assert eight_deck_punto_banco.wager("banker").house_edge == expected
    ties_out = eight_deck_punto_banco.summary().set_index("Key").loc["banker"]
    assert ties_out["House edge, ties excluded"] == pytest.approx(
        float(expected * c["total"] / (c["total"] - c["tie"])), rel=1e-15
    )


def test_ez_banker_pushes_on_dragon7(eight_deck_ez):
    c = eight_deck_ez.outcome_counts()
    expected = Fraction(c["player"] - (c["banker"] - c["dragon7"]), c["total"])
    assert eight_deck_ez.wager("banker").house_edge == expected


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "dragon7", "panda8"])
def test_wager_tables_partition_every_round(eight_deck_ez, bet):
    analysis = eight_deck_ez.wager(bet)
    table = analysis.table()
    body = table[table["Outcome"] != "Total"]
    assert sum(body["Combinations"]) == eight_deck_ez.total
    assert body["Return"].sum() == pytest.approx(float(analysis.expected_value), abs=1e-15)
    # Variance from its definition over the table rows.
    mean = float(analysis.expected_value)
    variance = sum(
        p * (x - mean) ** 2 for p, x in zip(body["Probability"], body["Pays"], strict=True)
    )
    assert analysis.sd == pytest.approx(math.sqrt(variance), rel=1e-12)


def test_tie_under_both_readings_of_8x(eight_deck_punto_banco):
    c = eight_deck_punto_banco.outcome_counts()
    seven = baccarat.exact(baccarat.PuntoBancoRules(tie_pays=7)).wager("tie").house_edge
    assert seven == Fraction(c["total"] - c["tie"] - 7 * c["tie"], c["total"])


def test_user_defined_side_bet_needs_no_kernel_change(eight_deck_punto_banco):
    from gamecore.wagers import PaytableLine, Wager

    grid = baccarat.GRID
    natural_nine = (grid.banker_cards == 2) & (grid.banker_total == 9) & (grid.player_total < 9)
    bet = Wager(
        "banker_natural_9",
        "Banker wins with a natural 9",
        (
            PaytableLine("Banker natural 9 wins", "bn9", Fraction(10)),
            PaytableLine("Otherwise", "any", Fraction(-1)),
        ),
    )
    analysis = eight_deck_punto_banco.wager(bet, events={"bn9": natural_nine})
    oracle = naive.class_breakdown(naive.shoe_composition(8))
    wins = sum(v for (pn, bn, pt, bt), v in oracle.items() if bn == 2 and bt == 9 and pt < 9)
    assert analysis.combinations[0] == wins


def test_incomplete_paytable_is_refused(eight_deck_punto_banco):
    from gamecore.wagers import PaytableLine, Wager

    bet = Wager("half", "Banker only", (PaytableLine("Banker wins", "banker_wins", Fraction(1)),))
    with pytest.raises(GamecoreError, match="unsettled"):
        eight_deck_punto_banco.wager(bet)


def test_deck_sweep_rows_and_limit():
    sweep = baccarat.deck_sweep(baccarat.PuntoBancoRules(), decks=range(1, 9), infinite=True)
    assert sweep["Decks"].tolist() == [str(d) for d in range(1, 9)] + ["infinite"]
    # The banker edge rises with decks towards its limit (published: 1.0117% at one deck).
    edges = sweep["Banker (5% commission) house edge"].tolist()
    assert all(a < b for a, b in zip(edges, edges[1:], strict=False))


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "composition, message",
    [
        ([1, 2, 3], "10 card counts"),
        ([-1] + [4] * 9, r"composition count of rank 10 \(point value 0\)"),
        ([16.0] + [4] * 9, r"composition count of rank 10 \(point value 0\)"),
        ([1, 1, 1, 1, 1, 0, 0, 0, 0, 0], "at least 6 cards"),
        ([2**31] + [4] * 9, "at most 2,147,483,647 cards"),
    ],
)
def test_bad_compositions_are_refused(composition, message):
    with pytest.raises(GamecoreError, match=message):
        baccarat.count_rounds(composition)


@pytest.mark.parametrize("decks", [0, 2.5, [1, 0], [8, "9"]])
def test_bad_deck_sweep_is_refused(decks):
    with pytest.raises(GamecoreError, match="deck sweep's"):
        baccarat.deck_sweep(baccarat.PuntoBancoRules(), decks=decks)


def test_unknown_bet_is_refused(eight_deck_punto_banco):
    with pytest.raises(GamecoreError, match="unknown bet 'dragon7' for punto_banco"):
        eight_deck_punto_banco.wager("dragon7")


def test_wrong_rules_object_is_refused():
    with pytest.raises(GamecoreError, match="rules must be"):
        baccarat.exact({"decks": 8})
