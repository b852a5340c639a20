"""Issue 43, item 1: a baccarat side bet counted at the coarsest detail each card needs (the
tableau only where a condition reads it, suits by pattern under the renamings neither bet
nor shoe tells apart, suit sums kept by key, every modulus in one pass), against values
derived without those reductions: the slow pure-Python reference dealing every physical
card sequence of tiny shoes (tests/sidebet_reference.py), the plain enumeration with no
reduction on shoes whose suits are not alike (where the renamings must fall back), the
renamings counted by hand, and the bound on work refusing what the new loops would still
take too long on."""

from __future__ import annotations

import itertools
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
from gamecore.errors import GamecoreError
from gamecore.exactcount import exact_counts, exact_counts_at_once
from gamecore.sidebets.definition import parse
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.program import classes
from gamecore.sidebets.round_cards import reads_tableau
from gamecore.sidebets.rounds import count_rounds
from gamecore.sidebets.suitorbits import suit_trie, symmetries
from gamecore.sidebets.work import MAX_DEALS, check_work


def _text(*outcomes: tuple[str, ...], decks: int = 8) -> str:
    """A baccarat definition: each outcome a tuple of its ``when`` lines."""
    lines = [f"bet: made\ngame: baccarat\ndecks: {decks}\noutcomes:"]
    for index, when in enumerate(outcomes):
        lines.append(f"  - name: Outcome {index}\n    when:")
        lines += [f"      {condition}" for condition in when]
        lines.append(f"    pays: {index + 2} to 1")
    return "\n".join(lines) + "\n"


#: Definitions of every shape the reductions treat apart: first cards only (the tableau
#: skipped), third cards and the tableau's facts, a named suit or colour (fewer renamings),
#: colours beside suits, ranks by name (suit sums keyed by the rank tests' answers), poker
#: hands.
SHAPES = {
    "either hand suited": _text(
        ("same_suit: [player_1, player_2]", "same_rank: [player_1, player_2]"),
        ("same_suit: [banker_1, banker_2]",),
    ),
    "heart third, player wins": _text(("suit: {player_3: hearts}", "winner: player")),
    "red banker third, banker 7": _text(("colour: {banker_3: red}", "total: {banker: 7}")),
    "player's colours, three cards": _text(
        ("same_colour: [player_1, player_2, player_3]", "hand_cards: {player: 3}")
    ),
    "six suits, winners": _text(
        ("same_suit: [player_1, player_2, player_3]", "winner: player"),
        ("same_suit: [banker_1, banker_2, banker_3]", "winner: banker"),
    ),
    "poker, player's three": _text(
        ("poker_hand: {cards: [player_1, player_2, player_3], class: [flush, straight]}",),
        ("poker_hand: {cards: [player_1, player_2, player_3], class: pair}", "natural: none"),
    ),
    "suited first cards": _text(("same_suit: [player_1, banker_1]", "natural: none")),
    "same card, natural": _text(("same_card: [player_1, banker_1]", "natural: any")),
    "king suited with the next": _text(
        ("rank: {player_1: K}", "same_suit: [player_1, player_2]"),
        ("same_colour: [player_1, banker_3]", "suit: {player_2: spades}"),
    ),
}


def _engine(text: str):
    return parse(text.encode(), "made.yaml")


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_against_every_physical_sequence_of_a_symmetric_tiny_shoe(shape):
    # Two ranks in every suit (8 cards): every suit renaming is a symmetry of the shoe, so
    # the count takes its suit patterns, and 8 P 6 = 20,160 sequences are dealt one by one.
    shoe, physical = tiny_shoe([0, 0, 0, 0, 12, 12, 12, 12], [0, 1, 2, 3] * 2)
    total, paid, _ = count_outcomes(_engine(SHAPES[shape]), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(SHAPES[shape]), physical)


