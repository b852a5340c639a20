"""Tests of the slow baccarat oracle itself (tests/naive_baccarat.py).

These do not import gamecore: they check the oracle against hand-worked cases, a
literal card-by-card brute force, and published figures (tests/published_values.py).
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import naive_baccarat as nb
import published_values as pv
import pytest


def np6(n: int) -> int:
    return math.perm(n, 6)


# ---------------------------------------------------------------------------
# banker_draws: the seed-001 chart, transcribed a second time here as a grid.
# Rows: Banker two-card total 7 down to 0; columns: Player's third card 0..9.
# "S" = Stand, "Y" = Yes (draw).
# ---------------------------------------------------------------------------
CHART = {
    7: "SSSSSSSSSS",
    6: "SSSSSSYYSS",
    5: "SSSSYYYYSS",
    4: "SSYYYYYYSS",
    3: "YYYYYYYYSY",
    2: "YYYYYYYYYY",
    1: "YYYYYYYYYY",
    0: "YYYYYYYYYY",
}


def test_banker_draws_matches_chart():
    for banker, row in CHART.items():
        for third, mark in enumerate(row):
            assert nb.banker_draws(banker, third) is (mark == "Y"), (banker, third)


def test_banker_draws_when_player_stood():
    # Player stood: Banker draws on 0-5, stands on 6-7.
    assert [nb.banker_draws(t, None) for t in range(8)] == [True] * 6 + [False] * 2


def test_banker_never_draws_on_natural_totals():
    for t in (8, 9):
        assert not nb.banker_draws(t, None)
        assert not any(nb.banker_draws(t, c) for c in range(10))


def test_banker_draws_rejects_bad_input():
    with pytest.raises(ValueError):
        nb.banker_draws(10, None)
    with pytest.raises(ValueError):
        nb.banker_draws(3, 10)


# The unedited copy of seed 001 shipped in the repository (tests/test_rule_cards.py checks
# that it is byte-identical to ../shared/seeds/ where that folder is present).
SEED_001 = Path(__file__).resolve().parent.parent / "gamecore" / "rulecards" / "punto_banco.txt"


def test_chart_transcription_matches_seed_text():
    """Parse the chart straight out of the rule card and compare with CHART."""
    text = SEED_001.read_text(encoding="utf-8")
    chart_text = text[text.index("Player's\nThird Card") :]
    tokens = re.findall(r"Stand|Yes|\b\d\b", chart_text)
    # header 0..9, then 8 rows of: banker total followed by ten marks
    assert tokens[:10] == [str(i) for i in range(10)]
    rows = tokens[10:]
    parsed = {}
    for i in range(8):
        row = rows[i * 11 : (i + 1) * 11]
        parsed[int(row[0])] = "".join("Y" if m == "Yes" else "S" for m in row[1:])
    assert parsed == CHART


# ---------------------------------------------------------------------------
# play_round: single hands worked by hand.  Deal order P1 B1 P2 B2 P3 B3.
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, expected",
    [
        # P 4+4=8 natural, B 0+0=0: stop at 4 cards.
        ([4, 0, 4, 0, 9, 9], (2, 2, 8, 0)),
        # P 0+0=0, B 9+0=9 natural: stop even though Player has 0.
        ([0, 9, 0, 0, 5, 5], (2, 2, 0, 9)),
        # P 9+9=18 -> 8 natural, B 5+4=9 natural: Banker wins 9 v 8.
        ([9, 5, 9, 4], (2, 2, 8, 9)),
        # P 3+3=6 stands, B 2+3=5 draws (Player stood, Banker <= 5): 5+4 = 9.
        ([3, 2, 3, 3, 4, 7], (2, 3, 6, 9)),
        # P 3+4=7 stands, B 3+3=6 stands: 4 cards.
        ([3, 3, 4, 3, 1, 1], (2, 2, 7, 6)),
        # P 0+0=0 draws 8 -> 8; B 3+0=3 vs third card 8 -> stand.
        ([0, 3, 0, 0, 8, 5], (3, 2, 8, 3)),
        # Same but Player's third card 9 -> Banker 3 draws: 3+5 = 8; P 9.
        ([0, 3, 0, 0, 9, 5], (3, 3, 9, 8)),
        # B 6 draws only on 6 or 7: P 1+1=2 draws 6 -> 8; B 3+3=6 draws 2 -> 8.
        ([1, 3, 1, 3, 6, 2], (3, 3, 8, 8)),
        # B 6 vs third card 5: stand. P 2+0+5 = 7.
        ([2, 3, 0, 3, 5, 2], (3, 2, 7, 6)),
        # B 4 vs third card 1: stand. B 4 vs 2: draw.
        ([0, 2, 0, 2, 1, 3], (3, 2, 1, 4)),
        ([0, 2, 0, 2, 2, 3], (3, 3, 2, 7)),
        # Dragon 7 shape: P 2+3=5 draws 1 -> 6; B 0+0=0 draws 7 -> 7.
        ([2, 0, 3, 0, 1, 7], (3, 3, 6, 7)),
        # Panda 8 shape: P 0+0 draws 8 -> 8; B 1+1=2 draws 3 -> 5.
        ([0, 1, 0, 1, 8, 3], (3, 3, 8, 5)),
    ],
)
def test_play_round_hand_cases(cards, expected):
    assert nb.play_round(cards) == expected


def test_play_round_uses_only_needed_cards():
    it = iter([4, 0, 4, 0, 7, 7])
    assert nb.play_round(it) == (2, 2, 8, 0)
    assert list(it) == [7, 7]  # the last two cards were never taken


def test_play_round_runs_out_of_cards():
    with pytest.raises(ValueError):
        nb.play_round([0, 0, 0, 0, 0])  # Player draws, Banker 0 must draw: needs 6


def test_cards_needed_agrees_with_play_round():
    """The recursion's stopping rule must equal the number of cards play_round takes."""
    for prefix in itertools.product(range(10), repeat=5):
        cards = iter(list(prefix) + [0])
        nb.play_round(cards)
        k = 6 - len(list(cards))  # cards actually taken
        assert nb._cards_needed(list(prefix[:4])) == min(k, 5)
        if k >= 5:
            assert nb._cards_needed(list(prefix)) == k


