"""The full table of 21st Century Baccarat: up to eight players and the P/D dealt from one
shoe, and what the P/D's seat carries (:mod:`gamecore.banking`).

Central idea
------------
The simulator's rounds (:mod:`gamecore.c21_baccarat.sim`), each seat's result kept round by
round, are read for the bank: each seat's SD, the covariance between seats, the P/D's SD,
the risk of ruin over a shift and rotation. The card makes a round the P/D cannot cover "no
action", so the banker is ruined below the players' wagers and the stake always covers.
With a shuffle every round each seat's result has the heads-up distribution, so the exact
figures have twins here too (:meth:`C21TableSimulation.cross_check`).
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from gamecore.banking import Bank, BankFigures, BankTallies, tally_rounds
from gamecore.c21_baccarat.rules import C21BaccaratRules
from gamecore.c21_baccarat.sim import checked_run, run_chunk
from gamecore.c21_baccarat.strategies import DealerStrategy, PlayerStrategy
from gamecore.c21_baccarat.strategy_pair import StrategyPairResult
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import Run, sum_tallies

#: Rounds per chunk of a table run, about (a whole number of shifts).
TABLE_CHUNK_ROUNDS = 1 << 16


@dataclasses.dataclass(frozen=True)
class C21TableSimulation:
    """A full table's rounds and what they say about the P/D's seat. The card makes a round
    the P/D cannot cover "no action", so the banker is ruined below every wager on the
    table (``bank.ruin_below`` = the players) and the stake always covers."""

    rules: C21BaccaratRules
    player: str
    dealer: str
    players: int
    dealing: Dealing
    rounds: int
    seed: int
    figures: BankFigures

    def cross_check(self, exact: StrategyPairResult) -> pd.DataFrame:
        """Each seat's EV and SD against the heads-up exact figures of the same strategy pair
        (a shuffle every round: the other seats' cards change no card's chance at any draw,
        as :mod:`gamecore.blackjack.table` argues), the P/D's EV, and each person's result
        under rotation (exactly 0).

        Parameters
        ----------
        exact : StrategyPairResult
            The heads-up exact result of the strategy pair the table played.

        Returns
        -------
        pandas.DataFrame
            :meth:`gamecore.banking.BankFigures.exact_twins`: Figure | Exact | Simulated |
            SE | z, one row per figure.
        """
        if not isinstance(exact, StrategyPairResult):
            raise GamecoreError(f"exact must be a StrategyPairResult, got {shown(exact)}")
        if (exact.player, exact.dealer) != (self.player, self.dealer):
            raise GamecoreError("the exact result and the table play different strategies")
        if self.dealing.mode != "fresh":
            raise GamecoreError(
                "the exact figures describe a shuffle every round; cross-check a table "
                "simulated with Dealing(mode='fresh', burn='none')"
            )
        return self.figures.exact_twins(float(exact.player_ev), exact.sd)


def simulate_table(
    rules: C21BaccaratRules,
    players: int,
    run: Run,
    dealing: Dealing | None = None,
    bank: Bank | None = None,
    player: PlayerStrategy | None = None,
    dealer: DealerStrategy | None = None,
) -> C21TableSimulation:
    """Deal ``run.rounds`` rounds of ``players`` seats and the P/D from one shoe (House Way
    by default; a shuffle every round unless ``dealing``), one unit each, and read what the
    P/D's seat carries. The banker is ruined below the players' wagers (the card's "no
    action": ``bank.ruin_below`` is ``players``, a bankroll below it refused). Fixed chunks,
    each a whole number of shifts: the result depends on the seed only, not on the threads.

    Parameters
    ----------
    rules, players, dealing, player, dealer
        As :func:`gamecore.c21_baccarat.sim.simulate` takes them.
    run
        Rounds, seed and where the chunks run.
    bank
        The P/D's shift and bankrolls (:class:`gamecore.banking.Bank`).

    Returns
    -------
    C21TableSimulation
        :class:`gamecore.banking.BankFigures`: each seat's SD, the covariance between
        seats, the P/D's SD, the risk of ruin for ``bank``'s bankrolls, rotation.
    """
    player, dealer, job = checked_run(rules, run, players, player, dealer, dealing)
    bank = Bank() if bank is None else bank
    if not isinstance(bank, Bank):
        raise GamecoreError(f"bank must be a Bank, got {shown(bank)}")
    # "No action" unless the P/D covers every wager: ruined below them, the stake covers.
    bank = dataclasses.replace(bank, stake=math.inf, ruin_below=float(players))
    chunk = bank.shift_rounds * max(1, TABLE_CHUNK_ROUNDS // bank.shift_rounds)
    results = run.run_chunks(_run_table_chunk, (job, bank), chunk, "c21_baccarat table")
    figures = BankFigures(players, bank, BankTallies(*sum_tallies(results)))
    return C21TableSimulation(
        rules, player.name, dealer.name, players, job.dealing, run.rounds, run.seed, figures
    )


def _run_table_chunk(job_and_chunk):
    (job, bank), chunk = job_and_chunk
    _tallies, results = run_chunk((job, chunk), keep_results=True)
    return tuple(tally_rounds(results, bank))
