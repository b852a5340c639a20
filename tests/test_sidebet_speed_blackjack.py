"""Issue 43, item 1, for blackjack: a bet that does not read the dealer's final hand counted
by the rounds of rank classes (suits by pattern under the renamings neither bet nor shoe
tells apart, suit sums kept by key, every modulus in one pass), against values derived
without those reductions: the slow pure-Python reference dealing every physical card
sequence of tiny shoes (tests/sidebet_reference.py), the per-kind enumeration (each card
named over every kind of the bet, one pass per modulus) on shoes whose suits are not alike
(where the renamings must fall back), closed forms past int64, and the bound on work
counted by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sidebet_reference as ref
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from sidebet_samples import tiny_shoe

from gamecore import cards
from gamecore.baccarat.tableau import DRAWING
from gamecore.sidebets.definition import parse
from gamecore.sidebets.exact import count_by_kind, count_outcomes
from gamecore.sidebets.rounds import count_rounds
from gamecore.sidebets.work import MAX_DEALS, check_work, deals_per_pass, removal_counts


def _text(*outcomes: tuple[str, ...]) -> str:
    """A blackjack definition: each outcome a tuple of its ``when`` lines."""
    lines = ["bet: made\ngame: blackjack\ndecks: 8\noutcomes:"]
    for index, when in enumerate(outcomes):
        lines.append(f"  - name: Outcome {index}\n    when:")
        lines += [f"      {condition}" for condition in when]
        lines.append(f"    pays: {index + 2} to 1")
    return "\n".join(lines) + "\n"


_FOUR = "[player_1, player_2, dealer_up, dealer_hole]"
_POKER = "poker_hand: {cards: [player_1, player_2, dealer_up], class:"
#: Definitions of every shape the reductions treat apart: suits of all four cards (one
#: renaming group, rank classes by point), the same card (rank classes by rank), a suit or
#: colour named (fewer renamings), colours beside suits, ranks by name (suit sums keyed by
#: the class itself), poker hands with a total or a natural (facts in the key), composites,
#: one card alone, and no card read finer than its point (no suit sum).
SHAPES = {
    "four suited": _text((f"same_suit: {_FOUR}",)),
    "four same card": _text((f"same_card: {_FOUR}",), ("same_card: [player_1, dealer_up]",)),
    "hearts up, suited player": _text(
        ("suit: {dealer_up: hearts}", "same_suit: [player_1, player_2]"),
        ("same_suit: [player_1, player_2]",),
    ),
    "poker of three with a total": _text(
        (f"{_POKER} [straight_flush, suited_three_of_a_kind]}}", "total: {player: [20, 21]}"),
        (f"{_POKER} flush}}",),
        (f"{_POKER} straight}}", "natural: none"),
    ),
    "poker with the hole card, dealer natural": _text(
        (
            "poker_hand: {cards: [player_1, dealer_up, dealer_hole], class: [pair, flush]}",
            "natural: [dealer]",
        ),
        ("natural: any",),
    ),
    "ranks named, colours": _text(
        ("rank: {player_1: [K, Q], dealer_up: A}", "same_colour: [player_1, dealer_up]"),
        ("rank: {dealer_hole: [2, 3, 4]}", "suit: {dealer_hole: [spades, clubs]}"),
    ),
    "any and not": _text(
        (
            "any:",
            "  - {same_suit: [player_1, player_2]}",
            "  - {same_card: [dealer_up, dealer_hole]}",
            "not: {natural: [player]}",
        ),
        (
            "all:",
            "  - {same_colour: [player_1, dealer_up]}",
            "  - {same_colour: [player_2, dealer_hole]}",
        ),
    ),
    "four colours, a red hole card": _text(
        (f"same_colour: {_FOUR}", "colour: {dealer_hole: red}"), (f"same_colour: {_FOUR}",)
    ),
    "pairs of rank with totals": _text(
        ("same_rank: [player_1, player_2]", "total: {player: 20}"),
        ("same_rank: [dealer_up, dealer_hole]", "total: {dealer: [12, 14, 16]}"),
    ),
    "one card's suit": _text(("suit: {player_1: spades}",)),
    "naturals only": _text(("natural: [player, dealer]",), ("natural: any",)),
}


def _engine(text: str):
    return parse(text.encode(), "made.yaml")


def test_a_blackjack_round_is_the_cards_named_none_completed():
    # The total is the falling factorial of the shoe to the cards the conditions read (as
    # the reference reads them from the text): a card not named is not dealt, and no deal
    # is completed past them as a baccarat round is to six.
    one = cards.standard(1)
    for text in SHAPES.values():
        named = len({name for o in yaml.safe_load(text)["outcomes"] for name in _named(o)})
        total, paid, _ = count_rounds(_engine(text), one, DRAWING)
        assert total == sum(paid) == math.perm(52, named)


def _named(outcome: dict) -> set[str]:
    """The cards an outcome's conditions read, from the text (the reference's reading)."""
    return set(ref.card_levels({"game": "blackjack", "outcomes": [outcome]}))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_against_every_physical_sequence_of_a_symmetric_tiny_shoe(shape):
    # Queens, kings and aces in every suit (12 cards): every suit renaming is a symmetry
    # of the shoe, naturals, straights (Q-K-A) and suited trips of one rank class can be
    # dealt, and 12 P 4 = 11,880 sequences are dealt one by one.
    shoe, physical = tiny_shoe([11] * 4 + [12] * 4 + [0] * 4, [0, 1, 2, 3] * 3)
    total, paid, _ = count_outcomes(_engine(SHAPES[shape]), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(SHAPES[shape]), physical)


@settings(max_examples=10, deadline=None)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    ranks=st.lists(st.sampled_from([0, 4, 9, 11, 12]), min_size=9, max_size=9),
    suits=st.lists(st.sampled_from(range(4)), min_size=9, max_size=9),
)
def test_every_shape_against_every_physical_sequence_of_any_tiny_shoe(shape, ranks, suits):
    # Tiny shoes of any suits, twin cards allowed: the renamings the shoe allows (often
    # none) are found on it.
    shoe, physical = tiny_shoe(ranks, suits)
    total, paid, _ = count_outcomes(_engine(SHAPES[shape]), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(SHAPES[shape]), physical)


def _less(shoe: cards.Shoe, *removed: tuple[str, str]) -> cards.Shoe:
    return shoe.remove([cards.card(rank, suit) for rank, suit in removed])


#: Shapes whose per-kind enumeration takes a fraction of a second at most.
BY_KIND_SHAPES = (
    "four suited",
    "hearts up, suited player",
    "ranks named, colours",
    "four colours, a red hole card",
    "poker of three with a total",
)


@pytest.mark.parametrize("shape", BY_KIND_SHAPES)
def test_shapes_as_the_per_kind_enumeration_on_shoes_full_and_less_some_cards(shape):
    # The per-kind enumeration deals each card named over every kind of the bet, keeps no
    # sum, one pass per modulus. A shoe less a heart keeps only the renamings of the other
    # suits; less a heart and a club, the swap of diamonds and spades alone; two decks less
    # two aces of spades and a four of diamonds, the rank classes' rows of counts differ
    # too (the suit sums' keys tell them apart).
    bet = _engine(SHAPES[shape])
    one = cards.standard(1)
    shoes = [
        one,
        _less(one, ("7", "hearts")),
        _less(one, ("7", "hearts"), ("K", "clubs")),
        _less(cards.standard(2), ("A", "spades"), ("A", "spades"), ("4", "diamonds")),
    ]
    for shoe in shoes:
        assert count_rounds(bet, shoe, DRAWING) == count_by_kind(bet, shoe)


def test_counts_past_int64_from_one_pass_are_the_closed_forms():
    # 2,000 decks (past the CLI's 1,000, where four cards' deals still fit in int64):
    # 104,000 P 4 passes 2^63, so the one pass runs under several primes. The same card
    # four times: any first card, then d - 1, d - 2, d - 3 of its copies; four suited:
    # 13 d - 1, 13 d - 2, 13 d - 3 of its suit.
    decks = 2000
    n = 52 * decks
    shoe = cards.Shoe(np.full((13, 4), decks, dtype=np.int64))
    total, paid, matched = count_outcomes(_engine(SHAPES["four same card"]), shoe)
    assert total == math.perm(n, 4) > 2**63
    assert paid[0] == n * (decks - 1) * (decks - 2) * (decks - 3)
    assert matched[1] == n * (decks - 1) * math.perm(n - 2, 2)  # player_1 and the up card
    assert sum(paid) == total
    total, paid, _ = count_outcomes(_engine(SHAPES["four suited"]), shoe)
    suit = 13 * decks
    assert paid == [n * (suit - 1) * (suit - 2) * (suit - 3), total - paid[0]]


def test_the_bound_on_work_counts_the_rank_classes_and_the_suit_patterns():
    # The same card on all four: 13 ranks a card (13^4 rounds); every rank class has one
    # row of counts, so a suit sum's key is the partition of the four cards into equal
    # ranks (Bell's number, 15), and each sum deals the 15 suit patterns of four cards under
    # every renaming (set partitions of 4 into at most 4 blocks).
    same_card = _engine(SHAPES["four same card"])
    assert deals_per_pass(same_card) == 13**4 + 15 * 15
    # No card read finer than its point class: the 10 point classes of each card, no suit.
    assert deals_per_pass(_engine(SHAPES["naturals only"])) == 10**4
    # One pass takes every modulus: the effects of removal at 1,000 decks (53 counts) stay
    # far inside the bound (the per-kind loops took 387,515,648 deals).
    work = check_work(same_card, 1000, removal_counts(same_card))
    assert work.passes == 1 and work.counts == 53
    assert work.total < MAX_DEALS // 100
