"""A side bet's order checked at every deck count (issue 43): an outcome that earlier
outcomes take whole at every deck count is refused whatever the deck count asked for, in
one line naming it and the earlier outcomes; an outcome that merely cannot happen at the
count asked for (an identical pair from one deck) stays on the sheet with 0 ways and a
note. The brute force below deals two cards from shoes of 1 to 4 decks in plain Python."""

from __future__ import annotations

import itertools
import re

import pytest
from sidebet_samples import IDENTICAL_THEN_ANY_PAIR

from gamecore import cards
from gamecore.errors import GamecoreError
from gamecore.sidebets.definition import parse
from gamecore.sidebets.parsheet import par_sheet, print_sheet

#: An identical pair (same rank and suit) after any pair: any pair takes every identical
#: pair at every deck count; with one deck there is no identical pair to take at all.
MISORDERED = b"""\
bet: misordered
title: Misordered Pair
game: blackjack
outcomes:
  - name: Any pair
    when:
      same_rank: [player_1, player_2]
    pays: 5 to 1
  - name: Identical pair
    when:
      same_card: [player_1, player_2]
    pays: 25 to 1
"""


#: The refusal, whatever the count asked for.
REFUSAL = re.compile(
    r"misordered\.yaml:9: outcome 'Identical pair' is never paid: at every deck count, "
    r"every deal it matches is taken by an earlier outcome \('Any pair'\); "
    r"refused at (1 deck|[\d,]+ decks) as at any other"
)


@pytest.mark.parametrize("decks", [1, 2, 6, 1000])
def test_an_outcome_taken_at_every_count_is_refused_at_any_count(decks):
    with pytest.raises(GamecoreError) as caught:
        par_sheet(parse(MISORDERED, "misordered.yaml"), decks)
    message = str(caught.value)
    assert "\n" not in message
    match = REFUSAL.fullmatch(message)
    assert match, message
    assert match.group(1) == ("1 deck" if decks == 1 else f"{decks:,} decks")


def test_an_outcome_impossible_at_one_deck_only_stays_with_zero_ways(capsys):
    # The two outcomes of MISORDERED in the right order: paid from two decks on.
    bet = parse(IDENTICAL_THEN_ANY_PAIR, "ordered.yaml")
    one = par_sheet(bet, 1)
    assert one.never == ("Identical pair",)
    assert one.lines[0].combinations == 0
    assert one.lines[1].combinations == 52 * 3  # a card, then one of the 3 others of its rank
    print_sheet(one)
    assert "note: 'Identical pair' cannot happen with 1 deck" in capsys.readouterr().out
    two = par_sheet(bet, 2)
    assert two.never == ()
    assert two.lines[0].combinations == 104 * 1  # a card, then its one twin


# ---------------------------------------------------------------------------------------
# Brute force: two cards, every order of a few outcomes, shoes of 1 to 4 decks
# ---------------------------------------------------------------------------------------

#: Outcomes on the player's two cards: the file's conditions, and the same test in Python.
OUTCOMES = {
    "Pair": ("same_rank: [player_1, player_2]", lambda a, b: a[0] == b[0]),
    "Colour pair": (
        "same_rank: [player_1, player_2]\n      same_colour: [player_1, player_2]",
        lambda a, b: a[0] == b[0] and _red(a) == _red(b),
    ),
    "Identical": ("same_card: [player_1, player_2]", lambda a, b: a == b),
    "Suited": ("same_suit: [player_1, player_2]", lambda a, b: a[1] == b[1]),
    "Colour": ("same_colour: [player_1, player_2]", lambda a, b: _red(a) == _red(b)),
}

#: Deck counts of the brute force (two cards: from two decks on, every pair can happen).
BRUTE_DECKS = (1, 2, 3, 4)


def _red(card: tuple[str, str]) -> bool:
    return card[1] in ("diamonds", "hearts")


def _definition(names: tuple[str, ...]) -> bytes:
    lines = ["bet: order", "game: blackjack", "outcomes:"]
    for name in names:
        condition = OUTCOMES[name][0]
        lines += [f"  - name: {name}", "    when:", f"      {condition}", "    pays: 1 to 1"]
    return ("\n".join(lines) + "\n").encode()


def _brute(names: tuple[str, ...], decks: int) -> tuple[list[int], list[set[str]]]:
    """Ways each outcome is paid (then the losing deals), and for each outcome the earlier
    outcomes that pay a deal it matches, dealing two of ``decks`` x 52 cards."""
    suits = ("clubs", "diamonds", "hearts", "spades")
    kinds = [(rank, suit) for rank in cards.RANKS for suit in suits]
    paid = [0] * (len(names) + 1)
    takers: list[set[str]] = [set() for _ in names]
    for first, second in itertools.product(kinds, repeat=2):
        ways = decks * (decks - (first == second))
        if ways == 0:
            continue
        holds = [OUTCOMES[name][1](first, second) for name in names]
        pays = holds.index(True) if True in holds else len(names)
        paid[pays] += ways
        for index, held in enumerate(holds):
            if held and pays < index:
                takers[index].add(names[pays])
    return paid, takers


ORDERS = list(itertools.permutations(OUTCOMES, 2)) + [
    ("Colour", "Pair", "Identical"),
    ("Identical", "Suited", "Colour pair"),
    ("Suited", "Colour", "Identical"),
]


@pytest.mark.parametrize("names", ORDERS, ids=" / ".join)
def test_the_refusal_agrees_with_a_brute_force_over_deck_counts(names):
    brute = {decks: _brute(names, decks) for decks in BRUTE_DECKS}
    hidden = [
        index
        for index in range(len(names))
        if all(brute[d][0][index] == 0 for d in BRUTE_DECKS)
        and any(brute[d][1][index] for d in BRUTE_DECKS)
    ]
    bet = parse(_definition(names), "order.yaml")
    for decks in (1, 3):
        if hidden:
            with pytest.raises(GamecoreError) as caught:
                par_sheet(bet, decks)
            first = hidden[0]
            takers = set().union(*(brute[d][1][first] for d in BRUTE_DECKS))
            listed = ", ".join(f"'{name}'" for name in names if name in takers)
            assert f"outcome '{names[first]}' is never paid" in str(caught.value)
            assert f"earlier outcome ({listed});" in str(caught.value)
        else:
            sheet = par_sheet(bet, decks)
            assert [line.combinations for line in sheet.lines] == brute[decks][0]
