"""Side-bet cases for ``benchmarks/bench.py``: name -> (callable, reference or None, target s).

Targets from issue 29: each built-in's exact par sheet at its default deck count (baccarat 8,
blackjack 6) in at most 1 s after compile on one core, a blackjack bet in at most 0.1 s.
Issue 43: any definition the language accepts within a second at 8 decks; the definitions
below are the shapes that took longest before (baccarat: suits on both hands' first cards,
every card's suit or colour, a poker hand over three cards or over both hands' three with
the winner or beside totals and ranks named, a rank named beside both hands' suits, rank
lists cutting the ten-valued ranks beside suits, third cards, named suits and colours, the
tableau's facts beside suits and ranks, every card's rank told apart beside the first four
cards' suits or beside twelve pairs suited; blackjack: suits or the same card on all four first
cards, a poker hand of three with a total, face cards listed with suits and a total), each
timed beside the plain enumeration where that finishes in seconds, so
the ratio does not depend on the machine: baccarat's every card through the tableau, every
suit string, no sum kept; blackjack's each card named over every kind, one pass a modulus
(:func:`gamecore.sidebets.exact.count_by_kind`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from gamecore import cards
from gamecore.baccarat.tableau import DRAWING
from gamecore.sidebets import definition
from gamecore.sidebets.exact import count_by_kind
from gamecore.sidebets.parsheet import par_sheet
from gamecore.sidebets.rounds import count_rounds

#: Issue 29's targets, seconds per par sheet after compile.
TARGETS = {"baccarat": 1.0, "blackjack": 0.1}
#: Issue 43's target for any definition at 8 decks, seconds per par sheet after compile.
ANY_DEFINITION = 1.0


def _definition(*outcomes: tuple[str, ...], game: str = "baccarat") -> str:
    """A definition of ``game`` at 8 decks: each outcome a tuple of its ``when`` lines."""
    lines = [f"bet: bench\ngame: {game}\ndecks: 8\noutcomes:"]
    for index, when in enumerate(outcomes):
        lines.append(f"  - name: Outcome {index}\n    when:")
        lines += [f"      {condition}" for condition in when]
        lines.append(f"    pays: {index + 2} to 1")
    return "\n".join(lines) + "\n"


_P3 = "[player_1, player_2, player_3]"
_B3 = "[banker_1, banker_2, banker_3]"
_FOUR = "[player_1, player_2, dealer_up, dealer_hole]"
#: The bits of a rank (A 1 .. K 13), each listed for every baccarat card: every rank apart.
_RANK_BITS = (
    "[A, 3, 5, 7, 9, J, K]",
    "[2, 3, 6, 7, 10, J]",
    "[4, 5, 6, 7, Q, K]",
    "[8, 9, 10, J, Q, K]",
)
_SIX = ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3")
_PAIRS = list(itertools.combinations(_SIX, 2))


def _rank_bits(beside: str) -> list[tuple[str, str]]:
    """Outcome ``i``: bit ``i`` of every card's rank set, and ``beside``."""
    return [(f"rank: {{{', '.join(f'{c}: {bits}' for c in _SIX)}}}", beside) for bits in _RANK_BITS]