@settings(max_examples=8, deadline=None)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    ranks=st.lists(st.sampled_from([0, 4, 8, 9, 12]), min_size=8, max_size=8),
    suits=st.lists(st.sampled_from(range(4)), min_size=8, max_size=8),
)
def test_every_shape_against_every_physical_sequence_of_any_tiny_shoe(shape, ranks, suits):
    # Tiny shoes of any suits: the renamings the shoe allows (often none) are found on it.
    shoe, physical = tiny_shoe(ranks, suits)
    total, paid, _ = count_outcomes(_engine(SHAPES[shape]), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(SHAPES[shape]), physical)


def _less(shoe: cards.Shoe, *removed: tuple[str, str]) -> cards.Shoe:
    return shoe.remove([cards.card(rank, suit) for rank, suit in removed])


#: The shapes whose plain enumeration takes seconds at most (few cards read by suit).
PLAIN_SHAPES = ("heart third, player wins", "red banker third, banker 7", "suited first cards")


@pytest.mark.parametrize("shape", PLAIN_SHAPES)
def test_shapes_as_the_plain_enumeration_on_shoes_full_and_less_some_cards(shape):
    # The plain enumeration deals every card through the tableau, every suit string, keeps
    # no sum. A shoe less a heart keeps only the renamings of the other suits; less a heart
    # and a club, the swap of diamonds and spades alone; two decks less two aces of spades
    # and a four of diamonds, the rank classes' rows of counts differ too (the suit sums'
    # keys tell them apart).
    bet = _engine(SHAPES[shape])
    one = cards.standard(1)
    shoes = [
        one,
        _less(one, ("7", "hearts")),
        _less(one, ("7", "hearts"), ("K", "clubs")),
        _less(cards.standard(2), ("A", "spades"), ("A", "spades"), ("4", "diamonds")),
    ]
    for shoe in shoes:
        assert count_rounds(bet, shoe, DRAWING) == count_rounds(bet, shoe, DRAWING, plain=True)


def test_the_renamings_follow_the_conditions_and_the_shoe():
    def group(shape_text: str, shoe: cards.Shoe) -> int:
        bet = _engine(shape_text)
        return len(symmetries(bet, classes(bet, shoe)))

    one = cards.standard(1)
    suits = SHAPES["six suits, winners"]
    assert group(suits, one) == 24  # every permutation of the four suits
    assert group(suits, _less(one, ("7", "hearts"))) == 6  # hearts kept: the other three
    assert group(SHAPES["heart third, player wins"], one) == 6  # hearts named
    # Colours read: the two colours apart (only suits are read with them: 8 renamings),
    # a colour named: the swaps inside each colour (4); colours alone: both colours (2).
    colours = _text(("same_colour: [player_1, banker_1]", "same_suit: [player_2, banker_2]"))
    assert group(colours, one) == 8
    assert group(SHAPES["king suited with the next"], one) == 2  # spades named, colours
    assert group(_text(("colour: {player_1: red, banker_1: red}",)), one) == 1
    assert group(_text(("same_colour: [player_1, banker_1]",)), one) == 2
    # A shoe with a colour short: no renaming of colours
    assert group(_text(("same_colour: [player_1, banker_1]",)), _less(one, ("A", "clubs"))) == 1


def test_the_suit_patterns_are_the_orbits_counted_by_hand():
    # Strings of n suits up to any renaming: set partitions into at most 4 blocks (1, 1, 2,
    # 5, 15, 51, 187), each orbit as large as the ways to name its blocks (4 P blocks).
    every = list(itertools.permutations(range(4)))
    trie = suit_trie(every, 6)
    assert np.diff(trie.depth_start).tolist() == [1, 1, 2, 5, 15, 51, 187]
    for node in range(len(trie.weight)):
        string = trie.strings[node][trie.strings[node] >= 0].tolist()
        assert trie.weight[node] == math.perm(4, len(set(string)))
    for depth in range(7):  # the orbits cover every string once
        nodes = range(trie.depth_start[depth], trie.depth_start[depth + 1])
        assert sum(int(trie.weight[n]) for n in nodes) == 4**depth
    # No renaming: every string, each its own orbit
    plain = suit_trie([(0, 1, 2, 3)], 3)
    assert np.diff(plain.depth_start).tolist() == [1, 4, 16, 64]
    assert set(plain.weight.tolist()) == {1}


