"""Dragon Tiger against values derived independently of the engine: counts worked by hand
for one and two decks and in closed form for any deck count, a slow pure-Python brute force
over an explicit list of cards, the Wizard of Odds' published house edges, the simulated
twin, and the command line through the registry (no CLI change made for the game).

Counts here are ORDERED pairs of cards (the Dragon's first), as the engine counts them. The
Wizard of Odds counts unordered pairs (8 decks: 86,320 = 416 * 415 / 2), so every count it
prints is half of ours; its probabilities and house edges are the same.
"""

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from helpers import assert_refused, assert_twin_table, run_gamecore, run_gamecore_here

from gamecore import cards, games, strictjson
from gamecore.dragon_tiger import (
    DragonTigerRules,
    count_pairs,
    deck_sweep,
    exact,
    infinite_deck,
    sim,
    simulate,
)
from gamecore.errors import GamecoreError
from gamecore.twins import z_threshold

# The Wizard of Odds' Dragon Tiger page (Michael Shackleford), 8 decks. Seen in a mirror copy
# of the page's text (same wording, tables and figures); the original page is cited as the
# source. Combinations there are unordered pairs.
WOO_DRAGON_TIGER = "https://wizardofodds.com/games/dragon-tiger/"
WOO_DRAGON_TIGER_MIRROR = "http://user-casino.com/games/dragon-tiger/"
WOO_8_DECKS = {
    "total_unordered": 86_320,  # "Total 86,320 1.000000"
    "dragon_win_unordered": 39_936,  # "Win 1 39,936 0.462651 0.462651"
    "tie_unordered": 6_448,  # "Tie -0.5 6,448 0.074699 -0.037349"
    "suited_tie_unordered": 1_456,  # "Win 50 1,456 0.016867 0.843373"
    "dragon_return": -0.037349,  # "shows a house edge of 3.73%"
    "tie_8_return": -0.327711,  # "shows a house edge of 32.77%"
    # "Pays / House Edge": 12: 2.89%, 11: 10.36%, 10: 17.83%, 9: 25.30%, 8: 32.77%
    "tie_house_edge_by_pays": {12: 0.0289, 11: 0.1036, 10: 0.1783, 9: 0.2530, 8: 0.3277},
    "suited_tie_house_edge": 0.1398,  # "shows a house edge of 13.98%"
}

RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]  # Ace low


# --- counts worked by hand ----------------------------------------------------------------


def outcomes(decks: int) -> dict[str, int]:
    return exact(DragonTigerRules(decks=decks)).outcome_counts()


def test_one_deck_by_hand():
    # 52 * 51 ordered pairs. A tie: 13 ranks, 4 cards for the Dragon, 3 left of its rank for
    # the Tiger. A suited tie needs the same card twice: one deck has one of each.
    assert outcomes(1) == {
        "dragon": (2652 - 156) // 2,  # the rest split evenly by symmetry: 1,248
        "tiger": 1248,
        "suited_tie": 0,
        "unsuited_tie": 13 * 4 * 3,
        "total": 52 * 51,
    }


def test_two_decks_by_hand():
    # 104 cards: 8 of each rank, 2 of each card. Ties: 13 * 8 * 7 = 728. Suited ties: the
    # Dragon's card (104 ways), then its twin (1 way left): 104 = 52 * 2 * 1. Unsuited: the
    # Dragon's card, then one of the 6 cards of its rank in the other three suits: 13 * 8 * 6.
    assert outcomes(2) == {
        "dragon": (10712 - 728) // 2,
        "tiger": 4992,
        "suited_tie": 104,
        "unsuited_tie": 624,
        "total": 104 * 103,
    }
    assert 104 + 624 == 13 * 8 * 7


