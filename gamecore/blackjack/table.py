"""The full table of (c21) blackjack: up to seven players and the P/D dealt from one shoe.

Central idea
------------
The simulator's round kernel (:mod:`gamecore.blackjack.dealt`) deals a whole table: two
cards to each seat in seat order, then the P/D's up and hole cards, every seat playing the
same strategy against the one P/D hand. Each round's result of every seat goes to
:mod:`gamecore.banking`, which says what the P/D's seat carries: its SD at a full table, the
covariance between seats, coverage from a stake, the risk of ruin over a shift, rotation.

The exact twins. With a shuffle every round each seat's result has exactly the heads-up
distribution: the other seats' first cards are a fixed number of cards off the top, and
their draws look only at their own cards and the up card; dealing those draws from the
bottom of the shoe instead would change no card's chance at any draw (each draw is uniform
over the unseen cards either way) and leaves the seat's and the P/D's cards where a heads-up
round puts them. So each seat's EV and SD are the heads-up exact figures, and the P/D's EV
at full coverage is minus the number of players times the EV. The covariance between seats
has no exact figure here: it is simulated, with its SE.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from gamecore import banking
from gamecore.banking import Bank, BankFigures, BankTallies
from gamecore.blackjack.counter import default_dealing
from gamecore.blackjack.dealt import simulate_rounds, simulate_shoes
from gamecore.blackjack.results import ResultDistribution
from gamecore.blackjack.round_tables import (
    C_RESHUFFLED,
    C_TABLE_ROUNDS,
    Dealt,
    RoundInputs,
    RoundOutputs,
    fresh_dealing,
    new_counter_tallies,
    new_scratch,
    new_tallies,
)
from gamecore.blackjack.rules import (
    StandardBlackjackRules,
    check_rules,
    rule_codes,
    shoe_composition,
)
from gamecore.blackjack.shoe import check_players
from gamecore.blackjack.sim import OPTIMAL, strategy_policy
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import Run, sum_tallies

#: Rounds per chunk, about (a whole number of shifts, so every shift lies in one chunk).
CHUNK_ROUNDS = 1 << 16


@dataclasses.dataclass(frozen=True)
class TableSimulation:
    """Simulated rounds of a full table and what they say about the P/D's seat."""

    rules: StandardBlackjackRules
    strategy: str
    players: int
    dealing: Dealing
    rounds: int
    seed: int
    figures: BankFigures
    reshuffled_rounds: int = 0  # rounds finished from the reshuffled discards (real shoes)

    def cross_check(self, exact: ResultDistribution) -> pd.DataFrame:
        """Every figure with an exact value beside its twin (:func:`gamecore.twins.twin_table`):
        each seat's EV and SD (the heads-up figures: see the module), the P/D's EV at full
        coverage, and each person's result under rotation (exactly 0 before the collection).
        The exact SD is approximate where resplits happen (marked, outside the 4-sigma rule).

        Parameters
        ----------
        exact : ResultDistribution
            The heads-up result distribution of the same rules and strategy.

        Returns
        -------
        pandas.DataFrame
            One row per figure (:func:`gamecore.twins.twin_table`): ``Figure``, ``Exact``,
            ``Simulated``, ``SE``, ``z``, then the seat, the rounds and whether the exact
            value is approximate.
        """
        if not isinstance(exact, ResultDistribution):
            raise GamecoreError(f"exact must be a ResultDistribution, got {shown(exact)}")
        if exact.strategy != self.strategy or exact.rules.resolved() != self.rules.resolved():
            raise GamecoreError(
                f"exact is for {shown(exact.strategy)} under other rules; the table played "
                f"{shown(self.strategy)}"
            )
        if self.dealing.mode != "fresh":
            raise GamecoreError(
                "the exact figures describe a shuffle every round; cross-check a table "
                "simulated with Dealing(mode='fresh')"
            )
        return self.figures.exact_twins(
            exact.mean, exact.standard_deviation, sd_approximate=exact.resplit_share > 0
        )

    def to_dict(self) -> dict[str, Any]:
        """The table run as the command line's JSON shows it.

        Returns
        -------
        dict
            The game, players, strategy, rounds, seed, dealing, the rounds finished from the
            reshuffled discards, the P/D seat's figures (:func:`gamecore.banking.to_dict`)
            and the rules.
        """
        return {
            "game": self.rules.game,
            "players": self.players,
            "strategy": self.strategy,
            "rounds": self.rounds,
            "seed": self.seed,
            "dealing": self.dealing.to_dict(),
            "reshuffled_rounds": self.reshuffled_rounds,
            **banking.to_dict(self.figures),
            "rules": self.rules.to_dict(),
        }


