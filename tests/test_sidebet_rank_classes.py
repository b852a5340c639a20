"""Issue 43, item 1: the rank classes a count deals are the coarsest partition of the ranks
that every condition reading ranks respects: the point classes, cut only where a ``rank``
condition's list holds some ranks of a point class and not the others, every rank apart
where a condition compares ranks (``same_rank``, ``same_card``, ``poker_hand``) or reads the
dealer's final hand. Checked against partitions counted by hand, and the counts of shapes
whose lists cut the ten-valued ranks in different ways against the slow pure-Python
reference dealing every physical card sequence of tiny shoes (tests/sidebet_reference.py),
on shoes of several ten-valued ranks in unequal numbers."""

from __future__ import annotations

import pytest
import sidebet_reference as ref
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from sidebet_samples import tiny_shoe

from gamecore import cards
from gamecore.sidebets.definition import parse
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.program import RANK, classes, rank_classes
from gamecore.sidebets.removal import effects_of_removal, expected_return


def _text(game: str, *outcomes: tuple[str, ...]) -> str:
    """A definition of ``game``: each outcome a tuple of its ``when`` lines."""
    lines = [f"bet: made\ngame: {game}\ndecks: 8\noutcomes:"]
    for index, when in enumerate(outcomes):
        lines.append(f"  - name: Outcome {index}\n    when:")
        lines += [f"      {condition}" for condition in when]
        lines.append(f"    pays: {index + 2} to 1")
    return "\n".join(lines) + "\n"


_TENS = ("10", "J", "Q", "K")
_OTHERS = [[name] for name in cards.RANKS[:9]]  # A, 2..9: a point class each
#: Shapes, and their rank classes counted by hand (the ace and 2..9 each a class of their
#: own in both games; only the ten-valued ranks are ever merged).
SHAPES = {
    "a king beside suits and the winner": (
        _text(
            "baccarat",
            ("rank: {player_1: K}", "same_suit: [player_1, player_2, player_3]", "winner: player"),
            ("same_suit: [banker_1, banker_2, banker_3]", "winner: banker"),
        ),
        [["10", "J", "Q"], ["K"]],
    ),
    "faces, a colour and a total": (
        _text(
            "baccarat",
            ("rank: {banker_1: [J, Q, K]}", "colour: {banker_1: red}", "total: {banker: 7}"),
            ("rank: {player_3: [K, J, Q]}", "same_suit: [player_1, player_3]", "winner: player"),
        ),
        [["10"], ["J", "Q", "K"]],
    ),
    "two lists, either or not": (
        _text(
            "baccarat",
            ("rank: {player_1: [10, J], banker_1: [Q, K, A]}", "suit: {banker_1: spades}"),
            ("any: [{rank: {player_2: Q}}, {rank: {banker_2: [Q, K]}}]", "natural: any"),
            ("not: {rank: {player_3: [10, J]}}", "colour: {player_3: black}", "winner: tie"),
        ),
        [["10", "J"], ["Q"], ["K"]],
    ),
    "lists of whole point classes": (
        _text(
            "baccarat",
            (
                "rank: {player_1: [A, 5], banker_1: [K, Q, J, 10]}",
                "same_suit: [player_1, banker_1]",
            ),
        ),
        [list(_TENS)],
    ),
    "a ten list beside a pair": (
        _text(
            "baccarat",
            ("rank: {player_1: [10, K]}", "same_rank: [banker_1, banker_2]", "winner: banker"),
            ("rank: {player_1: Q}", "suit: {player_1: hearts}"),
        ),
        [[name] for name in _TENS],
    ),
    "blackjack faces suited": (
        _text(
            "blackjack",
            ("rank: {player_1: [J, Q, K], player_2: [J, Q, K]}", "same_suit: [player_1, player_2]"),
            ("rank: {dealer_up: K}", "colour: {dealer_hole: red}", "total: {dealer: [20, 21]}"),
        ),
        [["10"], ["J", "Q"], ["K"]],
    ),
    "blackjack queen and a list": (
        _text(
            "blackjack",
            ("rank: {player_1: Q, player_2: [Q, 10]}", "suit: {player_1: hearts}", "natural: none"),
            (
                "rank: {player_1: Q}",
                "total: {player: 20}",
                "not: {same_colour: [player_1, dealer_up]}",
            ),
        ),
        [["10"], ["J", "K"], ["Q"]],
    ),
    "blackjack poker beside a list": (
        _text(
            "blackjack",
            (
                "rank: {dealer_up: K}",
                "poker_hand: {cards: [player_1, player_2, dealer_hole], class: pair}",
            ),
        ),
        [[name] for name in _TENS],
    ),
}


def _partition(rank_of: tuple[int, ...]) -> list[list[str]]:
    """The classes of ``rank_of`` as lists of rank names, in rank order."""
    by_class: dict[int, list[str]] = {}
    for r, c in enumerate(rank_of):
        by_class.setdefault(c, []).append(cards.RANKS[r])
    return sorted(by_class.values(), key=lambda names: cards.RANKS.index(names[0]))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_rank_classes_are_the_coarsest_the_lists_make(shape):
    text, tens = SHAPES[shape]
    bet = parse(text.encode(), "made.yaml")
    assert _partition(rank_classes(bet)) == _OTHERS + tens