@pytest.mark.parametrize("decks", [1, 2, 3, 6, 8, 1000])
def test_closed_form_for_any_deck_count(decks):
    n, per_rank, per_card = 52 * decks, 4 * decks, decks
    ties = 13 * per_rank * (per_rank - 1)
    suited = 52 * per_card * (per_card - 1)
    counts = outcomes(decks)
    assert counts["total"] == n * (n - 1)
    assert counts["suited_tie"] == suited
    assert counts["unsuited_tie"] == ties - suited == 13 * per_rank * 3 * per_card
    assert counts["dragon"] == counts["tiger"] == (n * (n - 1) - ties) // 2
    assert all(type(c) is int for c in counts.values())


# --- a slow reference: every ordered pair of an explicit list of cards ------------------


def brute_force(decks: int) -> dict[tuple[str, str, bool], int]:
    """(Dragon's rank, Tiger's rank, same suit) -> ordered pairs of positions in a shoe
    written out card by card."""
    shoe = [(r, s) for _ in range(decks) for r in RANK_ORDER for s in "cdhs"]
    tally: dict[tuple[str, str, bool], int] = {}
    for i, j in itertools.permutations(range(len(shoe)), 2):
        (dragon, ds), (tiger, ts) = shoe[i], shoe[j]
        key = (dragon, tiger, ds == ts)
        tally[key] = tally.get(key, 0) + 1
    return tally


def brute_force_ev(decks: int, tie_pays: int, suited_tie_pays: int) -> dict[str, Fraction]:
    """Each bet's EV from the brute force, settled here by the rules as written."""
    tally = brute_force(decks)
    total = sum(tally.values())
    net = dict.fromkeys(("dragon", "tiger", "tie", "suited_tie"), Fraction(0))
    for (dragon, tiger, suited), ways in tally.items():
        d, t = RANK_ORDER.index(dragon), RANK_ORDER.index(tiger)
        tie = d == t
        net["dragon"] += ways * (Fraction(-1, 2) if tie else (1 if d > t else -1))
        net["tiger"] += ways * (Fraction(-1, 2) if tie else (1 if t > d else -1))
        net["tie"] += ways * (tie_pays if tie else -1)
        net["suited_tie"] += ways * (suited_tie_pays if tie and suited else -1)
    return {bet: value / total for bet, value in net.items()}


@pytest.mark.parametrize("decks", [1, 2])
def test_breakdown_is_the_brute_force(decks):
    counts = count_pairs(cards.standard(decks))
    expected = brute_force(decks)
    assert int(counts.sum()) == sum(expected.values())
    for (dragon, tiger, suited), ways in expected.items():
        assert counts[RANK_ORDER.index(dragon), RANK_ORDER.index(tiger), int(suited)] == ways
    assert sum(1 for c in counts.flat if c) == len(expected)


@pytest.mark.parametrize(("decks", "tie_pays"), [(1, 8), (2, 11)])
def test_every_bet_is_the_brute_force(decks, tie_pays):
    rules = DragonTigerRules(decks=decks, tie_pays=tie_pays, suited_tie_pays=50)
    wagers = exact(rules).wagers()
    for bet, ev in brute_force_ev(decks, tie_pays, 50).items():
        assert wagers[bet].expected_value == ev, bet


def test_a_depleted_shoe_counts_from_its_cards():
    shoe = cards.standard(1).remove([cards.card("K", "spades"), cards.card("K", "hearts")])
    counts = exact(DragonTigerRules(decks=1), shoe=shoe).outcome_counts()
    assert counts["total"] == 50 * 49
    assert counts["unsuited_tie"] == 12 * 4 * 3 + 2 * 1  # two kings left: 2 ordered pairs


# --- published figures -----------------------------------------------------------------