# ---------------------------------------------------------------------------
# class_breakdown vs literal card-by-card enumeration on tiny shoes.
# ---------------------------------------------------------------------------
def composition_of(cards):
    comp = [0] * 10
    for c in cards:
        comp[c] += 1
    return comp


TINY_SHOES = [
    [0, 0, 0, 1, 2, 3, 4, 5],  # 8 cards, mixed
    [0, 0, 9, 9, 8, 8, 7, 6],  # naturals-heavy
    [0, 0, 0, 0, 7, 7, 6, 5, 4],  # Dragon 7 possible
    [0, 0, 0, 0, 8, 8, 3, 5, 1, 2],  # Panda 8 possible
    [1, 2, 3, 4, 5, 6, 7, 8, 9],  # one of each non-zero value
    [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 9],  # 12 cards
    [5] * 8,  # everything one value
    [0] * 7 + [9],
]


@pytest.mark.parametrize("cards", TINY_SHOES, ids=lambda c: "".join(map(str, c)))
def test_class_equals_card_by_card(cards):
    by_class = nb.class_breakdown(composition_of(cards))
    by_card = nb.card_by_card_breakdown(cards)
    assert by_class == by_card
    assert sum(by_class.values()) == np6(len(cards))


def test_card_by_card_counts_permutations():
    cards = [0, 1, 2, 3, 4, 5, 6]
    assert sum(nb.card_by_card_breakdown(cards).values()) == 7 * 6 * 5 * 4 * 3 * 2


# ---------------------------------------------------------------------------
# Single-value shoes, worked by hand.  Every round is identical, so the whole
# NP6 mass sits on one key.
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, key, why",
    [
        # 0s: P 0 draws 0 -> 0; B 0 draws (always on 0-2) -> 0. Tie 0 v 0, 3 cards each.
        (0, (3, 3, 0, 0), "P0 draws, B0 draws"),
        # 1s: P 2 draws -> 3; B 2 draws -> 3. Tie.
        (1, (3, 3, 3, 3), "P2 draws, B2 draws"),
        # 2s: P 4 draws -> 6; B 4 vs third card 2 -> Yes -> 6. Tie.
        (2, (3, 3, 6, 6), "P4 draws, B4 v 2 draws"),
        # 3s: P 6 stands; B 6 with Player standing -> stands. Tie 6 v 6, 2 cards each.
        (3, (2, 2, 6, 6), "P6 stands, B6 stands"),
        # 4s: 4+4 = 8 naturals on both sides. Tie.
        (4, (2, 2, 8, 8), "both natural 8"),
        # 5s: 10 -> 0; P draws 5 -> 5; B 0 draws -> 5. Tie.
        (5, (3, 3, 5, 5), "P0 draws, B0 draws"),
        # 6s: 12 -> 2; P draws -> 8 (3 cards); B 2 draws -> 8. Tie.
        (6, (3, 3, 8, 8), "P2 draws, B2 draws"),
        # 7s: 14 -> 4; P draws 7 -> 1; B 4 vs third card 7 -> Yes -> 1. Tie.
        (7, (3, 3, 1, 1), "P4 draws, B4 v 7 draws"),
        # 8s: 16 -> 6; P stands, B 6 stands. Tie.
        (8, (2, 2, 6, 6), "P6 stands, B6 stands"),
        # 9s: 18 -> 8 naturals. Tie.
        (9, (2, 2, 8, 8), "both natural 8"),
    ],
)
def test_single_value_shoe(value, key, why):
    comp = [0] * 10
    comp[value] = 10
    assert nb.class_breakdown(comp) == {key: np6(10)}, why
    out = nb.outcome_counts({key: np6(10)})
    assert out["tie"] == out["total"] == np6(10)
    assert out["banker"] == out["player"] == out["dragon7"] == out["panda8"] == 0


