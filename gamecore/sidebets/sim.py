"""A side bet's simulated twin: rounds dealt off physical cards, tallied per outcome.

Central idea
------------
The simulator deals real cards, each one integer ``rank * 4 + suit`` (the card model's
order), and reads each deal through the one model of a deal the exact engine reads
(:mod:`gamecore.sidebets.deal`): every card placed in the ``dealt`` table at full detail
(point class, rank, suit, colour, from :func:`card_table`), the facts filled by
``baccarat_facts`` or ``blackjack_facts``, the outcome paid found by ``outcome_of``. A
baccarat round is dealt by the baccarat simulator's own round
(:func:`gamecore.baccarat.sim.play_round`, on the points of the cards drawn, by
:data:`gamecore.baccarat.tableau.DRAWING`); a blackjack deal is its four cards, then, where
the bet reads the dealer's final hand, the cards other seats take (none yet: the hook
:func:`_other_seats`) and the dealer's draws by the bet's soft-17 rule
(:func:`gamecore.sidebets.dealer_count.deal_final`). So an exact figure and its twin differ
only in how the rounds were made: enumeration there, cards drawn here.

One round kernel serves two loops: rounds each off a freshly shuffled full shoe (``fresh``:
each card swapped in uniformly from the undealt ones, :func:`gamecore.dealing.draw_card`),
and whole shoes shuffled once and dealt as they lie to a cut card, with a counter's running
count (:mod:`gamecore.sidebets.counting`). Work is cut into fixed chunks seeded from
``numpy.random.SeedSequence`` (:mod:`gamecore.parallel`); outcome tallies are integers added
in chunk order, so a result depends on the seed only, never on threads.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore import cards, rulewords, twins
from gamecore._jit import borrowed, kernel
from gamecore.baccarat.sim import play_round
from gamecore.baccarat.tableau import DRAWING, DrawingTables
from gamecore.counting import SHOE_FLAT_SQ, SHOE_WON_SQ, STATS, add_round
from gamecore.dealing import draw_card, shuffle
from gamecore.errors import GamecoreError
from gamecore.parallel import Chunk, make_chunks, run_chunks, validate_seed, validate_trials
from gamecore.sidebets.deal import (
    B1,
    B2,
    B3,
    BJ_HOLE,
    BJ_P1,
    BJ_P2,
    BJ_UP,
    FACTS,
    NATURAL_1,
    P1,
    P2,
    P3,
    baccarat_facts,
    blackjack_facts,
    card_table,
    outcome_of,
)
from gamecore.sidebets.dealer_count import deal_final
from gamecore.sidebets.dealer_final import MAX_DRAWS, reads_final
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.parsheet import ParSheet, par_sheet
from gamecore.sidebets.program import VALUE, compile_bet, draws_by_rank
from gamecore.sidebets.table_play import (
    MOST_OTHER_SEATS,
    TablePolicy,
    idle_policy,
    other_seats_draw,
    seat_draws,
    table_policy,
)

#: Rounds per chunk of a fresh-shoe simulation. Fixed, so results never depend on threads.
CHUNK_ROUNDS = 1 << 18
#: Shoes per chunk of a counter's run.
CHUNK_SHOES = 2_000
#: Cards a baccarat round may take (the round is dealt from the next six as they lie).
BACCARAT_ROUND = 6
#: Cards a blackjack deal takes before anyone draws (player, up card, player, hole card).
BLACKJACK_DEAL = 4


class SimJob(NamedTuple):
    """What every chunk's kernel reads: the shoe as card codes, each code's attributes, the
    bet's compiled tests and the game's dealing.

    Attributes
    ----------
    codes : numpy.ndarray
        int64: every card of the full shoe as ``rank * 4 + suit``.
    table : numpy.ndarray
        int64 (4, 52): each code's point class, rank, suit and colour (:func:`card_table`).
    tests : numpy.ndarray
        The bet's test rows (:class:`gamecore.sidebets.program.Program`).
    outcomes : int
        Its paying outcomes.
    baccarat : bool
        Baccarat (a round by the tableau) or blackjack (four cards).
    drawing : DrawingTables
        Baccarat's tableau.
    final : bool
        Blackjack: the dealer draws to a final hand (the bet reads it).
    dealer_rule : tuple of int
        ``(hits_soft_17, by_rank, peek)``: the dealer's soft-17 rule, and whether the final hand's
        classes are ranks or point classes (:func:`gamecore.sidebets.program.draws_by_rank`).
    seats : int
        Other seats at the table, playing before the dealer draws (0: the exact model's
        table; :func:`_other_seats`).
    policy : TablePolicy
        Their basic strategy, and the bettor's where seats play
        (:func:`gamecore.sidebets.table_play.table_policy`; an idle one without seats).
    round_cards : int
        The most cards one round takes (a shoe dealt to the cut card deals a round only where
        this many are left).
    """

    codes: np.ndarray
    table: np.ndarray
    tests: np.ndarray
    outcomes: int
    baccarat: bool
    drawing: DrawingTables
    final: bool
    dealer_rule: tuple
    seats: int
    round_cards: int
    policy: TablePolicy


class CounterPlan(NamedTuple):
    """A counter's play, as the shoe kernel reads it.

    Attributes
    ----------
    tags : numpy.ndarray
        int64 (52,): the count's tag of each card code.
    trigger : float
        The true count at or above which the counter bets one unit (``-inf``: always).
    pays : numpy.ndarray
        float64 (outcomes + 1,): each outcome's net result per unit, the losing one -1.
    penetration : int
        Cards behind the cut card.
    """

    tags: np.ndarray
    trigger: float
    pays: np.ndarray
    penetration: int


# ---------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def _place(dealt, table, position, code):
    """Put card ``code`` (or no card, -1) at ``position`` of the deal, at full detail."""
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = -1 if code < 0 else table[attribute, code]


@kernel(inline=True)
def _deal_round(rng, codes, start, fresh, job, work):
    """Deal one round from ``codes[start:]`` (with ``fresh``, each card first drawn
    uniformly from the undealt positions) into ``work = (points, dealt, facts, matched)``;
    return the outcome paid and the cards used."""
    points, dealt, facts, matched = work
    table = job.table
    if job.baccarat:
        # Six cards whatever the round takes: the first four to six of six drawn at random
        # are as random as cards drawn one at a time, and the baccarat simulator's own round
        # then reads their points as they lie (its tableau, not a copy of it).
        for i in range(BACCARAT_ROUND):
            points[i] = table[VALUE, draw_card(rng, codes, start + i, fresh)]
        drawing = job.drawing
        player_drew, banker_drew, _pt, _bt, used = play_round(
            rng,
            points,
            0,
            False,
            drawing.player_draws,
            drawing.banker_draws_player_stood,
            drawing.banker_draws,
        )
        _place(dealt, table, P1, codes[start])
        _place(dealt, table, B1, codes[start + 1])
        _place(dealt, table, P2, codes[start + 2])
        _place(dealt, table, B2, codes[start + 3])
        third = start + 4
        _place(dealt, table, P3, codes[third] if player_drew else -1)
        _place(dealt, table, B3, codes[third + player_drew] if banker_drew else -1)
        baccarat_facts(dealt, facts)
    else:  # the casino's order: player, dealer up, player, dealer hole
        order = (BJ_P1, BJ_UP, BJ_P2, BJ_HOLE)
        for i in range(BLACKJACK_DEAL):
            _place(dealt, table, order[i], draw_card(rng, codes, start + i, fresh))
        used = BLACKJACK_DEAL
        blackjack_facts(dealt, facts)
        if job.final:
            used += _other_seats(rng, codes, start + used, fresh, job, facts)
            used += deal_final(
                rng, codes, start + used, fresh, table, job.dealer_rule, dealt, facts
            )
    paid = outcome_of(job.tests, job.outcomes, dealt, facts, matched)
    return paid, used


@kernel(inline=True)
def _other_seats(rng, codes, start, fresh, job, facts):
    """The cards the table takes from ``codes[start:]`` before the dealer draws; return
    how many.

    With ``job.seats`` other seats (the second twin of a bet on the dealer's final hand),
    the bettor's own hand (its cards at ``start - 4`` and ``start - 2``: player, up, player,
    hole) is played out first, then the other seats are dealt and played
    (:mod:`gamecore.sidebets.table_play`: gamecore's basic strategy, the seats keeping
    :data:`~gamecore.sidebets.table_play.DEALER_RESERVE` cards for the dealer, so a round
    never takes more than ``job.round_cards`` past the reserve). Without seats, or where the
    dealer peeks (``job.dealer_rule[2]``) and holds a natural, nobody plays: the dealer
    draws straight after the four cards, as the exact model deals
    (:mod:`gamecore.sidebets.dealer_final`).
    """
    if job.seats == 0 or (job.dealer_rule[2] and facts[NATURAL_1]):
        return 0
    up = job.policy.classes[codes[start - 3]]
    position, _short = seat_draws(
        rng, codes, start, fresh, codes[start - 4], codes[start - 2], up, job.policy
    )
    position, _short = other_seats_draw(rng, codes, position, fresh, up, job.seats, job.policy)
    return position - start


@kernel(inline=True)
def _work(job):
    positions = 6 if job.baccarat else 4
    return (
        np.zeros(BACCARAT_ROUND, dtype=np.int64),
        np.full((4, positions), -1, dtype=np.int64),
        np.zeros(FACTS, dtype=np.int64),
        np.zeros(job.outcomes, dtype=np.bool_),
    )


@kernel
def _simulate_fresh(rng, job, rounds):
    """Rounds of each outcome paid (losing last), each round off the full shoe."""
    counts = np.zeros(job.outcomes + 1, dtype=np.int64)
    # The array stays a permutation of the full shoe, so each round's cards are a uniformly
    # random sequence drawn without replacement from the full shoe.
    codes = job.codes.copy()
    work = _work(job)
    for _ in range(rounds):
        # Borrowed: the inlined round's copies then cost no reference counts.
        paid, _used = _deal_round(
            borrowed(rng), borrowed(codes), 0, True, borrowed(job), borrowed(work)
        )
        counts[paid] += 1
    return counts


@kernel
def _count_shoes(rng, job, shoes, plan):
    """Deal ``shoes`` shoes to the cut card; a counter bets one unit before a round when
    the true count (running count per 52 cards left) reaches the trigger, else nothing.
    Returns the counter's statistics (gamecore.counting's columns) and the rounds of each
    outcome over every round dealt."""
    stats = np.zeros(STATS)
    counts = np.zeros(job.outcomes + 1, dtype=np.int64)
    codes = job.codes.copy()
    work = _work(job)
    n = codes.size
    cut = n - plan.penetration
    for _ in range(shoes):
        shuffle(rng, codes)
        running = 0
        position = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        while position < cut and n - position >= job.round_cards:
            true_count = running * 52.0 / (n - position)
            bet = 1.0 if true_count >= plan.trigger else 0.0
            paid, used = _deal_round(
                borrowed(rng), borrowed(codes), position, False, borrowed(job), borrowed(work)
            )
            net = plan.pays[paid]
            add_round(stats, bet, bet * net, net, net, position == 0)
            shoe_won += bet * net
            shoe_flat += net
            counts[paid] += 1
            for i in range(used):  # every card of the round is seen
                running += plan.tags[codes[position + i]]
            position += used
        stats[SHOE_WON_SQ] += shoe_won * shoe_won
        stats[SHOE_FLAT_SQ] += shoe_flat * shoe_flat
    return stats, counts


# ---------------------------------------------------------------------------------------
# Jobs and chunks
# ---------------------------------------------------------------------------------------


def sim_job(bet: SideBet, decks: int, seats: int = 0) -> SimJob:
    """The job every chunk of ``bet`` dealt from ``decks`` decks reads.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        Decks in the shoe, 1..1000.
    seats : int, default 0
        Other seats playing basic strategy before the dealer draws, 0..6: only for a bet
        on the dealer's final hand (the full-table twin; the bettor's hand plays too).

    Returns
    -------
    SimJob
        The full shoe's codes, the card table, the compiled tests and the dealing.
    """
    program = compile_bet(bet)
    final = bet.game == "blackjack" and reads_final(bet)
    if seats and not final:
        raise GamecoreError(
            f"{bet.bet} does not read the dealer's final hand: other seats drawing first "
            "change none of its figures (seats must be 0)"
        )
    if seats not in range(MOST_OTHER_SEATS + 1):
        raise GamecoreError(f"seats {seats!r} is not a whole number 0..{MOST_OTHER_SEATS}")
    policy = table_policy(decks, bet.dealer.hits_soft_17) if seats else idle_policy()
    if bet.game == "baccarat":
        round_cards = BACCARAT_ROUND
    else:
        round_cards = BLACKJACK_DEAL + (MAX_DRAWS if final else 0)
    return SimJob(
        cards.standard(decks).card_codes(),
        card_table(bet.game),
        program.tests,
        program.outcomes,
        bet.game == "baccarat",
        DRAWING,
        final,
        (int(bet.dealer.hits_soft_17), int(draws_by_rank(bet)), int(bet.dealer.peek)),
        seats,
        round_cards,
        policy,
    )


def fresh_chunk(job_and_chunk: tuple[SimJob, Chunk]) -> np.ndarray:
    """One chunk of rounds, each off a full shoe (the work one thread or Dask worker does).

    Parameters
    ----------
    job_and_chunk : tuple
        ``(job, chunk)``: the :class:`SimJob` and the :class:`gamecore.parallel.Chunk`
        (its rounds and its seed).

    Returns
    -------
    numpy.ndarray
        int64 (outcomes + 1,): rounds paid on each outcome, the losing ones last.
    """
    job, chunk = job_and_chunk
    return _simulate_fresh(chunk.generator(), job, chunk.size)


def count_chunk(job_and_chunk: tuple[tuple[SimJob, CounterPlan], Chunk]) -> tuple:
    """One chunk of shoes dealt to the cut card to a counter.

    Parameters
    ----------
    job_and_chunk : tuple
        ``((job, plan), chunk)``: the :class:`SimJob`, the :class:`CounterPlan` and the
        :class:`gamecore.parallel.Chunk` (its shoes and its seed).

    Returns
    -------
    tuple
        ``(stats, counts)``: float64 (:data:`gamecore.counting.STATS`,), the counter's
        statistics summed over the chunk's rounds and shoes; int64 (outcomes + 1,), the
        rounds paid on each outcome over every round dealt.
    """
    (job, plan), chunk = job_and_chunk
    return _count_shoes(chunk.generator(), job, chunk.size, plan)


# ---------------------------------------------------------------------------------------
# The fresh-shoe simulation and its twin table
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SideBetSimulation:
    """Simulated rounds of a side bet, each off a freshly shuffled full shoe.

    Attributes
    ----------
    bet : SideBet
        The definition.
    decks : int
        Decks in the shoe.
    rounds : int
        Rounds dealt.
    seed : int
        The seed; with ``rounds`` it fixes ``counts`` exactly.
    counts : numpy.ndarray
        int64 (outcomes + 1,): rounds paid on each outcome in the definition's order, then
        the losing rounds.
    seats : int
        Other seats that played before the dealer drew (0: dealt as the exact model deals).
    """

    bet: SideBet
    decks: int
    rounds: int
    seed: int
    counts: np.ndarray
    seats: int = 0

    def figures(self) -> dict[str, float]:
        """The simulated mean result and its standard error, exact until one conversion.

        Returns
        -------
        dict of str to float
            ``mean`` (units won per unit wagered, the twin of the exact expected return),
            ``sd`` (the sample standard deviation of a round's result) and ``se``.
        """
        pays = [o.pays for o in self.bet.outcomes] + [Fraction(-1)]
        counts = [int(c) for c in self.counts]
        total = sum((c * p for c, p in zip(counts, pays, strict=True)), Fraction(0))
        squares = sum((c * p * p for c, p in zip(counts, pays, strict=True)), Fraction(0))
        mean = total / self.rounds
        variance = (squares - self.rounds * mean**2) / max(self.rounds - 1, 1)
        sd = math.sqrt(variance)
        return {"mean": float(mean), "sd": sd, "se": sd / math.sqrt(self.rounds)}


def simulate(
    bet: SideBet,
    decks: int,
    rounds: int,
    seed: int,
    threads: int | None = None,
    seats: int = 0,
) -> SideBetSimulation:
    """Simulate ``rounds`` rounds of ``bet``, each off a freshly shuffled full shoe.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        Decks in the shoe, 1..1000.
    rounds : int
        Rounds to deal, a positive integer.
    seed : int
        A non-negative integer; with ``rounds`` it fixes the result exactly.
    threads : int, optional
        Threads on this machine (default: every core); never changes the result.
    seats : int, default 0
        Other seats playing basic strategy before the dealer draws (a bet on the dealer's
        final hand only; :func:`sim_job`): 0 deals as the exact model does.

    Returns
    -------
    SideBetSimulation
        Rounds of each outcome.
    """
    decks = cards.validate_decks(decks)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    results = run_chunks(
        fresh_chunk,
        sim_job(bet, decks, seats),
        make_chunks(rounds, CHUNK_ROUNDS, seed),
        threads=threads,
        progress=False,
        description=f"simulating {bet.bet}",
    )
    counts = np.zeros(len(bet.outcomes) + 1, dtype=np.int64)
    for chunk_counts in results:  # in chunk order
        counts += chunk_counts
    return SideBetSimulation(bet, decks, rounds, seed, counts, seats)


def twin_table(sheet: ParSheet, simulation: SideBetSimulation) -> pd.DataFrame:
    """Each outcome's exact probability and the exact expected return beside their
    simulated twins.

    Parameters
    ----------
    sheet : ParSheet
        The exact par sheet.
    simulation : SideBetSimulation
        Rounds simulated of the same bet at the same deck count.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Pays |
        Exact SD | Simulated SD | Rounds, a row per outcome (``P(name)``, the losing line
        last; the binomial SE at the exact probability) and the ``EV`` row (the exact SD
        over root n); :func:`gamecore.twins.verdict` reads it against the family-wise threshold.
    """
    if sheet.bet != simulation.bet or sheet.decks != simulation.decks:
        raise GamecoreError(
            f"the twin compares one bet at one deck count: the sheet is {sheet.bet.bet} at "
            f"{rulewords.decks(sheet.decks)}, the simulation {simulation.bet.bet} at "
            f"{rulewords.decks(simulation.decks)}"
        )
    n = simulation.rounds
    rows: list[dict[str, Any]] = []
    for line, count in zip(sheet.lines, simulation.counts, strict=True):
        rows.append(
            {
                "Figure": f"P({line.name})",
                **twins.frequency_twin(line.probability, int(count), n),
                "Pays": line.pays_text,
                "Rounds": n,
            }
        )
    figures = simulation.figures()
    rows.append(
        {
            "Figure": "EV",
            # SE under the exact figure: its SD over root n (gamecore.twins)
            **twins.mean_twin(float(sheet.expected_return), sheet.sd, figures["mean"], n),
            "Exact SD": sheet.sd,
            "Simulated SD": figures["sd"],
            "Rounds": n,
        }
    )
    return twins.twin_table(rows)


def deck_sweep_twin_table(
    bet: SideBet, deck_counts: Sequence[int], rounds: int, seed: int, threads: int | None = None
) -> pd.DataFrame:
    """The simulated twin of every row of :func:`gamecore.sidebets.study.deck_sweep`: the
    bet simulated at each deck count and read against its exact par sheet there.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    deck_counts : sequence of int
        Deck counts, each 1..1000.
    rounds : int
        Rounds simulated per deck count.
    seed : int
        The seed of the first deck count; the ``i``-th deck count (from 0) is seeded with
        ``seed + i``.
    threads : int, optional
        Threads on this machine (never changes the result).

    Returns
    -------
    pandas.DataFrame
        The rows of :func:`twin_table` for each deck count, each Figure suffixed with its
        deck count, and a Decks column.
    """
    parts = []
    for index, decks in enumerate(deck_counts):
        decks = cards.validate_decks(decks)
        check = twin_table(
            par_sheet(bet, decks), simulate(bet, decks, rounds, seed + index, threads)
        )
        check["Figure"] = check["Figure"] + f", {rulewords.decks(decks)}"
        check["Decks"] = decks
        parts.append(check)
    return pd.concat(parts, ignore_index=True)