def test_a_final_hand_read_sets_every_rank_apart():
    text = _text(
        "blackjack", ("rank: {dealer_up: K}", "dealer_final: {bust: yes}"), ("rank: {player_1: A}",)
    )
    text = text.replace("decks: 8\n", "decks: 8\ndealer: {soft_17: stands}\n")
    bet = parse(text.encode(), "made.yaml")
    assert _partition(rank_classes(bet)) == [[name] for name in cards.RANKS]


def test_a_merged_class_holds_its_ranks_cards_suit_by_suit():
    # A king named beside suits: the 10, J and Q of each suit are one kind of 3 x 8 cards
    # (8 decks), the king of each suit 8; 11 rank classes by 4 suits.
    bet = parse(SHAPES["a king beside suits and the winner"][0].encode(), "made.yaml")
    shoe = classes(bet, cards.standard(8))
    assert shoe.sizes.tolist() == [10, 44]
    ranks = shoe.attributes[1, RANK, :44]
    tens = [k for k in range(44) if cards.RANKS[ranks[k]] in ("10", "J", "Q")]
    kings = [k for k in range(44) if cards.RANKS[ranks[k]] == "K"]
    assert len(tens) == len(kings) == 4
    assert shoe.counts[1, tens].tolist() == [24] * 4
    assert shoe.counts[1, kings].tolist() == [8] * 4
    assert shoe.counts[1, :44].sum() == 416


#: Tiny shoes of several ten-valued ranks in unequal numbers and suits (a merged class's
#: cards the sum of its ranks', each suit's too): 9 cards for baccarat (9 P 6 = 60,480
#: sequences), 10 for blackjack (10 P 4 = 5,040).
_SHOES = {
    "baccarat": ([9, 10, 10, 11, 12, 12, 0, 4, 6], [0, 1, 2, 1, 1, 3, 1, 0, 2]),
    "blackjack": ([9, 10, 11, 11, 12, 12, 0, 9, 1, 12], [2, 1, 2, 1, 1, 3, 1, 0, 2, 2]),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_against_every_physical_sequence_of_a_tiny_shoe_of_tens(shape):
    text = SHAPES[shape][0]
    definition = yaml.safe_load(text)
    shoe, physical = tiny_shoe(*_SHOES[definition["game"]])
    total, paid, _ = count_outcomes(parse(text.encode(), "made.yaml"), shoe)
    assert (total, paid) == ref.brute_force_counts(definition, physical)


@settings(max_examples=6, deadline=None)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    ranks=st.lists(st.sampled_from([0, 4, 9, 10, 11, 12]), min_size=8, max_size=8),
    suits=st.lists(st.sampled_from(range(4)), min_size=8, max_size=8),
)
def test_every_shape_against_every_physical_sequence_of_any_tiny_shoe(shape, ranks, suits):
    # Ten-valued ranks in any numbers and suits (a merged class's ranks unequal, suits not
    # alike: few or no renamings).
    text = SHAPES[shape][0]
    shoe, physical = tiny_shoe(ranks, suits)
    total, paid, _ = count_outcomes(parse(text.encode(), "made.yaml"), shoe)
    assert (total, paid) == ref.brute_force_counts(yaml.safe_load(text), physical)


def test_each_card_s_effect_of_removal_is_the_shoe_less_that_card_s():
    # The effects of removal count one shoe less a card for each kind and give it to every
    # card of the kind; a merged class's cards (the red J, Q and K here: 11 rank classes by
    # 2 colours) must then have the effect of their own removal, counted from the shoe less
    # that very card.
    text = _text("blackjack", ("rank: {player_1: [J, Q, K]}", "colour: {player_1: red}"))
    bet = parse(text.encode(), "made.yaml")
    effects = effects_of_removal(bet, 1)
    shoe = cards.standard(1)
    for name in ("10 of hearts", "J of hearts", "Q of diamonds", "K of hearts", "K of spades"):
        rank, suit = name.split(" of ")
        own = expected_return(bet, shoe.remove([cards.card(rank, suit)])) - effects.full_ev
        assert effects.by_card[name] == own, name
    assert effects.by_card["J of hearts"] == effects.by_card["K of diamonds"]
    assert effects.by_card["10 of hearts"] != effects.by_card["J of hearts"]


@pytest.mark.parametrize(
    ("when", "read_by_points"),
    [
        (("rank: {player_1: A}",), {"player_1"}),
        (("rank: {player_1: [10, J, Q, K], player_2: [2, 9]}",), {"player_1", "player_2"}),
        (("rank: {player_1: [J, Q, K]}",), set()),  # the 10 left out of its class
        (("rank: {player_1: A, player_2: K}",), {"player_1"}),
        (("rank: {player_1: A}", "same_rank: [player_1, player_2]"), set()),  # compared
        (("not: {rank: {dealer_up: [A, 10, J, Q, K]}}",), {"dealer_up"}),
        (
            (
                "any: [{rank: {player_2: A}}, {poker_hand: {cards: [player_2, dealer_up,"
                " dealer_hole], class: flush}}]",
            ),
            set(),
        ),
    ],
)
def test_a_card_is_read_by_points_where_every_rank_list_naming_it_is_whole_point_classes(
    when, read_by_points
):
    # Such a card of a bet on the dealer's final hand is counted at its point class after
    # the dealer's hand (dealer_players): each list answers alike on every rank of a class.
    # By hand: the blackjack classes are A, 2..9 and the four ten-valued ranks together.
    from gamecore.sidebets.program import ranks_by_points

    bet = parse(_text("blackjack", when).encode(), "made.yaml")
    assert ranks_by_points(bet) == read_by_points