def test_wizard_of_odds_eight_decks():
    """Source: WOO_DRAGON_TIGER (seen through WOO_DRAGON_TIGER_MIRROR)."""
    analysis = exact(DragonTigerRules(decks=8))
    counts = analysis.outcome_counts()
    assert counts["total"] == 2 * WOO_8_DECKS["total_unordered"]
    assert counts["dragon"] == counts["tiger"] == 2 * WOO_8_DECKS["dragon_win_unordered"]
    assert counts["suited_tie"] + counts["unsuited_tie"] == 2 * WOO_8_DECKS["tie_unordered"]
    assert counts["suited_tie"] == 2 * WOO_8_DECKS["suited_tie_unordered"]
    wagers = analysis.wagers()
    # The exact values: Dragon/Tiger lose half of 12,896 ties in 172,640 pairs.
    assert wagers["dragon"].house_edge == wagers["tiger"].house_edge == Fraction(6448, 172640)
    assert round(float(wagers["dragon"].expected_value), 6) == WOO_8_DECKS["dragon_return"]
    assert round(float(wagers["tie"].expected_value), 6) == WOO_8_DECKS["tie_8_return"]
    assert round(float(wagers["suited_tie"].house_edge), 4) == WOO_8_DECKS["suited_tie_house_edge"]
    for pays, edge in WOO_8_DECKS["tie_house_edge_by_pays"].items():
        tie = exact(DragonTigerRules(decks=8, tie_pays=pays)).wager("tie")
        assert round(float(tie.house_edge), 4) == edge, pays
    # Derived here: 3.7349% (6448/172640 = 0.0373494), 32.77% at 8 to 1, 10.36% at 11 to 1.
    assert f"{float(wagers['dragon'].house_edge):.4%}" == "3.7349%"


def test_infinite_deck_limit_and_the_sweep():
    limit = infinite_deck(DragonTigerRules())
    assert limit.probability("tie") == Fraction(1, 13)
    assert limit.probability("suited_tie") == Fraction(1, 52)
    assert limit.wager("dragon").house_edge == Fraction(1, 26)  # half of the ties
    # 1,000 decks is within 1/1000 of the limit, relatively.
    far = exact(DragonTigerRules(decks=1000))
    assert float(far.probability("tie")) == pytest.approx(1 / 13, rel=1e-3)
    sweep = deck_sweep(DragonTigerRules(), decks=3)
    assert sweep["Decks"].tolist() == ["1", "2", "3", "infinite"]
    assert sweep["Tie (8 to 1) house edge"].is_monotonic_decreasing  # more decks, more ties


# --- the simulated twin -----------------------------------------------------------------


def test_simulated_twin_agrees():
    rules = DragonTigerRules(decks=2, tie_pays=11)
    table = sim.cross_check(exact(rules), simulate(rules, 400_000, 7, progress=False))
    assert len(table) == 8 and table["z"].notna().all()
    assert table["z"].abs().max() <= z_threshold(len(table)), table.to_string()


def test_same_seed_same_bits_across_chunks_and_threads():
    rules = DragonTigerRules()
    rounds = sim.CHUNK_ROUNDS + 1000  # two chunks
    one = simulate(rules, rounds, 5, threads=1, progress=False)
    two = simulate(rules, rounds, 5, threads=2, progress=False)
    assert (one.counts == two.counts).all() and int(one.counts.sum()) == rounds
    assert strictjson.dumps(one.to_dict()) == strictjson.dumps(two.to_dict())


def test_the_simulator_deals_only_what_the_shoe_holds():
    one_deck = simulate(DragonTigerRules(decks=1), 50_000, 1, progress=False)
    assert one_deck.outcome_counts()["suited_tie"] == 0  # one deck has no card twice


# --- the command line, through the registry ---------------------------------------------


def test_registered_by_one_line_and_named_nowhere_else():
    assert games.game("dragon_tiger").title == "Dragon Tiger"
    package = Path(games.__file__).resolve().parent
    mentions = []
    for path in sorted(package.rglob("*.py")):
        if "dragon_tiger" in path.relative_to(package).parts:
            continue
        for number, text in enumerate(path.read_text("utf-8").splitlines(), 1):
            if "dragon_tiger" in text.lower() or "dragon tiger" in text.lower():
                mentions.append((path.name, number))
    assert len(mentions) == 1 and mentions[0][0] == "games.py", mentions