#: Issue 43's shapes: name -> (definition, whether the plain enumeration is timed beside).
DEFINITIONS = {
    "perfect_pair_either_hand": (
        _definition(
            ("same_rank: [player_1, player_2]", "same_suit: [player_1, player_2]"),
            ("same_rank: [banker_1, banker_2]", "same_suit: [banker_1, banker_2]"),
        ),
        False,
    ),
    "six_suits_with_winner": (
        _definition(
            (f"same_suit: {_P3}", "winner: player"), (f"same_suit: {_B3}", "winner: banker")
        ),
        False,
    ),
    "six_colours": (
        _definition((f"same_colour: {_P3[:-1]}, banker_1, banker_2, banker_3]",)),
        False,
    ),
    "player_poker_three_cards": (
        _definition(
            (f"poker_hand: {{cards: {_P3}, class: [straight_flush, suited_three_of_a_kind]}}",),
            (f"poker_hand: {{cards: {_P3}, class: flush}}",),
            (f"poker_hand: {{cards: {_P3}, class: straight}}",),
        ),
        False,
    ),
    "heart_third_player_wins": (
        _definition(("suit: {player_3: hearts}", "winner: player")),
        True,
    ),
    "same_card_tie": (
        _definition(("same_card: [player_1, player_2]", "winner: tie")),
        True,
    ),
    "two_pokers_with_winner": (
        _definition(
            (f"poker_hand: {{cards: {_P3}, class: [straight_flush, flush]}}", "winner: player"),
            (f"poker_hand: {{cards: {_B3}, class: [straight_flush, flush]}}", "winner: banker"),
        ),
        False,
    ),
    "king_beside_six_suits": (
        _definition(
            ("rank: {player_1: K}", f"same_suit: {_P3}", "winner: player"),
            (f"same_suit: {_B3}", "winner: banker"),
        ),
        False,
    ),
    "tens_cut_by_rank_lists_beside_suits": (
        _definition(
            ("rank: {player_1: [10, J], banker_1: [Q, K, A]}", f"same_suit: {_P3}"),
            ("any: [{rank: {player_2: Q}}, {rank: {banker_3: K}}]", "winner: tie"),
            ("not: {rank: {player_3: [10, J]}}", "colour: {banker_3: red}", "natural: none"),
        ),
        False,
    ),
    "blackjack_faces_listed_with_total": (
        _definition(
            ("rank: {player_1: [J, Q, K], dealer_up: K}", "same_suit: [player_1, player_2]"),
            ("rank: {player_2: Q}", "colour: {dealer_hole: red}", "total: {player: 20}"),
            game="blackjack",
        ),
        True,
    ),
    "pokers_beside_totals_and_ranks": (
        _definition(
            (
                f"poker_hand: {{cards: {_P3}, class: [straight_flush, flush]}}",
                "total: {player: [0, 2, 4, 6, 8]}",
                "rank: {banker_1: [A, 3, 5, 7, 9, J], banker_2: [2, 4, 6, K],"
                " banker_3: [A, 2, 3, Q]}",
            ),
            (
                f"poker_hand: {{cards: {_B3}, class: [straight_flush, flush]}}",
                "total: {banker: [1, 3, 5, 7, 9]}",
                "rank: {player_1: [A, 3, 5, 7, 9, J], player_2: [2, 4, 6, K],"
                " player_3: [A, 2, 3, Q]}",
            ),
        ),
        False,
    ),
    "totals_margin_winner_beside_suits": (
        _definition(
            ("winner: player", "margin: [7, 8, 9]", "suit: {player_1: spades, player_2: spades}"),
            ("margin: [4, 5, 6]", "rank: {banker_2: [A, 2, 3]}", f"same_suit: {_B3}"),
            ("total: {player: [8, 9]}", "cards_dealt: 6", "colour: {player_3: red, banker_3: red}"),
        ),
        False,
    ),
    # 45 s before its suit sums were kept by the answer of its one test reading suits
    "rank_bits_beside_first_four_suits": (
        _definition(*_rank_bits("same_suit: [player_1, banker_1, player_2, banker_2]")),
        False,
    ),
    # 45 s before a sum by suit answers held only the answers reached (twelve tests)
    "rank_bits_beside_twelve_suited_pairs": (
        _definition(
            *(
                (rank, "any: [" + ", ".join(f"{{same_suit: [{a}, {b}]}}" for a, b in pairs) + "]")
                for (rank, _), pairs in zip(
                    _rank_bits(""),
                    (_PAIRS[3 * bit : 3 * bit + 3] for bit in range(4)),
                    strict=True,
                )
            )
        ),
        False,
    ),
    "blackjack_four_suited": (
        _definition((f"same_suit: {_FOUR}",), game="blackjack"),
        True,
    ),
    "blackjack_four_same_card": (
        _definition((f"same_card: {_FOUR}",), game="blackjack"),
        True,
    ),
    "blackjack_poker_three_with_total": (
        _definition(
            (
                "poker_hand: {cards: [player_1, player_2, dealer_up], class: straight_flush}",
                "total: {player: [20, 21]}",
            ),
            ("poker_hand: {cards: [player_1, player_2, dealer_up], class: flush}",),
            game="blackjack",
        ),
        True,
    ),
    # the player's cards counted after the dealer's hand (dealer_players): 70 s before
    "blackjack_player_total_with_suited_bust": (
        _definition(
            ("total: {player: [15, 16]}", "dealer_final: {bust: yes, suited: yes}"),
            ("natural: [player]", "dealer_final: {bust: yes}"),
            game="blackjack",
        ),
        False,
    ),
    # a player's card read finer than its points, its kind's share taken from its class's
    # (dealer_players): 82 s, 11.5 s and 2.1 s before
    "blackjack_player_ace_with_suited_bust": (
        _definition(
            ("rank: {player_1: A}", "dealer_final: {bust: yes, suited: yes}"),
            ("dealer_final: {bust: yes}",),
            game="blackjack",
        ),
        False,
    ),
    "blackjack_player_suited_with_bust": (
        _definition(
            ("same_suit: [player_1, player_2]", "dealer_final: {bust: yes}"), game="blackjack"
        ),
        False,
    ),
    # the up card and hole card dealt by kind beside the player's kinds: each deal's choices
    # settled one group of answers at a time (dealer_shares); 15 s and 2.6 s before
    "blackjack_king_of_up_suit_and_hole_card_with_bust": (
        _definition(
            (
                "rank: {player_1: K}",
                "same_suit: [player_1, dealer_up]",
                "dealer_final: {bust: yes}",
            ),
            ("same_card: [player_2, dealer_hole]", "dealer_final: {bust: no}"),
            game="blackjack",
        ),
        False,
    ),
    "blackjack_poker_with_up_card_beside_bust": (
        _definition(
            (
                "poker_hand: {cards: [player_1, player_2, dealer_up], class: [flush, straight]}",
                "dealer_final: {bust: yes}",
            ),
            game="blackjack",
        ),
        False,
    ),
    "blackjack_player_pair_with_bust": (
        _definition(
            ("same_rank: [player_1, player_2]", "dealer_final: {bust: yes}"),
            ("rank: {player_2: K}", "dealer_final: {total: [20, 21]}"),
            game="blackjack",
        ),
        False,
    ),
}


