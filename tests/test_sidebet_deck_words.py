"""A side bet's deck count in words wherever it is printed (issue 43): "1 deck", never
"1 decks", and "N decks" for any other count (thousands separated, as every count the
project prints) — in the par sheet's header and notes, in a refusal, in a simulated twin's
rows and its refusal, and in a counter's verdict."""

from __future__ import annotations

import re

import pytest
from sidebet_builtins import builtin
from sidebet_samples import IDENTICAL_THEN_ANY_PAIR

from gamecore import cards
from gamecore.errors import GamecoreError
from gamecore.sidebets import sim
from gamecore.sidebets.counting import countability
from gamecore.sidebets.definition import parse
from gamecore.sidebets.parsheet import par_sheet, print_sheet

#: A pair of one colour after any pair: never paid, with one deck as with more.
SHADOWED = b"""\
bet: shadowed
game: blackjack
outcomes:
  - name: Any pair
    when:
      same_rank: [player_1, player_2]
    pays: 5 to 1
  - name: Coloured pair
    when:
      same_rank: [player_1, player_2]
      same_colour: [player_1, player_2]
    pays: 10 to 1
"""

#: "1 decks" standing alone (not the end of "11 decks" or "1,001 decks").
ONE_DECKS = re.compile(r"(?<![\d,])1 decks")

DECK_COUNTS = [1, 2, 3, 8, 11, 1000]


def _words(decks: int) -> str:
    """The deck count as the issue states it: one deck singular, any other count plural."""
    return "1 deck" if decks == 1 else f"{decks:,} decks"


@pytest.mark.parametrize("decks", DECK_COUNTS)
def test_the_par_sheet_names_its_deck_count_in_words(decks, capsys):
    print_sheet(par_sheet(parse(IDENTICAL_THEN_ANY_PAIR, "identical.yaml"), decks))
    text = capsys.readouterr().out
    assert text.splitlines()[0] == f"Identical Pair (blackjack, {_words(decks)})"
    note = f"note: 'Identical pair' cannot happen with {_words(decks)}"
    assert (note in text) == (decks == 1), text
    assert not ONE_DECKS.search(text), text


@pytest.mark.parametrize("decks", [1, 2, 11])
def test_a_refusal_names_its_deck_count_in_words(decks):
    with pytest.raises(GamecoreError) as caught:
        par_sheet(parse(SHADOWED, "shadowed.yaml"), decks)
    message = str(caught.value)
    assert message.endswith(f"refused at {_words(decks)} as at any other"), message
    assert not ONE_DECKS.search(message), message


def test_a_twins_rows_and_refusal_name_their_deck_counts_in_words():
    bet = parse(IDENTICAL_THEN_ANY_PAIR, "identical.yaml")
    table = sim.deck_sweep_twin_table(bet, [1, 2], rounds=1_000, seed=3)
    assert {figure.rpartition(", ")[2] for figure in table["Figure"]} == {"1 deck", "2 decks"}
    with pytest.raises(GamecoreError) as caught:
        sim.twin_table(par_sheet(bet, 1), sim.simulate(bet, 2, 1_000, seed=3))
    message = str(caught.value)
    assert "identical at 1 deck, the simulation identical at 2 decks" in message, message


def test_a_counters_verdict_names_one_deck_in_words():
    tags = dict.fromkeys(cards.RANKS, 0)
    run = countability(builtin("lucky_ladies"), 1, tags, 1.0, 14, shoes=20, seed=1)
    assert ", 1 deck, " in run.verdict(), run.verdict()
    assert run.countability_row()["What is counted"].startswith("Lucky Ladies, 1 deck, cut")
    assert not ONE_DECKS.search(run.verdict() + run.countability_row()["What is counted"])
