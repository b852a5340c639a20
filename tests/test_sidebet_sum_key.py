"""Issue 43, item 1: a baccarat round's suit sum is kept by what the tests make of its fine
cards' ranks (which fine cards share a rank class, each ``rank`` test's answer, whether each
poker hand's three ranks are a straight, each class's row of kind counts), not by the rank
classes themselves, so that rounds of different ranks share one sum. Checked against the
slow pure-Python reference dealing every physical card sequence of tiny shoes
(tests/sidebet_reference.py), on shoes whose ranks and suits are alike and on shoes where
they are not (the rows of kind counts then tell classes apart), and the key's table of
straights against the reference's own poker classes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sidebet_reference as ref
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from sidebet_samples import tiny_shoe

from gamecore import cards
from gamecore.sidebets import sum_keys
from gamecore.sidebets.definition import parse
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.program import classes
from gamecore.sidebets.round_cards import round_program
from gamecore.sidebets.suitorbits import detail_count
from gamecore.sidebets.sum_keys import split_tests


def _text(*outcomes: tuple[str, ...]) -> str:
    """A baccarat definition: each outcome a tuple of its ``when`` lines."""
    lines = ["bet: made\ngame: baccarat\ndecks: 8\noutcomes:"]
    for index, when in enumerate(outcomes):
        lines.append(f"  - name: Outcome {index}\n    when:")
        lines += [f"      {condition}" for condition in when]
        lines.append(f"    pays: {index + 2} to 1")
    return "\n".join(lines) + "\n"


_P3, _B3 = "[player_1, player_2, player_3]", "[banker_1, banker_2, banker_3]"
#: Shapes whose every card is dealt by rank: the two poker hands with their winners (issue
#: 43's slowest); a king named beside both hands' suits; straights and pairs over the first
#: four cards (always dealt) beside ranks named on first and third cards; poker hands over
#: third cards (a hand holds no class where one of its cards is not dealt).
SHAPES = {
    "two poker hands, winners": _text(
        (f"poker_hand: {{cards: {_P3}, class: [straight_flush, flush]}}", "winner: player"),
        (f"poker_hand: {{cards: {_B3}, class: [straight_flush, flush]}}", "winner: banker"),
    ),
    "a king beside six suits": _text(
        ("rank: {player_1: K}", f"same_suit: {_P3}", "winner: player"),
        (f"same_suit: {_B3}", "winner: banker"),
    ),
    "straights of the first cards, ranks named": _text(
        (
            "poker_hand: {cards: [player_1, banker_1, player_2], class: [straight, pair]}",
            "rank: {banker_2: [A, 2, K]}",
        ),
        (
            "poker_hand: {cards: [banker_1, player_2, banker_2], class: straight_flush}",
            "rank: {player_3: [A, Q], banker_1: [2, 3, Q]}",
        ),
        (f"poker_hand: {{cards: {_P3}, class: flush}}", "rank: {banker_3: 3}", "natural: none"),
    ),
    "poker hands over third cards": _text(
        (f"poker_hand: {{cards: {_B3}, class: [straight, high_card]}}",),
        ("poker_hand: {cards: [player_3, banker_3, player_1], class: [pair, three_of_a_kind]}",),
        (f"poker_hand: {{cards: {_P3}, class: pair}}", "winner: player"),
    ),
}


def _agrees(shape: str, ranks: list[int], suits: list[int]) -> None:
    shoe, physical = tiny_shoe(ranks, suits)
    total, paid, _ = count_outcomes(parse(SHAPES[shape].encode(), "made.yaml"), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(SHAPES[shape]), physical)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_against_every_physical_sequence_of_a_tiny_shoe_of_straights(shape):
    # A, 2, 3, Q, K (straights A-2-3 and Q-K-A, K-A-2 none) in two suits, the ace in a third:
    # 9 P 6 = 60,480 sequences, many rounds of one key but different ranks.
    ranks = [0, 0, 0, 1, 2, 11, 12, 1, 12]
    _agrees(shape, ranks, [0, 1, 2, 0, 0, 1, 1, 1, 0])


@settings(max_examples=6, deadline=None)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    ranks=st.lists(st.sampled_from([0, 1, 2, 9, 11, 12]), min_size=8, max_size=8),
    suits=st.lists(st.sampled_from(range(4)), min_size=8, max_size=8),
)
def test_every_shape_against_every_physical_sequence_of_any_tiny_shoe(shape, ranks, suits):
    # Ranks whose rows of kind counts differ, suits not alike (few or no renamings).
    _agrees(shape, ranks, suits)


def test_the_key_reads_straights_as_the_reference_classes_them():
    bet = parse(SHAPES["two poker hands, winners"].encode(), "made.yaml")
    split = _split(bet, cards.standard(8))
    assert split.straights.tolist() == [[0, 2, 4], [1, 3, 5]]  # each hand's positions
    for index in itertools.product(range(13), repeat=3):
        three = tuple((cards.RANKS[r], suit) for r, suit in zip(index, "shd", strict=True))
        straight = ref.poker_class(three) == "straight"
        assert split.straight[tuple(np.array(index) + 1)] == straight, index


def _split(bet, shoe: cards.Shoe):
    program = round_program(bet)[0]
    shoe_classes = classes(bet, shoe)
    return split_tests(program, shoe_classes, detail_count(shoe_classes), bet.game)


def test_a_card_s_id_is_its_rank_tests_answers_and_its_row_of_kind_counts(monkeypatch):
    # Full shoe: every rank alike, so a card's id is the answers of its rank tests alone
    # (one id where none, two where one list is named); a shoe less the ace of spades
    # tells the ace's class apart from the other classes by its row of kind counts. Keyed
    # by the answers of its tests reading suits (its keys by outcome, six poker hands'
    # straights, could outgrow the table), a card's id is its row of kind counts alone.
    bet = parse(SHAPES["straights of the first cards, ranks named"].encode(), "made.yaml")
    by_answers = _split(bet, cards.standard(2))
    assert by_answers.by_answers and not by_answers.ids.any()
    monkeypatch.setattr(sum_keys, "SUIT_ANSWER_BITS", -1)  # by outcome
    full = _split(bet, cards.standard(2))
    assert not full.by_answers
    ids = [len(set(row)) for row in full.ids.tolist()]
    assert ids == [1, 2, 1, 2, 2, 2]  # player_1 banker_1 player_2 banker_2 player_3 banker_3
    assert full.ids[3, 0] == full.ids[3, 1] == full.ids[3, 12] != full.ids[3, 5]
    less = _split(bet, cards.standard(2).remove([cards.card("A", "spades")]))
    assert [len(set(row)) for row in less.ids.tolist()] == [2, 3, 2, 3, 3, 3]
    assert less.ids[0, 0] != less.ids[0, 1] == less.ids[0, 12]
