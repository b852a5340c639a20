"""The side-bet enumeration against values derived without it: closed forms counted by
hand, the EZ Baccarat engine's Dragon 7 and Panda 8 (a separate point-class engine), a
brute force over the physical cards of tiny shoes, and properties (asking for more card
detail than a bet needs changes no count; counts past int64 stay exact)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore import cards
from gamecore.sidebets.definition import Condition, Outcome, SideBet
from gamecore.sidebets.exact import count_outcomes


def _bet(game: str, *outcomes: tuple[str, int, tuple[Condition, ...]]) -> SideBet:
    """A definition built directly (the reader is tested on its own)."""
    made = tuple(
        Outcome(name, Fraction(pays), f"{pays} to 1", conditions)
        for name, pays, conditions in outcomes
    )
    return SideBet("test", "Test", game, 8, "", "", made, "test", "")


def _perm(n: int, k: int) -> int:
    return math.perm(n, k)


DRAGON_7 = (
    Condition("winner", values=("banker",)),
    Condition("total", hands=("banker",), values=(7,)),
    Condition("hand_cards", hands=("banker",), values=(3,)),
)
PANDA_8 = (
    Condition("winner", values=("player",)),
    Condition("total", hands=("player",), values=(8,)),
    Condition("hand_cards", hands=("player",), values=(3,)),
)
EVERY_RANK = cards.RANKS
EVERY_SUIT = cards.SUITS


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_dragon_7_and_panda_8_match_the_ez_baccarat_engine(decks):
    from gamecore import baccarat, games

    rules = games.game("ez_baccarat").rules_type.from_strings({"decks": str(decks)})
    outcomes = baccarat.exact(rules).outcomes().set_index("Outcome")["Combinations"]
    dragon = outcomes[outcomes.index.str.startswith("Dragon 7")].iloc[0]
    panda = outcomes[outcomes.index.str.startswith("Panda 8")].iloc[0]
    bet = _bet("baccarat", ("Dragon 7", 40, DRAGON_7), ("Panda 8", 25, PANDA_8))
    total, paid, matched = count_outcomes(bet, cards.standard(decks))
    assert total == _perm(52 * decks, 6)
    assert paid[:2] == [int(dragon), int(panda)]
    assert matched == paid[:2]  # the two never overlap
    assert sum(paid) == total


@pytest.mark.parametrize("decks", [1, 3, 8])
def test_player_pair_is_the_closed_form(decks):
    # The first two Player cards pair whatever the tableau does: N (4d - 1) ways for them,
    # and the other four of the six cards counted fall in any order from N - 2.
    n = 52 * decks
    bet = _bet("baccarat", ("Pair", 11, (Condition("same_rank", cards=("player_1", "player_2")),)))
    total, paid, _ = count_outcomes(bet, cards.standard(decks))
    assert paid[0] == n * (4 * decks - 1) * _perm(n - 2, 4)
    assert paid[1] == total - paid[0]


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_perfect_pairs_closed_form(decks):
    n = 52 * decks
    same = (Condition("same_rank", cards=("player_1", "player_2")),)
    bet = _bet(
        "blackjack",
        ("Perfect", 25, same + (Condition("same_suit", cards=("player_1", "player_2")),)),
        ("Coloured", 12, same + (Condition("same_colour", cards=("player_1", "player_2")),)),
        ("Mixed", 6, same),
    )
    total, paid, _ = count_outcomes(bet, cards.standard(decks))
    # Same rank and suit: decks - 1 left of the first card; same colour, other suit:
    # decks of the one other suit; other colour: 2 decks' worth of two suits.
    assert total == n * (n - 1)
    assert paid[:3] == [n * (decks - 1), n * decks, n * 2 * decks]


@pytest.mark.parametrize("decks", [1, 6])
def test_three_card_poker_classes_closed_form(decks):
    three = ("player_1", "player_2", "dealer_up")
    classes = (
        "suited_three_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "straight",
        "flush",
        "pair",
        "high_card",
    )
    bet = _bet(
        "blackjack",
        *((name, 1, (Condition("poker_hand", cards=three, values=(name,)),)) for name in classes),
    )
    total, paid, matched = count_outcomes(bet, cards.standard(decks))
    d = decks
    orders = 6  # three distinct cards (rank or suit differs) dealt in any order
    suited_trips = 13 * 4 * d * (d - 1) * (d - 2)  # one card, three copies, ordered
    trips_any = 13 * (4 * d) * (4 * d - 1) * (4 * d - 2)
    runs = 12  # A-2-3 .. Q-K-A
    straight_flush = runs * 4 * orders * d**3
    straight_any = runs * orders * (4 * d) ** 3
    same_suit = 52 * d * (13 * d - 1) * (13 * d - 2)  # all three of one suit, ordered
    # A suited pair (two copies of one card, d (d-1) ordered, with another rank of the
    # suit, 12 d, in 3 positions) is a flush, the better of its two classes.
    suited_pairs = 13 * 4 * 3 * d * (d - 1) * 12 * d
    flush = same_suit - suited_trips - straight_flush
    pair_any = 13 * 3 * (4 * d) * (4 * d - 1) * (48 * d) - suited_pairs  # a rank twice
    expected = [
        suited_trips,
        straight_flush,
        trips_any - suited_trips,
        straight_any - straight_flush,
        flush,
        pair_any,
    ]
    assert paid[:6] == expected
    assert paid[6] == total - sum(expected)  # high card
    assert paid[7] == 0  # every hand has a class
    assert matched == paid[:7]  # the classes do not overlap


def test_lucky_ladies_queens_of_hearts_with_a_dealer_blackjack():
    decks = 6
    queen_of_hearts = (
        Condition("rank", cards=("player_1",), values=("Q",)),
        Condition("rank", cards=("player_2",), values=("Q",)),
        Condition("suit", cards=("player_1",), values=("hearts",)),
        Condition("suit", cards=("player_2",), values=("hearts",)),
    )
    bet = _bet(
        "blackjack",
        ("Queens, blackjack", 1000, (*queen_of_hearts, Condition("natural", values=("dealer",)))),
        ("Queens", 200, queen_of_hearts),
    )
    total, paid, _ = count_outcomes(bet, cards.standard(decks))
    n = 52 * decks
    assert total == _perm(n, 4)
    queens = decks * (decks - 1)
    tens_left = 16 * decks - 2  # the two queens of hearts are ten-valued
    blackjack = 2 * (4 * decks) * tens_left  # ace up and ten in the hole, or the reverse
    assert paid[0] == queens * blackjack
    assert paid[1] == queens * (n - 2) * (n - 3) - paid[0]


def _with_detail(conditions: tuple[Condition, ...], card: str) -> tuple[Condition, ...]:
    """The same conditions plus ones every card satisfies, on ``card``: they make the
    enumeration deal ``card`` by rank and suit without changing which deals match."""
    return conditions + (
        Condition("rank", cards=(card,), values=EVERY_RANK),
        Condition("suit", cards=(card,), values=EVERY_SUIT),
    )


@pytest.mark.parametrize("card", ["player_1", "banker_2", "player_3", "banker_3"])
def test_finer_detail_on_any_card_changes_no_count(card):
    # A card dealt fine (rank and suit) before, between or after cards dealt coarse
    # (points): the ways of a deal must not depend on which cards are told apart. A
    # condition on a third card also asks that it is dealt, so it goes on the bet that has
    # that card dealt anyway (the Panda 8 the Player's, the Dragon 7 the Banker's).
    coarse = _bet("baccarat", ("Dragon 7", 40, DRAGON_7), ("Panda 8", 25, PANDA_8))
    dragon, panda = DRAGON_7, PANDA_8
    if card == "player_3":
        panda = _with_detail(PANDA_8, card)
    else:
        dragon = _with_detail(DRAGON_7, card)
    fine = _bet("baccarat", ("Dragon 7", 40, dragon), ("Panda 8", 25, panda))
    shoe = cards.standard(1)
    assert count_outcomes(fine, shoe) == count_outcomes(coarse, shoe)


def test_counts_past_int64_are_exact():
    decks = 1000
    n = 52 * decks
    bet = _bet("baccarat", ("Pair", 11, (Condition("same_rank", cards=("banker_1", "banker_2")),)))
    total, paid, _ = count_outcomes(bet, cards.standard(decks))
    assert total > np.iinfo(np.int64).max
    assert paid[0] == n * (4 * decks - 1) * _perm(n - 2, 4)
    assert sum(paid) == total


# ---------------------------------------------------------------------------------------
# Brute force over the physical cards of tiny shoes
# ---------------------------------------------------------------------------------------

_POINTS = dict(zip(cards.RANKS, cards.BACCARAT_POINTS, strict=True))


def _brute_baccarat(shoe_cards: list[tuple[str, str]], player_pair: bool) -> tuple[int, int]:
    """(ways of a Player pair or of a Banker win, every six-card sequence) by dealing every
    ordered sequence of six physical cards by the tableau (written out here again)."""
    hits = 0
    sequences = 0
    for deal in itertools.permutations(range(len(shoe_cards)), 6):
        sequences += 1
        p = [shoe_cards[deal[0]], shoe_cards[deal[2]]]
        b = [shoe_cards[deal[1]], shoe_cards[deal[3]]]
        if player_pair:
            hits += p[0][0] == p[1][0]
            continue
        pt = sum(_POINTS[c[0]] for c in p) % 10
        bt = sum(_POINTS[c[0]] for c in b) % 10
        nxt = 4
        if pt < 8 and bt < 8:
            third = None
            if pt <= 5:
                third = _POINTS[shoe_cards[deal[nxt]][0]]
                pt = (pt + third) % 10
                nxt += 1
            if third is None:
                draws = bt <= 5
            else:
                draws = bt <= 2 or (
                    (bt == 3 and third != 8)
                    or (bt == 4 and 2 <= third <= 7)
                    or (bt == 5 and 4 <= third <= 7)
                    or (bt == 6 and third in (6, 7))
                )
            if draws:
                bt = (bt + _POINTS[shoe_cards[deal[nxt]][0]]) % 10
        hits += bt > pt
    return hits, sequences


@settings(max_examples=8, deadline=None)
@given(
    st.lists(st.sampled_from(range(13)), min_size=7, max_size=8),
    st.lists(st.sampled_from(range(4)), min_size=8, max_size=8),
    st.booleans(),
)
def test_tiny_shoes_against_brute_force(ranks, suits, player_pair):
    counts = np.zeros((13, 4), dtype=np.int64)
    physical = []
    for r, s in zip(ranks, suits, strict=False):  # suits may be one longer
        counts[r, s] += 1
        physical.append((cards.RANKS[r], cards.SUITS[s]))
    if player_pair:
        condition = (Condition("same_rank", cards=("player_1", "player_2")),)
    else:
        condition = (Condition("winner", values=("banker",)),)
    bet = _bet("baccarat", ("Hit", 1, condition))
    total, paid, _ = count_outcomes(bet, cards.Shoe(counts))
    hits, sequences = _brute_baccarat(physical, player_pair)
    assert (paid[0], total) == (hits, sequences)
