"""The card model (gamecore.cards) against values derived independently: counts worked by
hand (a deck has 4 cards of each rank, 13 of each suit, 26 red; 13 * 4 * 3 ordered pairs of
a rank), and brute force over an explicit list of every card in the shoe, written here from
the rules (RULES.md: A=1, 2-9 face, 10/J/Q/K=0 in baccarat; J/Q/K count 10 in blackjack),
sharing no code with the module. And every engine's full shoe is the model's view."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore import cards
from gamecore.blackjack.rules import DECK, RANKS, shoe_composition
from gamecore.c21_baccarat.rules import c21_shoe
from gamecore.cards import (
    JOKERS,
    Shoe,
    baccarat_class,
    blackjack_class,
    card,
    colour,
    first_two,
    rank,
    standard,
    suit,
    ways,
)
from gamecore.errors import GamecoreError, shown
from gamecore.shoe import BACCARAT_DECK, baccarat_shoe

# ---------------------------------------------------------------------------------------
# An explicit shoe: every card as (rank, suit), written from the rules
# ---------------------------------------------------------------------------------------

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]
RED = {"diamonds", "hearts"}
POINTS = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0, **{str(v): v for v in range(2, 10)}}
BLACKJACK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]  # the engine's
BLACKJACK = {"A": "A", "J": "10", "Q": "10", "K": "10", **{str(v): str(v) for v in range(2, 11)}}


def explicit_cards(decks: int, jokers: int = 0) -> list[tuple[str, str | None]]:
    deck = [(r, s) for r in RANK_NAMES for s in SUIT_NAMES]
    return deck * decks + [("joker", None)] * jokers


def holds(selection: cards.Cards, c: tuple[str, str | None]) -> bool:
    """Whether the explicit card ``c`` is in ``selection``, read off its name and kind."""
    r, s = c
    if r == "joker":
        return selection.joker
    return (RANK_NAMES.index(r), SUIT_NAMES.index(s)) in selection.cells


def brute_ways(deck: list, sequence: list[cards.Cards]) -> int:
    return sum(
        all(holds(sel, c) for sel, c in zip(sequence, drawn, strict=True))
        for drawn in itertools.permutations(deck, len(sequence))
    )


# ---------------------------------------------------------------------------------------
# Counts worked by hand
# ---------------------------------------------------------------------------------------


def test_one_deck_by_hand():
    deck = standard(1)
    assert deck.total == 52 and deck.jokers == 0
    assert deck.by_rank().tolist() == [4] * 13
    assert deck.by_suit().tolist() == [13] * 4
    assert deck.by_colour().tolist() == [26, 26]
    assert deck.count(colour("red")) == 26 and deck.count(suit("spades")) == 13
    assert deck.count(card("Q", "hearts")) == 1 and deck.count(rank("10")) == 4


def test_views_by_hand():
    assert standard(8).baccarat_classes().tolist() == [128] + [32] * 9
    six = standard(6).blackjack_classes().tolist()
    assert six[9] == 96 and six[:9] == [24] * 9
    assert standard(8, 1).baccarat_classes(jokers=True).tolist() == [128] + [32] * 9 + [8]
    assert standard(8, 1).total == 424
    assert standard(1000).count(baccarat_class(0)) == 16_000


def test_every_engine_full_shoe_is_the_models_view():
    assert BACCARAT_DECK == (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    assert DECK == (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    assert list(RANKS) == BLACKJACK_ORDER == list(cards.BLACKJACK_CLASS_NAMES)
    for decks in (1, 6, 8, 1000):
        assert baccarat_shoe(decks).tolist() == [16 * decks] + [4 * decks] * 9
        assert shoe_composition(decks).tolist() == [4 * decks] * 9 + [16 * decks]
        for jokers in range(5):
            expected = [16 * decks] + [4 * decks] * 9 + [jokers * decks]
            assert c21_shoe(decks, jokers).tolist() == expected
        assert baccarat_shoe(decks).dtype == shoe_composition(decks).dtype == np.int64


def test_two_card_pairs_by_hand():
    deck = standard(1)
    same_rank = sum(ways(deck, [rank(r), rank(r)]) for r in RANK_NAMES)
    assert same_rank == 13 * 4 * 3 == 156
    same_suit = sum(ways(deck, [suit(s), suit(s)]) for s in SUIT_NAMES)
    assert same_suit == 4 * 13 * 12
    assert ways(deck, [colour("red"), colour("red")]) == 26 * 25
    hands = first_two(deck)
    assert sum(n for (a, b), n in hands.items() if a.rank == b.rank) == 156
    assert sum(n for (a, b), n in hands.items() if a.suit == b.suit) == 4 * 13 * 12
    assert sum(n for (a, b), n in hands.items() if a.colour == b.colour) == 2 * 26 * 25
    # two queens of hearts from six decks: 6 * 5 ordered ways
    assert ways(standard(6), [card("Q", "hearts")] * 2) == 30


def test_falling_factorials_past_int64():
    thousand = standard(1000)
    expected = 1
    for k in range(6):
        expected *= 16_000 - k
    assert expected > 2**63
    assert ways(thousand, [baccarat_class(0)] * 6) == expected
    assert ways(thousand, [baccarat_class(0), blackjack_class("A")] * 3) == (
        16_000 * 15_999 * 15_998 * 4_000 * 3_999 * 3_998
    )


# ---------------------------------------------------------------------------------------
# Brute force over the explicit shoe
# ---------------------------------------------------------------------------------------

SEQUENCES = [
    [rank("Q"), rank("Q")],
    [card("Q", "hearts"), card("Q", "hearts")],
    [card("Q", "hearts"), suit("spades"), card("Q", "hearts")],
    [colour("red"), suit("clubs"), colour("red")],
    [baccarat_class(0), baccarat_class(0), baccarat_class(0)],
    [blackjack_class("10"), blackjack_class("A"), JOKERS],
    [JOKERS, JOKERS, rank("K")],
    [suit("clubs"), rank("7")],  # overlapping sets are refused, below
]


@pytest.mark.parametrize("decks,jokers,length", [(1, 2, 3), (2, 1, 2)])
def test_ways_match_brute_force(decks, jokers, length):
    deck = explicit_cards(decks, jokers)
    shoe = Shoe(standard(decks).counts, jokers)
    assert shoe.total == len(deck)
    for sequence in SEQUENCES[:-1]:
        sequence = sequence[:length]
        assert ways(shoe, sequence) == brute_ways(deck, sequence), [s.name for s in sequence]


def test_overlapping_sets_refused():
    with pytest.raises(GamecoreError, match="clubs and rank 7 share cards"):
        ways(standard(1), SEQUENCES[-1])
    with pytest.raises(GamecoreError, match="share cards"):
        ways(standard(1), [rank("10"), blackjack_class("3"), blackjack_class("10")])
    # the same set however it was built counts as the same set
    assert ways(standard(1), [rank("2"), blackjack_class("2")]) == 12


@pytest.mark.parametrize("decks,jokers", [(1, 1), (2, 0), (1, 0)])
def test_first_two_match_brute_force(decks, jokers):
    deck = explicit_cards(decks, jokers)
    brute = Counter(itertools.permutations(deck, 2))
    hands = first_two(Shoe(standard(decks).counts, jokers))
    named = {((a.rank, a.suit), (b.rank, b.suit)): n for (a, b), n in hands.items()}
    assert named == dict(brute)
    assert sum(hands.values()) == len(deck) * (len(deck) - 1)


# ---------------------------------------------------------------------------------------
# Removal and views (Hypothesis)
# ---------------------------------------------------------------------------------------

removed_cards = st.lists(
    st.tuples(st.sampled_from(RANK_NAMES), st.sampled_from(SUIT_NAMES)), max_size=12
)


@given(st.integers(1, 8), st.integers(0, 4), removed_cards, st.integers(0, 3))
def test_removal_then_view_is_view_then_removal(decks, jokers_per_deck, removed, jokers_out):
    shoe = standard(decks, jokers_per_deck)
    jokers_out = min(jokers_out, shoe.jokers)
    # every card removed at most as often as the shoe holds it
    removed = [c for c, n in Counter(removed).items() for _ in range(min(n, decks))]
    after = shoe.remove([card(r, s) for r, s in removed] + [JOKERS] * jokers_out)
    baccarat = shoe.baccarat_classes(jokers=True)
    for r, _ in removed:
        baccarat[POINTS[r]] -= 1
    baccarat[10] -= jokers_out
    assert after.baccarat_classes(jokers=True).tolist() == baccarat.tolist()
    assert after.total == shoe.total - len(removed) - jokers_out
    assert shoe.total == 52 * decks + jokers_per_deck * decks  # unchanged by remove
    plain = standard(decks)
    blackjack = dict(zip(BLACKJACK_ORDER, plain.blackjack_classes().tolist(), strict=True))
    for r, _ in removed:
        blackjack[BLACKJACK[r]] -= 1
    without = plain.remove([card(r, s) for r, s in removed]).blackjack_classes().tolist()
    assert without == list(blackjack.values())


@given(
    st.lists(st.lists(st.integers(0, 10**6), min_size=4, max_size=4), min_size=13, max_size=13),
    st.integers(0, 10**6),
)
def test_views_sum_to_the_total(counts, jokers):
    shoe = Shoe(counts, jokers)
    assert shoe.total == sum(map(sum, counts)) + jokers
    for view in (shoe.by_rank(), shoe.by_suit(), shoe.by_colour()):
        assert int(view.sum()) + jokers == shoe.total
    assert int(shoe.baccarat_classes(jokers=True).sum()) == shoe.total
    assert int(Shoe(counts).blackjack_classes().sum()) == shoe.total - jokers
    assert int(Shoe(counts).baccarat_classes().sum()) == shoe.total - jokers
    assert ways(shoe, [baccarat_class(p) for p in range(10)] + [JOKERS]) == math.prod(
        shoe.baccarat_classes(jokers=True).tolist()
    )


# ---------------------------------------------------------------------------------------
# Bad input: one line, naming the value
# ---------------------------------------------------------------------------------------


def refused(call, value) -> str:
    with pytest.raises(GamecoreError) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message and shown(value) in message, message
    return message


@given(st.one_of(st.floats(), st.text(max_size=5), st.booleans(), st.integers(-5, 0)))
def test_bad_deck_counts_refused(decks):
    refused(lambda: standard(decks), decks)


@given(st.one_of(st.integers(-(10**6), -1), st.floats(0, 5), st.sampled_from([2**31, None])))
def test_bad_card_counts_refused(bad):
    counts = [[1] * 4 for _ in range(13)]
    counts[3][2] = bad
    assert "4 of hearts" in refused(lambda: Shoe(counts), bad)
    refused(lambda: Shoe(standard(1).counts, bad), bad)
    refused(lambda: standard(2, bad), bad)


@given(st.text(max_size=8).filter(lambda t: t not in [*RANK_NAMES, *SUIT_NAMES, "red", "black"]))
def test_unknown_names_refused(name):
    refused(lambda: card(name, "hearts"), name)
    refused(lambda: card("Q", name), name)
    refused(lambda: rank(name), name)
    refused(lambda: suit(name), name)
    refused(lambda: colour(name), name)
    refused(lambda: blackjack_class(name), name)


def test_other_refusals():
    refused(lambda: Shoe([[1] * 4] * 12), [[1] * 4] * 12)
    refused(lambda: baccarat_class(10), 10)
    with pytest.raises(GamecoreError, match="no more of the Q of hearts"):
        standard(1).remove([card("Q", "hearts")] * 2)
    with pytest.raises(GamecoreError, match="no more of the joker"):
        standard(1).remove([JOKERS])
    refused(lambda: standard(1).remove([rank("Q")]), rank("Q"))
    with pytest.raises(GamecoreError, match="4 jokers has no blackjack classes"):
        standard(4, 1).blackjack_classes()
    with pytest.raises(GamecoreError, match="4 jokers has no baccarat point classes"):
        standard(4, 1).baccarat_classes()


def test_shoe_is_frozen():
    shoe = standard(1)
    with pytest.raises(AttributeError):
        shoe.jokers = 3
    with pytest.raises(ValueError):
        shoe.counts[0, 0] = 9
    view = shoe.baccarat_classes()
    view[0] = 0  # a view is a new array: the shoe is unchanged
    assert shoe.baccarat_classes()[0] == 16
    assert shoe == standard(1) and shoe != standard(2) and hash(shoe) == hash(standard(1))
