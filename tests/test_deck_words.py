"""A deck count in the names the other games give their figures and charts (issue 43):
"1 deck", never "1 decks", and "N decks" for more — the baccarat deck sweep's twin rows and
the blackjack charts' names."""

from __future__ import annotations

from gamecore import baccarat
from gamecore import blackjack as bj


def test_the_baccarat_deck_sweeps_rows_name_their_deck_counts_in_words():
    check = baccarat.sim.deck_sweep_cross_check(baccarat.PuntoBancoRules(), 2, 10_000, seed=3)
    for figure, decks in zip(check["Figure"], check["Decks"], strict=True):
        assert figure.endswith(", 1 deck" if decks == 1 else f", {decks} decks"), figure


def test_a_one_deck_blackjack_chart_is_named_with_one_deck():
    analysis = bj.exact(bj.C21BlackjackRules(decks=1))
    assert analysis.derived_chart.name == "derived chart (c21_blackjack, 1 deck)"
    assert analysis.chart.name.endswith(", 1 deck)"), analysis.chart.name