def test_three_zeros_three_nines_by_hand():
    """Shoe {0,0,0,9,9,9}: N = 6, 6P6 = 720 sequences.

    Only three 0s, so among the first four cards there is always a 9: somebody has a
    natural and the round always stops at 4 cards.  Let i, j = number of 9s in the
    Player's and Banker's two cards; totals are 0 (no 9), 9 (one 9), 8 (two 9s: 18).
    Value patterns: C(2,i) for P's positions, C(2,j) for B's, C(2, 3-i-j) for where
    the remaining 9s sit in positions 5-6; each pattern is 3! * 3! = 36 sequences.
      (i,j)=(0,1): 1*2*1 = 2 -> P0 v B9      (0,2): 1*1*2 = 2 -> P0 v B8
      (1,0): 2 -> P9 v B0                    (2,0): 2 -> P8 v B0
      (1,1): 2*2*2 = 8 -> P9 v B9 (tie)      (1,2): 2*1*1 = 2 -> P9 v B8
      (2,1): 1*2*1 = 2 -> P8 v B9            total 20 patterns = 720 / 36.
    """
    expected = {
        (2, 2, 0, 9): 72,
        (2, 2, 0, 8): 72,
        (2, 2, 9, 0): 72,
        (2, 2, 8, 0): 72,
        (2, 2, 9, 9): 288,
        (2, 2, 9, 8): 72,
        (2, 2, 8, 9): 72,
    }
    comp = composition_of([0, 0, 0, 9, 9, 9])
    assert nb.class_breakdown(comp) == expected
    out = nb.outcome_counts(expected)
    assert (out["banker"], out["player"], out["tie"], out["total"]) == (216, 216, 288, 720)


