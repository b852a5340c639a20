"""The second twin of a bet on the dealer's final hand (issue 43, item 4): the bet simulated
at a full table, the bettor's hand and six other seats playing gamecore's basic strategy
before the dealer draws (gamecore.sidebets.table_play, checked card by card against a
plain-Python player in tests/test_sidebet_table_play.py), beside its exact figures under the
model (the dealer draws right after the four cards).

Why the figures barely move: each card the dealer draws after the table is, before it is
seen, a uniformly random card of those the bet has not named (the seats stop by their own
cards), so only the spread of the shoe they leave moves it, a second-order effect.
"""

from __future__ import annotations

import numpy as np
import pytest

from gamecore.errors import GamecoreError
from gamecore.sidebets import definition
from gamecore.sidebets.parsheet import par_sheet
from gamecore.sidebets.sim import sim_job, simulate
from gamecore.sidebets.table_effect import full_table_twin

BUSTER = definition.load("buster_blackjack")


def test_seats_only_for_a_bet_on_the_dealers_final_hand():
    with pytest.raises(GamecoreError, match="does not read the dealer's final hand"):
        sim_job(definition.load("perfect_pairs"), 6, seats=3)
    with pytest.raises(GamecoreError, match="seats 7 is not a whole number 0..6"):
        sim_job(BUSTER, 6, seats=7)


def test_the_seats_draw_before_the_dealer():
    # The same seed deals the same first cards; with seats playing, the dealer's draws come
    # from further down the shoe, so the tallies differ (they would not if the hook dealt
    # nothing), and the rounds still number those asked.
    model = simulate(BUSTER, 1, 20_000, 11)
    table = simulate(BUSTER, 1, 20_000, 11, seats=6)
    assert table.seats == 6 and model.seats == 0
    assert int(table.counts.sum()) == int(model.counts.sum()) == 20_000
    assert not np.array_equal(model.counts, table.counts)


def test_the_full_table_twin_depends_on_the_seed_only():
    one = simulate(BUSTER, 2, 70_000, 5, threads=1, seats=6)
    two = simulate(BUSTER, 2, 70_000, 5, threads=2, seats=6)
    assert np.array_equal(one.counts, two.counts)


def test_the_models_figures_move_at_second_order_only():
    check = full_table_twin(par_sheet(BUSTER, 6), 100_000, 3)
    assert list(check.columns[:5]) == [
        "Figure", "Model (exact)", "Full table (simulated)", "Moved", "SE"
    ]
    assert np.allclose(check["Moved"], check["Full table (simulated)"] - check["Model (exact)"])
    assert (check["z"].abs() < 4).all(), check