def _plain_count(bet: definition.SideBet, shoe: cards.Shoe) -> Callable[[], object]:
    """The plain enumeration of ``bet`` from ``shoe`` (the module docstring's), to time."""
    if bet.game == "baccarat":
        return lambda: count_rounds(bet, shoe, DRAWING, plain=True)
    return lambda: count_by_kind(bet, shoe)


def cases() -> dict:
    """Every built-in side bet's exact par sheet at its default decks, with its target, then
    issue 43's definitions at 8 decks (beside the plain enumeration where it is timed).

    Returns
    -------
    dict
        ``"sidebet_<name>_<decks>_decks"`` -> (callable, reference or None, target seconds).
    """
    found = {}
    for name in definition.builtin_names():
        bet = definition.load(name)
        found[f"sidebet_{name}_{bet.decks}_decks"] = (
            lambda bet=bet: par_sheet(bet),
            None,
            TARGETS[bet.game],
        )
    eight = cards.standard(8)
    for name, (text, plain) in DEFINITIONS.items():
        bet = definition.parse(text.encode(), f"{name}.yaml")
        reference = _plain_count(bet, eight) if plain else None
        found[f"sidebet_{name}_8_decks"] = (
            lambda bet=bet: par_sheet(bet),
            reference,
            ANY_DEFINITION,
        )
    return found