def test_exact_json_through_the_registry():
    result = run_gamecore(
        "exact", "dragon_tiger", "--decks", "2", "--rule", "tie_pays=11", "--json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total_combinations"] == 10712
    assert data["outcomes"]["suited_tie"]["combinations"] == 104
    assert data["rules"] == {
        "game": "dragon_tiger",
        "decks": 2,
        "tie_pays": 11,
        "suited_tie_pays": 50,
    }
    assert data["bets"]["tie"]["house_edge"] == pytest.approx(1 - 12 * 728 / 10712, abs=1e-15)


def test_simulate_json_through_the_registry():
    result = run_gamecore(
        "simulate", "dragon_tiger", "--rounds", "100000", "--seed", "3", "--json", "--no-progress"
    )
    assert result.returncode == 0, result.stderr
    data = strictjson.loads(result.stdout)
    assert (data["rounds"], data["seed"], data["dealing"]) == (100_000, 3, {"mode": "fresh"})
    assert sum(o["count"] for o in data["outcomes"].values()) == 100_000
    assert set(data["bets"]) == {"dragon", "tiger", "tie", "suited_tie"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("exact", "dragon_tiger", "--decks", "0"), ("decks", "1 to 1000", "0")),
        (("exact", "dragon_tiger", "--decks", "1001"), ("decks", "1001")),
        (("simulate", "dragon_tiger", "--decks", "1001"), ("decks", "1001")),
        (("exact", "dragon_tiger", "--rule", "tie_pays=-1"), ("tie_pays",)),
        (("count", "dragon_tiger"), ("count is for", "not dragon_tiger")),
        (("hand", "dragon_tiger", "--up", "A", "--cards", "2,3"), ("hand is for",)),
        (("exact", "dragon_tiger", "--shoe", "4,4,4,4,4,4,4,4,4,16"), ("--shoe",)),
        (("simulate", "dragon_tiger", "--mode", "shoe"), ("--mode shoe", "fresh")),
    ],
)
def test_refused_in_one_line(args, words):
    assert_refused(run_gamecore_here(*args), *words)


def test_deck_bounds_refused_by_the_rule_set():
    for decks in (0, 1001, 6.0, True):
        with pytest.raises(GamecoreError, match="decks must be an integer from 1 to 1000"):
            DragonTigerRules(decks=decks)


# --- the report -------------------------------------------------------------------------


def test_report_with_small_parameters(dragon_tiger_reports):
    """The report as test_verify_evidence reads it too (conftest, two decks)."""
    folder = dragon_tiger_reports / "dragon_tiger"
    for name in ("dragon_tiger.html", "dragon_tiger.pdf", "dragon_tiger_par_sheet.pdf",
                 "dragon_tiger.xlsx", "house_edge_by_decks.png"):  # fmt: skip
        assert (folder / name).is_file(), name
    outcomes_csv = pd.read_csv(folder / "outcomes.csv").set_index("Outcome")["Combinations"]
    assert outcomes_csv.tolist() == [4992, 4992, 104, 624]
    summary = pd.read_csv(folder / "summary.csv")
    assert summary["House edge"].tolist()[2:] == pytest.approx(
        [1 - 9 * 728 / 10712, 1 - 51 * 104 / 10712, 1 - 12 * 728 / 10712], rel=1e-12
    )
    for check in folder.glob("*cross_check*.csv"):
        assert_twin_table(check)
    assert math.isclose(
        pd.read_csv(folder / "deck_sweep.csv")
        .set_index("Decks")
        .loc["infinite", "P(Tie, same suit)"],
        1 / 52,
    )
    from test_documents import assert_key_figures_stated

    assert_key_figures_stated(folder)  # every figure the index quotes, in the PDF too
