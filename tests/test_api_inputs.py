"""Every public entry point, given garbage for one argument at a time, either works or
raises GamecoreError: never a TypeError, AttributeError or KeyError from deep inside.

The same calls are fuzzed with random values in test_properties (many more under
``make fuzz``)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore import (
    baccarat,
    c21_baccarat,
    counting,
    countresults,
)
from gamecore import blackjack as bj
from gamecore.counting import CounterRun
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError
from gamecore.parallel import Run

GARBAGE = [
    None,
    "x",
    -1,
    0,
    1.5,
    float("nan"),
    float("inf"),
    True,
    [],
    [1, 1, 1],
    {},
    10**30,
    np.int64(5),
    object(),
]

PUNTO = baccarat.PuntoBancoRules(decks=1)
EZ = baccarat.EZBaccaratRules(decks=1)
C21 = c21_baccarat.C21BaccaratRules(decks=1)
BLACKJACK = bj.C21BlackjackRules(decks=2)
TAGS = {rank: 0 for rank in baccarat.removal.RANKS}
C21_TAGS = {rank: 0 for rank in c21_baccarat.removal.RANK_NAMES}
EZ_COUNT = baccarat.counting.SideBetCount(EZ, TAGS)


@functools.cache
def _blackjack_count():
    """The blackjack count the counter calls need, made on first use (a few seconds)."""
    return bj.counting.count_analysis(BLACKJACK)


PROCEDURES = pd.DataFrame(
    {
        "Decks": [1],
        "Procedure": ["shoe to a cut card"],
        "Cards behind the cut card": [14],
        "Shoes": [5_000],
        "Money per hour at the table maximum": [-1.0],
        "SE (money per hour)": [0.5],
    }
)
QUIET = {"progress": False}

CALLS = {
    "baccarat.exact composition": lambda g: baccarat.exact(PUNTO, composition=g),
    "baccarat.exact rules": lambda g: baccarat.exact(g),
    "baccarat.infinite_deck rules": lambda g: baccarat.infinite_deck(g),
    "baccarat.sim.simulate rounds": lambda g: baccarat.sim.simulate(PUNTO, g, 1, **QUIET),
    "baccarat.sim.simulate seed": lambda g: baccarat.sim.simulate(PUNTO, 10, g, **QUIET),
    "baccarat.sim.simulate dealing": lambda g: baccarat.sim.simulate(
        PUNTO, 10, 1, dealing=g, **QUIET
    ),
    "baccarat.sim.simulate threads": lambda g: baccarat.sim.simulate(
        PUNTO, 10, 1, threads=g, **QUIET
    ),
    "baccarat.sim.simulate dask": lambda g: (
        g is None or baccarat.sim.simulate(PUNTO, 10, 1, dask=g, **QUIET)
    ),
    "Dealing mode": lambda g: Dealing(mode=g),
    "Dealing penetration": lambda g: Dealing(mode="shoe", penetration=g),
    "Dealing burn": lambda g: Dealing(burn=g),
    "c21_baccarat.count_deals composition": lambda g: c21_baccarat.count_deals(C21, g),
    "c21_baccarat.count_deals rules": lambda g: c21_baccarat.count_deals(g),
    "c21_baccarat.player_strategy": lambda g: c21_baccarat.player_strategy(C21, "x", g),
    "c21_baccarat.dealer_strategy": lambda g: c21_baccarat.dealer_strategy(C21, "x", g),
    "c21_baccarat.sim.simulate players": lambda g: c21_baccarat.sim.simulate(
        C21, Run(10, 1, **QUIET), players=g
    ),
    "c21_baccarat.sim.simulate player": lambda g: (
        g is None or c21_baccarat.sim.simulate(C21, Run(10, 1, **QUIET), player=g)
    ),
    "c21_baccarat.sim.simulate dealer": lambda g: (
        g is None or c21_baccarat.sim.simulate(C21, Run(10, 1, **QUIET), dealer=g)
    ),
    "c21_baccarat.sim.simulate run": lambda g: c21_baccarat.sim.simulate(C21, g),
    "parallel.Run rounds": lambda g: Run(g, 1),
    "parallel.Run seed": lambda g: Run(10, g),
    "parallel.Run threads": lambda g: Run(10, 1, threads=g),
    "parallel.Run progress": lambda g: Run(10, 1, progress=g),
    "counting.CounterRun shoes": lambda g: CounterRun(g, 1),
    "counting.CounterRun trigger": lambda g: CounterRun(10, 1, trigger=g),
    "counting.CounterRun ramp": lambda g: CounterRun(10, 1, ramp=g),
    "counting.CounterRun dealing": lambda g: CounterRun(10, 1, dealing=g),
    "counting.CounterRun players": lambda g: CounterRun(10, 1, players=g),
    "counting.CounterRun seat": lambda g: CounterRun(10, 1, players=3, seat=g),
    "counting.CounterRun turn_rounds": lambda g: CounterRun(10, 1, turn_rounds=g),
    "counting.CounterRun bank_at": lambda g: CounterRun(10, 1, turn_rounds=2, bank_at=g),
    "counting.CounterRun index_plays": lambda g: CounterRun(10, 1, index_plays=g),
    "blackjack.exact composition": lambda g: bj.exact(BLACKJACK, composition=g),
    "blackjack.exact strategy": lambda g: bj.exact(BLACKJACK, strategy=g),
    "blackjack.exact search_chart": lambda g: bj.exact(BLACKJACK, search_chart=g),
    "blackjack.hand_values up_card": lambda g: bj.hand_values(BLACKJACK, g, ["10", "6"]),
    "blackjack.hand_values cards": lambda g: bj.hand_values(BLACKJACK, "10", g),
    "blackjack.hand_values composition": lambda g: bj.hand_values(
        BLACKJACK, "10", ["10", "6"], composition=g
    ),
    "blackjack.dealer_final_distribution up_card": lambda g: bj.dealer_final_distribution(
        BLACKJACK, g
    ),
    "blackjack.dealer_final_distribution composition": lambda g: bj.dealer_final_distribution(
        BLACKJACK, "10", composition=g
    ),
    "blackjack.read_strategy_chart": lambda g: bj.read_strategy_chart(g),
    "blackjack.StrategyChart": lambda g: bj.StrategyChart(g),
    "blackjack.deck_sweep": lambda g: bj.deck_sweep(BLACKJACK, g),
    "blackjack.rule_costs": lambda g: bj.rule_costs(BLACKJACK, g),
    "bj.sim.simulate chart": lambda g: bj.sim.simulate(BLACKJACK, g, 10, 1, **QUIET),
    "bj.sim.simulate_dealer rounds": lambda g: bj.sim.simulate_dealer(BLACKJACK, g, 1, **QUIET),
    "bj.results.result_distribution composition": lambda g: bj.results.result_distribution(
        BLACKJACK, None, composition=g
    ),
    "baccarat.removal.tags_by_class": lambda g: baccarat.removal.tags_by_class(g),
    "baccarat.removal.effects_of_removal_by_bet composition": lambda g: (
        baccarat.removal.effects_of_removal_by_bet(PUNTO, g)
    ),
    "blackjack.counting.count_analysis composition": lambda g: bj.counting.count_analysis(
        BLACKJACK, composition=g
    ),
    "blackjack.counting.count_analysis strategy": lambda g: (
        g is None or bj.counting.count_analysis(BLACKJACK, strategy=g)
    ),
    "c21_baccarat.removal.count_analysis composition": lambda g: (
        c21_baccarat.removal.count_analysis(C21, g)
    ),
    "c21_baccarat.removal.count_analysis rules": lambda g: c21_baccarat.removal.count_analysis(g),
    "blackjack.counter.counter_simulation count": lambda g: bj.counter.counter_simulation(
        g, CounterRun(10, 1)
    ),
    "blackjack.counter.counter_simulation run": lambda g: bj.counter.counter_simulation(
        _blackjack_count(), g
    ),
    "blackjack.counter.counter_simulation trigger": lambda g: bj.counter.counter_simulation(
        _blackjack_count(), CounterRun(10, 1, trigger=g, **QUIET)
    ),
    "blackjack.counter.counter_simulation dealing": lambda g: (
        g is None
        or bj.counter.counter_simulation(_blackjack_count(), CounterRun(10, 1, dealing=g, **QUIET))
    ),
    "countresults.verdict threshold": lambda g: countresults.verdict(PROCEDURES, g),
    "c21_baccarat.counting.TagCount tags": lambda g: c21_baccarat.counting.TagCount(C21, g),
    "c21_baccarat.counting.TagCount rules": lambda g: c21_baccarat.counting.TagCount(g, C21_TAGS),
    "c21_baccarat.counting.counter_simulation count": lambda g: (
        c21_baccarat.counting.counter_simulation(g, CounterRun(10, 1, players=2))
    ),
    "c21_baccarat.counting.counter_simulation run": lambda g: (
        c21_baccarat.counting.counter_simulation(c21_baccarat.counting.TagCount(C21, C21_TAGS), g)
    ),
    "c21_baccarat.counting.counter_simulation trigger": lambda g: (
        c21_baccarat.counting.counter_simulation(
            c21_baccarat.counting.TagCount(C21, C21_TAGS), CounterRun(10, 1, g, players=2)
        )
    ),
    "c21_baccarat.counting.counter_simulation players": lambda g: (
        c21_baccarat.counting.counter_simulation(
            c21_baccarat.counting.TagCount(C21, C21_TAGS), CounterRun(10, 1, players=g)
        )
    ),
    "c21_baccarat.counting.perfect_information_simulation run": lambda g: (
        c21_baccarat.counting.perfect_information_simulation(
            c21_baccarat.counting.TagCount(C21, C21_TAGS), g
        )
    ),
    "counting.Deck.tags": lambda g: counting.Deck(("a", "b"), (1, 1)).tags(g),
    "counting.balanced_tags max_tag": lambda g: counting.balanced_tags(
        {"a": 1.0, "b": -1.0}, counting.Deck(("a", "b"), (1, 1)), g
    ),
    "counting.betting_correlation": lambda g: counting.betting_correlation(
        g, g, counting.Deck(("a", "b"), (1, 1))
    ),
    "baccarat.removal.balanced_tags max_tag": lambda g: baccarat.removal.balanced_tags(
        {r: i for i, r in enumerate(baccarat.removal.RANKS)}, g
    ),
    "baccarat.removal.betting_correlation": lambda g: baccarat.removal.betting_correlation(g, g),
    "baccarat.counting.SideBetCount tags": lambda g: baccarat.counting.SideBetCount(EZ, g),
    "baccarat.counting.SideBetCount bet": lambda g: baccarat.counting.SideBetCount(EZ, TAGS, g),
    "baccarat.counting.SideBetCount base_bet": lambda g: baccarat.counting.SideBetCount(
        EZ, TAGS, base_bet=g
    ),
    "baccarat.counting.counter_simulation count": lambda g: baccarat.counting.counter_simulation(
        g, CounterRun(10, 1, [0], **QUIET)
    ),
    "baccarat.counting.counter_simulation run": lambda g: baccarat.counting.counter_simulation(
        EZ_COUNT, g
    ),
    "baccarat.counting.counter_simulation penetration": lambda g: (
        baccarat.counting.counter_simulation(
            EZ_COUNT, CounterRun(10, 1, [0], dealing=Dealing(mode="shoe", penetration=g), **QUIET)
        )
    ),
    "baccarat.counting.perfect_information_simulation count": lambda g: (
        baccarat.counting.perfect_information_simulation(g, CounterRun(2, 1, **QUIET))
    ),
    "baccarat.counting.procedure_table rounds_per_hour": lambda g: (
        baccarat.counting.procedure_table(
            EZ_COUNT,
            CounterRun(2, 1, 0, **QUIET),
            penetrations=[14],
            deck_counts=[1],
            rounds_per_hour=g,
        )  # fmt: skip
    ),
    "baccarat.counting.procedure_table penetrations": lambda g: baccarat.counting.procedure_table(
        EZ_COUNT, CounterRun(2, 1, 0, **QUIET), penetrations=g, deck_counts=[1]
    ),
}


def _works_or_refuses(call, value) -> None:
    try:
        call(value)
    except GamecoreError:
        pass


@pytest.mark.parametrize("name", sorted(CALLS))
def test_garbage_arguments_work_or_are_refused_with_a_gamecore_error(name):
    for value in GARBAGE:
        _works_or_refuses(CALLS[name], value)


hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.lists(st.one_of(st.integers(-3, 3), st.floats(), st.text(max_size=2)), max_size=12),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=4),
)


@given(st.sampled_from(sorted(CALLS)), hostile)
def test_random_arguments_work_or_are_refused_with_a_gamecore_error(name, value):
    _works_or_refuses(CALLS[name], value)