def simulate_table(
    rules: StandardBlackjackRules,
    players: int,
    strategy: Any,
    run: Run,
    dealing: Dealing | None = None,
    bank: Bank | None = None,
) -> TableSimulation:
    """Deal ``run.rounds`` rounds of ``players`` players (1..7) and the P/D from one shoe,
    every player on ``strategy``, one unit each. Fixed chunks seeded from
    ``numpy.random.SeedSequence(run.seed)``, each a whole number of shifts of consecutive
    rounds: the result depends on the seed only, not on the threads.

    Parameters
    ----------
    rules, players
        The rule set and the players at the table.
    strategy
        A chart, a chart CSV path, or ``"optimal"``.
    run
        Rounds, seed, threads and the progress bar (:class:`gamecore.parallel.Run`; not on
        Dask).
    dealing
        Default the game's reading (real shoes to a cut card,
        :func:`gamecore.blackjack.counting.default_dealing`); ``Dealing(mode="fresh")`` is a
        shuffle every round, the exact figures' dealing.
    bank
        The P/D's stake, the shift and the rotation (:class:`gamecore.banking.Bank`).

    Returns
    -------
    TableSimulation
        The table's rounds read for the P/D's seat (:class:`gamecore.banking.BankFigures`).

    Examples
    --------
    >>> from gamecore import blackjack
    >>> from gamecore.dealing import Dealing
    >>> from gamecore.parallel import Run
    >>> rules = blackjack.C21BlackjackRules(decks=6)
    >>> run = simulate_table(rules, 7, "optimal", Run(2_000, seed=1), dealing=Dealing("fresh"))
    >>> run.figures.seat_table()["Seat"].tolist()
    [1, 2, 3, 4, 5, 6, 7]
    """
    rules = check_rules(rules)
    resolved = rules.resolved()
    players = check_players(rules, players)
    if not isinstance(run, Run):
        raise GamecoreError(f"run must be a Run (rounds, seed, ...), got {shown(run)}")
    if run.dask is not None:
        raise GamecoreError("dask does not apply to a table run")
    bank = Bank() if bank is None else bank
    if not isinstance(bank, Bank):
        raise GamecoreError(
            f"bank must be a Bank (stake, bankrolls, shift_rounds, turn_rounds), got {shown(bank)}"
        )
    dealing = Dealing.given(dealing, default_dealing(rules))
    chart, policy = strategy_policy(resolved, strategy)
    shoe = np.repeat(np.arange(10, dtype=np.int64), shoe_composition(resolved.decks))
    dealt = _table_dealt(resolved, players, dealing, shoe.size)
    chunk = bank.shift_rounds * max(1, CHUNK_ROUNDS // bank.shift_rounds)
    job = (shoe, policy, rule_codes(resolved), dealt, bank, dealing.mode == "fresh")
    results = run.run_chunks(_run_table_chunk, job, chunk, f"{rules.game} table")
    *parts, bad, reshuffled = sum_tallies(results)
    if bad:
        raise GamecoreError("the strategy asked for an action the rules forbid")
    figures = BankFigures(players, bank, BankTallies(*parts))
    name = OPTIMAL if chart is None else chart.name
    return TableSimulation(
        rules, name, players, dealing, run.rounds, run.seed, figures, int(reshuffled)
    )


def _table_dealt(rules, players: int, dealing: Dealing, cards: int) -> Dealt:
    """The round kernel's dealing for a table: fresh, or shoes to the cut card (``rules``
    resolved)."""
    if dealing.mode == "fresh":
        return fresh_dealing(players, float(rules.natural_pays))
    if dealing.burn != "none":
        raise GamecoreError(
            f"blackjack is dealt without a burn here, got burn={shown(dealing.burn)}"
        )
    least = 2 * (players + 1)  # a round's first cards
    if not least <= dealing.penetration <= cards - least:
        raise GamecoreError(
            f"penetration must be from {least} to {cards - least} cards for a {cards}-card "
            f"shoe and {players} players, got {dealing.penetration}"
        )
    return fresh_dealing(players, float(rules.natural_pays))._replace(
        penetration=dealing.penetration
    )


def _run_table_chunk(job_and_chunk):
    (shoe, policy, codes, dealt, bank, fresh), chunk = job_and_chunk
    counter = new_counter_tallies(seat_rounds=chunk.size, seats=dealt.seats)
    tallies = new_tallies()
    play = simulate_rounds if fresh else simulate_shoes
    # Real shoes: as many shoes as rounds at most; the kernel stops when the rounds are dealt.
    inputs = RoundInputs(codes, policy, 0.0, dealt)
    outputs = RoundOutputs(tallies, counter, new_scratch(dealt.seats))
    play(chunk.generator(), shoe, chunk.size, inputs, outputs)
    kept = counter.seat_results[: int(counter.stats[C_TABLE_ROUNDS])]
    return (
        *banking.tally_rounds(kept, bank),
        float(tallies.bad[0]),
        float(counter.stats[C_RESHUFFLED]),
    )