def test_class_breakdown_validates_input():
    with pytest.raises(ValueError):
        nb.class_breakdown([5, 0, 0, 0, 0, 0, 0, 0, 0, 0])  # N = 5 < 6
    with pytest.raises(ValueError):
        nb.class_breakdown([6, 0, 0])  # not 10 classes
    with pytest.raises(ValueError):
        nb.class_breakdown([7, -1, 0, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError):
        nb.card_by_card_breakdown([0, 1, 2, 3, 4])


def test_class_breakdown_exactly_six_cards():
    cards = [0, 1, 2, 7, 8, 9]
    assert nb.class_breakdown(composition_of(cards)) == nb.card_by_card_breakdown(cards)


# ---------------------------------------------------------------------------
# outcome_counts on hand-made breakdowns.
# ---------------------------------------------------------------------------
def test_outcome_counts_side_bets():
    breakdown = {
        (3, 3, 6, 7): 5,  # Banker wins with a three-card 7: Dragon 7
        (2, 3, 6, 7): 1,  # Banker three-card 7 beats 6 (Player two cards): Dragon 7
        (3, 2, 6, 7): 2,  # Banker wins with a TWO-card 7: not a Dragon
        (3, 3, 7, 7): 3,  # three-card 7 ties: not a Dragon
        (3, 3, 8, 5): 7,  # Player wins with a three-card 8: Panda 8
        (2, 2, 8, 5): 11,  # Player two-card 8 (natural): not a Panda
        (3, 3, 8, 9): 13,  # three-card 8 loses: not a Panda
    }
    out = nb.outcome_counts(breakdown)
    assert out == {
        "banker": 5 + 1 + 2 + 13,
        "player": 7 + 11,
        "tie": 3,
        "dragon7": 5 + 1,
        "panda8": 7,
        "total": sum(breakdown.values()),
    }


# ---------------------------------------------------------------------------
# Full shoes against published figures.
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def outcomes_by_decks():
    cache = {}

    def get(decks):
        if decks not in cache:
            bd = nb.class_breakdown(nb.shoe_composition(decks))
            cache[decks] = (bd, nb.outcome_counts(bd))
        return cache[decks]

    return get


def test_one_deck_published(outcomes_by_decks):
    bd, out = outcomes_by_decks(1)
    assert out["total"] == np6(52) == 14_658_134_400
    for name in ("player", "banker", "tie", "total"):
        entry = pv.WOO_COMBINATIONS[1][name]
        assert entry["exact"] and entry["confirmed"]
        assert out[name] == entry["value"], name
    # Derived (not published) side-bet counts: regression only.
    assert out["dragon7"] == pv.DERIVED[1]["dragon7"]["value"]
    assert out["panda8"] == pv.DERIVED[1]["panda8"]["value"]


def test_eight_decks_published_exact(outcomes_by_decks):
    bd, out = outcomes_by_decks(8)
    assert out["total"] == np6(416) == 4_998_398_275_503_360
    for name, entry in pv.EXACT_8_DECKS.items():
        assert out[name] == entry["value"], name
    assert out["dragon7"] == pv.EZ_8_DECKS["dragon7_combinations"]["value"]
    assert out["dragon7"] == 112_633_011_329_024
    assert out["panda8"] == pv.EZ_8_DECKS["panda8_combinations"]["value"]
    # Published Banker wins by the Banker's final total.
    by_total = {t: 0 for t in range(1, 10)}
    for (_, _, p, b), count in bd.items():
        if b > p:
            by_total[b] += count
    for total, entry in pv.BANKER_WINS_BY_TOTAL_8_DECKS.items():
        assert by_total[total] == entry["value"], total


def test_eight_decks_ez_tables(outcomes_by_decks):
    _, out = outcomes_by_decks(8)
    T = out["total"]
    ez = pv.EZ_8_DECKS
    assert pv.matches(T - out["dragon7"], ez["dragon7_loss_combinations"])
    assert pv.matches(T - out["panda8"], ez["panda8_loss_combinations"])
    assert pv.matches(out["banker"] - out["dragon7"], ez["banker_win_except_dragon7_combinations"])
    assert pv.matches(out["dragon7"] / T, ez["dragon7_probability"])
    assert pv.matches(out["panda8"] / T, ez["panda8_probability"])
    d7_edge = float(1 - Fraction(41 * out["dragon7"], T))  # pays 40 to 1
    p8_edge = float(1 - Fraction(26 * out["panda8"], T))  # pays 25 to 1
    ez_banker_edge = float(Fraction(out["player"] - (out["banker"] - out["dragon7"]), T))
    assert pv.matches(d7_edge, ez["dragon7_house_edge"])
    assert pv.matches(d7_edge, ez["dragon7_house_edge_jacobson"])
    assert pv.matches(p8_edge, ez["panda8_house_edge"])
    assert pv.matches(p8_edge, ez["panda8_house_edge_jacobson"])
    assert pv.matches(ez_banker_edge, ez["banker_house_edge"])


def test_six_decks_published_exact(outcomes_by_decks):
    _, out = outcomes_by_decks(6)
    for name, entry in pv.EXACT_6_DECKS.items():
        assert out[name] == entry["value"], name


@pytest.mark.parametrize("decks", range(1, 13))
def test_wizard_one_to_twelve_decks(decks, outcomes_by_decks):
    """Every row of the Wizard of Odds 1-12 deck table, within its 15-digit precision."""
    _, out = outcomes_by_decks(decks)
    assert out["total"] == np6(52 * decks)
    for name, entry in pv.WOO_COMBINATIONS[decks].items():
        assert pv.matches(out[name], entry), (decks, name, out[name], entry["value"])


@pytest.mark.parametrize("decks", sorted(pv.HOUSE_EDGE_BY_DECKS))
def test_house_edges_by_decks(decks, outcomes_by_decks):
    _, out = outcomes_by_decks(decks)
    T = out["total"]
    b, p, t = (Fraction(out[k], T) for k in ("banker", "player", "tie"))
    edges = {
        "banker": float(p - Fraction(95, 100) * b),  # 5% commission on Banker wins
        "player": float(b - p),
        "tie_8_to_1": float(1 - 9 * t),  # 8 to 1: return 9 for 1 on a tie
    }
    for name, entry in pv.HOUSE_EDGE_BY_DECKS[decks].items():
        assert pv.matches(edges[name], entry), (decks, name, edges[name])
    for name, entry in pv.HOUSE_EDGE_VARIANTS.get(decks, {}).items():
        value = {
            "banker_4pct_commission": float(p - Fraction(96, 100) * b),
            "tie_9_to_1": float(1 - 10 * t),
        }[name]
        assert pv.matches(value, entry), (decks, name, value)


def test_published_entries_are_well_formed():
    def walk(obj):
        if isinstance(obj, dict) and "value" in obj and "source" in obj:
            yield obj
        elif isinstance(obj, dict):
            for v in obj.values():
                yield from walk(v)

    entries = []
    for name in dir(pv):
        if name.isupper():
            entries.extend(walk(getattr(pv, name)))
    assert len(entries) > 50
    for e in entries:
        assert set(e) >= {"value", "source", "quote", "confirmed", "exact", "tolerance"}
        if e.get("derived"):
            assert e["confirmed"] is False
        else:
            assert e["confirmed"] is True and e["quote"]