def test_a_bet_reads_the_tableau_only_through_its_facts_or_third_cards():
    assert not reads_tableau(_engine(SHAPES["either hand suited"]))
    assert not reads_tableau(_engine(SHAPES["same card, natural"]))
    assert reads_tableau(_engine(SHAPES["heart third, player wins"]))
    assert reads_tableau(_engine(_text(("same_rank: [player_3, banker_1]",))))
    assert reads_tableau(_engine(_text(("margin: [0]", "same_suit: [player_1, banker_1]"))))


def test_one_pass_under_every_modulus_rebuilds_what_one_pass_each_does():
    rng = np.random.default_rng(43)
    truth = np.array([int(x) for x in rng.integers(0, 2**62, 5)], dtype=object) ** 3
    bound = int(max(truth)) + 1

    def each(modulus: int) -> np.ndarray:
        return np.array([int(t % modulus) for t in truth], dtype=np.int64)

    def together(moduli: np.ndarray) -> np.ndarray:
        return np.array([each(int(m)) for m in moduli])

    assert list(exact_counts_at_once(together, bound)) == list(truth)
    assert list(exact_counts(each, bound)) == list(truth)


def test_counts_past_int64_from_one_pass_are_the_closed_forms_at_1000_decks():
    # Counts past int64 rebuilt from one pass under four primes. No third card is read, so
    # a pair's four other cards of the six counted fall in any order: the player's first two
    # the same card, N (d - 1) ways; the banker's the same suit, N (13 d - 1).
    decks, n = 1000, 52_000
    total, paid, matched = count_outcomes(
        _engine(SHAPES["either hand suited"]), cards.standard(decks)
    )
    assert total == math.perm(n, 6) > 2**63
    assert paid[0] == matched[0] == n * (decks - 1) * math.perm(n - 2, 4)
    assert matched[1] == n * (13 * decks - 1) * math.perm(n - 2, 4)
    assert sum(paid) == total


def test_a_definition_the_new_loops_would_still_take_minutes_on_is_refused_before_counting():
    # Every card's rank told apart (four rank tests, the bits of its rank: more keys by
    # outcome than the table keeps) beside the first three cards' suits named, other suits
    # in each outcome: twelve tests reading suits, more than a suit sum is kept by
    # (gamecore.sidebets.sum_keys.SUIT_ANSWER_BITS), and no renaming of suits keeping them,
    # so every round deals its 4**6 suit strings afresh: more than the bound at any deck
    # count, refused in well under a second. The same ranks beside the first four cards'
    # suits, a heart named or not, are kept by their one or two suit answers: 294,723,676
    # and 1,121,231,212 deals (45 s and 163 s of CPU at 8 decks) before, a few million now.
    bits = ("[2, 4, 6, 8, 10, Q]", "[3, 4, 7, 8, J, Q]", "[5, 6, 7, 8, K]", "[9, 10, J, Q, K]")
    six = ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3")
    suits = ("clubs", "diamonds", "hearts", "spades")
    ranks = [f"rank: {{{', '.join(f'{c}: {b}' for c in six)}}}" for b in bits]
    named = [
        "suit: {" + ", ".join(f"{c}: {suits[(i + k) % 4]}" for k, c in enumerate(six[:3])) + "}"
        for i in range(len(bits))
    ]
    refused = _engine(_text(*zip(ranks, named, strict=True)))
    for decks in (1, 8, 1000):
        with pytest.raises(GamecoreError, match=f"would settle .* deals .*{MAX_DEALS:,}"):
            check_work(refused, decks)
    suited = [(r, "same_suit: [player_1, banker_1, player_2, banker_2]") for r in ranks]
    hearts = _engine(_text(suited[0] + ("suit: {player_1: hearts}",), *suited[1:]))
    for bet in (_engine(_text(*suited)), hearts):
        assert check_work(bet, 8).total < 10_000_000
